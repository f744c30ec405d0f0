package run

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"go.uber.org/zap"

	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/engine"
	"github.com/mlperf-go/mlperf-go/loadgen"
	"github.com/mlperf-go/mlperf-go/protocol"
	"github.com/mlperf-go/mlperf-go/record"
	"github.com/mlperf-go/mlperf-go/sut"
)

// Request is what a command line (run's, tune's) says of a test, in its
// own words: names, strings and numbers as typed. Options checks it all,
// before any work, and resolves it into Options; its errors name the
// flags, which is what the user can change.
type Request struct {
	Benchmark string
	// Scenario is a LoadGen scenario or Interactive (ParseScenario).
	Scenario string
	Mode     loadgen.Mode
	// Round is the round whose reference the requests follow, already
	// checked (the rounds are submission's, a floor above).
	Round                  string
	Dataset, Splits        []string
	Endpoints              []string
	API                    string // "" for the benchmark's
	Model, UserConf        string
	Settings               []string
	TotalSampleCount       int
	PerformanceSampleCount int
	Concurrency            int
	Timeout                time.Duration
	// Stream is auto, true or false.
	Stream                                        string
	Guided, Trace, SkipPreflight                  bool
	ProgressEvery, PreflightTimeout, MetricsEvery time.Duration
	// Progress receives progress lines when ProgressEvery is positive.
	Progress io.Writer
	// APIKeyFile and APIKeyEnv are where the key is read (sut.ReadAPIKey).
	APIKeyFile, APIKeyEnv string
	// GenerationConfig and Sampling are SetSampling's layers.
	GenerationConfig string
	Sampling         map[string]any
	Resilience       Resilience
	// Given reports whether the flag name was given on the command line:
	// a value the pool would take as "use the default" (0) is refused
	// when given. Nil: none was.
	Given func(name string) bool
}

// Resilience is what a command line says of retries, response sizes and
// the failure limit (sut.Config's fields of the same names; MaxFailures
// as sut.ParseFailureLimit reads it).
type Resilience struct {
	Retries                            int
	MaxResponseBytes, MaxBufferedBytes int64
	MaxFailures                        string
	EndpointsDownAfter                 time.Duration
}

// Options checks r and resolves it into runner options, all but the
// output folder and a run's own settings.
func (r Request) Options(log *zap.Logger) (Options, error) {
	b, err := benchmark.Lookup(r.Benchmark)
	if err != nil {
		return Options{}, err
	}
	scen, b, err := ParseScenario(r.Scenario, b)
	if err != nil {
		return Options{}, err
	}
	o := Options{
		Benchmark: b, Scenario: scen, Mode: r.Mode, Round: r.Round,
		Dataset: r.Dataset, Splits: r.Splits, Endpoints: r.Endpoints, Model: r.Model,
		UserConf: r.UserConf, Settings: r.Settings,
		TotalSampleCount: r.TotalSampleCount, PerformanceSampleCount: r.PerformanceSampleCount,
		Concurrency: r.Concurrency, Timeout: r.Timeout, Guided: r.Guided, EnableTrace: r.Trace, Logger: log,
		ProgressEvery: r.ProgressEvery, SkipPreflight: r.SkipPreflight, PreflightTimeout: r.PreflightTimeout,
		EngineMetricsEvery: r.MetricsEvery,
	}
	if o.ProgressEvery > 0 {
		o.Progress = r.Progress
	}
	if r.API != "" {
		if o.API, err = protocol.Lookup(r.API); err != nil {
			return o, fmt.Errorf("--api: %w", err)
		}
	}
	switch r.Stream {
	case "auto":
	case "true", "false":
		v := r.Stream == "true"
		o.Stream = &v
	default:
		return o, fmt.Errorf("--stream %q: use auto, true or false", r.Stream)
	}
	if o.APIKey, err = sut.ReadAPIKey(r.APIKeyFile, r.APIKeyEnv); err != nil {
		return o, err
	}
	if err := o.SetSampling(r.GenerationConfig, r.Sampling); err != nil {
		return o, err
	}
	return o, o.SetResilience(r.Resilience, r.Given)
}

// flagForField names the flag that sets a sut.Config field.
var flagForField = map[string]string{
	"Endpoints":        "--endpoint",
	"Concurrency":      "--concurrency",
	"Timeout":          "--timeout",
	"Retries":          "--retries",
	"MaxResponseBytes": "--max-response-bytes",
	"MaxBufferedBytes": "--max-buffered-bytes",
	"MaxFailures":      "--max-failures",
	"APIKey":           "the API key (--api-key-file or --api-key-env)",
}

