package tune

import (
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/loadgen"
	"github.com/mlperf-go/mlperf-go/loadgen/mllog"
	"github.com/mlperf-go/mlperf-go/protocol/openaicompletions"
	"github.com/mlperf-go/mlperf-go/record"
	"github.com/mlperf-go/mlperf-go/run"
)

// TestNextQPS walks the search's choices: halve without a VALID trial, try
// the ceiling then grow without an INVALID one, bisect between them, and
// stop within the tolerance or when rounding cannot split the bracket.
func TestNextQPS(t *testing.T) {
	s := QPSSearch{Tolerance: 0.05, Ceiling: 100}
	for _, tc := range []struct {
		name         string
		best, inval  float64
		ceilingTried bool
		search       QPSSearch
		next         float64
		done         bool
	}{
		{"no VALID yet: halve", 0, 80, false, s, 40, false},
		{"VALID below the ceiling: try it", 80, 0, false, s, 100, false},
		{"ceiling VALID: grow a quarter", 100, 0, true, s, 125, false},
		{"no ceiling: double", 80, 0, true, QPSSearch{Tolerance: 0.05}, 160, false},
		{"bracket: bisect", 80, 100, true, s, 90, false},
		{"bisection rounds to 4 digits", 80, 81.11, true, QPSSearch{Tolerance: 0.001}, 80.56, false},
		{"within tolerance: done", 96, 100, true, s, 0, true},
		{"rounding cannot split: done", 100, 100.1, true, QPSSearch{Tolerance: 0.0001}, 0, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			next, _, done := nextQPS(QPSResult{Best: tc.best, InvalidAbove: tc.inval}, tc.search, tc.ceilingTried)
			if next != tc.next || done != tc.done {
				t.Errorf("nextQPS(VALID %g, INVALID %g) = %g, %v; want %g, %v", tc.best, tc.inval, next, done, tc.next, tc.done)
			}
		})
	}
}

func TestRoundSig(t *testing.T) {
	for in, want := range map[float64]float64{123.456: 123.5, 0.0123456: 0.01235, 98765: 98770, 150: 150, 1: 1} {
		if got := roundSig(in, 4); got != want {
			t.Errorf("roundSig(%g, 4) = %g, want %g", in, got, want)
		}
	}
}

func TestDoublingLevels(t *testing.T) {
	got := DoublingLevels(24)
	want := []int{1, 2, 4, 8, 16, 24}
	if len(got) != len(want) {
		t.Fatalf("DoublingLevels(24) = %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("DoublingLevels(24) = %v, want %v", got, want)
		}
	}
	if got := DoublingLevels(8); len(got) != 4 || got[3] != 8 {
		t.Errorf("DoublingLevels(8) = %v, want [1 2 4 8]", got)
	}
}

// TestFlatLevels: the default sweep stops after two levels that did not
// raise the best throughput by more than 1-plateau; points that are not
// VALID neither count nor reset the run.
func TestFlatLevels(t *testing.T) {
	pts := func(rates ...float64) []SweepPoint {
		var p []SweepPoint
		for i, r := range rates {
			p = append(p, SweepPoint{Concurrency: 1 << i, SamplesPerSecond: r, Valid: r > 0})
		}
		return p
	}
	for _, tc := range []struct {
		rates []float64
		want  int
	}{
		{[]float64{10, 20, 40}, 0},
		{[]float64{10, 20, 40, 41}, 1},
		{[]float64{10, 20, 40, 41, 39}, 2},
		{[]float64{10, 20, 40, 41, 45}, 0},   // 45 > 1.05 x 41: still growing
		{[]float64{10, 20, 40, 41, -1}, 1},   // a failed level changes nothing
		{[]float64{10, 20, 40, 30, 41.5}, 2}, // a dip, then no real gain
	} {
		if got := flatLevels(pts(tc.rates...), 0.95); got != tc.want {
			t.Errorf("flatLevels(%v) = %d, want %d", tc.rates, got, tc.want)
		}
	}
}

