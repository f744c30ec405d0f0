package results

import (
	"slices"
	"testing"

	"github.com/mlperf-go/mlperf-go/loadgen/mllog"
	"github.com/mlperf-go/mlperf-go/record"
)

// TestBuildCompliance: a compliance run's status is its verification's
// verdict; LoadGen's INVALID (a short Server audit run misses early
// stopping) moves to loadgen_reasons as information; failed samples and
// an abort still decide first.
func TestBuildCompliance(t *testing.T) {
	t.Parallel()
	short := detailLines(
		"effective_scenario", "Server",
		"effective_test_mode", "PerformanceOnly",
		"result_validity", "INVALID",
		"result_min_duration_met", true,
		"result_min_queries_met", true,
		"early_stopping_met", false,
		"early_stopping_tpot_result", " * Run unsuccessful.\n * Processed 100 queries.",
		"result_completed_samples_per_sec", 54.8,
	)
	pass := &record.Compliance{Test: "TEST06", Pass: true, File: "verify_accuracy.txt", Checks: []record.ComplianceCheck{
		{Name: "First token check", Result: "True", Pass: true}, {Name: "EOS check", Result: "True", Pass: true}, {Name: "Sample length check", Result: "True", Pass: true}}}
	fail := &record.Compliance{Test: "TEST06", File: "verify_accuracy.txt", Checks: []record.ComplianceCheck{
		{Name: "First token check", Result: "True", Pass: true}, {Name: "EOS check", Result: "False", Detail: "qsl_idx 3 ends with 2 EOS tokens (128009)"},
		{Name: "Sample length check", Result: "True", Pass: true}}}
	unverified := &record.Compliance{Test: "TEST07", Error: "no tokenizer", Warnings: []string{"the accuracy script exited 1"}}
	loadgenReasons := []string{"early stopping criterion not met", "early_stopping_tpot_result: * Run unsuccessful. * Processed 100 queries."}
	for _, tc := range []struct {
		name           string
		info           record.Run
		status         string
		reasons        []string
		loadgenReasons []string
		warnings       []string
	}{
		{"pass", record.Run{Kind: "TEST06", Outcome: record.Valid, Compliance: pass}, StatusPass, nil, loadgenReasons, nil},
		{"fail", record.Run{Kind: "TEST06", Outcome: record.Invalid, Compliance: fail}, StatusFail,
			[]string{"TEST06: EOS check pass: False (qsl_idx 3 ends with 2 EOS tokens (128009))"}, loadgenReasons, nil},
		{"unverified", record.Run{Kind: "TEST07", Outcome: record.Invalid, Compliance: unverified}, StatusUnverified,
			[]string{"TEST07: not verified: no tokenizer"}, loadgenReasons, []string{"the accuracy script exited 1"}},
		{"aborted", record.Run{Kind: "TEST06", Outcome: record.Aborted, OutcomeReason: "interrupted by SIGTERM", Compliance: pass}, StatusAborted,
			nil, nil, nil},
		{"samples failed", record.Run{Kind: "TEST06", Compliance: pass, Samples: &record.SampleCounts{Issued: 100, Completed: 100, Failed: 1,
			FailuresByReason: map[string]int64{"timeout": 1}}}, StatusFailed, nil, nil, nil},
		{"record without a verdict", record.Run{Kind: "TEST06"}, StatusInvalid, loadgenReasons, nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := writeRun(t, map[string]string{mllog.DetailFile: short})
			if err := record.Write(dir, tc.info); err != nil {
				t.Fatal(err)
			}
			r, err := Build(dir)
			if err != nil {
				t.Fatal(err)
			}
			o := r.Outcome
			if o.Status != tc.status || o.LoadGenValidity != "INVALID" || !slices.Equal(o.LoadGenReasons, tc.loadgenReasons) {
				t.Errorf("status %q, loadgen %q %q; want %q, INVALID %q", o.Status, o.LoadGenValidity, o.LoadGenReasons, tc.status, tc.loadgenReasons)
			}
			if tc.reasons != nil && !slices.Equal(o.Reasons, tc.reasons) {
				t.Errorf("reasons %q, want %q", o.Reasons, tc.reasons)
			}
			if !slices.Equal(o.Warnings, tc.warnings) {
				t.Errorf("warnings %q, want %q", o.Warnings, tc.warnings)
			}
			if r.Compliance != tc.info.Compliance && (r.Compliance == nil || r.Compliance.Test != tc.info.Compliance.Test) {
				t.Errorf("compliance %+v, want the record's", r.Compliance)
			}
		})
	}
}
