package exactmatch

import (
	"context"

	"github.com/mlperf-go/mlperf-go/score/codetest"
)

// Sample is one accuracy-log entry joined with its dataset row.
//
// The dataset columns the references read are "dataset" (e.g. aime25,
// gpqa_diamond, livecodebench_v6 for gpt-oss-120b; aime, gpqa, math500,
// mmlu_pro, livecodebench for deepseek-r1) and "ground_truth" (deepseek-r1
// also accepts "gt_output"). For LiveCodeBench rows the ground truth is the
// question_id, whose tests come from LiveCodeBench's code_generation_lite
// (release_v6 for gpt-oss-120b, release_v1 for deepseek-r1).
type Sample struct {
	// QSLIndex is the entry's qsl_idx.
	QSLIndex int
	// Dataset is the row's dataset name as stored (case is ignored).
	Dataset string
	// GroundTruth is the row's ground truth as text: a letter, an integer
	// written in decimal, a MATH answer or a LiveCodeBench question_id.
	GroundTruth string
	// GroundTruthFloat is true when the row's ground truth is a Python
	// float; GroundTruth is then Python's str() of it ("42.0"), and AIME's
	// int() truncates the number (int(42.0) is 42) where int("42.0")
	// would raise.
	GroundTruthFloat bool
	// MissingGroundTruth is true when the row's ground truth is None/NaN;
	// such samples count as wrong, as in the references.
	MissingGroundTruth bool
	// Output is the decoded output: for gpt-oss-120b decoded with special
	// tokens kept (skip_special_tokens=False, so the harmony channel markers
	// are present); for deepseek-r1 with them skipped.
	Output string
	// Tokens is the number of output token IDs in the entry.
	Tokens int
}

// CodeRunner runs LiveCodeBench answers; *codetest.Runner is one.
type CodeRunner interface {
	RunAll(ctx context.Context, jobs []codetest.Job) ([]codetest.Result, error)
}

// MathGrader grades a MATH-500 answer as PRM800K's grade_answer does;
// score/mathgrade provides one.
type MathGrader interface {
	Grade(given, groundTruth string) (bool, error)
}
