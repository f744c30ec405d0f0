package workflow

import (
	"io"
	"slices"
	"strings"
	"testing"

	"go.uber.org/zap"

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
// its flag: --mode both starts with accuracy, --quick shrinks the run
// below the user's own settings and refuses --results-dir, --results-dir
// needs --system and makes a submission-grade run, --target-qps takes a
// positive number or auto (which needs an Offline run in the history),
// --round a known round, and the engine flags an engine to launch.
func TestResolve(t *testing.T) {
	t.Parallel()
	resolve := func(p Plan, edit func(*Request)) (Plan, error) {
		t.Helper()
		r := request(t)
		edit(&r)
		p.Stderr = io.Discard
		return p, p.Resolve(r, zap.NewNop())
	}
	p, err := resolve(Plan{}, func(r *Request) { r.ModeName = "Both" })
	if err != nil || !p.Both || p.Options.Mode != loadgen.AccuracyOnly {
		t.Errorf("--mode both: both %v, mode %v, %v", p.Both, p.Options.Mode, err)
	}
	p, err = resolve(Plan{}, func(r *Request) { r.Quick = true; r.Test.Settings = []string{"min_duration=5"} })
	if want := append(QuickSettings(QuickSamples), "min_duration=5"); err != nil || p.Options.TotalSampleCount != QuickSamples || !slices.Equal(p.Options.Settings, want) {
		t.Errorf("--quick: %d samples, settings %q, %v; want %q", p.Options.TotalSampleCount, p.Options.Settings, err, want)
	}
	p, err = resolve(Plan{ResultsDir: "res", System: "s1"}, func(r *Request) { r.TargetQPS = new("12.5") })
	if err != nil || !p.Options.SubmissionGrade || !slices.Contains(p.Options.Settings, "target_qps=12.5") {
		t.Errorf("--results-dir --system --target-qps 12.5: grade %v, settings %q, %v", p.Options.SubmissionGrade, p.Options.Settings, err)
	}
	runs := t.TempDir()
	for _, tc := range []struct {
		plan Plan
		edit func(*Request)
		want string
	}{
		{Plan{ResultsDir: "res", System: "s1"}, func(r *Request) { r.Quick = true }, "--quick runs are too short"},
		{Plan{ResultsDir: "res"}, func(*Request) {}, "--results-dir needs --system"},
		{Plan{}, func(r *Request) { r.TargetQPS = new("0") }, "--target-qps \"0\""},
		{Plan{}, func(r *Request) { r.TargetQPS = new("auto"); r.TargetQPSFraction = 0 }, "--target-qps-fraction 0"},
		{Plan{RunsDir: runs}, func(r *Request) { r.TargetQPS = new("AUTO") }, "--target-qps auto: "},
		{Plan{}, func(r *Request) { r.Test.Round = "v7.0" }, `--round "v7.0"`},
		{Plan{}, func(r *Request) { r.ModeName = "fast" }, `--mode "fast"`},
		{Plan{}, func(r *Request) { r.Launch.Given = []string{"engine-port"} }, "--engine-port needs an engine to launch"},
		{Plan{}, func(r *Request) {
			r.Test.Concurrency = 0
			r.Test.Given = func(f string) bool { return f == "concurrency" }
		}, "--concurrency 0: use a positive number"},
	} {
		if _, err := resolve(tc.plan, tc.edit); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: error %v, want one with %q", tc.plan, err, tc.want)
		}
	}
}
