package tokenizer

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"unicode/utf8"
)

// smallTokenizers are testdata's own tokenizers (gen_small_golden.py), one per shape of real file.
var smallTokenizers = []string{"bytelevel", "spm-legacy", "spm", "metaspace"}

func loadSmall(t testing.TB, name string) *Tokenizer {
	t.Helper()
	tok, err := Load(filepath.Join("testdata", name, "tokenizer.json"))
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

func TestSmallDecodeGolden(t *testing.T) {
	t.Parallel()
	for _, name := range smallTokenizers {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			checkDecode(t, loadSmall(t, name), readJSONL[decodeCase](t, name+"_decode.jsonl.gz"))
		})
	}
}

// TestConfigOnlySpecialToken: a special token named only in tokenizer_config.json is added by
// transformers at load, at the id after the added tokens, and is skipped as special.
func TestConfigOnlySpecialToken(t *testing.T) {
	t.Parallel()
	tok := loadSmall(t, "bytelevel")
	id, ok := tok.TokenID("<|config_only|>")
	if !ok || !tok.IsSpecial(id) || id != tok.VocabSize()-1 {
		t.Fatalf("<|config_only|>: id %d ok %t special %t, vocabulary %d", id, ok, tok.IsSpecial(id), tok.VocabSize())
	}
	if on, src := tok.CleanUpSpaces(); !on {
		t.Errorf("clean-up off, want on from tokenizer_config.json (%s)", src)
	}
}

type quirks struct {
	UTF8ByteLevel    []utf8Case `json:"utf8_bytelevel"`
	UTF8ByteFallback []utf8Case `json:"utf8_bytefallback"`
	CleanUp          []struct {
		IDs []int  `json:"ids"`
		Off string `json:"off"`
		On  string `json:"on"`
	} `json:"cleanup"`
}

type utf8Case struct {
	Hex  string `json:"hex"`
	IDs  []int  `json:"ids"`
	Text string `json:"text"`
}

func readQuirks(t *testing.T) quirks {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "quirks.json"))
	if err != nil {
		t.Fatal(err)
	}
	var q quirks
	if err := json.Unmarshal(data, &q); err != nil {
		t.Fatal(err)
	}
	return q
}

// TestLossyUTF8Quirk: broken UTF-8 becomes U+FFFD per maximal ill-formed subpart (Rust's
// from_utf8_lossy, Python's errors="replace"), not per byte as Go's utf8 reports it.
func TestLossyUTF8Quirk(t *testing.T) {
	t.Parallel()
	q := readQuirks(t)
	tok := loadSmall(t, "bytelevel")
	differsFromGo := 0
	for _, c := range q.UTF8ByteLevel {
		raw, err := hex.DecodeString(c.Hex)
		if err != nil {
			t.Fatal(err)
		}
		if got := string(AppendLossyUTF8(nil, raw)); got != c.Text {
			t.Errorf("AppendLossyUTF8(%s) = %q, want %q", c.Hex, got, c.Text)
		}
		got, err := tok.Decode(c.IDs, DecodeOptions{CleanUp: CleanUpOff})
		if err != nil || got != c.Text {
			t.Errorf("Decode(bytes %s) = %q, %v; want %q", c.Hex, got, err, c.Text)
		}
		if goPerByte(raw) != c.Text {
			differsFromGo++
		}
	}
	if differsFromGo == 0 {
		t.Error("no case tells the maximal-subpart rule from Go's per-byte replacement: the golden lost its point")
	}
}

// goPerByte is what naive Go decoding (utf8.DecodeRune, one U+FFFD per bad byte) would give.
func goPerByte(b []byte) string {
	var out []rune
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		out = append(out, r)
		b = b[n:]
	}
	return string(out)
}

// TestByteFallbackQuirk: the ByteFallback decoder gives one U+FFFD per byte of a run of byte
// tokens that is not valid UTF-8 as a whole - valid characters in that run included.
func TestByteFallbackQuirk(t *testing.T) {
	t.Parallel()
	tok := loadSmall(t, "spm-legacy")
	for _, c := range readQuirks(t).UTF8ByteFallback {
		got, err := tok.Decode(c.IDs, DecodeOptions{CleanUp: CleanUpOff})
		if err != nil || got != c.Text {
			t.Errorf("Decode(<0x..> %s) = %q, %v; want %q", c.Hex, got, err, c.Text)
		}
	}
}

