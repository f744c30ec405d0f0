package whispernorm

import (
	"bufio"
	"encoding/json"
	"os"
	"testing"
)

// goldenCase is one line of testdata/golden.jsonl: an input and what
// whisper's EnglishTextNormalizer returned for it (gen_golden.py).
type goldenCase struct {
	In    string `json:"in"`
	Out   string `json:"out"`
	Error string `json:"error"`
}

func readGolden(t testing.TB) []goldenCase {
	t.Helper()
	f, err := os.Open("testdata/golden.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cases []goldenCase
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var c goldenCase
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatalf("golden line %d: %v", len(cases)+1, err)
		}
		cases = append(cases, c)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(cases) < 1000 {
		t.Fatalf("only %d golden cases", len(cases))
	}
	return cases
}

// TestGolden: every golden input normalizes to what the reference code
// printed.
func TestGolden(t *testing.T) {
	t.Parallel()
	fails := 0
	for i, c := range readGolden(t) {
		if c.Error != "" {
			t.Errorf("line %d: the reference raised %s on %q; no such case is expected", i+1, c.Error, c.In)
			continue
		}
		if got := Normalize(c.In); got != c.Out {
			fails++
			if fails <= 40 {
				t.Errorf("line %d: Normalize(%q) = %q, want %q", i+1, c.In, got, c.Out)
			}
		}
	}
	if fails > 0 {
		t.Errorf("%d golden cases differ", fails)
	}
}