// TestSetUserConf: the line replaces every line setting its key, keeps the
// rest byte for byte, is appended when new, creates a missing file, and a
// malformed file or line is refused without writing.
func TestSetUserConf(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "user.conf")
	before := "# my settings\n*.Server.coalesce_queries = 1\nllama3_1-8b.Server.target_qps = 10\n\n" +
		"# llama3_1-8b.Server.target_qps = 5\nllama3_1-8b.Server.target_qps  =  12\nllama3_1-8b.Offline.target_qps = 40"
	if err := os.WriteFile(path, []byte(before), 0o600); err != nil {
		t.Fatal(err)
	}
	replaced, err := SetUserConf(path, "llama3_1-8b.Server.target_qps = 123.4")
	if err != nil || !replaced {
		t.Fatalf("SetUserConf: replaced %v, %v", replaced, err)
	}
	got, _ := os.ReadFile(path)
	want := "# my settings\n*.Server.coalesce_queries = 1\nllama3_1-8b.Server.target_qps = 123.4\n\n" +
		"# llama3_1-8b.Server.target_qps = 5\nllama3_1-8b.Server.target_qps = 123.4\nllama3_1-8b.Offline.target_qps = 40\n"
	if string(got) != want {
		t.Errorf("after SetUserConf:\n%s\nwant:\n%s", got, want)
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want the file's own 0600", st.Mode().Perm())
	}

	replaced, err = SetUserConf(path, "llama3_1-8b-interactive.Server.target_qps = 7")
	if err != nil || replaced {
		t.Fatalf("SetUserConf of a new key: replaced %v, %v", replaced, err)
	}
	got, _ = os.ReadFile(path)
	if string(got) != want+"llama3_1-8b-interactive.Server.target_qps = 7\n" {
		t.Errorf("a new key is not appended:\n%s", got)
	}

	fresh := filepath.Join(dir, "new.conf")
	if _, err := SetUserConf(fresh, "gpt-oss-120b.Server.target_qps = 3"); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(fresh); string(got) != "gpt-oss-120b.Server.target_qps = 3\n" {
		t.Errorf("new file: %q", got)
	}

	bad := filepath.Join(dir, "bad.conf")
	os.WriteFile(bad, []byte("ok.Server.target_qps = 1\nnot a line\n"), 0o644)
	if _, err := SetUserConf(bad, "x.Server.target_qps = 2"); err == nil || !strings.Contains(err.Error(), "bad.conf:2") {
		t.Errorf("malformed user.conf: error %v, want one naming bad.conf:2", err)
	}
	if got, _ := os.ReadFile(bad); string(got) != "ok.Server.target_qps = 1\nnot a line\n" {
		t.Errorf("a malformed user.conf was rewritten: %q", got)
	}
	for _, line := range []string{"", "x.Server.target_qps=2", "x.Server.no_such_key = 2", "a.Server.target_qps = 1\nb.Server.target_qps = 2"} {
		if _, err := SetUserConf(fresh, line); err == nil {
			t.Errorf("SetUserConf(%q): want an error", line)
		}
	}
}

// TestTrialVerdict: a trial's reason names LoadGen's unmet constraints or
// the failed samples, and its deciding latency is the percentile nearest
// its limit, as LoadGen's summary labels them.
func TestTrialVerdict(t *testing.T) {
	rep := &run.Report{Outcome: record.Invalid, OutcomeReason: "LoadGen's result is INVALID"}
	rep.Settings.ServerTargetLatencyPercentile = 0.99
	rep.Settings.UseTokenLatencies = true
	rep.Settings.ServerTTFTLatencyNs = 2e9
	rep.Settings.ServerTPOTLatencyNs = 100e6
	rep.Summary = mllog.Summary{Result: "INVALID", Values: map[string]string{
		"Performance constraints satisfied":          "NO",
		"Min duration satisfied":                     "Yes",
		"Min queries satisfied":                      "Yes",
		"Early stopping satisfied":                   "NO",
		"99.00 percentile first token latency (ns)":  "1500000000",
		"99.00 percentile time to output token (ns)": "120000000",
	}}
	if got := reason(rep); got != "LoadGen INVALID: latency limits, early stopping not met" {
		t.Errorf("reason = %q", got)
	}
	l := decidingLatency(rep)
	if l == nil || l.Name != "p99 TPOT" || l.ValueMs != 120 || l.LimitMs != 100 || !l.Over() {
		t.Fatalf("deciding latency %+v, want p99 TPOT 120 ms over 100 ms", l)
	}
	if l.String() != "p99 TPOT 120 ms > 100 ms" {
		t.Errorf("String() = %q", l.String())
	}
	rep.Settings.UseTokenLatencies = false
	rep.Settings.ServerTargetLatencyNs = 1e9
	rep.Summary.Values["99.00 percentile latency (ns)"] = "250000000"
	if l := decidingLatency(rep); l == nil || l.Name != "p99 latency" || l.Over() {
		t.Errorf("without token latencies: %+v, want p99 latency under its limit", l)
	}
	rep.Stats.Failed = 3
	rep.OutcomeReason = "3 of 1000 samples failed"
	if got := reason(rep); got != rep.OutcomeReason {
		t.Errorf("reason with failures = %q, want the run's", got)
	}
}

