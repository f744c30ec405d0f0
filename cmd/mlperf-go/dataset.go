package main

import (
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/mlperf-go/mlperf-go/benchmark"
)

func datasetCommand() *cli.Command {
	return &cli.Command{
		Name:  "dataset",
		Usage: "work with benchmark datasets",
		Subcommands: []*cli.Command{{
			Name:  "synth",
			Usage: "write a small synthetic dataset in a benchmark's real format (for tests and demos)",
			Description: `Writes the files --dataset takes, in the benchmark's real on-disk format (parquet shards
named as on the hub with real JPEG/PNG images, or the reference's token-ID JSON or parquet),
and prints their paths. The same --seed gives the same bytes.`,
			Flags: []cli.Flag{
				&cli.StringFlag{Name: "benchmark", Aliases: []string{"b"}, Required: true, Usage: "benchmark: " + strings.Join(benchmark.Names(), ", ")},
				&cli.IntFlag{Name: "samples", Aliases: []string{"n"}, Value: 100, Usage: "number of samples"},
				&cli.StringFlag{Name: "out", Aliases: []string{"o"}, Required: true, Usage: "output `DIR` (the files are written in it)"},
				&cli.Uint64Flag{Name: "seed", Usage: "random seed"},
			},
			Action: func(c *cli.Context) error {
				b, err := benchmark.Lookup(c.String("benchmark"))
				if err != nil {
					return err
				}
				if b.Synth == nil {
					return fmt.Errorf("benchmark %s has no synthetic dataset writer", b.Name)
				}
				n, out, seed := c.Int("samples"), c.String("out"), c.Uint64("seed")
				if n <= 0 {
					return fmt.Errorf("--samples must be positive, got %d", n)
				}
				if err := os.MkdirAll(out, 0o755); err != nil {
					return err
				}
				start := time.Now()
				files, err := b.Synth(out, n, seed)
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
