package pyast

import (
	"bufio"
	"compress/gzip"
	"os"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/text/unicode/runenames"
)

// TestNames: lookupName accepts exactly the names CPython 3.12's \N{...}
// accepts, each for the same character (testdata/names.txt.gz, made by
// gen_names.py): every character's name, the computed CJK UNIFIED
// IDEOGRAPH- names and the name aliases. Hangul syllables and case are
// covered by the golden expressions (exprs_hand.txt).
func TestNames(t *testing.T) {
	t.Parallel()
	if runenames.UnicodeVersion != "15.0.0" {
		t.Fatalf("golang.org/x/text's names are Unicode %s, CPython 3.12's 15.0.0: the \\N{...} table would differ", runenames.UnicodeVersion)
	}
	f, err := os.Open("testdata/names.txt.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]rune{} // the names CPython accepts that the table holds
	check := func(name string, r rune) {
		t.Helper()
		if got, ok := lookupName(name); !ok || got != r {
			t.Errorf("\\N{%s}: %U %v, CPython U+%04X", name, got, ok, r)
		}
	}
	sc := bufio.NewScanner(zr)
	n := 0
	for sc.Scan() {
		cp, name, _ := strings.Cut(sc.Text(), " ")
		n++
		if first, last, ok := strings.Cut(cp, ".."); ok {
			a, _ := strconv.ParseUint(first, 16, 32)
			b, _ := strconv.ParseUint(last, 16, 32)
			prefix := strings.TrimSuffix(name, "*")
			for r := rune(a); r <= rune(b); r++ {
				name := prefix + strings.ToUpper(strconv.FormatUint(uint64(r), 16))
				check(name, r)
				if !strings.HasPrefix(prefix, "CJK UNIFIED IDEOGRAPH-") {
					want[name] = r
				}
			}
			continue
		}
		v, _ := strconv.ParseUint(cp, 16, 32)
		name, alias := strings.CutSuffix(name, " alias")
		check(name, rune(v))
		if alias {
			if _, ok := nameAliases[name]; !ok {
				t.Errorf("alias %q is not in nameAliases", name)
			}
			continue
		}
		if !strings.HasPrefix(name, "HANGUL SYLLABLE ") {
			want[name] = rune(v)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	// No name CPython lacks: the table holds only names from the list.
	for name, r := range charNames() {
		if w, ok := want[name]; !ok || w != r {
			t.Errorf("the port accepts \\N{%s} (U+%04X), CPython does not", name, r)
		}
	}
	if len(charNames()) != len(want) {
		t.Errorf("the port's table has %d names, CPython's %d", len(charNames()), len(want))
	}
	if n < 40000 {
		t.Errorf("only %d lines in names.txt.gz", n)
	}
}
