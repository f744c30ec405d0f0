package pyast

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/mlperf-go/mlperf-go/score/bfcl/pyval"
)

// stringTok reads a string literal whose prefix (possibly "") ends at
// lx.i, where its opening quote is.
func (lx *lexer) stringTok(prefix string, start int) (token, error) {
	p := strings.ToLower(prefix)
	st := &strTok{
		bytes: strings.Contains(p, "b"),
		fstr:  strings.Contains(p, "f"),
		raw:   strings.Contains(p, "r"),
		u:     p == "u",
	}
	q := lx.src[lx.i : lx.i+1]
	if strings.HasPrefix(lx.src[lx.i:], q+q+q) {
		q = q + q + q
	}
	lx.i += len(q)
	if st.fstr {
		parts, err := lx.fstring(q, st.raw, "")
		if err != nil {
			return token{}, err
		}
		st.fparts = parts
		return token{kind: tString, str: st, pos: start}, nil
	}
	body, err := lx.stringBody(q)
	if err != nil {
		return token{}, err
	}
	if st.bytes {
		for i := 0; i < len(body); i++ {
			if body[i] >= utf8.RuneSelf {
				return token{}, syntaxErr("bytes can only contain ASCII literal characters")
			}
		}
	}
	if st.raw {
		st.value = body
	} else if st.value, err = unescape(body, st.bytes); err != nil {
		return token{}, err
	}
	return token{kind: tString, str: st, pos: start}, nil
}

// stringBody returns the source text up to the closing quote q and moves
// past it. A backslash always takes the next character with it (so an
// escaped quote does not close the literal, raw or not).
func (lx *lexer) stringBody(q string) (string, error) {
	start := lx.i
	for lx.i < len(lx.src) {
		c := lx.src[lx.i]
		switch {
		case c == '\\':
			lx.i += 2
			continue
		case c == '\n' && len(q) == 1:
			return "", syntaxErr("unterminated string literal")
		case strings.HasPrefix(lx.src[lx.i:], q):
			body := lx.src[start:lx.i]
			lx.i += len(q)
			return body, nil
		}
		lx.i++
	}
	if len(q) == 3 {
		return "", syntaxErr("unterminated triple-quoted string literal")
	}
	return "", syntaxErr("unterminated string literal")
}

// unescape decodes a str or bytes literal body's escapes as CPython's
// _PyUnicode_DecodeUnicodeEscapeInternal / _PyBytes_DecodeEscape do;
// unknown escapes stay as written (CPython only warns).
func unescape(s string, bytes bool) (string, error) {
	if strings.IndexByte(s, '\\') < 0 {
		return s, nil
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		e := s[i]
		switch e {
		case '\n':
		case '\\', '\'', '"':
			b.WriteByte(e)
		case 'a':
			b.WriteByte(7)
		case 'b':
			b.WriteByte(8)
		case 'f':
			b.WriteByte(12)
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'v':
			b.WriteByte(11)
		case '0', '1', '2', '3', '4', '5', '6', '7':
			j := i
			for j < len(s) && j < i+3 && s[j] >= '0' && s[j] <= '7' {
				j++
			}
			v, _ := strconv.ParseUint(s[i:j], 8, 32)
			writeCode(&b, rune(v), bytes)
			i = j - 1
		case 'x', 'u', 'U':
			n := map[byte]int{'x': 2, 'u': 4, 'U': 8}[e]
			if bytes && e != 'x' {
				b.WriteByte('\\')
				b.WriteByte(e)
				continue
			}
			if i+1+n > len(s) {
				return "", syntaxErr("(unicode error) truncated \\" + string(e) + " escape")
			}
			v, err := strconv.ParseUint(s[i+1:i+1+n], 16, 32)
			if err != nil || strings.ContainsAny(s[i+1:i+1+n], "+-_") {
				return "", syntaxErr("(unicode error) truncated \\" + string(e) + " escape")
			}
			if v > utf8.MaxRune {
				return "", syntaxErr("(unicode error) illegal Unicode character")
			}
			writeCode(&b, rune(v), bytes)
			i += n
		case 'N':
			if bytes {
				b.WriteString(`\N`)
				continue
			}
			end := strings.IndexByte(s[i:], '}')
			if i+1 >= len(s) || s[i+1] != '{' || end <= 2 {
				return "", syntaxErr("(unicode error) malformed \\N character escape")
			}
			r, ok := lookupName(s[i+2 : i+end])
			if !ok {
				return "", syntaxErr("(unicode error) 'unicodeescape' codec can't decode bytes: unknown Unicode character name")
			}
			b.WriteRune(r)
			i += end
		default:
			b.WriteByte('\\')
			b.WriteByte(e)
		}
	}
	return b.String(), nil
}

