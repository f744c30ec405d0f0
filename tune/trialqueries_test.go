package tune

import (
	"context"
	"testing"
	"time"

	"github.com/mlperf-go/mlperf-go/benchmark"
	_ "github.com/mlperf-go/mlperf-go/benchmarks/all"
	"github.com/mlperf-go/mlperf-go/fake"
	"github.com/mlperf-go/mlperf-go/loadgen"
	"github.com/mlperf-go/mlperf-go/loadgen/loadgentest"
	"github.com/mlperf-go/mlperf-go/submission"
)

// TestTrialLength: a trial lasts its queries at its QPS: QPS x
// TrialDuration and a margin for the schedule, or TrialMinQueries.
func TestTrialLength(t *testing.T) {
	s := QPSSearch{TrialDuration: time.Minute, TrialMinQueries: 1000}
	for _, tc := range []struct {
		q       float64
		queries int
		length  time.Duration
	}{
		{80, 4800 + 278, 63475 * time.Millisecond},                       // 4800 + 4 x sqrt(4800)
		{10, 1000, 100 * time.Second},                                    // --trial-min-queries decides
		{1000, 60000 + 980, time.Duration(60.98 * float64(time.Second))}, // 4 x sqrt(60000) = 979.8
	} {
		if got := s.trialQueries(tc.q); got != tc.queries {
			t.Errorf("trialQueries(%g) = %d, want %d", tc.q, got, tc.queries)
		}
		if got := s.TrialLength(tc.q); got != tc.length.Round(100*time.Millisecond) {
			t.Errorf("TrialLength(%g) = %v, want %v", tc.q, got, tc.length.Round(100*time.Millisecond))
		}
	}
}

// TestServerTrialIssuesItsQueries: llama3_1-8b's mlperf.conf sets
// sample_concatenate_permutation, which pads a Server run to whole passes
// over the loaded set; a trial still issues the queries it planned (here
// 140 at 100 QPS for 1 s), not all 600 samples of the dataset.
func TestServerTrialIssuesItsQueries(t *testing.T) {
	loadgentest.Require(t)
	b, err := benchmark.Lookup("llama3_1-8b")
	if err != nil {
		t.Fatal(err)
	}
	files, err := b.Data.Synth(t.TempDir(), 600, 3)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := fake.New(fake.Config{Model: b.Serving.Model, OutputTokens: 2})
	if err != nil {
		t.Fatal(err)
	}
	url, err := srv.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	ts := &Trials{Dir: t.TempDir()}
	ts.Base.Benchmark, ts.Base.Scenario, ts.Base.Dataset, ts.Base.Endpoints = b, loadgen.Server, files, []string{url}
	ts.Base.Round = submission.DefaultRound
	s := QPSSearch{Start: 100, TrialDuration: time.Second, TrialMinQueries: 50, MaxTrials: 1}
	if _, err := SearchQPS(context.Background(), ts, s); err != nil && ts.summary.Trials == nil {
		t.Fatal(err)
	}
	if len(ts.summary.Trials) != 1 {
		t.Fatalf("%d trials, want 1", len(ts.summary.Trials))
	}
	if got, want := ts.summary.Trials[0].Issued, int64(s.trialQueries(100)); got != want || want != 140 {
		t.Errorf("the trial issued %d queries, want the %d it planned (140)", got, want)
	}
}
