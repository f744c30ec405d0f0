// Package filing files each finished LoadGen run into a results tree,
// DIR/<system>/<benchmark>/<Scenario>/{performance/run_1,accuracy,TEST0x},
// with its user.conf and run-info JSON (record.Run): FileRun checks the
// logs belong where they are filed and never silently overwrites an
// earlier run.
package filing

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/mlperf-go/mlperf-go/engine/metrics"
	"github.com/mlperf-go/mlperf-go/internal/atomicfile"
	"github.com/mlperf-go/mlperf-go/internal/breakdown"
	"github.com/mlperf-go/mlperf-go/internal/dirwalk"
	"github.com/mlperf-go/mlperf-go/internal/timeline"
	"github.com/mlperf-go/mlperf-go/loadgen/mllog"
	"github.com/mlperf-go/mlperf-go/record"
	"github.com/mlperf-go/mlperf-go/submission"
	"github.com/mlperf-go/mlperf-go/submission/internal/treefs"
)

// The compliance tests' run kinds.
const (
	KindTEST01 record.Kind = submission.TEST01
	KindTEST06 record.Kind = submission.TEST06
	KindTEST07 record.Kind = submission.TEST07
	KindTEST09 record.Kind = submission.TEST09
)

// RunRecord describes one finished LoadGen run for FileRun.
type RunRecord struct {
	// ResultsDir is the results tree's root (DIR in
	// DIR/<system>/<benchmark>/<Scenario>/…).
	ResultsDir string
	// System names the system (the systems JSON will be <System>.json).
	System string
	// Benchmark is the benchmark; "llama3_1-8b" is filed as "llama3.1-8b".
	Benchmark string
	// Scenario is matched case-insensitively and filed in the checker's
	// spelling.
	Scenario string
	// Kind is the run's purpose.
	Kind record.Kind
	// LogDir is where LoadGen wrote mlperf_log_* (and the CLI its run-info
	// JSON, record.File).
	LogDir string
	// UserConf is the user.conf the run used. Required: the checker requires
	// one per scenario.
	UserConf string
	// Command is the mlperf-go argv; FileRun records it in a run-info JSON
	// when LogDir holds none.
	Command []string
	// Replace moves an earlier run of the same kind aside (see FileRun)
	// instead of refusing.
	Replace bool
}

// VerifyFiles are the compliance verifications' files (verify_accuracy.txt
// of TEST06 and TEST07, verify_output_len.txt of TEST09) that FileRun files
// from a compliance run's log folder into its test directory, where the
// submission checker reads them.
var VerifyFiles = []string{submission.VerifyAccuracyFile, submission.VerifyPerformanceFile, submission.VerifyOutputLenFile}

// now is the clock FileRun names moved-aside runs with; tests replace it.
var now = time.Now

