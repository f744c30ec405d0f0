package main

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/workflow"
)

const catEval = "Accuracy evaluation"

// evalFlags are the flags of scoring an accuracy log, shared by evaluate
// and run --evaluate (--mode both).
func evalFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "tokenizer", Category: catEval, DefaultText: "the model's, from a model folder or the Hugging Face cache", Usage: "tokenizer `PATH` that decodes token-ID answers: a tokenizer.json, a tokenizer.model or a folder holding one"},
		&cli.StringFlag{Name: "tokenizer-model", Category: catEval, DefaultText: "the benchmark's model", Usage: "model `NAME` or folder whose tokenizer to look up in the Hugging Face cache"},
		&cli.StringFlag{Name: "clean-up-spaces", Category: catEval, Value: "round", Usage: "decode's clean_up_tokenization_spaces: round (what the round's targets were computed with), true or false"},
		&cli.StringFlag{Name: "livecodebench", Category: catEval, Usage: "LiveCodeBench code_generation_lite `PATH` (its .jsonl files or their folder) whose tests grade code answers"},
		&cli.StringFlag{Name: "python", Category: catEval, Value: "python3", Usage: "`INTERPRETER` code answers run under (in a sandbox without network), and PRM800K's grader"},
		&cli.StringFlag{Name: "verdicts", Category: catEval, Usage: "write one JSON line per scored sample to `FILE`: its index, what the scorer extracted from the answer, the verdict or per-sample metrics, and why, to audit the score against the reference's sample by sample"},
		&cli.StringFlag{Name: "prm800k", Category: catEval, Usage: "PRM800K's prm800k `FOLDER` (holding grading/grader.py) whose grade_answer, under --python with sympy and pylatexenc, grades the MATH-500 answers only sympy can (deepseek-r1)"},
	}
}

// evalSettings reads evalFlags.
func evalSettings(c *cli.Context) workflow.EvalSettings {
	return workflow.EvalSettings{Tokenizer: c.String("tokenizer"), TokenizerModel: c.String("tokenizer-model"),
		LiveCodeBench: c.String("livecodebench"), Python: c.String("python"), PRM800K: c.String("prm800k"),
		CleanUpSpaces: c.String("clean-up-spaces"), Verdicts: c.String("verdicts")}
}

func evaluateCommand() *cli.Command {
	return &cli.Command{
		Name:  "evaluate",
		Usage: "score an accuracy run's mlperf_log_accuracy.json against the dataset, as the official evaluator does",
		Description: `Scores the log in Go exactly as the benchmark's official evaluator does, writes accuracy.txt in
the evaluator's printed format, and judges it as the round's submission checker does: a table of
each metric, its value, its bound and PASS or FAIL.

` + benchmarkTable(func(b benchmark.Benchmark) string { return b.Data.Scoring }) + `

When the run's folder holds its run record (mlperf_go_run.json), the verdict is recorded in it and
in results.json. A run filed into a results tree (<Scenario>/accuracy/) gets accuracy.txt and the
verdict only when they pass: the tree holds only submittable runs, so a FAIL leaves it as filed
(--output keeps the new accuracy.txt elsewhere). Exits 1 if the log fails its checks or a metric misses its bound;
130 when interrupted (Ctrl-C stops the scoring and the processes it started).`,
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "benchmark", Aliases: []string{"b"}, Required: true, Usage: "benchmark the log belongs to: " + strings.Join(benchmark.Names(), ", ")},
			&cli.StringFlag{Name: "accuracy-log", Aliases: []string{"l"}, Required: true, Usage: "LoadGen's mlperf_log_accuracy.json `FILE`, or the run's folder holding it (a --mode both run's: its accuracy/)"},
			&cli.StringSliceFlag{Name: "dataset", Aliases: []string{"d"}, Required: true, Usage: "the dataset `PATH` the run used"},
			&cli.StringSliceFlag{Name: "dataset-split", Usage: "dataset splits, as in the run (default: the benchmark's official ones)"},
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "accuracy.txt `FILE` to write (default: next to the log)"},
			&cli.Uint64Flag{Name: "seed", DefaultText: "the reference's", Usage: "random seed of the evaluator's baseline and of invalid-response fills (the reference's --random-seed)"},
			&cli.IntFlag{Name: "workers", DefaultText: "the reference's", Usage: "the reference evaluator's worker count min(cpu_count, 4); changes only random draws"},
			&cli.BoolFlag{Name: "interactive", Usage: "judge against the Interactive scenario's target"},
			roundFlag(""),
		}, evalFlags()...),
		Action: func(c *cli.Context) error {
			// The code tests and graders run in process groups of their own,
			// which a terminal's Ctrl-C does not reach: the context kills them.
			ctx := c.Context
			scored, err := workflow.EvaluateLog(ctx, evalRequest(c))
			scored.Print(c.App.Writer, c.App.ErrWriter)
			if err != nil && ctx.Err() != nil {
				return exitError{130, fmt.Errorf("interrupted: the evaluation was stopped (%w)", err)}
			}
			return err
		},
	}
}

// evalRequest reads the evaluate command's flags into the workflow's
// request, each flag read once; workflow.EvaluateLog checks them.
func evalRequest(c *cli.Context) workflow.EvalRequest {
	return workflow.EvalRequest{
		Benchmark: c.String("benchmark"), AccuracyLog: c.String("accuracy-log"), Output: c.String("output"),
		Dataset: c.StringSlice("dataset"), Splits: c.StringSlice("dataset-split"), Round: c.String("round"),
		Seed: given(c, "seed", c.Uint64), Workers: c.Int("workers"), Interactive: c.Bool("interactive"), Eval: evalSettings(c),
	}
}

// helpWidth is the width help tables are wrapped to.
const helpWidth = 96

// benchmarkTable lays out one row per registered benchmark for help text:
// its name, then what text says of it, wrapped to helpWidth under a
// column of its own, so a newly registered benchmark appears without an
// edit here.
func benchmarkTable(text func(benchmark.Benchmark) string) string {
	all := benchmark.All()
	col := 0
	for _, b := range all {
		col = max(col, len(b.Name))
	}
	indent := strings.Repeat(" ", 2+col+2)
	var rows []string
	for _, b := range all {
		row := "  " + b.Name + strings.Repeat(" ", col-len(b.Name)+2)
		width := len(row)
		for i, w := range strings.Fields(text(b)) {
			if i > 0 && width+1+len(w) > helpWidth {
				row += "\n" + indent
				width = len(indent)
			} else if i > 0 {
				row += " "
				width++
			}
			row += w
			width += len(w)
		}
		rows = append(rows, row)
	}
	return strings.Join(rows, "\n")
}
