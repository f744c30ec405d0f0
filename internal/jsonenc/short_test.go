package jsonenc

import (
	"strings"
	"testing"
)

// msgspecEverything is msgspec.json.encode (0.20.0, the version
// mlcommons/endpoints pins) of every byte 0x00-0x1f, then `"\`, DEL, U+2028,
// é, 🎒 and `<>&/`: short \b \t \n \f \r, other controls as lowercase
// \u00xx, nothing else escaped.
const (
	msgspecInput = "\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f" +
		"\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f" +
		"\"\\\x7f\u2028é🎒<>&/"
	msgspecEverything = `"\u0000\u0001\u0002\u0003\u0004\u0005\u0006\u0007\b\t\n\u000b\f\r\u000e\u000f` +
		`\u0010\u0011\u0012\u0013\u0014\u0015\u0016\u0017\u0018\u0019\u001a\u001b\u001c\u001d\u001e\u001f` +
		`\"\\` + "\x7f\u2028é🎒<>&/\""
)

func TestAppendShortMatchesMsgspec(t *testing.T) {
	if got := string(AppendShort(nil, msgspecInput)); got != msgspecEverything {
		t.Errorf("AppendShort = %s\nwant msgspec's %s", got, msgspecEverything)
	}
	if got, want := string(AppendShortBody([]byte("x:"), msgspecInput)), "x:"+msgspecEverything[1:len(msgspecEverything)-1]; got != want {
		t.Errorf("AppendShortBody = %s, want %s", got, want)
	}
}

// shortFromMinimal is AppendMinimal's output with \u0008 and \u000c spelled
// short, which is all AppendShort does differently. It walks the escapes, so
// an escaped backslash followed by "u0008" is left alone.
func shortFromMinimal(min string) string {
	var b strings.Builder
	for i := 0; i < len(min); i++ {
		if min[i] != '\\' {
			b.WriteByte(min[i])
			continue
		}
		switch {
		case strings.HasPrefix(min[i:], `\u0008`):
			b.WriteString(`\b`)
			i += 5
		case strings.HasPrefix(min[i:], `\u000c`):
			b.WriteString(`\f`)
			i += 5
		default:
			b.WriteString(min[i : i+2])
			i++
		}
	}
	return b.String()
}

// FuzzAppendShort: AppendShort is AppendMinimal (itself checked against
// encoding/json) with \b and \f short.
func FuzzAppendShort(f *testing.F) {
	for _, s := range []string{"", msgspecInput, "\\u0008\b", "abcdefgh\fijklmnop\x08", "x\xffy"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want := shortFromMinimal(string(AppendMinimal(nil, s)))
		if got := string(AppendShort(nil, s)); got != want {
			t.Fatalf("AppendShort(%q) = %s, want %s", s, got, want)
		}
	})
}
