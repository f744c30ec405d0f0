// Package run runs one MLPerf test end to end: it opens and checks the
// dataset, resolves LoadGen's settings from mlperf.conf and user.conf, builds
// every request body once, drives the endpoint worker pool under the
// official LoadGen and reports LoadGen's result with the pool's failures.
// The CLI's `run` command is a thin layer over Run, so tests drive exactly
// what users run.
package run

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"go.uber.org/zap"

	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/internal/dirwalk"
	"github.com/mlperf-go/mlperf-go/internal/redact"
	"github.com/mlperf-go/mlperf-go/loadgen"
	"github.com/mlperf-go/mlperf-go/loadgen/mllog"
	"github.com/mlperf-go/mlperf-go/protocol"
	"github.com/mlperf-go/mlperf-go/qsl"
	"github.com/mlperf-go/mlperf-go/record"
	"github.com/mlperf-go/mlperf-go/sut"
)

// Options configure one run. Zero values take the defaults stated.
type Options struct {
	// Benchmark is the benchmark to run. Required.
	Benchmark benchmark.Benchmark
	// Scenario and Mode are LoadGen's. A "mode" line in user.conf wins over
	// Mode, as in LoadGen.
	Scenario loadgen.Scenario
	Mode     loadgen.Mode
	// Dataset is opened with Benchmark.OpenDataset unless Data is already
	// set (the caller then closes Data).
	Dataset []string
	Splits  []string
	Data    benchmark.Dataset
	// Endpoints are server base URLs. Required.
	Endpoints []string
	// API overrides the benchmark's endpoint API (nil: the benchmark's).
	API protocol.Protocol
	// Model is the served model name (default: the benchmark's).
	Model string
	// OutputDir receives LoadGen's logs and the user.conf used. Required.
	OutputDir string
	// UserConf is the user's user.conf ("" for none).
	UserConf string
	// Settings are extra user.conf lines as key=value, scoped to this model
	// and scenario (they win over UserConf's wildcard lines).
	Settings []string
	// TotalSampleCount caps the QSL size (default: the official dataset
	// size): total = min(dataset size, TotalSampleCount), as the reference.
	TotalSampleCount int
	// PerformanceSampleCount is the QSL's performance sample count (default
	// the total). LoadGen's performance_sample_count_override still wins.
	PerformanceSampleCount int
	// Concurrency caps requests in flight (default sut.DefaultConcurrency).
	Concurrency int
	// Timeout bounds each request (default API.DefaultTimeout()).
	Timeout time.Duration
	// Retries, MaxResponseBytes and MaxFailures are the pool's (see
	// sut.Config); every failed sample is listed in record.FailuresFile.
	Retries          int
	MaxResponseBytes int64
	// MaxBufferedBytes is the pool's bound on the memory all responses in
	// flight hold (sut.Config.MaxBufferedBytes; 0: its default).
	MaxBufferedBytes int64
	MaxFailures      sut.FailureLimit
	// EndpointsDownAfter stops the test once every endpoint has been
	// unreachable this long (sut.Config.EndpointsDownAfter; 0 never).
	EndpointsDownAfter time.Duration
	// Stream forces streaming on or off; nil streams exactly when LoadGen
	// measures a first token (needsFirstToken): use_token_latencies on,
	// outside Offline.
	Stream *bool
	// APIKey is sent as a bearer token; never logged.
	APIKey string
	// Guided turns on guided decoding where the benchmark has it (the
	// answer's JSON schema as response_format).
	Guided bool
	// Sampling are the sampling parameters, of the endpoint API's own type
	// (its DefaultParams), sent as they are; nil sends the benchmark's
	// defaults for the API (Benchmark.DefaultSampling). SetSampling layers
	// those defaults, a generation-config file and flag values into it.
	Sampling protocol.Params
	// Round is the MLPerf round whose reference the requests and the
	// scoring follow ("v6.0", "v6.1"; "": each benchmark's default), for
	// benchmarks whose rounds differ; a round the benchmark does not know
	// is an error.
	Round string
	// AuditConfig is the compliance audit.config path ("" for none). A
	// run without compliance passes a path that does not exist, so a stray
	// audit.config in the working directory cannot change the run.
	AuditConfig string
	// EnableTrace writes LoadGen's trace log (costly at high QPS).
	EnableTrace bool
	// Progress receives a progress line every ProgressEvery (default 10s);
	// nil for none.
	Progress      io.Writer
	ProgressEvery time.Duration
	// EngineMetricsEvery is how often the endpoints' Prometheus /metrics
	// are scraped into engine_metrics.jsonl; 0 never (the CLI defaults to
	// metrics.DefaultEvery).
	EngineMetricsEvery time.Duration
	// SubmissionGrade refuses, before the run, settings that cannot make a
	// submission run (min_duration below the rules', a performance sample
	// count other than the official one, an Offline query smaller than the
	// rules want, accuracy over a subset), with the fix. The CLI sets it
	// with --results-dir.
	SubmissionGrade bool
	// SkipPreflight skips the checks made before LoadGen starts: every
	// endpoint answers /health or /v1/models, lists Model, and answers one
	// probe request (sample 0, asking for ProbeTokens tokens) through the
	// API.
	SkipPreflight bool
	// PreflightTimeout bounds preflight's probe request (default
	// DefaultPreflightTimeout).
	PreflightTimeout time.Duration
	// Started, if set, is called once the worker pool exists with a
	// function returning its counters so far, for a caller that may have
	// to record the run without waiting for Run to return.
	Started func(stats func() sut.Stats)
	// Stopped, if set, is called once if the pool stops the test early
	// (--max-failures, --endpoints-down-timeout), with why (wrapping
	// sut.ErrTooManyFailures or sut.ErrEndpointsDown), for a caller that
	// leaves a Server schedule behind instead of playing it out (Abortable).
	Stopped func(error)
	// Logger receives failures and milestones (default: none).
	Logger *zap.Logger

	// wrapBuilder, set only by this package's benchmarks, wraps the body
	// builder (to note when loading ends, so the hot path is timed alone).
	wrapBuilder func(qsl.Builder) qsl.Builder
}

