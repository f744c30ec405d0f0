package exactmatch

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/mlperf-go/mlperf-go/score/answer"
	"github.com/mlperf-go/mlperf-go/score/codetest"
)

// DatasetRepeats is eval_mlperf_accuracy.py's DATASET_REPEATS: how many
// times gpt-oss-120b's accuracy set repeats each dataset. Datasets not
// listed count once.
var DatasetRepeats = map[string]int{
	"aime25":           8,
	"gpqa_diamond":     5,
	"livecodebench_v6": 3,
}

// Scorer grades samples for one benchmark.
type Scorer struct {
	// Variant picks the reference: answer.GPTOSS or answer.DeepSeekR1.
	Variant answer.Variant
	// Problems holds LiveCodeBench tests by question_id; required when a
	// livecodebench sample has code to run.
	Problems map[string]codetest.Problem
	// Code runs LiveCodeBench answers; required likewise.
	Code CodeRunner
	// Math grades MATH-500 answers; required when one has an answer.
	Math MathGrader
}

// Score grades samples (in accuracy-log order) and computes the metric.
func (s *Scorer) Score(ctx context.Context, samples []Sample) (*Report, error) {
	if s.Variant == answer.DeepSeekR1 {
		samples = firstPerIndex(samples)
		if len(samples) == 0 {
			return nil, fmt.Errorf("no valid predictions in the accuracy log")
		}
	}
	maxDigits := answer.DefaultIntMaxStrDigits
	graded := make([]Graded, len(samples))
	kinds := make([]kind, len(samples))
	opts := make([]string, len(samples))
	for i, smp := range samples {
		k, opt, err := evaluatorFor(smp.Dataset, s.Variant)
		if err != nil {
			return nil, err
		}
		kinds[i], opts[i] = k, opt
		if k == codeTests && s.Variant == answer.GPTOSS {
			// Loading LiveCodeBench raised the main process's int digit limit.
			maxDigits = answer.LCBIntMaxStrDigits
		}
		graded[i] = Graded{Sample: smp, DatasetKey: strings.ToLower(smp.Dataset)}
	}
	for i := range graded {
		extract(&graded[i], kinds[i], s.Variant, maxDigits)
		if kinds[i] != codeTests {
			if err := s.gradeSimple(&graded[i], kinds[i], opts[i]); err != nil {
				return nil, err
			}
		}
	}
	if err := s.runCode(ctx, graded, kinds); err != nil {
		return nil, err
	}
	return newReport(s.Variant, graded), nil
}

// firstPerIndex keeps the first entry of each qsl_idx, as deepseek-r1's
// process_mlperf_log_accuracy does.
func firstPerIndex(samples []Sample) []Sample {
	seen := map[int]bool{}
	out := make([]Sample, 0, len(samples))
	for _, smp := range samples {
		if !seen[smp.QSLIndex] {
			seen[smp.QSLIndex] = true
			out = append(out, smp)
		}
	}
	return out
}

// runCode grades the LiveCodeBench samples that have code and a question
// id, all at once on the runner's workers.
func (s *Scorer) runCode(ctx context.Context, graded []Graded, kinds []kind) error {
	var jobs []codetest.Job
	var idx []int
	var missing []string
	for i := range graded {
		g := &graded[i]
		if kinds[i] != codeTests || !g.HasAnswer || g.MissingGroundTruth {
			continue
		}
		if g.Answer == "" { // the reference's `if not code` fails it unrun
			g.Detail = "No code or question_id provided"
			continue
		}
		p, ok := s.Problems[g.GroundTruth]
		if !ok || len(p.Tests) == 0 {
			missing = append(missing, g.GroundTruth)
			continue
		}
		jobs = append(jobs, codetest.Job{Code: g.Answer, Problem: p})
		idx = append(idx, i)
	}
	if len(missing) > 0 {
		sort.Strings(missing)
		return fmt.Errorf("%d LiveCodeBench samples have no tests loaded (question ids %s): load the code_generation_lite tests for every question of the dataset; an unscorable subset is not scored as wrong",
			len(missing), strings.Join(compact(missing, 5), ", "))
	}
	if len(jobs) == 0 {
		return nil
	}
	if s.Code == nil {
		return fmt.Errorf("%d LiveCodeBench answers need a code runner; none is configured", len(jobs))
	}
	res, err := s.Code.RunAll(ctx, jobs)
	if err != nil {
		return fmt.Errorf("LiveCodeBench tests: %w", err)
	}
	for k, i := range idx {
		graded[i].Correct = res[k].Passed
		graded[i].Detail = testDetail(res[k])
	}
	return nil
}

// testDetail words a test result as the reference's evaluation_details.
func testDetail(r codetest.Result) string {
	if r.Passed {
		return fmt.Sprintf("Passed %d/%d test cases", len(r.Codes), len(r.Codes))
	}
	passed := 0
	for _, c := range r.Codes {
		if c > 0 {
			passed++
		}
	}
	return fmt.Sprintf("Passed %d/%d test cases run: %s", passed, len(r.Codes), r.Detail)
}

// compact lists the first n distinct values and how many more there are.
func compact(vals []string, n int) []string {
	var out []string
	for i, v := range vals {
		if i > 0 && vals[i-1] == v {
			continue
		}
		out = append(out, v)
	}
	if len(out) > n {
		out = append(out[:n], fmt.Sprintf("and %d more", len(out)-n))
	}
	return out
}
