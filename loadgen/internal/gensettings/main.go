// Command gensettings writes the Go copies of mlperf::TestSettings from the
// one list of its fields, the MLPG_TEST_SETTINGS X-macro in
// loadgen/shim/mlpg_settings.h (whose comment describes the columns): the
// TestSettings struct and DefaultTestSettings (settings_gen.go, plain Go) and
// the conversions to and from the shim's C struct (settings_cgo_gen.go, cgo
// only). The C struct and the C++ conversions expand the same list with the
// preprocessor. Run it with `go generate ./loadgen`; a test fails when the
// committed files differ from its output.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"go/format"
	"go/scanner"
	"go/token"
	"os"
	"strconv"
	"strings"
)

// kind is one type column of the list: the Go field type and the Go
// expressions converting a value to the shim's C field and back (%s is the
// value).
type kind struct {
	goType, toC, fromC string
}

// kinds are the MLPG_CTYPE_* kinds of mlpg_settings.h.
var kinds = map[string]kind{
	"SCENARIO": {"Scenario", "C.int32_t(%s)", "Scenario(%s)"},
	"MODE":     {"Mode", "C.int32_t(%s)", "Mode(%s)"},
	"F64":      {"float64", "C.double(%s)", "float64(%s)"},
	"U64":      {"uint64", "C.uint64_t(%s)", "uint64(%s)"},
	"INT":      {"int", "C.int32_t(%s)", "int(%s)"},
	"BOOL":     {"bool", "cBool(%s)", "%s != 0"},
}

// field is one X(...) entry.
type field struct {
	kind    string
	cName   string
	goName  string
	deflt   string // a Go expression
	doc     string
	srcLine int
}

const macro = "#define MLPG_TEST_SETTINGS(X)"

func main() {
	header := flag.String("header", "shim/mlpg_settings.h", "the header holding MLPG_TEST_SETTINGS")
	out := flag.String("out", "settings_gen.go", "the plain Go file to write (TestSettings, DefaultTestSettings)")
	cgoOut := flag.String("cgo-out", "settings_cgo_gen.go", "the cgo file to write (conversions to and from C)")
	flag.Parse()
	src, err := os.ReadFile(*header)
	if err != nil {
		fail(err)
	}
	plain, cgo, err := generate(*header, src)
	if err != nil {
		fail(err)
	}
	for path, b := range map[string][]byte{*out: plain, *cgoOut: cgo} {
		if err := os.WriteFile(path, b, 0o644); err != nil {
			fail(err)
		}
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "gensettings:", err)
	os.Exit(1)
}

// generate returns the two Go files for the list in src (read from path,
// which errors name).
func generate(path string, src []byte) (plain, cgo []byte, err error) {
	fields, err := parse(path, src)
	if err != nil {
		return nil, nil, err
	}
	plain, err = format.Source(plainFile(path, fields))
	if err != nil {
		return nil, nil, fmt.Errorf("formatting the Go struct: %w", err)
	}
	cgo, err = format.Source(cgoFile(path, fields))
	if err != nil {
		return nil, nil, fmt.Errorf("formatting the conversions: %w", err)
	}
	return plain, cgo, nil
}

