package main

import (
	"errors"
	"fmt"
	"math"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/mlperf-go/mlperf-go/bench"
	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/internal/buildinfo"
	"github.com/mlperf-go/mlperf-go/internal/progress"
	"github.com/mlperf-go/mlperf-go/internal/redact"
	"github.com/mlperf-go/mlperf-go/protocol"
	"github.com/mlperf-go/mlperf-go/tokenizer"
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
		&cli.StringFlag{Name: "api-key-env", Value: defaultKeyEV, Category: catEndpoint, Usage: "environment `VARIABLE` holding the API key"},
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
	if o.Targets, err = benchTargets(c); err != nil {
		return err
	}
	if o.API, err = protocol.Lookup(c.String("api")); err != nil {
		return fmt.Errorf("--api: %w", err)
	}
	if o.APIKey, err = apiKey(c); err != nil {
		return err
	}
	if o.Loads, err = benchLoads(c); err != nil {
		return err
	}
	if o.SLO, err = parseSLO(c.String("slo")); err != nil {
		return fmt.Errorf("--slo: %w", err)
	}
	if o.Percentiles, err = parseFloats(c.String("percentiles")); err != nil {
		return fmt.Errorf("--percentiles: %w", err)
	}
	w, err := benchWorkload(c, &o)
	if err != nil {
		return err
	}
	if o.ProgressInterval > 0 {
		o.Progress, o.ProgressTTY = os.Stderr, progress.IsTerminal(os.Stderr)
	}
	out := c.String("out")
	if out == "" {
		out = filepath.Join(benchRunsDir, time.Now().UTC().Format("20060102T150405Z"))
	}
	// Each finished load point is saved before the next starts, so an
	// interrupted sweep keeps what it measured.
	o.Finished = func(res *bench.Results, recs [][]bench.Record) error {
		res.Version, res.Command = buildinfo.Version, redact.Args(commandLine(c))
		if err := bench.WriteFiles(out, res, recs); err != nil {
			return fmt.Errorf("--out %s: %w", out, err)
		}
		if err := bench.WriteHTML(out, []*bench.Results{res}); err != nil {
			return fmt.Errorf("--out %s: %w", out, err)
		}
		return nil
	}
	ctx, stop := signal.NotifyContext(c.Context, os.Interrupt, syscall.SIGTERM)
	defer stop()
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

// benchTargets reads --target NAME=URL[,URL] and --endpoint URL.
func benchTargets(c *cli.Context) ([]bench.Target, error) {
	var ts []bench.Target
	for _, t := range c.StringSlice("target") {
		name, urls, ok := strings.Cut(t, "=")
		if !ok || name == "" || urls == "" {
			return nil, fmt.Errorf("--target %q: want NAME=URL", redact.Text(t))
		}
		ts = append(ts, bench.Target{Name: name, URLs: strings.Split(urls, ",")})
	}
	for _, e := range c.StringSlice("endpoint") {
		name := e
		if u, err := url.Parse(e); err == nil && u.Host != "" {
			name = u.Host
		}
		ts = append(ts, bench.Target{Name: name, URLs: []string{e}})
	}
	if len(ts) == 0 {
		return nil, fmt.Errorf("no endpoint: give --target NAME=URL (repeat for A/B) or --endpoint URL")
	}
	return ts, nil
}

// benchLoads is the sweep: every --concurrency with every --rate.
func benchLoads(c *cli.Context) ([]bench.Load, error) {
	concs, err := parseFloats(c.String("concurrency"))
	if err != nil {
		return nil, fmt.Errorf("--concurrency: %w", err)
	}
	rates, err := parseFloats(c.String("rate"))
	if err != nil {
		return nil, fmt.Errorf("--rate: %w", err)
	}
	if len(concs) == 0 {
		concs = []float64{0}
	}
	if len(rates) == 0 {
		rates = []float64{0}
	}
	interval := c.Duration("interval")
	if f := c.Float64("frequency"); f > 0 && !math.IsInf(f, 1) {
		interval = time.Duration(float64(time.Second) / f)
	}
	var loads []bench.Load
	for _, cc := range concs {
		for _, r := range rates {
			if cc < 0 || cc != math.Trunc(cc) {
				return nil, fmt.Errorf("--concurrency %v: want whole numbers >= 0", cc)
			}
			if math.IsInf(r, 1) {
				r = 0
			}
			loads = append(loads, bench.Load{Concurrency: int(cc), Rate: r, Burstiness: c.Float64("burstiness"), Interval: interval})
		}
	}
	return loads, nil
}

// parseFloats reads a comma list ("" is none; "inf" is +Inf).
func parseFloats(s string) ([]float64, error) {
	var out []float64
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		v, err := strconv.ParseFloat(f, 64)
		if err != nil || v < 0 || math.IsNaN(v) {
			return nil, fmt.Errorf("%q: want non-negative numbers, comma-separated", f)
		}
		out = append(out, v)
	}
	return out, nil
}

