package pyast

import (
	"fmt"
	"slices"
	"strings"
)

var allQuotes = []string{"'", `"`, `"""`, "'''"}

func isMultiQuote(q string) bool { return len(q) == 3 }

// joinedStr is visit_JoinedStr: the parts written out, then the first
// quote kind none of the constant parts needs escaping for.
func (u *unparser) joinedStr(n *JoinedStr) {
	u.w("f")
	type part struct {
		text     string
		constant bool
	}
	var parts []part
	for _, v := range n.Values {
		var inner unparser
		inner.fstringInner(v, false)
		if inner.err != nil && u.err == nil {
			u.err = inner.err
		}
		_, isConst := v.(*Constant)
		parts = append(parts, part{inner.b.String(), isConst})
	}
	quotes := slices.Clone(allQuotes)
	var out []string
	fallback := false
	for _, p := range parts {
		if p.constant {
			text, newQuotes := strLiteralHelper(p.text, quotes, true)
			if disjoint(newQuotes, quotes) {
				fallback = true
				break
			}
			quotes = newQuotes
			out = append(out, text)
			continue
		}
		if strings.Contains(p.text, "\n") {
			quotes = slices.DeleteFunc(quotes, func(q string) bool { return !isMultiQuote(q) })
		}
		out = append(out, p.text)
	}
	if fallback {
		quotes = []string{"'''"}
		out = out[:0]
		for _, p := range parts {
			if p.constant {
				r := StrRepr(`"` + p.text)
				p.text = r[2 : len(r)-1]
			}
			out = append(out, p.text)
		}
	}
	u.w(quotes[0] + strings.Join(out, "") + quotes[0])
}

func disjoint(a, b []string) bool {
	for _, x := range a {
		if slices.Contains(b, x) {
			return false
		}
	}
	return true
}

// fstringInner is _write_fstring_inner.
func (u *unparser) fstringInner(n Node, escapeNewlines bool) {
	switch n := n.(type) {
	case *JoinedStr:
		for _, v := range n.Values {
			u.fstringInner(v, escapeNewlines)
		}
	case *Constant:
		s := strings.ReplaceAll(strings.ReplaceAll(n.Value.Str, "{", "{{"), "}", "}}")
		if escapeNewlines {
			s = strings.ReplaceAll(s, "\n", `\n`)
		}
		u.w(s)
	case *FormattedValue:
		u.formattedValue(n)
	}
}

// formattedValue is visit_FormattedValue.
func (u *unparser) formattedValue(n *FormattedValue) {
	var inner unparser
	inner.visit(n.Value, next(precTest))
	if inner.err != nil && u.err == nil {
		u.err = inner.err
	}
	expr := inner.b.String()
	u.w("{")
	if strings.HasPrefix(expr, "{") {
		u.w(" ")
	}
	u.w(expr)
	if n.Conversion != -1 {
		u.w("!" + string(rune(n.Conversion)))
	}
	if n.FormatSpec != nil {
		u.w(":")
		u.fstringInner(n.FormatSpec, true)
	}
	u.w("}")
}

// strLiteralHelper is _Unparser._str_literal_helper: the string with
// backslashes and non-printable characters escaped, and the quotes that
// can enclose it, preferring one that does not match its last character.
func strLiteralHelper(s string, quoteTypes []string, escapeSpecialWhitespace bool) (string, []string) {
	var b strings.Builder
	for _, r := range s {
		if !escapeSpecialWhitespace && (r == '\n' || r == '\t') {
			b.WriteRune(r)
			continue
		}
		if r == '\\' || !(r >= ' ' && r < 0x7f || r >= 0x80 && isPrintable(r)) {
			b.WriteString(unicodeEscape(r))
			continue
		}
		b.WriteRune(r)
	}
	escaped := b.String()
	possible := slices.Clone(quoteTypes)
	if strings.Contains(escaped, "\n") {
		possible = slices.DeleteFunc(possible, func(q string) bool { return !isMultiQuote(q) })
	}
	possible = slices.DeleteFunc(possible, func(q string) bool { return strings.Contains(escaped, q) })
	if len(possible) == 0 {
		r := StrRepr(s)
		quote := string(r[0])
		for _, q := range quoteTypes {
			if strings.Contains(q, string(r[0])) {
				quote = q
				break
			}
		}
		return r[1 : len(r)-1], []string{quote}
	}
	if escaped != "" {
		last := escaped[len(escaped)-1]
		slices.SortStableFunc(possible, func(a, b string) int {
			ka, kb := a[0] == last, b[0] == last
			switch {
			case ka == kb:
				return 0
			case !ka:
				return -1
			}
			return 1
		})
		if possible[0][0] == last {
			escaped = escaped[:len(escaped)-1] + `\` + escaped[len(escaped)-1:]
		}
	}
	return escaped, possible
}

// unicodeEscape is c.encode("unicode_escape").decode("ascii").
func unicodeEscape(r rune) string {
	switch {
	case r == '\\':
		return `\\`
	case r == '\t':
		return `\t`
	case r == '\n':
		return `\n`
	case r == '\r':
		return `\r`
	case r < ' ' || (r >= 0x7f && r <= 0xff):
		return fmt.Sprintf(`\x%02x`, r)
	case r < 0x80:
		return string(r)
	case r <= 0xffff:
		return fmt.Sprintf(`\u%04x`, r)
	}
	return fmt.Sprintf(`\U%08x`, r)
}
