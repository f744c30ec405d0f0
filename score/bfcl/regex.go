package bfcl

import (
	"strings"
	"sync"

	"github.com/dlclark/regexp2"
)

// The Java and JavaScript type converters of bfcl-eval are written with
// Python's re: lazy quantifiers, a lookahead, "$" matching before a final
// newline, Unicode \d, \w and \s. Go's RE2 has no lookahead, so these
// patterns run on regexp2, a backtracking engine with .NET's semantics,
// which agree with Python's for these constructs once \s and \w are
// spelled as Python defines them (.NET's \s lacks U+001C..U+001F and its
// \w takes combining marks but not all numbers).

// pyRe is one Python pattern compiled for regexp2.
type pyRe struct {
	once sync.Once
	src  string
	opts regexp2.RegexOptions
	re   *regexp2.Regexp
}

// pySpace and pyWord are Python's \s (str.isspace) and \w (str.isalnum
// or "_") as character-class bodies.
const (
	pySpace = `\s\x1c-\x1f`
	pyWord  = `\p{L}\p{N}_`
)

// translate rewrites \s and \w (outside and inside classes) to Python's
// definitions.
func translate(p string) string {
	var b strings.Builder
	inClass := false
	for i := 0; i < len(p); i++ {
		c := p[i]
		if c == '\\' && i+1 < len(p) {
			switch p[i+1] {
			case 's':
				if inClass {
					b.WriteString(pySpace)
				} else {
					b.WriteString("[" + pySpace + "]")
				}
				i++
				continue
			case 'w':
				if inClass {
					b.WriteString(pyWord)
				} else {
					b.WriteString("[" + pyWord + "]")
				}
				i++
				continue
			}
			b.WriteByte(c)
			b.WriteByte(p[i+1])
			i++
			continue
		}
		switch c {
		case '[':
			inClass = true
		case ']':
			inClass = false
		}
		b.WriteByte(c)
	}
	return b.String()
}

// re returns the compiled pattern (it panics on a bad pattern: the
// patterns are constants).
func (r *pyRe) get() *regexp2.Regexp {
	r.once.Do(func() { r.re = regexp2.MustCompile(translate(r.src), r.opts) })
	return r.re
}

func newRe(src string) *pyRe       { return &pyRe{src: src} }
func newReDotAll(src string) *pyRe { return &pyRe{src: src, opts: regexp2.Singleline} }
func (r *pyRe) anchored() *pyRe    { return &pyRe{src: `\A(?:` + r.src + `)`, opts: r.opts} }
func reMatch(src string) *pyRe     { return newRe(src).anchored() }

// match is a Python Match: its groups, None where a group took no part.
type match struct {
	groups []string
	set    []bool
}

func (m *match) group(i int) (string, bool) { return m.groups[i], m.set[i] }

func toMatch(m *regexp2.Match) *match {
	gs := m.Groups()
	out := &match{groups: make([]string, len(gs)), set: make([]bool, len(gs))}
	for i, g := range gs {
		if len(g.Captures) > 0 {
			out.groups[i], out.set[i] = g.String(), true
		}
	}
	return out
}

// search is re.search (or re.match for an anchored pattern): the first
// match or nil.
func (r *pyRe) search(s string) *match {
	m, err := r.get().FindStringMatch(s)
	if err != nil || m == nil {
		return nil
	}
	return toMatch(m)
}

// findAll is re.findall: every non-overlapping match, left to right.
func (r *pyRe) findAll(s string) []*match {
	var out []*match
	m, err := r.get().FindStringMatch(s)
	for err == nil && m != nil {
		out = append(out, toMatch(m))
		m, err = r.get().FindNextMatch(m)
	}
	return out
}

// sub is re.sub(pattern, repl, s) with a literal replacement.
func (r *pyRe) sub(s, repl string) string {
	out, err := r.get().Replace(s, strings.ReplaceAll(repl, "$", "$$"), -1, -1)
	if err != nil {
		return s
	}
	return out
}
