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
	"strings"
	"sync"
	"sync/atomic"
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

// HeaderBodies is a Bodies that names one HTTP header per sample, sent
// with every attempt at it: a serving benchmark's session header
// (X-Session-ID: the conversation) that lets a router keep a conversation
// on one backend. An empty name sends none.
type HeaderBodies interface {
	Bodies
	Header(index int) (name, value string)
}

// Tracer is told, from the worker serving a sample, what LoadGen is not:
// when each attempt is sent, what each streamed event (or the whole
// non-streamed body) carried and when it was decoded, and when the sample
// is finished, just before it is reported. A serving benchmark (package
// bench) takes inter-token latencies and prompt token counts from it.
// Calls for one sample come from one goroutine, in that order; they must
// be quick, for they hold up the worker.
type Tracer interface {
	// Sent: an attempt at qs is about to be sent.
	Sent(qs loadgen.QuerySample)
	// Received: a streamed event of qs, or its whole non-streamed body,
	// was decoded. data is the event's payload or the body, valid only
	// during the call; output is how many bytes of output the response
	// has carried so far (an event that carries none leaves it
	// unchanged).
	Received(qs loadgen.QuerySample, output int, data []byte)
	// Finished: qs is complete, successfully or not.
	Finished(qs loadgen.QuerySample)
}

