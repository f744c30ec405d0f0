package fake

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"sync/atomic"
	"time"

	"go.uber.org/zap"

	"github.com/mlperf-go/mlperf-go/internal/lathist"
)

// The fake's own latency: how long it takes, on its side of the wire, to
// do what its latency model says. A benchmark of the harness against the
// fake subtracts it from what LoadGen measured, so what is left is the
// harness's (and the loopback's). The fake keeps it in histograms (package
// lathist), serves it at StatsPath and logs it when it closes.

// StatsPath is the route serving OwnStats as JSON (GET); a POST to
// StatsPath+"/reset" empties them, so a benchmark can measure one run at a
// time against a long-lived fake.
const StatsPath = "/fake/stats"

// ownLatency is the fake's own histograms.
type ownLatency struct {
	ttft, tpot, e2e, admit, slip lathist.Histogram
}

// OwnStats is the fake's own side of every generation request since it
// started or was last reset, in nanoseconds. It is what the fake added to
// the client's times beyond the network and the client itself.
type OwnStats struct {
	// TTFT: streamed request received (its first bytes read from the
	// connection) -> first token event written to it. The latency model's part is
	// Config.TTFT; the rest is reading and parsing the body, waiting for
	// a slot (Config.MaxConcurrency) and the timer's lateness.
	TTFT lathist.Summary `json:"ttft_ns"`
	// TPOT: per streamed request of two or more tokens, (last token's
	// write - first token's write) / (tokens - 1): the time per output
	// token the client is shown, by the fake's clock.
	TPOT lathist.Summary `json:"tpot_ns"`
	// E2E: request received -> whole answer written (streamed or not).
	E2E lathist.Summary `json:"e2e_ns"`
	// Admit: request received -> generation slot taken (body read and
	// parsed, slot queue).
	Admit lathist.Summary `json:"admit_ns"`
	// TokenSlip: per write of a stream's events, how long after its due
	// time (slot + TTFT + i*TPOT) the oldest token in it was written:
	// timer lateness plus writing. With TPOT at least 500 µs every token
	// is its own write. Empty at zero latency, where nothing is scheduled.
	TokenSlip lathist.Summary `json:"token_slip_ns"`
	// ModelTTFT and ModelTPOT are the latency model's settings
	// (Config.TTFT, Config.TPOT).
	ModelTTFT time.Duration `json:"model_ttft_ns"`
	ModelTPOT time.Duration `json:"model_tpot_ns"`
}

// OwnStats returns the fake's own latency so far.
func (s *Server) OwnStats() OwnStats {
	o := &s.own
	return OwnStats{
		TTFT:      o.ttft.Snapshot().Summary(),
		TPOT:      o.tpot.Snapshot().Summary(),
		E2E:       o.e2e.Snapshot().Summary(),
		Admit:     o.admit.Snapshot().Summary(),
		TokenSlip: o.slip.Snapshot().Summary(),
		ModelTTFT: s.cfg.TTFT,
		ModelTPOT: s.cfg.TPOT,
	}
}

// ResetOwnStats empties the fake's own latency histograms.
func (s *Server) ResetOwnStats() {
	o := &s.own
	for _, h := range []*lathist.Histogram{&o.ttft, &o.tpot, &o.e2e, &o.admit, &o.slip} {
		h.Reset()
	}
}

// handleStats serves OwnStats (GET) and resets them (POST to /reset).
func (s *Server) handleStats(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.URL.Path == StatsPath && r.Method == http.MethodGet:
	case r.URL.Path == StatsPath+"/reset" && r.Method == http.MethodPost:
		s.ResetOwnStats()
	default:
		writeError(w, http.StatusMethodNotAllowed, "GET "+StatsPath+" reads the fake's own latency; POST "+StatsPath+"/reset empties it", "", "")
		return
	}
	b, err := json.Marshal(s.OwnStats())
	if err != nil {
		writeError(w, http.StatusInternalServerError, err.Error(), "", "")
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(b)
}

// logOwnStats logs the fake's own latency (on Close).
func (s *Server) logOwnStats() {
	st := s.OwnStats()
	if st.E2E.Count == 0 {
		return
	}
	ms := func(v int64) float64 { return float64(v) / 1e6 }
	dist := func(name string, d lathist.Summary) zap.Field {
		return zap.Dict(name, zap.Int64("n", d.Count), zap.Float64("p50_ms", ms(d.P50)),
			zap.Float64("p99_ms", ms(d.P99)), zap.Float64("p99_9_ms", ms(d.P999)), zap.Float64("max_ms", ms(d.Max)))
	}
	s.log.Info("fake endpoint's own latency (request received -> written, by the fake's clock)",
		dist("ttft", st.TTFT), dist("tpot", st.TPOT), dist("e2e", st.E2E), dist("admit", st.Admit), dist("token_slip", st.TokenSlip))
}

// Requests arrive before their handler runs: the server's connection
// goroutine must wake, read and parse the head first, which an overloaded
// fake delays. So the fake's connections note when the first bytes of each
// request were read (stampConn), and its own times start there.

// stampListener makes every accepted connection a stampConn.
type stampListener struct{ net.Listener }

func (l stampListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	sc := &stampConn{Conn: c}
	sc.idle.Store(true)
	return sc, nil
}

// stampConn notes when a read first returned bytes after the connection
// went idle (a response ended, or it was accepted): when a request's first
// bytes reached the fake. HTTP/1.1 clients send the next request on a
// connection only after the whole response, so those bytes are the next
// request's. ServeHTTP moves the stamp to cur for the request's handlers
// (begin) and readies the connection for the next one (end).
type stampConn struct {
	net.Conn
	idle  atomic.Bool
	first atomic.Int64 // UnixNano of the next request's first bytes
	cur   atomic.Int64 // UnixNano of the current request's first bytes
}

func (c *stampConn) Read(b []byte) (int, error) {
	n, err := c.Conn.Read(b)
	if n > 0 && c.idle.Load() {
		c.idle.Store(false)
		c.first.Store(time.Now().UnixNano())
	}
	return n, err
}

func (c *stampConn) begin() { c.cur.Store(c.first.Swap(0)) }
func (c *stampConn) end()   { c.idle.Store(true) }

type connKey struct{}

// withConn puts the request's stampConn in its context (http.Server's
// ConnContext).
func withConn(ctx context.Context, c net.Conn) context.Context {
	if sc, ok := c.(*stampConn); ok {
		return context.WithValue(ctx, connKey{}, sc)
	}
	return ctx
}

func connOf(r *http.Request) *stampConn {
	sc, _ := r.Context().Value(connKey{}).(*stampConn)
	return sc
}

// arrival returns when r's first bytes were read (now when unknown: a
// server not started by Start).
func arrival(r *http.Request) time.Time {
	now := time.Now()
	if sc := connOf(r); sc != nil {
		if ns := sc.cur.Load(); ns != 0 {
			// The wall clock read then, carried on the monotonic one.
			if t := now.Add(-time.Duration(now.UnixNano() - ns)); t.Before(now) {
				return t
			}
		}
	}
	return now
}
