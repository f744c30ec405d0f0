package bench

import (
	"context"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"

	"github.com/mlperf-go/mlperf-go/fake"
	"github.com/mlperf-go/mlperf-go/fake/faketest"
)

// fakeChildEnv, set, makes the test binary the fake endpoint of
// BenchmarkClient, a process of its own, so that the benchmark's CPU time
// is the client's alone.
const fakeChildEnv = "MLPERF_GO_BENCH_FAKE_CHILD"

func TestMain(m *testing.M) {
	if os.Getenv(fakeChildEnv) != "" {
		faketest.ServeChild(fake.Config{})
		return
	}
	os.Exit(m.Run())
}

// startFakeChild starts the fake as a child process and returns its URL.
func startFakeChild(b *testing.B) string {
	b.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), fakeChildEnv+"=1")
	return faketest.StartChild(b, cmd, nil)
}

// cpuTime is this process's CPU time, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkClient is mlperf-go bench's own cost as a client, against a
// zero-latency fake in a process of its own (make bench): streamed chat,
// a 50-word prompt, 16 output tokens, 32 requests in flight, the workload
// scripts/bench-serving.py gives every client. It reports the request
// rate over the run's own window (req/s) and the client's CPU time per
// request (cpu-µs/req), so a change that slows the client shows.
func BenchmarkClient(b *testing.B) {
	url := startFakeChild(b)
	const n = 2000
	w, err := Synthetic(SyntheticOptions{Requests: n, InputLen: 50, OutputLen: 16})
	if err != nil {
		b.Fatal(err)
	}
	o := Options{Targets: []Target{{Name: "fake", URLs: []string{url}}}, Stream: true, ExactOutput: true,
		Loads: []Load{{Concurrency: 32}}, SkipPreflight: true}
	var rate float64
	var cpu time.Duration
	b.ResetTimer()
	for range b.N {
		c0 := cpuTime()
		res, _, err := Run(context.Background(), w, o)
		cpu += cpuTime() - c0
		if err != nil {
			b.Fatal(err)
		}
		if r := res.Runs[0]; r.Completed != n {
			b.Fatalf("%d of %d completed", r.Completed, n)
		}
		rate += res.Runs[0].RequestThroughput
	}
	b.ReportMetric(rate/float64(b.N), "req/s")
	b.ReportMetric(float64(cpu.Microseconds())/float64(n*b.N), "cpu-µs/req")
}
