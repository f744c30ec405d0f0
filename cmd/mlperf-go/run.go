package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/urfave/cli/v2"
	"go.uber.org/zap"

	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/engine/metrics"
	"github.com/mlperf-go/mlperf-go/internal/dirwalk"
	"github.com/mlperf-go/mlperf-go/loadgen"
	"github.com/mlperf-go/mlperf-go/loadgen/mllog"
	"github.com/mlperf-go/mlperf-go/protocol"
	_ "github.com/mlperf-go/mlperf-go/protocol/all" // every API --api may name
	"github.com/mlperf-go/mlperf-go/record"
	"github.com/mlperf-go/mlperf-go/report"
	"github.com/mlperf-go/mlperf-go/results"
	"github.com/mlperf-go/mlperf-go/run"
	"github.com/mlperf-go/mlperf-go/submission/compliance"
	"github.com/mlperf-go/mlperf-go/submission/filing"
	"github.com/mlperf-go/mlperf-go/sut"
)

const (
	catLoadGen   = "LoadGen"
	catEndpoint  = "Endpoint"
	catSampling  = "Sampling"
	catResults   = "Results and compliance"
	catDataset   = "Dataset"
	defaultKeyEV = "OPENAI_API_KEY"
)

func runCommand() *cli.Command {
	return &cli.Command{
		Name:  "run",
		Usage: "run one LoadGen test of a benchmark against inference endpoints",
		Description: `Opens and checks the dataset, builds every request body once, and lets the official
LoadGen drive a pool of HTTP clients against the endpoint(s). LoadGen writes its own logs
(mlperf_log_summary.txt, mlperf_log_detail.txt, mlperf_log_accuracy.json) to --output-dir.

Settings come from LoadGen's built-in mlperf.conf, then --user-conf, then --setting lines
(any user.conf key, e.g. --setting target_qps=12 --setting min_duration=60000). The
user.conf LoadGen actually read is written next to the logs.

Every sample LoadGen issues is completed exactly once; a failed request completes with an
empty response and is listed in failures.jsonl. The outcome line says VALID only when
LoadGen said VALID (accuracy runs: finished) and no sample failed; otherwise INVALID with
the reason, or ABORTED. The run record mlperf_go_run.json carries the outcome and the
counts; --results-dir and ` + "`submission check`" + ` refuse runs with failed samples or
an abort (and ` + "`submission check`" + ` refuses LoadGen's INVALID).

After SIGINT/SIGTERM the test is aborted and the command exits within a few seconds, even
while LoadGen plays a Server schedule; the summary is renamed mlperf_log_summary.aborted.txt
and the verdicts rewritten to ABORTED; logs LoadGen had not finished are cut to whole lines
or removed, as the run record says.

A --compliance run is judged by its test's verification, as the submission checker judges it,
not by LoadGen's performance rules (its audit.config asks for a short run LoadGen may call
INVALID, shown as information): the verification's file (verify_accuracy.txt,
verify_output_len.txt) is written beside the logs and the outcome line says "TEST06 PASS" or
"TEST06 FAIL: " and the checks that failed. TEST07 is scored in Go against the run's dataset
(--tokenizer, …), or by --accuracy-script.

Exit codes: 0 VALID (compliance runs: the verification passed); 1 samples failed, the test was
aborted (--max-failures, a dead engine), a compliance verification failed or could not run, or
another error; 3 LoadGen reported INVALID (performance runs); 130 interrupted by a signal.

Example:
  mlperf-go run --benchmark NAME --scenario Offline --mode accuracy \
    --dataset ./data --endpoint http://gpu-node:8000 --output-dir out/acc --evaluate`,
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "benchmark", Aliases: []string{"b"}, Required: true, Usage: "benchmark: " + strings.Join(benchmark.Names(), ", ")},
			&cli.StringFlag{Name: "scenario", Aliases: []string{"s"}, Value: "Offline", Category: catLoadGen, Usage: "scenario: Offline, Server, Interactive (LoadGen's Server scenario of the benchmark's *-interactive model, filed under Interactive/), SingleStream or MultiStream"},
			&cli.StringFlag{Name: "mode", Aliases: []string{"m"}, Value: "performance", Category: catLoadGen, Usage: "LoadGen mode: performance, accuracy, find-peak-performance or submission; or both: accuracy (evaluated) then performance into <output-dir>/accuracy and <output-dir>/performance"},
			&cli.StringFlag{Name: "user-conf", Category: catLoadGen, Usage: "user.conf `FILE` applied over LoadGen's mlperf.conf"},
			&cli.StringSliceFlag{Name: "setting", Category: catLoadGen, Usage: "extra user.conf `KEY=VALUE` for this benchmark and scenario (repeatable), e.g. target_qps=10"},
			&cli.StringFlag{Name: "target-qps", Category: catLoadGen, DefaultText: "from mlperf.conf/user.conf", Usage: "shorthand for --setting target_qps=`QPS`; auto: --target-qps-fraction of the newest valid Offline samples/s of this benchmark in --runs-dir (and --results-dir's --system)"},
			&cli.Float64Flag{Name: "target-qps-fraction", Value: defaultAutoQPSFraction, Category: catLoadGen, Usage: "with --target-qps auto, the `FRACTION` of the Offline throughput to target"},
			&cli.Uint64Flag{Name: "min-duration", Category: catLoadGen, DefaultText: "from mlperf.conf/user.conf", Usage: "shorthand for --setting min_duration=`MS` (milliseconds)"},
			&cli.Uint64Flag{Name: "min-query-count", Category: catLoadGen, DefaultText: "from mlperf.conf/user.conf", Usage: "shorthand for --setting min_query_count=`N`"},
			&cli.IntFlag{Name: "total-sample-count", Category: catLoadGen, DefaultText: "official size", Usage: "cap the QSL at `N` samples (the QSL holds min(dataset, N))"},
			&cli.IntFlag{Name: "performance-sample-count", Category: catLoadGen, DefaultText: "all", Usage: "samples loaded at once in performance runs (performance_sample_count_override wins)"},
			quickFlag(),
			&cli.BoolFlag{Name: "trace", Category: catLoadGen, Usage: "also write LoadGen's trace log (costs CPU at high QPS)"},
			&cli.StringSliceFlag{Name: "dataset", Aliases: []string{"d"}, Required: true, Category: catDataset, Usage: "dataset `PATH` (repeatable where the benchmark reads several): " + datasetHelp()},
			&cli.StringSliceFlag{Name: "dataset-split", Category: catDataset, Usage: "dataset splits to use, in order, where the benchmark's dataset has splits (default: its official ones)"},
			&cli.StringSliceFlag{Name: "endpoint", Aliases: []string{"e"}, Value: cli.NewStringSlice("http://127.0.0.1:8000"), Category: catEndpoint, Usage: "server base `URL`, with or without /v1 (repeatable: requests go to the least busy)"},
			&cli.StringFlag{Name: "api", Category: catEndpoint, Usage: "endpoint API: " + strings.Join(protocol.Names(), ", ") + " (default: the benchmark's)"},
			&cli.StringFlag{Name: "model", Category: catEndpoint, Usage: "served model `NAME` sent in requests (default: the benchmark's reference model)"},
			&cli.StringFlag{Name: "api-key-env", Value: defaultKeyEV, Category: catEndpoint, Usage: "environment `VARIABLE` holding the API key (sent as a bearer token if set)"},
			&cli.StringFlag{Name: "api-key-file", Category: catEndpoint, Usage: "`FILE` holding the API key (takes precedence over --api-key-env)"},
			&cli.IntFlag{Name: "concurrency", Aliases: []string{"c"}, Value: sut.DefaultConcurrency, Category: catEndpoint, Usage: "maximum requests in flight across all endpoints"},
			&cli.DurationFlag{Name: "timeout", Category: catEndpoint, DefaultText: "2h chat, 20m others", Usage: "per-request timeout (the references' defaults)"},
			roundFlag(catSampling),
			&cli.StringFlag{Name: "stream", Value: "auto", Category: catEndpoint, Usage: "stream responses: auto (when LoadGen measures a first token: use_token_latencies on, outside Offline), true or false"},
			&cli.BoolFlag{Name: "guided-decoding", Category: catSampling, Usage: "send the answer's JSON schema as response_format (benchmarks with structured answers)"},
			&cli.StringFlag{Name: "generation-config", Category: catSampling, Usage: "JSON `FILE` of sampling parameters; optional \"accuracy\"/\"performance\" objects override per mode"},
			&cli.Float64Flag{Name: "temperature", Category: catSampling, DefaultText: "not sent", Usage: "sampling temperature"},
			&cli.Float64Flag{Name: "top-p", Category: catSampling, DefaultText: "not sent", Usage: "nucleus sampling probability"},
			&cli.IntFlag{Name: "top-k", Category: catSampling, DefaultText: "not sent", Usage: "top-k sampling"},
			&cli.Float64Flag{Name: "min-p", Category: catSampling, DefaultText: "not sent", Usage: "min-p sampling"},
			&cli.Float64Flag{Name: "repetition-penalty", Category: catSampling, DefaultText: "not sent", Usage: "repetition penalty"},
			&cli.Float64Flag{Name: "frequency-penalty", Category: catSampling, DefaultText: "not sent", Usage: "frequency penalty"},
			&cli.Float64Flag{Name: "presence-penalty", Category: catSampling, DefaultText: "not sent", Usage: "presence penalty"},
			&cli.IntFlag{Name: "max-tokens", Category: catSampling, DefaultText: "not sent", Usage: "maximum output tokens (max_tokens / max_new_tokens)"},
			&cli.StringFlag{Name: "output-dir", Aliases: []string{"o"}, Category: catResults, DefaultText: "a new folder under --runs-dir", Usage: "`DIR` for LoadGen's logs, the user.conf used and the report (refused if it holds files, unless --overwrite)"},
			&cli.BoolFlag{Name: "evaluate", Category: catResults, Usage: "after an accuracy run, evaluate it (scored in Go and accuracy.txt written where the benchmark can be; else log checks and the official evaluator command)"},
			&cli.StringFlag{Name: "results-dir", Category: catResults, Usage: "file the run into the submission results tree `DIR`/<system>/<benchmark>/<Scenario>/…"},
			&cli.StringFlag{Name: "system", Category: catResults, Usage: "system `NAME` for --results-dir"},
			&cli.BoolFlag{Name: "allow-unofficial-settings", Category: catResults, Usage: "with --results-dir, file a run whose settings cannot make a valid submission (min_duration, sample counts, Offline query size, accuracy over a subset) instead of refusing before it starts: for trying the workflow; `submission check` still refuses it"},
			&cli.BoolFlag{Name: "replace", Category: catResults, Usage: "with --results-dir, move an earlier run of the same kind aside instead of refusing"},
			&cli.StringFlag{Name: "compliance", Category: catResults, Usage: "run compliance `TEST`: " + complianceHelp()},
			&cli.StringFlag{Name: "accuracy-script", Category: catResults, DefaultText: "scored in Go", Usage: "TEST07: official accuracy `COMMAND` template, {accuracy_log} replaced by the log path, to score the run with instead of mlperf-go's scorer"},
			&cli.StringFlag{Name: "engine", Category: catResults, Usage: "serving engine and version for the submission README, e.g. \"vLLM 0.12.0\" (default with --launch: its kind)"},
			&cli.GenericFlag{Name: "engine-flag", Category: catResults, Value: &engineArgs{}, Usage: "engine command-line `FLAG` for the submission README (repeatable, one argument each, commas kept: --engine-flag='--limit-mm-per-prompt={\"image\":1,\"video\":0}'; default with --launch: the launched command line)"},
			&cli.DurationFlag{Name: "engine-metrics-interval", Value: metrics.DefaultEvery, Category: catEndpoint, Usage: "how often to scrape each endpoint's Prometheus /metrics into engine_metrics.jsonl for the report (0 disables)"},
			&cli.BoolFlag{Name: "skip-preflight", Category: catEndpoint, Usage: "skip the checks before the test (every endpoint answers /health or /v1/models, lists --model, and answers one short probe request), for servers without these routes"},
			&cli.DurationFlag{Name: "preflight-timeout", Value: run.DefaultPreflightTimeout, Category: catEndpoint, Usage: fmt.Sprintf("how long preflight's probe request (sample 0, asking for %d tokens) may take: a cold engine's first request can take minutes", run.ProbeTokens)},
			&cli.DurationFlag{Name: "progress-interval", Value: 10 * time.Second, Usage: "how often to print a progress line when stderr is not a terminal (a terminal gets a live bar); 0 disables progress"},
		}, append(append(append(engineFlags(), resilienceFlags()...), historyFlags()...), evalFlags()...)...),
		Action: runAction,
	}
}

