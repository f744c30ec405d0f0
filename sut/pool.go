// Package sut is the system under test: a pool of HTTP workers that sends
// each LoadGen query to an inference endpoint and reports the answer back
// through a loadgen.Completer. What goes over the wire - the request path,
// how a response or a stream is read - belongs to a protocol.Protocol
// (packages under protocol/); the pool sends bytes and keeps the books.
//
// Request bodies are built once, at sample-load time, by the protocol's
// encoders and stored in a qsl.Library; the pool only hands those bytes to
// net/http and gives the response to the protocol to decode.
package sut

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"go.uber.org/zap"

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
	// DefaultMaxResponseBytes bounds a non-streamed response body.
	DefaultMaxResponseBytes = 256 << 20
	// maxBatch bounds one Completer call.
	maxBatch = 1024
)

// Bodies yields the prebuilt request body of a loaded sample, or nil when
// the sample is not loaded. qsl.Library satisfies it. The pool never
// modifies the returned slice.
type Bodies interface {
	Body(index int) []byte
}

// PrefixedBodies is a Bodies that keeps a prefix many bodies share once
// (qsl.Library.SharePrefix). The pool asks it for the two pieces and
// sends them back to back as one body, without joining them in memory.
type PrefixedBodies interface {
	Bodies
	// Parts returns a loaded sample's body as the shared prefix (nil
	// when it has none) and the rest; rest is nil when the sample is
	// not loaded.
	Parts(index int) (prefix, rest []byte)
}

// Config configures a Pool. Zero fields take the defaults stated.
type Config struct {
	// Endpoints are base URLs such as http://host:8000 or
	// http://host:8000/v1 (a trailing /v1, or the full API path, is
	// accepted and normalised). At least one is required; requests go to
	// the endpoint with the fewest outstanding requests.
	Endpoints []string
	// API is the endpoints' wire protocol (see protocol.Lookup). Required.
	API protocol.Protocol
	// Stream reads responses as server-sent events and reports the first
	// token with FirstTokenComplete. The bodies must have been built with
	// stream=true to match.
	Stream bool
	// Concurrency caps requests in flight (default DefaultConcurrency).
	Concurrency int
	// Timeout bounds each request from send to the last byte (default
	// API.DefaultTimeout()).
	Timeout time.Duration
	// APIKey, if set, is sent as "Authorization: Bearer <key>". It is never
	// logged.
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
	// CloseTimeout is how long Close waits for in-flight requests before
	// cancelling them (default DefaultCloseTimeout).
	CloseTimeout time.Duration
	// MaxFailureRecords is how many failures are kept in Stats and logged
	// individually at Warn level (default DefaultMaxFailureRecords).
	MaxFailureRecords int
	// MaxResponseBytes bounds a non-streamed response (default
	// DefaultMaxResponseBytes).
	MaxResponseBytes int64
	// Transport, if set, carries every request instead of the pool's own
	// net/http Transport (see newTransport), e.g. to add TLS roots. A
	// *http.Transport is cloned, keep-alives off, for retries (see send).
	Transport http.RoundTripper
}

// endpointURL turns a base URL into the request URL for api.
func endpointURL(base string, api protocol.Protocol) (string, error) {
	u, err := url.Parse(strings.TrimSpace(base))
	if err != nil {
		return "", fmt.Errorf("endpoint %q: %w", base, err)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("endpoint %q: want an http:// or https:// URL with a host", base)
	}
	p := strings.TrimRight(u.Path, "/")
	p = strings.TrimSuffix(p, api.Path())
	p = strings.TrimRight(p, "/")
	p = strings.TrimSuffix(p, "/v1")
	u.Path = p + api.Path()
	u.RawPath = ""
	return u.String(), nil
}

// Failure describes one failed sample.
type Failure struct {
	// Index is the QSL sample index; ID the LoadGen response ID.
	Index int
	ID    uint64
	// Reason is one of the Reason* constants.
	Reason string
	// Message says what went wrong.
	Message string
}

// Failure reasons, the keys of Stats.FailuresByReason.
const (
	ReasonHTTPStatus   = "http_status"        // non-200 status
	ReasonTimeout      = "timeout"            // Config.Timeout elapsed
	ReasonTransport    = "transport"          // connect/read/write error, reset
	ReasonMalformed    = "malformed_response" // not JSON, or a needed field missing
	ReasonServerError  = "server_error"       // an {"error": ...} body with status 200
	ReasonTruncated    = "truncated_stream"   // stream ended before its end marker
	ReasonNotLoaded    = "sample_not_loaded"  // Bodies returned nil
	ReasonCanceled     = "canceled"           // the pool's context was cancelled
	ReasonClosed       = "closed"             // issued after Close
	ReasonInternal     = "internal"           // a bug: panic while serving
	reasonCompleterErr = "completer"          // not a sample failure; counted apart
)

