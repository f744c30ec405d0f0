package workflow

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/mlperf-go/mlperf-go/loadgen"
	"github.com/mlperf-go/mlperf-go/record"
	"github.com/mlperf-go/mlperf-go/report"
	"github.com/mlperf-go/mlperf-go/run"
	"github.com/mlperf-go/mlperf-go/submission/filing"
)

// chooseOutputDir sets o.OutputDir: the plan's OutputDir if given, refused
// when it already holds files unless Overwrite (an earlier run's logs are
// never silently replaced); else a new timestamped folder under RunsDir
// (<benchmark>/<Scenario>-<mode or compliance test>/<UTC time>/).
// It returns the runs root to index after the run, "" for OutputDir.
func (p *Plan) chooseOutputDir(o *run.Options) (runsRoot string, err error) {
	mode := run.ModeName(o.Mode)
	switch {
	case p.Both:
		mode = record.ModeBoth
	case p.Compliance != "":
		// An audit run is no performance result: <Scenario>-TEST06/ keeps
		// it out of <Scenario>-performance/ and its latest link.
		mode = p.Compliance
	}
	o.OutputDir, err = record.ChooseRunDir(p.OutputDir, p.Overwrite, record.RunsFolder(p.RunsDir, o.Benchmark.Name, o.SubmissionScenario(), mode))
	if err != nil || p.OutputDir != "" {
		return "", err
	}
	return p.RunsDir, nil
}

// writeRunsIndex points `latest` at the run that just ended in runDir and
// rebuilds the runs root's index.html and index.md. Like the run's own
// report it never changes the run's outcome.
func (p *Plan) writeRunsIndex(root, runDir string) {
	if root == "" {
		return
	}
	if err := record.LinkLatest(runDir); err != nil {
		fmt.Fprintf(p.Stderr, "mlperf-go: could not point %s at %s: %v\n", record.LatestLink, runDir, err)
	}
	entries, err := report.WriteTree(root)
	if len(entries) > 0 {
		fmt.Fprintf(p.Stdout, "  %-42s %s\n", "Index of runs", filepath.Join(root, record.IndexHTMLFile))
	}
	if err != nil {
		msg := strings.ReplaceAll(err.Error(), "\n", "; ")
		fmt.Fprintf(p.Stderr, "mlperf-go: the index of %s is incomplete: %s\n", root, msg)
	}
}

// precheckFiling makes, before the test, the checks filing into
// ResultsDir will make after it (an earlier run in place, another
// user.conf filed for the scenario), for each test the plan runs.
func (p *Plan) precheckFiling(o run.Options) error {
	dir := p.ResultsDir
	if dir == "" {
		return nil
	}
	conf, err := o.UserConfText()
	if err != nil {
		return err
	}
	kinds := []record.Kind{record.KindPerformance}
	switch {
	case p.Compliance != "":
		kinds = []record.Kind{record.Kind(p.Compliance)}
	case p.Both:
		kinds = []record.Kind{record.KindAccuracy, record.KindPerformance}
	case o.Mode == loadgen.AccuracyOnly:
		kinds = []record.Kind{record.KindAccuracy}
	}
	for _, k := range kinds {
		if err := filing.Precheck(filing.RunRecord{ResultsDir: dir, System: p.System, Benchmark: o.Benchmark.Name,
			Scenario: o.SubmissionScenario(), Kind: k, Replace: p.Replace}, conf); err != nil {
			return fmt.Errorf("--results-dir: %w (checked before the test, so no run is wasted)", err)
		}
	}
	return nil
}

// fileRun files the run into the results tree, a compliance run with its
// verification's file (written beside its logs by verifyCompliance).
func (p *Plan) fileRun(o run.Options, rep *run.Report, test string) error {
	dir, err := filing.FileRun(filing.RunRecord{
		ResultsDir: p.ResultsDir,
		System:     p.System,
		Benchmark:  o.Benchmark.Name,
		Scenario:   o.SubmissionScenario(),
		Kind:       rep.Kind(test),
		LogDir:     rep.LogDir,
		UserConf:   rep.UserConf,
		Command:    p.Record.Command,
		Replace:    p.Replace,
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(p.Stdout, "  %-42s %s\n", "Filed as", dir)
	return nil
}
