package sut

import (
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"

	"go.uber.org/zap"
)

// Endpoint health. A failing endpoint (no connection, a reset, a 5xx, a
// 429) is ejected: requests go to the others until its backoff has passed,
// then one request probes it; a success readmits it, a failure ejects it
// again for twice as long, up to maxEject. Without the ejection a dead
// endpoint, answering at once, always has the fewest requests outstanding
// and takes nearly all the load. When every endpoint is ejected the one
// due back soonest is used anyway: a sample never waits for health, it
// fails fast (and --max-failures stops a run whose every endpoint is dead).
const (
	baseEject = 250 * time.Millisecond
	maxEject  = 15 * time.Second
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

// endpoint is one endpoint's load and health, guarded by Pool.epMu.
type endpoint struct {
	url         string
	shown       string // url as logs and records show it (redact.URL)
	outstanding int
	failures    int       // consecutive failures; 0: healthy
	ejections   int       // times it was ejected
	until       time.Time // ejected until then
	probing     bool      // the one probe request is out
}

// outcome is what an attempt says about its endpoint's health.
type outcome int

const (
	outcomeNeutral   outcome = iota // nothing learned (timeout, cancel, malformed answer)
	outcomeOK                       // the endpoint answered
	outcomeFailed                   // unreachable, reset, or a 5xx
	outcomeThrottled                // 429/503: asked to come back later
)

// lease is an acquired endpoint; release it exactly once.
type lease struct {
	ep    int
	probe bool
}

// acquire picks an endpoint for one attempt: the healthy one (not
// ejected, or due back and not being probed) with the fewest outstanding
// requests, rotating the start of the scan so ties spread evenly, and
// other than avoid (the endpoint the sample just failed on) when another
// is healthy. With none healthy it takes the one due back soonest.
func (p *Pool) acquire(avoid int) lease {
	p.epMu.Lock()
	defer p.epMu.Unlock()
	now := time.Now()
	n := len(p.eps)
	healthy := func(e *endpoint) bool {
		return e.failures == 0 || (!now.Before(e.until) && !e.probing)
	}
	best := -1
	for pass := 0; pass < 2 && best < 0; pass++ {
		for k := range n {
			i := (p.rr + k) % n
			e := &p.eps[i]
			if (pass == 0 && i == avoid && n > 1) || !healthy(e) {
				continue
			}
			if best < 0 || e.outstanding < p.eps[best].outstanding {
				best = i
			}
		}
	}
	if best < 0 {
		for k := range n {
			i := (p.rr + k) % n
			if best < 0 || p.eps[i].until.Before(p.eps[best].until) {
				best = i
			}
		}
	}
	p.rr++
	e := &p.eps[best]
	e.outstanding++
	l := lease{ep: best}
	if e.failures > 0 && !now.Before(e.until) && !e.probing {
		e.probing, l.probe = true, true
	}
	return l
}

// release returns an endpoint with what the attempt learned; wait is the
// Retry-After of a throttled attempt, msg what went wrong.
func (p *Pool) release(l lease, o outcome, wait time.Duration, msg string) {
	p.epMu.Lock()
	defer p.epMu.Unlock()
	e := &p.eps[l.ep]
	e.outstanding--
	if l.probe {
		e.probing = false
	}
	switch o {
	case outcomeOK:
		if e.failures > 0 && logWorthy(e.ejections) {
			p.log.Info("endpoint answers again; sending it requests", zap.String("endpoint", e.shown), zap.Int("ejections", e.ejections))
		}
		e.failures, e.until = 0, time.Time{}
	case outcomeFailed, outcomeThrottled:
		e.failures++
		back := min(baseEject<<min(e.failures-1, 16), maxEject)
		back = max(back, wait)
		if t := time.Now().Add(back); t.After(e.until) {
			e.until = t
		}
		if e.failures == 1 {
			p.ejections.Add(1)
			e.ejections++
			if logWorthy(e.ejections) {
				p.log.Warn("endpoint failing: sending requests to the others and probing it again with backoff",
					zap.String("endpoint", e.shown), zap.Int("ejections", e.ejections), zap.Duration("backoff", back), zap.String("error", msg))
			}
		}
	}
}

// logWorthy says whether the n-th ejection of an endpoint is logged: the
// 1st, 2nd, 4th, 8th…, so an endpoint failing now and then does not flood
// the log (every failed sample is logged anyway).
func logWorthy(n int) bool { return n&(n-1) == 0 }

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
// lostWait is how long a sample whose connection to endpoint ep died waits
// before it is sent again: not at all when another endpoint is healthy (it
// goes there), else the usual backoff, so a restarting server is not
// hammered.
func (p *Pool) lostWait(ep, attempt int) time.Duration {
	p.epMu.Lock()
	defer p.epMu.Unlock()
	for i := range p.eps {
		if i != ep && p.eps[i].failures == 0 {
			return 0
		}
	}
	return retryWait(attempt)
}

func retryWait(attempt int) time.Duration {
	d := min(baseRetryWait<<min(attempt, 16), maxRetryWait)
	return d/2 + rand.N(d/2+1)
}
