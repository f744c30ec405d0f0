package tune

import (
	"bytes"
	"context"
	"errors"
	"math"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/fake"
	"github.com/mlperf-go/mlperf-go/fake/faketest"
	"github.com/mlperf-go/mlperf-go/loadgen"
	"github.com/mlperf-go/mlperf-go/loadgen/loadgentest"
	"github.com/mlperf-go/mlperf-go/submission"
	"github.com/mlperf-go/mlperf-go/sut"
)

// fakeTune returns the Options of a tune of name (llama3_1-8b, or its
// -interactive variant) in scenario against a fake endpoint serving cfg,
// on a synthetic dataset of n samples opened once, into a folder of the test's, and
// the buffer its progress goes to.
func fakeTune(t testing.TB, name string, scenario loadgen.Scenario, n int, cfg fake.Config) (Options, *bytes.Buffer) {
	t.Helper()
	loadgentest.Require(t)
	b, err := benchmark.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	files, err := b.Data.Synth(t.TempDir(), n, 3)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Model = b.Serving.Model
	_, url := faketest.Start(t, cfg)
	// The search writes its progress from the goroutine that calls Run.
	var progress bytes.Buffer
	o := Options{Dir: filepath.Join(t.TempDir(), "tune"), Progress: &progress}
	o.Base.Benchmark, o.Base.Scenario, o.Base.Dataset, o.Base.Endpoints = b, scenario, files, []string{url}
	o.Base.Round, o.Base.Concurrency = submission.DefaultRound, sut.DefaultConcurrency
	// The dataset is read once for every trial, as the tune command does.
	data, err := b.OpenDataset(files, nil)
	if err != nil {
		t.Fatal(err)
	}
	o.Base.Data = data
	return o, &progress
}

var (
	nextQPSLine  = regexp.MustCompile(`(?m)^  next: trial (\d+) at ([0-9.]+) QPS \((.*)\), about ([0-9a-zµ.]+) \((\d+) queries\)$`)
	nextConcLine = regexp.MustCompile(`(?m)^  next: trial (\d+) at concurrency (\d+): (\d+) samples`)
)

// TestServerTrialsSayWhatFollows: against the fake, the line after a
// trial names the QPS and the queries of the trial that follows, and why;
// the plan before the first says what follows an INVALID first trial, and
// that is what follows it (every trial here is INVALID, as fewer than 459
// queries cannot pass early stopping, whatever the machine's load); the
// length announced is the trial's queries at its QPS (TrialLength), not a
// time this machine is asked to keep.
func TestServerTrialsSayWhatFollows(t *testing.T) {
	o, progress := fakeTune(t, "llama3_1-8b", loadgen.Server, 200, fake.Config{OutputTokens: 11,
		TTFT: 100 * time.Millisecond, TPOT: 10 * time.Millisecond, MaxConcurrency: 4, StreamInterval: 10})
	o.QPS = QPSSearch{Start: 40, TrialDuration: 2 * time.Second, TrialMinQueries: 60, MaxTrials: 3}
	res, err := Run(context.Background(), o)
	out := progress.String()
	t.Logf("%s", out)
	sum, rerr := ReadSummary(o.Dir)
	if rerr != nil {
		t.Fatalf("tune.json: %v (search: %v)", rerr, err)
	}
	if len(sum.Trials) != 3 {
		t.Fatalf("%d trials (search: %v, result %+v), want --max-trials 3", len(sum.Trials), err, res.QPS)
	}
	if !strings.Contains(out, "tune: Server search: the first trial at 40 QPS; if it is VALID the next at 80, if INVALID at 20;") {
		t.Errorf("the plan does not say what follows the first trial")
	}
	if i, j := strings.Index(out, "tune: each trial issues"), strings.Index(out, "trial 1/3:"); i < 0 || j < i {
		t.Errorf("the trials' length is not said before the first trial")
	}
	if sum.Trials[1].TargetQPS != 20 {
		t.Errorf("after an INVALID first trial at 40 QPS the search tried %g, not the 20 it announced", sum.Trials[1].TargetQPS)
	}
	nexts := nextQPSLine.FindAllStringSubmatch(out, -1)
	if len(nexts) != 2 {
		t.Fatalf("%d next: lines, want one after each of the first two trials", len(nexts))
	}
	s := o.QPS
	for _, m := range nexts {
		n, _ := strconv.Atoi(m[1])
		tr := sum.Trials[n-1]
		if FormatQPS(tr.TargetQPS) != m[2] || strconv.FormatInt(tr.Issued, 10) != m[5] {
			t.Errorf("announced trial %d at %s QPS with %s queries; it ran at %g QPS and issued %d", n, m[2], m[5], tr.TargetQPS, tr.Issued)
		}
		if want := "half the lowest INVALID QPS"; !sum.Trials[n-2].Valid() && !strings.Contains(m[3], want) {
			t.Errorf("trial %d followed an INVALID one; the reason given is %q, want %q", n, m[3], want)
		}
		if want := s.TrialLength(tr.TargetQPS).String(); m[4] != want {
			t.Errorf("trial %d at %g QPS announced to last %s, want its queries at its QPS, %s", n, tr.TargetQPS, m[4], want)
		}
	}
	if !errors.Is(err, ErrNoValidTrial) {
		t.Errorf("search error %v, want no trial VALID", err)
	}
	if !strings.Contains(out, "  --max-trials 3 ran out (next would have been 5 QPS") {
		t.Errorf("the last trial's line does not say --max-trials ran out")
	}
}