// SetResilience sets o's retries, response sizes and failure limit from r
// and checks them with the endpoint settings already in o, before any
// work: values the pool would take as "default" (0) are refused when
// given (given reports which flags were; nil: none), and the pool's own
// checks name the flag.
func (o *Options) SetResilience(r Resilience, given func(name string) bool) error {
	if given == nil {
		given = func(string) bool { return false }
	}
	for _, f := range []struct {
		name string
		v    int64
	}{{"concurrency", int64(o.Concurrency)}, {"total-sample-count", int64(o.TotalSampleCount)},
		{"performance-sample-count", int64(o.PerformanceSampleCount)}, {"max-response-bytes", r.MaxResponseBytes}} {
		if given(f.name) && f.v <= 0 {
			return fmt.Errorf("--%s %d: use a positive number (leave the flag out for the default)", f.name, f.v)
		}
	}
	if given("timeout") && o.Timeout <= 0 {
		return fmt.Errorf("--timeout %v: use a positive duration such as 20m (leave the flag out for the default)", o.Timeout)
	}
	switch {
	case r.Retries < 0:
		return fmt.Errorf("--retries %d: use 0 (no retries) or more", r.Retries)
	case r.Retries == 0:
		o.Retries = sut.NoRetries
	default:
		o.Retries = r.Retries
	}
	o.MaxResponseBytes, o.MaxBufferedBytes = r.MaxResponseBytes, r.MaxBufferedBytes
	if r.EndpointsDownAfter < 0 {
		return fmt.Errorf("--endpoints-down-timeout %v: use a positive duration such as 10s, or 0 never to stop", r.EndpointsDownAfter)
	}
	o.EndpointsDownAfter = r.EndpointsDownAfter
	var err error
	if o.MaxFailures, err = sut.ParseFailureLimit(r.MaxFailures); err != nil {
		return fmt.Errorf("--max-failures %w", err)
	}
	err = sut.Config{Endpoints: o.Endpoints, Concurrency: o.Concurrency, Timeout: o.Timeout, APIKey: o.APIKey,
		Retries: o.Retries, MaxResponseBytes: o.MaxResponseBytes, MaxBufferedBytes: o.MaxBufferedBytes, MaxFailures: o.MaxFailures}.Validate()
	var ce *sut.ConfigError
	if errors.As(err, &ce) {
		if flag, ok := flagForField[ce.Field]; ok {
			return fmt.Errorf("%s: %s", flag, ce.Msg)
		}
	}
	return err
}

// modeNames are the LoadGen modes as --mode names them, which also name
// a mode's folder in the run history (record.RunsFolder): the
// performance and accuracy runs' are their record.Kind.
var modeNames = map[loadgen.Mode]string{
	loadgen.PerformanceOnly:     string(record.KindPerformance),
	loadgen.AccuracyOnly:        string(record.KindAccuracy),
	loadgen.FindPeakPerformance: "find-peak-performance",
	loadgen.SubmissionRun:       "submission",
}

// ModeName is m as --mode names it ("performance", "accuracy", …).
func ModeName(m loadgen.Mode) string { return modeNames[m] }

// ParseMode reads a LoadGen mode as --mode names it, or as LoadGen does
// ("PerformanceOnly"), case-insensitively.
func ParseMode(s string) (loadgen.Mode, error) {
	for m, name := range modeNames {
		if strings.EqualFold(s, name) || strings.EqualFold(s, m.String()) {
			return m, nil
		}
	}
	return 0, fmt.Errorf("--mode %q: use performance, accuracy, %s (accuracy, evaluated, then performance), find-peak-performance or submission", s, record.ModeBoth)
}

// ParseScenario reads --scenario. Interactive is not a LoadGen scenario:
// it runs LoadGen's Server scenario under the benchmark's Interactive
// variant (its *-interactive model name in mlperf.conf, with that name's
// TTFT/TPOT limits), so it returns Server and that variant.
func ParseScenario(name string, b benchmark.Benchmark) (loadgen.Scenario, benchmark.Benchmark, error) {
	if strings.EqualFold(name, benchmark.ScenarioInteractive) {
		iv, err := b.InteractiveVariant()
		if err != nil {
			return 0, b, fmt.Errorf("--scenario Interactive: %w", err)
		}
		return loadgen.Server, iv, nil
	}
	scen, err := loadgen.ParseScenario(name)
	if err != nil {
		return 0, b, fmt.Errorf("--scenario: %w (or Interactive)", err)
	}
	return scen, b, nil
}

// LaunchRequest is what a command line says of the engine to launch, in
// its own words (Launch resolves it).
type LaunchRequest struct {
	// Kind is --launch (nil: not given); ConfigFile the server config
	// (engine.LoadConfig).
	Kind       *string
	ConfigFile string
	// Model, Command, Host and Port override the config when not nil.
	Model, Command, Host *string
	Port                 *int
	Args                 []string
	LogPath              string
	ReadyTimeout         time.Duration
	StopGrace            time.Duration
	// Given lists the engine flags given, by name; EndpointGiven says
	// --endpoint was, which a launched engine replaces.
	Given         []string
	EndpointGiven bool
}

// Launch resolves r into the engine to start, nil when r asks for none.
func (r LaunchRequest) Launch() (*Launch, error) {
	var spec engine.Spec
	if r.ConfigFile != "" {
		s, err := engine.LoadConfig(r.ConfigFile)
		if err != nil {
			return nil, err
		}
		spec = s
	}
	if r.Kind != nil {
		k, err := engine.ParseKind(*r.Kind)
		if err != nil {
			return nil, fmt.Errorf("--launch: %w", err)
		}
		spec.Kind = k
	}
	if spec.Kind == "" {
		if len(r.Given) > 0 {
			return nil, fmt.Errorf("--%s needs an engine to launch: add --launch %s (or engine: in --engine-config)", r.Given[0], strings.Join(engine.Kinds(), "|"))
		}
		return nil, nil
	}
	if r.EndpointGiven {
		return nil, errors.New("--endpoint with a launched engine: the engine is the endpoint; drop --endpoint (or --launch to use a running server)")
	}
	for dst, v := range map[*string]*string{&spec.Model: r.Model, &spec.Command: r.Command, &spec.Host: r.Host} {
		if v != nil {
			*dst = *v
		}
	}
	if r.Port != nil {
		spec.Port = *r.Port
		if spec.Port == 0 {
			spec.Port = engine.FreePort
		}
	}
	spec.Args = append(spec.Args, r.Args...)
	return &Launch{Spec: spec, LogPath: r.LogPath, ReadyTimeout: r.ReadyTimeout, StopGrace: r.StopGrace}, nil
}
