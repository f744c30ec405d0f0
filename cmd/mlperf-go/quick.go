package main

import (
	"errors"
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/mlperf-go/mlperf-go/run"
)

// quickSamples is how many samples a --quick run holds in its QSL and
// issues: enough to exercise batching, streaming and the logs, few enough
// that any benchmark's run ends in seconds against a live endpoint.
const quickSamples = 10

// quickFlag is --quick: a smoke run of any benchmark, scenario and mode.
func quickFlag() cli.Flag {
	return &cli.BoolFlag{Name: "quick", Category: catLoadGen, Usage: fmt.Sprintf(
		"smoke run that takes seconds: the QSL holds %d samples (or --total-sample-count), min_duration=0, "+
			"min_query_count and the sample count overrides match it; Server still paces at target_qps. "+
			"Not submittable: --results-dir refuses it; --setting and the shorthands still win", quickSamples)}
}

// quickSettings returns the user.conf lines that shrink a run to n
// samples. mlperf.conf sizes the official runs (e.g. llama3_1-8b Offline
// min_query_count = 13368 and performance_sample_count_override = 13368;
// every scenario's min_duration is ten minutes), so capping the QSL alone
// still issues thousands of samples: each of these must follow it.
func quickSettings(n int) []string {
	return []string{
		"min_duration=0",
		fmt.Sprintf("min_query_count=%d", n),
		fmt.Sprintf("performance_sample_count_override=%d", n),
		fmt.Sprintf("accuracy_sample_count_override=%d", n),
	}
}

// applyQuick turns the run into a smoke run when --quick is set. Its
// settings go first so that the user's own --setting lines and shorthands,
// written after them into user.conf, win.
func applyQuick(c *cli.Context, o *run.Options) error {
	if !c.Bool("quick") {
		return nil
	}
	if c.String("results-dir") != "" {
		return errors.New("--quick runs are too short to submit: drop --results-dir (or drop --quick for a run to file)")
	}
	n := quickSamples
	if o.TotalSampleCount > 0 {
		n = o.TotalSampleCount
	}
	o.TotalSampleCount = n
	o.Settings = append(quickSettings(n), o.Settings...)
	return nil
}
