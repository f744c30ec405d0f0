package bench

import (
	"fmt"
	"io"
	"math"
	"net/http"
	"os"
	"strings"
	"time"

	"go.uber.org/zap"

	"github.com/mlperf-go/mlperf-go/protocol"
	"github.com/mlperf-go/mlperf-go/protocol/openaichat"
)

// Target is one endpoint under test.
type Target struct {
	// Name labels the target in tables and results ("vllm", "dashinfer").
	Name string `json:"name"`
	// URLs are its base URLs; requests go to the one with the fewest in
	// flight, as in mlperf-go run.
	URLs []string `json:"urls"`
}

// Load is one load point.
type Load struct {
	// Concurrency caps the conversations in flight, so the requests (0:
	// no cap), as DashInfer's --batch-size and vllm bench serve's
	// --max-concurrency do.
	Concurrency int `json:"concurrency"`
	// Rate is conversations started per second (0: all at once), with
	// gamma-distributed gaps of shape Burstiness as vllm bench serve's
	// --request-rate and --burstiness (1, the default: Poisson; below 1
	// burstier; +Inf: constant gaps).
	Rate       float64 `json:"rate,omitempty"`
	Burstiness float64 `json:"burstiness,omitempty"`
	// Interval, when set, starts a conversation every Interval, as
	// DashInfer's --frequency (Interval = 1/frequency); it replaces Rate.
	Interval time.Duration `json:"interval_ns,omitempty"`
}

// String names the load point in tables and file names.
func (l Load) String() string {
	var parts []string
	if l.Concurrency > 0 {
		parts = append(parts, fmt.Sprintf("c%d", l.Concurrency))
	}
	switch {
	case l.Interval > 0:
		parts = append(parts, "every "+l.Interval.String())
	case l.Rate > 0:
		s := fmt.Sprintf("%grps", l.Rate)
		if l.Burstiness != 0 && l.Burstiness != 1 {
			s += fmt.Sprintf("-b%g", l.Burstiness)
		}
		parts = append(parts, s)
	}
	if len(parts) == 0 {
		return "all-at-once"
	}
	return strings.Join(parts, "-")
}

// paced reports whether conversations start at a rate or at fixed
// intervals, rather than as fast as the concurrency cap lets them: such
// points are charted against their rate, the others against concurrency.
func (l Load) paced() bool { return l.Rate > 0 || l.Interval > 0 }

// SLO are the latency objectives a request must meet to count towards
// goodput (zero: not checked), vllm bench serve's --goodput: a request is
// good when its TTFT, TPOT (0 for answers of one token) and end-to-end
// latency are each at most their objective.
type SLO struct {
	TTFT time.Duration `json:"ttft_ns,omitempty"`
	TPOT time.Duration `json:"tpot_ns,omitempty"`
	E2EL time.Duration `json:"e2el_ns,omitempty"`
}

// Set reports whether any objective is set.
func (s SLO) Set() bool { return s.TTFT > 0 || s.TPOT > 0 || s.E2EL > 0 }

// DefaultPercentiles are reported when Options.Percentiles is empty.
var DefaultPercentiles = []float64{50, 90, 95, 99}

// DefaultSessionHeader is the header carrying the conversation ID, as
// mlcommons/endpoints' agentic replay sends it (routing_headers).
const DefaultSessionHeader = "X-Session-ID"

