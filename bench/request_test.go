package bench

import (
	"fmt"
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
// concurrency or one of 0 is refused.
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
	// As run's: 0 is refused, naming the flag and how to ask for no cap.
	for _, c := range []string{"0", "4,0"} {
		if _, err := (Request{Concurrency: c}).loads(); err == nil || !strings.Contains(err.Error(), "--concurrency 0: use a positive number (leave the flag out for no cap") {
			t.Errorf("--concurrency %s: %v, want it refused", c, err)
		}
	}
	if _, err := (Request{Rate: "-1"}).loads(); err == nil || !strings.Contains(err.Error(), "--rate") {
		t.Errorf("--rate -1: %v", err)
	}
}

// TestParseTargets: --target NAME=URL splits at the first '=', so a URL
// whose query holds a key keeps it whole; a URL given without a name
// (its query's '=' is not a NAME=) is named by its host, as --endpoint's
// are; a NAME given again adds its URLs to the target's; a NAME= without
// URL is refused without echoing the key.
func TestParseTargets(t *testing.T) {
	ts, err := parseTargets([]string{"vllm=http://a:8000/v1?api_key=S1", "http://b:9000/v1?api_key=S2", "ab=http://c/v1,http://d/v1", "ab=http://f/v1"}, []string{"http://e:1/v1"})
	if err != nil {
		t.Fatal(err)
	}
	want := []Target{
		{Name: "vllm", URLs: []string{"http://a:8000/v1?api_key=S1"}},
		{Name: "b:9000", URLs: []string{"http://b:9000/v1?api_key=S2"}},
		{Name: "ab", URLs: []string{"http://c/v1", "http://d/v1", "http://f/v1"}},
		{Name: "e:1", URLs: []string{"http://e:1/v1"}},
	}
	if fmt.Sprint(ts) != fmt.Sprint(want) {
		t.Errorf("targets %+v, want %+v", ts, want)
	}
	if _, err := parseTargets([]string{"name="}, nil); err == nil || !strings.Contains(err.Error(), "want NAME=URL") {
		t.Errorf("NAME= alone: %v", err)
	}
}
