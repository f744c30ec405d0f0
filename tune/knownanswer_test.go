package tune

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/fake"
	"github.com/mlperf-go/mlperf-go/loadgen"
	"github.com/mlperf-go/mlperf-go/record"
)

// BenchmarkSweepKnownAnswer: the fake with S slots serves at most S
// requests at once, each for L, so Offline throughput at concurrency c is
// min(c, S)/L: it grows linearly to c = S and is flat after. At c = S each
// slot also idles for the harness's turnaround δ between requests, giving
// S/(L+δ); beyond S the fake's queue hides δ. So L = 400 ms and Plateau
// 0.7: the sweep recommends exactly S while δ < 0.43L. It reports the
// worst level's throughput as a fraction of min(c, S)/L ("of_model") and
// fails when the sweep does not recommend S.
//
// A benchmark (make bench), not a test: what it measures is this machine
// (δ is a few ms alone, about 115 ms at load 19 under -race).
// TestSweepKnownAnswer checks the sweep's arithmetic against a model of
// the same system, which no machine's speed changes.
func BenchmarkSweepKnownAnswer(b *testing.B) {
	for range b.N {
		b.ReportMetric(sweepKnownAnswer(b), "of_model")
	}
}

// sweepKnownAnswer runs BenchmarkSweepKnownAnswer once.
func sweepKnownAnswer(t testing.TB) float64 {
	const (
		slots = 4
		ttft  = 399 * time.Millisecond
		tpot  = time.Millisecond
	)
	capacity := slots / (ttft + tpot).Seconds() // 10/s
	o, progress := fakeTune(t, "llama3_1-8b", loadgen.Offline, 100, fake.Config{OutputTokens: 2, TTFT: ttft, TPOT: tpot, MaxConcurrency: slots})
	o.Sweep = SweepSearch{Levels: []int{1, 2, 4, 8}, TrialDuration: time.Second, Plateau: 0.7}
	start := time.Now()
	res, err := Run(context.Background(), o)
	var out bytes.Buffer
	res.Print(&out, progress)
	t.Logf("sweep took %s:\n%s\n%s", time.Since(start).Round(time.Second), progress, &out)
	if err != nil {
		t.Fatalf("tune Offline: %v", err)
	}
	if !strings.Contains(out.String(), "recommended: --concurrency 4 ") {
		t.Errorf("sweep does not recommend --concurrency %d:\n%s", slots, &out)
	}
	sum, err := ReadSummary(o.Dir)
	if err != nil {
		t.Fatal(err)
	}
	sweep := sum.Concurrency
	if sweep == nil || len(sweep.Points) != 4 || sweep.Recommended != slots {
		t.Fatalf("tune.json: %+v; want 4 points and concurrency %d recommended", sweep, slots)
	}
	worst := 1.0
	for _, p := range sweep.Points {
		want := float64(min(p.Concurrency, slots)) / float64(slots) * capacity
		worst = min(worst, p.SamplesPerSecond/want)
	}
	if len(regexp.MustCompile(`(?m)^trial \d: concurrency +\d+ +[0-9.]+ samples/s +VALID`).FindAllString(progress.String(), -1)) != 4 {
		t.Errorf("want one progress line per concurrency:\n%s", progress)
	}
	return worst
}

// TestInteractiveUserConfLine: Interactive writes the user.conf line
// under the benchmark's -interactive name (what LoadGen reads for it), and
// a search that runs out of trials says so and still answers. The trials
// are a model's (capacity 40/s: VALID at 10 QPS, INVALID at 160, whose
// queue grows by 3 s in its second), whatever this machine's speed.
func TestInteractiveUserConfLine(t *testing.T) {
	t.Parallel()
	const name = "llama3_1-8b"
	m := &capacity{slots: 8, service: 200 * time.Millisecond, ttft: 100 * time.Millisecond}
	o, progress := modelTune(t, name+"-interactive", loadgen.Server, m)
	o.Base.Settings = []string{"ttft_latency=2000"}
	o.QPS = QPSSearch{Start: 10, Ceiling: 160, MaxTrials: 2, TrialDuration: time.Second, TrialMinQueries: 100}
	res, err := Run(context.Background(), o)
	var out bytes.Buffer
	res.Print(&out, progress)
	if err != nil {
		t.Fatalf("tune Interactive: %v", err)
	}
	if !regexp.MustCompile(`(?m)^llama3_1-8b-interactive\.Server\.target_qps = 10$`).MatchString(out.String()) {
		t.Errorf("Interactive: want the line llama3_1-8b-interactive.Server.target_qps = 10:\n%s\n%s", progress, &out)
	}
	if !strings.Contains(progress.String(), "INVALID at 160") || !strings.Contains(progress.String(), "--max-trials ran out") {
		t.Errorf("Interactive: want the search to say it stopped at --max-trials with 160 INVALID:\n%s", progress)
	}
	if sum, err := ReadSummary(o.Dir); err != nil || sum.Benchmark != name+"-interactive" || sum.Scenario != "Interactive" {
		t.Errorf("tune.json: %+v, %v; want the Interactive benchmark and scenario", sum, err)
	}
}

