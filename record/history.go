package record

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/mlperf-go/mlperf-go/internal/dirwalk"
	"github.com/mlperf-go/mlperf-go/loadgen"
)

// The run history: without an output folder of the user's choosing, each
// run gets a new folder ROOT/<benchmark>/<Scenario>-<mode>/<UTC time>/, a
// LatestLink beside it points at the newest, and ROOT's index lists them
// all. The layout is written and read here only.

// LatestLink is the name of the symbolic link, beside a run's timestamped
// folder, to the newest run of the same benchmark, scenario and mode.
const LatestLink = "latest"

// ModeBoth is the mode folder of an accuracy run followed by a performance
// run of the same command (<Scenario>-both/<UTC time>/{accuracy,performance}).
const ModeBoth = "both"

// RunsFolder is the folder holding the timestamped runs of benchmark bench
// in scenario and mode (as --mode spells it: "performance", "accuracy",
// ModeBoth, …) under the runs root.
func RunsFolder(root, bench, scenario, mode string) string {
	return filepath.Join(root, bench, scenario+"-"+mode)
}

// ClaimRunDir creates a new folder parent/name for a run (name is
// usually Stamp of its start) and returns it, suffixed (-2, -3, …) when a
// run of the same second has that name.
// The folder is created exclusively (os.Mkdir fails on one that exists),
// so two runs started in the same second, in one process or two, never
// share a folder. The time is written sortably and without colons, which
// some file systems refuse. The Reservation removes the folder, and the
// parents made for it, if the run ends with nothing written into it, so
// a command that fails before its test leaves no empty run behind for
// LatestLink to point at.
func ClaimRunDir(parent, name string) (string, Reservation, error) {
	r := Reserve(parent)
	// dirwalk names a symbolic link to storage that is not there.
	if err := dirwalk.MkdirAll(parent, 0o755); err != nil {
		return "", Reservation{}, err
	}
	dir := filepath.Join(parent, name)
	for i := 2; ; i++ {
		err := os.Mkdir(dir, 0o755)
		if err == nil {
			break
		}
		if !errors.Is(err, os.ErrExist) {
			r.ReleaseUnused()
			return "", Reservation{}, err
		}
		dir = filepath.Join(parent, fmt.Sprintf("%s-%d", name, i))
	}
	r.dir = dir
	if r.first == "" {
		r.first = dir
	}
	return dir, r, nil
}

// runNewer reports whether the run folder named a started after the one
// named b: later stamp, or the same stamp with a higher suffix (-10
// after -9).
func runNewer(a, b string) bool {
	sa, na := splitRunName(a)
	sb, nb := splitRunName(b)
	if sa != sb {
		return sa > sb
	}
	return na > nb
}

// splitRunName splits a run folder's name into its stamp and its
// same-second suffix (1 for none).
func splitRunName(name string) (stamp string, n int) {
	if i := strings.LastIndexByte(name, '-'); i > 0 {
		if v, err := strconv.Atoi(name[i+1:]); err == nil {
			return name[:i], v
		}
	}
	return name, 1
}

// stampLayout writes a time as run folders and moved-aside entries are
// named: UTC, sortable, without the colons some file systems refuse.
const stampLayout = "20060102T150405Z"

// Stamp is t as a folder name carries it (20261207T033214Z).
func Stamp(t time.Time) string { return t.UTC().Format(stampLayout) }

// LinkLatest points the LatestLink beside runDir at it, atomically: a new
// link under a temporary name, renamed over the old one. A link already
// at a run that started later (a run that began after this one and ended
// first) is left alone: LatestLink names the newest run.
func LinkLatest(runDir string) error {
	parent := filepath.Dir(runDir)
	link := filepath.Join(parent, LatestLink)
	if cur, err := os.Readlink(link); err == nil && filepath.Dir(cur) == "." && runNewer(cur, filepath.Base(runDir)) {
		if _, err := os.Stat(filepath.Join(parent, cur)); err == nil {
			return nil
		}
	}
	// A temporary of this process's own: two runs ending together would
	// otherwise rename one temporary between them.
	tmp := filepath.Join(parent, fmt.Sprintf(".%s.%d.tmp", LatestLink, os.Getpid()))
	os.Remove(tmp) //nolint:errcheck // a leftover from an interrupted run, if any
	if err := os.Symlink(filepath.Base(runDir), tmp); err != nil {
		return err
	}
	return os.Rename(tmp, link)
}

