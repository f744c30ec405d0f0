package run

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/mlperf-go/mlperf-go/internal/atomicfile"
	"github.com/mlperf-go/mlperf-go/loadgen"
	"github.com/mlperf-go/mlperf-go/loadgen/mllog"
	"github.com/mlperf-go/mlperf-go/record"
)

// abortedName is what an aborted run's log is renamed to: LoadGen's
// tools and FileRun look for the original names and so never take an
// aborted run's log for a finished one.
func abortedName(name string) string {
	ext := filepath.Ext(name)
	return name[:len(name)-len(ext)] + ".aborted" + ext
}

// decide sets rep's outcome once the test ran to its end: VALID only
// when LoadGen said VALID (accuracy runs have no verdict), no sample
// failed and LoadGen took every response the harness sent.
func (rep *Report) decide() {
	s := rep.Stats
	switch {
	case s.Failed > 0:
		rep.Outcome = record.Invalid
		rep.OutcomeReason = fmt.Sprintf("%d of %d samples failed (%s)", s.Failed, s.Completed, record.Counts(s.FailuresByReason))
	case s.CompleterErrors > 0:
		rep.Outcome = record.Invalid
		rep.OutcomeReason = fmt.Sprintf("LoadGen refused %d batches of responses (unknown or repeated sample IDs: a harness bug; the log names them)", s.CompleterErrors)
	case rep.Settings.Mode != loadgen.AccuracyOnly && !rep.Summary.Valid:
		rep.Outcome = record.Invalid
		rep.OutcomeReason = fmt.Sprintf("LoadGen's result is %s (see the recommendations in %s)", orNone(rep.Summary.Result), mllog.SummaryFile)
	default:
		rep.Outcome = record.Valid
	}
}

// Verifiable reports whether a compliance test's verification can judge
// the run: it ran to its end, every sample completed with an answer and
// LoadGen took every response. Otherwise the run's outcome stands as
// decided, and there is nothing sound to verify.
func (rep *Report) Verifiable() bool {
	s := rep.Stats
	return rep.Outcome != record.Aborted && s.Failed == 0 && s.CompleterErrors == 0
}

// JudgeCompliance makes a compliance test's verdict the run's outcome.
// LoadGen judges the audit run by the performance rules (early stopping,
// min_duration) that TEST06, TEST07 and TEST09 do not apply: their
// audit.config asks for a short run, and the submission checker reads only
// their verification. So the run is VALID when the verification passed and
// INVALID with what failed (or why it could not run) otherwise; LoadGen's
// own verdict stays in rep.Summary, as information. A run that is not
// Verifiable keeps its outcome.
func (rep *Report) JudgeCompliance(v *record.Compliance) {
	if v == nil || !rep.Verifiable() {
		return
	}
	if v.Pass {
		rep.Outcome, rep.OutcomeReason = record.Valid, ""
		return
	}
	rep.Outcome, rep.OutcomeReason = record.Invalid, v.Summary()
}

// MarkAborted records that the test in rep.LogDir was stopped before its
// end and neutralises LoadGen's logs, so no file left claims a result and
// every log left parses. The summary is renamed (mlperf_log_summary.aborted.txt)
// with a first line saying why and its verdict rewritten to ABORTED; the
// detail log keeps its name (tools and people look for it), its
// result_validity rewritten likewise. With complete false (the process
// is leaving while LoadGen still writes) the detail log is cut to its last
// whole line and the summary, accuracy and trace logs, which would not
// parse, are removed. Each file is replaced by a rename, so LoadGen's
// open handles never write into what is left. What was renamed or removed
// is kept in rep for the run record.
func (rep *Report) MarkAborted(reason string, complete bool) error {
	rep.Outcome, rep.OutcomeReason = record.Aborted, reason
	var errs []error
	if !complete {
		for _, name := range []string{mllog.SummaryFile, mllog.AccuracyFile, mllog.TraceFile} {
			err := os.Remove(filepath.Join(rep.LogDir, name))
			switch {
			case err == nil:
				rep.RemovedLogs = append(rep.RemovedLogs, name)
			case !errors.Is(err, fs.ErrNotExist):
				errs = append(errs, err)
			}
		}
	}
	for _, name := range []string{mllog.SummaryFile, mllog.DetailFile} {
		src := filepath.Join(rep.LogDir, name)
		b, err := os.ReadFile(src)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if i := bytes.LastIndexByte(b, '\n'); !complete && i >= 0 {
			b = b[:i+1]
		}
		b = neutralise(b, reason)
		dst := name
		if name == mllog.SummaryFile {
			dst = abortedName(name)
		}
		if err := atomicfile.Write(filepath.Join(rep.LogDir, dst), b, 0o644); err != nil {
			errs = append(errs, err)
			continue
		}
		if dst != name {
			if err := os.Remove(src); err != nil {
				errs = append(errs, err)
				continue
			}
			if rep.RenamedLogs == nil {
				rep.RenamedLogs = map[string]string{}
			}
			rep.RenamedLogs[name] = dst
		}
	}
	return errors.Join(errs...)
}

// neutralise rewrites LoadGen's verdict in a summary or detail log of an
// aborted test: "Result is : VALID" and result_validity "VALID" become
// ABORTED, and the summary gets a first line saying why.
func neutralise(b []byte, reason string) []byte {
	b = bytes.ReplaceAll(b, []byte("Result is : "+mllog.ResultValid), []byte("Result is : "+record.Aborted+" (LoadGen said "+mllog.ResultValid+"; the test was interrupted)"))
	var out [][]byte
	for _, l := range bytes.SplitAfter(b, []byte("\n")) {
		if bytes.Contains(l, []byte(`"result_validity"`)) {
			l = bytes.Replace(l, []byte(`"`+mllog.ResultValid+`"`), []byte(`"`+record.Aborted+`"`), 1)
		}
		out = append(out, l)
	}
	b = bytes.Join(out, nil)
	if !bytes.HasPrefix(b, []byte(":::MLLOG")) {
		b = append([]byte("mlperf-go: this test was ABORTED ("+reason+"); its result does not count.\n"), b...)
	}
	return b
}

func orNone(s string) string {
	if s == "" {
		return "missing"
	}
	return s
}
