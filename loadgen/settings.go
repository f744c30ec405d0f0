package loadgen

import (
	"fmt"
	"strings"
)

// TestSettings mirrors mlperf::TestSettings of LoadGen 6.0 field by field
// (test_settings.h). Units are LoadGen's own and are named in each field:
// latencies are nanoseconds except where a field says otherwise, durations
// milliseconds. DefaultTestSettings returns LoadGen's defaults; the zero value
// is NOT LoadGen's default.
type TestSettings struct {
	// Scenario is the LoadGen scenario. Default SingleStream.
	Scenario Scenario
	// Mode is the LoadGen mode. Default PerformanceOnly.
	Mode Mode

	// SingleStreamExpectedLatencyNs is the expected latency of one query in
	// nanoseconds; LoadGen uses it to pre-generate enough queries.
	// Default 1,000,000.
	SingleStreamExpectedLatencyNs float64
	// SingleStreamTargetLatencyPercentile is the reported percentile as a
	// fraction. Default 0.90.
	SingleStreamTargetLatencyPercentile float64

	// MultiStreamExpectedLatencyNs is the expected latency of one query in
	// nanoseconds. Default 8,000,000.
	MultiStreamExpectedLatencyNs float64
	// MultiStreamTargetLatencyPercentile is a fraction. Default 0.99.
	MultiStreamTargetLatencyPercentile float64
	// MultiStreamSamplesPerQuery is the samples in each query. Default 8.
	MultiStreamSamplesPerQuery uint64

	// ServerTargetQPS is the Poisson arrival rate in queries per second.
	// Default 1.
	ServerTargetQPS float64
	// ServerTargetLatencyNs is the latency bound in nanoseconds that the
	// ServerTargetLatencyPercentile of queries must meet. Default 100,000,000.
	ServerTargetLatencyNs uint64
	// ServerTargetLatencyPercentile is a fraction. Default 0.99.
	ServerTargetLatencyPercentile float64
	// ServerCoalesceQueries merges queries whose scheduled time has passed
	// into one IssueQuery call. Default false.
	ServerCoalesceQueries bool
	// ServerFindPeakQPSDecimalsOfPrecision is used by FindPeakPerformance.
	// Default 1.
	ServerFindPeakQPSDecimalsOfPrecision int
	// ServerFindPeakQPSBoundaryStepSize is used by FindPeakPerformance.
	// Default 1.
	ServerFindPeakQPSBoundaryStepSize float64
	// ServerMaxAsyncQueries ends the test early when this many queries are
	// outstanding; 0 means no limit. Default 0.
	ServerMaxAsyncQueries uint64
	// ServerNumIssueQueryThreads is the number of threads that must call
	// RegisterIssueQueryThread; 0 issues from LoadGen's own thread.
	// Default 0.
	ServerNumIssueQueryThreads uint64

	// OfflineExpectedQPS sizes the single Offline query. Default 1.
	OfflineExpectedQPS float64
	// SampleConcatenatePermutation pads the issued samples to whole
	// permutations of the loaded set (equal issue). Default false.
	SampleConcatenatePermutation bool

	// MinDurationMs is the minimum test duration in milliseconds.
	// Default 10,000.
	MinDurationMs uint64
	// MaxDurationMs ends the test early, in milliseconds; 0 means no limit.
	// Default 0.
	MaxDurationMs uint64
	// MinQueryCount is the minimum number of queries. Default 100.
	MinQueryCount uint64
	// MaxQueryCount ends the test early; 0 means no limit. Default 0.
	MaxQueryCount uint64

	// QSLRNGSeed seeds the choice of loaded samples. Default 0; the official
	// value comes from mlperf.conf and decides the round.
	QSLRNGSeed uint64
	// SampleIndexRNGSeed seeds the choice of issued samples. Default 0.
	SampleIndexRNGSeed uint64
	// ScheduleRNGSeed seeds the Server arrival times. Default 0.
	ScheduleRNGSeed uint64
	// AccuracyLogRNGSeed seeds which performance-mode samples are also
	// written to the accuracy log. Default 0.
	AccuracyLogRNGSeed uint64
	// AccuracyLogProbability is the fraction of performance-mode samples
	// written to the accuracy log. Default 0.
	AccuracyLogProbability float64
	// AccuracyLogSamplingTarget, when non-zero, sets the probability so that
	// about this many samples are logged. Default 0.
	AccuracyLogSamplingTarget uint64
	// Test05 replaces the three seeds with the Test05 ones. Default false.
	Test05 bool
	// Test05QSLRNGSeed is the QSL seed used when Test05 is set. Default 0.
	Test05QSLRNGSeed uint64
	// Test05SampleIndexRNGSeed is the sample seed used when Test05 is set.
	// Default 0.
	Test05SampleIndexRNGSeed uint64
	// Test05ScheduleRNGSeed is the schedule seed used when Test05 is set.
	// Default 0.
	Test05ScheduleRNGSeed uint64

	// PrintTimestamps makes LoadGen log issue and completion timestamps.
	// Default false.
	PrintTimestamps bool
	// PerformanceIssueUnique issues each loaded sample once. Default false.
	PerformanceIssueUnique bool
	// PerformanceIssueSame issues PerformanceIssueSameIndex every time.
	// Default false.
	PerformanceIssueSame bool
	// PerformanceIssueSameIndex is the sample PerformanceIssueSame repeats.
	// Default 0.
	PerformanceIssueSameIndex uint64
	// PerformanceSampleCountOverride replaces the QSL's performance sample
	// count when non-zero. Default 0.
	PerformanceSampleCountOverride uint64
	// AccuracySampleCountOverride limits accuracy mode to this many samples
	// when non-zero. Default 0.
	AccuracySampleCountOverride uint64
	// UseTokenLatencies makes LoadGen measure TTFT, TPOT and token
	// throughput; the SUT must report n_tokens and, outside Offline, the
	// first token (FirstTokenComplete). Default false.
	UseTokenLatencies bool
	// ServerTTFTLatencyNs is the Server p99 time-to-first-token bound in
	// nanoseconds (user.conf's ttft_latency is in ms). Default 100,000,000.
	ServerTTFTLatencyNs uint64
	// ServerTPOTLatencyNs is the Server p99 time-per-output-token bound in
	// nanoseconds (user.conf's tpot_latency is in ms). Default 100,000,000.
	ServerTPOTLatencyNs uint64
	// InferTokenLatencies makes LoadGen infer token metrics from sample
	// latencies and TokenLatencyScalingFactor. Default false.
	InferTokenLatencies bool
	// TokenLatencyScalingFactor is the tokens per sample assumed by
	// InferTokenLatencies. Default 0 (LoadGen leaves it uninitialised).
	TokenLatencyScalingFactor uint64
}