// OfflinePerformanceRuns lists the folders under the runs root that may
// hold Offline performance runs of bench: its performance runs and the
// performance halves of its ModeBoth runs.
func OfflinePerformanceRuns(root, bench string) []string {
	offline := loadgen.Offline.String()
	var dirs []string
	for _, pattern := range []string{
		filepath.Join(RunsFolder(root, bench, offline, string(KindPerformance)), "*"),
		filepath.Join(RunsFolder(root, bench, offline, ModeBoth), "*", string(KindPerformance)),
	} {
		m, _ := filepath.Glob(pattern) // the patterns are well formed
		dirs = append(dirs, m...)
	}
	return dirs
}

// NewestRun is the newest run of bench in scenario and kind ("accuracy",
// "performance") under the runs root: a run of that mode or that half of
// a ModeBoth run, whichever started last; "" when there is none.
func NewestRun(root, bench, scenario string, kind Kind) string {
	newest, newestStamp := "", ""
	consider := func(dir, stamp string) {
		// Timestamped folders sort by time; LatestLink and temporaries
		// do not start with a digit.
		if stamp != "" && stamp[0] >= '0' && stamp[0] <= '9' && (newestStamp == "" || runNewer(stamp, newestStamp)) {
			newest, newestStamp = dir, stamp
		}
	}
	own, _ := filepath.Glob(filepath.Join(RunsFolder(root, bench, scenario, string(kind)), "*"))
	for _, d := range own {
		consider(d, filepath.Base(d))
	}
	halves, _ := filepath.Glob(filepath.Join(RunsFolder(root, bench, scenario, ModeBoth), "*", string(kind)))
	for _, d := range halves {
		consider(d, filepath.Base(filepath.Dir(d)))
	}
	return newest
}

// ChooseRunDir is the folder a run writes into: dir (--output-dir) if
// given, refused when it already holds files unless overwrite (an earlier
// run's logs are never silently replaced), and only reserved (the run
// creates it); else a new timestamped folder under parent, claimed now
// (ClaimRunDir). Release the Reservation when the command ends.
func ChooseRunDir(dir string, overwrite bool, parent string) (string, Reservation, error) {
	if dir == "" {
		return ClaimRunDir(parent, Stamp(time.Now()))
	}
	if !overwrite {
		if err := RefuseNonEmpty(dir); err != nil {
			return "", Reservation{}, err
		}
	}
	return dir, Reserve(dir), nil
}

// RefuseNonEmpty returns an error if dir exists and holds anything but
// the EngineLogFile of a launch that failed before its test started (a
// retry appends to it): an earlier run's logs are never silently replaced.
func RefuseNonEmpty(dir string) error {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("--output-dir %s: %w", dir, err)
	}
	if len(entries) == 0 || (len(entries) == 1 && entries[0].Name() == EngineLogFile && entries[0].Type().IsRegular()) {
		return nil
	}
	return fmt.Errorf("--output-dir %s already holds files (an earlier run?): choose a new folder, leave out --output-dir "+
		"for a new timestamped one under --runs-dir, or add --overwrite to replace its logs", dir)
}

// Reservation remembers which folders of a run's output path did not exist
// before the command, so a command that ends before its test started can
// leave nothing behind (a retry would otherwise find an empty run in the
// history, or a folder it refuses).
type Reservation struct {
	dir, first string // first: the outermost folder created; "" if none
}

// Reserve notes which folders of dir do not exist yet.
func Reserve(dir string) Reservation {
	r := Reservation{dir: filepath.Clean(dir)}
	for d := r.dir; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(d); err == nil {
			break
		}
		r.first = d
		if filepath.Dir(d) == d {
			break
		}
	}
	return r
}

// ReleaseUnused removes the folders Reserve saw missing, innermost first,
// while they are empty: a folder something was written into (a run record,
// an engine log) stays.
func (r Reservation) ReleaseUnused() {
	if r.first == "" {
		return
	}
	for d := r.dir; ; d = filepath.Dir(d) {
		if os.Remove(d) != nil || d == r.first { // not empty, gone or the last
			return
		}
	}
}
