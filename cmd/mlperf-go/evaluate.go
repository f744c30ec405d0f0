package main

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"github.com/mlperf-go/mlperf-go/internal/acclog"
	"github.com/mlperf-go/mlperf-go/internal/benchmark"
	"github.com/mlperf-go/mlperf-go/internal/eval/llm"
	"github.com/mlperf-go/mlperf-go/internal/eval/q3vl"
	"github.com/mlperf-go/mlperf-go/internal/runner"
)

func evaluateCommand() *cli.Command {
	return &cli.Command{
		Name:  "evaluate",
		Usage: "score an accuracy run's mlperf_log_accuracy.json against the dataset",
		Description: `qwen3-vl-235b-a22b: computes what the reference evaluator computes (hierarchical category
F1, brand score, is_secondhand F1, schema-invalid responses, the random baseline), prints
the table and writes accuracy.txt in the reference's format ({"f1": …} and its hash).

llama3_1-8b, gpt-oss-120b: checks the log against the dataset (every sample once, token
counts, output lengths) and prints the official evaluator command that computes the score
(ROUGE / exact match need the reference's Python tooling). Exits 1 if a check fails or
the target is missed.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "benchmark", Aliases: []string{"b"}, Required: true, Usage: "benchmark the log belongs to"},
			&cli.StringFlag{Name: "accuracy-log", Aliases: []string{"l"}, Required: true, Usage: "LoadGen's mlperf_log_accuracy.json `FILE`"},
			&cli.StringSliceFlag{Name: "dataset", Aliases: []string{"d"}, Required: true, Usage: "the dataset `PATH` the run used"},
			&cli.StringSliceFlag{Name: "dataset-split", Usage: "qwen3-vl splits, as in the run (default train, test)"},
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "accuracy.txt `FILE` to write (qwen3-vl; default: next to the log)"},
			&cli.Uint64Flag{Name: "seed", Value: q3vl.DefaultOptions().Seed, Usage: "qwen3-vl: random seed of the baseline and of invalid-response fills (the reference's --random-seed)"},
			&cli.IntFlag{Name: "workers", Value: q3vl.DefaultOptions().Workers, Usage: "qwen3-vl: the reference's worker count min(cpu_count, 4); changes only random draws"},
			&cli.BoolFlag{Name: "interactive", Usage: "qwen3-vl: judge against the Interactive scenario's target"},
			roundFlag(""),
		},
		Action: func(c *cli.Context) error {
			b, err := benchmark.Lookup(c.String("benchmark"))
			if err != nil {
				return err
			}
			d, err := runner.OpenDataset(b, c.StringSlice("dataset"), c.StringSlice("dataset-split"))
			if err != nil {
				return err
			}
			defer d.Close()
			logPath := c.String("accuracy-log")
			out := c.String("output")
			if out == "" {
				out = filepath.Join(filepath.Dir(logPath), "accuracy.txt")
			}
			round, err := flagRound(c, nil)
			if err != nil {
				return err
			}
			opts := q3vl.Options{Seed: c.Uint64("seed"), Workers: c.Int("workers"), Interactive: c.Bool("interactive"), Round: round}
			return evaluate(c, b, d, logPath, out, opts)
		},
	}
}

// evaluate scores one accuracy log; `run --evaluate` calls it too.
func evaluate(c *cli.Context, b benchmark.Benchmark, d *runner.Dataset, logPath, out string, opts q3vl.Options) error {
	entries, err := acclog.Read(logPath)
	if err != nil {
		return err
	}
	w := c.App.Writer
	if d.Q3VL != nil {
		res, err := opts.Evaluate(entries, d.Q3VLTruth())
		if err != nil {
			return err
		}
		fmt.Fprintln(w, res.Table())
		fmt.Fprintln(w, res.Summary())
		if err := q3vl.WriteAccuracyTxt(out, res, ""); err != nil {
			return err
		}
		fmt.Fprintf(w, "wrote %s\n", out)
		if !res.MeetsTarget() {
			return exitError{1, fmt.Errorf("f1 %.6f is below the target %.6f", res.CategoryF1, res.Target)}
		}
		return nil
	}
	info, err := llm.Info(b.Name, d.Tokens)
	if err != nil {
		return err
	}
	rep := llm.Check(entries, info)
	fmt.Fprintln(w, rep.Format())
	cmd, err := llm.EvaluatorCommand(b.Name, logPath, d.Tokens.Path())
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "\nScore it with the official evaluator, from the root of an mlcommons/inference checkout:\n  %s\n", cmd)
	if !rep.OK() {
		return exitError{1, errors.New("the accuracy log failed its checks (see above)")}
	}
	return nil
}
