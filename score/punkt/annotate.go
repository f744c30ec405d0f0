package punkt

import (
	"strings"

	"github.com/mlperf-go/mlperf-go/internal/pystr"
)

// firstPass is _first_pass_annotation: decisions from the token alone. An
// end character alone is a sentence break, periods alone an ellipsis, and a
// word ending in one period an abbreviation if the model knows it (also when
// only its last hyphen-separated part is known, as in "ex-Gov.") and a
// sentence break otherwise.
func (t *Tokenizer) firstPass(tok *token) {
	s := tok.tok
	switch {
	case s == "." || s == "?" || s == "!":
		tok.sentbreak = true
	case tok.isEllipsis():
		tok.ellipsis = true
	case tok.periodFinal && !strings.HasSuffix(s, ".."):
		abbr := pystr.Lower(s[:len(s)-1])
		last := abbr[strings.LastIndexByte(abbr, '-')+1:]
		p := t.params()
		if p.AbbrevTypes[abbr] || p.AbbrevTypes[last] {
			tok.abbr = true
		} else {
			tok.sentbreak = true
		}
	}
}

// ortho is the result of _ortho_heuristic: whether a token starts a
// sentence by its case and the cases its type was seen in.
type ortho int

const (
	orthoUnknown ortho = iota
	orthoStarts
	orthoNotStarts
)

// orthoHeuristic is _ortho_heuristic.
func (t *Tokenizer) orthoHeuristic(tok *token) ortho {
	switch tok.tok {
	case ";", ":", ",", ".", "!", "?":
		return orthoNotStarts
	}
	ctx := t.params().OrthoContext[tok.typeNoSentPeriod()]
	if tok.firstUpper() && ctx&orthoLC != 0 && ctx&orthoMidUC == 0 {
		return orthoStarts
	}
	if tok.firstLower() && (ctx&orthoUC != 0 || ctx&orthoBegLC == 0) {
		return orthoNotStarts
	}
	return orthoUnknown
}

// secondPass is _second_pass_annotation: a period-final token's decision
// revised by the token after it (collocations, the orthographic heuristic,
// frequent sentence starters, initials and ordinals).
func (t *Tokenizer) secondPass(tok1, tok2 *token) {
	if !tok1.periodFinal {
		return
	}
	p := t.params()
	typ := tok1.typeNoPeriod()
	nextTyp := tok2.typeNoSentPeriod()
	initial := t.v.isInitial(tok1)
	if p.Collocations[[2]string{typ, nextTyp}] {
		tok1.sentbreak, tok1.abbr = false, true
		return
	}
	if (tok1.abbr || tok1.ellipsis) && !initial {
		if t.orthoHeuristic(tok2) == orthoStarts {
			tok1.sentbreak = true
			return
		}
		if tok2.firstUpper() && p.SentStarters[nextTyp] {
			tok1.sentbreak = true
			return
		}
	}
	if initial || typ == "##number##" {
		o := t.orthoHeuristic(tok2)
		if o == orthoNotStarts {
			tok1.sentbreak, tok1.abbr = false, true
			return
		}
		if o == orthoUnknown && initial && tok2.firstUpper() && p.OrthoContext[nextTyp]&orthoLC == 0 {
			tok1.sentbreak, tok1.abbr = false, true
		}
	}
}