// Config configures a Pool. Zero fields take the defaults stated.
type Config struct {
	// Endpoints are base URLs such as http://host:8000 or
	// http://host:8000/v1 (a trailing /v1, or the full API path, is
	// accepted and normalised). At least one is required; requests go to
	// the healthy endpoint with the fewest outstanding requests; a failing
	// one is ejected and probed again with backoff (see health.go). URLs
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
	// before any response byte (see send). A retry goes to another
	// endpoint when one is healthy, never past the sample's Timeout, and
	// never once a first token was reported. Every retry is counted in
	// Stats.
	Retries int
	// MaxFailures stops the run early (the zero value never does): once
	// it is exceeded the pool cancels what is queued and in flight and
	// calls Abort.
	MaxFailures FailureLimit
	// Abort, if set, is called once, in its own goroutine, with an error
	// wrapping ErrTooManyFailures when MaxFailures is exceeded; a runner
	// passes loadgen.AbortTest.
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

// endpointURL turns a base URL into the request URL for api.
func endpointURL(base string, api protocol.Protocol) (string, error) {
	return endpointURLAt(0, base, api)
}

func endpointURLAt(i int, base string, api protocol.Protocol) (string, error) {
	u, err := checkEndpoint(i, base)
	if err != nil {
		return "", err
	}
	p := strings.TrimSuffix(strings.TrimRight(u.Path, "/"), api.Path())
	u.Path = protocol.ServerRoot(p) + api.Path()
	u.RawPath = ""
	return u.String(), nil
}

// redactEndpoint is redact.URL, keeping "" as it is.
func redactEndpoint(u string) string {
	if u == "" {
		return ""
	}
	return redact.URL(u)
}

// Failure describes one failed sample. Its JSON form is one line of a
// run's failures.jsonl.
type Failure struct {
	// Index is the QSL sample index; ID the LoadGen response ID.
	Index int    `json:"index"`
	ID    uint64 `json:"id"`
	// Reason is one of the Reason* constants: the error class.
	Reason string `json:"reason"`
	// Endpoint is the request URL of the last attempt ("" when none was
	// made); Status its HTTP status (0 when there was none).
	Endpoint string `json:"endpoint,omitempty"`
	Status   int    `json:"status,omitempty"`
	// Attempts is how many times the sample was sent (0 when never).
	Attempts int `json:"attempts"`
	// Message says what went wrong.
	Message string `json:"message"`
}

// Failure reasons, the keys of Stats.FailuresByReason.
const (
	ReasonHTTPStatus   = "http_status"        // non-200 status
	ReasonTimeout      = "timeout"            // Config.Timeout elapsed
	ReasonTransport    = "transport"          // connect/read/write error, reset
	ReasonMalformed    = "malformed_response" // not JSON, or a needed field missing
	ReasonServerError  = "server_error"       // an {"error": ...} body with status 200
	ReasonTruncated    = "truncated_stream"   // stream ended before its end marker
	ReasonTooLarge     = "response_too_large" // past Config.MaxResponseBytes
	ReasonEmpty        = "empty_answer"       // a complete answer with no output at all
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
	// CompleterErrors counts the Completer's refusals of responses other
	// than those after an aborted test (see loadgen.ErrAborted).
	CompleterErrors int64
	// OutputTokens is the sum of NTokens over successful samples.
	OutputTokens int64
	// Retries counts requests sent again (see Config.Retries), and
	// RetriesByCause the same by Retry* cause. A retried sample is not a
	// failure unless its last attempt fails too.
	Retries        int64
	RetriesByCause map[string]int64
	// Ejections counts endpoints taken out of rotation after failing.
	Ejections int64
	// Stopped says why the pool stopped the run early (Config.MaxFailures),
	// "" when it did not.
	Stopped string
}

// Retry causes, the keys of Stats.RetriesByCause.
const (
	RetryRateLimited = "http_429"   // 429 Too Many Requests
	RetryUnavailable = "http_503"   // 503 Service Unavailable
	RetryConnection  = "connection" // no connection, or one closed before any response byte
)

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

// worker is one pool goroutine's state, reused for every sample it
// serves: its stream decoder, its request trace and its body reader.
type worker struct {
	stream protocol.Stream
	trace  *attemptTrace
	rd     stampReader
}

// pending is a queued sample, when IssueQuery received it and when a
// worker was free for it (Pool.clock; free is 0 until known: see pop).
type pending struct {
	qs     loadgen.QuerySample
	issued int64
	free   int64
}

// event is one response on its way to the Completer.
type event struct {
	first bool
	resp  loadgen.Response
	buf   *[]byte // returned to bufPool once the Completer has copied it
	// timed events carry the sample's stamps into the latency breakdown
	// (failures do not).
	timed bool
	t     stamps
}

// Pool is a loadgen.SUT that sends samples to HTTP endpoints. Create it
// with New; it is safe for concurrent use.
type Pool struct {
	cfg    Config
	parts  PrefixedBodies // cfg.Bodies when it is one
	heads  HeaderBodies   // cfg.Bodies when it is one
	log    *zap.Logger
	client *http.Client // the keep-alive pool
	fresh  *http.Client // retries: a new connection every time
	urls   []string
	auth   string

	ctx    context.Context
	cancel context.CancelCauseFunc

	epMu sync.Mutex
	eps  []endpoint
	rr   int

	qmu    sync.Mutex
	qcond  *sync.Cond
	queue  []pending
	head   int
	closed bool
	// busy counts the workers serving a sample (taken in pop, given back
	// when the worker comes back to pop), so IssueQuery knows whether a
	// sample has a free worker at once or must wait for one.
	busy int

	// epoch starts the pool's clock; lat is where samples' time went
	// (latency.go).
	epoch time.Time
	lat   latencyBook

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
	ejections                              atomic.Int64

	failMu        sync.Mutex
	byReason      map[string]int64
	first         []Failure
	retriesBy     map[string]int64
	stopped       string
	countedFailed int64     // failures that count towards MaxFailures
	mem           memBudget // bytes the responses in flight hold
	stopOnce      sync.Once

	sinkMu sync.Mutex // serialises OnFailure
}

var _ loadgen.SUT = (*Pool)(nil)

// New starts a Pool. Cancelling ctx cancels in-flight requests, which then
// complete as failures, and fails queued and later samples at once, so
// LoadGen never waits on a dead run. Call Close when done.
func New(ctx context.Context, cfg Config) (*Pool, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	if cfg.API == nil {
		return nil, configErr("API", "required (see protocol.Lookup)")
	}
	if cfg.Bodies == nil || cfg.Completer == nil {
		return nil, errors.New("sut: Config.Bodies and Config.Completer are required")
	}
	if cfg.Concurrency == 0 {
		cfg.Concurrency = DefaultConcurrency
	}
	cfg.Timeout = durationOr(cfg.Timeout, cfg.API.DefaultTimeout())
	if cfg.Name == "" {
		cfg.Name = "mlperf-go-" + cfg.API.Name()
	}
	cfg.CloseTimeout = durationOr(cfg.CloseTimeout, DefaultCloseTimeout)
	if cfg.MaxFailureRecords <= 0 {
		cfg.MaxFailureRecords = DefaultMaxFailureRecords
	}
	if cfg.MaxBufferedBytes == 0 {
		cfg.MaxBufferedBytes = DefaultMaxBufferedBytes
	}
	if cfg.MaxResponseBytes == 0 {
		cfg.MaxResponseBytes = DefaultMaxResponseBytes
	}
	switch cfg.Retries {
	case 0:
		cfg.Retries = DefaultRetries
	case NoRetries:
		cfg.Retries = 0
	}
	parts, _ := cfg.Bodies.(PrefixedBodies)
	heads, _ := cfg.Bodies.(HeaderBodies)
	p := &Pool{
		epoch:     time.Now(),
		cfg:       cfg,
		parts:     parts,
		heads:     heads,
		log:       cfg.Logger,
		byReason:  map[string]int64{},
		retriesBy: map[string]int64{},
	}
	if p.log == nil {
		p.log = zap.NewNop()
	}
	p.mem.limit = cfg.MaxBufferedBytes
	for i, e := range cfg.Endpoints {
		u, err := endpointURLAt(i, e, cfg.API)
		if err != nil {
			return nil, err
		}
		p.urls = append(p.urls, u)
		p.eps = append(p.eps, endpoint{url: u, shown: redact.URL(u)})
	}
	if cfg.APIKey != "" {
		p.auth = "Bearer " + cfg.APIKey
	}
	p.client, p.fresh = newClients(cfg.Transport, cfg.Concurrency, len(cfg.Endpoints))
	p.ctx, p.cancel = context.WithCancelCause(ctx)
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
	now := p.clock()
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
	// A sample with a free worker ahead of it (workers not serving, more
	// than the samples queued before it) has one now; the others wait for
	// a worker to finish (the concurrency limit), and pop says when.
	free, ahead := p.cfg.Concurrency-p.busy, len(p.queue)-p.head
	for i, qs := range samples {
		ps := pending{qs: qs, issued: now}
		if ahead+i < free {
			ps.free = now
		}
		p.queue = append(p.queue, ps)
	}
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
// and drained. served says the worker comes back from serving a sample,
// looked when (Pool.clock): a sample that had no free worker when it was
// issued got one then, if it was issued before.
func (p *Pool) pop(served bool, looked int64) (pending, bool) {
	p.qmu.Lock()
	defer p.qmu.Unlock()
	if served {
		p.busy--
	}
	for p.head == len(p.queue) {
		if p.closed {
			return pending{}, false
		}
		p.qcond.Wait()
	}
	ps := p.queue[p.head]
	p.head++
	p.busy++
	p.queued.Add(-1)
	if ps.free == 0 {
		ps.free = max(ps.issued, looked)
	}
	return ps, true
}

func (p *Pool) worker() {
	defer p.workers.Done()
	w := &worker{trace: p.newAttemptTrace()}
	w.rd.p = p
	for served := false; ; served = true {
		ps, ok := p.pop(served, p.clock())
		if !ok {
			return
		}
		p.serve(w, ps)
	}
}

// emit hands a response to the Completer. Rather than a goroutine of its
// own (one more wake-up per response), delivery is done by whichever
// worker finds nobody delivering: it takes everything pending, makes one
// call per kind, and repeats until nothing is left, while workers that
// finish meanwhile only append. So calls are serialised, batches grow with
// load, and no response waits for a timer. First tokens go before
// completions in every batch, so a sample's FirstTokenComplete always
// precedes its QuerySamplesComplete (the worker emits them in that order).
//
// A response may wait for the delivering worker's thread when the kernel
// runs another one (two Ps on one core, run/procs.go). Handing every
// response to the Completer from its own worker instead was measured for
// issue 29: no gain at Server's p99 (the report parts' p99 0.66 against
// 0.78 ms, medians of seven and four runs at 200 QPS), and 12% more harness
// CPU per sample in Offline (124 against 111 µs, three alternated runs),
// each call waking LoadGen's bridge.
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
		var firstAt, finalAt int64
		if len(firsts) > 0 {
			if err := p.cfg.Completer.FirstTokenComplete(firsts); err != nil {
				p.completerErr("FirstTokenComplete", err)
			}
			firstAt = p.clock()
		}
		if len(finals) > 0 {
			if err := p.cfg.Completer.QuerySamplesComplete(finals); err != nil {
				p.completerErr("QuerySamplesComplete", err)
			}
			finalAt = p.clock()
		}
		for i := range part {
			if ev := &part[i]; ev.timed {
				at := finalAt
				if ev.first {
					at = firstAt
				}
				p.lat.reported(&ev.t, ev.first, at)
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

// completerErr notes responses LoadGen refused. After an abort that is
// expected (the abort completed every sample already, and answers still
// arrive), so it is only noted at debug level; otherwise it is a harness
// bug that Stats.CompleterErrors reports and that makes the run invalid.
func (p *Pool) completerErr(call string, err error) {
	if errors.Is(err, loadgen.ErrAborted) {
		p.log.Debug("responses arrived after the test was aborted", zap.String("call", call), zap.Error(err))
		return
	}
	if p.completerErrs.Add(1) <= int64(p.cfg.MaxFailureRecords) {
		p.log.Error("completer rejected responses", zap.String("call", call), zap.Error(err))
	}
}

// failClosed completes samples issued after Close directly.
func (p *Pool) failClosed(samples []loadgen.QuerySample) {
	resps := make([]loadgen.Response, len(samples))
	for i, qs := range samples {
		resps[i] = loadgen.Response{ID: qs.ID}
		p.recordFailure(qs, Failure{Reason: ReasonClosed, Message: "sample issued after the pool was closed"})
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

// recordFailure counts, logs and hands on a failure (f's Index and ID
// are filled in from qs), and stops the run when MaxFailures is exceeded.
func (p *Pool) recordFailure(qs loadgen.QuerySample, f Failure) {
	f.Index, f.ID = qs.Index, qs.ID
	// Failures are logged, counted into the run record and written to
	// failures.jsonl: an endpoint's key (in its query or user information,
	// repeated in net/http's errors) must not go with them.
	f.Message, f.Endpoint = redact.Text(f.Message), redactEndpoint(f.Endpoint)
	failed := p.failed.Add(1)
	p.failMu.Lock()
	p.byReason[f.Reason]++
	keep := len(p.first) < p.cfg.MaxFailureRecords
	if keep {
		p.first = append(p.first, f)
	}
	counts := f.Reason != ReasonCanceled && f.Reason != ReasonClosed
	if counts {
		p.countedFailed++
	}
	counted := p.countedFailed
	p.failMu.Unlock()
	fields := []zap.Field{zap.Int("index", f.Index), zap.Uint64("id", f.ID),
		zap.String("reason", f.Reason), zap.String("error", f.Message)}
	if f.Endpoint != "" {
		fields = append(fields, zap.String("endpoint", f.Endpoint))
	}
	if keep {
		p.log.Warn("sample failed", fields...)
	} else {
		p.log.Debug("sample failed", fields...)
	}
	if p.cfg.OnFailure != nil {
		p.sinkMu.Lock()
		p.cfg.OnFailure(f)
		p.sinkMu.Unlock()
	}
	if !counts {
		return
	}
	// Finished samples, less the cancelled and closed ones; the samples
	// failing right now are not yet in done, but are in counted.
	finished := max(p.done.Load()+1-(failed-counted), counted)
	if p.cfg.MaxFailures.exceeded(counted, finished) {
		p.stop(counted, finished)
	}
}

// stop ends the run once MaxFailures is exceeded: queued and in-flight
// samples are cancelled (they complete as failures at once) and Abort is
// called.
func (p *Pool) stop(failed, finished int64) {
	p.stopOnce.Do(func() {
		err := fmt.Errorf("%w: %d of %d finished samples failed (limit %s); stopping the test early",
			ErrTooManyFailures, failed, finished, p.cfg.MaxFailures)
		p.failMu.Lock()
		p.stopped = err.Error()
		p.failMu.Unlock()
		p.log.Error("stopping the test", zap.Error(err))
		p.cancel(err)
		if p.cfg.Abort != nil {
			go p.cfg.Abort(err)
		}
	})
}

// countRetry counts one retry of cause.
func (p *Pool) countRetry(cause string) {
	p.retries.Add(1)
	p.failMu.Lock()
	p.retriesBy[cause]++
	p.failMu.Unlock()
}

// Stats returns the counters so far.
func (p *Pool) Stats() Stats {
	p.failMu.Lock()
	by := make(map[string]int64, len(p.byReason))
	for k, v := range p.byReason {
		by[k] = v
	}
	first := append([]Failure(nil), p.first...)
	retriesBy := make(map[string]int64, len(p.retriesBy))
	for k, v := range p.retriesBy {
		retriesBy[k] = v
	}
	stopped := p.stopped
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
		RetriesByCause:   retriesBy,
		Ejections:        p.ejections.Load(),
		Stopped:          stopped,
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
			p.cancel(errors.New("Close timed out waiting for in-flight requests"))
			<-idle
		}
		t.Stop()
		// Every worker has returned, and the last to emit delivered
		// everything pending before returning.
		p.cancel(nil)
		p.client.CloseIdleConnections()
		p.fresh.CloseIdleConnections()
	})
	return nil
}
