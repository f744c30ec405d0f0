package workflow

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mlperf-go/mlperf-go/internal/buildinfo"
	"github.com/mlperf-go/mlperf-go/loadgen"
	"github.com/mlperf-go/mlperf-go/run"
	"github.com/mlperf-go/mlperf-go/sut"
)

// request is a run command line's request with every flag at its default.
func request(t *testing.T) Request {
	t.Helper()
	round, err := buildinfo.Round()
	if err != nil {
		round = "v6.1"
	}
	return Request{ModeName: "performance", TargetQPSFraction: 0.8, Test: run.Request{
		Benchmark: "llama3_1-8b", Scenario: "Offline", Round: round, Endpoints: []string{"http://127.0.0.1:8000"},
		Concurrency: sut.DefaultConcurrency, Stream: "auto", Resilience: run.Resilience{Retries: sut.DefaultRetries,
			MaxResponseBytes: sut.DefaultMaxResponseBytes, MaxBufferedBytes: sut.DefaultMaxBufferedBytes, MaxFailures: sut.DefaultMaxFailures},
	}}
}

// TestResolve: the plan's checks before anything starts, each error naming
// its flag: --mode both starts with accuracy, evaluated, and refuses a
// compliance test, --quick shrinks the run below the user's own settings
// and refuses --results-dir, --results-dir needs --system and makes a
// submission-grade run, --target-qps takes a positive number or auto
// (which needs an Offline run in the history), --round a known round, and
// the engine flags an engine to launch; --evaluate needs an accuracy run.
// A refused plan creates nothing; an accepted one claims its folder.
func TestResolve(t *testing.T) {
	t.Parallel()
	resolve := func(edit func(*Request)) (Plan, error) {
		t.Helper()
		r := request(t)
		r.RunsDir = filepath.Join(t.TempDir(), "runs")
		edit(&r)
		return Resolve(r)
	}
	// qwen3-vl's evaluation needs no tokenizer.
	p, err := resolve(func(r *Request) {
		r.ModeName, r.Test.Benchmark, r.OutputDir = "Both", "qwen3-vl-235b-a22b", filepath.Join(t.TempDir(), "both")
	})
	if err != nil || !p.Both || len(p.Tests) != 2 || p.Tests[0].Options.Mode != loadgen.AccuracyOnly || !p.Tests[0].Evaluate ||
		p.Tests[1].Options.Mode != loadgen.PerformanceOnly || p.Tests[1].Evaluate || p.Tests[1].Options.OutputDir != filepath.Join(p.Dir, "performance") {
		t.Errorf("--mode both: %+v, %v", p, err)
	}
	if _, err := os.Stat(p.Dir); !os.IsNotExist(err) {
		t.Errorf("Resolve created %s (%v)", p.Dir, err)
	}
	p, err = resolve(func(r *Request) { r.Quick = true; r.Test.Settings = []string{"min_duration=5"} })
	if want := append(QuickSettings(QuickSamples), "min_duration=5"); err != nil || p.Tests[0].Options.TotalSampleCount != QuickSamples || !slices.Equal(p.Tests[0].Options.Settings, want) {
		t.Errorf("--quick: %+v, %v; want settings %q", p.Tests, err, want)
	}
	p, err = resolve(func(r *Request) { r.ResultsDir, r.System = t.TempDir(), "s1"; r.TargetQPS = new("12.5") })
	if o := p.Tests[0].Options; err != nil || !o.SubmissionGrade || !slices.Contains(o.Settings, "target_qps=12.5") || p.Filing == nil {
		t.Errorf("--results-dir --system --target-qps 12.5: %+v, %v", p, err)
	}
	// Two runs resolved in the same second get folders of their own,
	// created then, in the runs folder of their benchmark and mode.
	runs := filepath.Join(t.TempDir(), "runs")
	p1, err1 := resolve(func(r *Request) { r.RunsDir = runs })
	p2, err2 := resolve(func(r *Request) { r.RunsDir = runs })
	if err1 != nil || err2 != nil || p1.Dir == p2.Dir || filepath.Dir(p1.Dir) != filepath.Join(runs, "llama3_1-8b", "Offline-performance") ||
		p1.Tests[0].Options.OutputDir != p1.Dir {
		t.Errorf("two runs' folders: %q (%v) and %q (%v)", p1.Dir, err1, p2.Dir, err2)
	}
	for _, d := range []string{p1.Dir, p2.Dir} {
		if fi, err := os.Stat(d); err != nil || !fi.IsDir() {
			t.Errorf("Resolve did not claim %s: %v", d, err)
		}
	}
	for _, tc := range []struct {
		edit func(*Request)
		want string
	}{
		{func(r *Request) { r.ResultsDir, r.System, r.Quick = "res", "s1", true }, "--quick runs are too short"},
		{func(r *Request) { r.ResultsDir = "res" }, "--results-dir needs --system"},
		{func(r *Request) { r.TargetQPS = new("0") }, "--target-qps \"0\""},
		{func(r *Request) { r.TargetQPS = new("auto"); r.TargetQPSFraction = 0 }, "--target-qps-fraction 0"},
		{func(r *Request) { r.TargetQPS = new("AUTO") }, "--target-qps auto: "},
		{func(r *Request) { r.Test.Round = "v7.0" }, `--round "v7.0"`},
		{func(r *Request) { r.ModeName = "fast" }, `--mode "fast"`},
		{func(r *Request) { r.ModeName, r.Compliance = "both", "TEST06" }, "run a --compliance test with --mode performance"},
		{func(r *Request) { r.Evaluate = true }, "--evaluate scores an accuracy run, and --mode performance makes none: pass -m accuracy --evaluate, --mode both"},
		{func(r *Request) { r.Launch.Given = []string{"engine-port"} }, "--engine-port needs an engine to launch"},
		{func(r *Request) {
			r.Test.Concurrency = 0
			r.Test.Given = func(f string) bool { return f == "concurrency" }
		}, "--concurrency 0: use a positive number"},
	} {
		var runs string
		if _, err := resolve(func(r *Request) { tc.edit(r); runs = r.RunsDir }); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("error %v, want one with %q", err, tc.want)
		}
		// A refused command leaves nothing behind.
		if _, err := os.Stat(runs); !os.IsNotExist(err) {
			t.Errorf("refused with %q, but %s was created (%v)", tc.want, runs, err)
		}
	}
}
