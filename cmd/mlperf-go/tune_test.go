package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/urfave/cli/v2"
	"go.uber.org/zap"

	"github.com/mlperf-go/mlperf-go/fake"
	"github.com/mlperf-go/mlperf-go/loadgen/loadgentest"
	"github.com/mlperf-go/mlperf-go/record"
	"github.com/mlperf-go/mlperf-go/tune"
	"github.com/mlperf-go/mlperf-go/workflow"
)

// tuneDirOf returns the one tune folder under root/<bench>/<scenario>.
func tuneDirOf(t testing.TB, root, bench, scenario string) string {
	t.Helper()
	m, _ := filepath.Glob(filepath.Join(root, bench, scenario, "*"))
	if len(m) != 1 {
		t.Fatalf("want one tune folder under %s, found %q", filepath.Join(root, bench, scenario), m)
	}
	return m[0]
}

// BenchmarkTuneServerKnownAnswer: against the fake endpoint with S slots, each
// request holding a slot for a fixed L (TTFT + 10 TPOT), the capacity is
// C = S/L requests per second, and `tune` must land in [0.6C, 1.15C].
//
// Why that band. Arrivals are Poisson at q; the fake is an M/D/S queue
// (S = 4, L = 40 ms, C = 100/s) whose only latency beyond its fixed TTFT is
// the FIFO wait. The TTFT limit (ttft_latency = 300 ms here, against a
// TTFT of 30 ms) allows w = 270 ms ≈ 6.75L of waiting, and early stopping
// on 500-1000 queries tolerates only a query or two over it, so a trial is
// VALID when its longest waits stay under w.
//   - Lower edge: below capacity the wait is a stationary M/D/S wait. At
//     q = 0.8C the M/M/4 bound is P(wait > w) = ErlangC·e^(-(S-a)w/L)
//     ≈ 0.6·e^(-5.4) ≈ 3e-3, and the tail of deterministic service decays
//     about twice as fast (≈ 0.6·e^(-10.8) ≈ 1e-5): trials up to ~0.8C are
//     VALID on queueing alone, and the first trial runs at 0.8 of the
//     measured Offline throughput (≈ 0.75C). The margin down to 0.6C is for
//     what queueing does not model: this shared machine stalls the test
//     process for 100-200 ms at times, which w absorbs. C is kept low so
//     that the harness and the fake, in this process and under -race, are
//     far from their own limit (at 200/s under -race they are not).
//   - Upper edge: at q = (1+e)C the queue grows by eC per second, so by the
//     end of a T = 6 s trial the wait is eT on average, with Poisson noise
//     σ ≈ sqrt(T/C) ≈ 245 ms. At 1.15C that is 900 ms against w = 270 ms,
//     2.6σ at the trial's end alone (the wait must stay under w all along,
//     and a result above 1.15C also needs the Offline throughput, tried
//     second, and the bisection points above it to pass). A short trial
//     cannot resolve finer than about (w + 3σ)/T above capacity: at 1.05C
//     (300 ms of drift) a trial is VALID about as often as not, so a band
//     ending there would fail at random. A full ten-minute run would not
//     miss it, which is why tune says to confirm its result with one.
//
// It is a benchmark (make bench), not a test: a known answer of a timing
// search holds only on a machine that serves the test's load with room to
// spare, and `go test -race ./...` on a shared machine does not (with other
// tests running it landed at 0.42C; scaled to C = 40/s, at 0.36C, the
// machine's delays alone making every trial from a third of capacity up
// INVALID). It reports where tune landed as C, the fraction of capacity.
func BenchmarkTuneServerKnownAnswer(b *testing.B) {
	for range b.N {
		b.ReportMetric(tuneServerKnownAnswer(b), "C")
	}
}

