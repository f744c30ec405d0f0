package run

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/mlperf-go/mlperf-go/fake"
	"github.com/mlperf-go/mlperf-go/loadgen"
	"github.com/mlperf-go/mlperf-go/loadgen/loadgentest"
	"github.com/mlperf-go/mlperf-go/record"
	"github.com/mlperf-go/mlperf-go/sut"
)

// readFailures reads failures.jsonl.
func readFailures(t *testing.T, dir string) []sut.Failure {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, record.FailuresFile))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []sut.Failure
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var x sut.Failure
		if err := json.Unmarshal(sc.Bytes(), &x); err != nil {
			t.Fatalf("%s line %d: %v", record.FailuresFile, len(out)+1, err)
		}
		out = append(out, x)
	}
	return out
}

// TestFailuresFileListsEveryFailure: failures.jsonl has one line per
// failed sample, far past the handful the log shows, with the endpoint
// and status.
func TestFailuresFileListsEveryFailure(t *testing.T) {
	loadgentest.Require(t)
	const n = 120
	bench := "llama3_1-8b"
	d := tokenFixture(t, bench, n)
	url, srv := startFake(t, fake.Config{Model: mustBenchmark(t, bench).Serving.Model, OutputTokens: 4, FailRate: 0.5, Seed: 9})
	out := t.TempDir()
	rep, err := Run(context.Background(), Options{Benchmark: mustBenchmark(t, bench), Scenario: loadgen.Offline, Mode: loadgen.AccuracyOnly,
		Data: d, Endpoints: []string{url}, OutputDir: out, Settings: quick, SkipPreflight: true})
	if !errors.Is(err, ErrFailures) {
		t.Fatalf("Run error %v, want ErrFailures", err)
	}
	faults := int64(srv.Stats().Faults[fake.FailStatus])
	got := readFailures(t, out)
	if int64(len(got)) != faults || rep.Stats.Failed != faults || faults <= sut.DefaultMaxFailureRecords {
		t.Fatalf("%d lines, %d failures counted, %d injected", len(got), rep.Stats.Failed, faults)
	}
	seen := map[int]bool{}
	for _, f := range got {
		if seen[f.Index] || f.Status != 500 || f.Reason != sut.ReasonHTTPStatus || f.Endpoint == "" {
			t.Errorf("record %+v (duplicate: %v)", f, seen[f.Index])
		}
		seen[f.Index] = true
	}
}

// TestMaxFailuresStopsTheRun: with every request failing, the run stops
// once the limit is passed instead of sending the rest, says why, and
// still lists every failed sample.
func TestMaxFailuresStopsTheRun(t *testing.T) {
	loadgentest.Require(t)
	const n = 1000
	bench := "llama3_1-8b"
	d := tokenFixture(t, bench, n)
	url, srv := startFake(t, fake.Config{Model: mustBenchmark(t, bench).Serving.Model, FailRate: 1})
	limit, err := sut.ParseFailureLimit(sut.DefaultMaxFailures)
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	rep, err := Run(context.Background(), Options{Benchmark: mustBenchmark(t, bench), Scenario: loadgen.Offline, Mode: loadgen.AccuracyOnly,
		Data: d, Endpoints: []string{url}, OutputDir: out, Settings: quick, Concurrency: 4, MaxFailures: limit, SkipPreflight: true})
	if !errors.Is(err, sut.ErrTooManyFailures) || rep == nil {
		t.Fatalf("Run error %v, want one wrapping sut.ErrTooManyFailures", err)
	}
	sent := srv.Stats().Requests["/v1/completions"]
	if sent >= n/4 || rep.Stats.Stopped == "" {
		t.Errorf("%d of %d requests sent, stopped %q", sent, n, rep.Stats.Stopped)
	}
	if got := readFailures(t, out); int64(len(got)) != rep.Stats.Failed {
		t.Errorf("%d lines for %d failures", len(got), rep.Stats.Failed)
	}
	t.Logf("%s; %d requests sent", rep.Stats.Stopped, sent)
}

// TestFailureLogWrittenAsItGoes: each failure is in the file as soon as
// it is written, before close: an interrupted Server run's process exits
// without closing the list (Abortable leaves Run behind).
func TestFailureLogWrittenAsItGoes(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), record.FailuresFile)
	l, err := newFailureLog(path)
	if err != nil {
		t.Fatal(err)
	}
	defer l.close()
	for i := range 3 {
		l.write(sut.Failure{Index: i, Reason: sut.ReasonCanceled, Message: "run stopped"})
	}
	if got := readFailures(t, filepath.Dir(path)); len(got) != 3 || got[2].Index != 2 || got[2].Reason != sut.ReasonCanceled {
		t.Errorf("before close the file holds %+v, want the 3 failures written", got)
	}
}
