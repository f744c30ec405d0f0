package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/mlperf-go/mlperf-go/bench"
	"github.com/mlperf-go/mlperf-go/internal/buildinfo"
	"github.com/mlperf-go/mlperf-go/internal/progress"
	"github.com/mlperf-go/mlperf-go/protocol"
	"github.com/mlperf-go/mlperf-go/record"
	"github.com/mlperf-go/mlperf-go/sut"
)

const (
	catWorkload = "Workload"
	catLoad     = "Load"
	catOutput   = "Output"
)

// benchCommand is `mlperf-go bench`: the serving benchmark (package
// bench), with DashInfer-VLM's and vllm bench serve's flag names as
// aliases where they mean the same.
func benchCommand() *cli.Command {
	return &cli.Command{
		Name:  "bench",
		Usage: "serving benchmark without LoadGen: throughput, goodput and latency percentiles, A/B across targets",
		Description: `Sends one request set to each --target at each load point and reports request and token
throughput, goodput against --slo and streaming TTFT, TPOT, inter-token and end-to-end
latency percentiles, then a table comparing the targets (QPS and speedup over the first).

Workloads: DashInfer-VLM's conversation JSONL (--prompt-file) with --image-folder, as its
benchmark_openai_api.py builds them (its flag names work as written); mlcommons/endpoints'
agentic replay (--agentic); a registered benchmark's dataset (--benchmark with --dataset);
otherwise synthetic requests (--input-len, --images, --image-size). Lengths and counts take
DashInfer's ranges: uniform in [mean - range/2, mean + range/2].

Writes results.json, requests-<target>-<load>.jsonl and report.html into --out.
'mlperf-go bench compare [--html DIR] DIR|results.json ...' prints the table over saved runs.`,
		Flags:       benchFlags(),
		Action:      benchAction,
		Subcommands: []*cli.Command{benchCompareCommand()},
	}
}

// benchRunsDir is where bench writes without --out, below the current
// folder (.gitignore lists it, for runs from a checkout).
const benchRunsDir = "bench-runs"

func benchFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringSliceFlag{Name: "target", Aliases: []string{"t"}, Category: catEndpoint, Usage: "`NAME=URL` of an endpoint under test (repeat for A/B; URL may be several, comma-separated)"},
		&cli.StringSliceFlag{Name: "endpoint", Aliases: []string{"e", "base-url"}, Category: catEndpoint, Usage: "endpoint `URL` (a target named after its host)"},
		&cli.StringFlag{Name: "api", Value: "openai-chat", Category: catEndpoint, Usage: "endpoint API: " + strings.Join(protocol.Names(), ", ") + " (a --benchmark defaults to its own)"},
		&cli.StringFlag{Name: "model", Category: catEndpoint, Usage: "served model `NAME` requests carry (default: a --benchmark's, else none)"},
		&cli.StringFlag{Name: "api-key-env", Value: sut.DefaultAPIKeyEnv, Category: catEndpoint, Usage: "environment `VARIABLE` holding the API key"},
		&cli.StringFlag{Name: "api-key-file", Category: catEndpoint, Usage: "`FILE` holding the API key"},
		&cli.DurationFlag{Name: "timeout", Category: catEndpoint, DefaultText: "the API's", Usage: "bound on each request, a `DURATION` such as 10m"},
		&cli.BoolFlag{Name: "skip-preflight", Category: catEndpoint, Usage: "skip the check, before anything is sent, that every target answers /health or /v1/models and lists --model"},

		&cli.StringFlag{Name: "prompt-file", Category: catWorkload, Usage: "DashInfer conversation `JSONL` (InternVL/LLaVA records with <image> placeholders)"},
		&cli.StringFlag{Name: "image-folder", Category: catWorkload, Usage: "`DIR` of .jpg/.jpeg/.png images for --prompt-file"},
		&cli.BoolFlag{Name: "image-file-urls", Category: catWorkload, Usage: "send images as file:// URLs, as DashInfer does (vLLM --allowed-local-media-path), not data URLs"},
		&cli.StringFlag{Name: "agentic", Category: catWorkload, Usage: "mlcommons/endpoints agentic replay `JSONL` (one row per message)"},
		&cli.IntFlag{Name: "trajectories", Aliases: []string{"num-trajectories-to-issue"}, Category: catWorkload, DefaultText: "each once", Usage: "run `N` agentic conversations (more than the workload holds repeat them)"},
		&cli.BoolFlag{Name: "tool-delays", Aliases: []string{"inject-tool-delay"}, Category: catWorkload, Usage: "wait each agentic row's delay_seconds before sending it"},
		&cli.StringFlag{Name: "benchmark", Aliases: []string{"b"}, Category: catWorkload, Usage: "registered benchmark whose --dataset to send (its own request bodies)"},
		&cli.StringSliceFlag{Name: "dataset", Aliases: []string{"d"}, Category: catWorkload, Usage: "the --benchmark's dataset `PATH`"},
		&cli.IntFlag{Name: "requests", Aliases: []string{"req-nums", "num-prompts", "n"}, Value: 100, Category: catWorkload, Usage: "conversations (requests when single-turn)"},
		&cli.IntFlag{Name: "multi-turn", Category: catWorkload, Usage: "turns after the first, each carrying the model's earlier replies"},
		&cli.IntFlag{Name: "output-len", Aliases: []string{"response-mean", "random-output-len"}, Category: catWorkload, Usage: "output tokens per request (DashInfer default 120, synthetic 128)"},
		&cli.IntFlag{Name: "output-len-range", Aliases: []string{"response-len-range"}, Category: catWorkload, Usage: "output length range R: uniform in [len-R/2, len+R/2] (DashInfer default 64)"},
		&cli.IntFlag{Name: "images", Aliases: []string{"image-nums-mean"}, Category: catWorkload, Usage: "images per request (DashInfer default 3, synthetic 0)"},
		&cli.IntFlag{Name: "images-range", Aliases: []string{"image-nums-range"}, Category: catWorkload, Usage: "image count range R: [n-R/2, n+R/2] (DashInfer default 1, so always n)"},
		&cli.IntFlag{Name: "input-len", Aliases: []string{"random-input-len"}, Value: 256, Category: catWorkload, Usage: "synthetic prompt length: exactly that many tokens of --tokenizer, else words (about one token each in common BPE vocabularies)"},
		&cli.StringFlag{Name: "tokenizer", Category: catWorkload, Usage: "tokenizer `PATH` (tokenizer.json, tokenizer.model or a folder holding one) whose tokens --input-len counts, as vllm bench serve's random prompts are token-exact"},
		&cli.IntFlag{Name: "input-len-range", Category: catWorkload, Usage: "synthetic prompt length range R: [len-R/2, len+R/2]"},
		&cli.StringFlag{Name: "image-size", Value: "512x512", Category: catWorkload, Usage: "synthetic image `WxH`"},
		&cli.Uint64Flag{Name: "seed", Category: catWorkload, DefaultText: "DashInfer's 0xCADE for --prompt-file, else 0", Usage: "random `SEED` of the draws"},
		&cli.BoolFlag{Name: "exact-output", Aliases: []string{"ignore-eos"}, Value: true, Category: catWorkload, Usage: "make answers exactly their length (ignore_eos and min tokens; vLLM, SGLang)"},
		&cli.StringFlag{Name: "sampling", Category: catWorkload, Usage: "sampling parameters as a JSON object of wire names (default: DashInfer's for --prompt-file)"},

		&cli.StringFlag{Name: "concurrency", Aliases: []string{"c", "batch-size", "max-concurrency"}, Category: catLoad, Usage: "conversations in flight; a comma list sweeps (0: no cap)"},
		&cli.StringFlag{Name: "rate", Aliases: []string{"request-rate"}, Category: catLoad, Usage: "conversations started per second; a comma list sweeps (inf or 0: all at once)"},
		&cli.Float64Flag{Name: "burstiness", Value: 1, Category: catLoad, Usage: "gamma shape of the gaps at --rate (1: Poisson; <1 burstier; inf: constant)"},
		&cli.DurationFlag{Name: "interval", Category: catLoad, Usage: "start a conversation every `DURATION` (fixed arrivals)"},
		&cli.Float64Flag{Name: "frequency", Category: catLoad, Usage: "DashInfer's arrivals per second (--interval 1/frequency)"},
		&cli.IntFlag{Name: "warmup", Aliases: []string{"num-warmups"}, Category: catLoad, Usage: "warm-up requests before each run, left out of the figures"},
		&cli.BoolFlag{Name: "no-stream", Category: catLoad, Usage: "ask for whole answers (no TTFT, TPOT or ITL)"},
		&cli.StringFlag{Name: "session-header", Value: bench.DefaultSessionHeader, Category: catLoad, Usage: "header carrying each conversation's ID (- for none)"},

		&cli.StringFlag{Name: "slo", Aliases: []string{"goodput"}, Category: catOutput, Usage: "goodput objectives, e.g. ttft=500ms,tpot=50ms,e2el=10s (vllm's ttft:500 in ms works too)"},
		&cli.StringFlag{Name: "percentiles", Aliases: []string{"metric-percentiles"}, Value: "50,90,95,99", Category: catOutput, Usage: "latency percentiles to report"},
		&cli.StringFlag{Name: "out", Aliases: []string{"o", "result-dir"}, Category: catOutput, Usage: "`DIR` for results.json, requests JSONL and report.html (default " + benchRunsDir + "/<UTC time>)"},
		&cli.DurationFlag{Name: "progress-interval", Value: 10 * time.Second, Category: catOutput, Usage: "progress line interval when stderr is not a terminal (0: none)"},
	}
}

