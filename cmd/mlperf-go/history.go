package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/mlperf-go/mlperf-go/loadgen"
	"github.com/mlperf-go/mlperf-go/record"
	"github.com/mlperf-go/mlperf-go/report"
	"github.com/mlperf-go/mlperf-go/run"
)

// historyFlags are the flags of the run history: where runs go without
// --output-dir, and leave to reuse a folder.
func historyFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "runs-dir", Value: "runs", Category: catResults, Usage: "without --output-dir, each run goes to a new folder `DIR`/<benchmark>/<Scenario>-<mode>/<UTC time>/, " +
			"with a `latest` link beside it and DIR/index.html listing every run"},
		&cli.BoolFlag{Name: "overwrite", Category: catResults, Usage: "let --output-dir name a folder that already holds files (LoadGen's logs in it are replaced)"},
	}
}

// modeDirNames names each mode's folder as --mode spells it.
var modeDirNames = map[loadgen.Mode]string{
	loadgen.PerformanceOnly:     "performance",
	loadgen.AccuracyOnly:        "accuracy",
	loadgen.FindPeakPerformance: "find-peak-performance",
	loadgen.SubmissionRun:       "submission",
}

// chooseOutputDir sets o.OutputDir: --output-dir if given, refused when it
// already holds files unless --overwrite (an earlier run's logs are never
// silently replaced); else a new timestamped folder under --runs-dir
// (<benchmark>/<Scenario>-<mode or compliance test>/<UTC time>/).
// It returns the runs root to index after the run, "" for --output-dir.
func chooseOutputDir(c *cli.Context, o *run.Options) (runsRoot string, err error) {
	if dir := c.String("output-dir"); dir != "" {
		if !c.Bool("overwrite") {
			if err := record.RefuseNonEmpty(dir); err != nil {
				return "", err
			}
		}
		o.OutputDir = dir
		return "", nil
	}
	root := c.String("runs-dir")
	mode := modeDirNames[o.Mode]
	switch {
	case isModeBoth(c):
		mode = record.ModeBoth
	case c.String("compliance") != "":
		// An audit run is no performance result: <Scenario>-TEST06/ keeps
		// it out of <Scenario>-performance/ and its latest link.
		mode = c.String("compliance")
	}
	o.OutputDir = record.NewRunDir(record.RunsFolder(root, o.Benchmark.Name, o.SubmissionScenario(), mode), time.Now())
	return root, nil
}

// writeRunsIndex points `latest` at the run that just ended in runDir and
// rebuilds the runs root's index.html and index.md. Like the run's own
// report it never changes the run's outcome.
func writeRunsIndex(c *cli.Context, root, runDir string) {
	if root == "" {
		return
	}
	if err := record.LinkLatest(runDir); err != nil {
		fmt.Fprintf(c.App.ErrWriter, "mlperf-go: could not point %s at %s: %v\n", record.LatestLink, runDir, err)
	}
	entries, err := report.WriteTree(root)
	if len(entries) > 0 {
		fmt.Fprintf(c.App.Writer, "  %-42s %s\n", "Index of runs", filepath.Join(root, record.IndexHTMLFile))
	}
	if err != nil {
		msg := strings.ReplaceAll(err.Error(), "\n", "; ")
		fmt.Fprintf(c.App.ErrWriter, "mlperf-go: the index of %s is incomplete: %s\n", root, msg)
	}
}
