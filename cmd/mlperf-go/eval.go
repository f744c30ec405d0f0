package main

import (
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/mlperf-go/mlperf-go/internal/redact"
	"github.com/mlperf-go/mlperf-go/quality/ask"
	"github.com/mlperf-go/mlperf-go/quality/mmlu"
	"github.com/mlperf-go/mlperf-go/record"
	"github.com/mlperf-go/mlperf-go/run"
	"github.com/mlperf-go/mlperf-go/sut"
)

const catEvalData = "Questions and prompts"

func evalCommand() *cli.Command {
	return &cli.Command{
		Name:        "eval",
		Usage:       "quality checks beyond MLPerf against an OpenAI-compatible endpoint (mmlu)",
		Subcommands: []*cli.Command{evalMMLUCommand()},
	}
}

func evalMMLUCommand() *cli.Command {
	return &cli.Command{
		Name:  "mmlu",
		Usage: "MMLU accuracy of the served model: per subject, per category, overall",
		Description: `Asks the endpoint MMLU's multiple-choice questions, from a local copy of the Hugging Face
data set cais/mmlu (--dataset: the folder holding all/test-*.parquet and all/dev-*.parquet),
and scores the answers.

Prompts are lm-evaluation-harness 0.4.13's (tasks/mmlu/default), k-shot from the subject's first
dev questions:
  The following are multiple choice questions (with answers) about {subject}.

  {question}
  A. {choice} … D. {choice}
  Answer:
sent as one user message (--api chat) or as text (--api completions, for base models).
The letter an answer chooses is read as mlperf-go's quality/mmlu Extract documents: the
upper-case A-D it starts with (after white space, markup and "Answer:"), else the one after
"answer is", else after the last "answer:"; text before a closing </think> is skipped. An
answer without a letter is unparseable and wrong; a failed request is wrong too. Both are
listed. Categories (STEM, humanities, social sciences, other) are the original MMLU code's.

Writes mmlu_samples.csv (one row per question), mmlu_results.json and mmlu_report.html
(bar charts) into --output-dir and prints the table. Exits 1 if any request failed or
the run stopped early (the files are still written), 130 if interrupted.

Example:
  mlperf-go eval mmlu -d ~/data/mmlu -e http://gpu0:8000 --subset 1000`,
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "dataset", Aliases: []string{"d"}, Required: true, Category: catEvalData, Usage: "local copy of cais/mmlu: its folder (holding all/), the all/ folder, or a test shard `PATH`"},
			&cli.StringFlag{Name: "dev", Category: catEvalData, DefaultText: "dev-*.parquet beside the test split", Usage: "dev split `PATH` (folder or shard) the few-shot examples come from"},
			&cli.IntFlag{Name: "shots", Value: 5, Category: catEvalData, Usage: fmt.Sprintf("few-shot examples per prompt, 0 to %d (MMLU's standard is 5)", mmlu.MaxShots)},
			&cli.IntFlag{Name: "subset", Category: catEvalData, DefaultText: "all 14,042", Usage: "ask `N` questions, stratified by subject (each subject its share), drawn by --seed"},
			&cli.Uint64Flag{Name: "seed", Category: catEvalData, Usage: "seed of the --subset draw"},
			&cli.StringSliceFlag{Name: "subjects", Category: catEvalData, Usage: "only these `SUBJECTS` (comma-separated or repeated), e.g. abstract_algebra,virology"},
			&cli.StringSliceFlag{Name: "endpoint", Aliases: []string{"e"}, Value: cli.NewStringSlice("http://127.0.0.1:8000"), Category: catEndpoint, Usage: "server base `URL`, with or without /v1 (repeatable: requests go to the least busy)"},
			&cli.StringFlag{Name: "api", Value: string(ask.Chat), Category: catEndpoint, Usage: "chat (/v1/chat/completions, the prompt as one user message) or completions (/v1/completions, the prompt as text: base models)"},
			&cli.StringFlag{Name: "model", Category: catEndpoint, DefaultText: "the one the server lists", Usage: "served model `NAME` sent in requests"},
			&cli.StringFlag{Name: "api-key-env", Value: sut.DefaultAPIKeyEnv, Category: catEndpoint, Usage: "environment `VARIABLE` holding the API key (sent as a bearer token if set)"},
			&cli.StringFlag{Name: "api-key-file", Category: catEndpoint, Usage: "`FILE` holding the API key (takes precedence over --api-key-env)"},
			&cli.IntFlag{Name: "concurrency", Aliases: []string{"c"}, Value: ask.DefaultConcurrency, Category: catEndpoint, Usage: "maximum requests in flight across all endpoints"},
			&cli.DurationFlag{Name: "timeout", Category: catEndpoint, DefaultText: "2h chat, 20m completions", Usage: "per-request timeout, retries included"},
			&cli.BoolFlag{Name: "skip-preflight", Category: catEndpoint, Usage: "skip the check that every endpoint answers /health or /v1/models and serves --model"},
			&cli.IntFlag{Name: "max-tokens", Category: catSampling, DefaultText: "not sent", Usage: "maximum output tokens (max_tokens); a reasoning model needs room to finish"},
			&cli.Float64Flag{Name: "temperature", Value: 0, Category: catSampling, Usage: "sampling temperature (0: greedy, as evaluations use)"},
			&cli.StringFlag{Name: "output-dir", Aliases: []string{"o"}, Category: catResults, DefaultText: "a new folder under --runs-dir", Usage: "`DIR` for mmlu_samples.csv, mmlu_results.json and mmlu_report.html (refused if it holds files, unless --overwrite)"},
			&cli.StringFlag{Name: "runs-dir", Value: "runs", Category: catResults, Usage: "without --output-dir, the results go to a new folder `DIR`/eval/mmlu/<UTC time>/"},
			&cli.BoolFlag{Name: "overwrite", Category: catResults, Usage: "let --output-dir name a folder that already holds files"},
			&cli.DurationFlag{Name: "progress-interval", Value: 10 * time.Second, Usage: "how often to print a progress line when stderr is not a terminal (a terminal gets a live bar); 0 disables progress"},
		}, resilienceFlags()...),
		Action: evalMMLUAction,
	}
}