func benchAction(c *cli.Context) error {
	if c.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q (did you mean 'mlperf-go bench compare'?)", c.Args().First())
	}
	log, err := newLogger(c)
	if err != nil {
		return err
	}
	o := bench.Options{Model: c.String("model"), Stream: !c.Bool("no-stream"), ExactOutput: c.Bool("exact-output"),
		Warmup: c.Int("warmup"), SessionHeader: c.String("session-header"), Timeout: c.Duration("timeout"),
		Seed: c.Uint64("seed"), Logger: log, ProgressInterval: c.Duration("progress-interval"), SkipPreflight: c.Bool("skip-preflight")}
	w, err := bench.Prepare(benchRequest(c), &o)
	if err != nil {
		return err
	}
	if o.ProgressInterval > 0 {
		o.Progress, o.ProgressTTY = os.Stderr, progress.IsTerminal(os.Stderr)
	}
	out := c.String("out")
	if out == "" {
		out = filepath.Join(benchRunsDir, record.Stamp(time.Now()))
	}
	o.Finished = bench.SaveEach(out, buildinfo.Version, commandLine(c))
	ctx := c.Context
	res, recs, err := bench.Run(ctx, w, o)
	if err != nil && ctx.Err() != nil {
		return benchInterrupted(c, res, recs, out, o.Finished)
	}
	if err != nil {
		return err
	}
	printBench(c, res, out)
	for _, r := range res.Runs {
		if r.Failed > 0 {
			return exitError{1, fmt.Errorf("%d requests failed (see %s)", r.Failed, filepath.Join(out, r.RequestsFile))}
		}
	}
	return nil
}

