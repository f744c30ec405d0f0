package filing

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mlperf-go/mlperf-go/record"
	"github.com/mlperf-go/mlperf-go/submission/internal/logtest"
	"github.com/mlperf-go/mlperf-go/submission/internal/treefs"
)

// TestFileRunComplianceOwnUserConf files a compliance run whose user.conf
// differs from the scenario's (gpt-oss-120b's TEST07 over the 990-sample
// set needs performance_sample_count_override = 990): it is filed without
// --replace, its user.conf beside its logs, and the scenario keeps the
// user.conf of its performance run.
func TestFileRunComplianceOwnUserConf(t *testing.T) {
	results := t.TempDir()
	perf := newRun(t, results, "performance", "Offline")
	if _, err := FileRun(perf); err != nil {
		t.Fatal(err)
	}
	test := newRun(t, results, "TEST06", "Offline")
	const own = "llama3_1-8b.Offline.target_qps = 10\n*.*.performance_sample_count_override = 990\n"
	logtest.MustWrite(t, test.UserConf, own)
	if _, err := FileRun(test); err != nil {
		t.Fatalf("filing a compliance run with its own user.conf: %v", err)
	}
	scen := filepath.Join(results, "sys1/llama3.1-8b/Offline")
	got, err := os.ReadFile(filepath.Join(scen, "user.conf"))
	if err != nil || string(got) != "llama3_1-8b.Offline.target_qps = 10\n" {
		t.Errorf("scenario user.conf = %q (%v), want the performance run's", got, err)
	}
	got, err = os.ReadFile(filepath.Join(scen, "TEST06/performance/run_1/user.conf"))
	if err != nil || string(got) != own {
		t.Errorf("compliance run's user.conf = %q (%v), want its own", got, err)
	}
	if treefs.Exists(filepath.Join(scen, ".previous-user.conf-")) {
		t.Error("the scenario's user.conf was moved aside")
	}
}

// TestFileRunComplianceVerification: a compliance run's verification file,
// written beside its logs, is filed into its test directory where the
// checker reads it; a run whose record says its verification failed is
// refused, naming what failed.
func TestFileRunComplianceVerification(t *testing.T) {
	results := t.TempDir()
	run := newRun(t, results, "TEST06", "Offline")
	const verify = "First token check pass: Skipped\nEOS check pass: True\nSample length check pass: True\nTEST06 verification complete\n"
	logtest.MustWrite(t, filepath.Join(run.LogDir, "verify_accuracy.txt"), verify)
	if err := record.Write(run.LogDir, record.Run{Kind: "TEST06", Outcome: record.Valid, Compliance: &record.Compliance{Test: "TEST06", Pass: true}}); err != nil {
		t.Fatal(err)
	}
	dir, err := FileRun(run)
	if err != nil {
		t.Fatal(err)
	}
	if got := logtest.MustRead(t, filepath.Join(dir, "verify_accuracy.txt")); got != verify {
		t.Errorf("filed verify_accuracy.txt = %q", got)
	}

	failed := newRun(t, t.TempDir(), "TEST06", "Server")
	if err := record.Write(failed.LogDir, record.Run{Kind: "TEST06", Outcome: record.Invalid, Compliance: &record.Compliance{Test: "TEST06",
		Checks: []record.ComplianceCheck{{Name: "EOS check", Result: "False", Detail: "qsl_idx 3 ends with 2 EOS tokens (128009)"}}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := FileRun(failed); err == nil || !strings.Contains(err.Error(), "EOS check pass: False (qsl_idx 3") {
		t.Errorf("filing a failed TEST06: %v, want a refusal naming the EOS check", err)
	}
}
