package submission

import (
	"strings"
	"testing"

	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/submission/internal/logtest"
)

func FuzzEvalAccuracyTxt(f *testing.F) {
	f.Add([]byte(logtest.AccuracyTxt(logtest.BenchmarkLlama8B)))
	f.Add([]byte(logtest.AccuracyTxt(logtest.BenchmarkGPTOSS)))
	f.Add([]byte(logtest.AccuracyTxt(logtest.BenchmarkQwen3VL)))
	f.Add([]byte("'exact_match': 1.2.3\r\nhash=\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, bench := range []string{logtest.BenchmarkLlama8B, logtest.BenchmarkGPTOSS, logtest.BenchmarkQwen3VL} {
			r := mustRound("v6.1").Benchmarks[bench]
			evalAccuracyTxt(b, r.accuracyMetrics(benchmark.ScenarioOffline), r.upper)
			out, err := IngestEvaluatorOutput(bench, "", b)
			if err != nil {
				continue
			}
			// What Ingest accepts, the checker's patterns can read.
			res := evalAccuracyTxt(out, r.accuracyMetrics(benchmark.ScenarioOffline), nil)
			for _, p := range res.problems {
				if strings.Contains(p.text, "no line matches") {
					t.Fatalf("%s: Ingest accepted %q but %s", bench, b, p.text)
				}
			}
		}
	})
}

func FuzzSplitLinesKeepEnds(f *testing.F) {
	f.Add([]byte("a\nb\r\nc"))
	f.Fuzz(func(t *testing.T, b []byte) {
		lines := splitLinesKeepEnds(b)
		if got, want := strings.Join(lines, ""), strings.ReplaceAll(string(b), "\r\n", "\n"); got != want {
			t.Fatalf("lines do not rebuild the input: %q vs %q", got, want)
		}
		for i, l := range lines {
			if i < len(lines)-1 && !strings.HasSuffix(l, "\n") {
				t.Fatalf("line %d %q lacks its newline", i, l)
			}
		}
	})
}

func FuzzValidateSystem(f *testing.F) {
	f.Add([]byte(`{"division": "closed", "number_of_nodes": "x", "is_network": 1, "status": 3}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, b []byte) {
		ValidateSystem(b, "closed", "Org")
		ValidateMeasurements(b)
		SystemType(b)
	})
}