// benchRequest reads the flags bench.Prepare checks and resolves.
func benchRequest(c *cli.Context) bench.Request {
	w := bench.WorkloadRequest{PromptFile: c.String("prompt-file"), ImageFolder: c.String("image-folder"), FileURLs: c.Bool("image-file-urls"),
		Agentic: c.String("agentic"), Trajectories: c.Int("trajectories"), ToolDelays: c.Bool("tool-delays"),
		Benchmark: c.String("benchmark"), Dataset: c.StringSlice("dataset"), Requests: c.Int("requests"), RequestsGiven: c.IsSet("requests"),
		MultiTurn: c.Int("multi-turn"), OutputLen: given(c, "output-len", c.Int), OutputLenRange: given(c, "output-len-range", c.Int),
		Images: given(c, "images", c.Int), ImagesRange: given(c, "images-range", c.Int), InputLen: c.Int("input-len"), InputLenRange: c.Int("input-len-range"),
		ImageSize: c.String("image-size"), Tokenizer: c.String("tokenizer"), Seed: given(c, "seed", c.Uint64), Sampling: given(c, "sampling", c.String)}
	return bench.Request{Targets: c.StringSlice("target"), Endpoints: c.StringSlice("endpoint"), API: c.String("api"), APIGiven: c.IsSet("api"),
		APIKeyFile: c.String("api-key-file"), APIKeyEnv: c.String("api-key-env"), Concurrency: c.String("concurrency"), Rate: c.String("rate"),
		Burstiness: c.Float64("burstiness"), Interval: c.Duration("interval"), Frequency: c.Float64("frequency"),
		SLO: c.String("slo"), Percentiles: c.String("percentiles"), Workload: w}
}

// printBench prints the runs' summaries, the comparison table and where
// the files are.
func printBench(c *cli.Context, res *bench.Results, out string) {
	bench.WriteSummary(c.App.Writer, res)
	fmt.Fprintln(c.App.Writer)
	bench.WriteComparison(c.App.Writer, []*bench.Results{res})
	fmt.Fprintf(c.App.Writer, "\nresults: %s\nreport:  %s\n", filepath.Join(out, "results.json"), filepath.Join(out, "report.html"))
}

// benchInterrupted ends a sweep stopped by Ctrl-C or SIGTERM: the load
// points that finished were saved as they did (save marks them
// interrupted now) and are printed; the exit code is 130, as run's.
func benchInterrupted(c *cli.Context, res *bench.Results, recs [][]bench.Record, out string, save func(*bench.Results, [][]bench.Record) error) error {
	if res == nil || len(res.Runs) == 0 {
		return exitError{130, errors.New("interrupted before the first load point finished: nothing was written")}
	}
	if err := save(res, recs); err != nil {
		return err
	}
	printBench(c, res, out)
	return exitError{130, fmt.Errorf("interrupted: the %d runs (target at load point) that finished are in %s, marked interrupted", len(res.Runs), out)}
}

func benchCompareCommand() *cli.Command {
	return &cli.Command{
		Name:      "compare",
		Usage:     "compare saved bench runs: the QPS table with speedups over the first target, and report.html",
		ArgsUsage: "RESULTS_DIR|results.json ...",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "html", Usage: "`DIR` to write report.html comparing the runs into"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() == 0 {
				return fmt.Errorf("give the results (folders or results.json) of the runs to compare")
			}
			var all []*bench.Results
			var sources []string
			for _, p := range c.Args().Slice() {
				r, err := bench.ReadResults(p)
				if err != nil {
					return err
				}
				all = append(all, r)
				sources = append(sources, strings.TrimSuffix(filepath.Clean(p), string(filepath.Separator)+"results.json"))
			}
			bench.LabelTargets(all, sources)
			for _, m := range bench.WorkloadMismatches(all, sources) {
				fmt.Fprintln(c.App.ErrWriter, "mlperf-go: warning:", m)
			}
			bench.WriteComparison(c.App.Writer, all)
			if d := c.String("html"); d != "" {
				if err := os.MkdirAll(d, 0o755); err != nil {
					return err
				}
				return bench.WriteHTML(d, all)
			}
			return nil
		},
	}
}