// escapeLen is the length of the escape sequence at the start of s (a
// backslash and what it takes): \xhh, \uhhhh, \Uhhhhhhhh, \N{...}, up to
// three octal digits, else the backslash and one character.
func escapeLen(s string) int {
	n := 2
	switch s[1] {
	case 'x':
		n = 4
	case 'u':
		n = 6
	case 'U':
		n = 10
	case 'N':
		if strings.HasPrefix(s[2:], "{") {
			if k := strings.IndexByte(s, '}'); k > 0 {
				n = k + 1
			}
		}
	case '0', '1', '2', '3', '4', '5', '6', '7':
		for n < len(s) && n < 4 && s[n] >= '0' && s[n] <= '7' {
			n++
		}
	}
	return min(n, len(s))
}

// writeCode writes code point v: one byte in a bytes literal, else the
// character (a surrogate as U+FFFD, which a Go string cannot hold).
func writeCode(b *strings.Builder, v rune, bytes bool) {
	if bytes {
		b.WriteByte(byte(v))
		return
	}
	if !utf8.ValidRune(v) {
		v = utf8.RuneError
	}
	b.WriteRune(v)
}

// fstring reads an f-string (or, when end is "}", a format spec) up to
// its closing quote q and returns its parts: str Constants and
// FormattedValues, adjacent constants joined.
func (lx *lexer) fstring(q string, raw bool, end string) ([]Node, error) {
	var parts []Node
	var lit strings.Builder
	flush := func() {
		if lit.Len() > 0 {
			parts = append(parts, &Constant{Value: pyval.Str(lit.String())})
			lit.Reset()
		}
	}
	for {
		if lx.i >= len(lx.src) {
			return nil, syntaxErr("unterminated f-string literal")
		}
		rest := lx.src[lx.i:]
		switch {
		case end == "" && strings.HasPrefix(rest, q):
			lx.i += len(q)
			flush()
			return parts, nil
		case end != "" && rest[0] == '}':
			flush()
			return parts, nil
		case rest[0] == '\n' && len(q) == 1:
			return nil, syntaxErr("unterminated f-string literal")
		case rest[0] == '\\':
			if len(rest) < 2 {
				return nil, syntaxErr("unterminated f-string literal")
			}
			if raw {
				lit.WriteString(rest[:2])
				lx.i += 2
				continue
			}
			n := escapeLen(rest)
			s, err := unescape(rest[:n], false)
			if err != nil {
				return nil, err
			}
			lit.WriteString(s)
			lx.i += n
		case rest[0] == '{' && end == "" && strings.HasPrefix(rest, "{{"):
			lit.WriteByte('{')
			lx.i += 2
		case rest[0] == '}' && strings.HasPrefix(rest, "}}"):
			lit.WriteByte('}')
			lx.i += 2
		case rest[0] == '}':
			return nil, syntaxErr("f-string: single '}' is not allowed")
		case rest[0] == '{':
			lx.i++
			flush()
			fv, debug, err := lx.field(q, raw)
			if err != nil {
				return nil, err
			}
			if debug != "" {
				parts = appendConst(parts, debug)
			}
			parts = append(parts, fv)
		default:
			_, n := utf8.DecodeRuneInString(rest)
			lit.WriteString(rest[:n])
			lx.i += n
		}
	}
}