// TestCeilingIsTriedOnce: a ceiling that does not round to itself (an
// Offline throughput such as 181.71) is still known as tried once the
// search tried its rounded value, so the search grows past it.
func TestCeilingIsTriedOnce(t *testing.T) {
	s := QPSSearch{Tolerance: 0.05, Ceiling: roundSig(181.714, qpsDigits)}
	next, _, _ := nextQPS(QPSResult{Best: 145.4}, s, false)
	if next != 181.7 {
		t.Fatalf("next after a VALID start: %g, want the ceiling 181.7", next)
	}
	if next, _, _ := nextQPS(QPSResult{Best: next}, s, true); next != 227.1 {
		t.Errorf("next after a VALID ceiling: %g, want 1.25 x 181.7 = 227.1", next)
	}
}

// TestFellBehind: a Server trial whose completions trail the schedule by
// more than behindLimit was still queueing at its end (these rates are
// from a 20 s trial of the fake at capacity ≈ 196/s).
func TestFellBehind(t *testing.T) {
	for _, tc := range []struct {
		completed, scheduled, want float64
	}{
		{196.4, 210, 1 - 196.4/210},
		{192.2, 192.5, 0},
		{155.8, 153.6, 0},
		{100, 0, 0}, // Offline: no schedule
	} {
		got := Trial{SamplesPerSecond: tc.completed, ScheduledPerSecond: tc.scheduled}.FellBehind()
		if math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("FellBehind(completed %g, scheduled %g) = %g, want %g", tc.completed, tc.scheduled, got, tc.want)
		}
	}
}

// TestSearchRefusesBadConfig: the searches check their settings before any
// trial, and refuse a scenario they do not search.
func TestSearchRefusesBadConfig(t *testing.T) {
	ts := &Trials{Dir: t.TempDir()}
	ts.Base.Scenario = loadgen.Offline
	if _, err := SearchQPS(context.Background(), ts, QPSSearch{Start: 1, TrialDuration: time.Second}); err == nil || !strings.Contains(err.Error(), "Server") {
		t.Errorf("QPS search of Offline: %v", err)
	}
	ts.Base.Scenario = loadgen.Server
	for _, s := range []QPSSearch{
		{Start: 0, TrialDuration: time.Second},
		{Start: 10, TrialDuration: 0},
		{Start: 10, TrialDuration: time.Second, Tolerance: 1.5},
	} {
		if _, err := SearchQPS(context.Background(), ts, s); err == nil {
			t.Errorf("SearchQPS(%+v): want an error", s)
		}
	}
	if _, err := SweepConcurrency(context.Background(), ts, SweepSearch{TrialDuration: time.Second}); err == nil || !strings.Contains(err.Error(), "Offline") {
		t.Errorf("sweep of Server: %v", err)
	}
	ts.Base.Scenario = loadgen.Offline
	if _, err := SweepConcurrency(context.Background(), ts, SweepSearch{Levels: []int{1, 0}, TrialDuration: time.Second}); err == nil {
		t.Error("sweep with concurrency 0: want an error")
	}
	if entries, _ := os.ReadDir(ts.Dir); len(entries) != 0 {
		t.Errorf("refused searches left files: %v", entries)
	}
}

// TestUserConfLineUsesLoadGenModel: the line the search prints is keyed by
// the model name LoadGen reads the run's user.conf under, which for a
// variant run under its base's name (qwen3-vl Interactive) is not the
// variant's own name: a line under that name would be ignored.
func TestUserConfLineUsesLoadGenModel(t *testing.T) {
	ts := &Trials{Dir: t.TempDir()}
	ts.Base.Benchmark = benchmark.Benchmark{Identity: benchmark.Identity{Name: "model-interactive"}, LoadGen: benchmark.LoadGen{Model: "model"}, Serving: benchmark.Serving{API: openaicompletions.Protocol}}
	ts.Base.Scenario = loadgen.Server
	ts.Run = func(_ context.Context, o run.Options) (*run.Report, error) {
		if err := os.MkdirAll(o.OutputDir, 0o755); err != nil {
			return nil, err
		}
		rep := &run.Report{LogDir: o.OutputDir, Outcome: record.Valid}
		if strings.Contains(strings.Join(o.Settings, " "), "target_qps=10 ") {
			return rep, nil
		}
		rep.Outcome, rep.OutcomeReason = record.Invalid, "too fast"
		return rep, nil
	}
	res, err := SearchQPS(context.Background(), ts, QPSSearch{Start: 10, TrialDuration: time.Second, MaxTrials: 3})
	if err != nil {
		t.Fatal(err)
	}
	if want := "model.Server.target_qps = 10"; res.UserConf != want {
		t.Errorf("user.conf line %q, want %q", res.UserConf, want)
	}
}