// Options configure a benchmark. Zero fields take the defaults stated.
type Options struct {
	// Targets are the endpoints, each sent the whole request set at each
	// load point. At least one.
	Targets []Target
	// API is the endpoint protocol (default openai-chat; workloads other
	// than a benchmark's dataset need it).
	API protocol.Protocol
	// Model is the model name requests carry ("": none sent where the API
	// allows).
	Model string
	// APIKey is sent as a bearer token when set.
	APIKey string
	// Stream asks for streamed answers, which TTFT, TPOT and inter-token
	// latency need (the CLI streams unless --no-stream).
	Stream bool
	// ExactOutput sends ignore_eos and the minimum length equal to the
	// maximum, so answers are exactly each turn's MaxTokens long on vLLM
	// and SGLang.
	ExactOutput bool
	// Loads are the load points, each run in turn (default: one,
	// all at once without a cap).
	Loads []Load
	// Warmup requests (copies of the first conversations' first turns)
	// are sent before each run, at its concurrency, and left out of
	// every figure.
	Warmup int
	// SLO are the goodput objectives.
	SLO SLO
	// Percentiles are reported for every latency (default
	// DefaultPercentiles).
	Percentiles []float64
	// SessionHeader names the header carrying each conversation's ID
	// (default DefaultSessionHeader; "-" sends none).
	SessionHeader string
	// Timeout bounds each request (default the API's, as in run).
	Timeout time.Duration
	// Seed seeds the arrival times of Rate loads (default 0).
	Seed uint64
	// Progress, when set, receives a live progress line; ProgressTTY
	// redraws it in place (a bar), otherwise a line is written every
	// ProgressInterval (default 10 s).
	Progress         io.Writer
	ProgressTTY      bool
	ProgressInterval time.Duration
	// Logger receives failures (default none).
	Logger *zap.Logger
	// Transport, when set, carries the requests (tests).
	Transport http.RoundTripper
	// SkipPreflight skips the check, before anything is sent, that every
	// target URL answers /health or /v1/models and lists Model.
	SkipPreflight bool
	// Shard, when set, makes this process one of several sending the
	// workload together from several hosts (see Shard).
	Shard *Shard
	// Host names this process in results and at the rendezvous (default
	// the machine's host name).
	Host string
	// StartAt, when set, is when the first run starts sending (this
	// host's clock), so that processes on several hosts start together.
	StartAt time.Time
	// Rendezvous, when set, is a folder the Shard's processes share:
	// before each run they wait there for each other and start together
	// (see rendezvous). RendezvousTimeout bounds the wait (default
	// DefaultRendezvousTimeout); RendezvousLead is how long after the last
	// is ready they start (default DefaultRendezvousLead).
	Rendezvous                        string
	RendezvousTimeout, RendezvousLead time.Duration
	// Finished, when set, is called after each load point with the
	// results so far, so a caller can save them before the next point
	// starts (an interrupted sweep keeps the points it finished).
	Finished func(res *Results, records [][]Record) error
}

func (o *Options) defaults() error {
	if len(o.Targets) == 0 {
		return fmt.Errorf("no target: give --target NAME=URL (or --endpoint URL)")
	}
	seen := map[string]bool{}
	for _, t := range o.Targets {
		if t.Name == "" || len(t.URLs) == 0 {
			return fmt.Errorf("target %q: want NAME=URL", t.Name)
		}
		if seen[t.Name] {
			return fmt.Errorf("target name %q given twice: names label the results, make them unique", t.Name)
		}
		seen[t.Name] = true
	}
	if o.API == nil {
		o.API = openaichat.Protocol
	}
	if len(o.Loads) == 0 {
		o.Loads = []Load{{}}
	}
	for _, l := range o.Loads {
		if l.Concurrency < 0 || l.Rate < 0 || l.Interval < 0 || l.Burstiness < 0 || math.IsNaN(l.Rate) || math.IsNaN(l.Burstiness) {
			return fmt.Errorf("load %+v: concurrency, rate, interval and burstiness must not be negative", l)
		}
	}
	if len(o.Percentiles) == 0 {
		o.Percentiles = DefaultPercentiles
	}
	for _, p := range o.Percentiles {
		if !(p >= 0 && p <= 100) {
			return fmt.Errorf("percentile %v is outside [0, 100]", p)
		}
	}
	switch o.SessionHeader {
	case "":
		o.SessionHeader = DefaultSessionHeader
	case "-":
		o.SessionHeader = ""
	}
	if o.Warmup < 0 {
		return fmt.Errorf("warm-up count %d is negative", o.Warmup)
	}
	if o.ProgressInterval <= 0 {
		o.ProgressInterval = 10 * time.Second
	}
	if o.Logger == nil {
		o.Logger = zap.NewNop()
	}
	if o.Host == "" {
		o.Host, _ = os.Hostname()
	}
	if o.RendezvousTimeout <= 0 {
		o.RendezvousTimeout = DefaultRendezvousTimeout
	}
	if o.RendezvousLead <= 0 {
		o.RendezvousLead = DefaultRendezvousLead
	}
	if o.Rendezvous != "" && o.Shard == nil {
		return fmt.Errorf("--rendezvous: give --shard I/N too, so each process knows how many to wait for")
	}
	if runs := len(o.Loads) * len(o.Targets); runs > 1 && o.Shard != nil && o.Shard.Count > 1 && o.Rendezvous == "" {
		return fmt.Errorf("--shard %s: a sweep of %d runs (targets at load points) from several hosts needs --rendezvous DIR, a folder they share, to start each run together (--start-at starts the first alone)", o.Shard, runs)
	}
	return nil
}