// tuneServerKnownAnswer runs BenchmarkTuneServerKnownAnswer once and
// returns where tune landed, as a fraction of capacity.
func tuneServerKnownAnswer(t testing.TB) float64 {
	loadgentest.Require(t)
	const (
		name  = "llama3_1-8b"
		slots = 4
		ttft  = 30 * time.Millisecond
		tpot  = time.Millisecond
		// Ten gaps between tokens: a stall of the loaded test machine
		// spreads over them, so TPOT stays far under its limit. They go
		// in two events (the first token, then ten), which keeps the
		// harness's and the fake's work per request small under -race.
		tokens   = 11
		interval = 10
	)
	capacity := slots / (ttft + (tokens-1)*tpot).Seconds() // C = S/L = 100/s
	dir := t.TempDir()
	data := synthCLI(t, name, 100)
	url := startFake(t, fake.Config{Model: mustLookup(t, name).Serving.Model, OutputTokens: tokens, TTFT: ttft, TPOT: tpot,
		MaxConcurrency: slots, StreamInterval: interval})
	runs := filepath.Join(dir, "runs")
	common := append([]string{"-b", name, "-e", url, "--progress-interval", "0", "--engine-metrics-interval", "0"}, data...)

	// The bracket starts from the Offline throughput, as a user's would.
	out, err := runCLI(t, append([]string{"run", "-s", "Offline", "--runs-dir", runs, "--min-duration", "0",
		"--min-query-count", "200", "--setting", "performance_sample_count_override=100"}, common...)...)
	if err != nil {
		t.Fatalf("Offline run: %v\n%s", err, out)
	}

	conf := filepath.Join(dir, "user.conf")
	before := "# tuned by hand\n*.Server.coalesce_queries = 1\nllama3_1-8b.Server.target_qps = 1\n"
	if err := os.WriteFile(conf, []byte(before), 0o600); err != nil {
		t.Fatal(err)
	}
	tuneRoot := filepath.Join(dir, "tune")
	start := time.Now()
	out, err = runCLI(t, append([]string{"tune", "-s", "Server", "--runs-dir", runs, "--tune-dir", tuneRoot,
		"--trial-duration", "6s", "--trial-min-queries", "500", "--tolerance", "0.08", "--max-trials", "8",
		"--setting", "ttft_latency=300", "--write-user-conf", conf}, common...)...)
	t.Logf("tune took %s:\n%s", time.Since(start).Round(time.Second), out)
	if err != nil {
		t.Fatalf("tune: %v\n%s", err, out)
	}
	m := regexp.MustCompile(`(?m)^llama3_1-8b\.Server\.target_qps = ([0-9.]+)$`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("tune printed no user.conf line:\n%s", out)
	}
	got, _ := strconv.ParseFloat(m[1], 64)
	t.Logf("landed at %g QPS = %.3fC (C = %g)", got, got/capacity, capacity)
	if got < 0.6*capacity || got > 1.15*capacity {
		t.Errorf("tune landed at %g QPS = %.2fC; want within [0.6C, 1.15C] of C = %g", got, got/capacity, capacity)
	}

	// One progress line per trial, with the QPS, the verdict and the p99
	// TTFT that decided it; tune.json lists the same trials, each with its
	// own LoadGen logs and run record.
	lines := regexp.MustCompile(`(?m)^trial \d+/8: +[0-9.]+ QPS +(VALID|INVALID) +p99 (TTFT|TPOT) [0-9.]+ ms (<=|>) `).FindAllString(out, -1)
	sum, err := tune.ReadSummary(tuneDirOf(t, tuneRoot, name, "Server"))
	if err != nil {
		t.Fatal(err)
	}
	if len(sum.Trials) < 2 || len(lines) != len(sum.Trials) {
		t.Fatalf("%d progress lines, %d trials in tune.json; want one line per trial and at least a VALID and an INVALID trial", len(lines), len(sum.Trials))
	}
	// The line written is the recommended QPS: the highest VALID one, or
	// the highest that kept up with its schedule (TestRecommend).
	if sum.QPS == nil || sum.QPS.Recommended != got || sum.QPS.UserConf != m[0] || got > sum.QPS.Best {
		t.Errorf("tune.json result %+v does not match the printed line %q", sum.QPS, m[0])
	}
	var lowestInvalid float64
	for _, tr := range sum.Trials {
		if _, err := os.Stat(filepath.Join(tr.Dir, "mlperf_log_summary.txt")); err != nil {
			t.Errorf("trial %d: %v", tr.N, err)
		}
		info, err := record.Read(tr.Dir)
		if err != nil || info.Outcome != tr.Outcome {
			t.Errorf("trial %d: run record %v (outcome %q), tune.json says %s", tr.N, err, info.Outcome, tr.Outcome)
		}
		if tr.Latency == nil || tr.Latency.Name != "p99 TTFT" || tr.Latency.LimitMs != 300 {
			t.Errorf("trial %d: deciding latency %+v, want p99 TTFT against 300 ms", tr.N, tr.Latency)
		}
		if tr.Valid() && tr.TargetQPS > sum.QPS.Best {
			t.Errorf("trial %d at %g QPS was VALID, above the highest VALID %g", tr.N, tr.TargetQPS, sum.QPS.Best)
		}
		if !tr.Valid() && (lowestInvalid == 0 || tr.TargetQPS < lowestInvalid) {
			lowestInvalid = tr.TargetQPS
		}
	}
	if best := sum.QPS.Best; lowestInvalid <= best || (lowestInvalid-best)/lowestInvalid > 0.08 {
		t.Errorf("search ended with VALID %g and lowest INVALID %g: not within the 8%% tolerance", best, lowestInvalid)
	}

	// The user.conf keeps its other lines; the target_qps line is replaced.
	after, err := os.ReadFile(conf)
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Replace(before, "llama3_1-8b.Server.target_qps = 1\n", m[0]+"\n", 1)
	if string(after) != want {
		t.Errorf("user.conf after --write-user-conf:\n%s\nwant:\n%s", after, want)
	}
	// Tune trials stay out of the run history.
	if _, err := os.Stat(filepath.Join(runs, name, "Server-performance")); !os.IsNotExist(err) {
		t.Errorf("tune wrote into the run history (stat: %v)", err)
	}
	return got / capacity
}

