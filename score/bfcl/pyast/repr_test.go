package pyast

import "testing"

// TestStrReprInvalidUTF8: a byte that is not UTF-8 is written as U+FFFD,
// one per byte, as the string Parse reads back from the repr holds; valid
// text is pyrepr's (its tests hold CPython's cases).
func TestStrReprInvalidUTF8(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		{"a\xff\xfeb", "'a\uFFFD\uFFFDb'"},
		{"it's\xc3", "\"it's\uFFFD\""},
		{"\x00\u00a0\U000e0001", `'\x00\xa0\U000e0001'`},
	} {
		got := StrRepr(tc.in)
		if got != tc.want {
			t.Errorf("StrRepr(%q) = %q, want %q", tc.in, got, tc.want)
		}
		p, err := Parse(got)
		if err != nil {
			t.Fatalf("Parse(%q): %v", got, err)
		}
		if again, err := Unparse(p.Body); err != nil || again != got {
			t.Errorf("Unparse(Parse(%q)) = %q, %v", got, again, err)
		}
	}
}
