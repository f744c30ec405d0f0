package tune

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/loadgen"
	"github.com/mlperf-go/mlperf-go/loadgen/mllog"
	"github.com/mlperf-go/mlperf-go/record"
	"github.com/mlperf-go/mlperf-go/run"
	"github.com/mlperf-go/mlperf-go/submission"
)

// capacity is a system of known capacity that answers trials through the
// search's RunTrial seam by arithmetic instead of running them, as
// vegeta's pacer test passes elapsed in: the searches' known answers then
// hold whatever this machine's speed. Slots serve at once, each request
// for service: at concurrency c an Offline trial serves min(c, slots) /
// service samples per second, and the Server capacity is C = slots /
// service. A Server trial at q QPS completes min(q, C) per second; its
// p99 first token is ttft below C, and above C the queue's wait at the
// trial's end on top, (q - C) / C x its min_duration; it is VALID while
// that stays under its ttft_latency setting.
type capacity struct {
	slots         int
	service, ttft time.Duration
	// trials counts the trials answered.
	trials int
}

// C is the Server capacity in queries per second.
func (m *capacity) C() float64 { return float64(m.slots) / m.service.Seconds() }

// settings reads the trial's user.conf lines (key=value).
func settings(o run.Options) map[string]float64 {
	s := map[string]float64{}
	for _, l := range o.Settings {
		k, v, _ := strings.Cut(l, "=")
		if f, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil {
			s[strings.TrimSpace(k)] = f
		}
	}
	return s
}

// runTrial is the model's RunTrial: the report a trial of o would give.
func (m *capacity) runTrial(_ context.Context, o run.Options) (*run.Report, error) {
	m.trials++
	if err := os.MkdirAll(o.OutputDir, 0o755); err != nil {
		return nil, err
	}
	set := settings(o)
	rep := &run.Report{LogDir: o.OutputDir, Outcome: record.Valid}
	rep.Settings.Scenario, rep.Settings.Mode = o.Scenario, loadgen.PerformanceOnly
	rep.Summary = mllog.Summary{Valid: true, Result: "VALID", Values: map[string]string{"Performance constraints satisfied": "Yes",
		"Min duration satisfied": "Yes", "Min queries satisfied": "Yes", "Early stopping satisfied": "Yes"}}
	if o.Scenario == loadgen.Offline {
		rate := float64(min(o.Concurrency, m.slots)) / m.service.Seconds()
		rep.Summary.Values["Samples per second"] = strconv.FormatFloat(rate, 'g', -1, 64)
		rep.Stats.Issued, rep.Stats.Completed = int64(set["min_query_count"]), int64(set["min_query_count"])
		return rep, nil
	}
	q, c := set["target_qps"], m.C()
	wait := time.Duration(0)
	if q > c {
		wait = time.Duration((q - c) / c * set["min_duration"] * float64(time.Millisecond))
	}
	limit := time.Duration(set["ttft_latency"] * float64(time.Millisecond))
	ttft := m.ttft + wait
	rep.Settings.UseTokenLatencies, rep.Settings.ServerTargetLatencyPercentile = true, 0.99
	rep.Settings.ServerTTFTLatencyNs, rep.Settings.ServerTPOTLatencyNs = uint64(limit), uint64(time.Second)
	rep.Summary.Values["Completed samples per second"] = strconv.FormatFloat(min(q, c), 'g', -1, 64)
	rep.Summary.Values["Scheduled samples per second"] = strconv.FormatFloat(q, 'g', -1, 64)
	rep.Summary.Values["99.00 percentile first token latency (ns)"] = strconv.FormatInt(int64(ttft), 10)
	rep.Summary.Values["99.00 percentile time to output token (ns)"] = strconv.FormatInt(int64(time.Millisecond), 10)
	rep.Stats.Issued, rep.Stats.Completed = int64(set["min_query_count"]), int64(set["min_query_count"])
	if ttft > limit {
		rep.Outcome, rep.OutcomeReason = record.Invalid, "LoadGen's result is INVALID"
		rep.Summary.Valid, rep.Summary.Result = false, "INVALID"
		rep.Summary.Values["Performance constraints satisfied"] = "NO"
	}
	return rep, nil
}

