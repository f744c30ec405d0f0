package filing

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mlperf-go/mlperf-go/record"
	"github.com/mlperf-go/mlperf-go/submission/internal/logtest"
	"github.com/mlperf-go/mlperf-go/submission/internal/treefs"
)

// newRun writes a LoadGen output dir and a user.conf and returns a RunRecord
// filing them.
func newRun(t *testing.T, results, kind, scen string) RunRecord {
	t.Helper()
	logDir := t.TempDir()
	mode := "PerformanceOnly"
	if kind == "accuracy" {
		mode = "AccuracyOnly"
	}
	d := logtest.PerfDetail("v6.1", "llama3.1-8b", scen, mode)
	if strings.HasPrefix(kind, "TEST") {
		d.Warnings = append(d.Warnings, logtest.AuditWarning)
	}
	logtest.WriteLogDir(t, logDir, d, logtest.ValidSummary, "[\n]\n")
	uc := filepath.Join(t.TempDir(), "user.conf")
	logtest.MustWrite(t, uc, "llama3_1-8b.Offline.target_qps = 10\n")
	return RunRecord{ResultsDir: results, System: "sys1", Benchmark: "llama3_1-8b", Scenario: strings.ToLower(scen),
		Kind: record.Kind(kind), LogDir: logDir, UserConf: uc, Command: []string{"mlperf-go", "run"}}
}

func TestFileRunLayout(t *testing.T) {
	results := t.TempDir()
	for _, kind := range []string{"performance", "accuracy", "TEST06"} {
		if _, err := FileRun(newRun(t, results, kind, "Offline")); err != nil {
			t.Fatalf("%s: %v", kind, err)
		}
	}
	want := []string{
		"sys1/llama3.1-8b/Offline/TEST06/accuracy/mlperf_log_accuracy.json",
		"sys1/llama3.1-8b/Offline/TEST06/performance/run_1/mlperf_go_run.json",
		"sys1/llama3.1-8b/Offline/TEST06/performance/run_1/mlperf_log_detail.txt",
		"sys1/llama3.1-8b/Offline/TEST06/performance/run_1/mlperf_log_summary.txt",
		"sys1/llama3.1-8b/Offline/accuracy/mlperf_go_run.json",
		"sys1/llama3.1-8b/Offline/accuracy/mlperf_log_accuracy.json",
		"sys1/llama3.1-8b/Offline/accuracy/mlperf_log_detail.txt",
		"sys1/llama3.1-8b/Offline/accuracy/mlperf_log_summary.txt",
		"sys1/llama3.1-8b/Offline/performance/run_1/mlperf_go_run.json",
		"sys1/llama3.1-8b/Offline/performance/run_1/mlperf_log_accuracy.json",
		"sys1/llama3.1-8b/Offline/performance/run_1/mlperf_log_detail.txt",
		"sys1/llama3.1-8b/Offline/performance/run_1/mlperf_log_summary.txt",
		"sys1/llama3.1-8b/Offline/user.conf",
	}
	if diff := cmp.Diff(want, logtest.ListTree(t, results)); diff != "" {
		t.Errorf("tree (-want +got):\n%s", diff)
	}
	info, err := record.Read(filepath.Join(results, "sys1/llama3.1-8b/Offline/performance/run_1"))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"mlperf-go", "run"}, info.Command); diff != "" {
		t.Errorf("run info command (-want +got):\n%s", diff)
	}
}

func TestFileRunRefusesOverwrite(t *testing.T) {
	results := t.TempDir()
	first := newRun(t, results, "performance", "Offline")
	if _, err := FileRun(first); err != nil {
		t.Fatal(err)
	}
	before := logtest.MustRead(t, filepath.Join(results, "sys1/llama3.1-8b/Offline/performance/run_1/mlperf_log_detail.txt"))
	second := newRun(t, results, "performance", "Offline")
	logtest.MustWrite(t, filepath.Join(second.LogDir, "mlperf_log_summary.txt"), logtest.ValidSummary+"second\n")
	_, err := FileRun(second)
	if err == nil || !strings.Contains(err.Error(), "--replace") {
		t.Fatalf("FileRun over an existing run: err = %v, want one mentioning --replace", err)
	}
	if got := logtest.MustRead(t, filepath.Join(results, "sys1/llama3.1-8b/Offline/performance/run_1/mlperf_log_detail.txt")); got != before {
		t.Error("refused FileRun changed the earlier run")
	}
}

