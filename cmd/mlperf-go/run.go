package main

import (
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/urfave/cli/v2"
	"go.uber.org/zap"

	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/engine/metrics"
	"github.com/mlperf-go/mlperf-go/protocol"
	_ "github.com/mlperf-go/mlperf-go/protocol/all" // every API --api may name
	"github.com/mlperf-go/mlperf-go/run"
	"github.com/mlperf-go/mlperf-go/sut"
	"github.com/mlperf-go/mlperf-go/workflow"
)

const (
	catLoadGen  = "LoadGen"
	catEndpoint = "Endpoint"
	catSampling = "Sampling"
	catResults  = "Results and compliance"
	catDataset  = "Dataset"
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
counts. --results-dir files only a submittable run: VALID and, with --evaluate, scored as
passing; any other stays in its run folder, the reason printed (LoadGen's INVALID is filed
with --allow-unofficial-settings, to rehearse the workflow; ` + "`submission check`" + ` refuses it).

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
			&cli.StringFlag{Name: "api-key-env", Value: sut.DefaultAPIKeyEnv, Category: catEndpoint, Usage: "environment `VARIABLE` holding the API key (sent as a bearer token if set)"},
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
			&cli.BoolFlag{Name: "allow-unofficial-settings", Category: catResults, Usage: "with --results-dir, file a run whose settings cannot make a valid submission (min_duration, sample counts, Offline query size, accuracy over a subset) instead of refusing before it starts: for trying the workflow; mlperf-go submission check still refuses it"},
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
	req := runRequest(c, log)
	plan, err := workflow.Resolve(req)
	if err != nil {
		return err
	}
	out := workflow.Run(c.Context, plan)
	out.Print(c.App.Writer, c.App.ErrWriter)
	if out.Class == workflow.Passed {
		return nil
	}
	return exitError{exitCodes[out.Class], out.Err}
}

// exitCodes is the exit status of each way a run ends (run --help's "Exit
// codes").
var exitCodes = map[workflow.Class]int{
	workflow.Passed:      0,
	workflow.Failed:      1,
	workflow.Invalid:     3,
	workflow.Interrupted: 130,
}

// runRequest reads the run command's flags into the workflow's request,
// each flag read once; workflow.Resolve checks them.
func runRequest(c *cli.Context, log *zap.Logger) workflow.Request {
	return workflow.Request{
		Test: testRequest(c), ModeName: c.String("mode"), TargetQPS: given(c, "target-qps", c.String),
		TargetQPSFraction: c.Float64("target-qps-fraction"), MinDuration: given(c, "min-duration", c.Uint64),
		MinQueryCount: given(c, "min-query-count", c.Uint64), Quick: c.Bool("quick"), Launch: launchRequest(c),
		Compliance:      c.String("compliance"),
		OutputDir:       c.String("output-dir"),
		Overwrite:       c.Bool("overwrite"),
		RunsDir:         c.String("runs-dir"),
		ResultsDir:      c.String("results-dir"),
		System:          c.String("system"),
		Replace:         c.Bool("replace"),
		AllowUnofficial: c.Bool("allow-unofficial-settings"),
		Evaluate:        c.Bool("evaluate"),
		Eval:            evalSettings(c),
		AccuracyScript:  c.String("accuracy-script"),
		Record:          runRecord(c),
		Progress:        c.App.ErrWriter,
		Logger:          log,
	}
}

// runRecord is what the flags say of how a test was made, for the run
// record: the command line and the engine as declared (Session.Describe
// adds a launched one).
func runRecord(c *cli.Context) run.Record {
	return run.Record{Command: commandLine(c), Engine: c.String("engine"), EngineFlags: engineFlagValues(c), Quick: c.Bool("quick")}
}

// engineFlagValues is --engine-flag's values, one per flag as given.
func engineFlagValues(c *cli.Context) []string {
	if a, ok := c.Generic("engine-flag").(*engineArgs); ok && len(*a) > 0 {
		return append([]string(nil), *a...)
	}
	return nil
}

// testRequest reads the flags run and tune share (run.Request).
func testRequest(c *cli.Context) run.Request {
	return run.Request{
		Benchmark: c.String("benchmark"), Scenario: c.String("scenario"), Round: c.String("round"),
		Dataset: c.StringSlice("dataset"), Splits: c.StringSlice("dataset-split"), Endpoints: c.StringSlice("endpoint"),
		API: c.String("api"), Model: c.String("model"), UserConf: c.String("user-conf"), Settings: c.StringSlice("setting"),
		TotalSampleCount: c.Int("total-sample-count"), PerformanceSampleCount: c.Int("performance-sample-count"),
		Concurrency: c.Int("concurrency"), Timeout: c.Duration("timeout"), Stream: c.String("stream"),
		Guided: c.Bool("guided-decoding"), Trace: c.Bool("trace"), SkipPreflight: c.Bool("skip-preflight"),
		ProgressEvery: c.Duration("progress-interval"), PreflightTimeout: c.Duration("preflight-timeout"),
		MetricsEvery: c.Duration("engine-metrics-interval"), Progress: os.Stderr,
		APIKeyFile: c.String("api-key-file"), APIKeyEnv: c.String("api-key-env"),
		GenerationConfig: c.String("generation-config"), Sampling: samplingFlags(c),
		Resilience: resilienceRequest(c), Given: c.IsSet,
	}
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

// datasetHelp lists what --dataset takes for each benchmark, and for each
// variant with a dataset of its own (qwen3-vl's Interactive 8k set).
func datasetHelp() string {
	var parts []string
	for _, b := range benchmark.All() {
		parts = append(parts, b.Name+": "+b.Data.Help)
		for _, v := range b.Variants {
			if vb, err := benchmark.Lookup(v.Name); err == nil && vb.Data.Help != b.Data.Help {
				parts = append(parts, vb.Name+": "+vb.Data.Help)
			}
		}
	}
	return strings.Join(parts, "; ") + "; or, for any, a folder `mlperf-go dataset download` or `dataset synth` wrote"
}

// complianceHelp lists the compliance tests each benchmark takes.
func complianceHelp() string {
	var parts []string
	for _, b := range benchmark.All() {
		if tests := b.Submission.ComplianceTests(); len(tests) > 0 {
			parts = append(parts, strings.Join(tests, " or ")+" ("+b.Name+")")
		}
	}
	return strings.Join(parts, ", ")
}
