package sut

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"

	"go.uber.org/zap"

	"github.com/mlperf-go/mlperf-go/internal/redact"
)

// Retry waits when the server gives no Retry-After: short and growing,
// since a 503 or a refused connection often clears within a second.
const (
	baseRetryWait = 50 * time.Millisecond
	maxRetryWait  = 2 * time.Second
	// maxRetryAfter is the longest Retry-After the pool honours; a server
	// that asks for longer is treated as down for this sample.
	maxRetryAfter = 60 * time.Second
)

// do performs the request, retrying as Config.Retries allows; it
// completes the sample itself on success and returns the failure
// otherwise. Each attempt sends (attempt), then judge says what it
// means, then the endpoint is released with that.
func (p *Pool) do(w *worker, st *reqState) *failure {
	var prefix, body []byte
	if p.parts != nil {
		prefix, body = p.parts.Parts(st.qs.Index)
	} else {
		body = p.cfg.Bodies.Body(st.qs.Index)
	}
	if body == nil {
		return fail(ReasonNotLoaded, fmt.Errorf("sample %d is not loaded (no request body)", st.qs.Index))
	}
	if err := p.ctx.Err(); err != nil {
		return fail(ReasonCanceled, fmt.Errorf("run stopped: %s", p.stopReason()))
	}
	ctx, cancel := context.WithTimeout(p.ctx, p.cfg.Timeout)
	defer cancel()
	avoid, fresh := -1, false
	for attempt := 0; ; attempt++ {
		st.attempts++
		l := p.eps.acquire(avoid)
		a := p.attempt(ctx, w, st, l.ep, prefix, body, fresh)
		v := p.judge(a, l.ep, st.attempts)
		if down := p.eps.release(l, v.health, v.backoff, a.message()); p.cfg.EndpointsDownAfter > 0 && down >= p.cfg.EndpointsDownAfter {
			p.stopAllDown(down, a.message())
		}
		f, r := a.f, v.retry
		if f == nil {
			return nil
		}
		if !r.ok || (st.firstSent && !r.afterFirst) || st.finished {
			return f
		}
		if attempt >= p.cfg.Retries {
			if p.cfg.Retries > 0 {
				f.err = fmt.Errorf("%w (after %d retries)", f.err, p.cfg.Retries)
			}
			return f
		}
		if r.wait > maxRetryAfter {
			f.err = fmt.Errorf("%w (not retried: the server asks to wait %v)", f.err, r.wait)
			return f
		}
		if dl, ok := ctx.Deadline(); ok && time.Until(dl) <= r.wait {
			f.err = fmt.Errorf("%w (not retried: waiting %v would pass the sample's %v timeout)", f.err, r.wait, p.cfg.Timeout)
			return f
		}
		p.book.retry(r.cause)
		p.log.Debug("retrying a sample", zap.Int("index", st.qs.Index), zap.String("cause", r.cause),
			zap.Duration("wait", r.wait), zap.String("endpoint", p.eps.shown[l.ep]), zap.String("error", redact.Text(f.err.Error())))
		if r.wait > 0 {
			t := time.NewTimer(r.wait)
			select {
			case <-t.C:
			case <-ctx.Done():
				t.Stop()
				nf := p.netFailure(ctx, ctx.Err())
				nf.err = fmt.Errorf("%w while waiting to retry after: %w", nf.err, f.err)
				nf.endpoint, nf.status = f.endpoint, f.status
				return nf
			}
		}
		avoid, fresh = l.ep, r.fresh
	}
}

// verdict is what an attempt means: for its endpoint's health, and for
// the sample, whether it may be sent again.
type verdict struct {
	health outcome
	// backoff is a throttled endpoint's Retry-After: it stays ejected at
	// least that long.
	backoff time.Duration
	retry   retry
}

// retry is what an attempt's failure allows: ok when the sample may be
// sent again, after wait, on a new connection when fresh; afterFirst
// when even a sample whose first token was reported may (its answer was
// cut: the new one replaces it whole, and the first token's time stays
// the one LoadGen was told).
type retry struct {
	ok         bool
	cause      string
	wait       time.Duration
	fresh      bool
	afterFirst bool
}

