package check

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	_ "github.com/mlperf-go/mlperf-go/benchmarks/whisper"
	"github.com/mlperf-go/mlperf-go/loadgen/mllog"
	"github.com/mlperf-go/mlperf-go/record"
	"github.com/mlperf-go/mlperf-go/submission"
)

// TestCheckTEST01: the checker's TEST01 rules on a compliance folder:
// both verifications passing; a failed performance verification; a
// failed accuracy verification without and with Part III's files, within
// and beyond the 1% delta.
func TestCheckTEST01(t *testing.T) {
	t.Parallel()
	round, err := submission.LookupRound("v6.1")
	if err != nil {
		t.Fatal(err)
	}
	rules := round.Benchmarks["whisper"]
	if rules == nil {
		t.Fatal("whisper is not in the v6.1 rules")
	}
	const pass, fail = "num_perf_log_data_mismatch = 0\nTEST PASS\n\n", "num_perf_log_data_mismatch = 2\nTEST FAIL\n\n"
	line := func(acc string) string { return "Word Error Rate: x%, accuracy=" + acc + "%\n" }
	for _, tc := range []struct {
		name, perf, acc string
		partIII         map[string]string
		want            string // a problem containing it, "" for none
	}{
		{"pass", "Reference score = 1.0\nTest score = 1.0\nTEST PASS\n", pass, nil, ""},
		{"performance fails", "TEST FAIL: Test score invalid\n", pass, nil, "performance verification did not pass"},
		{"accuracy fails, no part III", "TEST PASS\n", fail, nil, "TEST01 accuracy check failed and mlperf_log_accuracy.json is missing"},
		{"accuracy fails, part III within 1%", "TEST PASS\n", fail, map[string]string{
			"baseline_accuracy.txt": line("97.9"), "compliance_accuracy.txt": line("97.5")}, ""},
		{"accuracy fails, part III beyond 1%", "TEST PASS\n", fail, map[string]string{
			"baseline_accuracy.txt": line("97.9"), "compliance_accuracy.txt": line("95.0")}, "ACCURACY differs by"},
		{"accuracy fails, part III unreadable", "TEST PASS\n", fail, map[string]string{
			"baseline_accuracy.txt": "nothing\n", "compliance_accuracy.txt": line("95.0")}, "missing or 0"},
	} {
		dir := filepath.Join(t.TempDir(), "TEST01")
		write := func(p, s string) {
			os.MkdirAll(filepath.Dir(p), 0o755)
			if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		write(filepath.Join(dir, "verify_performance.txt"), tc.perf)
		write(filepath.Join(dir, "verify_accuracy.txt"), tc.acc)
		if tc.partIII != nil {
			write(filepath.Join(dir, "accuracy", mllog.AccuracyFile), "[]\n")
			write(filepath.Join(dir, "accuracy", record.AccuracyTxtFile), line("97.5"))
			for f, s := range tc.partIII {
				write(filepath.Join(dir, "accuracy", f), s)
			}
		}
		c := &checker{round: round}
		c.checkTEST01(dir, "fix", rules, "Offline")
		var msgs []string
		for _, p := range c.problems {
			msgs = append(msgs, p.Msg)
		}
		got := strings.Join(msgs, "; ")
		if (tc.want == "") != (len(c.problems) == 0) || !strings.Contains(got, tc.want) {
			t.Errorf("%s: problems %q, want one with %q", tc.name, got, tc.want)
		}
	}
}
