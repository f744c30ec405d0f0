package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/urfave/cli/v2"
	"go.uber.org/zap"

	"github.com/mlperf-go/mlperf-go/submission"
)

// roundFlag is the --round flag of run and evaluate: which round's reference
// the requests and scoring follow where a benchmark's rounds differ (the
// benchmark decides what changes: BodyOptions.Round, EvalOptions.Round).
func roundFlag(category string) *cli.StringFlag {
	return &cli.StringFlag{
		Name: "round", Value: defaultRound(), Category: category,
		DefaultText: defaultRound() + ", the round whose seeds the linked LoadGen writes",
		Usage: "MLPerf round `ROUND` whose reference the requests and scoring follow, for benchmarks whose rounds differ: " +
			strings.Join(submission.RoundNames(), ", "),
	}
}

// flagRound reads --round and checks it (submission.CheckRound).
func flagRound(c *cli.Context, log *zap.Logger) (string, error) {
	round := c.String("round")
	return round, submission.CheckRound(round, log)
}

// positionalArgs returns c's positional arguments after reading any flags
// written among or after them, which urfave/cli v2 leaves unparsed (it stops
// at the first argument): `check OUT --round v6.1` then means
// `check --round v6.1 OUT`. "--" ends the flags.
func positionalArgs(c *cli.Context) ([]string, error) {
	var pos []string
	rest := c.Args().Slice()
	for len(rest) > 0 {
		switch a := rest[0]; {
		case a == "--":
			return append(pos, rest[1:]...), nil
		case a == "-" || !strings.HasPrefix(a, "-"):
			pos = append(pos, a)
			rest = rest[1:]
			continue
		}
		fs := flag.NewFlagSet(c.Command.Name, flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		for _, f := range c.Command.Flags {
			if err := f.Apply(fs); err != nil {
				return nil, err
			}
		}
		if err := fs.Parse(rest); err != nil {
			return nil, fmt.Errorf("%s: %w (see `mlperf-go %s --help`)", c.Command.FullName(), err, c.Command.FullName())
		}
		var err error
		fs.Visit(func(f *flag.Flag) {
			if err == nil {
				err = c.Set(f.Name, f.Value.String())
			}
		})
		if err != nil {
			return nil, err
		}
		rest = fs.Args()
	}
	return pos, nil
}
