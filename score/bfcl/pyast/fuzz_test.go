package pyast

import (
	"os"
	"strings"
	"testing"
)

// FuzzParse: no input makes the parser, literal_eval or unparse panic;
// what unparse writes parses again to an expression that unparses the
// same (ast.unparse's round trip).
func FuzzParse(f *testing.F) {
	hand, _ := os.ReadFile("testdata/exprs_hand.txt")
	for _, l := range strings.Split(string(hand), "\n") {
		f.Add("dict(a=" + l + ")")
		f.Add(l)
	}
	f.Fuzz(func(t *testing.T, src string) {
		p, err := Parse(src)
		if err != nil {
			return
		}
		_, _ = LiteralEval(p.Body)
		out, err := Unparse(p.Body)
		if err != nil {
			return
		}
		p2, err := Parse(out)
		if err != nil {
			if strings.IndexFunc(out, func(r rune) bool { return r < ' ' && r != '\n' }) >= 0 {
				return // CPython writes f-string format specs raw: "f'{0:\x00}'" (exprs_hand.txt)
			}
			if nfkcKeyword(src) {
				return // CPython writes ｎｏｔ as the Name not, a keyword when read again (exprs_hand.txt)
			}
			t.Fatalf("%q unparses to %q, which does not parse: %v", src, out, err)
		}
		if out2, _ := Unparse(p2.Body); out2 != out {
			t.Errorf("%q: unparse %q, then %q", src, out, out2)
		}
	})
}

// nfkcKeyword reports whether src has a non-ASCII identifier that
// NFKC-normalizes to a keyword.
func nfkcKeyword(src string) bool {
	toks, err := tokenize(src)
	if err != nil {
		return false
	}
	for _, tk := range toks {
		if tk.kind == tName && keywords[tk.text] {
			return true
		}
	}
	return false
}
