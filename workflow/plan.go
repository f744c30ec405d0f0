package workflow

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/mlperf-go/mlperf-go/loadgen"
	"github.com/mlperf-go/mlperf-go/record"
	"github.com/mlperf-go/mlperf-go/run"
	"github.com/mlperf-go/mlperf-go/submission"
	"github.com/mlperf-go/mlperf-go/submission/filing"
)

// BothModes are the tests --mode both runs, in order: accuracy first, so a
// broken deployment shows in seconds of scoring rather than after a ten-
// minute performance run. What a submission needs of every benchmark and
// scenario, with one set of settings.
var BothModes = []loadgen.Mode{loadgen.AccuracyOnly, loadgen.PerformanceOnly}

// Plan is a run decided: what Resolve made of a Request, before anything
// ran. Run carries it out.
type Plan struct {
	// Tests are the LoadGen tests to run, in order, their options complete
	// but for what the session adds (a launched engine's endpoint, the
	// open dataset): one, or --mode both's two, each into its own folder.
	Tests []Test
	// Both: the tests are --mode both's (headed by their mode when
	// printed, the performance test paired with the accuracy one).
	Both bool
	// Dir is the run's folder: the test's, or --mode both's tests'
	// parent. RunsRoot is the runs root to index after the run, "" when
	// Dir is the user's --output-dir.
	Dir, RunsRoot string
	// Launch is the engine to start, nil for none.
	Launch *run.Launch
	// Compliance is the compliance test ("" for none); AccuracyScript
	// TEST07's official command ("" scores in Go).
	Compliance, AccuracyScript string
	// Eval is how accuracy logs are scored.
	Eval EvalSettings
	// RunsDir is the runs root TEST01 looks for its reference runs in.
	RunsDir string
	// Filing is where the tests are filed, nil for nowhere.
	Filing *Filing
	// AllowUnofficial files LoadGen's INVALID and partial accuracy runs
	// (Request.AllowUnofficial).
	AllowUnofficial bool
	// Record is what each test's run record says of how it was made.
	Record run.Record
	// Progress is Request.Progress (never nil).
	Progress io.Writer

	reservation record.Reservation
}

// Test is one LoadGen test of a Plan.
type Test struct {
	// Options are the runner's options, OutputDir included.
	Options run.Options
	// Evaluate scores the test's accuracy log after it.
	Evaluate bool
}

// Filing is where a Plan files its tests: the results tree
// ResultsDir/System/…; Replace moves an earlier run of the same kind
// aside instead of refusing.
type Filing struct {
	ResultsDir, System string
	Replace            bool
}

// Resolve checks r, before anything starts, and decides the run: each
// test's options and folder, the engine to launch, where it is filed,
// and what filing, the evaluation and a compliance verification will need
// (checked now, so that no test is wasted on a run that could not be
// filed or scored). The folder is only reserved: Run creates it, and
// releases what it reserved if no test ran. Its errors name the flags.
func Resolve(r Request) (Plan, error) {
	log := r.Logger
	p := Plan{
		Both: strings.EqualFold(r.ModeName, record.ModeBoth), Compliance: r.Compliance, AccuracyScript: r.AccuracyScript,
		Eval: r.Eval, RunsDir: r.RunsDir, AllowUnofficial: r.AllowUnofficial, Record: r.Record, Progress: r.Progress,
	}
	if p.Progress == nil {
		p.Progress = io.Discard
	}
	if p.Both && p.Compliance != "" {
		return p, errors.New("--mode both runs the accuracy and performance tests; run a --compliance test with --mode performance (or as its test requires)")
	}
	modes := BothModes
	if !p.Both {
		mode, err := run.ParseMode(r.ModeName)
		if err != nil {
			return p, err
		}
		modes = []loadgen.Mode{mode}
	}
	test := r.Test
	test.Mode = modes[0]
	o, err := testOptions(test, log)
	if err != nil {
		return p, err
	}
	if r.ResultsDir != "" {
		if r.System == "" {
			return p, errors.New("--results-dir needs --system NAME (the systems/<NAME>.json the results belong to)")
		}
		p.Filing = &Filing{ResultsDir: r.ResultsDir, System: r.System, Replace: r.Replace}
	}
	// A compliance run's settings come from its audit.config.
	o.SubmissionGrade = p.Filing != nil && p.Compliance == "" && !p.AllowUnofficial
	if err := runSettings(&o, r, p.Progress); err != nil {
		return p, err
	}
	if p.Launch, err = r.Launch.Launch(); err != nil {
		return p, err
	}
	for _, m := range modes {
		t := Test{Options: o}
		t.Options.Mode = m
		if p.Both {
			// A --generation-config may set sampling per mode.
			if err := t.Options.SetSampling(r.Test.GenerationConfig, r.Test.Sampling); err != nil {
				return p, err
			}
		}
		t.Evaluate = m == loadgen.AccuracyOnly && (r.Evaluate || p.Both)
		p.Tests = append(p.Tests, t)
	}
	if r.Evaluate && !p.Both && modes[0] != loadgen.AccuracyOnly {
		return p, fmt.Errorf("--evaluate scores an accuracy run, and --mode %s makes none: pass -m accuracy --evaluate, "+
			"--mode both (an accuracy run, scored, then a performance run), or drop --evaluate", run.ModeName(modes[0]))
	}
	if err := p.precheckFiling(); err != nil {
		return p, err
	}
	if err := p.precheckEvaluation(); err != nil {
		return p, err
	}
	if err := p.precheckCompliance(); err != nil {
		return p, err
	}
	// The folder comes last, once nothing can refuse the run: a refused
	// command leaves no folder behind. What this run makes of the output
	// path goes again if no test ran (a compliance folder, a runs folder):
	// a retry then starts clean.
	if p.Dir, p.RunsRoot, p.reservation, err = chooseDir(r, o, p.Both); err != nil {
		return p, err
	}
	for i := range p.Tests {
		t := &p.Tests[i]
		t.Options.OutputDir = p.Dir
		if p.Both {
			t.Options.OutputDir = filepath.Join(p.Dir, run.ModeName(t.Options.Mode))
		}
	}
	return p, nil
}

