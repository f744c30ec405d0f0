// Package pack builds an official MLPerf Inference submission from a results
// tree: OUT/<division>/<submitter>/{src,systems,documentation,results}, each
// scenario's README generated from its run records, accuracy logs truncated
// as tools/submission/truncate_accuracy_log.py does. It validates everything
// before writing and builds in a staging directory, so a failure leaves no
// partial submission; judging the result is the check package's job.
package pack

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/mlperf-go/mlperf-go/internal/dirwalk"
	"github.com/mlperf-go/mlperf-go/loadgen/mllog"
	"github.com/mlperf-go/mlperf-go/record"
	"github.com/mlperf-go/mlperf-go/submission"
	"github.com/mlperf-go/mlperf-go/submission/internal/treefs"
)

// PackageOptions configure Package.
type PackageOptions struct {
	// Division is "closed" or "open".
	Division string
	// Submitter is the organization's directory name; systems JSON files
	// must name the same submitter.
	Submitter string
	// ResultsDir is the results tree filing.FileRun filled
	// (DIR/<system>/<benchmark>/<Scenario>/…).
	ResultsDir string
	// SystemsDir holds <system>.json for every system in ResultsDir.
	SystemsDir string
	// Out is where the submission is built: Out/<division>/<submitter>/ must
	// not exist yet.
	Out string
	// Round is "v6.0" or "v6.1"; default submission.DefaultRound. It is recorded in the
	// READMEs; check.Check applies the round's rules.
	Round string
	// SourceNote says where the harness source is (e.g. the mlperf-go
	// repository URL and commit); it becomes src/README.md. Required: the
	// checker requires src/ and reviewers need the code.
	SourceNote string
}

// Package builds a submission from a results tree:
//
//	OUT/<division>/<submitter>/
//	  src/README.md                      SourceNote
//	  documentation/README.md            how the results were produced (generated)
//	  systems/<system>.json              copied from SystemsDir after submission.ValidateSystem
//	  results/<system>/<benchmark>/<Scenario>/
//	    README.md                        generated from the runs' run-info JSON
//	    user.conf, measurements.json, performance/, accuracy/, TEST0x/
//
// measurements.json is taken from the scenario directory of the results tree
// or, failing that, from its benchmark directory
// (DIR/<system>/<benchmark>/measurements.json, shared by all scenarios);
// submission.MeasurementsTemplate writes a starting point. Everything is validated
// before anything is written, and the error lists every problem (each bad
// systems field, each missing or unfilled measurements.json).
//
// Copying leaves out what is not part of a submission: entries whose names
// start with "." (runs filing.FileRun moved aside) and the run-info JSON files. A
// README.md the user put in a scenario directory is kept as the "Notes"
// section of the generated one. Accuracy logs are then truncated exactly as
// tools/submission/truncate_accuracy_log.py does (TruncateAccuracyDir): the
// scenario's accuracy/ and TEST07/, TEST09/; the full logs stay in the
// results tree. The tree is built in a temporary directory under Out and
// renamed into place at the end, so a failure leaves no partial submission.
//
// Package does not judge the results; run check.Check on Out afterwards.
func Package(opts PackageOptions) error {
	round, err := checkPackageOptions(&opts)
	if err != nil {
		return err
	}
	dest := filepath.Join(opts.Out, opts.Division, opts.Submitter)
	if treefs.Exists(dest) {
		return fmt.Errorf("submission: %s already exists: choose another --out or remove it", dest)
	}
	// Plan and validate everything first: a package is built whole or not
	// at all.
	plan, err := planPackage(opts, round)
	if err != nil {
		return err
	}
	if len(plan.problems) > 0 {
		return fmt.Errorf("submission: cannot package, fix these first:\n  %s", strings.Join(plan.problems, "\n  "))
	}

	// Build in a staging directory, then rename into place; a package that
	// fails leaves no empty division folder behind.
	defer record.Reserve(filepath.Join(opts.Out, opts.Division)).ReleaseUnused()
	if err := dirwalk.MkdirAll(filepath.Join(opts.Out, opts.Division), 0o755); err != nil {
		return fmt.Errorf("submission: %w", err)
	}
	stage, err := os.MkdirTemp(opts.Out, ".package-")
	if err != nil {
		return fmt.Errorf("submission: %w", err)
	}
	defer os.RemoveAll(stage)
	root := filepath.Join(stage, opts.Submitter)
	if err := buildPackage(root, opts, round.Name, plan); err != nil {
		return err
	}
	if err := os.Rename(root, dest); err != nil {
		return fmt.Errorf("submission: moving the built submission into place: %w", err)
	}
	return nil
}