// logger is Logger, or one that discards.
func (o Options) logger() *zap.Logger {
	if o.Logger == nil {
		return zap.NewNop()
	}
	return o.Logger
}

// EndpointAPI is the API requests use: API, or the benchmark's.
func (o Options) EndpointAPI() protocol.Protocol {
	if o.API != nil {
		return o.API
	}
	return o.Benchmark.Serving.API
}

// SubmissionScenario is the scenario directory the run is filed under:
// Interactive for a Server run of the benchmark's Interactive variant (LoadGen
// has no Interactive scenario), else the LoadGen scenario's name.
func (o Options) SubmissionScenario() string {
	if o.Scenario == loadgen.Server && o.Benchmark.IsInteractive() {
		return benchmark.ScenarioInteractive
	}
	return o.Scenario.String()
}

// ModelName is the model name requests carry: Model, or the benchmark's.
func (o Options) ModelName() string {
	if o.Model != "" {
		return o.Model
	}
	return o.Benchmark.Serving.Model
}

// Report is what a run produced.
type Report struct {
	// LogDir holds LoadGen's logs and user.conf.
	LogDir string
	// UserConf is the user.conf LoadGen read (in LogDir).
	UserConf string
	// Settings are the effective LoadGen settings.
	Settings loadgen.TestSettings
	// Total and Performance are the QSL's sample counts; Stream says
	// whether requests streamed.
	Total, Performance int
	Stream             bool
	// Summary is LoadGen's result (empty for accuracy runs, which have
	// none); Stats the pool's counters; Latency where the successful
	// samples' time went (also written to breakdown.File in LogDir).
	Summary mllog.Summary
	Stats   sut.Stats
	Latency sut.Breakdown
	// Elapsed is the wall time of the LoadGen test.
	Elapsed time.Duration
	// Start and End bound the whole run: loading the samples and the test.
	Start, End time.Time
	// Outcome is the run's verdict (record.Valid, …Invalid or
	// …Aborted) and OutcomeReason why it is not VALID: VALID only when
	// LoadGen said VALID and no sample failed.
	Outcome, OutcomeReason string
	// EngineServed is what the endpoints said they are (engine and
	// version), one entry per distinct answer.
	EngineServed []string
	// RenamedLogs and RemovedLogs are the LoadGen logs an aborted run
	// renamed or removed (MarkAborted), so that none claims a result.
	RenamedLogs map[string]string
	RemovedLogs []string
}