// judge decides what attempt a, the attempts-th at the sample, made on
// endpoint ep, means.
func (p *Pool) judge(a answer, ep, attempts int) verdict {
	switch {
	case a.f == nil:
		return verdict{health: outcomeOK}
	case a.lost:
		if a.f.reason != ReasonTransport {
			return verdict{} // a timeout or the run's end says nothing
		}
		tr := a.trace
		switch {
		case tr.conns.Load() == 0:
			// No connection: nothing of the request was sent.
			return verdict{health: outcomeUnreachable, retry: retry{ok: true, cause: RetryConnection, wait: retryWait(attempts - 1)}}
		case tr.retryable():
			// The keep-alive race (see send): again at once, on a new
			// connection. It says nothing about the endpoint's health.
			return verdict{retry: retry{ok: true, cause: RetryConnection, fresh: true}}
		case !tr.responded.Load():
			// The request went out on a new connection that died before
			// any answer: the server (an engine killed with requests in
			// flight) or the path broke. Nothing was reported to LoadGen,
			// so the sample goes to another endpoint, at once when a
			// healthy one is left.
			return verdict{health: outcomeUnreachable, retry: retry{ok: true, cause: RetryConnection, wait: p.lostWait(ep, attempts-1)}}
		}
		return verdict{health: outcomeUnreachable}
	case a.status == http.StatusTooManyRequests || a.status == http.StatusServiceUnavailable:
		cause := RetryRateLimited
		if a.status == http.StatusServiceUnavailable {
			cause = RetryUnavailable
		}
		ra, named := retryAfter(a.header, time.Now())
		if !named {
			ra = retryWait(attempts - 1)
		}
		return verdict{health: outcomeThrottled, backoff: ra, retry: retry{ok: true, cause: cause, wait: ra}}
	case a.status >= 500:
		return verdict{health: outcomeFailed}
	case a.status != 0:
		return verdict{} // a 4xx: the request, not the endpoint
	case a.f.reason == ReasonTransport:
		// Cut mid-answer: the server (an engine killed while it
		// streamed) or the path broke. Where another endpoint is
		// healthy the sample goes there and its answer starts over;
		// alone, it fails.
		return verdict{health: outcomeUnreachable, retry: retry{ok: p.eps.othersHealthy(ep), cause: RetryCutAnswer, afterFirst: true}}
	}
	return verdict{health: outcomeOK} // it answered, if badly
}

// lostWait is how long a sample whose connection to endpoint ep died waits
// before it is sent again: not at all when another endpoint is healthy (it
// goes there), else the usual backoff, so a restarting server is not
// hammered.
func (p *Pool) lostWait(ep, attempt int) time.Duration {
	if p.eps.othersHealthy(ep) {
		return 0
	}
	return retryWait(attempt)
}

// retryAfter reads a Retry-After header (seconds or an HTTP date); ok is
// false when there is none or it cannot be read.
func retryAfter(h http.Header, now time.Time) (time.Duration, bool) {
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0, false
	}
	if s, err := strconv.ParseInt(v, 10, 64); err == nil {
		if s < 0 {
			return 0, false
		}
		return time.Duration(min(s, int64(maxRetryAfter/time.Second)+1)) * time.Second, true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(now), 0), true
	}
	return 0, false
}

// retryWait is the wait before retry number attempt+1 when the server
// named none: exponential with jitter, so retries from many samples do
// not arrive together.
func retryWait(attempt int) time.Duration {
	d := min(baseRetryWait<<min(attempt, 16), maxRetryWait)
	return d/2 + rand.N(d/2+1)
}

// stopAllDown stops the run once every endpoint has been unreachable for
// Config.EndpointsDownAfter: each sample LoadGen issues from then on
// would fail, and a Server test would play its schedule out to
// min_duration doing nothing else.
func (p *Pool) stopAllDown(down time.Duration, msg string) {
	err := fmt.Errorf("%w: every endpoint has refused or dropped connections for %v with no answer between (last error: %s); is the engine down?",
		ErrEndpointsDown, down.Round(100*time.Millisecond), redact.Text(msg))
	if p.book.stop(err) {
		p.stop(err)
	}
}
