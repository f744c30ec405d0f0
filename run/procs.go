package run

import (
	"os"
	"runtime"

	"go.uber.org/zap"
)

// minProcs is the fewest Ps (GOMAXPROCS) a LoadGen test runs with, even on
// one CPU. LoadGen's issue and completion calls go through the bridge's
// goroutine, locked to its OS thread, which sleeps in C between batches
// (package loadgen). With one P, the worker that IssueQuery wakes cannot
// run until the runtime's monitor takes that P back from the sleeping
// thread, and a bridge thread woken by a completion must wait for the P
// behind every runnable worker, then be handed it: the sample's time to
// first token waits behind other work twice. With a second P both find one
// idle at once and the kernel interleaves the two threads. Measured with
// the harness on one core at 200 QPS of streamed llama3_1-8b (make
// bench-latency, alternated runs, medians of four): the pool's own share of
// TTFT went from 0.16 / 5.1 / 32 ms (p50 / p99 / p99.9) to 0.09 / 1.7 /
// 9.3 ms, its queue wait from 0.10 to 0.01 ms at the median. Offline
// keeps the runtime's choice: its figure is throughput, not any sample's
// latency, and the second P cost about 7% more harness CPU per sample there
// (119 against 112 µs, three alternated runs).
const minProcs = 2

// ensureProcs raises GOMAXPROCS to minProcs for a test (Run: every
// scenario but Offline) when it is lower
// and the environment does not set GOMAXPROCS (an explicit setting is the
// user's), and returns the function that restores it.
func ensureProcs(log *zap.Logger) (restore func()) {
	prev := runtime.GOMAXPROCS(0)
	if prev >= minProcs || os.Getenv("GOMAXPROCS") != "" {
		return func() {}
	}
	runtime.GOMAXPROCS(minProcs)
	log.Debug("GOMAXPROCS raised for the test so LoadGen's calls never wait for a P behind the workers",
		zap.Int("from", prev), zap.Int("to", minProcs))
	return func() { runtime.GOMAXPROCS(prev) }
}