// DefaultTestSettings returns the defaults of mlperf::TestSettings
// (test_settings.h, LoadGen 6.0); a cgo test checks them against the linked
// library.
func DefaultTestSettings() TestSettings {
	return TestSettings{
		Scenario:                             SingleStream,
		Mode:                                 PerformanceOnly,
		SingleStreamExpectedLatencyNs:        1000000,
		SingleStreamTargetLatencyPercentile:  0.90,
		MultiStreamExpectedLatencyNs:         8000000,
		MultiStreamTargetLatencyPercentile:   0.99,
		MultiStreamSamplesPerQuery:           8,
		ServerTargetQPS:                      1,
		ServerTargetLatencyNs:                100000000,
		ServerTargetLatencyPercentile:        0.99,
		ServerFindPeakQPSDecimalsOfPrecision: 1,
		ServerFindPeakQPSBoundaryStepSize:    1,
		OfflineExpectedQPS:                   1,
		MinDurationMs:                        10000,
		MinQueryCount:                        100,
		ServerTTFTLatencyNs:                  100000000,
		ServerTPOTLatencyNs:                  100000000,
	}
}

// LoggingMode is mlperf::LoggingMode.
type LoggingMode int

// Logging modes, in the order of mlperf::LoggingMode.
const (
	LogAsyncPoll LoggingMode = iota
	LogEndOfTestOnly
	LogSynchronous
)

// LogSettings mirrors mlperf::LogSettings and its LogOutputSettings.
// DefaultLogSettings returns LoadGen's defaults.
type LogSettings struct {
	// OutDir is where LoadGen writes its logs; it must exist. Default ".".
	OutDir string
	// Prefix starts every log file name. Default "mlperf_log_".
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
		Prefix:              "mlperf_log_",
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