// TestTuneRefusesScenario: tune has no search for a scenario other than
// Server, Interactive and Offline, and says so before opening anything.
// (The searches are tested in the tune package.)
func TestTuneRefusesScenario(t *testing.T) {
	if _, err := runCLI(t, "tune", "-b", "llama3_1-8b", "-d", "data.json", "-e", "http://127.0.0.1:1", "-s", "SingleStream"); err == nil || !strings.Contains(err.Error(), "--scenario") {
		t.Errorf("tune -s SingleStream: want an error naming --scenario, got %v", err)
	}
}

// TestTuneRefusesBeforeItsFolder: a Server tune with no Offline run to
// start from is refused before it names, creates or announces its folder.
func TestTuneRefusesBeforeItsFolder(t *testing.T) {
	dir := t.TempDir()
	tuneDir := filepath.Join(dir, "tune-runs")
	out, err := runCLI(t, "tune", "-b", "llama3_1-8b", "-d", filepath.Join(dir, "data.json"), "-e", "http://127.0.0.1:1", "-s", "Server",
		"--runs-dir", filepath.Join(dir, "runs"), "--tune-dir", tuneDir)
	if err == nil || !strings.Contains(err.Error(), "no valid Offline performance run") {
		t.Fatalf("want the refusal for want of an Offline run, got %v\n%s", err, out)
	}
	if strings.Contains(out, "trials go to") {
		t.Errorf("a refused tune announced its folder:\n%s", out)
	}
	if _, err := os.Stat(tuneDir); !os.IsNotExist(err) {
		t.Errorf("a refused tune made %s (%v)", tuneDir, err)
	}
}

// TestTuneLaunch: with --launch, one engine (`mlperf-go fake-endpoint` as a
// command engine) serves every trial, logs into the tune folder, is named
// in each trial's run record, and is stopped when the tune ends.
func TestTuneLaunch(t *testing.T) {
	loadgentest.Require(t)
	const name = "llama3_1-8b"
	dir := t.TempDir()
	tuneRoot := filepath.Join(dir, "tune")
	out, err := runCLI(t, append([]string{"tune", "-s", "Offline", "-b", name, "--tune-dir", tuneRoot,
		"--launch", "command", "--engine-port", "0",
		"--engine-command", "env " + selfCLI(t) + " fake-endpoint --listen {host}:{port} --model {model} --output-tokens 2 --ttft 20ms --max-concurrency 2",
		"--concurrency-sweep", "1,2", "--trial-duration", "500ms", "--progress-interval", "0", "--engine-metrics-interval", "0"},
		synthCLI(t, name, 40)...)...)
	if err != nil {
		t.Fatalf("tune --launch: %v\n%s", err, out)
	}
	tdir := tuneDirOf(t, tuneRoot, name, "Offline")
	if log := readFile(t, filepath.Join(tdir, "engine.log")); !strings.Contains(log, "fake endpoint serving") || !strings.Contains(log, "fake endpoint stopping") {
		t.Errorf("engine.log in the tune folder does not show the engine serving and then stopping:\n%s", log)
	}
	if n := strings.Count(readFile(t, filepath.Join(tdir, "engine.log")), "mlperf-go: starting engine"); n != 1 {
		t.Errorf("the engine started %d times; want once for every trial:\n%s", n, readFile(t, filepath.Join(tdir, "engine.log")))
	}
	records, _ := filepath.Glob(filepath.Join(tdir, "*", record.File))
	if len(records) != 2 {
		t.Fatalf("want a run record per trial, found %q", records)
	}
	for _, r := range records {
		if rec := readFile(t, r); !strings.Contains(rec, `"engine": "command"`) || !strings.Contains(rec, "fake-endpoint --listen") {
			t.Errorf("%s does not name the launched engine:\n%s", r, rec)
		}
	}
}

