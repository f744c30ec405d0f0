package exactmatch

import (
	"fmt"
	"strings"

	"github.com/mlperf-go/mlperf-go/internal/pystr"
	"github.com/mlperf-go/mlperf-go/score/answer"
)

// kind is how a dataset's answers are extracted and graded.
type kind int

const (
	choiceABCD kind = iota // GPQA
	choiceAJ               // MMLU-Pro, MMLU
	mathBoxed              // MATH-500
	aimeInt                // AIME
	codeTests              // LiveCodeBench
)

// evaluatorKeys is DATASET_EVALUATORS in order: a dataset takes the first
// key its lower-cased name contains. The "mmlu" key exists only in
// gpt-oss-120b's table.
var evaluatorKeys = []struct {
	key      string
	kind     kind
	gptOnly  bool
	validOpt string
}{
	{"gpqa", choiceABCD, false, "ABCD"},
	{"mmlu_pro", choiceAJ, false, "ABCDEFGHIJ"},
	{"math500", mathBoxed, false, ""},
	{"aime", aimeInt, false, ""},
	{"livecodebench", codeTests, false, ""},
	{"mmlu", choiceAJ, true, "ABCDEFGHIJ"},
}

// evaluatorFor is get_evaluator: the kind of a dataset name, or an error
// when no key matches (the reference raises ValueError and stops).
func evaluatorFor(dataset string, v answer.Variant) (kind, string, error) {
	lower := strings.ToLower(dataset)
	if lower == "" {
		return 0, "", fmt.Errorf("a sample has an empty dataset name; every row needs its dataset column")
	}
	for _, e := range evaluatorKeys {
		if e.gptOnly && v != answer.GPTOSS {
			continue
		}
		if strings.Contains(lower, e.key) {
			return e.kind, e.validOpt, nil
		}
	}
	return 0, "", fmt.Errorf("no %v evaluator for dataset %q (names must contain gpqa, mmlu_pro, math500, aime or livecodebench)", v, dataset)
}

// Graded is one sample with its extracted answer and grade.
type Graded struct {
	Sample
	// DatasetKey is the lower-cased dataset name the sample is counted under.
	DatasetKey string
	// Answer is the extracted answer (the letter, integer, boxed text or
	// code); HasAnswer is false when none was found.
	Answer    string
	HasAnswer bool
	// Correct is the grade.
	Correct bool
	// Detail says why, in the reference's words where it has them.
	Detail string
}

// extract parses a sample's answer for its kind.
func extract(g *Graded, k kind, v answer.Variant, maxDigits int) {
	switch k {
	case choiceABCD:
		g.Answer, g.HasAnswer = answer.ParseChoice(g.Output, 'D', v)
	case choiceAJ:
		g.Answer, g.HasAnswer = answer.ParseChoice(g.Output, 'J', v)
	case mathBoxed:
		g.Answer, g.HasAnswer = answer.ParseBoxed(g.Output)
	case aimeInt:
		var n int
		n, g.HasAnswer = answer.ParseAIME(g.Output, maxDigits)
		if g.HasAnswer {
			g.Answer = fmt.Sprint(n)
		}
	case codeTests:
		g.Answer, g.HasAnswer = answer.ParseCode(g.Output, v)
	}
	if !g.HasAnswer {
		g.Detail = "No answer extracted from model output"
	} else if g.MissingGroundTruth {
		g.Detail = "No ground truth available"
	}
}

// gradeSimple grades the kinds that need no process: letters and integers,
// and MATH answers through the grader.
func (s *Scorer) gradeSimple(g *Graded, k kind, validOpt string) error {
	if !g.HasAnswer || g.MissingGroundTruth {
		return nil
	}
	switch k {
	case choiceABCD, choiceAJ:
		g.Correct = answer.EvaluateChoice(g.Answer, g.GroundTruth, validOpt)
	case aimeInt:
		var n int
		fmt.Sscan(g.Answer, &n)
		if !g.GroundTruthFloat {
			g.Correct = answer.EvaluateAIME(n, g.GroundTruth)
			break
		}
		ok, err := answer.EvaluateAIMEFloat(n, g.GroundTruth)
		if err != nil {
			return fmt.Errorf("dataset %q sample %d: %w", g.Dataset, g.QSLIndex, err)
		}
		g.Correct = ok
	case mathBoxed:
		// evaluate_math500: an empty answer or ground truth is wrong.
		if pystr.Strip(g.Answer) == "" || g.GroundTruth == "" {
			break
		}
		if s.Math == nil {
			return fmt.Errorf("dataset %q sample %d needs a MATH grader (PRM800K grade_answer); none is configured", g.Dataset, g.QSLIndex)
		}
		ok, err := s.Math.Grade(pystr.Strip(g.Answer), g.GroundTruth)
		if err != nil {
			return fmt.Errorf("dataset %q sample %d: %w", g.Dataset, g.QSLIndex, err)
		}
		g.Correct = ok
	}
	if g.Correct {
		g.Detail = "Correct"
	} else {
		g.Detail = fmt.Sprintf("Incorrect (extracted: %s, ground_truth: %s)", g.Answer, g.GroundTruth)
	}
	return nil
}