// TestRecommend: the line written is the highest VALID QPS, unless its
// trial fell behind its schedule; then the highest VALID one that kept up.
func TestRecommend(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		res  QPSResult
		want float64
		why  string
	}{
		{QPSResult{Best: 43.56, KeptUp: 43.56}, 43.56, "highest VALID"},
		{QPSResult{Best: 43.56, BestFellBehind: 0.12, KeptUp: 30.98}, 30.98, "kept up"},
		{QPSResult{Best: 43.56, BestFellBehind: 0.12}, 43.56, "no VALID trial kept up"},
	} {
		got, why := recommend(tc.res)
		if got != tc.want || !strings.Contains(why, tc.why) {
			t.Errorf("recommend(%+v) = %g, %q; want %g, saying %q", tc.res, got, why, tc.want, tc.why)
		}
	}
}

// modelServer is a Server trial's report from a system of the given
// capacity (samples/s) whose p99 TTFT at light load is base: above
// capacity, a 60 s trial ends with its excess still queued.
func modelServer(capacity float64, base time.Duration) func(context.Context, run.Options) (*run.Report, error) {
	return func(_ context.Context, o run.Options) (*run.Report, error) {
		if err := os.MkdirAll(o.OutputDir, 0o755); err != nil {
			return nil, err
		}
		var qps float64
		for _, s := range o.Settings {
			if v, ok := strings.CutPrefix(s, "target_qps="); ok {
				qps, _ = strconv.ParseFloat(v, 64)
			}
		}
		ttft := base
		if qps > capacity {
			ttft += time.Duration((qps/capacity - 1) * 60 * float64(time.Second))
		}
		rep := &run.Report{LogDir: o.OutputDir, Outcome: record.Valid}
		rep.Settings.ServerTargetLatencyPercentile = 0.99
		rep.Settings.UseTokenLatencies = true
		rep.Settings.ServerTTFTLatencyNs = 2e9
		rep.Settings.ServerTPOTLatencyNs = 100e6
		rep.Summary = mllog.Summary{Result: "VALID", Values: map[string]string{
			"Scheduled samples per second":               strconv.FormatFloat(qps, 'f', 2, 64),
			"Completed samples per second":               strconv.FormatFloat(min(qps, capacity), 'f', 2, 64),
			"99.00 percentile first token latency (ns)":  strconv.FormatInt(ttft.Nanoseconds(), 10),
			"99.00 percentile time to output token (ns)": "20000000",
		}}
		if ttft > 2*time.Second {
			rep.Outcome, rep.OutcomeReason = record.Invalid, "LoadGen's result is INVALID"
			rep.Summary.Result = "INVALID"
		}
		return rep, nil
	}
}

// TestSearchStopsWhenLatencyIsNotLoad: when halving the QPS leaves the
// latency over its limit where it was, the endpoint is too slow for the
// limit at any load: the search stops there with an error that says so,
// rather than halving on into ever longer trials. While halving lowers
// the latency (a queue draining), it goes on.
func TestSearchStopsWhenLatencyIsNotLoad(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		base   time.Duration
		trials int     // trials run
		best   float64 // 0: the search fails
	}{
		// Capacity 8: 40, 20 and 10 QPS queue (INVALID, the latency
		// falling), 5 keeps up at 3 s, 2.5 too: the latency is the
		// endpoint's.
		{"too slow at any load", 3 * time.Second, 5, 0},
		// The same system at 1 s: 5 QPS is VALID, and the search bisects
		// up to 7.5 below the capacity of 8.
		{"queueing only", time.Second, 5, 7.5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ts := &Trials{Dir: t.TempDir(), Run: modelServer(8, tc.base)}
			ts.Base.Benchmark = benchmark.Benchmark{Identity: benchmark.Identity{Name: "model"}, Serving: benchmark.Serving{API: openaicompletions.Protocol}}
			ts.Base.Scenario = loadgen.Server
			res, err := SearchQPS(context.Background(), ts, QPSSearch{Start: 40, TrialDuration: time.Minute, MaxTrials: 6, Tolerance: 0.3})
			if got := len(ts.summary.Trials); got != tc.trials {
				t.Errorf("%d trials, want %d: %+v", got, tc.trials, ts.summary.Trials)
			}
			if tc.best == 0 {
				if !errors.Is(err, ErrNoValidTrial) || !errors.Is(err, ErrLatencyFloor) || !strings.Contains(err.Error(), "halving the load from 5 to 2.5 QPS left the p99 TTFT at 3000 ms, then 3000 ms, over its 2000 ms limit") {
					t.Fatalf("error %v, want one saying the latency is not the load's", err)
				}
				if res.InvalidAbove != 2.5 {
					t.Errorf("lowest INVALID QPS %g, want 2.5", res.InvalidAbove)
				}
				sum, rerr := ReadSummary(ts.Dir)
				if rerr != nil || sum.QPS == nil || len(sum.Trials) != tc.trials {
					t.Errorf("tune.json: %+v, %v", sum, rerr)
				}
				return
			}
			if err != nil || res.Best < tc.best {
				t.Fatalf("best %g, %v; want at least %g", res.Best, err, tc.best)
			}
		})
	}
}

