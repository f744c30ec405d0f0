package exactmatch

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/mlperf-go/mlperf-go/score/answer"
)

// fullSize is gpt-oss-120b's accuracy set size (the v6.1 checker's
// accuracy-sample-count): 30 AIME25 × 8 + 198 GPQA-diamond × 5 + 1055
// LiveCodeBench-v6 × 3.
const fullSize = 4395

// benchInput is what testdata/gen_golden.py --bench writes: the rows it
// scored, what the reference printed and how long it took.
type benchInput struct {
	Rows          [][3]string
	Printed       string
	PythonSeconds float64 `json:"python_seconds"`
}

// fullSizeSamples returns the samples of $EXACTMATCH_BENCH_INPUT when set
// (to score exactly what the Python reference scored and compare its
// output), else the golden rows cycled to full size in the real proportions.
func fullSizeSamples(b *testing.B) ([]Sample, *benchInput) {
	b.Helper()
	if path := os.Getenv("EXACTMATCH_BENCH_INPUT"); path != "" {
		raw, err := os.ReadFile(path)
		if err != nil {
			b.Fatal(err)
		}
		var in benchInput
		if err := json.Unmarshal(raw, &in); err != nil {
			b.Fatal(err)
		}
		var s []Sample
		for i, row := range in.Rows {
			s = append(s, rowSample(i, row))
		}
		return s, &in
	}
	g := readGolden(b)
	byDataset := map[string][][3]string{}
	for _, row := range g.GPTOSS.Rows {
		byDataset[row[0]] = append(byDataset[row[0]], row)
	}
	counts := map[string]int{"aime25": 240, "gpqa_diamond": 990, "livecodebench_v6": fullSize - 240 - 990}
	var s []Sample
	for _, ds := range []string{"aime25", "gpqa_diamond", "livecodebench_v6"} {
		rows := byDataset[ds]
		for i := 0; i < counts[ds]; i++ {
			s = append(s, rowSample(len(s), rows[i%len(rows)]))
		}
	}
	return s, nil
}

// BenchmarkScoreGPTOSSFullSize scores a full-size gpt-oss-120b set of
// synthetic answers (about 72% LiveCodeBench answers run against their
// tests) with 2 workers, the machine's core count.
func BenchmarkScoreGPTOSSFullSize(b *testing.B) {
	samples, in := fullSizeSamples(b)
	s := &Scorer{Variant: answer.GPTOSS, Problems: problems(b, readGolden(b)), Code: newRunner(b)}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		rep, err := s.Score(context.Background(), samples)
		if err != nil {
			b.Fatal(err)
		}
		if in != nil {
			var out strings.Builder
			rep.WriteTo(&out)
			if out.String() != in.Printed {
				b.Fatalf("printed:\n%s\nreference printed:\n%s", out.String(), in.Printed)
			}
			b.ReportMetric(in.PythonSeconds, "python-s")
		}
	}
	b.ReportMetric(float64(len(samples)), "samples")
}

// BenchmarkExtractGPTOSS measures answer extraction and grading alone over
// the full-size set's non-code samples (no processes).
func BenchmarkExtractGPTOSS(b *testing.B) {
	samples, _ := fullSizeSamples(b)
	var simple []Sample
	for _, s := range samples {
		if s.Dataset != "livecodebench_v6" {
			simple = append(simple, s)
		}
	}
	s := &Scorer{Variant: answer.GPTOSS}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := s.Score(context.Background(), simple); err != nil {
			b.Fatal(err)
		}
	}
}
