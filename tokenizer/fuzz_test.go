package tokenizer

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"
	"unicode/utf8"
)

// idsFrom turns fuzz bytes into token IDs (two bytes each), so decoders meet arbitrary sequences.
func idsFrom(b []byte, vocab int) []int {
	ids := make([]int, 0, len(b)/2)
	for i := 0; i+1 < len(b); i += 2 {
		ids = append(ids, int(binary.LittleEndian.Uint16(b[i:]))%(vocab+3))
	}
	return ids
}

// decodeAll decodes with every option set; the text must be valid UTF-8 and nothing may panic.
func decodeAll(t *testing.T, tok *Tokenizer, ids []int) {
	t.Helper()
	for _, o := range []DecodeOptions{{}, {SkipSpecialTokens: true, CleanUp: CleanUpOn}, {SlowLlama: true}, {Strict: true}} {
		s, err := tok.Decode(ids, o)
		if err == nil && !utf8.ValidString(s) {
			t.Fatalf("Decode(%v, %+v) = %q: not valid UTF-8", ids, o, s)
		}
	}
}

var jsonSeeds = []string{
	`{"added_tokens":[{"id":3,"content":"<s>","special":true}],"decoder":{"type":"ByteLevel"},"model":{"type":"BPE","vocab":{"a":0,"b":1,"ab":2},"merges":["a b"]}}`,
	`{"decoder":{"type":"Sequence","decoders":[{"type":"Replace","pattern":{"String":"▁"},"content":" "},{"type":"ByteFallback"},{"type":"Fuse"},{"type":"Strip","content":" ","start":1,"stop":0}]},"model":{"type":"BPE","byte_fallback":true,"vocab":{"<unk>":0,"<0x41>":1,"▁a":2,"<0xE2>":3},"merges":[]}}`,
	`{"decoder":{"type":"Metaspace","replacement":"▁","prepend_scheme":"first"},"model":{"vocab":{"▁":0,"x":1},"merges":[["▁","x"]]}}`,
	`{"decoder":{"type":"WordPiece"},"model":{"type":"BPE","vocab":{},"merges":[]}}`,
	`{"model":{"type":"Unigram"}}`,
	`{"added_tokens":[{"id":0,"content":"","special":true},{"id":9,"content":"x","special":false}],"model":{"type":"BPE","vocab":{"x":-5},"merges":["x"]}}`,
}

func FuzzParseJSON(f *testing.F) {
	for _, s := range jsonSeeds {
		f.Add([]byte(s), []byte{1, 0, 2, 0, 3, 0})
	}
	if b, err := os.ReadFile(filepath.Join("testdata", "spm", "tokenizer.json")); err == nil {
		f.Add(b, []byte{10, 0, 200, 1, 3, 0})
	}
	f.Fuzz(func(t *testing.T, data, idBytes []byte) {
		tok, err := parseJSON(data, nil)
		if err != nil {
			return
		}
		decodeAll(t, tok, idsFrom(idBytes, tok.VocabSize()))
		_, _ = tok.Encode(string(idBytes))
	})
}

func FuzzParseConfig(f *testing.F) {
	f.Add([]byte(`{"clean_up_tokenization_spaces":true,"bos_token":{"content":"<s>"},"eos_token":"</s>","pad_token":null,"additional_special_tokens":["<x>"],"added_tokens_decoder":{"5":{"content":"<y>","special":true}},"legacy":false}`))
	f.Add([]byte(`{"bos_token":7}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := parseConfig(data)
		if err != nil {
			return
		}
		av := newAddedVocab(map[string]int{"a": 0, "<s>": 1})
		c.addTokens(av)
		c.cleanUp("x")
		c.slowLlama()
	})
}

func FuzzParseTiktoken(f *testing.F) {
	f.Add([]byte("IQ== 0\nIg== 1\n4oI= 2\n\n"), []byte{0, 0, 1, 0, 2, 0, 3, 0})
	f.Add([]byte("IQ== 1\n"), []byte{})
	f.Add([]byte("!!! 0\n"), []byte{})
	f.Add([]byte("IQ== 0 extra\n"), []byte{})
	f.Fuzz(func(t *testing.T, data, idBytes []byte) {
		ranks, err := parseTiktoken(data)
		if err != nil {
			return
		}
		tok := newTiktoken(ranks, []string{"<|begin_of_text|>", "<|end_of_text|>"})
		tok.path = "fuzz"
		decodeAll(t, tok, idsFrom(idBytes, tok.VocabSize()))
		_, _ = tok.Encode(string(idBytes))
	})
}

// FuzzLossyUTF8: the output is valid UTF-8, equals valid input, and never grows by more than
// U+FFFD's three bytes per input byte.
func FuzzLossyUTF8(f *testing.F) {
	for _, s := range []string{"", "a", "\xe2\x82", "\xe2\x82A", "\xed\xa0\x80", "\xf4\x90\x80\x80", "héllo\xff"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		out := AppendLossyUTF8(nil, b)
		if !utf8.Valid(out) {
			t.Fatalf("%x -> %x: not valid", b, out)
		}
		if utf8.Valid(b) && string(out) != string(b) {
			t.Fatalf("valid %q changed to %q", b, out)
		}
		if len(out) > 3*len(b) {
			t.Fatalf("%x -> %d bytes", b, len(out))
		}
	})
}

// FuzzEncodeRoundTrip: byte-level BPE loses nothing, so decoding what Encode gives (clean-up
// off, specials kept) returns the text - for our byte-level tokenizer and, when
// MLPERF_GO_LLAMA3_TOKENIZER is set, for Meta's.
func FuzzEncodeRoundTrip(f *testing.F) {
	toks := []*Tokenizer{loadSmall(f, "bytelevel")}
	if p := os.Getenv("MLPERF_GO_LLAMA3_TOKENIZER"); p != "" {
		tok, err := Load(p)
		if err != nil {
			f.Fatal(err)
		}
		toks = append(toks, tok)
	}
	for _, s := range []string{"", "Hello world", " n't 's\r\n\n  x", "日本語 😀 e\u0301", "<|eot_id|>a<think>", "it'\u017f  \u3000"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			return // Python strings, which the reference encodes, are valid text
		}
		for _, tok := range toks {
			ids, err := tok.Encode(s)
			if err != nil {
				t.Fatal(err)
			}
			got, err := tok.Decode(ids, DecodeOptions{CleanUp: CleanUpOff})
			if err != nil || got != s {
				t.Fatalf("%s: Decode(Encode(%q)) = %q, %v (ids %v)", tok.Path(), s, got, err, ids)
			}
		}
	})
}