// ErrFailures is wrapped by Run's error when samples failed.
var ErrFailures = errors.New("samples failed")

// Run runs one test. It returns a Report whenever LoadGen ran, together
// with an error wrapping ErrFailures if any sample failed.
func Run(ctx context.Context, o Options) (rep *Report, err error) {
	start := time.Now()
	defer func() {
		if rep != nil {
			rep.Start, rep.End = start, time.Now()
		}
	}()
	log := o.logger()
	if err := checkRequired(o); err != nil {
		return nil, err
	}
	api, model := o.EndpointAPI(), o.ModelName()
	// A test that never starts (a refused setting, a failed preflight)
	// leaves none of its files behind; the caller that reserved the output
	// folder (workflow's Plan) releases it.
	defer func() {
		if rep == nil {
			os.Remove(filepath.Join(o.OutputDir, record.UserConfFile)) //nolint:errcheck // may not exist
			os.Remove(filepath.Join(o.OutputDir, record.FailuresFile)) //nolint:errcheck // may not exist
		}
	}()
	if err := dirwalk.MkdirAll(o.OutputDir, 0o755); err != nil {
		return nil, fmt.Errorf("creating output directory: %w", err)
	}
	data := o.Data
	if data == nil {
		d, err := o.Benchmark.OpenDataset(o.Dataset, o.Splits)
		if err != nil {
			return nil, err
		}
		defer d.Close()
		data = d
	}
	if rep, err = plan(o, data.Len()); err != nil {
		return nil, err
	}
	rep.EngineServed = identifyEngines(ctx, o)
	if !o.SkipPreflight {
		start := time.Now()
		if err := preflight(ctx, o, data, api, model, rep.Stream); err != nil {
			return nil, err
		}
		log.Info("preflight passed", zap.Strings("endpoints", redact.URLs(o.Endpoints)), zap.Duration("took", time.Since(start)))
	}
	lib, err := loadLibrary(o, data, api, model, rep, log)
	if err != nil {
		return nil, err
	}
	// The bodies live outside the Go heap: an aborted test would otherwise
	// hold them until a collection ran. runTest has closed the pool, the
	// only reader, by the time this runs.
	defer lib.Close()
	return runTest(ctx, o, rep, api, lib, log)
}