// appendConst appends text to parts, joining it to a trailing Constant.
func appendConst(parts []Node, text string) []Node {
	if n := len(parts); n > 0 {
		if c, ok := parts[n-1].(*Constant); ok {
			parts[n-1] = &Constant{Value: pyval.Str(c.Value.Str + text)}
			return parts
		}
	}
	return append(parts, &Constant{Value: pyval.Str(text)})
}

// field reads a replacement field after its '{': the expression, an
// optional "=", "!conversion" and ":format spec", and the closing '}'.
// debug is the "expr=" text a self-documenting field adds.
func (lx *lexer) field(q string, raw bool) (*FormattedValue, string, error) {
	start := lx.i
	depth := 0
	for lx.i < len(lx.src) {
		c := lx.src[lx.i]
		if depth == 0 && (c == '}' || c == ':' || (c == '!' && !strings.HasPrefix(lx.src[lx.i:], "!=")) ||
			(c == '=' && !strings.HasPrefix(lx.src[lx.i:], "==") && lx.i > start && strings.IndexByte("=!<>", lx.src[lx.i-1]) < 0)) {
			break
		}
		switch c {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case '\'', '"':
			lx.i++
			sq := string(c)
			if strings.HasPrefix(lx.src[lx.i-1:], sq+sq+sq) {
				sq += sq + sq
				lx.i += 2
			}
			if _, err := lx.stringBody(sq); err != nil {
				return nil, "", err
			}
			continue
		case '\n':
			if len(q) == 1 {
				return nil, "", syntaxErr("unterminated f-string literal")
			}
		}
		lx.i++
	}
	exprSrc := lx.src[start:lx.i]
	if strings.TrimSpace(exprSrc) == "" {
		return nil, "", syntaxErr("f-string: valid expression required before '}'")
	}
	expr, err := parseNested(exprSrc)
	if err != nil {
		return nil, "", err
	}
	fv := &FormattedValue{Value: expr, Conversion: -1}
	debug := ""
	if lx.i < len(lx.src) && lx.src[lx.i] == '=' {
		lx.i++
		ws := lx.i
		for lx.i < len(lx.src) && (lx.src[lx.i] == ' ' || lx.src[lx.i] == '\t') {
			lx.i++
		}
		debug = exprSrc + "=" + lx.src[ws:lx.i]
	}
	if lx.i < len(lx.src) && lx.src[lx.i] == '!' {
		lx.i++
		if lx.i >= len(lx.src) || strings.IndexByte("sra", lx.src[lx.i]) < 0 {
			return nil, "", syntaxErr("f-string: invalid conversion character: expected 's', 'r', or 'a'")
		}
		fv.Conversion = int(lx.src[lx.i])
		lx.i++
	}
	if lx.i < len(lx.src) && lx.src[lx.i] == ':' {
		lx.i++
		spec, err := lx.fstring(q, raw, "}")
		if err != nil {
			return nil, "", err
		}
		fv.FormatSpec = &JoinedStr{Values: spec}
	}
	if lx.i >= len(lx.src) || lx.src[lx.i] != '}' {
		return nil, "", syntaxErr("f-string: expecting '}'")
	}
	lx.i++
	if debug != "" && fv.Conversion == -1 && fv.FormatSpec == nil {
		fv.Conversion = 'r'
	}
	return fv, debug, nil
}

// parseNested parses a replacement field's expression, which may be a
// tuple without parentheses.
func parseNested(src string) (Node, error) {
	toks, err := tokenize("(" + src + "\n)")
	if err != nil {
		return nil, err
	}
	p := &parser{toks: toks}
	n, err := p.expressions()
	if err != nil {
		return nil, err
	}
	if p.peek().kind != tEnd && p.peek().kind != tNewline {
		return nil, syntaxErr("f-string: invalid syntax")
	}
	return n, nil
}
