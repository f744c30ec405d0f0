package main

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"
	"go.uber.org/zap"

	"github.com/mlperf-go/mlperf-go/fake"
	"github.com/mlperf-go/mlperf-go/fake/answers"
	"github.com/mlperf-go/mlperf-go/protocol"
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
			&cli.BoolFlag{Name: "prefix-cache", Usage: "act as an engine with its prefix cache on, as vLLM's: prompts are cached in blocks (each answer too, as the next turn carries it), a prompt's leading blocks found there are not prefilled again, and /metrics reports the hits (off by default, as the rules require of a real engine)"},
			&cli.IntFlag{Name: "prefix-block-size", Value: fake.DefaultPrefixBlockTokens, Usage: "tokens per --prefix-cache block (vLLM's --block-size)"},
			&cli.IntFlag{Name: "reasoning-tokens", Usage: "act as a reasoning model behind a reasoning parser: every answer begins with `N` reasoning tokens, which a chat streams apart from its content (vLLM's reasoning field) and counts in usage.completion_tokens_details.reasoning_tokens, and SGLang counts in meta_info.reasoning_tokens"},
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
			<-c.Context.Done() // a signal (interruptContext)
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
		PrefixBlockTokens: c.Int("prefix-block-size"),
		ReasoningTokens:   c.Int("reasoning-tokens"),
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
	b, err := answers.Set(&cfg, c.String("benchmark"), c.String("tokenizer"), c.StringSlice("dataset"), c.StringSlice("dataset-split"))
	if err != nil {
		return cfg, err
	}
	if (c.IsSet("benchmark") || c.IsSet("dataset")) && b.Name != "" && !c.IsSet("model") {
		// `run -b NAME` asks for the benchmark's model: serve it.
		cfg.Model = b.Serving.Model
	}
	return cfg, nil
}