func runAction(c *cli.Context) error {
	log, err := newLogger(c)
	if err != nil {
		return err
	}
	defer log.Sync() //nolint:errcheck // stderr
	o, err := runOptions(c, log)
	if err != nil {
		return err
	}
	runsRoot, err := chooseOutputDir(c, &o)
	if err != nil {
		return err
	}
	// What this command makes of the output path goes again if no test
	// ran (a compliance folder, a runs folder): a retry then starts clean.
	defer record.Reserve(o.OutputDir).ReleaseUnused()
	if err := precheckFiling(c, o); err != nil {
		return err
	}
	// A launched engine loads its model while the dataset is opened (here,
	// not in Run, so --evaluate scores against the same open dataset).
	sess, err := openSession(c, &o)
	if err != nil {
		return err
	}
	defer sess.Close()
	test := c.String("compliance")
	if test != "" {
		if err := dirwalk.MkdirAll(o.OutputDir, 0o755); err != nil {
			return fmt.Errorf("creating --output-dir: %w", err)
		}
		if err := precheckCompliance(c, o, test); err != nil {
			return err
		}
		cleanup, err := compliance.WriteAuditConfig(o.OutputDir, test, o.Benchmark.Name)
		if err != nil {
			return err
		}
		defer cleanup() //nolint:errcheck // best effort; reported below if it stays
		o.AuditConfig = filepath.Join(o.OutputDir, "audit.config")
	}

	ctx, stop := interruptible(c, log)
	defer stop()
	runCtx, err := whenReady(c, sess, ctx)
	if err != nil {
		return err
	}
	rec := runRecord(c, test, sess)
	if isModeBoth(c) {
		return runBoth(c, ctx, runCtx, o, rec, runsRoot)
	}
	return runTest(c, ctx, runCtx, o, rec, runsRoot)
}

