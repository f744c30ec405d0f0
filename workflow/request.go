package workflow

import (
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"go.uber.org/zap"

	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/record"
	"github.com/mlperf-go/mlperf-go/run"
	"github.com/mlperf-go/mlperf-go/submission"
	"github.com/mlperf-go/mlperf-go/tune"
)

// Request is what the run command line says of its test in its own
// words, beyond the Plan's fields it fills as typed: the test (Mode is
// set from ModeName), the mode by name (a LoadGen mode or both), the
// LoadGen shorthands, --quick and the engine to launch.
type Request struct {
	Test     run.Request
	ModeName string
	// TargetQPS is --target-qps (nil: not given): a number, or auto for
	// TargetQPSFraction of the newest valid Offline throughput.
	TargetQPS         *string
	TargetQPSFraction float64
	// MinDuration (ms) and MinQueryCount are their settings' shorthands
	// (nil: not given).
	MinDuration, MinQueryCount *uint64
	// Quick shrinks the run to a smoke run (QuickSettings).
	Quick  bool
	Launch run.LaunchRequest
}

// QuickSamples is how many samples a --quick run holds in its QSL and
// issues: enough to exercise batching, streaming and the logs, few enough
// that any benchmark's run ends in seconds against a live endpoint.
const QuickSamples = 10

// Resolve checks r against p's own fields, before anything starts, and
// fills p's Options, Both, Launch, GenerationConfig and Sampling from it.
// Its errors name the flags.
func (p *Plan) Resolve(r Request, log *zap.Logger) error {
	p.Both = strings.EqualFold(r.ModeName, record.ModeBoth)
	first := r.ModeName
	if p.Both {
		first = run.ModeName(BothModes[0])
	}
	mode, err := run.ParseMode(first)
	if err != nil {
		return err
	}
	if err := submission.CheckRound(r.Test.Round, log); err != nil {
		return err
	}
	r.Test.Mode = mode
	o, err := r.Test.Options(log)
	if err != nil {
		return err
	}
	o.OutputDir = p.OutputDir
	// A compliance run's settings come from its audit.config.
	o.SubmissionGrade = p.ResultsDir != "" && p.Compliance == "" && !p.AllowUnofficial
	if r.TargetQPS != nil {
		qps, err := p.targetQPS(*r.TargetQPS, r.TargetQPSFraction, o.Benchmark)
		if err != nil {
			return err
		}
		o.Settings = append(o.Settings, fmt.Sprintf("target_qps=%g", qps))
	}
	if r.MinDuration != nil {
		o.Settings = append(o.Settings, fmt.Sprintf("min_duration=%d", *r.MinDuration))
	}
	if r.MinQueryCount != nil {
		o.Settings = append(o.Settings, fmt.Sprintf("min_query_count=%d", *r.MinQueryCount))
	}
	if p.ResultsDir != "" && p.System == "" {
		return errors.New("--results-dir needs --system NAME (the systems/<NAME>.json the results belong to)")
	}
	if r.Quick {
		if p.ResultsDir != "" {
			return errors.New("--quick runs are too short to submit: drop --results-dir (or drop --quick for a run to file)")
		}
		// The quick settings go first so that the user's own --setting
		// lines and shorthands, written after them into user.conf, win.
		if o.TotalSampleCount == 0 {
			o.TotalSampleCount = QuickSamples
		}
		o.Settings = append(QuickSettings(o.TotalSampleCount), o.Settings...)
	}
	if p.Launch, err = r.Launch.Launch(); err != nil {
		return err
	}
	p.Options, p.GenerationConfig, p.Sampling = o, r.Test.GenerationConfig, r.Test.Sampling
	return nil
}

// QuickSettings returns the user.conf lines that shrink a run to n
// samples. mlperf.conf sizes the official runs (e.g. llama3_1-8b Offline
// min_query_count = 13368 and performance_sample_count_override = 13368;
// every scenario's min_duration is ten minutes), so capping the QSL alone
// still issues thousands of samples: each of these must follow it.
func QuickSettings(n int) []string {
	return []string{
		"min_duration=0",
		fmt.Sprintf("min_query_count=%d", n),
		fmt.Sprintf("performance_sample_count_override=%d", n),
		fmt.Sprintf("accuracy_sample_count_override=%d", n),
	}
}

// targetQPS returns the QPS --target-qps asks for: its number, or for
// "auto" frac of the newest valid Offline performance result of b (said
// on Stderr).
func (p *Plan) targetQPS(v string, frac float64, b benchmark.Benchmark) (float64, error) {
	if !strings.EqualFold(v, "auto") {
		qps, err := strconv.ParseFloat(v, 64)
		if err != nil || qps <= 0 {
			return 0, fmt.Errorf("--target-qps %q: want a positive number of queries per second, or auto", v)
		}
		return qps, nil
	}
	if frac <= 0 {
		return 0, fmt.Errorf("--target-qps-fraction %g: want a positive fraction, e.g. 0.8", frac)
	}
	offline, dir, err := tune.OfflineThroughput(b, OfflineRunDirs(p.RunsDir, p.ResultsDir, p.System))
	if err != nil {
		return 0, fmt.Errorf("--target-qps auto: %w, or give --target-qps a number", err)
	}
	qps := frac * offline
	fmt.Fprintf(p.Stderr, "--target-qps auto: %g x %.4g samples/s of the Offline run in %s = %.4g\n", frac, offline, dir, qps)
	return qps, nil
}

// OfflineRunDirs lists, for a benchmark, where its Offline performance
// runs may be: the run history under runsDir and, with resultsDir and
// system, the results tree's Offline performance run.
func OfflineRunDirs(runsDir, resultsDir, system string) func(benchmark.Benchmark) []string {
	return func(b benchmark.Benchmark) []string {
		dirs := record.OfflinePerformanceRuns(runsDir, b.Name)
		if resultsDir != "" && system != "" {
			dirs = append(dirs, filepath.Join(resultsDir, system, b.SubmissionDir, benchmark.ScenarioOffline, submission.PerformanceRun))
		}
		return dirs
	}
}