// TestTuneEngineDies: a launched engine crashing during a trial ends the
// tune promptly, exit 1, with the tail of the engine's log.
func TestTuneEngineDies(t *testing.T) {
	loadgentest.Require(t)
	const name = "llama3_1-8b"
	dir := t.TempDir()
	tuneRoot := filepath.Join(dir, "tune")
	trigger := filepath.Join(dir, "crash-now")
	cmd := "env " + selfCLI(t) + " fake-endpoint --listen {host}:{port} --model {model} --ttft 300ms --max-concurrency 1 & pid=$!; " +
		"while [ ! -e " + sh(trigger) + " ]; do sleep 0.05; done; kill -9 $pid; echo 'engine: CUDA error: out of memory' >&2; exit 7"
	go func() {
		// Crash once the first trial's LoadGen test is under way.
		deadline := time.Now().Add(60 * time.Second)
		for time.Now().Before(deadline) {
			if m, _ := filepath.Glob(filepath.Join(tuneRoot, name, "Offline", "*", "*", "mlperf_log_detail.txt")); len(m) > 0 {
				time.Sleep(500 * time.Millisecond)
				break
			}
			time.Sleep(50 * time.Millisecond)
		}
		os.WriteFile(trigger, nil, 0o644)
	}()
	// Three trials of 20 s each if nothing aborts.
	out, err := runCLI(t, append([]string{"tune", "-s", "Offline", "-b", name, "--tune-dir", tuneRoot,
		"--launch", "command", "--engine-port", "0", "--engine-command", cmd,
		"--concurrency-sweep", "1,2,4", "--trial-duration", "20s", "--progress-interval", "0", "--engine-metrics-interval", "0"},
		synthCLI(t, name, 200)...)...)
	if exitCode(err) != 1 || !strings.Contains(err.Error(), "the engine died") || !strings.Contains(err.Error(), "CUDA error: out of memory") {
		t.Fatalf("tune = %v (exit %d)\n%s", err, exitCode(err), out)
	}
	// Promptly: in the trial the engine died in, which tune.json says
	// was the last (the sweep would otherwise have gone on to its other
	// two levels), and was cut short.
	sum, err := tune.ReadSummary(tuneDirOf(t, tuneRoot, name, "Offline"))
	if err != nil {
		t.Fatal(err)
	}
	if len(sum.Trials) != 1 || sum.Trials[0].Outcome != record.Aborted {
		t.Errorf("tune.json lists %+v; want the one trial the engine's death aborted", sum.Trials)
	}
}

// TestTuneHelpOmitsEvaluation: every trial is a performance run, so tune
// takes none of the accuracy evaluation's flags, and its help lists none.
func TestTuneHelpOmitsEvaluation(t *testing.T) {
	out, err := runCLI(t, "tune", "--help")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range evalFlags() {
		if strings.Contains(out, "--"+f.Names()[0]+" ") {
			t.Errorf("tune --help lists --%s:\n%s", f.Names()[0], out)
		}
	}
	if strings.Contains(out, catEval) || !strings.Contains(out, "--trial-duration") {
		t.Errorf("tune --help: want the tuning flags and no %q section:\n%s", catEval, out)
	}
}