// runRecord is what the run record says of how a test was made, beyond
// the options: the command line, the compliance test and the engine. A
// launched engine is described by its kind and the whole command line it
// was started with, unless --engine and --engine-flag say otherwise.
func runRecord(c *cli.Context, compliance string, sess *run.Session) run.Record {
	rec := run.Record{Command: commandLine(c), Compliance: compliance, Engine: c.String("engine"), EngineFlags: engineFlagValues(c), Quick: c.Bool("quick")}
	if kind, argv, ok := sess.Engine(); ok {
		if rec.Engine == "" {
			rec.Engine = string(kind)
		}
		if !c.IsSet("engine-flag") {
			rec.EngineFlags = argv
		}
	}
	return rec
}

// engineFlagValues is --engine-flag's values, one per flag as given.
func engineFlagValues(c *cli.Context) []string {
	if a, ok := c.Generic("engine-flag").(*engineArgs); ok && len(*a) > 0 {
		return append([]string(nil), *a...)
	}
	return nil
}

// runTest runs one LoadGen test with the endpoints ready and the dataset
// open, then reports, evaluates and files it. ctx is the user's (cancelled
// by Ctrl-C); runCtx also ends if a launched engine dies.
func runTest(c *cli.Context, ctx, runCtx context.Context, o run.Options, rec run.Record, runsRoot string) error {
	rep, runErr, left := run.Abortable(ctx, runCtx, o)
	if left != nil {
		// LoadGen still plays its schedule (Server runs to min_duration):
		// the folder is marked and the process leaves without it.
		if err := run.WriteRunInfo(o, left, rec); err != nil {
			fmt.Fprintln(c.App.ErrWriter, "mlperf-go:", err)
		}
		printOutcome(c, left, nil)
		writeReport(c, left.LogDir)
		return exitError{130, fmt.Errorf("interrupted: the test was aborted; LoadGen's unfinished logs were removed (%s); the record is %s", strings.Join(left.RemovedLogs, ", "), filepath.Join(o.OutputDir, record.File))}
	}
	if rep == nil {
		// The test never started: nothing to report or record.
		if ctx.Err() != nil {
			return exitError{130, errors.New("interrupted before the test started")}
		}
		return runErr
	}
	// A compliance run is judged by its verification, before anything
	// reports its outcome.
	var verdict *record.Compliance
	if rec.Compliance != "" && runErr == nil && ctx.Err() == nil {
		verdict = verifyCompliance(c, ctx, o, rep, rec.Compliance)
	}
	printReport(c, o, rep, verdict)
	if err := run.WriteRunInfo(o, rep, rec); err != nil {
		return err
	}
	if verdict != nil {
		if err := recordCompliance(rep.LogDir, verdict); err != nil {
			return err
		}
	}
	// An aborted run is reported too, marked ABORTED: what it did before
	// the stop is worth a look, and nothing in it reads as a result.
	writeReport(c, rep.LogDir)
	writeRunsIndex(c, runsRoot, o.OutputDir)
	if ctx.Err() != nil {
		return exitError{130, errors.New("interrupted: the test was aborted; the output folder is marked ABORTED in " + filepath.Join(o.OutputDir, record.File))}
	}
	if err := diedDuringRun(runCtx, o.OutputDir); err != nil {
		return err
	}
	if rep.Outcome == record.Aborted {
		if rep.Stats.Failed > 0 {
			printFailures(c, rep)
		}
		return exitError{1, runErr}
	}

	evalErr := error(nil)
	if c.Bool("evaluate") {
		_, evalErr = evaluateRun(c, o, rep)
	}
	if dir := c.String("results-dir"); dir != "" {
		// runErr without failed samples is a LoadGen log that is missing or
		// damaged: such a run cannot be rechecked, so it is not filed either.
		if rep.Stats.Failed > 0 || runErr != nil || (verdict != nil && !verdict.Pass) {
			fmt.Fprintf(c.App.ErrWriter, "mlperf-go: not filed into --results-dir: the run is %s (%s)\n", rep.Outcome, rep.OutcomeReason)
		} else if err := fileRun(c, o, rep, rec.Compliance); err != nil {
			return errors.Join(runErr, err)
		}
	}
	if runErr != nil {
		printFailures(c, rep)
		return exitError{1, runErr}
	}
	if evalErr != nil {
		return exitError{1, evalErr}
	}
	if verdict != nil && !verdict.Pass {
		return complianceError(rep, verdict)
	}
	if rep.Outcome == record.Invalid {
		return exitError{3, fmt.Errorf("LoadGen result is %s: see the recommendations in %s", rep.Summary.Result, filepath.Join(rep.LogDir, mllog.SummaryFile))}
	}
	return nil
}

