// Package loadgen drives the official MLPerf LoadGen (C++) from Go.
//
// Go implements the system under test (SUT) and the query sample library
// (QSL); a thin C shim hands them to LoadGen, which schedules queries and
// writes its own official logs. This file holds the pure-Go API so that
// packages which only need the types (endpoint clients, datasets) build and
// test without cgo.
package loadgen

// QuerySample is one sample LoadGen asks the SUT to process.
type QuerySample struct {
	// ID identifies the response LoadGen expects for this sample. It must be
	// completed exactly once with QuerySamplesComplete.
	ID uint64
	// Index is the QSL sample index.
	Index int
}

// Response is the SUT's answer to one QuerySample.
type Response struct {
	// ID is the QuerySample.ID being answered.
	ID uint64
	// Data is the response payload LoadGen writes (hex-encoded) to the
	// accuracy log. LoadGen copies it during the complete call, so the caller
	// may reuse the slice afterwards.
	Data []byte
	// NTokens is the number of output tokens, used for token throughput and
	// TPOT when use_token_latencies is on. Zero otherwise.
	NTokens int64
}

// SUT is the system under test. The bridge calls IssueQuery from one
// goroutine per test, never concurrently, with the samples LoadGen issued
// since the previous call (in Offline, one call with every sample of the
// run; at high Server rates one call may carry several LoadGen queries);
// the slice belongs to the SUT. Implementations must hand the samples off
// and return quickly, and complete every sample exactly once via a
// Completer. (The same goroutine hands completions to LoadGen, so they wait
// while IssueQuery runs; an IssueQuery that never returns hangs the test,
// AbortTest included.)
type SUT interface {
	// Name is logged by LoadGen.
	Name() string
	// IssueQuery hands samples to the SUT. It must not block on inference.
	IssueQuery(samples []QuerySample)
	// FlushQueries is called by LoadGen when no more queries will be issued
	// soon; a batching SUT should stop waiting for more.
	FlushQueries()
}

// QSL is the query sample library: the dataset as LoadGen sees it.
type QSL interface {
	// Name is logged by LoadGen.
	Name() string
	// TotalSampleCount is the number of samples in the dataset.
	TotalSampleCount() int
	// PerformanceSampleCount is how many samples fit in memory at once.
	PerformanceSampleCount() int
	// LoadSamplesToRam prepares the given samples for querying. An error
	// aborts the test.
	LoadSamplesToRam(indices []int) error
	// UnloadSamplesFromRam releases them.
	UnloadSamplesFromRam(indices []int) error
}

// Completer reports finished samples to LoadGen. The loadgen package's
// implementation (Native) forwards to mlperf::QuerySamplesComplete and
// mlperf::FirstTokenComplete; SUT implementations depend only on this
// interface so they can be tested without LoadGen.
//
// Ordering: implementations are safe for concurrent use, and LoadGen sees
// responses in the order the calls were made, whichever goroutines or OS
// threads made them: a FirstTokenComplete call that returned before a
// QuerySamplesComplete call started reaches LoadGen first. (Native makes
// every LoadGen call from one OS thread; see Native.) So a SUT only has
// to report a sample's first token before its completion, from any
// goroutine.
type Completer interface {
	// QuerySamplesComplete completes each response's sample. Completing an
	// unknown or already-completed ID is an error and is not passed on.
	QuerySamplesComplete(responses []Response) error
	// FirstTokenComplete reports the first token(s) of streamed responses
	// (only meaningful with use_token_latencies).
	FirstTokenComplete(responses []Response) error
}

// Scenario is a LoadGen test scenario.
type Scenario int

// Scenarios, in the order of mlperf::TestScenario.
const (
	SingleStream Scenario = iota
	MultiStream
	Server
	Offline
)

// Mode is a LoadGen test mode.
type Mode int

// Modes, in the order of mlperf::TestMode.
const (
	SubmissionRun Mode = iota
	AccuracyOnly
	PerformanceOnly
	FindPeakPerformance
)