func TestFileRunReplaceKeepsPrevious(t *testing.T) {
	old := now
	defer func() { now = old }()
	now = func() time.Time { return time.Date(2026, 11, 21, 8, 46, 48, 0, time.UTC) }

	results := t.TempDir()
	if _, err := FileRun(newRun(t, results, "performance", "Offline")); err != nil {
		t.Fatal(err)
	}
	second := newRun(t, results, "performance", "Offline")
	logtest.MustWrite(t, filepath.Join(second.LogDir, "mlperf_log_summary.txt"), logtest.ValidSummary+"second\n")
	logtest.MustWrite(t, second.UserConf, "llama3_1-8b.Offline.target_qps = 20\n")
	second.Replace = true
	dir, err := FileRun(second)
	if err != nil {
		t.Fatal(err)
	}
	scen := filepath.Join(results, "sys1/llama3.1-8b/Offline")
	if dir != filepath.Join(scen, "performance/run_1") {
		t.Errorf("dir = %s", dir)
	}
	if got := logtest.MustRead(t, filepath.Join(dir, "mlperf_log_summary.txt")); !strings.HasSuffix(got, "second\n") {
		t.Error("new run not filed")
	}
	prev := filepath.Join(scen, "performance/.previous-run_1-20261121T084648Z/mlperf_log_summary.txt")
	if got := logtest.MustRead(t, prev); got != logtest.ValidSummary {
		t.Errorf("previous run not kept at %s: %q", prev, got)
	}
	if got := logtest.MustRead(t, filepath.Join(scen, "user.conf")); !strings.Contains(got, "= 20") {
		t.Errorf("user.conf not replaced: %q", got)
	}
	if got := logtest.MustRead(t, filepath.Join(scen, ".previous-user.conf-20261121T084648Z")); !strings.Contains(got, "= 10") {
		t.Errorf("old user.conf not kept: %q", got)
	}
	// A third replace in the same second must not clobber the second one kept.
	third := newRun(t, results, "performance", "Offline")
	logtest.MustWrite(t, third.UserConf, "llama3_1-8b.Offline.target_qps = 20\n")
	third.Replace = true
	if _, err := FileRun(third); err != nil {
		t.Fatal(err)
	}
	if !treefs.Exists(filepath.Join(scen, "performance/.previous-run_1-20261121T084648Z.1")) {
		t.Error("second replacement in the same second did not get a distinct name")
	}
}

func TestFileRunRefusesDifferentUserConf(t *testing.T) {
	results := t.TempDir()
	if _, err := FileRun(newRun(t, results, "performance", "Offline")); err != nil {
		t.Fatal(err)
	}
	acc := newRun(t, results, "accuracy", "Offline")
	logtest.MustWrite(t, acc.UserConf, "different\n")
	if _, err := FileRun(acc); err == nil || !strings.Contains(err.Error(), "--replace") {
		t.Fatalf("err = %v, want a user.conf conflict mentioning --replace", err)
	}
	if treefs.Exists(filepath.Join(results, "sys1/llama3.1-8b/Offline/accuracy")) {
		t.Error("refused run was partly filed")
	}
}

func TestFileRunChecksLogs(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(r *RunRecord)
		want   string
	}{
		{"scenario mismatch", func(r *RunRecord) { r.Scenario = "Server" }, "effective_scenario"},
		{"accuracy run filed as performance", func(r *RunRecord) {
			d := logtest.PerfDetail("v6.1", "llama3.1-8b", "Offline", "AccuracyOnly")
			logtest.MustWrite(t, filepath.Join(r.LogDir, "mlperf_log_detail.txt"), d.Render())
		}, "effective_test_mode"},
		{"stray audit.config in performance run", func(r *RunRecord) {
			d := logtest.PerfDetail("v6.1", "llama3.1-8b", "Offline", "PerformanceOnly")
			d.Warnings = []string{logtest.AuditWarning}
			logtest.MustWrite(t, filepath.Join(r.LogDir, "mlperf_log_detail.txt"), d.Render())
		}, "audit.config"},
		{"compliance run without audit.config", func(r *RunRecord) { r.Kind = KindTEST06 }, "no audit.config"},
		{"compliance test the benchmark lacks", func(r *RunRecord) { r.Kind = KindTEST07 }, "no compliance test"},
		{"missing summary", func(r *RunRecord) { os.Remove(filepath.Join(r.LogDir, "mlperf_log_summary.txt")) }, "mlperf_log_summary.txt"},
		{"missing user.conf", func(r *RunRecord) { r.UserConf = "" }, "user.conf"},
		{"bad benchmark", func(r *RunRecord) { r.Benchmark = "resnet" }, "unknown benchmark"},
		{"bad kind", func(r *RunRecord) { r.Kind = "TEST04" }, "unknown run kind"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := newRun(t, t.TempDir(), "performance", "Offline")
			tc.mutate(&r)
			_, err := FileRun(r)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want it to mention %q", err, tc.want)
			}
		})
	}
}

func TestFileRunInteractiveIsLoggedAsServer(t *testing.T) {
	results := t.TempDir()
	r := newRun(t, results, "performance", "Interactive")
	dir, err := FileRun(r)
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(results, "sys1/llama3.1-8b/Interactive/performance/run_1"); dir != want {
		t.Errorf("dir = %s, want %s", dir, want)
	}
}