// runOptions turns the run command's flags into runner options, checking
// each.
func runOptions(c *cli.Context, log *zap.Logger) (run.Options, error) {
	mode, err := parseMode(firstMode(c))
	if err != nil {
		return run.Options{}, err
	}
	o, err := testOptions(c, log, mode)
	if err != nil {
		return o, err
	}
	o.OutputDir = c.String("output-dir")
	// A compliance run's settings come from its audit.config.
	o.SubmissionGrade = c.String("results-dir") != "" && c.String("compliance") == "" && !c.Bool("allow-unofficial-settings")
	if c.IsSet("target-qps") {
		qps, err := targetQPS(c, o.Benchmark)
		if err != nil {
			return o, err
		}
		o.Settings = append(o.Settings, fmt.Sprintf("target_qps=%g", qps))
	}
	if c.IsSet("min-duration") {
		o.Settings = append(o.Settings, fmt.Sprintf("min_duration=%d", c.Uint64("min-duration")))
	}
	if c.IsSet("min-query-count") {
		o.Settings = append(o.Settings, fmt.Sprintf("min_query_count=%d", c.Uint64("min-query-count")))
	}
	if c.String("results-dir") != "" && c.String("system") == "" {
		return o, errors.New("--results-dir needs --system NAME (the systems/<NAME>.json the results belong to)")
	}
	if err := applyQuick(c, &o); err != nil {
		return o, err
	}
	return o, nil
}

