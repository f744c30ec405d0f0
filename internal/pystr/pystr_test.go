package pystr

import (
	"encoding/json"
	"os"
	"strconv"
	"testing"
)

// golden is testdata/golden.json: Python 3.11's str predicates and lower()
// over every code point its Unicode database (14.0) assigns.
type golden struct {
	Assigned [][2]rune
	Space    []rune
	Alnum    [][2]rune
	Lower    map[string]string
}

func readGolden(t *testing.T) golden {
	t.Helper()
	b, err := os.ReadFile("testdata/golden.json")
	if err != nil {
		t.Fatal(err)
	}
	var g golden
	if err := json.Unmarshal(b, &g); err != nil {
		t.Fatal(err)
	}
	return g
}

func inRanges(rs [][2]rune, r rune) bool {
	for _, x := range rs {
		if r >= x[0] && r <= x[1] {
			return true
		}
	}
	return false
}

// TestCodePoints: IsSpace, IsWord and Lower agree with Python on every code
// point Python's database assigns, but for the few whose properties
// Unicode 15 (Go's tables) changed, which are listed.
func TestCodePoints(t *testing.T) {
	t.Parallel()
	g := readGolden(t)
	space := map[rune]bool{}
	for _, r := range g.Space {
		space[r] = true
	}
	n, diffs := 0, 0
	for _, a := range g.Assigned {
		for r := a[0]; r <= a[1]; r++ {
			n++
			want := g.Lower[strconv.Itoa(int(r))]
			if want == "" {
				want = string(r)
			}
			ok := IsSpace(r) == space[r] &&
				IsWord(r) == (r == '_' || inRanges(g.Alnum, r)) &&
				Lower(string(r)) == want
			if !ok && !changedIn15[r] {
				diffs++
				if diffs < 20 {
					t.Errorf("U+%04X: IsSpace %v (Python %v), IsWord %v (Python %v), Lower %q (Python %q)",
						r, IsSpace(r), space[r], IsWord(r), r == '_' || inRanges(g.Alnum, r), Lower(string(r)), want)
				}
			}
		}
	}
	if n < 100000 {
		t.Fatalf("only %d code points in the golden file", n)
	}
	if diffs > 0 {
		t.Errorf("%d code points differ", diffs)
	}
}

// changedIn15 are assigned code points whose properties differ between
// Unicode 14 (Python 3.11) and 15 (Go): found by this test, each checked
// to be a Unicode 15 change, not a port error.
var changedIn15 = map[rune]bool{} // none so far

// TestFinalSigma: a capital sigma lowers to the final form at the end of a
// word, as str.lower() does, and to σ elsewhere.
func TestFinalSigma(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"ΟΔΟΣ": "οδος", "ΣΑΣ": "σας", "Σ": "σ", "ΑΣ.": "ας.", "ΑΣ'Α": "ασ'α", "Α'Σ": "α'ς", "ΑΣ Β": "ας β",
		"İ": "i\u0307", "ABC": "abc",
	} {
		if got := Lower(in); got != want {
			t.Errorf("Lower(%q) = %q, want %q", in, got, want)
		}
	}
}
