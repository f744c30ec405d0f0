package run

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/loadgen"
	"github.com/mlperf-go/mlperf-go/loadgen/loadgentest"
)

// TestGradeCheckQwen3VLInteractive: the settings LoadGen reads for a qwen3-vl
// Interactive run (mlperf.conf's qwen3-vl-235b-a22b entries plus the
// variant's 1.5 s target latency) pass the submission-grade check over the
// 8,000-sample dataset; the whole 48,289-sample catalogue, whose first
// 8,000 rows are not the 8k dataset, and a loosened target latency are
// refused with their fixes.
func TestGradeCheckQwen3VLInteractive(t *testing.T) {
	loadgentest.Require(t)
	b, err := benchmark.Lookup("qwen3-vl-235b-a22b-interactive")
	if err != nil {
		t.Fatal(err)
	}
	settings := func(t *testing.T, extra ...string) loadgen.TestSettings {
		t.Helper()
		conf, err := composeUserConf("", b.LoadGen.Settings, extra, b.LoadGenModel(), "Server")
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(t.TempDir(), "user.conf")
		if err := os.WriteFile(path, conf, 0o644); err != nil {
			t.Fatal(err)
		}
		s, err := loadgen.SettingsFromConfig(b.LoadGenModel(), loadgen.Server, loadgen.PerformanceOnly, path)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	o := Options{Benchmark: b, Scenario: loadgen.Server, Round: "v6.1"}
	s := settings(t)
	if s.ServerTargetLatencyNs != 1500000000 || s.PerformanceSampleCountOverride != 48289 {
		t.Errorf("LoadGen reads target latency %d ns, performance sample count %d; want 1.5 s and mlperf.conf's 48289", s.ServerTargetLatencyNs, s.PerformanceSampleCountOverride)
	}
	if err := checkSubmissionGrade(o, s, 8000, 8000); err != nil {
		t.Errorf("the official Interactive settings are refused: %v", err)
	}
	for _, tc := range []struct {
		name    string
		s       loadgen.TestSettings
		dataset int
		want    string
	}{
		{"whole catalogue", s, 48289, "the dataset holds 48289 samples, more than qwen3-vl-235b-a22b-interactive's official 8000"},
		{"12 s target latency", settings(t, "target_latency=12000"), 8000, "target_latency 12000 ms is above the Interactive limit of 1500 ms"},
	} {
		err := checkSubmissionGrade(o, tc.s, min(tc.dataset, 8000), tc.dataset)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
	// Accuracy runs are held to the Interactive set (8,000), not Server's.
	acc := s
	acc.Mode = loadgen.AccuracyOnly
	if err := checkSubmissionGrade(o, acc, 8000, 8000); err != nil {
		t.Errorf("an accuracy run over the 8k dataset is refused: %v", err)
	}
	// The fix names what made the run short: a dataset too small, or
	// --total-sample-count only where it was passed.
	if err := checkSubmissionGrade(o, acc, 7999, 7999); err == nil || !strings.Contains(err.Error(), "the rules want all 8000; the dataset holds 7999: pass the whole one") {
		t.Errorf("an accuracy run over a 7999-sample dataset: error %v", err)
	}
	capped := o
	capped.TotalSampleCount = 100
	if err := checkSubmissionGrade(capped, acc, 100, 8000); err == nil || !strings.Contains(err.Error(), "the rules want all 8000; drop --total-sample-count") {
		t.Errorf("an accuracy run capped by --total-sample-count 100: error %v", err)
	}
}
