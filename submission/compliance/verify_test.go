package compliance

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mlperf-go/mlperf-go/submission"
	"github.com/mlperf-go/mlperf-go/submission/internal/logtest"
)

// TestVerifyCompliance: the dispatch picks the verification and the
// benchmark's constants from the registry (TEST06 with llama's <|eot_id|>),
// leaves TEST07 unverified without a script, and refuses tests a benchmark
// does not take.
func TestVerifyCompliance(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	// One response ending in two <|eot_id|>: TEST06's EOS check fails only
	// if the dispatch passed the benchmark's EOS id (the reference's default
	// is 2).
	logtest.WriteAccLog(t, dir, []logtest.Sample{{Data: []int32{5, logtest.EOT, logtest.EOT}, Count: logtest.Cnt(3)}})
	ran, pass, err := VerifyCompliance(ctx, dir, "llama3_1-8b", submission.TEST06, VerifyOptions{Scenario: "Offline"})
	if err != nil || !ran || pass {
		t.Errorf("TEST06: ran %v pass %v err %v; want ran, failed", ran, pass, err)
	}
	if got := logtest.MustRead(t, filepath.Join(dir, "verify_accuracy.txt")); !strings.Contains(got, "EOS check pass: False") {
		t.Errorf("verify_accuracy.txt:\n%s", got)
	}

	dir = t.TempDir()
	logtest.WriteAccLog(t, dir, logtest.LenSamples(1100, 1300))
	if ran, pass, err := VerifyCompliance(ctx, dir, "gpt-oss-120b", submission.TEST09, VerifyOptions{Scenario: "Offline"}); err != nil || !ran || !pass {
		t.Errorf("TEST09: ran %v pass %v err %v", ran, pass, err)
	}
	if ran, _, err := VerifyCompliance(ctx, dir, "gpt-oss-120b", submission.TEST07, VerifyOptions{}); err != nil || ran {
		t.Errorf("TEST07 without a script: ran %v err %v; want not run, no error", ran, err)
	}
	if ran, pass, err := VerifyCompliance(ctx, dir, "gpt-oss-120b", submission.TEST07, VerifyOptions{AccuracyScript: `echo "'exact_match': 70.25"`}); err != nil || !ran || !pass {
		t.Errorf("TEST07 with a script: ran %v pass %v err %v", ran, pass, err)
	}
	for _, tc := range []struct{ bench, test, want string }{
		{"qwen3-vl-235b-a22b", submission.TEST06, "takes: none"},
		{"llama3_1-8b", submission.TEST09, "takes: TEST06"},
		{"resnet50", submission.TEST06, "unknown benchmark"},
	} {
		if _, _, err := VerifyCompliance(ctx, dir, tc.bench, tc.test, VerifyOptions{}); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s %s: error %v, want one containing %q", tc.bench, tc.test, err, tc.want)
		}
	}
}