// TestCleanUpQuirk: transformers' clean_up_tokenization_spaces, on and off.
func TestCleanUpQuirk(t *testing.T) {
	t.Parallel()
	tok := loadSmall(t, "bytelevel")
	for _, c := range readQuirks(t).CleanUp {
		for _, o := range []struct {
			cu   CleanUp
			want string
		}{{CleanUpOff, c.Off}, {CleanUpOn, c.On}, {CleanUpDefault, c.On}} {
			got, err := tok.Decode(c.IDs, DecodeOptions{CleanUp: o.cu})
			if err != nil || got != o.want {
				t.Errorf("Decode(%v, clean-up %d) = %q, %v; want %q", c.IDs, o.cu, got, err, o.want)
			}
		}
		if c.Off != c.On && CleanUpTokenization(c.Off) != c.On {
			t.Errorf("CleanUpTokenization(%q) = %q, want %q", c.Off, CleanUpTokenization(c.Off), c.On)
		}
	}
}

// TestSlowLlamaDecodeGolden: the slow LlamaTokenizer's decode (the llama2-70b reference's
// use_fast=False), legacy and not, with and without skip_special_tokens; and how often it
// differs from the fast tokenizer's on the same ids, so the report can say it matters.
func TestSlowLlamaDecodeGolden(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"spm-legacy", "spm"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			tok := loadSmall(t, name)
			n, bad, differ := 0, 0, 0
			for i, c := range readJSONL[decodeCase](t, name+"_decode.jsonl.gz") {
				if c.Slow == nil {
					continue
				}
				for _, o := range []struct {
					skip bool
					want string
				}{{true, *c.Slow}, {false, *c.Slow0}} {
					n++
					got, err := tok.Decode(c.IDs, DecodeOptions{SkipSpecialTokens: o.skip, SlowLlama: true})
					if err != nil {
						t.Fatalf("case %d: %v", i, err)
					}
					if got != o.want {
						if bad++; bad <= 5 {
							t.Errorf("case %d skip=%t ids=%v:\n got %q\nwant %q", i, o.skip, c.IDs, got, o.want)
						}
					}
				}
				if *c.Slow != c.S1C0 {
					differ++
				}
			}
			if bad > 0 {
				t.Errorf("%d of %d slow decodes differ", bad, n)
			}
			t.Logf("%s: %d slow decodes match; the fast decode differs from the slow one in %d of %d sequences", name, n, differ, n/2)
		})
	}
}

func TestSmallEncodeGolden(t *testing.T) {
	t.Parallel()
	for _, name := range smallTokenizers {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			checkEncode(t, loadSmall(t, name), readJSONL[encodeCase](t, name+"_encode.jsonl.gz"))
		})
	}
}

// TestMergesAsStrings: older tokenizer.json files (the Hub's Llama 3 among them) write merges as
// "a b" strings, newer ones as [a, b] pairs; both must encode alike.
func TestMergesAsStrings(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(filepath.Join("testdata", "bytelevel", "tokenizer.json"))
	if err != nil {
		t.Fatal(err)
	}
	var f map[string]any
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	model := f["model"].(map[string]any)
	pairs := model["merges"].([]any)
	strs := make([]string, len(pairs))
	for i, p := range pairs {
		ab := p.([]any)
		strs[i] = ab[0].(string) + " " + ab[1].(string)
	}
	model["merges"] = strs
	out, err := json.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "tokenizer.json"), string(out))
	tok, err := Load(filepath.Join(dir, "tokenizer.json"))
	if err != nil {
		t.Fatal(err)
	}
	checkEncode(t, tok, readJSONL[encodeCase](t, "bytelevel_encode.jsonl.gz"))
}

// TestConcurrentDecode: a loaded Tokenizer is shared by goroutines (run under -race in CI).
func TestConcurrentDecode(t *testing.T) {
	t.Parallel()
	tok := loadSmall(t, "spm-legacy")
	cases := readJSONL[decodeCase](t, "spm-legacy_decode.jsonl.gz")[:200]
	done := make(chan error)
	for g := 0; g < 4; g++ {
		go func() {
			var err error
			for _, c := range cases {
				var got string
				if got, err = tok.Decode(c.IDs, DecodeOptions{SkipSpecialTokens: true}); err == nil && got != c.S1C0 {
					err = fmt.Errorf("ids %v: got %q want %q", c.IDs, got, c.S1C0)
				}
				if err != nil {
					break
				}
				if _, err = tok.Encode(c.S0C0); err != nil {
					break
				}
			}
			done <- err
		}()
	}
	for g := 0; g < 4; g++ {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
}
