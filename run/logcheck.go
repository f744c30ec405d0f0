package run

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"github.com/mlperf-go/mlperf-go/loadgen"
	"github.com/mlperf-go/mlperf-go/loadgen/mllog"
)

// checkLogs checks the logs LoadGen left in dir after a test that ran to
// its end: the detail log must be MLLOG lines of valid JSON, the accuracy log
// a complete JSON array of well-formed entries, and (outside accuracy mode,
// where LoadGen writes no performance result) the summary must carry its
// "Result is" verdict. A full disk, a crashed writer or a file system that
// lost a write can leave any of them damaged while LoadGen itself reports
// nothing; filing such a run would pass a result nobody can recheck, so the
// first damaged log is an error naming it (and, for the detail log, its
// line). The summary it parsed is returned, so the run reads it once.
func checkLogs(dir string, mode loadgen.Mode) (mllog.Summary, error) {
	var sum mllog.Summary
	if mode != loadgen.AccuracyOnly {
		var err error
		if sum, err = mllog.ReadSummary(filepath.Join(dir, mllog.SummaryFile)); err != nil {
			return mllog.Summary{}, fmt.Errorf("LoadGen's summary log is damaged: %w", err)
		}
	}
	if _, err := mllog.ReadDetail(filepath.Join(dir, mllog.DetailFile), mllog.Strict); err != nil {
		return mllog.Summary{}, fmt.Errorf("LoadGen's detail log is damaged: %w", err)
	}
	// mllog.ReadAccuracy's errors name the file.
	if _, err := mllog.ReadAccuracy(filepath.Join(dir, mllog.AccuracyFile)); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return mllog.Summary{}, fmt.Errorf("LoadGen wrote no accuracy log: %w", err)
		}
		return mllog.Summary{}, fmt.Errorf("LoadGen's accuracy log is damaged: %w", err)
	}
	return sum, nil
}