// testOptions turns the flags that say what to test and how to reach the
// endpoints (the flags run and tune share) into runner options for a test
// in mode (which picks a --generation-config's per-mode sampling): all but
// the output folder and the run's own settings.
func testOptions(c *cli.Context, log *zap.Logger, mode loadgen.Mode) (run.Options, error) {
	b, err := benchmark.Lookup(c.String("benchmark"))
	if err != nil {
		return run.Options{}, err
	}
	scen, b, err := parseRunScenario(c.String("scenario"), b)
	if err != nil {
		return run.Options{}, err
	}
	o := run.Options{
		Benchmark:              b,
		Scenario:               scen,
		Mode:                   mode,
		Dataset:                c.StringSlice("dataset"),
		Splits:                 c.StringSlice("dataset-split"),
		Endpoints:              c.StringSlice("endpoint"),
		Model:                  c.String("model"),
		UserConf:               c.String("user-conf"),
		Settings:               c.StringSlice("setting"),
		TotalSampleCount:       c.Int("total-sample-count"),
		PerformanceSampleCount: c.Int("performance-sample-count"),
		Concurrency:            c.Int("concurrency"),
		Timeout:                c.Duration("timeout"),
		Guided:                 c.Bool("guided-decoding"),
		EnableTrace:            c.Bool("trace"),
		Logger:                 log,
		ProgressEvery:          c.Duration("progress-interval"),
		SkipPreflight:          c.Bool("skip-preflight"),
		PreflightTimeout:       c.Duration("preflight-timeout"),
	}
	if o.ProgressEvery > 0 {
		o.Progress = os.Stderr
	}
	o.EngineMetricsEvery = c.Duration("engine-metrics-interval")
	if a := c.String("api"); a != "" {
		if o.API, err = protocol.Lookup(a); err != nil {
			return o, fmt.Errorf("--api: %w", err)
		}
	}
	switch s := c.String("stream"); s {
	case "auto":
	case "true", "false":
		v := s == "true"
		o.Stream = &v
	default:
		return o, fmt.Errorf("--stream %q: use auto, true or false", s)
	}
	if o.Round, err = flagRound(c, log); err != nil {
		return o, err
	}
	if o.APIKey, err = apiKey(c); err != nil {
		return o, err
	}
	if err := o.SetSampling(c.String("generation-config"), samplingFlags(c)); err != nil {
		return o, err
	}
	if err := resilienceOptions(c, &o); err != nil {
		return o, err
	}
	return o, nil
}