// FileRun files a finished run into the results tree and returns the
// directory it was filed in:
//
//	performance  DIR/<system>/<benchmark>/<Scenario>/performance/run_1/
//	             mlperf_log_summary.txt, mlperf_log_detail.txt, mlperf_log_accuracy.json (if any)
//	accuracy     …/<Scenario>/accuracy/
//	             mlperf_log_summary.txt, mlperf_log_detail.txt, mlperf_log_accuracy.json,
//	             accuracy.txt (if the run was evaluated)
//	TEST0x       …/<Scenario>/TEST0x/accuracy/mlperf_log_accuracy.json,
//	             …/<Scenario>/TEST0x/performance/run_1/mlperf_log_{summary,detail}.txt
//	             and the verification's …/<Scenario>/TEST0x/verify_*.txt (if
//	             LogDir holds one: VerifyFiles), the layout
//	             compliance/TEST0x/run_verification.py produce
//
// plus the run-info JSON, and the user.conf at …/<Scenario>/user.conf.
//
// Before copying, FileRun checks the logs belong there: the detail log's
// effective_scenario must match Scenario (Interactive runs are LoadGen
// Server runs), its effective_test_mode must be AccuracyOnly for accuracy
// runs and PerformanceOnly otherwise, and LoadGen must have found an
// audit.config in compliance runs and none in the others.
//
// A re-run never silently overwrites an earlier one. Without Replace, FileRun
// refuses when the destination exists (or when a different user.conf is
// already filed for the scenario; a compliance run's differing user.conf is
// filed beside its logs instead, <TEST0x>/performance/run_1/user.conf,
// leaving the scenario's in place). With Replace, the earlier run is renamed
// to a sibling ".previous-<name>-<UTC time>" (e.g.
// performance/.previous-run_1-20261121T084648Z, <Scenario>/.previous-TEST06-…,
// <Scenario>/.previous-user.conf-…), so nothing is lost; pack.Package skips these.
func FileRun(r RunRecord) (dir string, err error) {
	bench, scen, userConf, err := checkRunRecord(r)
	if err != nil {
		return "", err
	}

	// The run record says whether samples failed or the test was
	// aborted; neither may be filed, whatever LoadGen's summary says.
	if info, err := record.Read(r.LogDir); err == nil {
		if err := info.Submittable(); err != nil {
			return "", fmt.Errorf("submission: not filing %s: %w", r.LogDir, err)
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return "", err
	}

	scenDir := filepath.Join(r.ResultsDir, r.System, bench, scen)
	dest, perfDir, copies, err := runLayout(r.Kind, bench, scenDir)
	if err != nil {
		return "", err
	}
	for _, c := range copies {
		if !c.required {
			continue
		}
		if _, err := os.Stat(filepath.Join(r.LogDir, c.name)); err != nil {
			return "", fmt.Errorf("submission: %s run has no %s in %s: did LoadGen finish?", r.Kind, c.name, r.LogDir)
		}
	}
	if err := checkRunLogs(filepath.Join(r.LogDir, mllog.DetailFile), r.Kind, scen); err != nil {
		return "", err
	}

	// Decide everything before touching the tree.
	stamp := record.Stamp(now())
	destExists := treefs.Exists(dest)
	if destExists && !r.Replace {
		return "", fmt.Errorf("submission: %s already holds a %s run; pass --replace to move it aside (to %s…) and file this one", dest, r.Kind, submission.PreviousPrefix)
	}
	ucPath := filepath.Join(scenDir, record.UserConfFile)
	oldUC, ucErr := os.ReadFile(ucPath)
	ucDiffers := ucErr == nil && !bytes.Equal(oldUC, userConf)
	// A compliance run may need settings of its own (gpt-oss-120b's TEST07
	// over the 990-sample set needs performance_sample_count_override at
	// the library size, or LoadGen crashes): the scenario's user.conf stays
	// that of its performance and accuracy runs, and the compliance run's
	// own is filed beside its logs.
	ownUC := ucDiffers && r.Kind != record.KindPerformance && r.Kind != record.KindAccuracy
	if ownUC {
		ucDiffers = false
	}
	if ucDiffers && !r.Replace {
		return "", fmt.Errorf("submission: %s differs from %s, which this run used; a scenario has one user.conf for all its runs: pass --replace to move the old one aside", ucPath, r.UserConf)
	}

	if destExists {
		if _, err := moveAside(dest, stamp); err != nil {
			return "", err
		}
	}
	if ucDiffers {
		if _, err := moveAside(ucPath, stamp); err != nil {
			return "", err
		}
	}
	for _, c := range copies {
		src := filepath.Join(r.LogDir, c.name)
		if !c.required && !treefs.Exists(src) {
			continue
		}
		if err := treefs.CopyFile(src, filepath.Join(c.dstDir, c.name)); err != nil {
			return "", err
		}
	}
	if !treefs.Exists(filepath.Join(r.LogDir, record.File)) && len(r.Command) > 0 {
		info := record.Run{Command: r.Command, Benchmark: bench, Scenario: scen, Kind: string(r.Kind)}
		if err := record.Write(perfDir, info); err != nil {
			return "", err
		}
	}
	if ownUC {
		if err := os.WriteFile(filepath.Join(perfDir, record.UserConfFile), userConf, 0o644); err != nil {
			return "", fmt.Errorf("submission: writing the compliance run's user.conf: %w", err)
		}
	}
	if ucErr != nil || ucDiffers {
		if err := atomicfile.Write(ucPath, userConf, 0o644); err != nil {
			return "", fmt.Errorf("submission: writing %s: %w", ucPath, err)
		}
	}
	return dest, nil
}

// checkRunRecord checks what FileRun is given before it looks at the
// logs: the canonical benchmark and scenario names, the paths and system
// name, and the user.conf the run used, which it returns.
func checkRunRecord(r RunRecord) (bench, scen string, userConf []byte, err error) {
	if bench, err = submission.CanonicalBenchmark(r.Benchmark); err != nil {
		return "", "", nil, err
	}
	if b, _ := submission.LookupBenchmark(r.Benchmark); b.Submission.NotFileable != "" {
		return "", "", nil, fmt.Errorf("submission: not filing %s: %s", bench, b.Submission.NotFileable)
	}
	if scen, err = submission.CanonicalScenario(r.Scenario); err != nil {
		return "", "", nil, err
	}
	if r.ResultsDir == "" || r.System == "" || r.LogDir == "" {
		return "", "", nil, errors.New("submission: FileRun needs ResultsDir, System and LogDir")
	}
	if strings.ContainsAny(r.System, `/\`) || r.System == "." || r.System == ".." {
		return "", "", nil, fmt.Errorf("submission: system name %q must be a plain directory name", r.System)
	}
	if r.UserConf == "" {
		return "", "", nil, errors.New("submission: FileRun needs the user.conf the run used (the checker requires <Scenario>/user.conf)")
	}
	if userConf, err = os.ReadFile(r.UserConf); err != nil {
		return "", "", nil, fmt.Errorf("submission: reading user.conf: %w", err)
	}
	if len(userConf) == 0 {
		return "", "", nil, fmt.Errorf("submission: %s is empty; the checker rejects an empty user.conf", r.UserConf)
	}
	return bench, scen, userConf, nil
}

// copySpec is one file of a run's logs and where it is filed.
type copySpec struct {
	name, dstDir string
	required     bool
}

// runLayout is where a run of kind is filed in scenario directory
// scenDir: dest, the directory that holds the run (moved aside on
// Replace); perfDir, the one with its performance logs (dest itself, or
// a compliance run's performance/run_1); and the files to copy.
func runLayout(kind record.Kind, bench, scenDir string) (dest, perfDir string, copies []copySpec, err error) {
	switch kind {
	case record.KindPerformance:
		dest = filepath.Join(scenDir, submission.PerformanceRun)
		perfDir = dest
		copies = []copySpec{{mllog.SummaryFile, dest, true}, {mllog.DetailFile, dest, true}, {mllog.AccuracyFile, dest, false}, {record.File, dest, false}}
	case record.KindAccuracy:
		dest = filepath.Join(scenDir, "accuracy")
		perfDir = dest
		copies = []copySpec{{mllog.SummaryFile, dest, true}, {mllog.DetailFile, dest, true}, {mllog.AccuracyFile, dest, true}, {record.AccuracyTxtFile, dest, false}, {record.File, dest, false}}
	case KindTEST01, KindTEST06, KindTEST07, KindTEST09:
		if _, err := submission.LookupCompliance(string(kind), bench); err != nil {
			return "", "", nil, err
		}
		dest = filepath.Join(scenDir, string(kind))
		perfDir = filepath.Join(dest, submission.PerformanceRun)
		copies = []copySpec{
			{mllog.AccuracyFile, filepath.Join(dest, "accuracy"), true},
			{mllog.SummaryFile, perfDir, true}, {mllog.DetailFile, perfDir, true}, {record.File, perfDir, false},
		}
		for _, name := range VerifyFiles {
			copies = append(copies, copySpec{name, dest, false})
		}
	default:
		return "", "", nil, fmt.Errorf("submission: unknown run kind %q: use performance, accuracy, TEST01, TEST06, TEST07 or TEST09", kind)
	}
	// The series the run's report draws, so that `mlperf-go report` over
	// the tree still charts the run (pack.Package leaves them out).
	copies = append(copies, copySpec{timeline.File, perfDir, false}, copySpec{metrics.File, perfDir, false}, copySpec{breakdown.File, perfDir, false})
	return dest, perfDir, copies, nil
}

// Precheck makes, before a test starts, the checks FileRun will make that do
// not need the run's logs, so a refusal costs seconds rather than an
// hours-long run: the names, an earlier run of the same kind already filed
// (without Replace), and a different user.conf already filed for the
// scenario (without Replace; a compliance run files its own beside its
// logs). userConf is the user.conf the run will use.
func Precheck(r RunRecord, userConf []byte) error {
	bench, err := submission.CanonicalBenchmark(r.Benchmark)
	if err != nil {
		return err
	}
	scen, err := submission.CanonicalScenario(r.Scenario)
	if err != nil {
		return err
	}
	if strings.ContainsAny(r.System, `/\`) || r.System == "." || r.System == ".." || r.System == "" {
		return fmt.Errorf("submission: system name %q must be a plain directory name", r.System)
	}
	scenDir := filepath.Join(r.ResultsDir, r.System, bench, scen)
	dest, _, _, err := runLayout(r.Kind, bench, scenDir)
	if err != nil {
		return err
	}
	if err := dirwalk.Dangling(dest); err != nil {
		return fmt.Errorf("submission: %w", err)
	}
	if err := checkWritable(dest); err != nil {
		return err
	}
	if r.Replace {
		return nil
	}
	if treefs.Exists(dest) {
		return fmt.Errorf("submission: %s already holds a %s run; pass --replace to move it aside (to %s…) and file the new one, or choose another --results-dir", dest, r.Kind, submission.PreviousPrefix)
	}
	ucPath := filepath.Join(scenDir, record.UserConfFile)
	if old, err := os.ReadFile(ucPath); err == nil && !bytes.Equal(old, userConf) && !r.Kind.IsCompliance() {
		return fmt.Errorf("submission: %s differs from the user.conf this run would use; a scenario has one user.conf for all its runs: run with the same settings, or pass --replace to move the old one aside", ucPath)
	}
	return nil
}

// checkWritable finds whether a run could be filed into dest: the
// nearest folder of dest's path that exists must take a new file (a
// read-only file system, a folder of another user's, a full disk refuse
// one), so that filing does not fail after the test.
func checkWritable(dest string) error {
	dir := filepath.Clean(dest)
	for !treefs.Exists(dir) && filepath.Dir(dir) != dir {
		dir = filepath.Dir(dir)
	}
	f, err := os.CreateTemp(dir, ".mlperf-go-write-check-*")
	if err != nil {
		return fmt.Errorf("submission: cannot file into %s: %w: choose a --results-dir this user can write to", dest, err)
	}
	f.Close()
	return os.Remove(f.Name())
}

// FileRecorded files the run whose folder is dir (its run record,
// record.File, says what it is) into resultsDir for system, as the run
// command would have after its test: for a run measured when its filing
// failed, or made without --results-dir. An INVALID run, or an accuracy
// run of part of the dataset, is filed only with allowUnofficial, as
// run's --allow-unofficial-settings files them; a run that failed or was
// aborted never is.
func FileRecorded(dir, resultsDir, system string, replace, allowUnofficial bool) (string, error) {
	info, err := record.Read(dir)
	if err != nil {
		return "", fmt.Errorf("%w: give the folder of one run (the one that holds mlperf_log_detail.txt; a --mode both run has one per test)", err)
	}
	if info.Benchmark == "" || info.Scenario == "" || info.Kind == "" {
		return "", fmt.Errorf("%s: the run record names no benchmark, scenario or kind: was the run made by mlperf-go 6.1 or later?", filepath.Join(dir, record.File))
	}
	if !allowUnofficial {
		switch {
		case info.Outcome != "" && info.Outcome != record.Valid:
			return "", fmt.Errorf("submission: not filing %s: the run is %s (%s); add --allow-unofficial-settings to file it for a rehearsal", dir, info.Outcome, info.OutcomeReason)
		case info.Accuracy != nil && info.Accuracy.Partial != "":
			return "", fmt.Errorf("submission: not filing %s: it is an accuracy run of %s, not the whole dataset; add --allow-unofficial-settings to file it for a rehearsal", dir, info.Accuracy.Partial)
		}
	}
	r := RunRecord{ResultsDir: resultsDir, System: system, Benchmark: info.Benchmark, Scenario: info.Scenario, Kind: record.Kind(info.Kind),
		LogDir: dir, UserConf: filepath.Join(dir, record.UserConfFile), Command: info.Command, Replace: replace}
	userConf, err := os.ReadFile(r.UserConf)
	if err != nil {
		return "", fmt.Errorf("submission: the run's user.conf: %w", err)
	}
	if err := Precheck(r, userConf); err != nil {
		return "", err
	}
	return FileRun(r)
}

// checkRunLogs verifies a run's detail log matches where it is being filed.
func checkRunLogs(detailPath string, kind record.Kind, scenario string) error {
	d, err := mllog.ReadDetail(detailPath, mllog.AsChecker)
	if err != nil {
		return fmt.Errorf("submission: %w", err)
	}
	got, _ := d.Text("effective_scenario")
	if want := submission.LoggedScenario(scenario); got != want {
		return fmt.Errorf("submission: %s says effective_scenario %q but the run is being filed as %s (which LoadGen logs as %q): file it under the scenario it ran", detailPath, got, scenario, want)
	}
	mode, _ := d.Text("effective_test_mode")
	wantMode := "PerformanceOnly"
	if kind == record.KindAccuracy {
		wantMode = "AccuracyOnly"
	}
	if mode != wantMode {
		return fmt.Errorf("submission: %s says effective_test_mode %q; a %s run must be %s", detailPath, mode, kind, wantMode)
	}
	audit := false
	for _, w := range d.Warnings() {
		if strings.Contains(w, "Found Audit Config file (audit.config)") {
			audit = true
		}
	}
	compliance := kind != record.KindPerformance && kind != record.KindAccuracy
	switch {
	case compliance && !audit:
		return fmt.Errorf("submission: %s shows LoadGen found no audit.config: a %s run must run with the %s audit.config in LoadGen's working directory", detailPath, kind, kind)
	case !compliance && audit:
		return fmt.Errorf("submission: %s shows LoadGen read an audit.config, so this was a compliance run, not a %s run: remove the stray audit.config and re-run", detailPath, kind)
	}
	return nil
}

// moveAside renames path to a ".previous-<base>-<stamp>" sibling, adding a
// counter if that name is taken, and returns the new path.
func moveAside(path, stamp string) (string, error) {
	base := submission.PreviousPrefix + filepath.Base(path) + "-" + stamp
	for i := 0; ; i++ {
		name := base
		if i > 0 {
			name = fmt.Sprintf("%s.%d", base, i)
		}
		dst := filepath.Join(filepath.Dir(path), name)
		if treefs.Exists(dst) {
			continue
		}
		if err := os.Rename(path, dst); err != nil {
			return "", fmt.Errorf("submission: moving %s aside: %w", path, err)
		}
		return dst, nil
	}
}

// Filed reports whether dir is, by its place, a run FileRun filed into a
// results tree: …/<benchmark>/<Scenario>/accuracy or performance/run_1,
// or a compliance test's TEST0x/accuracy or TEST0x/performance/run_1
// under <Scenario>, the benchmark and scenario spelled as filed. What
// changes a run after it ended (an evaluation) must not make a filed copy
// say what would have kept it out of the tree.
func Filed(dir string) bool {
	dir = filepath.Clean(dir)
	parent := filepath.Dir(dir)
	switch filepath.Base(dir) {
	case string(record.KindAccuracy):
	case "run_1":
		if filepath.Base(parent) != string(record.KindPerformance) {
			return false
		}
		parent = filepath.Dir(parent)
	default:
		return false
	}
	switch record.Kind(filepath.Base(parent)) {
	case KindTEST01, KindTEST06, KindTEST07, KindTEST09:
		parent = filepath.Dir(parent)
	}
	scen, bench := filepath.Base(parent), filepath.Base(filepath.Dir(parent))
	if s, err := submission.CanonicalScenario(scen); err != nil || s != scen {
		return false
	}
	b, err := submission.CanonicalBenchmark(bench)
	return err == nil && b == bench
}
