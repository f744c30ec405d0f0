package main

import (
	"strings"

	"github.com/urfave/cli/v2"

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
