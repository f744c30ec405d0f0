package compliance

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mlperf-go/mlperf-go/submission"
	"github.com/mlperf-go/mlperf-go/submission/internal/logtest"
)

// TestVerify: the dispatch picks the verification and the benchmark's
// constants from the registry (TEST06 with llama's <|eot_id|>), scores
// TEST07 in Go unless given a script, and refuses tests a benchmark does
// not take. Write puts the file where the submission checker reads it.
func TestVerify(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	// One response ending in two <|eot_id|>: TEST06's EOS check fails only
	// if the dispatch passed the benchmark's EOS id (the reference's default
	// is 2).
	log := logtest.WriteAccLog(t, t.TempDir(), []logtest.Sample{{Data: []int32{5, logtest.EOT, logtest.EOT}, Count: logtest.Cnt(3)}})
	v, err := Verify(ctx, log, "llama3_1-8b", submission.TEST06, VerifyOptions{Scenario: "Offline"})
	if err != nil || v.Pass() {
		t.Fatalf("TEST06: %+v, %v; want failed", v, err)
	}
	if p := v.Verdict.Problems(); len(p) != 1 || !strings.HasPrefix(p[0], "EOS check pass: False (qsl_idx 0 ends with 2 EOS tokens (128009)") {
		t.Errorf("problems %q", p)
	}
	dir := t.TempDir()
	if err := v.Write(dir); err != nil {
		t.Fatal(err)
	}
	if got := logtest.MustRead(t, filepath.Join(dir, "verify_accuracy.txt")); got != string(v.Text) || !strings.Contains(got, "EOS check pass: False") {
		t.Errorf("verify_accuracy.txt:\n%s", got)
	}

	log = logtest.WriteAccLog(t, t.TempDir(), logtest.LenSamples(1100, 1300))
	if v, err := Verify(ctx, log, "gpt-oss-120b", submission.TEST09, VerifyOptions{Scenario: "Offline"}); err != nil || !v.Pass() || v.File != "verify_output_len.txt" {
		t.Errorf("TEST09: %+v, %v", v, err)
	}
	if _, err := Verify(ctx, log, "gpt-oss-120b", submission.TEST07, VerifyOptions{}); err == nil || !strings.Contains(err.Error(), "--accuracy-script") {
		t.Errorf("TEST07 without a dataset or script: %v, want an error naming the choices", err)
	}
	if v, err := Verify(ctx, log, "gpt-oss-120b", submission.TEST07, VerifyOptions{AccuracyScript: `echo "'exact_match': 70.25"`}); err != nil || !v.Pass() {
		t.Errorf("TEST07 with a script: %+v, %v", v, err)
	}
	d := &scoredDataset{report: "'exact_match': 61.000\n"}
	if v, err := Verify(ctx, log, "gpt-oss-120b-interactive", submission.TEST07, VerifyOptions{Dataset: d}); err != nil || !v.Pass() || d.gotLog != log {
		t.Errorf("TEST07 scored in Go (Interactive variant): %+v, %v", v, err)
	}
	for _, tc := range []struct{ bench, test, want string }{
		{"qwen3-vl-235b-a22b", submission.TEST06, "takes: none"},
		{"llama3_1-8b", submission.TEST09, "takes: TEST06"},
		{"resnet50", submission.TEST06, "unknown benchmark"},
	} {
		if _, err := Verify(ctx, log, tc.bench, tc.test, VerifyOptions{}); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s %s: error %v, want one containing %q", tc.bench, tc.test, err, tc.want)
		}
	}
}
