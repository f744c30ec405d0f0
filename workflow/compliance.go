package workflow

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/mlperf-go/mlperf-go/loadgen/mllog"
	"github.com/mlperf-go/mlperf-go/record"
	"github.com/mlperf-go/mlperf-go/run"
	"github.com/mlperf-go/mlperf-go/submission"
	"github.com/mlperf-go/mlperf-go/submission/compliance"
)

// verifyCompliance runs compliance test test's verification on the
// finished run in rep.LogDir, writes the reference's verify_*.txt there
// (filing copies it into the results tree) and makes the verdict the run's
// outcome (run.Report.JudgeCompliance): LoadGen's performance verdict does
// not judge an audit run. TEST07 is scored in Go against the run's dataset
// with the plan's Eval settings unless AccuracyScript names the official
// accuracy command. A verification that cannot run is a verdict too (NOT
// VERIFIED, saying why). It returns nil for a run that is not Verifiable.
func (p *Plan) verifyCompliance(ctx context.Context, o run.Options, rep *run.Report, test string) *record.Compliance {
	if !rep.Verifiable() {
		return nil
	}
	verdict, err := p.verify(ctx, o, rep.LogDir, test)
	if err != nil {
		verdict = &record.Compliance{Test: test, Error: err.Error()}
	}
	rep.JudgeCompliance(verdict)
	return verdict
}

func (p *Plan) verify(ctx context.Context, o run.Options, dir, test string) (*record.Compliance, error) {
	eo, err := p.evalOptions(o)
	if err != nil {
		return nil, err
	}
	eo.Verdicts = "" // --verdicts is the accuracy run's; a compliance test's scoring would overwrite it
	vo := compliance.VerifyOptions{Scenario: o.SubmissionScenario(), AccuracyScript: p.AccuracyScript, Dataset: o.Data, Eval: eo}
	if test == submission.TEST01 {
		vo.TEST01 = p.test01Reference(o)
	}
	v, err := compliance.Verify(ctx, filepath.Join(dir, mllog.AccuracyFile), o.Benchmark.Name, test, vo)
	if err != nil {
		return nil, err
	}
	if err := v.Write(dir); err != nil {
		return nil, err
	}
	return &v.Verdict, nil
}

// test01Reference finds the accuracy and performance runs TEST01 compares
// a run with: those filed in ResultsDir for System, where the reference's
// scripts look, else the newest of each in the RunsDir history (a zero
// reference when there are none).
func (p *Plan) test01Reference(o run.Options) compliance.TEST01Reference {
	scen := o.SubmissionScenario()
	if f := p.Filing; f != nil {
		rd, sys := f.ResultsDir, f.System
		if dir, err := submission.ScenarioDir(rd, sys, o.Benchmark.Name, scen); err == nil {
			if ref := compliance.TEST01ReferenceIn(dir); fileExists(ref.AccuracyLog) && fileExists(ref.PerformanceDetail) {
				return ref
			}
		}
	}
	root := p.RunsDir
	acc := record.NewestRun(root, o.Benchmark.Name, scen, record.KindAccuracy)
	perf := record.NewestRun(root, o.Benchmark.Name, scen, record.KindPerformance)
	if acc == "" || perf == "" {
		return compliance.TEST01Reference{}
	}
	return compliance.TEST01Reference{
		AccuracyLog:       filepath.Join(acc, mllog.AccuracyFile),
		PerformanceDetail: filepath.Join(perf, mllog.DetailFile),
	}
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// precheckCompliance makes, before the test, the checks its verification
// will need, rather than after an hour-long run: TEST01 compares with the
// scenario's accuracy and performance runs, which must exist. (TEST07's
// tokenizer is precheckEvaluation's.)
func (p *Plan) precheckCompliance() error {
	if p.Compliance == submission.TEST01 && p.test01Reference(p.Tests[0].Options).AccuracyLog == "" {
		return fmt.Errorf("--compliance TEST01 compares the run with this scenario's accuracy and performance runs, and there are none in --runs-dir %s (or --results-dir for --system): run them first, with -m accuracy and -m performance (checked before the test, so no run is wasted)", p.RunsDir)
	}
	return nil
}

// complianceError is the error of a compliance run whose verification did
// not pass: what failed, and where the verification's file is.
func complianceError(rep *run.Report, v *record.Compliance) error {
	if v.Error != "" {
		return failure{Failed, fmt.Errorf("%s: fix the cause and run the test again (this run's logs are in %s)", v.Summary(), rep.LogDir)}
	}
	return failure{Failed, fmt.Errorf("%s: see %s", v.Summary(), filepath.Join(rep.LogDir, v.File))}
}