// TestLatencyFloor: an endpoint whose first token takes 400 ms at any load
// never meets a 300 ms limit: the second trial, at half the QPS, shows the
// same TTFT, and the search stops there instead of halving on. Without
// --start-qps and without an Offline run to start from, the error points
// at --start-qps, not at run's --target-qps. The trials are a model's.
func TestLatencyFloor(t *testing.T) {
	t.Parallel()
	m := &capacity{slots: 64, service: 10 * time.Millisecond, ttft: 400 * time.Millisecond}
	o, progress := modelTune(t, "llama3_1-8b", loadgen.Server, m)
	o.Base.Settings = []string{"ttft_latency=300"}
	o.QPS = QPSSearch{Start: 10, MaxTrials: 4, TrialDuration: time.Second, TrialMinQueries: 20}
	_, err := Run(context.Background(), o)
	if !errors.Is(err, ErrLatencyFloor) || !strings.Contains(err.Error(), "halving the load from 10 to 5 QPS left the p99 TTFT at 400 ms, then 400 ms") {
		t.Fatalf("a TTFT over the limit at any load: want the latency floor after two trials, got %v\n%s", err, progress)
	}
	if m.trials != 2 || strings.Contains(err.Error(), "lower --start-qps") {
		t.Errorf("%d trials, or advice of a lower QPS: %v\n%s", m.trials, err, progress)
	}

	o.QPS.Start, o.StartFraction = 0, 0.8
	o.Dir = filepath.Join(t.TempDir(), "tune")
	o.OfflineRuns = func(b benchmark.Benchmark) []string { return record.OfflinePerformanceRuns(t.TempDir(), b.Name) }
	if _, err := Run(context.Background(), o); err == nil || !strings.Contains(err.Error(), "--start-qps") || strings.Contains(err.Error(), "--target-qps ") {
		t.Errorf("no Offline run and no start QPS: want an error naming --start-qps and no run flag, got %v", err)
	}
}

// TestNoValidTrial: against the fake, through LoadGen, 100 queries can
// never satisfy early stopping at the 99th percentile (459 at least):
// every trial is INVALID, whatever the machine's speed (slower only adds
// reasons), and the error says so and what to change. The limits are
// loose, so that the latency of a loaded machine does not decide first.
func TestNoValidTrial(t *testing.T) {
	o, progress := fakeTune(t, "llama3_1-8b", loadgen.Server, 100, fake.Config{OutputTokens: 2, TTFT: 20 * time.Millisecond, MaxConcurrency: 64})
	o.Base.Settings = []string{"ttft_latency=10000", "tpot_latency=10000"}
	o.QPS = QPSSearch{Start: 100, MaxTrials: 2, TrialDuration: 100 * time.Millisecond, TrialMinQueries: 100}
	_, err := Run(context.Background(), o)
	t.Logf("%s", progress)
	if !errors.Is(err, ErrNoValidTrial) || !strings.Contains(err.Error(), "early stopping") || !strings.Contains(err.Error(), "--trial-min-queries") {
		t.Fatalf("all trials INVALID: want an error naming early stopping and --trial-min-queries, got %v", err)
	}
	if !strings.Contains(err.Error(), "lowest QPS tried, 50,") {
		t.Errorf("error does not name the lowest QPS tried (50): %v", err)
	}
}
