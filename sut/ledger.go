package sut

import (
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"go.uber.org/zap"

	"github.com/mlperf-go/mlperf-go/internal/redact"
	"github.com/mlperf-go/mlperf-go/loadgen"
)

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
	// Ejections counts endpoints taken out of rotation after failing,
	// and EndpointDrops lists the first few of each endpoint's, in time
	// order: when, why, and when it answered again.
	Ejections     int64
	EndpointDrops []EndpointDrop
	// Stopped says why the pool stopped the run early
	// (Config.MaxFailures, Config.EndpointsDownAfter), "" when it did not;
	// StopCause is that error, which wraps ErrTooManyFailures or
	// ErrEndpointsDown.
	Stopped   string
	StopCause error `json:"-"`
}

// Retry causes, the keys of Stats.RetriesByCause.
const (
	RetryRateLimited = "http_429"   // 429 Too Many Requests
	RetryUnavailable = "http_503"   // 503 Service Unavailable
	RetryConnection  = "connection" // no connection, or one closed before any response byte
	RetryCutAnswer   = "cut_answer" // the connection broke mid-answer; sent to another endpoint
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

// ledger keeps the pool's books: what was issued, served and completed,
// every failure (counted by reason, the first few kept and logged, each
// handed to Config.OnFailure) and every retry, and it says when the
// failures pass Config.MaxFailures.
type ledger struct {
	limit      FailureLimit
	maxRecords int
	onFailure  func(Failure)
	log        *zap.Logger

	issued, done, failed, inFlight atomic.Int64
	outTokens, latencyNs, latencyN atomic.Int64
	ttftNs, ttftN, retries         atomic.Int64

	mu        sync.Mutex
	byReason  map[string]int64
	first     []Failure
	retriesBy map[string]int64
	stopped   error
	counted   int64 // failures that count towards MaxFailures
	stopOnce  sync.Once

	sinkMu sync.Mutex // serialises onFailure
}

func newLedger(cfg *Config, log *zap.Logger) *ledger {
	return &ledger{
		limit:      cfg.MaxFailures,
		maxRecords: cfg.MaxFailureRecords,
		onFailure:  cfg.OnFailure,
		log:        log,
		byReason:   map[string]int64{},
		retriesBy:  map[string]int64{},
	}
}

// fail counts, logs and hands on a failure (f's Index and ID are filled
// in from qs). The first time the failures pass MaxFailures it returns
// why (wrapping ErrTooManyFailures), for the pool to stop the run; nil
// otherwise.
func (l *ledger) fail(qs loadgen.QuerySample, f Failure) error {
	f.Index, f.ID = qs.Index, qs.ID
	// Failures are logged, counted into the run record and written to
	// failures.jsonl: an endpoint's key (in its query or user information,
	// repeated in net/http's errors) must not go with them.
	f.Message, f.Endpoint = redact.Text(f.Message), redactEndpoint(f.Endpoint)
	failed := l.failed.Add(1)
	l.mu.Lock()
	l.byReason[f.Reason]++
	keep := len(l.first) < l.maxRecords
	if keep {
		l.first = append(l.first, f)
	}
	counts := f.Reason != ReasonCanceled && f.Reason != ReasonClosed
	if counts {
		l.counted++
	}
	counted := l.counted
	l.mu.Unlock()
	fields := []zap.Field{zap.Int("index", f.Index), zap.Uint64("id", f.ID),
		zap.String("reason", f.Reason), zap.String("error", f.Message)}
	if f.Endpoint != "" {
		fields = append(fields, zap.String("endpoint", f.Endpoint))
	}
	if keep {
		l.log.Warn("sample failed", fields...)
	} else {
		l.log.Debug("sample failed", fields...)
	}
	if l.onFailure != nil {
		l.sinkMu.Lock()
		l.onFailure(f)
		l.sinkMu.Unlock()
	}
	if !counts {
		return nil
	}
	// Finished samples, less the cancelled and closed ones; the samples
	// failing right now are not yet in done, but are in counted.
	finished := max(l.done.Load()+1-(failed-counted), counted)
	if !l.limit.exceeded(counted, finished) {
		return nil
	}
	stop := fmt.Errorf("%w: %d of %d finished samples failed (limit %s); stopping the test early",
		ErrTooManyFailures, counted, finished, l.limit)
	if !l.stop(stop) {
		return nil
	}
	return stop
}

// stop records why the run stops early and says whether this is the first
// reason given (later ones are dropped: the run stops once).
func (l *ledger) stop(why error) (first bool) {
	l.stopOnce.Do(func() {
		first = true
		l.mu.Lock()
		l.stopped = why
		l.mu.Unlock()
	})
	return first
}

// retry counts one retry of cause.
func (l *ledger) retry(cause string) {
	l.retries.Add(1)
	l.mu.Lock()
	l.retriesBy[cause]++
	l.mu.Unlock()
}

// succeeded counts a sample answered with n tokens, latency after a
// worker took it.
func (l *ledger) succeeded(n, latency int64) {
	l.outTokens.Add(n)
	l.latencyNs.Add(latency)
	l.latencyN.Add(1)
}

// firstToken counts a stream's first token, ttft after a worker took it.
func (l *ledger) firstToken(ttft int64) {
	l.ttftNs.Add(ttft)
	l.ttftN.Add(1)
}

// stats is a snapshot of the books; the pool adds the counters kept by
// the endpoints and the delivery.
func (l *ledger) stats() Stats {
	l.mu.Lock()
	by := make(map[string]int64, len(l.byReason))
	for k, v := range l.byReason {
		by[k] = v
	}
	first := append([]Failure(nil), l.first...)
	retriesBy := make(map[string]int64, len(l.retriesBy))
	for k, v := range l.retriesBy {
		retriesBy[k] = v
	}
	stopped := l.stopped
	l.mu.Unlock()
	s := Stats{
		Issued:           l.issued.Load(),
		Completed:        l.done.Load(),
		Failed:           l.failed.Load(),
		FailuresByReason: by,
		FirstFailures:    first,
		OutputTokens:     l.outTokens.Load(),
		Retries:          l.retries.Load(),
		RetriesByCause:   retriesBy,
		StopCause:        stopped,
	}
	if stopped != nil {
		s.Stopped = stopped.Error()
	}
	return s
}

// progress is a cheap snapshot of the books; the pool adds the queue's
// length.
func (l *ledger) progress() Progress {
	pr := Progress{
		Issued:       l.issued.Load(),
		Completed:    l.done.Load(),
		Failed:       l.failed.Load(),
		InFlight:     l.inFlight.Load(),
		OutputTokens: l.outTokens.Load(),
	}
	if n := l.latencyN.Load(); n > 0 {
		pr.MeanLatency = time.Duration(l.latencyNs.Load() / n)
	}
	if n := l.ttftN.Load(); n > 0 {
		pr.MeanTTFT = time.Duration(l.ttftNs.Load() / n)
	}
	return pr
}
