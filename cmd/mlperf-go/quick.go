package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/mlperf-go/mlperf-go/workflow"
)

// quickFlag is --quick: a smoke run of any benchmark, scenario and mode.
func quickFlag() cli.Flag {
	return &cli.BoolFlag{Name: "quick", Category: catLoadGen, Usage: fmt.Sprintf(
		"smoke run that takes seconds: the QSL holds %d samples (or --total-sample-count), min_duration=0, "+
			"min_query_count and the sample count overrides match it; Server still paces at target_qps. "+
			"Not submittable: --results-dir refuses it; --setting and the shorthands still win", workflow.QuickSamples)}
}