// TestPlan: what the search says it tries first is what nextQPS tries:
// from 80 under a 100 ceiling, 100 after a VALID trial and 40 after an
// INVALID one (not "that throughput next" whatever happens); and what
// each trial and the search cost is their queries at their QPS.
func TestPlan(t *testing.T) {
	base := QPSSearch{TrialDuration: time.Minute, TrialMinQueries: 1000, MaxTrials: 10, Tolerance: 0.05}
	with := func(start, ceiling float64) QPSSearch {
		s := base
		s.Start, s.Ceiling = start, ceiling
		return s
	}
	for _, tc := range []struct {
		s    QPSSearch
		want []string
	}{
		{with(80, 100), []string{"the first trial at 80 QPS; if it is VALID the next at 100, if INVALID at 40;",
			// 80 x 60 + 4 sqrt(4800) = 5078 queries, 63.5 s; 40 x 60 + 4
			// sqrt(2400) = 2596, 64.9 s; 63.5 + 9 x 64.9 = 648 s.
			"about 1m3.5s at 80 QPS (5078 queries), 1m4.9s at 40 QPS (2596 queries)", "10 trials take about 10m48s if the QPS stays at or above 40"}},
		{with(12.345678, 0), []string{"the first trial at 12.35 QPS; if it is VALID the next at 24.7, if INVALID at 6.175;",
			// --trial-min-queries decides: 1000 / 12.35 = 81 s, 1000 / 6.175 = 162 s.
			"about 1m21s at 12.35 QPS (1000 queries), 2m41.9s at 6.175 QPS (1000 queries)"}},
		{with(100, 100), []string{"the first trial at 100 QPS; if it is VALID the next at 125, if INVALID at 50;"}},
	} {
		got := tc.s.plan()
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("%+v: plan\n%s\ndoes not say %q", tc.s, got, w)
			}
		}
	}
}

// TestSweepTrialSamplesWholeLibraries: an Offline trial wanting more
// samples than its library holds issues whole permutations of it
// (LoadGen's sample_concatenate_permutation), and the plan announces that
// number: 512 wanted of a library of 600 is 512; 601 is 1200. The plan's
// plateau reads 5%, not 5.000000000000004%.
func TestSweepTrialSamplesWholeLibraries(t *testing.T) {
	s := SweepSearch{TrialDuration: 10 * time.Second, Plateau: DefaultPlateau}
	for _, tc := range []struct {
		c         int
		rate      float64
		lib, want int
	}{
		{64, 0, 600, 512},     // 8 per slot, under the library
		{64, 60.1, 600, 1200}, // 601 wanted: two libraries
		{64, 0, 100, 600},     // 512 of a library of 100: six of them
		{1, 0, 0, 8},          // library unknown: as wanted
		{4, 2509.1, 20, 25100},
	} {
		if got := s.trialSamples(tc.c, tc.rate, tc.lib); got != tc.want {
			t.Errorf("concurrency %d at %g samples/s, library %d: %d samples, want %d", tc.c, tc.rate, tc.lib, got, tc.want)
		}
	}
	plan := s.plan([]int{64, 128}, true, 100)
	if !strings.Contains(plan, "the first: trial 1 at concurrency 64: 600 samples") || !strings.Contains(plan, "by more than 5%;") {
		t.Errorf("plan:\n%s", plan)
	}
}
