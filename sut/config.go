package sut

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"go.uber.org/zap"

	"github.com/mlperf-go/mlperf-go/internal/redact"
	"github.com/mlperf-go/mlperf-go/loadgen"
	"github.com/mlperf-go/mlperf-go/protocol"
)

// Defaults for Config fields left zero.
const (
	// DefaultConcurrency caps requests in flight across all endpoints.
	// Offline issues every sample at once; the references either send
	// them all (qwen3-vl, asyncio) or cap at 128 (gpt-oss-120b
	// --max-concurrency). 1024 keeps a few large-batch servers saturated
	// while bounding sockets and file descriptors; samples beyond the cap
	// wait in the pool's queue (that wait counts in LoadGen's latency, so
	// raise it for high-QPS Server runs).
	DefaultConcurrency = 1024
	// DefaultCloseTimeout is how long Close waits for in-flight requests
	// before cancelling them.
	DefaultCloseTimeout = 30 * time.Second
	// DefaultMaxFailureRecords is how many failures Stats keeps verbatim
	// and the logger reports individually.
	DefaultMaxFailureRecords = 20
	// DefaultMaxResponseBytes bounds a response: a non-streamed body, one
	// server-sent-event line, and the output a stream accumulates. 64 MiB
	// is a hundred times the longest answer the benchmarks allow (32,768
	// tokens of gpt-oss-120b as JSON), and bounds memory to 64 MiB per
	// request in flight whatever a server sends.
	DefaultMaxResponseBytes = 64 << 20
	// DefaultMaxBufferedBytes bounds what all responses in flight hold in
	// memory together: a misbehaving server answering every request in
	// flight with an endless stream would otherwise cost up to
	// concurrency x what one response may hold. Real answers are kilobytes.
	DefaultMaxBufferedBytes = 1 << 30
	// DefaultRetries is how many times a sample is sent again after a
	// retryable failure (see Config.Retries).
	DefaultRetries = 3
	// NoRetries as Config.Retries turns retries off.
	NoRetries = -1
)

