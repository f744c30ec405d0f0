package pyrepr

import (
	"strconv"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// reprCases were produced by CPython 3.11's repr() (Unicode 14; none of
// these characters changed in 15.0).
var reprCases = []struct{ in, want string }{
	{"", "''"},
	{"plain", "'plain'"},
	{"it's", "\"it's\""},
	{"say \"hi\"", "'say \"hi\"'"},
	{"both ' and \"", "'both \\' and \"'"},
	{"back\\slash", "'back\\\\slash'"},
	{"tab\x09here", "'tab\\there'"},
	{"new\x0aline", "'new\\nline'"},
	{"cr\x0dlf\x0a", "'cr\\rlf\\n'"},
	{"\x00\x01\x1f\x7f", "'\\x00\\x01\\x1f\\x7f'"},
	{"caf\u00e9", "'caf\u00e9'"},
	{"\U0001f392 emoji", "'\U0001f392 emoji'"},
	{"\u00a0nbsp", "'\\xa0nbsp'"},
	{"\u00adsoft", "'\\xadsoft'"},
	{"\u2028ls", "'\\u2028ls'"},
	{"\u200bzw", "'\\u200bzw'"},
	{"\ufeffbom", "'\\ufeffbom'"},
	{"\U000e0001tag", "'\\U000e0001tag'"},
	{"\U0010ffffmax", "'\\U0010ffffmax'"},
	{"\u0378unassigned", "'\\u0378unassigned'"},
	{"\u65e5\u672c\u8a9e", "'\u65e5\u672c\u8a9e'"},
	{"\u0085nel", "'\\x85nel'"},
	{"'", "\"'\""},
	{"\"", "'\"'"},
	{"\\'", "\"\\\\'\""},
	{"a'b\"c\\d\x0ae", "'a\\'b\"c\\\\d\\ne'"},
	{"Kids' \"Dress-Up\" Sets", "'Kids\\' \"Dress-Up\" Sets'"},
	{"Path\\With\\Backslashes > Odd\x0aNewline", "'Path\\\\With\\\\Backslashes > Odd\\nNewline'"},
}

func TestStr(t *testing.T) {
	t.Parallel()
	for _, tc := range reprCases {
		if got := Str(tc.in); got != tc.want {
			t.Errorf("Str(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
	// repr(["a", "it's", 'q"', ""]) in CPython.
	if got, want := StrList([]string{"a", "it's", `q"`, ""}), `['a', "it's", 'q"', '']`; got != want {
		t.Errorf("StrList = %s, want %s", got, want)
	}
	if got := StrList(nil); got != "[]" {
		t.Errorf("StrList(nil) = %s", got)
	}
	if got, want := string(AppendStr([]byte("x="), "it's")), `x="it's"`; got != want {
		t.Errorf("AppendStr = %s, want %s", got, want)
	}
	// Bytes that are not UTF-8 become surrogateescape's lone surrogates.
	if got, want := Str("a\xffb"), `'a\udcffb'`; got != want {
		t.Errorf("Str(invalid) = %s, want %s", got, want)
	}
}

// parsePyStr parses one Python str literal as repr writes them (quotes
// ' or ", escapes \\ \' \" \t \n \r \xNN \uNNNN \UNNNNNNNN) back into the Go
// string it came from, mapping surrogateescape's U+DC80-U+DCFF to bytes.
func parsePyStr(lit string) (string, bool) {
	if len(lit) < 2 || (lit[0] != '\'' && lit[0] != '"') || lit[len(lit)-1] != lit[0] {
		return "", false
	}
	q, body := lit[0], lit[1:len(lit)-1]
	var b strings.Builder
	for i := 0; i < len(body); {
		c := body[i]
		if c == q {
			return "", false // an unescaped quote would end the literal
		}
		if c != '\\' {
			b.WriteByte(c)
			i++
			continue
		}
		if i+1 >= len(body) {
			return "", false
		}
		e := body[i+1]
		i += 2
		switch e {
		case '\\', '\'', '"':
			b.WriteByte(e)
		case 't':
			b.WriteByte('\t')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 'x', 'u', 'U':
			n := map[byte]int{'x': 2, 'u': 4, 'U': 8}[e]
			if i+n > len(body) {
				return "", false
			}
			v, err := strconv.ParseUint(body[i:i+n], 16, 32)
			if err != nil || strings.ToLower(body[i:i+n]) != body[i:i+n] {
				return "", false
			}
			i += n
			switch r := rune(v); {
			case r >= 0xdc80 && r <= 0xdcff:
				b.WriteByte(byte(r - 0xdc00))
			case !utf8.ValidRune(r):
				return "", false
			default:
				b.WriteRune(r)
			}
		default:
			return "", false
		}
	}
	return b.String(), true
}

func FuzzStr(f *testing.F) {
	for _, tc := range reprCases {
		f.Add(tc.in)
	}
	f.Add("a\xffb\xc3")
	f.Fuzz(func(t *testing.T, s string) {
		r := Str(s)
		back, ok := parsePyStr(r)
		if !ok || back != s {
			t.Fatalf("Str(%q) = %s does not parse back (got %q, ok=%v)", s, r, back, ok)
		}
		// Python picks " only when that avoids escaping.
		if want := strings.Contains(s, "'") && !strings.Contains(s, `"`); (r[0] == '"') != want {
			t.Fatalf("Str(%q) = %s: wrong quote", s, r)
		}
		if !utf8.ValidString(r) {
			t.Fatalf("Str(%q) = %q is not UTF-8", s, r)
		}
		for _, c := range r {
			if !unicode.IsPrint(c) {
				t.Fatalf("Str(%q) = %q holds unprintable %U", s, r, c)
			}
		}
		if l := StrList([]string{s, s}); l != "["+r+", "+r+"]" {
			t.Fatalf("StrList = %s", l)
		}
	})
}