func parseMode(s string) (loadgen.Mode, error) {
	switch strings.ToLower(s) {
	case "performance", "performanceonly":
		return loadgen.PerformanceOnly, nil
	case "accuracy", "accuracyonly":
		return loadgen.AccuracyOnly, nil
	case "find-peak-performance", "findpeakperformance":
		return loadgen.FindPeakPerformance, nil
	case "submission", "submissionrun":
		return loadgen.SubmissionRun, nil
	}
	return 0, fmt.Errorf("--mode %q: use performance, accuracy, find-peak-performance or submission", s)
}

// apiKey reads the API key from a file or an environment variable; a key
// is never taken as a flag value, where it would show in ps and shell
// history.
func apiKey(c *cli.Context) (string, error) {
	if f := c.String("api-key-file"); f != "" {
		b, err := os.ReadFile(f)
		if err != nil {
			return "", fmt.Errorf("--api-key-file: %w", err)
		}
		k := strings.TrimSpace(string(b))
		if k == "" {
			return "", fmt.Errorf("--api-key-file %s is empty", f)
		}
		return k, nil
	}
	return os.Getenv(c.String("api-key-env")), nil
}

// samplingFlags returns the sampling flags that are set, by their wire
// names: the last generation-config layer (run.Options.SetSampling).
func samplingFlags(c *cli.Context) map[string]any {
	flags := map[string]any{}
	for flag, key := range map[string]string{
		"temperature": "temperature", "top-p": "top_p", "top-k": "top_k", "min-p": "min_p",
		"repetition-penalty": "repetition_penalty", "frequency-penalty": "frequency_penalty",
		"presence-penalty": "presence_penalty", "max-tokens": "max_tokens",
	} {
		if !c.IsSet(flag) {
			continue
		}
		if flag == "top-k" || flag == "max-tokens" {
			flags[key] = c.Int(flag)
		} else {
			flags[key] = c.Float64(flag)
		}
	}
	return flags
}

func printReport(c *cli.Context, o run.Options, rep *run.Report, verdict *record.Compliance) {
	w := c.App.Writer
	result := rep.Summary.Result
	if rep.Settings.Mode == loadgen.AccuracyOnly {
		result = "accuracy run (see " + mllog.AccuracyFile + ")"
	}
	fmt.Fprintln(w)
	printOutcome(c, rep, verdict)
	if verdict != nil {
		printCompliance(c, rep, verdict)
	} else {
		fmt.Fprintf(w, "  %-42s %s\n", "LoadGen result", orDash(result))
	}
	for _, m := range rep.Summary.Metrics {
		// LoadGen has no Interactive scenario: it runs the Interactive
		// variant as Server, which is not what the user asked for by name.
		if m[0] == "Scenario" && o.SubmissionScenario() != m[1] {
			m[1] = o.SubmissionScenario() + " (LoadGen's " + m[1] + " scenario)"
		}
		fmt.Fprintf(w, "  %-42s %s\n", m[0], m[1])
	}
	// The LLM Server limits are on p99 TTFT and TPOT, which LoadGen prints
	// after the result line; show them in milliseconds.
	for _, l := range []struct{ key, label string }{
		{"99.00 percentile first token latency (ns)", "p99 time to first token"},
		{"99.00 percentile time to output token (ns)", "p99 time per output token"},
	} {
		if v, err := strconv.ParseFloat(rep.Summary.Values[l.key], 64); err == nil {
			fmt.Fprintf(w, "  %-42s %.2f ms\n", l.label, v/1e6)
		}
	}
	s := rep.Stats
	fmt.Fprintf(w, "  %-42s %d issued, %d completed, %d failed\n", "Samples", s.Issued, s.Completed, s.Failed)
	if s.OutputTokens > 0 {
		fmt.Fprintf(w, "  %-42s %d\n", "Output tokens", s.OutputTokens)
	}
	if s.Retries > 0 {
		fmt.Fprintf(w, "  %-42s %d (%s)\n", "Requests sent again (retries)", s.Retries, record.Counts(s.RetriesByCause))
	}
	fmt.Fprintf(w, "  %-42s %s\n", "Test duration", rep.Elapsed.Round(time.Millisecond))
	fmt.Fprintf(w, "  %-42s %s\n", "Logs", rep.LogDir)
}

