package loadgen

import (
	"fmt"
	"strings"

	"github.com/mlperf-go/mlperf-go/loadgen/mllog"
)

// TestSettings and DefaultTestSettings are generated (settings_gen.go)
// from the list of fields in shim/mlpg_settings.h, which the C shim expands
// too.
//go:generate go run ./internal/gensettings

// LoggingMode is mlperf::LoggingMode.
type LoggingMode int

// Logging modes, in the order of mlperf::LoggingMode.
const (
	LogAsyncPoll LoggingMode = iota
	LogEndOfTestOnly
	LogSynchronous
)

// LogSettings mirrors mlperf::LogSettings and its LogOutputSettings.
// AuditConfigFile is the compliance audit.config LoadGen applies when it
// finds one: by this name in its working directory, unless StartTest is
// given another path.
const AuditConfigFile = "audit.config"

// DefaultLogSettings returns LoadGen's defaults.
type LogSettings struct {
	// OutDir is where LoadGen writes its logs; it must exist. Default ".".
	OutDir string
	// Prefix starts every log file name. Default mllog.FilePrefix
	// ("mlperf_log_"), which the readers of the logs assume.
	Prefix string
	// Suffix ends every log file name (before the extension). Default "".
	Suffix string
	// PrefixWithDatetime puts the test's date and time before Prefix.
	// Default false.
	PrefixWithDatetime bool
	// CopyDetailToStdout also writes the detail log to stdout. Default false.
	CopyDetailToStdout bool
	// CopySummaryToStdout also writes the summary to stdout. Default false.
	CopySummaryToStdout bool
	// Mode is LoadGen's logging mode. Default LogAsyncPoll.
	Mode LoggingMode
	// AsyncPollIntervalMs is passed on; LoadGen 6.0 does not use it.
	// Default 1000.
	AsyncPollIntervalMs uint64
	// EnableTrace writes mlperf_log_trace.json. Default true (LoadGen's
	// default), which costs CPU at high QPS.
	EnableTrace bool
}

// DefaultLogSettings returns the defaults of mlperf::LogSettings.
func DefaultLogSettings() LogSettings {
	return LogSettings{
		OutDir:              ".",
		Prefix:              mllog.FilePrefix,
		AsyncPollIntervalMs: 1000,
		EnableTrace:         true,
	}
}

// String returns the scenario's name as LoadGen spells it in config keys
// and logs ("SingleStream", "MultiStream", "Server", "Offline").
func (s Scenario) String() string {
	switch s {
	case SingleStream:
		return "SingleStream"
	case MultiStream:
		return "MultiStream"
	case Server:
		return "Server"
	case Offline:
		return "Offline"
	}
	return fmt.Sprintf("Scenario(%d)", int(s))
}

// resultKeys are the detail-log keys LoadGen writes each scenario's
// performance result under.
var resultKeys = map[Scenario]string{
	Offline:      "result_samples_per_second",
	Server:       "result_completed_samples_per_sec",
	SingleStream: "early_stopping_latency_ss",
	MultiStream:  "early_stopping_latency_ms",
}

// ResultKey is the detail-log key holding the scenario's performance
// result, the one the submission checker (RESULT_FIELD_NEW), TEST01's
// verify_performance.py (RESULT_FIELD) and results.json's headline read:
// result_samples_per_second for Offline, early_stopping_latency_ss for
// SingleStream, and so on.
func (s Scenario) ResultKey() string { return resultKeys[s] }

// ResultKeyOf is ResultKey of the scenario named name as LoadGen logs it
// (effective_scenario); "" for a name that is not a LoadGen scenario.
func ResultKeyOf(name string) string {
	s, err := ParseScenario(name)
	if err != nil {
		return ""
	}
	return s.ResultKey()
}

// ParseScenario parses a scenario name, case-insensitively.
func ParseScenario(name string) (Scenario, error) {
	for _, s := range []Scenario{SingleStream, MultiStream, Server, Offline} {
		if strings.EqualFold(name, s.String()) {
			return s, nil
		}
	}
	return 0, fmt.Errorf("loadgen: unknown scenario %q (want SingleStream, MultiStream, Server or Offline)", name)
}

// String returns the mode's name.
func (m Mode) String() string {
	switch m {
	case SubmissionRun:
		return "SubmissionRun"
	case AccuracyOnly:
		return "AccuracyOnly"
	case PerformanceOnly:
		return "PerformanceOnly"
	case FindPeakPerformance:
		return "FindPeakPerformance"
	}
	return fmt.Sprintf("Mode(%d)", int(m))
}

// validate rejects settings LoadGen would misread (enum values outside its
// enums) before they reach C++.
func (s *TestSettings) validate() error {
	if s.Scenario < SingleStream || s.Scenario > Offline {
		return fmt.Errorf("loadgen: invalid scenario %d", int(s.Scenario))
	}
	if s.Mode < SubmissionRun || s.Mode > FindPeakPerformance {
		return fmt.Errorf("loadgen: invalid mode %d", int(s.Mode))
	}
	if s.Mode == FindPeakPerformance && s.Scenario != Server {
		// LoadGen's FindPeakPerformanceMode only supports Server and logs an
		// error otherwise.
		return fmt.Errorf("loadgen: FindPeakPerformance mode needs the Server scenario, not %v", s.Scenario)
	}
	return nil
}

func (l *LogSettings) validate() error {
	if l.Mode < LogAsyncPoll || l.Mode > LogSynchronous {
		return fmt.Errorf("loadgen: invalid logging mode %d", int(l.Mode))
	}
	return nil
}
