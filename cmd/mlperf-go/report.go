package main

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"github.com/mlperf-go/mlperf-go/record"
	"github.com/mlperf-go/mlperf-go/report"
	"github.com/mlperf-go/mlperf-go/results"
)

func reportCommand() *cli.Command {
	return &cli.Command{
		Name:      "report",
		Usage:     "(re)build results.json, report.html and report.md of runs, and an index of a results tree",
		ArgsUsage: "DIR [DIR...]",
		Description: `For a run's --output-dir (a directory holding mlperf_log_detail.txt): writes results.json
(schema ` + results.Schema + `, see docs/results-schema.md), report.html (one self-contained page:
throughput over time, requests in flight, latency/TTFT/TPOT distributions, failures, engine
metrics) and report.md, from LoadGen's logs, mlperf_go_run.json, timeline.jsonl and
engine_metrics.jsonl. ` + "`run`" + ` does this at the end of every run.

For any other directory (a results tree, or a folder of runs): does the same for every run
under it and writes index.html and index.md listing them.

Example:
  mlperf-go report out/llama-server
  mlperf-go report results/`,
		Action: reportAction,
	}
}

func reportAction(c *cli.Context) error {
	if c.NArg() == 0 {
		return errors.New("report: give at least one DIR: a run's --output-dir or a results tree")
	}
	var errs []error
	for _, dir := range c.Args().Slice() {
		w, err := report.WriteDir(dir)
		if w.Run != nil {
			fmt.Fprintf(c.App.Writer, "%s: %s → %s\n", dir, w.Run.Outcome.Status, filepath.Join(dir, record.ReportHTMLFile))
		}
		for _, e := range w.Tree {
			if e.Err == nil {
				fmt.Fprintf(c.App.Writer, "%s: %s\n", filepath.Join(dir, e.Rel), e.Results.Outcome.Status)
			}
		}
		if len(w.Tree) > 0 {
			fmt.Fprintf(c.App.Writer, "index: %s\n", filepath.Join(dir, record.IndexHTMLFile))
		}
		if err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