// checkPackageOptions fills in the default round and checks the options
// that need no files; it returns the round's facts.
func checkPackageOptions(opts *PackageOptions) (*submission.Round, error) {
	if opts.Round == "" {
		opts.Round = submission.DefaultRound
	}
	round, err := submission.LookupRound(opts.Round)
	if err != nil {
		return nil, err
	}
	if opts.Division != "closed" && opts.Division != "open" {
		return nil, fmt.Errorf("submission: division %q: use closed or open", opts.Division)
	}
	if opts.Submitter == "" || strings.ContainsAny(opts.Submitter, `/\`) || strings.HasPrefix(opts.Submitter, ".") {
		return nil, fmt.Errorf("submission: submitter %q must be a plain directory name", opts.Submitter)
	}
	if strings.TrimSpace(opts.SourceNote) == "" {
		return nil, errors.New("submission: SourceNote is required: say where the harness source is (repository URL and commit); it becomes src/README.md")
	}
	if !treefs.IsDir(opts.ResultsDir) {
		return nil, fmt.Errorf("submission: results directory %q does not exist", opts.ResultsDir)
	}
	return round, nil
}

// packagePlan is what a package will hold, read and validated before
// anything is written.
type packagePlan struct {
	scenarios []scenarioPlan
	// systems maps a system's name to its system description JSON.
	systems map[string][]byte
	// problems are everything that must be fixed first, one line each.
	problems []string
}

// scenarioPlan is one scenario directory to package.
type scenarioPlan struct {
	system, bench, scen string
	src                 string // results-tree scenario directory
	measurements        []byte
}

// planPackage reads the results tree and the system descriptions and
// collects every problem, so that one attempt lists them all.
func planPackage(opts PackageOptions, round *submission.Round) (*packagePlan, error) {
	plan := &packagePlan{systems: map[string][]byte{}}
	plan.problems = linkProblems(opts.ResultsDir)
	systems := visibleDirs(opts.ResultsDir)
	if len(systems) == 0 {
		return nil, fmt.Errorf("submission: %s holds no system directories: file runs with mlperf-go run --results-dir first", opts.ResultsDir)
	}
	for _, system := range systems {
		sysPath := filepath.Join(opts.SystemsDir, system+".json")
		b, err := os.ReadFile(sysPath)
		if err != nil {
			plan.problems = append(plan.problems, fmt.Sprintf("%s: missing (mlperf-go submission system-template writes a starting point)", sysPath))
		} else {
			for _, msg := range submission.ValidateSystem(b, opts.Division, opts.Submitter) {
				plan.problems = append(plan.problems, sysPath+": "+msg)
			}
			plan.systems[system] = b
		}
		for _, bdir := range visibleDirs(filepath.Join(opts.ResultsDir, system)) {
			benchDir := filepath.Join(opts.ResultsDir, system, bdir)
			bench, err := submission.CanonicalBenchmark(bdir)
			if err != nil {
				plan.problems = append(plan.problems, fmt.Sprintf("%s: %v", benchDir, err))
				continue
			}
			if err := submission.CheckBenchmarkDir(benchDir); err != nil {
				plan.problems = append(plan.problems, err.Error())
				continue
			}
			if _, ok := round.Benchmarks[bench]; !ok {
				plan.problems = append(plan.problems, fmt.Sprintf("%s: %s is not a benchmark of round %s", benchDir, bench, round.Name))
				continue
			}
			if b, _ := submission.LookupBenchmark(bench); b.Submission.NotFileable != "" {
				plan.problems = append(plan.problems, fmt.Sprintf("%s: %s cannot be submitted: %s", benchDir, bench, b.Submission.NotFileable))
				continue
			}
			for _, sdir := range visibleDirs(benchDir) {
				plan.addScenario(system, bench, benchDir, sdir)
			}
		}
	}
	return plan, nil
}

// addScenario plans scenario directory sdir of benchDir: its
// measurements.json (the scenario's, else the benchmark's) and, for an
// accuracy run, its scored accuracy.txt.
func (plan *packagePlan) addScenario(system, bench, benchDir, sdir string) {
	scen, err := submission.CanonicalScenario(sdir)
	if err != nil {
		plan.problems = append(plan.problems, fmt.Sprintf("%s: %v", filepath.Join(benchDir, sdir), err))
		return
	}
	p := scenarioPlan{system: system, bench: bench, scen: scen, src: filepath.Join(benchDir, sdir)}
	mPath := filepath.Join(p.src, submission.MeasurementsFile)
	m, err := os.ReadFile(mPath)
	if err != nil {
		mPath = filepath.Join(benchDir, submission.MeasurementsFile)
		m, err = os.ReadFile(mPath)
	}
	if err != nil {
		plan.problems = append(plan.problems, fmt.Sprintf("%s: no measurements.json in the scenario or benchmark directory: write one to fill in with `mlperf-go submission measurements-template -b %s --out %s`",
			p.src, bench, filepath.Join(benchDir, "measurements.json")))
	} else {
		for _, msg := range submission.ValidateMeasurements(m) {
			plan.problems = append(plan.problems, mPath+": "+msg)
		}
	}
	p.measurements = m
	if txt := filepath.Join(p.src, "accuracy", record.AccuracyTxtFile); treefs.IsDir(filepath.Dir(txt)) && !treefs.Exists(txt) {
		plan.problems = append(plan.problems, fmt.Sprintf("%s: missing: score the accuracy run first (mlperf-go evaluate -b %s -l %s -d DATASET -o %s), or file the official evaluator's printed output with mlperf-go submission ingest-accuracy",
			txt, bench, filepath.Join(filepath.Dir(txt), mllog.AccuracyFile), txt))
	}
	plan.scenarios = append(plan.scenarios, p)
}

// buildPackage writes the planned submission under root: src/ and
// documentation/ READMEs, the system descriptions, and each scenario's
// logs with its measurements.json and README.md, accuracy logs truncated
// as the checker wants them.
func buildPackage(root string, opts PackageOptions, round string, plan *packagePlan) error {
	write := func(rel string, content []byte) error {
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return fmt.Errorf("submission: %w", err)
		}
		if err := os.WriteFile(p, content, 0o644); err != nil {
			return fmt.Errorf("submission: %w", err)
		}
		return nil
	}
	note := strings.TrimRight(opts.SourceNote, "\n") + "\n"
	if err := write(filepath.Join("src", "README.md"), []byte("# Harness source\n\n"+note)); err != nil {
		return err
	}
	if err := write(filepath.Join("documentation", "README.md"), []byte(documentationReadme(round))); err != nil {
		return err
	}
	for system, b := range plan.systems {
		if err := write(filepath.Join("systems", system+".json"), b); err != nil {
			return err
		}
	}
	for _, p := range plan.scenarios {
		rel := filepath.Join("results", p.system, p.bench, p.scen)
		dst := filepath.Join(root, rel)
		if err := copyScenario(p.src, dst); err != nil {
			return err
		}
		if err := write(filepath.Join(rel, submission.MeasurementsFile), p.measurements); err != nil {
			return err
		}
		readme, err := scenarioReadme(p.src, p.system, p.bench, p.scen, round)
		if err != nil {
			return err
		}
		if err := write(filepath.Join(rel, "README.md"), readme); err != nil {
			return err
		}
		if err := truncateAccuracyLogs(dst); err != nil {
			return err
		}
	}
	return nil
}

// truncateAccuracyLogs truncates the accuracy logs of a packaged scenario
// directory: the accuracy run's and those of TEST07 and TEST09, which
// carry accuracy logs of their own.
func truncateAccuracyLogs(dst string) error {
	if treefs.IsDir(filepath.Join(dst, "accuracy")) {
		if _, err := TruncateAccuracyDir(dst, ""); err != nil {
			return err
		}
	}
	for _, t := range []string{submission.TEST07, submission.TEST09} {
		if treefs.IsDir(filepath.Join(dst, t, "accuracy")) {
			if _, err := TruncateAccuracyDir(filepath.Join(dst, t), t); err != nil {
				return err
			}
		}
	}
	return nil
}

// linkProblems lists the symbolic links of the results tree that packaging
// must not follow: one leading out of the tree would pull files from
// elsewhere into the submission, one leading nowhere or in a loop cannot
// be copied. Links inside the tree are followed, their targets' files
// copied, as the official tools copy a tree (truncate_accuracy_log.py and
// preprocess_submission.py: shutil.copytree, which follows links), so the
// package holds no link (see check.checkLinks for why). Hidden folders,
// left out of the package, are not looked into.
func linkProblems(results string) []string {
	var problems []string
	dirwalk.Within(results, func(p string, d fs.DirEntry, err error) error { //nolint:errcheck // fn returns no error
		hidden := d != nil && p != results && strings.HasPrefix(d.Name(), ".")
		switch {
		case err != nil && !hidden:
			problems = append(problems, err.Error())
		case err == nil && hidden && d.IsDir():
			return filepath.SkipDir
		}
		return nil
	})
	return problems
}

// visibleDirs lists subdirectories not starting with ".".
func visibleDirs(dir string) []string {
	var out []string
	for _, d := range treefs.ListDirs(dir) {
		if !strings.HasPrefix(d, ".") {
			out = append(out, d)
		}
	}
	return out
}

// copyScenario copies a results-tree scenario directory, leaving out hidden
// entries, the harness's own files (HarnessFiles: run info, report) and the
// top-level README.md (regenerated).
func copyScenario(src, dst string) error {
	return dirwalk.Walk(src, func(p string, d fs.DirEntry, err error) error {
		rel, _ := filepath.Rel(src, p)
		if rel != "." && strings.HasPrefix(filepath.Base(p), ".") {
			if err == nil && d.IsDir() {
				return filepath.SkipDir
			}
			return nil // left out, even a link that leads nowhere
		}
		if err != nil {
			return err
		}
		if rel == "." {
			return os.MkdirAll(dst, 0o755)
		}
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		if record.IsHarnessFile(d.Name()) || rel == "README.md" || rel == submission.MeasurementsFile {
			return nil
		}
		if !d.Type().IsRegular() {
			return fmt.Errorf("submission: %s is not a regular file; the submission takes only files", p)
		}
		return treefs.CopyFile(p, filepath.Join(dst, rel))
	})
}

// runSections are the runs a scenario README describes, in order.
var runSections = []struct{ title, dir string }{
	{"Performance run", submission.PerformanceRun},
	{"Accuracy run", "accuracy"},
	{"Compliance run TEST06", filepath.Join(submission.TEST06, submission.PerformanceRun)},
	{"Compliance run TEST07", filepath.Join(submission.TEST07, submission.PerformanceRun)},
	{"Compliance run TEST09", filepath.Join(submission.TEST09, submission.PerformanceRun)},
}

// scenarioReadme writes the README.md for one scenario from the run-info
// JSON files filing.FileRun filed, plus the user's own README.md as notes.
func scenarioReadme(src, system, bench, scen, round string) ([]byte, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s, %s scenario, on %s\n\n", bench, scen, system)
	fmt.Fprintf(&b, "Results for MLPerf Inference %s, produced with the mlperf-go harness driving the official MLPerf LoadGen; requests went to the inference server named below over HTTP.\n", round)
	for _, s := range runSections {
		dir := filepath.Join(src, s.dir)
		if !treefs.IsDir(dir) {
			continue
		}
		fmt.Fprintf(&b, "\n## %s\n\n", s.title)
		info, err := record.Read(dir)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				b.WriteString("How this run was made was not recorded (no run-info JSON was filed with it).\n")
				continue
			}
			return nil, err
		}
		if len(info.Command) > 0 {
			fmt.Fprintf(&b, "Command:\n\n```sh\n%s\n```\n\n", shellJoin(info.Command))
		}
		field := func(name, value string) {
			if value != "" {
				fmt.Fprintf(&b, "- %s: %s\n", name, value)
			}
		}
		field("mlperf-go version", info.HarnessVersion)
		field("LoadGen version", info.LoadGenVersion)
		field("Round", info.Round)
		field("LoadGen model name", info.LoadGenModel)
		if len(info.RoundSettings) > 0 {
			field("Settings the round requires beyond LoadGen's mlperf.conf", strings.Join(info.RoundSettings, "; "))
		}
		field("Endpoints", strings.Join(info.Endpoints, ", "))
		field("API", info.API)
		field("Requests", info.Requests)
		field("Model", info.Model)
		field("Engine", info.EngineName())
		if len(info.EngineFlags) > 0 {
			field("Engine flags", "`"+shellJoin(info.EngineFlags)+"`")
		}
		if len(info.Sampling) > 0 {
			keys := make([]string, 0, len(info.Sampling))
			for k := range info.Sampling {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			var parts []string
			for _, k := range keys {
				v, _ := json.Marshal(info.Sampling[k])
				parts = append(parts, fmt.Sprintf("%s=%s", k, v))
			}
			field("Sampling", strings.Join(parts, ", "))
		}
		if !info.Start.IsZero() {
			field("Start", info.Start.UTC().Format("2006-01-02T15:04:05Z"))
		}
		if !info.End.IsZero() {
			field("End", info.End.UTC().Format("2006-01-02T15:04:05Z"))
		}
	}
	if notes, err := os.ReadFile(filepath.Join(src, "README.md")); err == nil && len(strings.TrimSpace(string(notes))) > 0 {
		b.WriteString("\n## Notes\n\n")
		b.WriteString(strings.TrimRight(string(notes), "\n") + "\n")
	}
	return []byte(b.String()), nil
}

// documentationReadme is the generated documentation/README.md.
func documentationReadme(round string) string {
	return "# Documentation\n\n" +
		"These MLPerf Inference " + round + " results were produced with mlperf-go, a Go harness that " +
		"drives the official MLPerf LoadGen through a C bridge and sends requests to an " +
		"OpenAI-compatible inference server over HTTP. Each results/<system>/<benchmark>/<scenario>/README.md " +
		"gives the exact commands, versions, endpoints and sampling parameters of its runs; src/ says " +
		"where the harness source is.\n"
}

// shellJoin quotes argv for a POSIX shell so the README command can be pasted.
func shellJoin(argv []string) string {
	out := make([]string, len(argv))
	for i, a := range argv {
		if a != "" && strings.IndexFunc(a, func(r rune) bool {
			return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./=:,+@%", r))
		}) < 0 {
			out[i] = a
			continue
		}
		out[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
	}
	return strings.Join(out, " ")
}
