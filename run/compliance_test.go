package run

import (
	"strings"
	"testing"

	"github.com/mlperf-go/mlperf-go/loadgen"
	"github.com/mlperf-go/mlperf-go/loadgen/mllog"
	"github.com/mlperf-go/mlperf-go/record"
	"github.com/mlperf-go/mlperf-go/sut"
)

// TestJudgeCompliance: a compliance run's outcome is its verification's,
// whatever LoadGen's performance verdict; a run with failed samples,
// refused responses or an abort is not verifiable and keeps its outcome.
func TestJudgeCompliance(t *testing.T) {
	t.Parallel()
	invalid := mllog.Summary{Result: "INVALID"}
	pass := &record.Compliance{Test: "TEST06", Pass: true}
	fail := &record.Compliance{Test: "TEST06", Checks: []record.ComplianceCheck{{Name: "EOS check", Result: "False", Detail: "qsl_idx 3"}}}
	for _, tc := range []struct {
		name    string
		stats   sut.Stats
		aborted bool
		v       *record.Compliance
		want    string
		reason  string
	}{
		{"pass over LoadGen's INVALID", sut.Stats{Completed: 100}, false, pass, record.Valid, ""},
		{"fail", sut.Stats{Completed: 100}, false, fail, record.Invalid, "TEST06 FAIL: EOS check pass: False (qsl_idx 3)"},
		{"not verified", sut.Stats{Completed: 100}, false, &record.Compliance{Test: "TEST07", Error: "no tokenizer"}, record.Invalid, "TEST07 NOT VERIFIED: not verified: no tokenizer"},
		{"failed samples stand", sut.Stats{Completed: 100, Failed: 1}, false, pass, record.Invalid, "1 of 100 samples failed"},
		{"refused responses stand", sut.Stats{Completed: 100, CompleterErrors: 2}, false, pass, record.Invalid, "LoadGen refused 2 batches"},
		{"abort stands", sut.Stats{Completed: 100}, true, pass, record.Aborted, "interrupted"},
		{"no verdict", sut.Stats{Completed: 100}, false, nil, record.Invalid, "LoadGen's result is INVALID"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rep := &Report{Summary: invalid, Stats: tc.stats}
			rep.Settings.Mode = loadgen.PerformanceOnly
			rep.decide()
			if tc.aborted {
				rep.Outcome, rep.OutcomeReason = record.Aborted, "interrupted"
			}
			if rep.Verifiable() != (tc.stats.Failed == 0 && tc.stats.CompleterErrors == 0 && !tc.aborted) {
				t.Errorf("verifiable %v", rep.Verifiable())
			}
			rep.JudgeCompliance(tc.v)
			if rep.Outcome != tc.want || (tc.reason == "" && rep.OutcomeReason != "") || !strings.Contains(rep.OutcomeReason, tc.reason) {
				t.Errorf("outcome %s (%q), want %s with %q", rep.Outcome, rep.OutcomeReason, tc.want, tc.reason)
			}
		})
	}
}
