package check

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mlperf-go/mlperf-go/submission/internal/logtest"
	"github.com/mlperf-go/mlperf-go/submission/internal/treetest"
)

// addWhisper adds a whisper Offline scenario to a tree BuildTree wrote: its
// performance, accuracy and TEST01 runs as mlperf-go files and packages
// them (a tree of this shape, from real runs against the fake endpoint,
// the official v6.1 checker accepts: see benchmarks/whisper's report).
func addWhisper(t *testing.T, out, round string) string {
	t.Helper()
	dir := filepath.Join(out, "closed", "Org", "results", "sys1", "whisper", "Offline")
	detail := func(mode string) *logtest.DetailFixture {
		d := logtest.PerfDetail(round, logtest.BenchmarkLlama8B, "Offline", mode)
		for _, k := range []string{"qsl_reported_total_count", "effective_samples_per_query", "effective_performance_sample_count", "effective_accuracy_sample_count"} {
			d.Set(k, 1633)
		}
		return d
	}
	logtest.MustWrite(t, filepath.Join(dir, "README.md"), "# how\n")
	logtest.MustWrite(t, filepath.Join(dir, "user.conf"), "# nothing\nwhisper.Offline.target_qps = 1\n")
	logtest.WriteJSON(t, filepath.Join(dir, "measurements.json"), map[string]any{
		"input_data_types": "int16 PCM audio (16 kHz wav files)", "retraining": "No",
		"starting_weights_filename": "openai/whisper-large-v3", "weight_data_types": "bf16", "weight_transformations": "none"})
	logtest.WriteLogDir(t, filepath.Join(dir, "performance", "run_1"), detail("PerformanceOnly"), logtest.ValidSummary, "")
	logtest.WriteLogDir(t, filepath.Join(dir, "accuracy"), detail("AccuracyOnly"), logtest.ValidSummary, "[\n]\n")
	logtest.MustWrite(t, filepath.Join(dir, "accuracy", "accuracy.txt"), "Word Error Rate: 2.1%, accuracy=97.9%\n\n"+logtest.TestHash)
	logtest.WriteLogDir(t, filepath.Join(dir, "TEST01", "performance", "run_1"), detail("PerformanceOnly"), logtest.ValidSummary, "")
	logtest.MustWrite(t, filepath.Join(dir, "TEST01", "accuracy", "mlperf_log_accuracy.json"), "[\n]\n")
	logtest.MustWrite(t, filepath.Join(dir, "TEST01", "verify_accuracy.txt"), "num_perf_log_data_mismatch = 0\nTEST PASS\n\n")
	logtest.MustWrite(t, filepath.Join(dir, "TEST01", "verify_performance.txt"), "Verifying performance.\nReference score = 12.5\nTest score = 12.5\nTEST PASS\n")
	return dir
}

// TestCheckWhisperTree: a tree with a whisper run passes; its accuracy
// bound, its TEST01 and its scenario set are checked.
func TestCheckWhisperTree(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		mutate func(dir string)
		want   string
	}{
		{"valid", func(string) {}, ""},
		{"low accuracy", func(dir string) {
			os.WriteFile(filepath.Join(dir, "accuracy", "accuracy.txt"), []byte("Word Error Rate: 4.1%, accuracy=95.9%\n\n"+logtest.TestHash), 0o644)
		}, "ACCURACY"},
		{"TEST01 missing", func(dir string) { os.RemoveAll(filepath.Join(dir, "TEST01")) }, "TEST01 is missing"},
		{"TEST01 performance failed", func(dir string) {
			os.WriteFile(filepath.Join(dir, "TEST01", "verify_performance.txt"), []byte("TEST FAIL: Test score invalid\n"), 0o644)
		}, "TEST01 performance verification did not pass"},
		{"a Server run", func(dir string) {
			os.MkdirAll(filepath.Join(filepath.Dir(dir), "Server"), 0o755)
		}, "Server"},
	} {
		out := treetest.BuildTree(t, "v6.1")
		tc.mutate(addWhisper(t, out, "v6.1"))
		ps := Check(out, "v6.1")
		text := logtest.ProblemsText(ps)
		if (tc.want == "") != (len(ps) == 0) || !strings.Contains(text, tc.want) {
			t.Errorf("%s: problems:\n%s\nwant one with %q", tc.name, text, tc.want)
		}
	}
}