// Config configures a Pool. Zero fields take the defaults stated.
type Config struct {
	// Endpoints are base URLs such as http://host:8000 or
	// http://host:8000/v1 (a trailing /v1, or the full API path, is
	// accepted and normalised). At least one is required; requests go to
	// the healthy endpoint with the fewest outstanding requests; a failing
	// one is ejected and probed again with backoff (see endpoints.go). URLs
	// with credentials (user:password@) are refused.
	Endpoints []string
	// API is the endpoints' wire protocol (see protocol.Lookup). Required.
	API protocol.Protocol
	// Stream reads responses as server-sent events and reports the first
	// token with FirstTokenComplete. The bodies must have been built with
	// stream=true to match.
	Stream bool
	// FinalOmitsFirstToken, when streaming, completes each sample with
	// its output minus the token(s) already reported with
	// FirstTokenComplete, in data and in count (n-1 where the first
	// report held one token), as the benchmark's reference SUT does; the
	// runner sets it from benchmark.Benchmark.FinalResponseOmitsFirstToken.
	// LoadGen's TPOT and tokens/s are computed from the final count. Off,
	// the final response carries all n tokens.
	FinalOmitsFirstToken bool
	// Concurrency caps requests in flight (default DefaultConcurrency).
	Concurrency int
	// Timeout bounds each request from send to the last byte (default
	// API.DefaultTimeout()).
	Timeout time.Duration
	// APIKey, if set, is sent as "Authorization: Bearer <key>". It is never
	// logged, nor shown in an error; a key with control characters is
	// refused.
	APIKey string
	// Name is the SUT name LoadGen logs (default "mlperf-go-<API.Name()>").
	Name string
	// Bodies supplies request bodies. Required.
	Bodies Bodies
	// Completer receives the responses. Required. It is called from one
	// goroutine at a time, except for samples issued after Close.
	Completer loadgen.Completer
	// Logger receives failure reports (default: none).
	Logger *zap.Logger
	// Clock times the samples for the latency breakdown (Pool.Latency;
	// default: the system's monotonic clock).
	Clock Clock
	// CloseTimeout is how long Close waits for in-flight requests before
	// cancelling them (default DefaultCloseTimeout).
	CloseTimeout time.Duration
	// MaxFailureRecords is how many failures are kept in Stats and logged
	// individually at Warn level (default DefaultMaxFailureRecords).
	MaxFailureRecords int
	// MaxResponseBytes bounds a non-streamed response body, any one
	// server-sent-event line, and the output a stream accumulates (default
	// DefaultMaxResponseBytes). A response past it fails the sample
	// (ReasonTooLarge). A stream's raw bytes are not capped as a whole
	// (SGLang's cumulative streams repeat every token in every event):
	// what is kept in memory is, and Timeout bounds the rest.
	MaxResponseBytes int64
	// MaxBufferedBytes bounds the memory all responses in flight hold
	// together, counted as the buffers they occupy (what growing them
	// allocates, not only the bytes on the wire); default
	// DefaultMaxBufferedBytes. A response that would take it past the bound
	// fails its sample (ReasonTooLarge) instead of growing.
	MaxBufferedBytes int64
	// Retries is how many times a sample is sent again (default
	// DefaultRetries; NoRetries for none) after a 429 or 503 (waiting
	// the Retry-After the server names, else a short backoff), or after a
	// connection that failed before a byte of the request could count: no
	// connection could be made, or a reused keep-alive connection closed
	// before any response byte (see send), or, when another endpoint is
	// healthy, after a connection cut mid-answer (an engine killed while it
	// answered). A retry goes to another endpoint when one is healthy and
	// never past the sample's Timeout; once a first token was reported,
	// only a cut answer is sent again, and the new answer replaces it
	// whole. Every retry is counted in Stats.
	Retries int
	// MaxFailures stops the run early (the zero value never does): once
	// it is exceeded the pool cancels what is queued and in flight and
	// calls Abort.
	MaxFailures FailureLimit
	// EndpointsDownAfter stops the run early, as MaxFailures does, once
	// every endpoint has refused or dropped connections for this long
	// with no answer of any kind from any of them in between (0 never
	// does; the CLI's default is DefaultEndpointsDownAfter): a dead engine
	// fails every sample issued after it, and a Server test would play its
	// schedule out to min_duration.
	EndpointsDownAfter time.Duration
	// Abort, if set, is called once, in its own goroutine, with an error
	// wrapping ErrTooManyFailures when MaxFailures is exceeded, or
	// ErrEndpointsDown after EndpointsDownAfter; a runner passes
	// loadgen.AbortTest.
	Abort func(error)
	// OnFailure, if set, receives every failed sample, one call at a time
	// (never concurrently), from the goroutine that completes the sample;
	// it must not block for long. A runner writes them to a file.
	OnFailure func(Failure)
	// Tracer, if set, is told when each request is sent, each streamed
	// event arrives and each sample finishes (default: none).
	Tracer Tracer
	// Transport, if set, carries every request instead of the pool's own
	// net/http Transport (see newTransport), e.g. to add TLS roots. A
	// *http.Transport is cloned, keep-alives off, for retries (see send).
	Transport http.RoundTripper
}

// Limits on Config values: beyond them a setting is a typo, not a choice.
const (
	// MaxConcurrency bounds Config.Concurrency: each slot is a goroutine
	// and, in flight, a socket; a billion of them exhausts memory long
	// before any server could use them.
	MaxConcurrency = 1 << 16
	// MaxRetries bounds Config.Retries.
	MaxRetries = 100
	// minResponseBytes is the smallest Config.MaxResponseBytes: below it
	// even an ordinary answer cannot fit.
	minResponseBytes = 1 << 10
)

// ConfigError is an invalid Config field. Field is the Config field's
// name, so a caller can name its own flag for it.
type ConfigError struct {
	Field string
	Msg   string
}