// parse reads the X(...) entries of MLPG_TEST_SETTINGS: the lines from the
// #define through the last one continued with a backslash.
func parse(path string, src []byte) ([]field, error) {
	lines := strings.Split(string(src), "\n")
	start := -1
	for i, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l), macro) {
			start = i
			break
		}
	}
	if start < 0 {
		return nil, fmt.Errorf("%s: no %q line", path, macro)
	}
	// Keep line breaks so scanner positions are file lines; drop the
	// continuation backslashes and the #define itself.
	var body strings.Builder
	for i := start; i < len(lines); i++ {
		l := strings.TrimRight(lines[i], " \t\r")
		cont := strings.HasSuffix(l, "\\")
		l = strings.TrimSuffix(l, "\\")
		if i == start {
			l = strings.Repeat(" ", len(macro)) + strings.TrimPrefix(strings.TrimSpace(l), macro)
		}
		body.WriteString(l)
		body.WriteByte('\n')
		if !cont {
			break
		}
	}
	p := &parser{path: path, lineBase: start}
	fset := token.NewFileSet()
	text := []byte(body.String())
	p.s.Init(fset.AddFile(path, -1, len(text)), text, func(pos token.Position, msg string) {
		p.errorf(pos.Line, "%s", msg)
	}, 0)
	p.fset = fset
	var fields []field
	seenC, seenGo := map[string]bool{}, map[string]bool{}
	for {
		p.next()
		if p.tok == token.EOF || p.err != nil {
			break
		}
		f := p.entry()
		if p.err != nil {
			break
		}
		if seenC[f.cName] || seenGo[f.goName] {
			p.errorf(f.srcLine-p.lineBase, "field %s (%s) listed twice", f.cName, f.goName)
			break
		}
		seenC[f.cName], seenGo[f.goName] = true, true
		fields = append(fields, f)
	}
	if p.err != nil {
		return nil, p.err
	}
	if len(fields) == 0 {
		return nil, fmt.Errorf("%s: MLPG_TEST_SETTINGS lists no fields", path)
	}
	return fields, nil
}

// parser scans the macro body with Go's scanner: its identifiers, numbers,
// strings, commas, parentheses and /* */ comments are C's too.
type parser struct {
	path     string
	lineBase int // file line of the #define, minus one
	fset     *token.FileSet
	s        scanner.Scanner
	pos      token.Pos
	tok      token.Token
	lit      string
	err      error
}

func (p *parser) next() {
	for {
		p.pos, p.tok, p.lit = p.s.Scan()
		// Newlines inside the body become automatic semicolons; C has none.
		if p.tok != token.SEMICOLON || p.lit != "\n" {
			return
		}
	}
}

func (p *parser) line() int { return p.fset.Position(p.pos).Line }

// found names the current token for an error.
func (p *parser) found() string {
	switch {
	case p.tok == token.EOF:
		return "the end of the list"
	case p.lit == "" || p.tok == token.SEMICOLON:
		return p.tok.String()
	}
	return strconv.Quote(p.lit)
}

func (p *parser) errorf(line int, format string, args ...any) {
	if p.err == nil {
		p.err = fmt.Errorf("%s:%d: %s (each entry is X(kind, name, GoName, default, \"doc\"...))", p.path, p.lineBase+line, fmt.Sprintf(format, args...))
	}
}

func (p *parser) expect(t token.Token) string {
	if p.err != nil {
		return ""
	}
	if p.tok != t {
		p.errorf(p.line(), "found %s, want %s", p.found(), t)
		return ""
	}
	lit := p.lit
	p.next()
	return lit
}

// entry parses X(kind, name, GoName, default, "doc" "doc"...).
func (p *parser) entry() field {
	f := field{srcLine: p.lineBase + p.line()}
	if p.tok != token.IDENT || p.lit != "X" {
		p.errorf(p.line(), "found %s, want X(", p.found())
		return f
	}
	p.next()
	p.expect(token.LPAREN)
	f.kind = p.expect(token.IDENT)
	if _, ok := kinds[f.kind]; !ok && p.err == nil {
		p.errorf(p.line(), "unknown kind %q (want SCENARIO, MODE, F64, U64, INT or BOOL)", f.kind)
	}
	p.expect(token.COMMA)
	f.cName = p.expect(token.IDENT)
	p.expect(token.COMMA)
	f.goName = p.expect(token.IDENT)
	if p.err == nil && !token.IsExported(f.goName) {
		p.errorf(p.line(), "Go name %q is not exported", f.goName)
	}
	p.expect(token.COMMA)
	switch p.tok {
	case token.IDENT, token.INT, token.FLOAT:
		f.deflt = p.lit
		p.next()
	default:
		p.errorf(p.line(), "default of %s: found %s, want a number or a Go identifier", f.cName, p.found())
	}
	p.expect(token.COMMA)
	var doc []string
	for p.err == nil && p.tok == token.STRING {
		s, err := strconv.Unquote(p.lit)
		if err != nil {
			p.errorf(p.line(), "doc of %s: %v", f.cName, err)
		}
		doc = append(doc, s)
		p.next()
	}
	if p.err == nil && len(doc) == 0 {
		p.errorf(p.line(), "%s has no doc string", f.cName)
	}
	f.doc = strings.Join(doc, "")
	if p.err == nil && p.tok != token.RPAREN {
		p.errorf(p.line(), "after the doc of %s: found %s, want )", f.cName, p.found())
	}
	return f
}

