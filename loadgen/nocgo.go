//go:build !cgo

package loadgen

import (
	"context"
	"errors"
)

// Available reports whether this build links the official LoadGen (a cgo
// build); without it every call into LoadGen returns ErrNoCgo.
const Available = false

// ErrNoCgo is returned by every call into LoadGen in a build without cgo.
// The pure-Go parts of this package (types, settings, ParseConf) still work,
// so packages that only need them build and test with CGO_ENABLED=0.
var ErrNoCgo = errors.New("loadgen: this binary was built without cgo; the official LoadGen requires cgo (build with CGO_ENABLED=1 via make)")

// ErrBusy is returned by StartTest while another test runs in the process.
var ErrBusy = errors.New("loadgen: a test is already running in this process (LoadGen is global; run tests one after another)")

// ErrNoTest is returned by the Completer when no test is running.
var ErrNoTest = errors.New("loadgen: no LoadGen test is running")

// ErrAborted wraps the cause of a test that was ended early.
var ErrAborted = errors.New("loadgen: test aborted")

// StartTest requires cgo; it returns ErrNoCgo.
func StartTest(sut SUT, qsl QSL, settings TestSettings, logSettings LogSettings, auditConfigPath string) error {
	return ErrNoCgo
}

// StartTestContext requires cgo; it returns ErrNoCgo.
func StartTestContext(ctx context.Context, sut SUT, qsl QSL, settings TestSettings, logSettings LogSettings, auditConfigPath string) error {
	return ErrNoCgo
}

// AbortTest does nothing without cgo: no test can run.
func AbortTest(cause error) {}

// RegisterIssueQueryThread requires cgo; it returns ErrNoCgo.
func RegisterIssueQueryThread() error { return ErrNoCgo }

// SettingsFromConfig requires cgo; it returns ErrNoCgo.
func SettingsFromConfig(model string, scenario Scenario, mode Mode, userConfPath string) (TestSettings, error) {
	return TestSettings{}, ErrNoCgo
}

// MLPerfConf requires cgo; it returns "".
func MLPerfConf() string { return "" }

// Native returns a Completer whose calls return ErrNoCgo.
func Native() Completer { return noCgoCompleter{} }

type noCgoCompleter struct{}

func (noCgoCompleter) QuerySamplesComplete([]Response) error { return ErrNoCgo }
func (noCgoCompleter) FirstTokenComplete([]Response) error   { return ErrNoCgo }

// Version requires cgo; it returns "".
func Version() string { return "" }