func (e *ConfigError) Error() string { return "sut: Config." + e.Field + ": " + e.Msg }

func configErr(field, format string, args ...any) error {
	return &ConfigError{Field: field, Msg: fmt.Sprintf(format, args...)}
}

// Validate checks the fields a user sets (zero values take their
// defaults), as New does, so a caller can refuse bad settings before
// doing any work. Errors are *ConfigError, naming the field.
func (c Config) Validate() error {
	if err := c.validate(); err != nil {
		return err
	}
	for i, e := range c.Endpoints {
		if _, err := checkEndpoint(i, e); err != nil {
			return err
		}
	}
	return nil
}

// validate checks the fields other than the endpoints' URLs.
func (c *Config) validate() error {
	if len(c.Endpoints) == 0 {
		return configErr("Endpoints", "no endpoint configured")
	}
	if c.Concurrency < 0 || c.Concurrency > MaxConcurrency {
		return configErr("Concurrency", "%d is out of range: use 1 to %d requests in flight", c.Concurrency, MaxConcurrency)
	}
	if c.Timeout < 0 {
		return configErr("Timeout", "%v is negative: use a positive duration such as 20m", c.Timeout)
	}
	if c.CloseTimeout < 0 {
		return configErr("CloseTimeout", "%v is negative", c.CloseTimeout)
	}
	if c.Retries < NoRetries || c.Retries > MaxRetries {
		return configErr("Retries", "%d is out of range: use 0 to %d", c.Retries, MaxRetries)
	}
	if c.MaxBufferedBytes < 0 || (c.MaxBufferedBytes > 0 && c.MaxBufferedBytes < minResponseBytes) {
		return configErr("MaxBufferedBytes", "%d is out of range: use at least %d bytes", c.MaxBufferedBytes, minResponseBytes)
	}
	if c.MaxResponseBytes < 0 || (c.MaxResponseBytes > 0 && c.MaxResponseBytes < minResponseBytes) {
		return configErr("MaxResponseBytes", "%d is out of range: use at least %d bytes", c.MaxResponseBytes, minResponseBytes)
	}
	if err := c.MaxFailures.validate(); err != nil {
		return &ConfigError{Field: "MaxFailures", Msg: err.Error()}
	}
	for i, r := range c.APIKey {
		if r < 0x20 || r == 0x7f {
			return configErr("APIKey", "contains a control character at byte %d (a line break from a key file?); the key is not shown, remove the character", i)
		}
	}
	return nil
}

// checkEndpoint refuses a base URL the pool cannot use as given. The
// message never repeats credentials: a URL with user information is shown
// redacted, and one that does not parse is not shown at all when it may
// hold any.
func checkEndpoint(i int, base string) (*url.URL, error) {
	shown := strconv.Quote(redact.Text(base))
	if strings.Contains(base, "@") {
		shown = fmt.Sprintf("#%d", i+1)
	}
	u, err := url.Parse(strings.TrimSpace(base))
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // url.Error repeats the whole URL
		}
		return nil, configErr("Endpoints", "endpoint %s is not a URL (%v): want an http:// or https:// URL with a host, e.g. http://127.0.0.1:8000", shown, err)
	}
	if u.User != nil {
		return nil, configErr("Endpoints", "endpoint %s carries credentials (user:password@); they would not be sent, and would be written into logs and records: remove them and pass the key as an API key (bearer token)", redact.URL(base))
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, configErr("Endpoints", "endpoint %s: want an http:// or https:// URL with a host, e.g. http://127.0.0.1:8000", shown)
	}
	return u, nil
}

// FailureLimit is when a Pool gives up on a run: once Count samples have
// failed, or once at least MinSamples have finished and Fraction of them
// failed. Samples cancelled or issued after Close do not count (they
// follow a stop, they do not cause one). The zero value never stops.
type FailureLimit struct {
	// Count stops the run at this many failures (0: no count limit).
	Count int64
	// Fraction, in (0, 1], stops the run once that share of the finished
	// samples failed (0: no fraction limit), judged only from MinSamples
	// finished samples on (0: DefaultFailureLimitMinSamples).
	Fraction   float64
	MinSamples int64
}