func evalMMLUAction(c *cli.Context) error {
	log, err := newLogger(c)
	if err != nil {
		return err
	}
	defer log.Sync() //nolint:errcheck // stderr
	o, err := evalMMLUOptions(c)
	if err != nil {
		return err
	}
	o.Ask.Logger = log
	ctx, stop := signal.NotifyContext(c.Context, os.Interrupt, syscall.SIGTERM)
	defer stop()
	plan, err := mmlu.Prepare(o)
	if err != nil {
		return err
	}
	if err := resolveModel(c, &o.Ask); err != nil {
		return err
	}
	defer record.Reserve(o.OutputDir).ReleaseUnused()
	fmt.Fprintf(c.App.ErrWriter, "Asking %s %d MMLU questions (%d-shot) at %s\n", o.Ask.Model, plan.Questions(), o.Shots, strings.Join(redact.URLs(o.Ask.Endpoints), ", "))
	res, err := plan.Ask(ctx, o.Ask)
	if err != nil {
		return err
	}
	res.WriteTable(c.App.Writer)
	w := c.App.Writer
	for _, f := range []string{mmlu.ReportFile, mmlu.ResultsFile, mmlu.SamplesFile} {
		fmt.Fprintf(w, "  %-20s %s\n", f, filepath.Join(o.OutputDir, f))
	}
	switch {
	case ctx.Err() != nil:
		return exitError{130, fmt.Errorf("interrupted: %d of %d questions answered; the files hold what was", res.Overall.Total-res.Overall.Failed, res.Overall.Total)}
	case res.Stopped != "":
		return exitError{1, fmt.Errorf("stopped early (%s): %d questions without an answer, counted wrong", res.Stopped, res.Overall.Failed)}
	case res.Overall.Failed > 0:
		return exitError{1, fmt.Errorf("%d of %d requests failed (counted wrong; listed in %s)", res.Overall.Failed, res.Overall.Total, mmlu.ResultsFile)}
	}
	return nil
}

