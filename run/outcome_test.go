package run

import (
	"strings"
	"testing"

	"github.com/mlperf-go/mlperf-go/loadgen"
	"github.com/mlperf-go/mlperf-go/loadgen/mllog"
	"github.com/mlperf-go/mlperf-go/record"
	"github.com/mlperf-go/mlperf-go/sut"
)

// TestDecide: a run is VALID only when LoadGen says so, no sample failed
// and LoadGen took every response; each other case names its reason.
func TestDecide(t *testing.T) {
	valid := mllog.Summary{Valid: true, Result: "VALID"}
	for _, tc := range []struct {
		name       string
		summary    mllog.Summary
		stats      sut.Stats
		mode       loadgen.Mode
		want       string
		wantReason string
	}{
		{"valid", valid, sut.Stats{Completed: 10}, loadgen.PerformanceOnly, record.Valid, ""},
		{"failed samples", valid, sut.Stats{Completed: 10, Failed: 2}, loadgen.PerformanceOnly, record.Invalid, "2 of 10 samples failed"},
		{"refused responses", valid, sut.Stats{Completed: 10, CompleterErrors: 1}, loadgen.PerformanceOnly, record.Invalid, "LoadGen refused 1 batches"},
		{"LoadGen invalid", mllog.Summary{Result: "INVALID"}, sut.Stats{Completed: 10}, loadgen.PerformanceOnly, record.Invalid, "LoadGen's result is INVALID"},
		{"accuracy run", mllog.Summary{}, sut.Stats{Completed: 10}, loadgen.AccuracyOnly, record.Valid, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep := &Report{Summary: tc.summary, Stats: tc.stats}
			rep.Settings.Mode = tc.mode
			rep.decide()
			if rep.Outcome != tc.want || !strings.Contains(rep.OutcomeReason, tc.wantReason) {
				t.Errorf("outcome %s (%q), want %s with %q", rep.Outcome, rep.OutcomeReason, tc.want, tc.wantReason)
			}
		})
	}
}
