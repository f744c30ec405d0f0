package tokenizer

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// readJSONL reads a gzipped JSON-lines golden file of testdata into values of T.
func readJSONL[T any](t *testing.T, name string) []T {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var out []T
	sc := bufio.NewScanner(zr)
	sc.Buffer(make([]byte, 0, 1<<20), 64<<20)
	for sc.Scan() {
		var v T
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out = append(out, v)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(out) == 0 {
		t.Fatalf("%s: no cases", name)
	}
	return out
}

// decodeCase is one line of a *_decode.jsonl.gz golden: ids and transformers' decode of them with
// skip_special_tokens (s) and clean_up_tokenization_spaces (c) off and on.
type decodeCase struct {
	IDs   []int   `json:"ids"`
	S0C0  string  `json:"s0c0"`
	S0C1  string  `json:"s0c1"`
	S1C0  string  `json:"s1c0"`
	S1C1  string  `json:"s1c1"`
	HF31  *string `json:"hf31"`
	Slow  *string `json:"slow"`
	Slow0 *string `json:"slow0"`
}

// checkDecode compares the four decodes of every case; it reports at most 5 mismatches.
func checkDecode(t *testing.T, tok *Tokenizer, cases []decodeCase) {
	t.Helper()
	bad := 0
	for i, c := range cases {
		for _, o := range []struct {
			skip bool
			cu   CleanUp
			want string
		}{{false, CleanUpOff, c.S0C0}, {false, CleanUpOn, c.S0C1}, {true, CleanUpOff, c.S1C0}, {true, CleanUpOn, c.S1C1}} {
			got, err := tok.Decode(c.IDs, DecodeOptions{SkipSpecialTokens: o.skip, CleanUp: o.cu})
			if err != nil {
				t.Fatalf("case %d: %v", i, err)
			}
			if got != o.want {
				bad++
				if bad <= 5 {
					t.Errorf("case %d skip=%t cleanup=%v ids=%v:\n got %q\nwant %q", i, o.skip, o.cu, c.IDs, got, o.want)
				}
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d decodes differ", bad, 4*len(cases))
	}
}

// llama3Path returns Meta's Llama 3 tokenizer.model from MLPERF_GO_LLAMA3_TOKENIZER, or skips:
// the file is not committed (Meta's licence); scripts/fetch-test-tokenizers.sh fetches it.
func llama3Path(t testing.TB) string {
	t.Helper()
	p := os.Getenv("MLPERF_GO_LLAMA3_TOKENIZER")
	if p == "" {
		t.Skip("MLPERF_GO_LLAMA3_TOKENIZER is not set: run scripts/fetch-test-tokenizers.sh DIR and set it to DIR/llama3/tokenizer.model")
	}
	return p
}

func TestLlama3TiktokenDecodeGolden(t *testing.T) {
	t.Parallel()
	tok, err := Load(llama3Path(t))
	if err != nil {
		t.Fatal(err)
	}
	if on, src := tok.CleanUpSpaces(); !on {
		t.Errorf("clean-up default off for Llama 3 tokenizer.model (%s); the round's targets used it on", src)
	}
	cases := readJSONL[decodeCase](t, "llama3_decode.jsonl.gz")
	checkDecode(t, tok, cases)
}

func TestLlama3HFNamesDecodeGolden(t *testing.T) {
	t.Parallel()
	tok, err := LoadTiktoken(llama3Path(t), Llama31HFSpecialTokens())
	if err != nil {
		t.Fatal(err)
	}
	bad := 0
	for i, c := range readJSONL[decodeCase](t, "llama3_decode.jsonl.gz") {
		got, err := tok.Decode(c.IDs, DecodeOptions{CleanUp: CleanUpOff})
		if err != nil {
			t.Fatal(err)
		}
		if got != *c.HF31 {
			if bad++; bad <= 5 {
				t.Errorf("case %d: got %q want %q", i, got, *c.HF31)
			}
		}
	}
}

// TestLlama3JSONDecodeGolden checks the tokenizer.json transformers converts from the same
// tokenizer.model (gen_llama3_golden.py DIR writes it) against the same goldens, when
// MLPERF_GO_LLAMA3_TOKENIZER_JSON names one.
func TestLlama3JSONDecodeGolden(t *testing.T) {
	t.Parallel()
	p := os.Getenv("MLPERF_GO_LLAMA3_TOKENIZER_JSON")
	if p == "" {
		t.Skip("MLPERF_GO_LLAMA3_TOKENIZER_JSON is not set: `python3 testdata/gen_llama3_golden.py tokenizer.model OUTDIR` writes OUTDIR/tokenizer.json")
	}
	tok, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	checkDecode(t, tok, readJSONL[decodeCase](t, "llama3_decode.jsonl.gz"))
}

// encodeCase is one line of a *_encode.jsonl.gz golden: text and tokenizers' encode of it.
type encodeCase struct {
	Text string `json:"text"`
	IDs  []int  `json:"ids"`
}

func checkEncode(t *testing.T, tok *Tokenizer, cases []encodeCase) {
	t.Helper()
	bad := 0
	for i, c := range cases {
		got, err := tok.Encode(c.Text)
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		if !slicesEqual(got, c.IDs) {
			if bad++; bad <= 5 {
				t.Errorf("case %d Encode(%q):\n got %v\nwant %v", i, c.Text, got, c.IDs)
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d encodes differ", bad, len(cases))
	}
}

func slicesEqual(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return len(a) == len(b)
}

func TestLlama3EncodeGolden(t *testing.T) {
	t.Parallel()
	tok, err := Load(llama3Path(t))
	if err != nil {
		t.Fatal(err)
	}
	checkEncode(t, tok, readJSONL[encodeCase](t, "llama3_encode.jsonl.gz"))
	if p := os.Getenv("MLPERF_GO_LLAMA3_TOKENIZER_JSON"); p != "" {
		tj, err := Load(p)
		if err != nil {
			t.Fatal(err)
		}
		checkEncode(t, tj, readJSONL[encodeCase](t, "llama3_encode.jsonl.gz"))
	}
}