// DefaultFailureLimitMinSamples is how many samples must have finished
// before a FailureLimit.Fraction is judged: enough that a few early
// failures do not stop a healthy run, few enough that a dead server is
// noticed within seconds.
const DefaultFailureLimitMinSamples = 50

// DefaultMaxFailures is the failure limit the CLI uses by default: stop
// once 90% of at least 50 finished samples failed. A run that bad cannot
// produce a result, and catching it early saves the rest of the schedule
// (up to 10 minutes in the Server scenario).
const DefaultMaxFailures = "90%"

// ParseFailureLimit reads a limit as the --max-failures flag takes it:
// "off" (never stop), a count "N" (stop at N failed samples, N ≥ 1), or a
// percentage "P%" (stop once P% of at least DefaultFailureLimitMinSamples
// finished samples failed, 0 < P ≤ 100).
func ParseFailureLimit(s string) (FailureLimit, error) {
	s = strings.TrimSpace(s)
	switch {
	case s == "off" || s == "none":
		return FailureLimit{}, nil
	case strings.HasSuffix(s, "%"):
		v, err := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(s, "%")), 64)
		if err != nil || !(v > 0 && v <= 100) {
			return FailureLimit{}, fmt.Errorf("%q: want a percentage above 0%% and at most 100%%, a count of failed samples, or off", s)
		}
		return FailureLimit{Fraction: v / 100, MinSamples: DefaultFailureLimitMinSamples}, nil
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 1 {
		return FailureLimit{}, fmt.Errorf("%q: want a count of failed samples (at least 1), a percentage such as 90%%, or off", s)
	}
	return FailureLimit{Count: n}, nil
}

// String is the limit as ParseFailureLimit reads it.
func (l FailureLimit) String() string {
	var parts []string
	if l.Count > 0 {
		parts = append(parts, strconv.FormatInt(l.Count, 10))
	}
	if l.Fraction > 0 {
		parts = append(parts, strconv.FormatFloat(l.Fraction*100, 'g', -1, 64)+"%")
	}
	if len(parts) == 0 {
		return "off"
	}
	return strings.Join(parts, " or ")
}

func (l FailureLimit) validate() error {
	if l.Count < 0 || l.MinSamples < 0 || l.Fraction < 0 || l.Fraction > 1 {
		return fmt.Errorf("%+v: Count and MinSamples must not be negative and Fraction must be in [0, 1]", l)
	}
	return nil
}

// exceeded reports whether failed of finished samples pass the limit.
func (l FailureLimit) exceeded(failed, finished int64) bool {
	if l.Count > 0 && failed >= l.Count {
		return true
	}
	minN := l.MinSamples
	if minN <= 0 {
		minN = DefaultFailureLimitMinSamples
	}
	return l.Fraction > 0 && finished >= minN && float64(failed) >= l.Fraction*float64(finished)
}

// ErrTooManyFailures is wrapped by the error a Pool passes to
// Config.Abort when Config.MaxFailures is exceeded.
var ErrTooManyFailures = errors.New("too many failed samples")

// ErrEndpointsDown is wrapped by the error a Pool passes to Config.Abort
// when every endpoint was unreachable for Config.EndpointsDownAfter.
var ErrEndpointsDown = errors.New("no endpoint answers")

// DefaultEndpointsDownAfter is how long the CLI lets every endpoint be
// unreachable before it stops the test: longer than a sample's retries
// take (about 3.5 s), so a blip is ridden out, and short next to an
// engine's restart, during which every sample fails anyway.
const DefaultEndpointsDownAfter = 10 * time.Second

// durationOr returns d, or def when d is zero.
func durationOr(d, def time.Duration) time.Duration {
	if d == 0 {
		return def
	}
	return d
}