// evalMMLUOptions reads and checks the flags, before any request: every
// error names its flag and the fix.
func evalMMLUOptions(c *cli.Context) (mmlu.Options, error) {
	o := mmlu.Options{Dataset: c.String("dataset"), Dev: c.String("dev"), Shots: c.Int("shots"), Subset: c.Int("subset"), Seed: c.Uint64("seed"),
		Subjects: c.StringSlice("subjects")}
	if o.Shots < 0 || o.Shots > mmlu.MaxShots {
		return o, fmt.Errorf("--shots %d: use 0 to %d (cais/mmlu's dev split has %d examples per subject)", o.Shots, mmlu.MaxShots, mmlu.MaxShots)
	}
	if c.IsSet("subset") && o.Subset <= 0 {
		return o, fmt.Errorf("--subset %d: use a positive number of questions (leave the flag out for all of them)", o.Subset)
	}
	api, err := ask.ParseAPI(c.String("api"))
	if err != nil {
		return o, fmt.Errorf("--api %w", err)
	}
	o.Ask = ask.Config{API: api, Endpoints: c.StringSlice("endpoint"), Model: c.String("model"), Concurrency: c.Int("concurrency"), Timeout: c.Duration("timeout")}
	if c.IsSet("max-tokens") {
		n := c.Int("max-tokens")
		if n <= 0 {
			return o, fmt.Errorf("--max-tokens %d: use a positive number of tokens (leave the flag out to send none)", n)
		}
		o.Ask.MaxTokens = &n
	}
	temp := c.Float64("temperature")
	if temp < 0 {
		return o, fmt.Errorf("--temperature %v: use 0 (greedy) or more", temp)
	}
	o.Ask.Temperature = &temp
	if o.Ask.APIKey, err = sut.ReadAPIKey(c.String("api-key-file"), c.String("api-key-env")); err != nil {
		return o, err
	}
	// The endpoint flags are run's, checked by run's rules.
	ro := run.Options{Endpoints: o.Ask.Endpoints, Concurrency: o.Ask.Concurrency, Timeout: o.Ask.Timeout, APIKey: o.Ask.APIKey}
	if err := ro.SetResilience(resilienceRequest(c), c.IsSet); err != nil {
		return o, err
	}
	o.Ask.Retries, o.Ask.MaxResponseBytes, o.Ask.MaxFailures = ro.Retries, ro.MaxResponseBytes, ro.MaxFailures
	if c.Duration("progress-interval") > 0 {
		o.Ask.Progress, o.Ask.ProgressEvery = c.App.ErrWriter, c.Duration("progress-interval")
		if c.App.ErrWriter == nil {
			o.Ask.Progress = os.Stderr
		}
	}
	if o.OutputDir, err = evalOutputDir(c); err != nil {
		return o, err
	}
	return o, nil
}

// evalOutputDir is --output-dir, refused when it holds files unless
// --overwrite, else a new timestamped folder under --runs-dir/eval/mmlu.
func evalOutputDir(c *cli.Context) (string, error) {
	if dir := c.String("output-dir"); dir != "" {
		if !c.Bool("overwrite") {
			if err := record.RefuseNonEmpty(dir); err != nil {
				return "", err
			}
		}
		return dir, nil
	}
	return record.NewRunDir(filepath.Join(c.String("runs-dir"), "eval", "mmlu"), time.Now()), nil
}

// resolveModel checks the endpoints before the first question and names
// the model when --model is left out: the one the first endpoint serves.
func resolveModel(c *cli.Context, a *ask.Config) error {
	if a.Model == "" {
		if c.Bool("skip-preflight") {
			return errors.New("--model: name the served model when --skip-preflight is set (the harness cannot ask the server which it serves)")
		}
		m, err := ask.ServedModel(c.Context, a.Endpoints[0], a.APIKey)
		if err != nil {
			return fmt.Errorf("--model: %w", err)
		}
		a.Model = m
	}
	if c.Bool("skip-preflight") {
		return nil
	}
	return ask.Preflight(c.Context, a.Endpoints, a.Model, a.APIKey)
}
