package pyast

import (
	"strings"
	"sync"

	"golang.org/x/text/unicode/runenames"
)

// lookupName is the character a \N{name} escape stands for, as CPython
// 3.12's unicodedata name lookup (_getcode, aliases on, named sequences
// off) finds it: HANGUL SYLLABLE and CJK UNIFIED IDEOGRAPH- names are
// computed, case-sensitively as CPython compares them; every other name
// and the name aliases are matched ignoring ASCII case. Unicode 15.0.0 on
// both sides (golang.org/x/text's runenames for Go < 1.27, CPython 3.12's
// unicodedata), as testdata/gen_names.py's table checks.
func lookupName(name string) (rune, bool) {
	if rest, ok := strings.CutPrefix(name, "HANGUL SYLLABLE "); ok {
		return hangulSyllable(rest)
	}
	if hex, ok := strings.CutPrefix(name, "CJK UNIFIED IDEOGRAPH-"); ok {
		return unifiedIdeograph(hex)
	}
	upper := asciiUpper(name)
	if r, ok := charNames()[upper]; ok {
		return r, true
	}
	r, ok := nameAliases[upper]
	return r, ok
}

// charNames maps each character's name (runenames' names, less the
// "<...>" labels of ranges whose names are computed) to the character,
// built on first use.
var charNames = sync.OnceValue(func() map[string]rune {
	m := make(map[string]rune, 40000)
	for r := rune(0); r <= 0x10FFFF; r++ {
		if n := runenames.Name(r); n != "" && n[0] != '<' {
			m[n] = r
		}
	}
	return m
})

// unifiedIdeograph reads the four or five upper-case hex digits after
// "CJK UNIFIED IDEOGRAPH-" and checks the code point is one (runenames
// labels them "<CJK Ideograph...>").
func unifiedIdeograph(hex string) (rune, bool) {
	if len(hex) != 4 && len(hex) != 5 {
		return 0, false
	}
	var v rune
	for i := 0; i < len(hex); i++ {
		c := hex[i]
		switch {
		case c >= '0' && c <= '9':
			v = v*16 + rune(c-'0')
		case c >= 'A' && c <= 'F':
			v = v*16 + rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return v, strings.HasPrefix(runenames.Name(v), "<CJK Ideograph")
}

// The jamo short names of Hangul syllable names, in Unicode's order
// (CPython's hangul_syllables table).
var (
	jamoL = []string{"G", "GG", "N", "D", "DD", "R", "M", "B", "BB", "S", "SS", "", "J", "JJ", "C", "K", "T", "P", "H"}
	jamoV = []string{"A", "AE", "YA", "YAE", "EO", "E", "YEO", "YE", "O", "WA", "WAE", "OE", "YO", "U", "WEO", "WE", "WI", "YU", "EU", "YI", "I"}
	jamoT = []string{"", "G", "GG", "GS", "N", "NJ", "NH", "D", "L", "LG", "LM", "LB", "LS", "LT", "LP", "LH", "M", "B", "BS", "S", "SS", "NG", "J", "C", "K", "T", "P", "H"}
)

// hangulSyllable reads the jamo after "HANGUL SYLLABLE ": at each of the
// three places the longest short name that matches (find_syllable); the
// name must end after the third.
func hangulSyllable(s string) (rune, bool) {
	l, n := longestJamo(s, jamoL)
	s = s[n:]
	v, n := longestJamo(s, jamoV)
	s = s[n:]
	t, n := longestJamo(s, jamoT)
	if l < 0 || v < 0 || t < 0 || n != len(s) {
		return 0, false
	}
	return 0xAC00 + rune((l*len(jamoV)+v)*len(jamoT)+t), true
}

// longestJamo is the index and length of the longest of names that s
// starts with, or -1 and 0.
func longestJamo(s string, names []string) (idx, n int) {
	idx, n = -1, -1
	for i, name := range names {
		if len(name) > n && strings.HasPrefix(s, name) {
			idx, n = i, len(name)
		}
	}
	return idx, max(n, 0)
}

// asciiUpper upper-cases ASCII letters only, as CPython's Py_TOUPPER.
func asciiUpper(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' {
			return r - 'a' + 'A'
		}
		return r
	}, s)
}