// printOutcome prints the run's verdict, the line to trust: VALID only
// when LoadGen said VALID and no sample failed; for a compliance run its
// test's verdict ("TEST06 PASS", "TEST06 FAIL: …").
func printOutcome(c *cli.Context, rep *run.Report, verdict *record.Compliance) {
	w := c.App.Writer
	if verdict != nil && rep.Verifiable() {
		fmt.Fprintf(w, "=== Outcome: %s ===\n", verdict.Summary())
		return
	}
	if rep.Outcome == record.Valid {
		fmt.Fprintf(w, "=== Outcome: VALID ===\n")
		return
	}
	fmt.Fprintf(w, "=== Outcome: %s: %s ===\n", rep.Outcome, rep.OutcomeReason)
	for name, to := range rep.RenamedLogs {
		fmt.Fprintf(w, "  %-42s renamed to %s\n", name, to)
	}
	for _, name := range rep.RemovedLogs {
		fmt.Fprintf(w, "  %-42s removed (unfinished)\n", name)
	}
}

func printFailures(c *cli.Context, rep *run.Report) {
	w := c.App.ErrWriter
	s := rep.Stats
	fmt.Fprintf(w, "\n%d sample(s) failed:\n", s.Failed)
	for reason, n := range s.FailuresByReason {
		fmt.Fprintf(w, "  %-20s %d\n", reason, n)
	}
	for _, f := range s.FirstFailures {
		fmt.Fprintf(w, "  sample %d: %s: %s\n", f.Index, f.Reason, f.Message)
	}
	if int64(len(s.FirstFailures)) < s.Failed {
		fmt.Fprintf(w, "  … and %d more\n", s.Failed-int64(len(s.FirstFailures)))
	}
	fmt.Fprintf(w, "  every failed sample is listed in %s\n", filepath.Join(rep.LogDir, record.FailuresFile))
	if s.Stopped != "" {
		fmt.Fprintf(w, "  the test was stopped early: %s (see --max-failures)\n", s.Stopped)
	}
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// precheckFiling makes, before the test, the checks filing into
// --results-dir will make after it (an earlier run in place, another
// user.conf filed for the scenario), for each test the command runs.
func precheckFiling(c *cli.Context, o run.Options) error {
	dir := c.String("results-dir")
	if dir == "" {
		return nil
	}
	conf, err := o.UserConfText()
	if err != nil {
		return err
	}
	kinds := []record.Kind{record.KindPerformance}
	switch {
	case c.String("compliance") != "":
		kinds = []record.Kind{record.Kind(c.String("compliance"))}
	case isModeBoth(c):
		kinds = []record.Kind{record.KindAccuracy, record.KindPerformance}
	case o.Mode == loadgen.AccuracyOnly:
		kinds = []record.Kind{record.KindAccuracy}
	}
	for _, k := range kinds {
		if err := filing.Precheck(filing.RunRecord{ResultsDir: dir, System: c.String("system"), Benchmark: o.Benchmark.Name,
			Scenario: o.SubmissionScenario(), Kind: k, Replace: c.Bool("replace")}, conf); err != nil {
			return fmt.Errorf("--results-dir: %w (checked before the test, so no run is wasted)", err)
		}
	}
	return nil
}

// fileRun files the run into the results tree, a compliance run with its
// verification's file (written beside its logs by verifyCompliance).
func fileRun(c *cli.Context, o run.Options, rep *run.Report, test string) error {
	dir, err := filing.FileRun(filing.RunRecord{
		ResultsDir: c.String("results-dir"),
		System:     c.String("system"),
		Benchmark:  o.Benchmark.Name,
		Scenario:   o.SubmissionScenario(),
		Kind:       rep.Kind(test),
		LogDir:     rep.LogDir,
		UserConf:   rep.UserConf,
		Command:    commandLine(c),
		Replace:    c.Bool("replace"),
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(c.App.Writer, "  %-42s %s\n", "Filed as", dir)
	return nil
}

// evaluateRun evaluates an accuracy run's log next to it (run --evaluate).
func evaluateRun(c *cli.Context, o run.Options, rep *run.Report) (*record.Accuracy, error) {
	if rep.Settings.Mode != loadgen.AccuracyOnly {
		// --mode both turns --evaluate on for its accuracy test; only a
		// user who asked for it on a performance run needs to be told.
		if !isModeBoth(c) {
			fmt.Fprintln(c.App.ErrWriter, "--evaluate applies to accuracy runs; skipped")
		}
		return nil, nil
	}
	eo := benchmark.EvalOptions{Benchmark: o.Benchmark, Out: filepath.Join(rep.LogDir, record.AccuracyTxtFile), Round: o.Round,
		Interactive: o.SubmissionScenario() == benchmark.ScenarioInteractive}
	if err := evalOptions(c, &eo); err != nil {
		return nil, err
	}
	v, err := evaluate(c, o.Data, filepath.Join(rep.LogDir, mllog.AccuracyFile), eo, o.SubmissionScenario())
	// The report drawn before the evaluation lacks the verdict.
	writeReport(c, rep.LogDir)
	return v, err
}

// interruptible returns a context cancelled by the first Ctrl-C or SIGTERM,
// which aborts the test: LoadGen then completes every outstanding sample
// with an empty response and writes its logs, but in the Server scenario it
// still plays its schedule to the end of min_duration, so runAction leaves
// without it after run.AbortGrace (run.Abortable). A second signal exits
// at once.
func interruptible(c *cli.Context, log *zap.Logger) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(c.Context)
	sig := make(chan os.Signal, 2)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case s := <-sig:
			log.Warn("interrupted: aborting the test; every outstanding sample is completed empty, and the output folder is marked ABORTED. Press Ctrl-C again to exit now.", zap.Stringer("signal", s))
			cancel(fmt.Errorf("interrupted by %s", signalName(s)))
		case <-done:
			return
		}
		select {
		case <-sig:
			fmt.Fprintln(os.Stderr, "mlperf-go: interrupted twice; exiting without waiting for LoadGen (its logs are incomplete)")
			os.Exit(130)
		case <-done:
		}
	}()
	return ctx, func() { signal.Stop(sig); close(done); cancel(nil) }
}

