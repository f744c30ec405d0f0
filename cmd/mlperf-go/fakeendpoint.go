package main

import (
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/urfave/cli/v2"
	"go.uber.org/zap"

	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/fake"
	"github.com/mlperf-go/mlperf-go/protocol"
	"github.com/mlperf-go/mlperf-go/tokenizer"
)

func fakeEndpointCommand() *cli.Command {
	var apis []string
	for _, p := range protocol.All() {
		apis = append(apis, p.Path()+" ("+p.Name()+")")
	}
	return &cli.Command{
		Name:  "fake-endpoint",
		Usage: "serve a fake vLLM/SGLang endpoint (every --api) for trying the harness without a GPU",
		Description: `Serves every --api at its path, streaming and not, in the real servers' wire formats:
` + strings.Join(apis, ", ") + `;
vLLM's /v1/models and /health; and /metrics with vLLM's and SGLang's engine metrics
(running, waiting, cache usage, tokens) taken from the fake's own state. Chats get the answers
of --benchmark (by default the one benchmark with text answers): given its --dataset, it answers
--accuracy of the samples with the ground truth and the rest with a plausible wrong answer. A
token-ID benchmark's prompts get its references' answers the same way, encoded with --tokenizer;
other token prompts get output token IDs derived from the prompt, so runs are reproducible.

Latency model: each request waits for one of --max-concurrency slots (FIFO), then its first
token after --ttft (plus --prefill-per-token for each prompt token not in the --prefix-cache)
and each further token after --tpot; ignore_eos and min_tokens fix answer lengths. Fault injection: --fail-rate of the
generation requests fail as --fail-mode says (requests a mode does not apply to, such as
non-streamed ones under a stream-only mode, are answered normally). --keep-alive closes idle
connections like uvicorn's keep-alive timeout. Stops on Ctrl-C or SIGTERM.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "listen", Value: "127.0.0.1:8000", Usage: "`ADDR` to listen on (host:port; port 0 picks a free one)"},
			&cli.StringFlag{Name: "model", Value: fake.DefaultModel, DefaultText: "--benchmark's model, else " + fake.DefaultModel, Usage: "served model `NAME` (requests naming another model get a 404 like vLLM)"},
			&cli.StringFlag{Name: "benchmark", Aliases: []string{"b"}, DefaultText: "the one whose answers the fake must be told", Usage: "benchmark whose model the fake serves (unless --model) and whose answers chats get (of --dataset)"},
			&cli.StringSliceFlag{Name: "dataset", Usage: "dataset `PATH` (files or directory) whose ground truth the fake answers with"},
			&cli.StringFlag{Name: "tokenizer", DefaultText: "the benchmark model's, from a model folder or the Hugging Face cache", Usage: "tokenizer `PATH` (tokenizer.json, tokenizer.model or a folder holding one) that encodes a token-ID benchmark's reference answers from --dataset"},
			&cli.StringSliceFlag{Name: "dataset-split", Usage: "dataset splits, in the order the harness uses (default: the benchmark's official ones)"},
			&cli.Float64Flag{Name: "accuracy", Value: 1, Usage: "fraction in [0,1] of --dataset's samples answered with the ground truth"},
			&cli.DurationFlag{Name: "ttft", Usage: "time to first token (e.g. 200ms)"},
			&cli.DurationFlag{Name: "tpot", Usage: "time per further output token (e.g. 20ms)"},
			&cli.DurationFlag{Name: "prefill-per-token", Usage: "time each uncached prompt token adds to the first token (e.g. 50us)"},
			&cli.BoolFlag{Name: "prefix-cache", Usage: "act as an engine with its prefix cache on: chat prefixes are cached (each answer included), so a conversation's next turn prefills only what is new, and /metrics reports hits (off by default, as the rules require of a real engine)"},
			&cli.IntFlag{Name: "output-tokens", Value: fake.DefaultOutputTokens, Usage: "tokens generated for a token-ID or text prompt (not a chat), capped by the request's max tokens"},
			&cli.IntFlag{Name: "max-concurrency", Usage: "requests generating at once; more wait in FIFO order (0: unlimited)"},
			&cli.IntFlag{Name: "stream-interval", Value: 1, Usage: "tokens per streamed event, like SGLang's --stream-interval"},
			&cli.BoolFlag{Name: "sglang-incremental", Usage: "stream /generate deltas instead of SGLang's default cumulative output"},
			&cli.Float64Flag{Name: "fail-rate", Usage: "fraction in [0,1] of generation requests that fail"},
			&cli.StringFlag{Name: "fail-mode", Value: fake.FailStatus, Usage: "`MODE` in which the --fail-rate requests fail: " + fake.FailModeHelp()},
			&cli.DurationFlag{Name: "keep-alive", Usage: "close keep-alive connections idle this long (e.g. 5s, vLLM's default; 0: never)"},
			&cli.Int64Flag{Name: "seed", Usage: "seed for fault selection and which samples are answered correctly"},
		},
		Action: func(c *cli.Context) error {
			log, err := newLogger(c)
			if err != nil {
				return err
			}
			cfg, err := fakeConfig(c, log)
			if err != nil {
				return err
			}
			srv, err := fake.New(cfg)
			if err != nil {
				return err
			}
			url, err := srv.Start(c.String("listen"))
			if err != nil {
				return fmt.Errorf("--listen %s: %w", c.String("listen"), err)
			}
			log.Info("fake endpoint serving", zap.String("url", url), zap.String("model", cfg.Model),
				zap.Int("answer_samples", len(cfg.Answers)+len(cfg.TokenAnswers)), zap.Duration("ttft", cfg.TTFT), zap.Duration("tpot", cfg.TPOT))
			// The URL on stdout, alone, lets scripts start it on port 0.
			fmt.Fprintln(c.App.Writer, url)
			sig := make(chan os.Signal, 1)
			signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
			select {
			case <-sig:
			case <-c.Context.Done():
			}
			st := srv.Stats()
			log.Info("fake endpoint stopping", zap.Any("requests", st.Requests), zap.Any("faults", st.Faults), zap.Int("max_concurrent", st.MaxConcurrent))
			return srv.Close()
		},
	}
}

// fakeConfig is the fake's configuration as the flags give it.
func fakeConfig(c *cli.Context, log *zap.Logger) (fake.Config, error) {
	cfg := fake.Config{
		Model:             c.String("model"),
		TTFT:              c.Duration("ttft"),
		TPOT:              c.Duration("tpot"),
		PrefillPerToken:   c.Duration("prefill-per-token"),
		PrefixCache:       c.Bool("prefix-cache"),
		OutputTokens:      c.Int("output-tokens"),
		MaxConcurrency:    c.Int("max-concurrency"),
		StreamInterval:    c.Int("stream-interval"),
		IncrementalStream: c.Bool("sglang-incremental"),
		FailRate:          c.Float64("fail-rate"),
		FailMode:          c.String("fail-mode"),
		KeepAlive:         c.Duration("keep-alive"),
		Seed:              c.Int64("seed"),
		Accuracy:          c.Float64("accuracy"),
		Logger:            log,
	}
	if err := setFakeAnswers(&cfg, c.String("benchmark"), c.String("tokenizer"), c.StringSlice("dataset"), c.StringSlice("dataset-split")); err != nil {
		return cfg, err
	}
	if name := c.String("benchmark"); name != "" && !c.IsSet("model") {
		// `run -b NAME` asks for the benchmark's model: serve it.
		b, err := benchmark.Lookup(name)
		if err != nil {
			return cfg, fmt.Errorf("--benchmark: %w", err)
		}
		cfg.Model = b.Serving.Model
	}
	return cfg, nil
}

// fakeAnswers returns the chat answers and default answer setFakeAnswers
// sets for a benchmark whose answers need no tokenizer.
func fakeAnswers(name string, paths, splits []string) ([]fake.Answer, string, error) {
	var cfg fake.Config
	err := setFakeAnswers(&cfg, name, "", paths, splits)
	return cfg.Answers, cfg.DefaultAnswer, err
}

// setFakeAnswers sets what the fake answers with (cfg's Answers,
// TokenAnswers and DefaultAnswer): the answers of the dataset at paths
// (none without paths) and the default answer of its benchmark, name or
// by default the one benchmark whose answers the fake must be told (with
// text output), or the one of those whose reader opens paths. A token-ID
// benchmark's answers are texts, encoded with the tokenizer at tokPath
// (or its model's). Without paths and with no one such benchmark, the
// default answer is "" (the fake's own).
func setFakeAnswers(cfg *fake.Config, name, tokPath string, paths, splits []string) error {
	b, ok, err := fakeBenchmark(name)
	if err == nil && !ok && len(paths) > 0 {
		b, ok = benchmarkOfDataset(paths, splits)
	}
	switch {
	case err != nil:
		return err
	case len(paths) == 0:
		cfg.DefaultAnswer = b.Fake.DefaultAnswer
		return nil
	case !ok:
		var names []string
		for _, x := range textBenchmarks() {
			names = append(names, x.Name)
		}
		return fmt.Errorf("--dataset needs --benchmark: one of %s", strings.Join(names, ", "))
	}
	d, err := b.OpenDataset(paths, splits)
	if err != nil {
		return err
	}
	defer d.Close()
	cfg.DefaultAnswer = b.Fake.DefaultAnswer
	switch fa := d.(type) {
	case benchmark.FakeAnswerer:
		for _, a := range fa.FakeAnswers() {
			cfg.Answers = append(cfg.Answers, fake.Answer(a))
		}
		return nil
	case benchmark.FakeTokenAnswerer:
		cfg.TokenAnswers, err = encodeTokenAnswers(fa.FakeTokenAnswers(), b, tokPath)
		return err
	}
	// A dataset with no answers to give: the fake derives its answers
	// from the prompt, and the --dataset given to run too is opened
	// (checked) and adds none.
	return nil
}

// encodeTokenAnswers encodes a token-ID benchmark's answer texts with the
// tokenizer at tokPath, or else b's model's, as the model would have
// generated them (no special tokens added), so the evaluator decodes
// them back.
func encodeTokenAnswers(answers []benchmark.FakeTokenAnswer, b benchmark.Benchmark, tokPath string) ([]fake.TokenAnswer, error) {
	tok, err := tokenizer.Open(tokenizer.FindOptions{Path: tokPath, Model: b.Serving.Model})
	if err != nil {
		return nil, fmt.Errorf("--tokenizer: the fake encodes %s's reference answers with %s's tokenizer: %w", b.Name, b.Serving.Model, err)
	}
	encode := func(text string) ([]int32, error) {
		ids, err := tok.Encode(text)
		out := make([]int32, len(ids))
		for i, id := range ids {
			out[i] = int32(id)
		}
		return out, err
	}
	// fit encodes text, brought to a's length (FakeTokenAnswer.Tokens):
	// cut, or preceded by its filler over and over.
	fit := func(a benchmark.FakeTokenAnswer, text string) ([]int32, error) {
		ids, err := encode(text)
		if err != nil || a.Tokens == 0 {
			return ids, err
		}
		if len(ids) >= a.Tokens {
			return ids[:a.Tokens], nil
		}
		filler := a.Filler
		if filler == "" {
			filler = text + " "
		}
		lead, err := encode(filler)
		if err != nil || len(lead) == 0 {
			return nil, fmt.Errorf("encoding the filler %q: %v", filler, err)
		}
		pad := make([]int32, 0, a.Tokens)
		for short := a.Tokens - len(ids); len(pad) < short; {
			pad = append(pad, lead[:min(len(lead), short-len(pad))]...)
		}
		return append(pad, ids...), nil
	}
	out := make([]fake.TokenAnswer, 0, len(answers))
	for i, a := range answers {
		t := fake.TokenAnswer{Prompt: a.Prompt}
		if t.Right, err = fit(a, a.Right); err != nil {
			return nil, fmt.Errorf("--dataset sample %d: encoding its answer with %s: %w", i, tok.Path(), err)
		}
		// Wrong answers are as long as right ones, so --accuracy moves
		// the score and not the checked output length.
		for _, w := range a.Wrongs {
			ids, err := fit(a, w)
			if err != nil {
				return nil, fmt.Errorf("--dataset sample %d: encoding a wrong answer with %s: %w", i, tok.Path(), err)
			}
			t.Wrongs = append(t.Wrongs, ids)
		}
		if len(t.Right) > 0 {
			out = append(out, t)
		}
	}
	return out, nil
}

// fakeBenchmark returns the benchmark named name or, when name is "", the
// one benchmark with text output; ok is false when there is not exactly
// one.
func fakeBenchmark(name string) (b benchmark.Benchmark, ok bool, err error) {
	if name != "" {
		if b, err = benchmark.Lookup(name); err != nil {
			return b, false, fmt.Errorf("--benchmark: %w", err)
		}
		return b, true, nil
	}
	if found := textBenchmarks(); len(found) == 1 {
		return found[0], true, nil
	}
	return b, false, nil
}

// benchmarkOfDataset returns the one text benchmark whose dataset reader
// opens paths (ok false when none or several do).
func benchmarkOfDataset(paths, splits []string) (benchmark.Benchmark, bool) {
	var found []benchmark.Benchmark
	for _, x := range textBenchmarks() {
		if d, err := x.OpenDataset(paths, splits); err == nil {
			d.Close()
			found = append(found, x)
		}
	}
	if len(found) != 1 {
		return benchmark.Benchmark{}, false
	}
	return found[0], true
}

// textBenchmarks are the benchmarks whose answers are text: those whose
// datasets give the fake its answers.
func textBenchmarks() []benchmark.Benchmark {
	var found []benchmark.Benchmark
	for _, x := range benchmark.All() {
		if x.Serving.Output == benchmark.Text {
			found = append(found, x)
		}
	}
	return found
}
