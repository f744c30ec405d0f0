package pyast

import (
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mlperf-go/mlperf-go/score/bfcl/pyval"
	"golang.org/x/text/unicode/norm"
)

// The tokenizer: CPython 3.12's Parser/tokenizer.c for the tokens an
// expression can hold. Inside brackets newlines are insignificant; at
// depth 0 a newline ends the (only) logical line of an eval input.

type tokKind uint8

const (
	tEnd tokKind = iota
	tNewline
	tName
	tKeyword
	tNumber
	tString
	tOp
)

// token is one token; for tString, str holds the literal's pieces.
type token struct {
	kind tokKind
	text string // the name, keyword or operator
	num  pyval.Value
	str  *strTok
	pos  int
}

// strTok is one string literal token.
type strTok struct {
	bytes, fstr, raw bool
	u                bool   // written with a u prefix
	value            string // the decoded value (not for f-strings)
	fparts           []Node // an f-string's parts
}

// keywords are Python 3.12's hard keywords.
var keywords = map[string]bool{
	"False": true, "None": true, "True": true, "and": true, "as": true, "assert": true, "async": true,
	"await": true, "break": true, "class": true, "continue": true, "def": true, "del": true, "elif": true,
	"else": true, "except": true, "finally": true, "for": true, "from": true, "global": true, "if": true,
	"import": true, "in": true, "is": true, "lambda": true, "nonlocal": true, "not": true, "or": true,
	"pass": true, "raise": true, "return": true, "try": true, "while": true, "with": true, "yield": true,
}