// runSettings adds to o the settings the run's own flags ask for:
// --target-qps, --min-duration, --min-query-count and --quick.
func runSettings(o *run.Options, r Request, progress io.Writer) error {
	if r.TargetQPS != nil {
		qps, err := targetQPS(*r.TargetQPS, r.TargetQPSFraction, o.Benchmark, OfflineRunDirs(r.RunsDir, r.ResultsDir, r.System), progress)
		if err != nil {
			return err
		}
		o.Settings = append(o.Settings, fmt.Sprintf("target_qps=%g", qps))
	}
	if r.MinDuration != nil {
		o.Settings = append(o.Settings, fmt.Sprintf("min_duration=%d", *r.MinDuration))
	}
	if r.MinQueryCount != nil {
		o.Settings = append(o.Settings, fmt.Sprintf("min_query_count=%d", *r.MinQueryCount))
	}
	if r.Quick {
		if r.ResultsDir != "" {
			return errors.New("--quick runs are too short to submit: drop --results-dir (or drop --quick for a run to file)")
		}
		// The quick settings go first so that the user's own --setting
		// lines and shorthands, written after them into user.conf, win.
		if o.TotalSampleCount == 0 {
			o.TotalSampleCount = QuickSamples
		}
		o.Settings = append(QuickSettings(o.TotalSampleCount), o.Settings...)
	}
	return nil
}

// chooseDir is the run's folder: --output-dir if given, refused when it
// already holds files unless --overwrite (an earlier run's logs are never
// silently replaced); else a new timestamped folder under --runs-dir
// (<benchmark>/<Scenario>-<mode or compliance test>/<UTC time>/), created
// now so that no other run takes it, whose root it returns to index after
// the run.
func chooseDir(r Request, o run.Options, both bool) (dir, runsRoot string, res record.Reservation, err error) {
	mode := run.ModeName(o.Mode)
	switch {
	case both:
		mode = record.ModeBoth
	case r.Compliance != "":
		// An audit run is no performance result: <Scenario>-TEST06/ keeps
		// it out of <Scenario>-performance/ and its latest link.
		mode = r.Compliance
	}
	dir, res, err = record.ChooseRunDir(r.OutputDir, r.Overwrite, record.RunsFolder(r.RunsDir, o.Benchmark.Name, o.SubmissionScenario(), mode))
	if err != nil || r.OutputDir != "" {
		return dir, "", res, err
	}
	return dir, r.RunsDir, res, nil
}

// kind is what a test of the plan is filed as: its compliance test, or
// its mode.
func (p *Plan) kind(t Test) record.Kind {
	switch {
	case p.Compliance != "":
		return record.Kind(p.Compliance)
	case t.Options.Mode == loadgen.AccuracyOnly:
		return record.KindAccuracy
	}
	return record.KindPerformance
}

// precheckFiling makes, before the test, the checks filing will make
// after it (an earlier run in place, another user.conf filed for the
// scenario), for each test of the plan.
func (p *Plan) precheckFiling() error {
	if p.Filing == nil {
		return nil
	}
	for _, t := range p.Tests {
		o := t.Options
		conf, err := o.UserConfText()
		if err != nil {
			return err
		}
		if err := filing.Precheck(filing.RunRecord{ResultsDir: p.Filing.ResultsDir, System: p.Filing.System, Benchmark: o.Benchmark.Name,
			Scenario: o.SubmissionScenario(), Kind: p.kind(t), Replace: p.Filing.Replace}, conf); err != nil {
			return fmt.Errorf("--results-dir: %w (checked before the test, so no run is wasted)", err)
		}
	}
	return nil
}

// precheckEvaluation opens, before the first test, the tokenizer the
// plan's scoring will decode a token-ID log with (an accuracy run's
// evaluation, --mode both's, TEST07's verification in Go), so a missing
// tokenizer costs seconds, not the tests: --mode both would otherwise find
// out after its performance test too.
func (p *Plan) precheckEvaluation() error {
	o := p.Tests[0].Options
	var why string
	switch {
	case p.Compliance == submission.TEST07 && p.AccuracyScript == "":
		why = "--compliance TEST07 scores the run's log in Go"
	case p.Compliance != "":
	case p.Both:
		why = "--mode both scores its accuracy test in Go"
	case p.Tests[0].Evaluate:
		why = "--evaluate scores the accuracy run in Go"
	}
	if why == "" || !o.Benchmark.Serving.Output.NeedsTokenizer() {
		return nil
	}
	eo, err := p.evalOptions(o)
	if err != nil {
		return err
	}
	if _, err := eo.OpenTokenizer(); err != nil {
		fix := ""
		if p.Compliance != "" {
			fix = "; or pass --accuracy-script with the official accuracy command"
		}
		return fmt.Errorf("%s: %w%s (checked before the test, so no run is wasted)", why, err, fix)
	}
	return nil
}