// modelTune returns the Options of a tune of name in scenario whose
// trials m answers, into a folder of the test's, and the buffer its
// progress goes to. Nothing runs: no LoadGen, no endpoint.
func modelTune(t *testing.T, name string, scenario loadgen.Scenario, m *capacity) (Options, *bytes.Buffer) {
	t.Helper()
	b, err := benchmark.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	var progress bytes.Buffer
	o := Options{Dir: filepath.Join(t.TempDir(), "tune"), Progress: &progress, RunTrial: m.runTrial}
	o.Base.Benchmark, o.Base.Scenario, o.Base.Endpoints = b, scenario, []string{"http://127.0.0.1:1"}
	o.Base.Round, o.Base.Concurrency = submission.DefaultRound, 1
	return o, &progress
}

// TestSweepKnownAnswer: a system with S slots serving each request for L
// makes Offline throughput min(c, S)/L at concurrency c: linear to S, flat
// after. The sweep measures exactly that at each level and recommends
// exactly S, the smallest concurrency reaching the plateau.
func TestSweepKnownAnswer(t *testing.T) {
	t.Parallel()
	m := &capacity{slots: 4, service: 400 * time.Millisecond}
	o, progress := modelTune(t, "llama3_1-8b", loadgen.Offline, m)
	o.Sweep = SweepSearch{Levels: []int{1, 2, 4, 8}, TrialDuration: time.Second}
	res, err := Run(context.Background(), o)
	var out bytes.Buffer
	res.Print(&out, progress)
	if err != nil {
		t.Fatalf("tune Offline: %v\n%s", err, progress)
	}
	if !strings.Contains(out.String(), "recommended: --concurrency 4 ") {
		t.Errorf("sweep does not recommend --concurrency %d:\n%s", m.slots, &out)
	}
	sum, err := ReadSummary(o.Dir)
	if err != nil {
		t.Fatal(err)
	}
	sweep := sum.Concurrency
	if sweep == nil || len(sweep.Points) != 4 || sweep.Recommended != m.slots {
		t.Fatalf("tune.json: %+v; want 4 points and concurrency %d recommended", sweep, m.slots)
	}
	for _, p := range sweep.Points {
		if want := float64(min(p.Concurrency, m.slots)) / m.service.Seconds(); !p.Valid || p.SamplesPerSecond != want {
			t.Errorf("concurrency %d: %g samples/s (valid %v); want min(c, S)/L = %g", p.Concurrency, p.SamplesPerSecond, p.Valid, want)
		}
	}
	if n := strings.Count(progress.String(), " samples/s "); n < 4 {
		t.Errorf("want one progress line per concurrency:\n%s", progress)
	}
}

// TestQPSSearchKnownAnswer: against a system of capacity C = 100/s whose
// queue breaks a 300 ms TTFT limit 4.5% above C in a 6 s trial, the
// search from 0.8C, with the Offline throughput as its ceiling, brackets
// the edge within its tolerance and writes that QPS: VALID at or below
// 1.045C, INVALID above, in a handful of trials.
func TestQPSSearchKnownAnswer(t *testing.T) {
	t.Parallel()
	m := &capacity{slots: 4, service: 40 * time.Millisecond, ttft: 30 * time.Millisecond}
	o, progress := modelTune(t, "llama3_1-8b", loadgen.Server, m)
	o.Base.Settings = []string{"ttft_latency=300"}
	o.QPS = QPSSearch{Start: 0.8 * m.C(), Ceiling: 1.2 * m.C(), TrialDuration: 6 * time.Second, TrialMinQueries: 500, Tolerance: 0.02, MaxTrials: 10}
	res, err := Run(context.Background(), o)
	var out bytes.Buffer
	res.Print(&out, progress)
	if err != nil {
		t.Fatalf("tune Server: %v\n%s", err, progress)
	}
	edge := m.C() * (1 + 0.27/6) // the wait (q-C)/C x 6 s reaches the 270 ms the limit leaves
	q := res.QPS
	if !q.Converged || q.Best > edge || q.InvalidAbove <= edge || (q.InvalidAbove-q.Best)/q.InvalidAbove > 0.02 {
		t.Errorf("search: %+v; want VALID at most %g and INVALID above it, within 2%%\n%s", q, edge, progress)
	}
	if want := fmt.Sprintf("llama3_1-8b.Server.target_qps = %s", FormatQPS(q.Recommended)); q.UserConf != want || !strings.Contains(out.String(), want+"\n") {
		t.Errorf("user.conf line %q, want %q printed", q.UserConf, want)
	}
	if m.trials > 8 {
		t.Errorf("%d trials, want a handful", m.trials)
	}
}
