package filing

import (
	"os"
	"path/filepath"
	"testing"

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