func header(b *bytes.Buffer, path string) {
	fmt.Fprintf(b, "// Code generated by go run ./internal/gensettings from %s; DO NOT EDIT.\n\n", path)
}

// isZero reports whether a default is the Go zero value of its kind.
func isZero(f field) bool {
	switch f.deflt {
	case "false", "0", "0.0":
		return true
	}
	return false
}

func plainFile(path string, fields []field) []byte {
	var b bytes.Buffer
	header(&b, path)
	b.WriteString("package loadgen\n\n")
	b.WriteString(`// TestSettings mirrors mlperf::TestSettings of LoadGen 6.0 field by field
// (test_settings.h). Units are LoadGen's own and are named in each field:
// latencies are nanoseconds except where a field says otherwise, durations
// milliseconds. DefaultTestSettings returns LoadGen's defaults; the zero value
// is NOT LoadGen's default.
type TestSettings struct {
`)
	for _, f := range fields {
		fmt.Fprintf(&b, "\t// %s\n\t%s %s\n", wrap(f.goName+" "+f.doc+" Default "+f.deflt+".", 72, "\t// "), f.goName, kinds[f.kind].goType)
	}
	b.WriteString(`}

// DefaultTestSettings returns the defaults of mlperf::TestSettings
// (test_settings.h, LoadGen 6.0); a cgo test checks them against the linked
// library.
func DefaultTestSettings() TestSettings {
	return TestSettings{
`)
	for _, f := range fields {
		if !isZero(f) {
			fmt.Fprintf(&b, "\t\t%s: %s,\n", f.goName, f.deflt)
		}
	}
	b.WriteString("\t}\n}\n")
	return b.Bytes()
}

func cgoFile(path string, fields []field) []byte {
	var b bytes.Buffer
	header(&b, path)
	b.WriteString(`//go:build cgo

package loadgen

/*
#include "mlpg_shim.h"
*/
import "C"

// toC copies s into the shim's C struct.
func (s *TestSettings) toC() C.mlpg_test_settings {
	return C.mlpg_test_settings{
`)
	for _, f := range fields {
		fmt.Fprintf(&b, "\t\t%s: %s,\n", f.cName, fmt.Sprintf(kinds[f.kind].toC, "s."+f.goName))
	}
	b.WriteString(`	}
}

// settingsFromC copies the shim's C struct into TestSettings.
func settingsFromC(c *C.mlpg_test_settings) TestSettings {
	return TestSettings{
`)
	for _, f := range fields {
		fmt.Fprintf(&b, "\t\t%s: %s,\n", f.goName, fmt.Sprintf(kinds[f.kind].fromC, "c."+f.cName))
	}
	b.WriteString("\t}\n}\n")
	return b.Bytes()
}

// wrap breaks text into lines of at most width bytes (words longer than
// that stay whole), joined with "\n"+prefix.
func wrap(text string, width int, prefix string) string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(text) {
		if line != "" && len(line)+1+len(w) > width {
			lines = append(lines, line)
			line = w
			continue
		}
		if line != "" {
			line += " "
		}
		line += w
	}
	lines = append(lines, line)
	return strings.Join(lines, "\n"+prefix)
}
