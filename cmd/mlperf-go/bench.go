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
	catHosts    = "Several hosts"
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
prompts that share prefixes (--prefix-len, --suffix-len, --num-prefixes: vllm bench serve's
prefix_repetition); otherwise synthetic requests (--input-len, --images, --image-size), whose
context grows turn by turn with --multi-turn. Lengths and counts take DashInfer's ranges:
uniform in [mean - range/2, mean + range/2].

Prefix caching: each run reads the engine's own prefix-cache counters before and after (vLLM's
vllm:prefix_cache_hits/queries, SGLang's sglang:cached_tokens/prompt_tokens on /metrics) and
reports the hit rate over the run beside the rate the workload implies (the shared prefixes
and earlier turns a cache holding everything would find).

Reasoning models: where the server sends the reasoning apart (vLLM's reasoning parser), TTFT
counts its first token, and the reasoning tokens, the time to the first answer token (TTFAT)
and TPOT for reasoning and answer are reported apart.

Load from several hosts: N processes, each with --shard I/N and one --rendezvous folder, send
one job together, each its part of the workload at its share of the load, starting each run
together; 'mlperf-go bench merge' joins their results exactly (scripts/slurm/bench.sh does both
on Slurm).

Writes results.json, requests-<target>-<load>.jsonl and report.html into --out.
'mlperf-go bench compare [--html DIR] DIR|results.json ...' prints the table over saved runs.`,
		Flags:       benchFlags(),
		Action:      benchAction,
		Subcommands: []*cli.Command{benchCompareCommand(), benchMergeCommand()},
	}
}

// benchRunsDir is where bench writes without --out, below the current
// folder (.gitignore lists it, for runs from a checkout).
const benchRunsDir = "bench-runs"

func benchFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringSliceFlag{Name: "target", Aliases: []string{"t"}, Category: catEndpoint, Usage: "`NAME=URL` of an endpoint under test (repeat for A/B; repeat a NAME for a target of several URLs, requests going to the least busy)"},
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
		&cli.IntFlag{Name: "prefix-len", Aliases: []string{"prefix-repetition-prefix-len"}, Category: catWorkload, Usage: "prompts that share prefixes, vllm bench serve's prefix_repetition: `N` tokens of --tokenizer (else words) shared by each prefix's requests, then --suffix-len of their own; --requests are spread over --num-prefixes, shuffled"},
		&cli.IntFlag{Name: "suffix-len", Aliases: []string{"prefix-repetition-suffix-len"}, Value: bench.DefaultSuffixLen, Category: catWorkload, Usage: "with --prefix-len: each request's own tokens after its prefix"},
		&cli.IntFlag{Name: "num-prefixes", Aliases: []string{"prefix-repetition-num-prefixes"}, Value: bench.DefaultNumPrefixes, Category: catWorkload, Usage: "with --prefix-len: distinct prefixes, each sent ⌊requests/prefixes⌋ times"},
		&cli.IntFlag{Name: "output-len", Aliases: []string{"response-mean", "random-output-len", "prefix-repetition-output-len"}, Category: catWorkload, Usage: "output tokens per request (DashInfer default 120, synthetic 128)"},
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

		&cli.StringFlag{Name: "concurrency", Aliases: []string{"c", "batch-size", "max-concurrency"}, Category: catLoad, DefaultText: "no cap", Usage: "conversations in flight, a positive number; a comma list sweeps"},
		&cli.StringFlag{Name: "rate", Aliases: []string{"request-rate"}, Category: catLoad, Usage: "conversations started per second; a comma list sweeps (inf or 0: all at once)"},
		&cli.Float64Flag{Name: "burstiness", Value: 1, Category: catLoad, Usage: "gamma shape of the gaps at --rate (1: Poisson; <1 burstier; inf: constant)"},
		&cli.DurationFlag{Name: "interval", Category: catLoad, Usage: "start a conversation every `DURATION` (fixed arrivals)"},
		&cli.Float64Flag{Name: "frequency", Category: catLoad, Usage: "DashInfer's arrivals per second (--interval 1/frequency)"},
		&cli.IntFlag{Name: "warmup", Aliases: []string{"num-warmups"}, Category: catLoad, Usage: "warm-up requests before each run, left out of the figures"},
		&cli.BoolFlag{Name: "no-stream", Category: catLoad, Usage: "ask for whole answers (no TTFT, TPOT or ITL)"},
		&cli.StringFlag{Name: "session-header", Value: bench.DefaultSessionHeader, Category: catLoad, Usage: "header carrying each conversation's ID (- for none)"},

		&cli.StringFlag{Name: "shard", Category: catHosts, Usage: "`I/N`: this process is one of N sending the job from several hosts; it sends every N-th conversation from the I-th (0-based), at its arrival time in the whole workload, with its share of --concurrency; 'bench merge' joins the hosts' results (Slurm: $SLURM_PROCID/$SLURM_NTASKS; scripts/slurm/bench.sh)"},
		&cli.StringFlag{Name: "rendezvous", Category: catHosts, Usage: "`DIR` the --shard processes share (a new one for each job): before each run each waits there for the others, refusing other settings, and all start together"},
		&cli.DurationFlag{Name: "rendezvous-timeout", Value: bench.DefaultRendezvousTimeout, Category: catHosts, Usage: "how long to wait at --rendezvous for the other processes"},
		&cli.StringFlag{Name: "start-at", Category: catHosts, Usage: "start the first run at `TIME` on this host's clock: RFC 3339 (2026-12-07T10:00:00Z) or @SECONDS since the Unix epoch"},
		&cli.StringFlag{Name: "host-name", Category: catHosts, DefaultText: "this machine's", Usage: "`NAME` of this host in results and at the rendezvous"},

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
		Seed: c.Uint64("seed"), Logger: log, ProgressInterval: c.Duration("progress-interval"), SkipPreflight: c.Bool("skip-preflight"),
		Host: c.String("host-name"), Rendezvous: c.String("rendezvous"), RendezvousTimeout: c.Duration("rendezvous-timeout")}
	w, err := bench.Prepare(benchRequest(c), &o)
	if err != nil {
		return err
	}
	if o.ProgressInterval > 0 {
		o.Progress, o.ProgressTTY = os.Stderr, progress.IsTerminal(os.Stderr)
	}
	out, reservation, err := benchOut(c, "")
	if err != nil {
		return err
	}
	defer reservation.ReleaseUnused()
	o.Finished = bench.SaveEach(out, buildinfo.Version, commandLine(c))
	ctx := c.Context
	res, recs, err := bench.Run(ctx, w, o)
	if err != nil && ctx.Err() != nil {
		return benchInterrupted(c, res, recs, out, o.Finished)
	}
	if err != nil {
		return err
	}
	return benchDone(c, res, out)
}

// benchDone prints the results saved in out and says, as the exit code,
// whether any request failed.
func benchDone(c *cli.Context, res *bench.Results, out string) error {
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
		MultiTurn: c.Int("multi-turn"), PrefixLen: c.Int("prefix-len"), SuffixLen: c.Int("suffix-len"), NumPrefixes: c.Int("num-prefixes"), OutputLen: given(c, "output-len", c.Int), OutputLenRange: given(c, "output-len-range", c.Int),
		Images: given(c, "images", c.Int), ImagesRange: given(c, "images-range", c.Int), InputLen: c.Int("input-len"), InputLenRange: c.Int("input-len-range"),
		ImageSize: c.String("image-size"), Tokenizer: c.String("tokenizer"), Seed: given(c, "seed", c.Uint64), Sampling: given(c, "sampling", c.String)}
	return bench.Request{Targets: c.StringSlice("target"), Endpoints: c.StringSlice("endpoint"), API: c.String("api"), APIGiven: c.IsSet("api"),
		APIKeyFile: c.String("api-key-file"), APIKeyEnv: c.String("api-key-env"), Concurrency: c.String("concurrency"), Rate: c.String("rate"),
		Burstiness: c.Float64("burstiness"), Interval: c.Duration("interval"), Frequency: c.Float64("frequency"),
		SLO: c.String("slo"), Percentiles: c.String("percentiles"), Shard: c.String("shard"), StartAt: c.String("start-at"), Workload: w}
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

func benchMergeCommand() *cli.Command {
	return &cli.Command{
		Name:      "merge",
		Usage:     "join the results of one job sent from several hosts (--shard) into one: every figure from all their requests",
		ArgsUsage: "HOST_RESULTS_DIR|results.json ...",
		Description: `Joins the results of the processes that sent one job together (bench --shard I/N, with
--rendezvous) into the job's results, exactly: every percentile is computed again over every
host's requests, throughput over the union of their windows (each host's times on its own
clock, from its run's start), the engine's prefix-cache counters from the first read before to
the last after. Each run keeps each host's own figures and, where requests went to several
URLs, each one's. Refuses results of other workloads or settings, naming what differs, an
incomplete or repeated set of shards, and interrupted runs. Writes results.json, the merged
requests-*.jsonl (each record naming its host) and report.html into --out.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "out", Aliases: []string{"o"}, Usage: "`DIR` for the merged results (default " + benchRunsDir + "/<UTC time>-merged)"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() == 0 {
				return fmt.Errorf("give the results (folders or results.json) of every host of the job")
			}
			var parts []*bench.Saved
			for _, p := range c.Args().Slice() {
				s, err := bench.ReadSaved(p)
				if err != nil {
					return err
				}
				parts = append(parts, s)
			}
			res, recs, err := bench.Merge(parts)
			if err != nil {
				return err
			}
			out, reservation, err := benchOut(c, "-merged")
			if err != nil {
				return err
			}
			defer reservation.ReleaseUnused()
			if err := bench.SaveEach(out, buildinfo.Version, commandLine(c))(res, recs); err != nil {
				return err
			}
			return benchDone(c, res, out)
		},
	}
}

// benchOut is the folder a bench command writes into: --out, or a new
// folder benchRunsDir/<UTC time><suffix>, created now so that no other
// bench started in the same second (on this host or another sharing the
// folder) writes into it. Release the Reservation when the command ends:
// it removes the folder if nothing was saved.
func benchOut(c *cli.Context, suffix string) (string, record.Reservation, error) {
	if out := c.String("out"); out != "" {
		return out, record.Reserve(out), nil
	}
	out, res, err := record.ClaimRunDir(benchRunsDir, record.Stamp(time.Now())+suffix)
	if err != nil {
		return "", res, fmt.Errorf("a folder for the results under %s: %w (or pass --out DIR)", benchRunsDir, err)
	}
	return out, res, nil
}
