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
	"net/http"
	"sync"
	"time"

	"go.uber.org/zap"

	"github.com/mlperf-go/mlperf-go/loadgen"
	"github.com/mlperf-go/mlperf-go/protocol"
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
	// Sent: an attempt at qs is about to be sent to endpoint, its index
	// in Config.Endpoints.
	Sent(qs loadgen.QuerySample, endpoint int)
	// Received: a streamed event of qs, or its whole non-streamed body,
	// was decoded. data is the event's payload or the body, valid only
	// during the call; output is how many bytes of output the response
	// has carried so far (an event that carries none leaves it
	// unchanged).
	Received(qs loadgen.QuerySample, output int, data []byte)
	// Finished: qs is complete, successfully or not.
	Finished(qs loadgen.QuerySample)
}

// worker is one pool goroutine's state, reused for every sample it
// serves: its stream decoder, its request trace and its body reader.
type worker struct {
	stream protocol.Stream
	trace  *attemptTrace
	rd     stampReader
}

// Pool is a loadgen.SUT that sends samples to HTTP endpoints. Create it
// with New; it is safe for concurrent use.
//
// Its parts, one concept each: the queue holds issued samples until a
// worker is free (queue.go); the endpoints choose where each attempt goes
// and eject the failing ones (endpoints.go); the workers send and read
// (request.go, transport.go) and decide on retries (retry.go); the
// delivery hands their responses to the Completer (delivery.go); the
// ledger keeps the failures and the counters (ledger.go).
type Pool struct {
	cfg    Config
	parts  PrefixedBodies // cfg.Bodies when it is one
	heads  HeaderBodies   // cfg.Bodies when it is one
	log    *zap.Logger
	client *http.Client // the keep-alive pool
	fresh  *http.Client // retries: a new connection every time
	auth   string

	ctx    context.Context
	cancel context.CancelCauseFunc

	q    *queue
	eps  *endpoints
	out  *delivery
	book *ledger

	// clk times the samples; lat is where their time went (latency.go);
	// mem bounds the bytes the responses in flight hold (membudget.go).
	clk clock
	lat latencyBook
	mem memBudget

	workers   sync.WaitGroup
	closeOnce sync.Once
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
		clk:   newClock(cfg.Clock),
		cfg:   cfg,
		parts: parts,
		heads: heads,
		log:   cfg.Logger,
	}
	if p.log == nil {
		p.log = zap.NewNop()
	}
	p.mem.limit = cfg.MaxBufferedBytes
	eps, err := newEndpoints(cfg.Endpoints, cfg.API, p.log)
	if err != nil {
		return nil, err
	}
	p.eps = eps
	p.q = newQueue(cfg.Concurrency)
	p.out = &delivery{completer: cfg.Completer, clk: p.clk, lat: &p.lat, log: p.log, maxLogged: int64(cfg.MaxFailureRecords)}
	p.book = newLedger(&p.cfg, p.log)
	if cfg.APIKey != "" {
		p.auth = "Bearer " + cfg.APIKey
	}
	p.client, p.fresh = newClients(cfg.Transport, cfg.Concurrency, len(cfg.Endpoints))
	p.ctx, p.cancel = context.WithCancelCause(ctx)
	p.workers.Add(cfg.Concurrency)
	for range cfg.Concurrency {
		go p.worker()
	}
	// On cancellation, wake idle workers so queued samples fail promptly
	// (requests on the wire end with their contexts).
	go func() {
		<-p.ctx.Done()
		p.q.wake()
	}()
	return p, nil
}

// Name implements loadgen.SUT.
func (p *Pool) Name() string { return p.cfg.Name }

// IssueQuery implements loadgen.SUT: it queues the samples and returns
// without blocking on the network.
func (p *Pool) IssueQuery(samples []loadgen.QuerySample) {
	now := p.clk.now()
	p.book.issued.Add(int64(len(samples)))
	if !p.q.push(samples, now) {
		p.failClosed(samples)
	}
}

// FlushQueries implements loadgen.SUT. The pool sends every sample as soon
// as a slot is free and never holds samples back for batching, so there is
// nothing to flush.
func (p *Pool) FlushQueries() {}

func (p *Pool) worker() {
	defer p.workers.Done()
	w := &worker{trace: newAttemptTrace(p.clk)}
	w.rd.clk = p.clk
	for served := false; ; served = true {
		ps, ok := p.q.pop(served, p.clk.now())
		if !ok {
			return
		}
		p.serve(w, ps)
	}
}

// failClosed completes samples issued after Close directly.
func (p *Pool) failClosed(samples []loadgen.QuerySample) {
	for _, qs := range samples {
		p.recordFailure(qs, Failure{Reason: ReasonClosed, Message: "sample issued after the pool was closed"})
	}
	p.book.done.Add(int64(len(samples)))
	p.out.failAll(samples, p.cfg.Stream)
}

// recordFailure enters a failure in the ledger and stops the run when
// the ledger says MaxFailures is exceeded.
func (p *Pool) recordFailure(qs loadgen.QuerySample, f Failure) {
	if err := p.book.fail(qs, f); err != nil {
		p.stop(err)
	}
}

// stop ends the run once MaxFailures is exceeded: queued and in-flight
// samples are cancelled (they complete as failures at once) and Abort is
// called.
func (p *Pool) stop(err error) {
	p.log.Error("stopping the test", zap.Error(err))
	p.cancel(err)
	if p.cfg.Abort != nil {
		go p.cfg.Abort(err)
	}
}

// Stats returns the counters so far.
func (p *Pool) Stats() Stats {
	s := p.book.stats()
	s.CompleterErrors = p.out.refused.Load()
	s.Ejections = p.eps.ejections.Load()
	s.EndpointDrops = p.eps.drops()
	return s
}

// Progress returns a cheap snapshot for a progress display.
func (p *Pool) Progress() Progress {
	pr := p.book.progress()
	pr.Queued = p.q.waiting.Load()
	return pr
}

// Close stops accepting samples, waits up to Config.CloseTimeout for queued
// and in-flight requests, cancels whatever is left (those samples complete
// as failures), and returns once every response has reached the
// Completer. It is safe to call more than once; later calls return at once.
func (p *Pool) Close() error {
	p.closeOnce.Do(func() {
		p.q.close()

		idle := make(chan struct{})
		go func() { p.workers.Wait(); close(idle) }()
		t := time.NewTimer(p.cfg.CloseTimeout)
		select {
		case <-idle:
		case <-t.C:
			p.log.Warn("close timeout: cancelling in-flight requests",
				zap.Int64("in_flight", p.book.inFlight.Load()), zap.Int64("queued", p.q.waiting.Load()))
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