// Stats is a snapshot of the pool's counters.
type Stats struct {
	// Issued samples were handed to IssueQuery; Completed were reported to
	// the Completer (successfully or not); Failed is the subset of
	// Completed reported as failures (with an empty response).
	Issued, Completed, Failed int64
	// FailuresByReason counts failures per Reason*.
	FailuresByReason map[string]int64
	// FirstFailures are the first Config.MaxFailureRecords failures.
	FirstFailures []Failure
	// CompleterErrors counts errors returned by the Completer.
	CompleterErrors int64
	// OutputTokens is the sum of NTokens over successful samples.
	OutputTokens int64
	// Retries counts requests sent a second time, on a fresh connection,
	// because the keep-alive connection they went out on failed before
	// any response byte arrived (see send). A retried sample is not a
	// failure unless its second attempt fails too.
	Retries int64
}

// Progress is a cheap snapshot for a progress line.
type Progress struct {
	Issued, Completed, Failed int64
	// InFlight requests are on the wire; Queued wait for a slot.
	InFlight, Queued int64
	// OutputTokens is the sum of NTokens over successful samples.
	OutputTokens int64
	// MeanLatency is the mean send-to-complete time of successful
	// samples; MeanTTFT the mean send-to-first-token time of streams.
	MeanLatency, MeanTTFT time.Duration
}

// worker is one pool goroutine's state: its stream decoder, reset for
// every streamed response.
type worker struct {
	stream protocol.Stream
}

// event is one response on its way to the Completer.
type event struct {
	first bool
	resp  loadgen.Response
	buf   *[]byte // returned to bufPool once the Completer has copied it
}

// Pool is a loadgen.SUT that sends samples to HTTP endpoints. Create it
// with New; it is safe for concurrent use.
type Pool struct {
	cfg    Config
	parts  PrefixedBodies // cfg.Bodies when it is one
	log    *zap.Logger
	client *http.Client // the keep-alive pool
	fresh  *http.Client // retries: a new connection every time
	urls   []string
	auth   string

	ctx    context.Context
	cancel context.CancelFunc

	epMu        sync.Mutex
	outstanding []int
	rr          int

	qmu    sync.Mutex
	qcond  *sync.Cond
	queue  []loadgen.QuerySample
	head   int
	closed bool

	workers   sync.WaitGroup
	closeOnce sync.Once

	// Responses on their way to the Completer (see emit).
	evMu                 sync.Mutex
	evPending, evSpare   []event
	evFlushing           bool
	firstsBuf, finalsBuf []loadgen.Response

	issued, done, failed, inFlight, queued atomic.Int64
	outTokens, latencyNs, latencyN         atomic.Int64
	ttftNs, ttftN, completerErrs, retries  atomic.Int64

	failMu   sync.Mutex
	byReason map[string]int64
	first    []Failure
}

var _ loadgen.SUT = (*Pool)(nil)

// New starts a Pool. Cancelling ctx cancels in-flight requests, which then
// complete as failures, and fails queued and later samples at once, so
// LoadGen never waits on a dead run. Call Close when done.
func New(ctx context.Context, cfg Config) (*Pool, error) {
	if len(cfg.Endpoints) == 0 {
		return nil, errors.New("sut: no endpoints configured")
	}
	if cfg.API == nil {
		return nil, errors.New("sut: Config.API is required (see protocol.Lookup)")
	}
	if cfg.Bodies == nil || cfg.Completer == nil {
		return nil, errors.New("sut: Config.Bodies and Config.Completer are required")
	}
	if cfg.Concurrency <= 0 {
		cfg.Concurrency = DefaultConcurrency
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = cfg.API.DefaultTimeout()
	}
	if cfg.Name == "" {
		cfg.Name = "mlperf-go-" + cfg.API.Name()
	}
	if cfg.CloseTimeout <= 0 {
		cfg.CloseTimeout = DefaultCloseTimeout
	}
	if cfg.MaxFailureRecords <= 0 {
		cfg.MaxFailureRecords = DefaultMaxFailureRecords
	}
	if cfg.MaxResponseBytes <= 0 {
		cfg.MaxResponseBytes = DefaultMaxResponseBytes
	}
	parts, _ := cfg.Bodies.(PrefixedBodies)
	p := &Pool{
		cfg:         cfg,
		parts:       parts,
		log:         cfg.Logger,
		outstanding: make([]int, len(cfg.Endpoints)),
		byReason:    map[string]int64{},
	}
	if p.log == nil {
		p.log = zap.NewNop()
	}
	for _, e := range cfg.Endpoints {
		u, err := endpointURL(e, cfg.API)
		if err != nil {
			return nil, fmt.Errorf("sut: %w", err)
		}
		p.urls = append(p.urls, u)
	}
	if cfg.APIKey != "" {
		p.auth = "Bearer " + cfg.APIKey
	}
	p.client, p.fresh = newClients(cfg.Transport, cfg.Concurrency, len(cfg.Endpoints))
	p.ctx, p.cancel = context.WithCancel(ctx)
	p.qcond = sync.NewCond(&p.qmu)
	p.workers.Add(cfg.Concurrency)
	for range cfg.Concurrency {
		go p.worker()
	}
	// On cancellation, wake idle workers so queued samples fail promptly
	// (requests on the wire end with their contexts).
	go func() {
		<-p.ctx.Done()
		p.qmu.Lock()
		p.qcond.Broadcast()
		p.qmu.Unlock()
	}()
	return p, nil
}