// runTest runs LoadGen's test on a worker pool serving lib's bodies to the
// endpoints, then judges it. The report is nil if LoadGen did not run.
func runTest(ctx context.Context, o Options, rep *Report, api protocol.Protocol, lib *qsl.Library, log *zap.Logger) (*Report, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// A test aborted earlier in this folder (--overwrite) left its summary
	// renamed (abortedName): beside this test's own it would contradict it.
	if err := os.Remove(filepath.Join(o.OutputDir, abortedName(mllog.SummaryFile))); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("removing an earlier aborted test's summary: %w", err)
	}
	failures, err := newFailureLog(filepath.Join(o.OutputDir, record.FailuresFile))
	if err != nil {
		return nil, err
	}
	defer failures.close() //nolint:errcheck // checked below once the test ends
	pool, err := newPool(ctx, o, api, rep.Stream, lib, failures, log)
	if err != nil {
		return nil, err
	}
	if o.Scenario != loadgen.Offline {
		defer ensureProcs(log)()
	}
	if o.Started != nil {
		o.Started(pool.Stats)
	}
	logs, audit := logSettings(o)

	log.Info("starting LoadGen test",
		zap.String("benchmark", o.Benchmark.Name), zap.String("scenario", o.Scenario.String()),
		zap.Stringer("mode", rep.Settings.Mode), zap.Int("total_samples", rep.Total),
		zap.Int("performance_samples", rep.Performance), zap.Bool("stream", rep.Stream),
		zap.Strings("endpoints", redact.URLs(o.Endpoints)), zap.String("output_dir", o.OutputDir))
	stopWatching, err := startWatching(o, rep, pool, lib)
	if err != nil {
		pool.Close()
		return nil, err
	}
	testStart := time.Now()
	testErr := loadgen.StartTestContext(ctx, pool, lib, rep.Settings, logs, audit)
	rep.Elapsed = time.Since(testStart)
	if err := stopWatching(); err != nil {
		// The report loses a chart; the run itself is sound.
		log.Warn("recording the timeline or engine metrics", zap.Error(err))
	}
	closeErr := pool.Close()
	rep.Stats = pool.Stats()
	rep.Latency = pool.Latency()
	recordLatency(o.OutputDir, o.Scenario, rep.Stream, rep.Latency, log)
	if err := failures.close(); err != nil {
		log.Error("the failure list is incomplete", zap.Error(err))
	}
	if testErr != nil {
		return rep, rep.abortError(ctx, testErr, o.OutputDir, log)
	}
	if closeErr != nil {
		log.Warn("closing the worker pool", zap.Error(closeErr))
	}
	if afterTestHook != nil {
		afterTestHook(o.OutputDir)
	}
	return rep, rep.conclude(o.OutputDir, rep.Settings.Mode)
}

// LibrarySize is how many samples a test of o loads into its library
// from a dataset of datasetLen: --total-sample-count, else the
// benchmark's official count, at most the dataset's.
func (o Options) LibrarySize(datasetLen int) int {
	total := o.TotalSampleCount
	if total <= 0 {
		total = o.Benchmark.Data.Size
	}
	return min(datasetLen, total)
}

