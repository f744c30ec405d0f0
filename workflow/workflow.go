// Package workflow carries out one `mlperf-go run`, and the session a
// tune's trials share: everything around the LoadGen test that package run
// makes. It reads as three steps, each made once:
//
//   - Resolve turns the command line's Request into a Plan, deciding
//     everything the run needs before the first query: the tests and their
//     settings, the output folder (reserved once), what filing, the
//     evaluation and a compliance verification will need (checked now, so
//     no test is wasted), and the engine to launch.
//   - Run carries the Plan out in one pass: it starts the engine and opens
//     the dataset, writes a compliance test's audit.config, and for each
//     test runs it, verifies or evaluates it (accuracy.txt written once),
//     writes its run record and its report once, and files it; then the
//     runs index.
//   - The Outcome it returns holds each test's report, verdict, accuracy
//     and filed path, and its Class, which the command turns into an exit
//     status; Outcome.Print is the one place a run's result is printed.
//
// It is named for that job, the sequence of steps, rather than for any one
// of them (the steps themselves live in run, report, submission and
// record). It sits above those packages and below the command, reads no
// flags and never exits. Its messages still name the flags a Request's
// fields come from, since that is what the user can change.
package workflow

import "errors"

// Class sorts how a run ended, for the command's exit status.
type Class int

const (
	// Passed: VALID (an accuracy run: finished; a compliance run: its
	// verification passed), evaluated and filed as asked.
	Passed Class = iota
	// Failed: samples failed, the test was aborted (a failure limit, a
	// dead engine), a compliance verification failed or could not run,
	// an evaluation failed, or another error.
	Failed
	// Invalid: LoadGen reported INVALID (performance runs).
	Invalid
	// Interrupted by the user (the context was cancelled).
	Interrupted
)

// failure is an error of a known Class; an error without one is Failed.
type failure struct {
	class Class
	err   error
}

func (f failure) Error() string { return f.err.Error() }

func (f failure) Unwrap() error { return f.err }

// ClassOf is the Class of err: that of the first classed error in its tree
// (a --mode both run joins its tests' errors), else Failed; Passed for nil.
func ClassOf(err error) Class {
	if err == nil {
		return Passed
	}
	var f failure
	if errors.As(err, &f) {
		return f.class
	}
	return Failed
}