// Name implements loadgen.SUT.
func (p *Pool) Name() string { return p.cfg.Name }

// IssueQuery implements loadgen.SUT: it queues the samples and returns
// without blocking on the network.
func (p *Pool) IssueQuery(samples []loadgen.QuerySample) {
	p.issued.Add(int64(len(samples)))
	p.qmu.Lock()
	if p.closed {
		p.qmu.Unlock()
		p.failClosed(samples)
		return
	}
	if p.head == len(p.queue) {
		p.queue, p.head = p.queue[:0], 0
	}
	p.queue = append(p.queue, samples...)
	p.queued.Add(int64(len(samples)))
	if len(samples) == 1 {
		p.qcond.Signal()
	} else {
		p.qcond.Broadcast()
	}
	p.qmu.Unlock()
}

// FlushQueries implements loadgen.SUT. The pool sends every sample as soon
// as a slot is free and never holds samples back for batching, so there is
// nothing to flush.
func (p *Pool) FlushQueries() {}

// pop blocks for the next queued sample; false means the pool is closed
// and drained.
func (p *Pool) pop() (loadgen.QuerySample, bool) {
	p.qmu.Lock()
	defer p.qmu.Unlock()
	for p.head == len(p.queue) {
		if p.closed {
			return loadgen.QuerySample{}, false
		}
		p.qcond.Wait()
	}
	qs := p.queue[p.head]
	p.head++
	p.queued.Add(-1)
	return qs, true
}

func (p *Pool) worker() {
	defer p.workers.Done()
	w := &worker{}
	for {
		qs, ok := p.pop()
		if !ok {
			return
		}
		p.serve(w, qs)
	}
}

// acquire picks the endpoint with the fewest outstanding requests,
// rotating the start of the scan so ties spread evenly.
func (p *Pool) acquire() int {
	p.epMu.Lock()
	n := len(p.outstanding)
	best := p.rr % n
	for k := 1; k < n; k++ {
		i := (p.rr + k) % n
		if p.outstanding[i] < p.outstanding[best] {
			best = i
		}
	}
	p.rr++
	p.outstanding[best]++
	p.epMu.Unlock()
	return best
}

func (p *Pool) release(i int) {
	p.epMu.Lock()
	p.outstanding[i]--
	p.epMu.Unlock()
}

// emit hands a response to the Completer. Rather than a goroutine of its
// own (one more wake-up per response), delivery is done by whichever
// worker finds nobody delivering: it takes everything pending, makes one
// call per kind, and repeats until nothing is left, while workers that
// finish meanwhile only append. So calls are serialised, batches grow with
// load, and no response waits for a timer. First tokens go before
// completions in every batch, so a sample's FirstTokenComplete always
// precedes its QuerySamplesComplete (the worker emits them in that order).
func (p *Pool) emit(ev event) {
	p.evMu.Lock()
	p.evPending = append(p.evPending, ev)
	if p.evFlushing {
		p.evMu.Unlock()
		return
	}
	p.evFlushing = true
	for len(p.evPending) > 0 {
		batch := p.evPending
		p.evPending = p.evSpare[:0]
		p.evMu.Unlock()
		p.deliver(batch)
		clear(batch)
		p.evMu.Lock()
		p.evSpare = batch[:0]
	}
	p.evFlushing = false
	p.evMu.Unlock()
}

// deliver makes the Completer calls for one batch of events, at most
// maxBatch responses per call, and recycles their buffers.
func (p *Pool) deliver(batch []event) {
	for len(batch) > 0 {
		part := batch[:min(len(batch), maxBatch)]
		batch = batch[len(part):]
		firsts, finals := p.firstsBuf[:0], p.finalsBuf[:0]
		for i := range part {
			if part[i].first {
				firsts = append(firsts, part[i].resp)
			} else {
				finals = append(finals, part[i].resp)
			}
		}
		if len(firsts) > 0 {
			if err := p.cfg.Completer.FirstTokenComplete(firsts); err != nil {
				p.completerErr("FirstTokenComplete", err)
			}
		}
		if len(finals) > 0 {
			if err := p.cfg.Completer.QuerySamplesComplete(finals); err != nil {
				p.completerErr("QuerySamplesComplete", err)
			}
		}
		for i := range part {
			if part[i].buf != nil {
				putBuf(part[i].buf)
			}
		}
		clear(firsts)
		clear(finals)
		p.firstsBuf, p.finalsBuf = firsts[:0], finals[:0]
	}
}