// operators, longest first within each length.
var ops3 = []string{"**=", "//=", ">>=", "<<=", "..."}
var ops2 = []string{"->", ":=", "**", "//", "<<", ">>", "<=", ">=", "==", "!=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "@="}

const ops1 = "+-*/%@&|^~<>()[]{},:.;="

// maxLevel is the tokenizer's MAXLEVEL: deeper bracket nesting is "too
// many nested parentheses".
const maxLevel = 200

type lexer struct {
	src   string
	i     int
	depth []byte // open brackets
	toks  []token
	ended bool // a depth-0 newline was seen
	// lineStart is set at the start of a physical line outside brackets,
	// where indentation matters.
	lineStart bool
}

func syntaxErr(msg string) error { return &pyval.Error{Type: "SyntaxError", Msg: msg} }

// tokenize splits src into tokens, as the tokenizer would for
// ast.parse(src, mode="eval"), after translating \r\n and \r to \n.
func tokenize(src string) ([]token, error) {
	if strings.IndexByte(src, 0) >= 0 {
		return nil, syntaxErr("source code string cannot contain null bytes")
	}
	src = strings.ReplaceAll(strings.ReplaceAll(src, "\r\n", "\n"), "\r", "\n")
	lx := &lexer{src: src, lineStart: true}
	for {
		t, err := lx.next()
		if err != nil {
			return nil, err
		}
		if t.kind == tNewline {
			if len(lx.toks) == 0 || lx.toks[len(lx.toks)-1].kind == tNewline {
				continue // blank lines make no token
			}
			lx.ended = true
		} else if t.kind != tEnd && lx.ended {
			return nil, syntaxErr("invalid syntax") // a second logical line
		}
		lx.toks = append(lx.toks, t)
		if t.kind == tEnd {
			if len(lx.depth) > 0 {
				return nil, syntaxErr("'" + string(lx.depth[len(lx.depth)-1]) + "' was never closed")
			}
			return lx.toks, nil
		}
	}
}

func (lx *lexer) next() (token, error) {
	if lx.lineStart && len(lx.depth) == 0 {
		if err := lx.indent(); err != nil {
			return token{}, err
		}
	}
	for lx.i < len(lx.src) {
		c := lx.src[lx.i]
		switch {
		case c == ' ' || c == '\t' || c == '\f':
			lx.i++
		case c == '#':
			for lx.i < len(lx.src) && lx.src[lx.i] != '\n' {
				lx.i++
			}
		case c == '\\':
			if lx.i+1 < len(lx.src) && lx.src[lx.i+1] == '\n' {
				lx.i += 2
				continue
			}
			if lx.i+1 >= len(lx.src) {
				return token{}, syntaxErr("unexpected EOF while parsing")
			}
			return token{}, syntaxErr("unexpected character after line continuation character")
		case c == '\n':
			lx.i++
			if len(lx.depth) == 0 {
				lx.lineStart = true
				return token{kind: tNewline, pos: lx.i - 1}, nil
			}
		default:
			return lx.token()
		}
	}
	return token{kind: tEnd, pos: lx.i}, nil
}

// indent reads the indentation of a line outside brackets: an eval
// input has one logical line at column 0, so indentation before anything
// but a comment or the line's end is "unexpected indent", as is
// whitespace alone at the very end of the input (CPython's tokenizer
// makes an INDENT of it). A form feed resets the column.
func (lx *lexer) indent() error {
	col := 0
	for lx.i < len(lx.src) {
		switch lx.src[lx.i] {
		case ' ', '\t':
			col++
		case '\f':
			col = 0
		case '\n', '#':
			return nil // a blank or comment line: the caller skips it
		default:
			lx.lineStart = false
			if col > 0 {
				return syntaxErr("unexpected indent")
			}
			return nil
		}
		lx.i++
	}
	if col > 0 {
		return syntaxErr("unexpected indent")
	}
	return nil
}

// token reads the token at lx.i (not whitespace).
func (lx *lexer) token() (token, error) {
	start := lx.i
	c := lx.src[lx.i]
	if isDigit(c) || (c == '.' && lx.i+1 < len(lx.src) && isDigit(lx.src[lx.i+1])) {
		return lx.number()
	}
	if c == '"' || c == '\'' {
		return lx.stringTok("", start)
	}
	if isIdentStart(lx.src, lx.i) {
		name, nonASCII := lx.ident()
		if lx.i < len(lx.src) && (lx.src[lx.i] == '"' || lx.src[lx.i] == '\'') && isStringPrefix(name) {
			return lx.stringTok(name, start)
		}
		if keywords[name] {
			return token{kind: tKeyword, text: name, pos: start}, nil
		}
		if nonASCII {
			// PEP 3131: the AST holds the identifier NFKC-normalized
			// (ｌｏｃａｔｉｏｎ is location); keywords are matched before,
			// on the text as written.
			name = norm.NFKC.String(name)
		}
		return token{kind: tName, text: name, pos: start}, nil
	}
	for _, set := range [][]string{ops3, ops2} {
		for _, op := range set {
			if strings.HasPrefix(lx.src[lx.i:], op) {
				lx.i += len(op)
				return token{kind: tOp, text: op, pos: start}, nil
			}
		}
	}
	if strings.IndexByte(ops1, c) >= 0 {
		lx.i++
		if err := lx.bracket(c); err != nil {
			return token{}, err
		}
		return token{kind: tOp, text: string(c), pos: start}, nil
	}
	r, _ := utf8.DecodeRuneInString(lx.src[lx.i:])
	return token{}, syntaxErr("invalid character " + strconv.QuoteRune(r))
}

// bracket tracks the nesting of ( [ {.
func (lx *lexer) bracket(c byte) error {
	switch c {
	case '(', '[', '{':
		if len(lx.depth) >= maxLevel {
			return syntaxErr("too many nested parentheses")
		}
		lx.depth = append(lx.depth, c)
	case ')', ']', '}':
		if len(lx.depth) == 0 {
			return syntaxErr("unmatched '" + string(c) + "'")
		}
		open := lx.depth[len(lx.depth)-1]
		if (open == '(' && c != ')') || (open == '[' && c != ']') || (open == '{' && c != '}') {
			return syntaxErr("closing parenthesis does not match opening parenthesis")
		}
		lx.depth = lx.depth[:len(lx.depth)-1]
	}
	return nil
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// isIdentStart reports whether an identifier starts at s[i]: an ASCII
// letter or underscore, or a non-ASCII character that may start one.
func isIdentStart(s string, i int) bool {
	c := s[i]
	if c < utf8.RuneSelf {
		return c == '_' || (c|0x20 >= 'a' && c|0x20 <= 'z')
	}
	r, _ := utf8.DecodeRuneInString(s[i:])
	return identStartRune(r)
}

func identStartRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.Is(unicode.Nl, r) || unicode.Is(unicode.Other_ID_Start, r) || r == '_'
}

func identContinueRune(r rune) bool {
	return identStartRune(r) || unicode.In(r, unicode.Mn, unicode.Mc, unicode.Nd, unicode.Pc, unicode.Other_ID_Continue)
}

// ident reads an identifier.
func (lx *lexer) ident() (string, bool) {
	start := lx.i
	nonASCII := false
	for lx.i < len(lx.src) {
		c := lx.src[lx.i]
		if c < utf8.RuneSelf {
			if c == '_' || isDigit(c) || (c|0x20 >= 'a' && c|0x20 <= 'z') {
				lx.i++
				continue
			}
			break
		}
		r, n := utf8.DecodeRuneInString(lx.src[lx.i:])
		if !identContinueRune(r) {
			break
		}
		nonASCII = true
		lx.i += n
	}
	return lx.src[start:lx.i], nonASCII
}

func isStringPrefix(p string) bool {
	switch strings.ToLower(p) {
	case "r", "u", "b", "br", "rb", "f", "fr", "rf":
		return true
	}
	return false
}

// number reads a numeric literal (Parser/tokenizer.c tok_get's number
// branch, with verify_end_of_number).
func (lx *lexer) number() (token, error) {
	start := lx.i
	s := lx.src
	if s[lx.i] == '0' && lx.i+1 < len(s) && strings.IndexByte("xXoObB", s[lx.i+1]) >= 0 {
		base := map[byte]int{'x': 16, 'o': 8, 'b': 2}[s[lx.i+1]|0x20]
		lx.i += 2
		digits, err := lx.digits(func(c byte) bool { return digitVal(c) < base }, true)
		if err != nil || digits == "" {
			return token{}, syntaxErr("invalid " + map[int]string{16: "hexadecimal", 8: "octal", 2: "binary"}[base] + " literal")
		}
		if err := lx.endOfNumber(); err != nil {
			return token{}, err
		}
		n, _ := new(big.Int).SetString(digits, base)
		return token{kind: tNumber, num: pyval.BigInt(n), pos: start}, nil
	}
	intPart, err := lx.digits(isDigit, false)
	if err != nil {
		return token{}, err
	}
	isFloat := false
	frac, exp := "", ""
	if lx.i < len(s) && s[lx.i] == '.' {
		isFloat = true
		lx.i++
		if lx.i < len(s) && isDigit(s[lx.i]) {
			if frac, err = lx.digits(isDigit, false); err != nil {
				return token{}, err
			}
		}
	}
	if lx.i < len(s) && (s[lx.i] == 'e' || s[lx.i] == 'E') {
		j := lx.i + 1
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		if j < len(s) && isDigit(s[j]) {
			sign := s[lx.i+1 : j]
			lx.i = j
			d, err := lx.digits(isDigit, false)
			if err != nil {
				return token{}, err
			}
			exp, isFloat = "e"+sign+d, true
		} else if j > lx.i+1 {
			return token{}, syntaxErr("invalid decimal literal")
		}
	}
	imag := false
	if lx.i < len(s) && (s[lx.i] == 'j' || s[lx.i] == 'J') {
		imag = true
		lx.i++
	}
	if !isFloat && !imag && len(intPart) > 1 && intPart[0] == '0' && strings.Trim(intPart, "0") != "" {
		return token{}, syntaxErr("leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers")
	}
	if err := lx.endOfNumber(); err != nil {
		return token{}, err
	}
	lit := intPart
	if isFloat {
		lit = intPart + "." + frac + exp
	}
	switch {
	case imag:
		f, _ := strconv.ParseFloat(lit, 64)
		return token{kind: tNumber, num: pyval.Complex(complex(0, f)), pos: start}, nil
	case isFloat:
		f, err := strconv.ParseFloat(lit, 64)
		if err != nil && !math.IsInf(f, 0) {
			return token{}, syntaxErr("invalid decimal literal")
		}
		return token{kind: tNumber, num: pyval.Float(f), pos: start}, nil
	}
	if len(intPart) > pyval.MaxIntDigits {
		return token{}, syntaxErr("Exceeds the limit for integer string conversion")
	}
	n, _ := new(big.Int).SetString(intPart, 10)
	return token{kind: tNumber, num: pyval.BigInt(n), pos: start}, nil
}

func digitVal(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c|0x20 >= 'a' && c|0x20 <= 'f':
		return int(c|0x20-'a') + 10
	}
	return 99
}