// TestSweepTrialsLastTheirPlan: against the fake (S = 4 slots of L = 200
// ms, so 20 samples/s from concurrency 4 on), each Offline trial issues
// the samples announced before it, and a trial on the plateau issues what
// the throughput measured serves in --trial-duration: planned on that
// throughput, not on its doubling, which made it last twice as long.
func TestSweepTrialsLastTheirPlan(t *testing.T) {
	o, progress := fakeTune(t, "llama3_1-8b", loadgen.Offline, 200, fake.Config{OutputTokens: 2,
		TTFT: 199 * time.Millisecond, TPOT: time.Millisecond, MaxConcurrency: 4})
	o.Sweep = SweepSearch{Levels: []int{1, 2, 4, 8}, TrialDuration: 4 * time.Second}
	res, err := Run(context.Background(), o)
	out := progress.String()
	t.Logf("%s", out)
	if err != nil {
		t.Fatal(err)
	}
	first := "tune: Offline sweep: concurrency 1, 2, 4, 8; at most 4 trials"
	if i, j := strings.Index(out, first), strings.Index(out, "trial 1: concurrency"); i < 0 || j < i {
		t.Errorf("the sweep does not say %q before its first trial", first)
	}
	if !strings.Contains(out, "the first: trial 1 at concurrency 1: 8 samples (8 per request in flight)") {
		t.Errorf("the plan does not say what the first trial issues")
	}
	sum, err := ReadSummary(o.Dir)
	if err != nil {
		t.Fatal(err)
	}
	nexts := nextConcLine.FindAllStringSubmatch(out, -1)
	if len(nexts) != 3 || len(sum.Trials) != 4 {
		t.Fatalf("%d next: lines and %d trials, want 3 and 4", len(nexts), len(sum.Trials))
	}
	for _, m := range nexts {
		n, _ := strconv.Atoi(m[1])
		tr := sum.Trials[n-1]
		if strconv.Itoa(tr.Concurrency) != m[2] || strconv.FormatInt(tr.Issued, 10) != m[3] {
			t.Errorf("announced trial %d at concurrency %s with %s samples; it ran at %d and issued %d", n, m[2], m[3], tr.Concurrency, tr.Issued)
		}
	}
	// Concurrency 8 runs on the plateau of concurrency 4's throughput:
	// 4 s of samples at that throughput (planned on twice it, 8 s).
	rate := sum.Trials[2].SamplesPerSecond
	if last, want := sum.Trials[3], max(8*8, int64(math.Ceil(rate*o.Sweep.TrialDuration.Seconds()))); last.Issued != want {
		t.Errorf("the trial at concurrency 8, on the plateau of %.4g samples/s, issued %d samples, want %d: --trial-duration %s of them", rate, last.Issued, want, o.Sweep.TrialDuration)
	}
	if res.Sweep == nil || len(res.Sweep.Points) != 4 || res.Sweep.Best <= 0 {
		t.Errorf("result %+v, want 4 points", res.Sweep)
	}
}
