package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/mlperf-go/mlperf-go/loadgen"
	"github.com/mlperf-go/mlperf-go/report"
	"github.com/mlperf-go/mlperf-go/run"
)

// latestLink is the name of the symbolic link, beside a run's timestamped
// folder, to the newest run of the same benchmark, scenario and mode.
const latestLink = "latest"

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
// silently replaced); else a new timestamped folder under --runs-dir.
// It returns the runs root to index after the run, "" for --output-dir.
func chooseOutputDir(c *cli.Context, o *run.Options) (runsRoot string, err error) {
	if dir := c.String("output-dir"); dir != "" {
		if !c.Bool("overwrite") {
			if err := refuseNonEmpty(dir); err != nil {
				return "", err
			}
		}
		o.OutputDir = dir
		return "", nil
	}
	root := c.String("runs-dir")
	mode := modeDirNames[o.Mode]
	if isModeBoth(c) {
		mode = modeBoth
	}
	parent := filepath.Join(root, o.Benchmark.Name, o.Scenario.String()+"-"+mode)
	// The folder is only named here: the run creates it, so a command
	// that fails before its test (a bad dataset, say) leaves no empty run
	// behind for `latest` to point at.
	o.OutputDir = newRunDir(parent, time.Now().UTC())
	return root, nil
}

// refuseNonEmpty returns an error if dir exists and holds anything.
func refuseNonEmpty(dir string) error {
	f, err := os.Open(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("--output-dir: %w", err)
	}
	defer f.Close()
	if _, err := f.Readdirnames(1); errors.Is(err, io.EOF) {
		return nil
	} else if err != nil {
		return fmt.Errorf("--output-dir %s: %w", dir, err)
	}
	return fmt.Errorf("--output-dir %s already holds files (an earlier run?): choose a new folder, leave out --output-dir "+
		"for a new timestamped one under --runs-dir, or add --overwrite to replace its logs", dir)
}

// newRunDir names a new folder parent/<UTC time>, suffixed when a run of
// the same second already has it. The time is written sortably and
// without colons, which some file systems refuse.
func newRunDir(parent string, now time.Time) string {
	stamp := now.Format("20060102T150405Z")
	dir := filepath.Join(parent, stamp)
	for i := 2; ; i++ {
		if _, err := os.Lstat(dir); errors.Is(err, os.ErrNotExist) {
			return dir
		}
		dir = filepath.Join(parent, fmt.Sprintf("%s-%d", stamp, i))
	}
}

// linkLatest points the `latest` link beside runDir at it, atomically: a
// new link under a temporary name, renamed over the old one.
func linkLatest(runDir string) error {
	parent := filepath.Dir(runDir)
	tmp := filepath.Join(parent, "."+latestLink+".tmp")
	os.Remove(tmp) //nolint:errcheck // a leftover from an interrupted run, if any
	if err := os.Symlink(filepath.Base(runDir), tmp); err != nil {
		return err
	}
	return os.Rename(tmp, filepath.Join(parent, latestLink))
}

// writeRunsIndex points `latest` at the run that just ended in runDir and
// rebuilds the runs root's index.html and index.md. Like the run's own
// report it never changes the run's outcome.
func writeRunsIndex(c *cli.Context, root, runDir string) {
	if root == "" {
		return
	}
	if err := linkLatest(runDir); err != nil {
		fmt.Fprintf(c.App.ErrWriter, "mlperf-go: could not point %s at %s: %v\n", latestLink, runDir, err)
	}
	entries, err := report.WriteTree(root)
	if len(entries) > 0 {
		fmt.Fprintf(c.App.Writer, "  %-42s %s\n", "Index of runs", filepath.Join(root, report.IndexHTMLFile))
	}
	if err != nil {
		msg := strings.ReplaceAll(err.Error(), "\n", "; ")
		fmt.Fprintf(c.App.ErrWriter, "mlperf-go: the index of %s is incomplete: %s\n", root, msg)
	}
}
