package mathgrade

import (
	"fmt"
	"strings"

	"github.com/mlperf-go/mlperf-go/internal/pystr"
)

// Fallback grades a pair the Go port cannot settle, with the reference's
// own code (see NewPythonFallback).
type Fallback interface {
	Grade(given, groundTruth string) (bool, error)
}

// Grader grades MATH answers. The zero value decides what Go can and
// returns an error for residual pairs.
type Grader struct {
	// Fallback settles residual pairs; nil makes them errors.
	Fallback Fallback
}

// Verdict is the outcome of Decide.
type Verdict int

const (
	// Wrong and Right are grade_answer's answers.
	Wrong Verdict = iota
	Right
	// Residual means the answer depends on pylatexenc or sympy.
	Residual
)

// Grade is grade_answer(given, groundTruth).
func (g Grader) Grade(given, groundTruth string) (bool, error) {
	switch Decide(given, groundTruth) {
	case Right:
		return true, nil
	case Wrong:
		return false, nil
	}
	if g.Fallback == nil {
		return false, fmt.Errorf("MATH answer %q against %q needs PRM800K's sympy/pylatexenc grading; configure a fallback (mathgrade.NewPythonFallback)", given, groundTruth)
	}
	return g.Fallback.Grade(given, groundTruth)
}

// Decide runs grade_answer's steps in Go and says Right or Wrong, or
// Residual where the reference's answer would come from pylatexenc or sympy.
func Decide(given, groundTruth string) Verdict {
	if NormalizeAnswer(groundTruth) == NormalizeAnswer(given) {
		return Right
	}
	gt, gtLatex := normalize(groundTruth)
	gv, gvLatex := normalize(given)
	if gtLatex || gvLatex {
		return Residual
	}
	if gt == gv {
		return Right
	}
	if gv == "" {
		return Wrong
	}
	gtElems, gvElems := splitTuple(gt), splitTuple(gv)
	if len(gtElems) > 1 && (gt[0] != gv[0] || gt[len(gt)-1] != gv[len(gv)-1]) {
		return Wrong
	}
	if len(gtElems) != len(gvElems) {
		return Wrong
	}
	// The reference needs every element equal; one decided Wrong settles it
	// whatever sympy would say of the others.
	verdict := Right
	for i := range gtElems {
		switch decideElem(gtElems[i], gvElems[i]) {
		case Wrong:
			return Wrong
		case Residual:
			verdict = Residual
		}
	}
	return verdict
}

// decideElem compares one element pair as grade_answer's loop does.
func decideElem(gt, gv string) Verdict {
	switch {
	case isFrac(gt) && isFrac(gv):
		if gt == gv {
			return Right
		}
		return Wrong
	case strIsInt(gt) != strIsInt(gv):
		return Wrong
	case canonicalInt(gt) && canonicalInt(gv) && gt != gv:
		// sympy: Integer(gt) - Integer(gv) is a non-zero Integer.
		return Wrong
	}
	return Residual
}

// tupleChars are the brackets that make an expression a tuple or interval.
const tupleChars = "()[]"

// splitTuple is grader.split_tuple.
func splitTuple(expr string) []string {
	expr = stripProperlyFormattedCommas(expr)
	if expr == "" {
		return nil
	}
	r := []rune(expr)
	if len(r) > 2 && strings.ContainsRune(tupleChars, r[0]) && strings.ContainsRune(tupleChars, r[len(r)-1]) &&
		!strings.ContainsAny(string(r[1:len(r)-1]), tupleChars) {
		parts := strings.Split(string(r[1:len(r)-1]), ",")
		for i := range parts {
			parts[i] = pystr.Strip(parts[i])
		}
		return parts
	}
	return []string{expr}
}
