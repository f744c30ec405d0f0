package tokenizer

import (
	"math"
	"path/filepath"
	"strings"
	"testing"
)

// TestDecodeIDRange: ids the vocabulary lacks are dropped as the tokenizers library drops them
// (Strict makes that an error), and ids no uint32 holds are errors, as transformers raises
// OverflowError for them.
func TestDecodeIDRange(t *testing.T) {
	t.Parallel()
	tok := loadSmall(t, "bytelevel")
	a, _ := tok.TokenID("a")
	want, err := tok.Decode([]int{a, a}, DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := tok.Decode([]int{a, tok.VocabSize(), math.MaxUint32, a}, DecodeOptions{})
	if err != nil || got != want {
		t.Errorf("unknown ids: got %q, %v; want %q (dropped)", got, err, want)
	}
	if _, err := tok.Decode([]int{a, tok.VocabSize()}, DecodeOptions{Strict: true}); err == nil || !strings.Contains(err.Error(), "not in") {
		t.Errorf("Strict: %v", err)
	}
	for _, id := range []int{-1, math.MaxUint32 + 1} {
		if _, err := tok.Decode([]int{id}, DecodeOptions{}); err == nil || !strings.Contains(err.Error(), "OverflowError") {
			t.Errorf("id %d: %v", id, err)
		}
	}
	if _, err := loadSmall(t, "spm").Decode([]int{5, 99999}, DecodeOptions{SlowLlama: true}); err == nil || !strings.Contains(err.Error(), "out of range") {
		t.Errorf("slow decode of an unknown id: %v", err)
	}
	if _, err := tok.Decode([]int{a}, DecodeOptions{SlowLlama: true}); err == nil {
		t.Error("slow Llama decode of a byte-level tokenizer succeeded")
	}
}

// TestUnsupportedTypesNamed: a type this package does not implement is refused with its name
// and the file, never decoded some other way; normalizers and pre-tokenizers only stop Encode.
func TestUnsupportedTypesNamed(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, c := range []struct{ json, want string }{
		{`{"decoder":{"type":"WordPiece","prefix":"##"},"model":{"type":"BPE","vocab":{"a":0},"merges":[]}}`, `decoder type "WordPiece"`},
		{`{"decoder":{"type":"Sequence","decoders":[{"type":"CTC"}]},"model":{"type":"BPE","vocab":{"a":0},"merges":[]}}`, `Sequence[0]: decoder type "CTC"`},
		{`{"decoder":{"type":"Replace","pattern":{"Regex":"x+"},"content":""},"model":{"type":"BPE","vocab":{"a":0},"merges":[]}}`, "Regex"},
		{`{"model":{"type":"Unigram","vocab":[["a",0.0]]}}`, `model type "Unigram"`},
	} {
		p := filepath.Join(dir, "tokenizer.json")
		writeFile(t, p, c.json)
		_, err := Load(p)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), p) {
			t.Errorf("%s: %v; want an error naming %q and the file", c.json, err, c.want)
		}
	}
	p := filepath.Join(dir, "tokenizer.json")
	writeFile(t, p, `{"normalizer":{"type":"NFKC"},"decoder":{"type":"ByteLevel"},"model":{"type":"BPE","vocab":{"a":0},"merges":[]}}`)
	tok, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	if s, err := tok.Decode([]int{0}, DecodeOptions{}); err != nil || s != "a" {
		t.Errorf("decode with an unsupported normalizer: %q, %v", s, err)
	}
	if _, err := tok.Encode("a"); err == nil || !strings.Contains(err.Error(), `normalizer type "NFKC"`) {
		t.Errorf("Encode: %v", err)
	}
	writeFile(t, p, "\x0a\x0b\x08\x00\x12\x05<unk>") // sentencepiece protobuf
	if _, err := Load(p); err == nil || !strings.Contains(err.Error(), "sentencepiece") {
		t.Errorf("protobuf model: %v", err)
	}
}
