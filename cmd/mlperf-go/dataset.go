package main

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/mlperf-go/mlperf-go/internal/benchmark"
	"github.com/mlperf-go/mlperf-go/internal/synth"
)

func datasetCommand() *cli.Command {
	return &cli.Command{
		Name:  "dataset",
		Usage: "work with benchmark datasets",
		Subcommands: []*cli.Command{{
			Name:  "synth",
			Usage: "write a small synthetic dataset in a benchmark's real format (for tests and demos)",
			Description: `qwen3-vl-235b-a22b: parquet shards named as on the hub (train-…, test-…) with the real
columns and real JPEG/PNG images. llama3_1-8b: the reference's CNN/DailyMail JSON records
(input, tok_input, output). gpt-oss-120b: the reference's parquet with token IDs.
The same --seed gives the same bytes.`,
			Flags: []cli.Flag{
				&cli.StringFlag{Name: "benchmark", Aliases: []string{"b"}, Required: true, Usage: "benchmark: " + fmt.Sprint(benchmark.Names())},
				&cli.IntFlag{Name: "samples", Aliases: []string{"n"}, Value: 100, Usage: "number of samples"},
				&cli.StringFlag{Name: "out", Aliases: []string{"o"}, Required: true, Usage: "output `DIR` (qwen3-vl) or directory for the file (LLMs)"},
				&cli.Uint64Flag{Name: "seed", Usage: "random seed"},
			},
			Action: func(c *cli.Context) error {
				b, err := benchmark.Lookup(c.String("benchmark"))
				if err != nil {
					return err
				}
				n, out, seed := c.Int("samples"), c.String("out"), c.Uint64("seed")
				if n <= 0 {
					return fmt.Errorf("--samples must be positive, got %d", n)
				}
				if err := os.MkdirAll(out, 0o755); err != nil {
					return err
				}
				start := time.Now()
				var files []string
				switch b.Name {
				case "qwen3-vl-235b-a22b":
					files, err = synth.Q3VL(out, n, synth.Q3VLSynthOptions{Seed: seed})
				case "llama3_1-8b":
					p := filepath.Join(out, "cnn_eval.json")
					err, files = synth.Llama(p, n, int64(seed)), []string{p}
				case "gpt-oss-120b":
					p := filepath.Join(out, "gpt-oss-120b.parquet")
					err, files = synth.GPTOSS(p, n, int64(seed)), []string{p}
				}
				if err != nil {
					return err
				}
				fmt.Fprintf(c.App.ErrWriter, "wrote %d %s samples in %s\n", n, b.Name, time.Since(start).Round(time.Millisecond))
				for _, f := range files {
					fmt.Fprintln(c.App.Writer, f)
				}
				return nil
			},
		}},
	}
}
