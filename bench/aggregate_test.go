package bench

import (
	"context"
	"sync"
	"testing"

	"github.com/mlperf-go/mlperf-go/fake"
)

// TestEndpointBreakdown: a target of two URLs gets each one's figures,
// over the run's window: the requests each served add up to the run's,
// and match what each server saw.
func TestEndpointBreakdown(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	served := map[string]int{}
	count := func(name string) fake.Config {
		return fake.Config{OnRequest: func(fake.RequestInfo) { mu.Lock(); served[name]++; mu.Unlock() }}
	}
	a, b := startFake(t, count("a"), nil), startFake(t, count("b"), nil)
	w, err := Synthetic(SyntheticOptions{Requests: 40, InputLen: 8, OutputLen: 4})
	if err != nil {
		t.Fatal(err)
	}
	res, recs, err := Run(context.Background(), w, Options{Targets: []Target{{Name: "two", URLs: []string{a, b}}}, Stream: true, Loads: []Load{{Concurrency: 8}}})
	if err != nil {
		t.Fatal(err)
	}
	r := res.Runs[0]
	if len(r.Endpoints) != 2 {
		t.Fatalf("endpoints %+v", r.Endpoints)
	}
	total := 0
	for _, e := range r.Endpoints {
		want := served["a"]
		if e.Name == b {
			want = served["b"]
		}
		if e.Completed != want || e.DurationS != r.DurationS || e.TTFT.Count != e.Completed {
			t.Errorf("%s: %+v; the server saw %d", e.Name, e, want)
		}
		total += e.Completed
	}
	if total != 40 || r.MaxConcurrent < 1 || r.MaxConcurrent > 8 {
		t.Errorf("endpoints completed %d of 40; peak %d in flight (cap 8)", total, r.MaxConcurrent)
	}
	for _, rec := range recs[0] {
		if rec.Endpoint != a && rec.Endpoint != b || rec.EndS < rec.SentS {
			t.Fatalf("record %+v", rec)
		}
	}
}

// TestMaxInFlight: the most requests in flight, from their send and end
// times; a request that ends as another is sent does not overlap it, and
// one never sent does not count.
func TestMaxInFlight(t *testing.T) {
	t.Parallel()
	recs := []Record{
		{SentS: 0, EndS: 2, Endpoint: "e"},
		{SentS: 1, EndS: 3, Endpoint: "e"},
		{SentS: 2, EndS: 4, Endpoint: "e"},
		{SentS: 2.5, EndS: 2.6, Endpoint: "e"},
		{Reason: ReasonSkipped},
		{OK: false, EndS: 9}, // failed before it was sent
	}
	if n := maxInFlight(recs); n != 3 {
		t.Errorf("%d in flight at most, want 3", n)
	}
}
