package check

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/record"
	"github.com/mlperf-go/mlperf-go/submission/filing"
	"github.com/mlperf-go/mlperf-go/submission/internal/logtest"
	"github.com/mlperf-go/mlperf-go/submission/internal/treetest"
)

// TestCheckRefusesRunsWithFailuresOrAborts: a results tree whose run
// records say samples failed or the test was aborted is refused by Check,
// though LoadGen's logs say VALID; a clean record passes.
func TestCheckRefusesRunsWithFailuresOrAborts(t *testing.T) {
	const round = "v6.1"
	for _, tc := range []struct {
		name string
		info record.Run
		want string // "" for no problem
	}{
		{"clean", record.Run{Outcome: record.Valid, Samples: &record.SampleCounts{Issued: 10, Completed: 10}}, ""},
		{"failed samples", record.Run{Samples: &record.SampleCounts{Issued: 10, Completed: 10, Failed: 3, FailuresByReason: map[string]int64{"http_status": 3}}}, "3 of 10 samples failed"},
		{"aborted", record.Run{Outcome: record.Aborted, OutcomeReason: "interrupted by terminated"}, "aborted (interrupted by terminated)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := treetest.BuildTree(t, round)
			for _, kind := range []string{"performance/run_1", "accuracy"} {
				dir := filepath.Join(treetest.ScenDir(out, logtest.BenchmarkLlama8B, benchmark.ScenarioOffline), kind)
				if err := record.Write(dir, tc.info); err != nil {
					t.Fatal(err)
				}
				ps := Check(out, round)
				text := logtest.ProblemsText(ps)
				if tc.want == "" {
					if len(ps) != 0 {
						t.Errorf("%s: clean record refused:\n%s", kind, text)
					}
					continue
				}
				if !strings.Contains(text, filepath.Join(kind, record.File)) || !strings.Contains(text, tc.want) {
					t.Errorf("%s: want a problem in %s saying %q, got:\n%s", kind, record.File, tc.want, text)
				}
				// FileRun refuses to file such a log folder in the first place.
				_, err := filing.FileRun(filing.RunRecord{ResultsDir: t.TempDir(), System: "sys1", Benchmark: logtest.BenchmarkLlama8B, Scenario: benchmark.ScenarioOffline,
					Kind: record.KindPerformance, LogDir: dir, UserConf: filepath.Join(out, "closed", "Org", "results", "sys1", logtest.BenchmarkLlama8B, benchmark.ScenarioOffline, "user.conf")})
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Errorf("%s: FileRun = %v, want refused with %q", kind, err, tc.want)
				}
				record.Write(dir, record.Run{Outcome: record.Valid}) //nolint:errcheck // next kind
			}
		})
	}
}

// TestCheckFailsEmptyDivision: a closed/ with nothing in it is a problem,
// not a pass.
func TestCheckFailsEmptyDivision(t *testing.T) {
	out := t.TempDir()
	logtest.MustWrite(t, filepath.Join(out, "closed", ".keep"), "")
	for _, dir := range []string{out, filepath.Join(out, "closed")} {
		ps := Check(dir, "v6.1")
		if text := logtest.ProblemsText(ps); len(ps) != 1 || !strings.Contains(text, "holds no submitter directory") {
			t.Errorf("Check(%s) = %s, want one problem naming the empty division", dir, text)
		}
	}
}
