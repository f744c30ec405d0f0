package bench

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestParseSLO: --slo takes NAME=DURATION, vllm's NAME:MS and bare
// milliseconds, and names what it refuses.
func TestParseSLO(t *testing.T) {
	t.Parallel()
	got, err := ParseSLO("ttft=500ms,tpot:50 e2e=10s")
	if want := (SLO{TTFT: 500 * time.Millisecond, TPOT: 50 * time.Millisecond, E2EL: 10 * time.Second}); err != nil || got != want {
		t.Errorf("ParseSLO = %+v, %v; want %+v", got, err, want)
	}
	for in, msg := range map[string]string{"ttft": "want NAME=DURATION", "ttft=-1s": "negative", "itl=5ms": "unknown objective", "ttft=x": `"ttft=x"`} {
		if _, err := ParseSLO(in); err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("ParseSLO(%q) = %v, want an error with %q", in, err, msg)
		}
	}
}

// TestRequestLoads: the sweep is every concurrency with every rate, inf
// is all at once, --frequency replaces --interval, and a fractional
// concurrency is refused.
func TestRequestLoads(t *testing.T) {
	t.Parallel()
	got, err := Request{Concurrency: "1,4", Rate: "2,inf", Burstiness: 1, Interval: time.Second, Frequency: 4}.loads()
	want := []Load{{Concurrency: 1, Rate: 2, Burstiness: 1, Interval: 250 * time.Millisecond}, {Concurrency: 1, Burstiness: 1, Interval: 250 * time.Millisecond},
		{Concurrency: 4, Rate: 2, Burstiness: 1, Interval: 250 * time.Millisecond}, {Concurrency: 4, Burstiness: 1, Interval: 250 * time.Millisecond}}
	if err != nil || !cmp.Equal(got, want) {
		t.Errorf("loads = %v, %v; diff %s", got, err, cmp.Diff(want, got))
	}
	if got, err := (Request{}).loads(); err != nil || len(got) != 1 || got[0] != (Load{}) {
		t.Errorf("no sweep: %v, %v; want one load point, all at once", got, err)
	}
	if _, err := (Request{Concurrency: "1.5"}).loads(); err == nil || !strings.Contains(err.Error(), "--concurrency") {
		t.Errorf("--concurrency 1.5: %v", err)
	}
	if _, err := (Request{Rate: "-1"}).loads(); err == nil || !strings.Contains(err.Error(), "--rate") {
		t.Errorf("--rate -1: %v", err)
	}
}