// TestTuneDirDefault: tune's default --tune-dir, written below the current
// folder, is no folder of this repository (./tune is the tune package's
// source: trials written there in a clone would mix with it) and is in
// .gitignore, as bench's bench-runs/ is.
func TestTuneDirDefault(t *testing.T) {
	var def string
	for _, f := range tuneCommand().Flags {
		if sf, ok := f.(*cli.StringFlag); ok && sf.Name == "tune-dir" {
			def = sf.Value
		}
	}
	if def == "" {
		t.Fatal("tune has no --tune-dir default")
	}
	root := filepath.Join("..", "..")
	if _, err := os.Stat(filepath.Join(root, def)); !os.IsNotExist(err) {
		t.Errorf("--tune-dir defaults to %q, a path the repository holds (stat: %v): trials would go into it", def, err)
	}
	if ignore := readFile(t, filepath.Join(root, ".gitignore")); !strings.Contains(ignore, "\n/"+def+"/\n") {
		t.Errorf(".gitignore does not list /%s/, tune's default --tune-dir:\n%s", def, ignore)
	}
}

// tuneOptionsOf parses a tune command line into the workflow's tune
// request, running nothing, and returns its search.
func tuneOptionsOf(t *testing.T, args ...string) (tune.Options, error) {
	t.Helper()
	app := newApp()
	var req workflow.TuneRequest
	var reqErr error
	for _, cmd := range app.Commands {
		if cmd.Name == "tune" {
			cmd.Action = func(c *cli.Context) error {
				req, reqErr = tuneRequest(c, zap.NewNop())
				return nil
			}
		}
	}
	if err := runApp(context.Background(), app, append([]string{"mlperf-go", "tune", "-b", "llama3_1-8b", "-d", "data.json"}, args...)); err != nil {
		t.Fatal(err)
	}
	if reqErr == nil && (req.Dir != "tune-runs" || req.RunsDir != "runs" || req.Progress == nil || req.Test.Benchmark != "llama3_1-8b") {
		t.Errorf("tune request: %+v", req)
	}
	return req.Search, reqErr
}

// TestTuneOptions: tune's flags reach the tune's options with the defaults
// tune --help states, and a malformed one is refused naming it.
//
// Not parallel: urfave/cli's runs share package-level flags.
func TestTuneOptions(t *testing.T) {
	o, err := tuneOptionsOf(t, "-s", "Server")
	if err != nil {
		t.Fatal(err)
	}
	if o.QPS != (tune.QPSSearch{TrialDuration: time.Minute, TrialMinQueries: tune.DefaultTrialMinQueries, MaxTrials: tune.DefaultMaxTrials, Tolerance: tune.DefaultTolerance}) ||
		o.StartFraction != defaultAutoQPSFraction || o.UserConf != "" ||
		o.Sweep.Levels != nil || o.Sweep.Plateau != tune.DefaultPlateau || o.Sweep.TrialDuration != time.Minute {
		t.Errorf("defaults: %+v", o)
	}
	o, err = tuneOptionsOf(t, "-s", "Offline", "--start-qps", "12.5", "--trial-duration", "30s", "--trial-min-queries", "600",
		"--max-trials", "4", "--tolerance", "0.1", "--write-user-conf", "u.conf", "--concurrency-sweep", "1, 4,16",
		"--max-sweep-concurrency", "64", "--plateau", "0.9")
	if err != nil {
		t.Fatal(err)
	}
	if o.QPS != (tune.QPSSearch{Start: 12.5, TrialDuration: 30 * time.Second, TrialMinQueries: 600, MaxTrials: 4, Tolerance: 0.1}) || o.UserConf != "u.conf" ||
		fmt.Sprint(o.Sweep.Levels) != "[1 4 16]" || o.Sweep.MaxConcurrency != 64 || o.Sweep.Plateau != 0.9 || o.Sweep.TrialDuration != 30*time.Second {
		t.Errorf("flags set: %+v", o)
	}
	for _, bad := range [][]string{{"--concurrency-sweep", "1,two"}, {"--concurrency-sweep", "4,0"}, {"--start-qps", "0"}} {
		if _, err := tuneOptionsOf(t, append([]string{"-s", "Server"}, bad...)...); err == nil || !strings.Contains(err.Error(), bad[0]) {
			t.Errorf("%q: want an error naming %s, got %v", bad, bad[0], err)
		}
	}
}
