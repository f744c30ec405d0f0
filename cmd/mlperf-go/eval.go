package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/mlperf-go/mlperf-go/internal/redact"
	"github.com/mlperf-go/mlperf-go/quality/ask"
	"github.com/mlperf-go/mlperf-go/quality/mmlu"
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
	defer o.Reservation.ReleaseUnused()
	o.Ask.Logger = log
	ctx := c.Context
	plan, err := mmlu.Prepare(o)
	if err != nil {
		return err
	}
	if err := o.Ask.ResolveModel(c.Context, c.Bool("skip-preflight")); err != nil {
		return err
	}
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
	case res.Overall.NoneParsed():
		return exitError{1, fmt.Errorf("no answer chose a letter (%d answers, listed in %s): the endpoint does not answer MMLU's questions; check the model and its chat template", res.Overall.Unparseable, mmlu.SamplesFile)}
	}
	return nil
}

// evalMMLUOptions reads the flags; mmlu.Request.Options checks them,
// before any request.
func evalMMLUOptions(c *cli.Context) (mmlu.Options, error) {
	progress := c.App.ErrWriter
	if progress == nil {
		progress = os.Stderr
	}
	return mmlu.Request{Dataset: c.String("dataset"), Dev: c.String("dev"), Shots: c.Int("shots"), Subset: c.Int("subset"),
		SubsetGiven: c.IsSet("subset"), Seed: c.Uint64("seed"), Subjects: c.StringSlice("subjects"), API: c.String("api"),
		Endpoints: c.StringSlice("endpoint"), Model: c.String("model"), Concurrency: c.Int("concurrency"), Timeout: c.Duration("timeout"),
		MaxTokens: given(c, "max-tokens", c.Int), Temperature: c.Float64("temperature"),
		APIKeyFile: c.String("api-key-file"), APIKeyEnv: c.String("api-key-env"), Resilience: resilienceRequest(c), Given: c.IsSet,
		Progress: progress, ProgressEvery: c.Duration("progress-interval"),
		OutputDir: c.String("output-dir"), Overwrite: c.Bool("overwrite"), RunsDir: c.String("runs-dir")}.Options()
}
