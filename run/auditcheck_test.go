package run

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mlperf-go/mlperf-go/fake"
	"github.com/mlperf-go/mlperf-go/loadgen"
	"github.com/mlperf-go/mlperf-go/loadgen/loadgentest"
)

// TestTEST07OnTheComplianceSet runs gpt-oss-120b's official TEST07
// audit.config over a 990-sample library, the size of the official
// compliance set. mlperf.conf's performance_sample_count_override (6396)
// with the audit's performance_issue_unique crashes LoadGen, so the run
// must be refused before LoadGen starts, naming the fix; with the override
// set to the library size the run goes through real LoadGen and issues
// every sample exactly once.
func TestTEST07OnTheComplianceSet(t *testing.T) {
	loadgentest.Require(t)
	const n = 990
	b := mustBenchmark(t, "gpt-oss-120b")
	d := tokenFixture(t, "gpt-oss-120b", n)
	url, _ := startFake(t, fake.Config{Model: b.Serving.Model, OutputTokens: 4})
	audit := filepath.Join(t.TempDir(), "audit.config")
	if err := os.WriteFile(audit, b.Submission.Compliance["TEST07"].AuditConfig, 0o644); err != nil {
		t.Fatal(err)
	}
	o := Options{
		Benchmark:   b,
		Scenario:    loadgen.Offline,
		Mode:        loadgen.PerformanceOnly,
		Data:        d,
		Endpoints:   []string{url},
		OutputDir:   t.TempDir(),
		AuditConfig: audit,
	}
	_, err := Run(context.Background(), o)
	if err == nil || !strings.Contains(err.Error(), "performance_sample_count_override=990") {
		t.Fatalf("TEST07 with override 6396 over 990 samples: error %v, want a refusal naming performance_sample_count_override=990", err)
	}
	if _, statErr := os.Stat(filepath.Join(o.OutputDir, "mlperf_log_detail.txt")); !os.IsNotExist(statErr) {
		t.Errorf("LoadGen started before the refusal (stat: %v)", statErr)
	}

	o.OutputDir = t.TempDir()
	o.Settings = []string{"performance_sample_count_override=990"}
	rep, err := Run(context.Background(), o)
	if err != nil {
		t.Fatalf("TEST07 with the override at the library size: %v", err)
	}
	if rep.Stats.Issued != n || rep.Stats.Completed != n || rep.Stats.Failed != 0 {
		t.Errorf("issued %d, completed %d, failed %d; want all %d once", rep.Stats.Issued, rep.Stats.Completed, rep.Stats.Failed, n)
	}
}

func TestAuditValuesMostSpecificWins(t *testing.T) {
	conf := []byte("# c\n*.*.performance_issue_unique = 1\ngpt-oss-120b.*.performance_sample_count_override = 5 # x\n" +
		"*.Offline.performance_sample_count_override = 7\nother.*.performance_issue_unique = 0\n*.*.test07_accuracy_threshold = 60.698\n")
	v := auditValues(conf, "gpt-oss-120b", "Offline")
	if v["performance_issue_unique"] != "1" || v["performance_sample_count_override"] != "5" || v["test07_accuracy_threshold"] != "60.698" {
		t.Errorf("auditValues = %v", v)
	}
}
