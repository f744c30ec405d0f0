package main

import (
	"fmt"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"github.com/mlperf-go/mlperf-go/benchmark"
)

func evaluateCommand() *cli.Command {
	return &cli.Command{
		Name:  "evaluate",
		Usage: "score an accuracy run's mlperf_log_accuracy.json against the dataset",
		Description: `Benchmarks scored in Go (text answers) compute what the reference evaluator computes, print
its table and write accuracy.txt in the reference's format ({"f1": …} and its hash).

Token-ID LLM benchmarks: checks the log against the dataset (every sample once, token
counts, output lengths) and prints the official evaluator command that computes the score
(ROUGE / exact match need the reference's Python tooling). Exits 1 if a check fails or
the target is missed.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "benchmark", Aliases: []string{"b"}, Required: true, Usage: "benchmark the log belongs to"},
			&cli.StringFlag{Name: "accuracy-log", Aliases: []string{"l"}, Required: true, Usage: "LoadGen's mlperf_log_accuracy.json `FILE`"},
			&cli.StringSliceFlag{Name: "dataset", Aliases: []string{"d"}, Required: true, Usage: "the dataset `PATH` the run used"},
			&cli.StringSliceFlag{Name: "dataset-split", Usage: "dataset splits, as in the run (default: the benchmark's official ones)"},
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "accuracy.txt `FILE` to write (benchmarks scored in Go; default: next to the log)"},
			&cli.Uint64Flag{Name: "seed", DefaultText: "the reference's", Usage: "random seed of the evaluator's baseline and of invalid-response fills (the reference's --random-seed)"},
			&cli.IntFlag{Name: "workers", DefaultText: "the reference's", Usage: "the reference evaluator's worker count min(cpu_count, 4); changes only random draws"},
			&cli.BoolFlag{Name: "interactive", Usage: "judge against the Interactive scenario's target"},
			roundFlag(""),
		},
		Action: func(c *cli.Context) error {
			b, err := benchmark.Lookup(c.String("benchmark"))
			if err != nil {
				return err
			}
			d, err := b.OpenDataset(c.StringSlice("dataset"), c.StringSlice("dataset-split"))
			if err != nil {
				return err
			}
			defer d.Close()
			logPath := c.String("accuracy-log")
			o := benchmark.EvalOptions{Benchmark: b, Out: c.String("output"), Workers: c.Int("workers"), Interactive: c.Bool("interactive") || b.IsInteractive()}
			if o.Out == "" {
				o.Out = filepath.Join(filepath.Dir(logPath), "accuracy.txt")
			}
			if c.IsSet("seed") {
				seed := c.Uint64("seed")
				o.Seed = &seed
			}
			if o.Round, err = flagRound(c, nil); err != nil {
				return err
			}
			return evaluate(c, d, logPath, o)
		},
	}
}

// evaluate scores one accuracy log with the benchmark's evaluator and
// prints what it found; `run --evaluate` calls it too.
func evaluate(c *cli.Context, d benchmark.Dataset, logPath string, o benchmark.EvalOptions) error {
	ev, err := d.Evaluate(logPath, o)
	if err != nil {
		return err
	}
	fmt.Fprint(c.App.Writer, ev.Report)
	if ev.Failure != nil {
		return exitError{1, ev.Failure}
	}
	return nil
}