// Check makes, before anything runs, the checks Run makes of o's settings
// against a dataset of datasetLen samples (LoadGen's settings as o's
// user.conf gives them, an audit's unique-issue rule, the submission
// grade, streaming), writing nothing into o.OutputDir: a command of
// several tests (--mode both) refuses a later test's settings before its
// first test runs.
func Check(o Options, datasetLen int) error {
	dir, err := os.MkdirTemp("", "mlperf-go-check-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir) //nolint:errcheck // a temporary folder
	o.OutputDir = dir
	_, err = plan(o, datasetLen)
	return err
}

// checkRequired refuses options without an endpoint or an output
// directory, saying which flag gives them.
func checkRequired(o Options) error {
	if len(o.Endpoints) == 0 {
		return errors.New("no endpoint given: pass --endpoint URL (try `mlperf-go fake-endpoint` for a local one)")
	}
	if o.OutputDir == "" {
		return errors.New("no output directory given: pass --output-dir")
	}
	return nil
}

// plan writes the run's user.conf and reads LoadGen's settings back from
// it, then decides the QSL's sample counts and whether requests stream,
// refusing settings the run cannot honour. datasetLen is the dataset's
// size.
func plan(o Options, datasetLen int) (*Report, error) {
	rep := &Report{LogDir: o.OutputDir, UserConf: filepath.Join(o.OutputDir, record.UserConfFile)}
	lgModel := o.Benchmark.LoadGenModel()
	conf, err := o.UserConfText()
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(rep.UserConf, conf, 0o644); err != nil {
		return nil, fmt.Errorf("writing user.conf: %w", err)
	}
	settings, err := loadgen.SettingsFromConfig(lgModel, o.Scenario, o.Mode, rep.UserConf)
	if err != nil {
		return nil, err
	}
	rep.Settings = settings

	rep.Total = o.LibrarySize(datasetLen)
	rep.Performance = o.PerformanceSampleCount
	if rep.Performance <= 0 || rep.Performance > rep.Total {
		rep.Performance = rep.Total
	}
	if err := checkUniqueIssue(o.AuditConfig, lgModel, o.Scenario, settings, rep.Total); err != nil {
		return nil, err
	}
	if o.SubmissionGrade {
		if err := checkSubmissionGrade(o, settings, rep.Total, datasetLen); err != nil {
			return nil, err
		}
	}
	if rep.Stream, err = chooseStream(o, settings); err != nil {
		return nil, err
	}
	return rep, nil
}

// chooseStream says whether requests stream: Stream if set, else exactly
// when LoadGen measures a first token, which a run that does cannot do
// without.
func chooseStream(o Options, settings loadgen.TestSettings) (bool, error) {
	stream := needsFirstToken(settings) || o.Benchmark.Serving.StreamRequests
	if o.Stream != nil {
		stream = *o.Stream
	}
	if needsFirstToken(settings) && !stream {
		return false, fmt.Errorf("use_token_latencies is on in the %s scenario but streaming was turned off: TTFT needs a streamed first token; drop --stream=false or set use_token_latencies = 0", o.Scenario)
	}
	return stream, nil
}

// loadLibrary makes the QSL's sample library: the dataset's request
// bodies, built once each, and the prefix they share, kept once.
func loadLibrary(o Options, data benchmark.Dataset, api protocol.Protocol, model string, rep *Report, log *zap.Logger) (*qsl.Library, error) {
	builder, prefix, err := data.Bodies(benchmark.BodyOptions{
		Benchmark: o.Benchmark, API: api, Model: model, Stream: rep.Stream, Guided: o.Guided,
		Sampling: o.Sampling, Round: o.Round, Logger: log,
	})
	if err != nil {
		return nil, err
	}
	if o.wrapBuilder != nil {
		builder = o.wrapBuilder(builder)
	}
	lib, err := qsl.NewLibrary(o.Benchmark.Name, rep.Total, rep.Performance, builder)
	if err != nil {
		return nil, err
	}
	if err := lib.SharePrefix(prefix); err != nil {
		lib.Close() //nolint:errcheck // the error is the one above
		return nil, err
	}
	return lib, nil
}

// newPool starts the endpoint worker pool LoadGen issues to; every failed
// sample goes to failures.
func newPool(ctx context.Context, o Options, api protocol.Protocol, stream bool, lib *qsl.Library, failures *failureLog, log *zap.Logger) (*sut.Pool, error) {
	return sut.New(ctx, sut.Config{
		Retries:            o.Retries,
		MaxResponseBytes:   o.MaxResponseBytes,
		MaxBufferedBytes:   o.MaxBufferedBytes,
		MaxFailures:        o.MaxFailures,
		EndpointsDownAfter: o.EndpointsDownAfter,
		OnFailure:          failures.write,
		Abort: func(err error) {
			loadgen.AbortTest(err)
			if o.Stopped != nil {
				o.Stopped(err)
			}
		},
		Endpoints:   o.Endpoints,
		API:         api,
		Stream:      stream,
		Concurrency: o.Concurrency,
		Timeout:     o.Timeout,
		APIKey:      o.APIKey,
		Name:        "mlperf-go",
		Bodies:      lib,
		Completer:   loadgen.Native(),
		Logger:      log,

		// The reference's final-response accounting is a fact of the
		// benchmark; the pool knows no benchmark names.
		FinalOmitsFirstToken: o.Benchmark.Serving.FinalResponseOmitsFirstToken,
	})
}

// logSettings are LoadGen's log settings for the run and the audit.config
// path it is given.
func logSettings(o Options) (loadgen.LogSettings, string) {
	logs := loadgen.DefaultLogSettings()
	logs.OutDir = o.OutputDir
	logs.EnableTrace = o.EnableTrace
	audit := o.AuditConfig
	if audit == "" {
		// LoadGen reads "audit.config" from the working directory when
		// given ""; point it at a path that cannot exist instead so a file
		// left behind by someone else never turns a run into a compliance
		// test.
		audit = filepath.Join(o.OutputDir, "no-audit.config")
	}
	return logs, audit
}

// startWatching starts the progress lines and the recorders (timeline,
// engine metrics); stop ends both and returns the recorders' error.
func startWatching(o Options, rep *Report, pool *sut.Pool, lib *qsl.Library) (stop func() error, err error) {
	stopProgress := startProgress(o.Progress, o.ProgressEvery, expectedSamples(rep.Settings, rep.Total, rep.Performance), pool, lib)
	stopRecorders, err := startRecorders(o, pool)
	if err != nil {
		stopProgress()
		return nil, err
	}
	return func() error {
		stopProgress()
		return stopRecorders()
	}, nil
}

// abortError marks the logs of a test LoadGen did not complete, so that
// none claims a result, and returns the error Run reports for it. ctx is
// the test's.
func (rep *Report) abortError(ctx context.Context, testErr error, outputDir string, log *zap.Logger) error {
	// The caller's cancellation (a signal) comes first: the samples
	// it cancels may then also pass --max-failures.
	reason := testErr.Error()
	if ctx.Err() != nil {
		reason = context.Cause(ctx).Error()
	} else if rep.Stats.Stopped != "" {
		reason = rep.Stats.Stopped
	}
	if err := rep.MarkAborted(reason, true); err != nil {
		log.Error("marking the aborted run's logs", zap.Error(err))
	}
	if rep.Stats.Stopped != "" {
		return fmt.Errorf("LoadGen test did not complete: %w (every failed sample is listed in %s; see %s)", testErr, filepath.Join(outputDir, record.FailuresFile), StopFlag(rep.Stats.StopCause))
	}
	return fmt.Errorf("LoadGen test did not complete: %w", testErr)
}

// conclude judges a test LoadGen completed: the summary from the check of
// every log, the outcome, and the error Run reports when samples failed
// or LoadGen refused completions.
func (rep *Report) conclude(outputDir string, mode loadgen.Mode) error {
	// The summary (none in accuracy mode, where LoadGen writes no
	// performance result) comes from the check of every log.
	var err error
	if rep.Summary, err = checkLogs(outputDir, mode); err != nil {
		rep.Outcome, rep.OutcomeReason = record.Invalid, err.Error()
		return err
	}
	rep.decide()
	if rep.Stats.Failed > 0 {
		return fmt.Errorf("%d of %d samples failed (%s; each is listed in %s): %w", rep.Stats.Failed, rep.Stats.Completed, record.Counts(rep.Stats.FailuresByReason), filepath.Join(outputDir, record.FailuresFile), ErrFailures)
	}
	if rep.Stats.CompleterErrors > 0 {
		return errors.New(rep.OutcomeReason)
	}
	return nil
}

// afterTestHook, when set (by tests only), runs on the log directory after
// LoadGen's test returned and before its logs are checked, so a test can
// damage a log the way a full disk would.
var afterTestHook func(logDir string)

// needsFirstToken reports whether LoadGen measures a first token for the
// test: it does with use_token_latencies outside Offline (loadgen.cc sets
// needs_first_token for every scenario but Offline). Offline with token
// latencies wants only each sample's token count, which a non-streamed
// response reports too, and the references send Offline unstreamed
// (streaming costs the engine throughput).
func needsFirstToken(s loadgen.TestSettings) bool {
	return s.UseTokenLatencies && s.Scenario != loadgen.Offline
}

// StopFlag names the flag that decides when the pool stops a test early,
// for the error it stopped one with (sut.Stats.StopCause).
func StopFlag(cause error) string {
	if errors.Is(cause, sut.ErrEndpointsDown) {
		return "--endpoints-down-timeout"
	}
	return "--max-failures"
}
