package sut

import (
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"go.uber.org/zap"

	"github.com/mlperf-go/mlperf-go/internal/redact"
	"github.com/mlperf-go/mlperf-go/protocol"
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

// endpoints chooses the endpoint of each attempt and ejects the failing
// ones. urls and shown are fixed at New and read without the lock.
type endpoints struct {
	urls  []string // request URLs, by index
	shown []string // the same as logs show them (redact.URL)
	log   *zap.Logger

	mu    sync.Mutex
	state []endpoint
	rr    int // where the next scan starts
	// ejections counts endpoints taken out of rotation (Stats.Ejections).
	ejections atomic.Int64
}

// newEndpoints checks the base URLs of Config.Endpoints and turns them
// into request URLs for api.
func newEndpoints(bases []string, api protocol.Protocol, log *zap.Logger) (*endpoints, error) {
	e := &endpoints{log: log}
	for i, b := range bases {
		u, err := endpointURLAt(i, b, api)
		if err != nil {
			return nil, err
		}
		e.urls = append(e.urls, u)
		e.shown = append(e.shown, redact.URL(u))
		e.state = append(e.state, endpoint{})
	}
	return e, nil
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

// endpoint is one endpoint's load and health, guarded by endpoints.mu.
type endpoint struct {
	outstanding int
	failures    int       // consecutive failures; 0: healthy
	ejections   int       // times it was ejected
	until       time.Time // ejected until then
	probing     bool      // the one probe request is out
	// downSince is when it became unreachable (it refused or dropped
	// connections) with no answer of any kind since; zero while it answers.
	downSince time.Time
	// drops are its first maxDropsKept ejections, for the run's record.
	drops []EndpointDrop
}

// maxDropsKept bounds the ejections an endpoint keeps for Stats: an
// endpoint that fails now and then is counted (Stats.Ejections), not
// listed without end.
const maxDropsKept = 8

// EndpointDrop is one time an endpoint was taken out of rotation: when,
// for what, and when it answered again (zero Back: it did not before the
// run ended).
type EndpointDrop struct {
	// Endpoint is the request URL as logs show it (redact.URL).
	Endpoint string
	At       time.Time
	Error    string
	Back     time.Time
}

// outcome is what an attempt says about its endpoint's health.
type outcome int

const (
	outcomeNeutral     outcome = iota // nothing learned (timeout, cancel, malformed answer)
	outcomeOK                         // the endpoint answered
	outcomeFailed                     // a 5xx: it is up, but failing
	outcomeUnreachable                // refused, reset or cut the connection: nothing answers there
	outcomeThrottled                  // 429/503: asked to come back later
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
func (es *endpoints) acquire(avoid int) lease {
	es.mu.Lock()
	defer es.mu.Unlock()
	now := time.Now()
	n := len(es.state)
	healthy := func(e *endpoint) bool {
		return e.failures == 0 || (!now.Before(e.until) && !e.probing)
	}
	best := -1
	for pass := 0; pass < 2 && best < 0; pass++ {
		for k := range n {
			i := (es.rr + k) % n
			e := &es.state[i]
			if (pass == 0 && i == avoid && n > 1) || !healthy(e) {
				continue
			}
			if best < 0 || e.outstanding < es.state[best].outstanding {
				best = i
			}
		}
	}
	if best < 0 {
		for k := range n {
			i := (es.rr + k) % n
			if best < 0 || es.state[i].until.Before(es.state[best].until) {
				best = i
			}
		}
	}
	es.rr++
	e := &es.state[best]
	e.outstanding++
	l := lease{ep: best}
	if e.failures > 0 && !now.Before(e.until) && !e.probing {
		e.probing, l.probe = true, true
	}
	return l
}

// release returns an endpoint with what the attempt learned; wait is the
// Retry-After of a throttled attempt, msg what went wrong. It returns how
// long every endpoint has been unreachable (0 while any answers), for the
// pool to stop a run no endpoint can serve (Config.EndpointsDownAfter).
func (es *endpoints) release(l lease, o outcome, wait time.Duration, msg string) (allDown time.Duration) {
	es.mu.Lock()
	defer es.mu.Unlock()
	now := time.Now()
	e := &es.state[l.ep]
	e.outstanding--
	if l.probe {
		e.probing = false
	}
	switch o {
	case outcomeOK:
		if e.failures > 0 {
			if logWorthy(e.ejections) {
				es.log.Info("endpoint answers again; sending it requests", zap.String("endpoint", es.shown[l.ep]), zap.Int("ejections", e.ejections))
			}
			if d := len(e.drops); d > 0 && e.drops[d-1].Back.IsZero() {
				e.drops[d-1].Back = now
			}
		}
		e.failures, e.until, e.downSince = 0, time.Time{}, time.Time{}
	case outcomeFailed, outcomeThrottled, outcomeUnreachable:
		if o == outcomeUnreachable {
			if e.downSince.IsZero() {
				e.downSince = now
			}
		} else {
			e.downSince = time.Time{} // it answers, if badly
		}
		e.failures++
		back := min(baseEject<<min(e.failures-1, 16), maxEject)
		back = max(back, wait)
		if t := now.Add(back); t.After(e.until) {
			e.until = t
		}
		if e.failures == 1 {
			es.ejections.Add(1)
			e.ejections++
			if len(e.drops) < maxDropsKept {
				e.drops = append(e.drops, EndpointDrop{Endpoint: es.shown[l.ep], At: now, Error: redact.Text(msg)})
			}
			if logWorthy(e.ejections) {
				es.log.Warn("endpoint failing: sending requests to the others and probing it again with backoff",
					zap.String("endpoint", es.shown[l.ep]), zap.Int("ejections", e.ejections), zap.Duration("backoff", back), zap.String("error", redact.Text(msg)))
			}
		}
	}
	var latest time.Time
	for i := range es.state {
		d := es.state[i].downSince
		if d.IsZero() {
			return 0
		}
		if d.After(latest) {
			latest = d
		}
	}
	return now.Sub(latest)
}

// drops returns every endpoint's ejections, in the order they happened.
func (es *endpoints) drops() []EndpointDrop {
	es.mu.Lock()
	defer es.mu.Unlock()
	var out []EndpointDrop
	for i := range es.state {
		out = append(out, es.state[i].drops...)
	}
	slices.SortFunc(out, func(a, b EndpointDrop) int { return a.At.Compare(b.At) })
	return out
}

// logWorthy says whether the n-th ejection of an endpoint is logged: the
// 1st, 2nd, 4th, 8th…, so an endpoint failing now and then does not flood
// the log (every failed sample is logged anyway).
func logWorthy(n int) bool { return n&(n-1) == 0 }

// othersHealthy says whether an endpoint other than ep is healthy (not
// failing), one a sample that failed on ep can go to at once.
func (es *endpoints) othersHealthy(ep int) bool {
	es.mu.Lock()
	defer es.mu.Unlock()
	for i := range es.state {
		if i != ep && es.state[i].failures == 0 {
			return true
		}
	}
	return false
}