// signalName names a signal as people know it: SIGTERM (what Slurm and
// systemd send), SIGINT (Ctrl-C); Go's own strings are "terminated" and
// "interrupt".
func signalName(s os.Signal) string {
	switch s {
	case syscall.SIGTERM:
		return "SIGTERM"
	case os.Interrupt:
		return "SIGINT (Ctrl-C)"
	}
	return s.String()
}

// writeReport writes results.json, report.html and report.md beside the
// logs. A report that cannot be written is said, but does not change the
// run's outcome: the logs are LoadGen's and stay the authority.
func writeReport(c *cli.Context, dir string) {
	res, err := report.WriteRun(dir)
	if err != nil {
		fmt.Fprintf(c.App.ErrWriter, "mlperf-go: no report for this run: %v (retry with `mlperf-go report %s`)\n", err, dir)
		return
	}
	printReasons(c, res)
	fmt.Fprintf(c.App.Writer, "  %-42s %s\n", "Report", filepath.Join(dir, record.ReportHTMLFile))
}

// printReasons says why a run is not valid, one finding a line, as
// results.json holds them (min_duration not met, how many more queries
// early stopping needs, which samples failed), so the console answers the
// first question an INVALID raises without opening a file.
func printReasons(c *cli.Context, res *results.Results) {
	if res == nil || len(res.Outcome.Reasons) == 0 {
		return
	}
	fmt.Fprintf(c.App.Writer, "  %-42s %s\n", "Why "+strings.ToUpper(res.Outcome.Status), res.Outcome.Reasons[0])
	for _, r := range res.Outcome.Reasons[1:] {
		fmt.Fprintf(c.App.Writer, "  %-42s %s\n", "", r)
	}
}

// datasetHelp lists what --dataset takes for each benchmark.
func datasetHelp() string {
	var parts []string
	for _, b := range benchmark.All() {
		parts = append(parts, b.Name+": "+b.DatasetHelp)
	}
	return strings.Join(parts, "; ") + "; or, for any, a `mlperf-go dataset download` folder"
}

// complianceHelp lists the compliance tests each benchmark takes.
func complianceHelp() string {
	var parts []string
	for _, b := range benchmark.All() {
		var tests []string
		for t := range b.Compliance {
			tests = append(tests, t)
		}
		if len(tests) == 0 {
			continue
		}
		sort.Strings(tests)
		parts = append(parts, strings.Join(tests, " or ")+" ("+b.Name+")")
	}
	return strings.Join(parts, ", ")
}

// parseRunScenario reads --scenario. Interactive is not a LoadGen scenario:
// it runs LoadGen's Server scenario under the benchmark's Interactive
// variant (its *-interactive model name in mlperf.conf, with that name's
// TTFT/TPOT limits), so it returns Server and that variant.
func parseRunScenario(name string, b benchmark.Benchmark) (loadgen.Scenario, benchmark.Benchmark, error) {
	if strings.EqualFold(name, "Interactive") {
		iv, err := b.InteractiveVariant()
		if err != nil {
			return 0, b, fmt.Errorf("--scenario Interactive: %w", err)
		}
		return loadgen.Server, iv, nil
	}
	scen, err := loadgen.ParseScenario(name)
	if err != nil {
		return 0, b, fmt.Errorf("--scenario: %w (or Interactive)", err)
	}
	return scen, b, nil
}