// parseSLO reads "ttft=500ms,tpot=50ms,e2el=10s"; a bare number, or
// vllm's "ttft:500", is milliseconds.
func parseSLO(s string) (bench.SLO, error) {
	var slo bench.SLO
	for _, kv := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' }) {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			k, v, ok = strings.Cut(kv, ":")
		}
		if !ok {
			return slo, fmt.Errorf("%q: want NAME=DURATION (ttft, tpot or e2el)", kv)
		}
		d, err := time.ParseDuration(v)
		if err != nil {
			ms, err2 := strconv.ParseFloat(v, 64)
			if err2 != nil {
				return slo, fmt.Errorf("%q: %v", kv, err)
			}
			d = time.Duration(ms * float64(time.Millisecond))
		}
		if d < 0 {
			return slo, fmt.Errorf("%q: negative", kv)
		}
		switch strings.ToLower(k) {
		case "ttft":
			slo.TTFT = d
		case "tpot":
			slo.TPOT = d
		case "e2el", "e2e":
			slo.E2EL = d
		default:
			return slo, fmt.Errorf("%q: unknown objective %q, want ttft, tpot or e2el", kv, k)
		}
	}
	return slo, nil
}

// benchWorkload builds the workload the flags describe.
func benchWorkload(c *cli.Context, o *bench.Options) (*bench.Workload, error) {
	n := c.Int("requests")
	var w *bench.Workload
	var err error
	switch {
	case c.String("prompt-file") != "":
		d := bench.DashInferDefaults()
		d.PromptFile, d.ImageFolder, d.Requests, d.MultiTurn, d.FileURLs = c.String("prompt-file"), c.String("image-folder"), n, c.Int("multi-turn"), c.Bool("image-file-urls")
		setIf(c, "output-len", &d.ResponseMean)
		setIf(c, "output-len-range", &d.ResponseRange)
		setIf(c, "images", &d.ImagesMean)
		setIf(c, "images-range", &d.ImagesRange)
		if c.IsSet("seed") {
			d.Seed = c.Uint64("seed")
		}
		w, err = bench.LoadDashInfer(d)
	case c.String("agentic") != "":
		w, err = bench.LoadAgentic(c.String("agentic"), c.Int("trajectories"), c.Bool("tool-delays"))
	case c.String("benchmark") != "":
		var b benchmark.Benchmark
		if b, err = benchmark.Lookup(c.String("benchmark")); err != nil {
			return nil, err
		}
		if len(c.StringSlice("dataset")) == 0 {
			return nil, fmt.Errorf("--benchmark %s needs --dataset PATH", b.Name)
		}
		if !c.IsSet("api") {
			o.API = b.Serving.API
		}
		if o.Model == "" {
			o.Model = b.Serving.Model
		}
		reqs := 0
		if c.IsSet("requests") {
			reqs = n
		}
		w, err = bench.LoadBenchmark(bench.BenchmarkOptions{Benchmark: b, Paths: c.StringSlice("dataset"), API: o.API, Model: o.Model,
			Stream: o.Stream, Requests: reqs, OutputLen: c.Int("output-len"), Exact: o.ExactOutput})
	default:
		s := bench.SyntheticOptions{Requests: n, InputLen: c.Int("input-len"), InputSpread: c.Int("input-len-range") / 2,
			OutputLen: c.Int("output-len"), OutputSpread: c.Int("output-len-range") / 2, Images: c.Int("images"),
			ImagesSpread: c.Int("images-range") / 2, MultiTurn: c.Int("multi-turn"), Seed: c.Uint64("seed")}
		if _, err := fmt.Sscanf(c.String("image-size"), "%dx%d", &s.ImageWidth, &s.ImageHeight); err != nil {
			return nil, fmt.Errorf("--image-size %q: want WxH, e.g. 512x512", c.String("image-size"))
		}
		if p := c.String("tokenizer"); p != "" {
			tok, err := tokenizer.Open(tokenizer.FindOptions{Path: p})
			if err != nil {
				return nil, fmt.Errorf("--tokenizer: %w", err)
			}
			s.Tokenizer = tok
		}
		w, err = bench.Synthetic(s)
	}
	if err != nil {
		return nil, err
	}
	if c.IsSet("sampling") {
		w.Sampling = []byte(c.String("sampling"))
	}
	return w, nil
}

// setIf stores flag name's value in *dst when the flag was given.
func setIf(c *cli.Context, name string, dst *int) {
	if c.IsSet(name) {
		*dst = c.Int(name)
	}
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