// digits reads digits with single underscores between them (and, for a
// prefixed literal, one right after the prefix), returning them without
// the underscores.
func (lx *lexer) digits(ok func(byte) bool, prefixed bool) (string, error) {
	var b strings.Builder
	s := lx.src
	for lx.i < len(s) {
		c := s[lx.i]
		if ok(c) {
			b.WriteByte(c)
			lx.i++
			continue
		}
		if c == '_' && (b.Len() > 0 || prefixed) && lx.i+1 < len(s) && ok(s[lx.i+1]) {
			lx.i++
			continue
		}
		if c == '_' {
			return "", syntaxErr("invalid decimal literal")
		}
		break
	}
	return b.String(), nil
}

// endOfNumber is verify_end_of_number: a literal followed at once by an
// identifier character is an error, except before the keywords that may
// follow a number ("1if x else y"), which CPython 3.12 only warns about.
func (lx *lexer) endOfNumber() error {
	if lx.i >= len(lx.src) {
		return nil
	}
	rest := lx.src[lx.i:]
	c := rest[0]
	for _, kw := range []string{"and", "else", "for", "or", "not"} {
		if strings.HasPrefix(rest, kw) {
			return nil
		}
	}
	if c == 'i' && len(rest) > 1 && (rest[1] == 'f' || rest[1] == 'n' || rest[1] == 's') {
		return nil
	}
	if c < utf8.RuneSelf && (c == '_' || isDigit(c) || (c|0x20 >= 'a' && c|0x20 <= 'z')) {
		return syntaxErr("invalid decimal literal")
	}
	return nil
}