func (p *Pool) completerErr(call string, err error) {
	if p.completerErrs.Add(1) <= int64(p.cfg.MaxFailureRecords) {
		p.log.Error("completer rejected responses", zap.String("call", call), zap.Error(err))
	}
}

// failClosed completes samples issued after Close directly.
func (p *Pool) failClosed(samples []loadgen.QuerySample) {
	resps := make([]loadgen.Response, len(samples))
	for i, qs := range samples {
		resps[i] = loadgen.Response{ID: qs.ID}
		p.recordFailure(qs, ReasonClosed, "sample issued after the pool was closed")
	}
	p.done.Add(int64(len(samples)))
	if p.cfg.Stream {
		if err := p.cfg.Completer.FirstTokenComplete(resps); err != nil {
			p.completerErr("FirstTokenComplete", err)
		}
	}
	if err := p.cfg.Completer.QuerySamplesComplete(resps); err != nil {
		p.completerErr("QuerySamplesComplete", err)
	}
}

// recordFailure counts and logs a failure.
func (p *Pool) recordFailure(qs loadgen.QuerySample, reason, msg string) {
	p.failed.Add(1)
	p.failMu.Lock()
	p.byReason[reason]++
	keep := len(p.first) < p.cfg.MaxFailureRecords
	if keep {
		p.first = append(p.first, Failure{Index: qs.Index, ID: qs.ID, Reason: reason, Message: msg})
	}
	p.failMu.Unlock()
	if keep {
		p.log.Warn("sample failed", zap.Int("index", qs.Index), zap.Uint64("id", qs.ID),
			zap.String("reason", reason), zap.String("error", msg))
	} else {
		p.log.Debug("sample failed", zap.Int("index", qs.Index), zap.Uint64("id", qs.ID),
			zap.String("reason", reason), zap.String("error", msg))
	}
}

// Stats returns the counters so far.
func (p *Pool) Stats() Stats {
	p.failMu.Lock()
	by := make(map[string]int64, len(p.byReason))
	for k, v := range p.byReason {
		by[k] = v
	}
	first := append([]Failure(nil), p.first...)
	p.failMu.Unlock()
	return Stats{
		Issued:           p.issued.Load(),
		Completed:        p.done.Load(),
		Failed:           p.failed.Load(),
		FailuresByReason: by,
		FirstFailures:    first,
		CompleterErrors:  p.completerErrs.Load(),
		OutputTokens:     p.outTokens.Load(),
		Retries:          p.retries.Load(),
	}
}

// Progress returns a cheap snapshot for a progress display.
func (p *Pool) Progress() Progress {
	pr := Progress{
		Issued:       p.issued.Load(),
		Completed:    p.done.Load(),
		Failed:       p.failed.Load(),
		InFlight:     p.inFlight.Load(),
		Queued:       p.queued.Load(),
		OutputTokens: p.outTokens.Load(),
	}
	if n := p.latencyN.Load(); n > 0 {
		pr.MeanLatency = time.Duration(p.latencyNs.Load() / n)
	}
	if n := p.ttftN.Load(); n > 0 {
		pr.MeanTTFT = time.Duration(p.ttftNs.Load() / n)
	}
	return pr
}

// Close stops accepting samples, waits up to Config.CloseTimeout for queued
// and in-flight requests, cancels whatever is left (those samples complete
// as failures), and returns once every response has reached the
// Completer. It is safe to call more than once; later calls return at once.
func (p *Pool) Close() error {
	p.closeOnce.Do(func() {
		p.qmu.Lock()
		p.closed = true
		p.qcond.Broadcast()
		p.qmu.Unlock()

		idle := make(chan struct{})
		go func() { p.workers.Wait(); close(idle) }()
		t := time.NewTimer(p.cfg.CloseTimeout)
		select {
		case <-idle:
		case <-t.C:
			p.log.Warn("close timeout: cancelling in-flight requests",
				zap.Int64("in_flight", p.inFlight.Load()), zap.Int64("queued", p.queued.Load()))
			p.cancel()
			<-idle
		}
		t.Stop()
		// Every worker has returned, and the last to emit delivered
		// everything pending before returning.
		p.cancel()
		p.client.CloseIdleConnections()
		p.fresh.CloseIdleConnections()
	})
	return nil
}
