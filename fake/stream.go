package fake

import (
	"context"
	"net/http"
	"time"

	"github.com/mlperf-go/mlperf-go/protocol"
)

// minSleep is the shortest pause a stream takes between tokens. With a TPOT
// below it, tokens that fall due while the stream sleeps go out together in
// one write, so a tiny TPOT costs neither a timer nor a syscall per token.
const minSleep = 500 * time.Microsecond

// endlessMinTPOT is the fastest FailEndless streams tokens (one event per
// interval at most), so an endless stream at zero latency does not spin.
const endlessMinTPOT = time.Millisecond

// writeChunk is the threshold above which buffered events are handed to the
// connection even when no flush is due.
const writeChunk = 64 << 10

// generation is one request's place in the latency model.
type generation struct {
	s       *Server
	ctx     context.Context
	arrived time.Time     // when the request came in (SGLang's e2e_latency base)
	start   time.Time     // when it got its slot; token i is due at start+ttft+i*TPOT
	ttft    time.Duration // Config.TTFT plus this prompt's prefill
	choices int           // answers generated side by side (a batch's prompts)
	// cached are each prompt's tokens found in the prefix cache (nil
	// when it is off), cachedTokens their sum.
	cached       []int
	cachedTokens int
}

// begin takes a slot for the request and records its prompt in the
// engine metrics: rep.PromptTokens in all, one answer per prompt (at
// least one), the prompts and answers seqs looked up in and entered into
// the prefix cache (nil: the cache is off, nothing is cached). The
// caller must call end when it returns true.
func (s *Server) begin(r *http.Request, arrived time.Time, rep *protocol.Reply, seqs []cacheSeq) (generation, bool) {
	g := generation{s: s, ctx: r.Context(), arrived: arrived, choices: max(len(rep.Prompts), 1)}
	if !s.acquire(g.ctx) {
		return g, false
	}
	g.start = time.Now()
	// The first token comes after the prefill of what the cache does not
	// hold.
	ttft := func(cached int) time.Duration {
		return s.cfg.TTFT + time.Duration(rep.PromptTokens-cached)*s.cfg.PrefillPerToken
	}
	g.ttft = ttft(0)
	if seqs != nil {
		g.cached, g.ttft = s.prefix.admit(seqs, g.start, ttft, time.Duration(rep.Tokens)*s.cfg.TPOT)
		for _, c := range g.cached {
			g.cachedTokens += c
		}
	}
	s.metrics.admit(rep.PromptTokens, g.cachedTokens)
	return g, true
}

// due is when token i (0-based) is ready: start + ttft + i*TPOT.
func (g generation) due(i int) time.Time {
	return g.start.Add(g.ttft + time.Duration(i)*g.s.cfg.TPOT)
}

func (g generation) zeroLatency() bool { return g.ttft == 0 && g.s.cfg.TPOT == 0 }

func (g generation) end() {
	g.s.metrics.finished.Add(1)
	g.s.release()
}

// sent records n tokens of each answer as generated.
func (g generation) sent(n int) { g.s.metrics.generationTokens.Add(uint64(n * g.choices)) }

// waitAll sleeps until all n tokens are generated (a non-streaming answer).
func (g generation) waitAll(n int) bool {
	if !g.zeroLatency() && !g.s.sleepUntil(g.ctx, g.due(max(n-1, 0))) {
		return false
	}
	g.sent(n)
	return true
}

// eventWriter appends the SSE event(s) for tokens [from, to) of n. Under
// FailEndless to goes past n, and the writer must keep producing tokens.
type eventWriter func(dst []byte, from, to int) []byte

// stream writes an SSE response of n tokens, one event at a time as the
// latency model makes tokens due, grouped by Config.StreamInterval. The first
// event is flushed on its own (it is the client's time to first token).
// fault shapes the stream: FailCut resets the connection right after the
// first event, FailSSEError sends sseErrorEvent after it and ends the
// response, FailEndless never reaches n (tokens keep coming, at least
// endlessMinTPOT apart, until the client leaves or the server closes).
// tail appends what follows the last token (usage chunk, [DONE]). stream
// reports whether it completed.
func (g generation) stream(w http.ResponseWriter, n int, fault string, events eventWriter, tail func([]byte) []byte) bool {
	s := g.s
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	rc := http.NewResponseController(w)
	bp := s.getBuf()
	defer s.putBuf(bp)
	buf := (*bp)[:0]
	// oldest is when the oldest token not yet flushed was due (zero when
	// none is, or nothing is scheduled): each flush records how late it
	// went out (own.go).
	var oldest time.Time
	flush := func() bool {
		if len(buf) > 0 {
			if _, err := w.Write(buf); err != nil {
				return false
			}
			buf = buf[:0]
		}
		if rc.Flush() != nil {
			return false
		}
		if !oldest.IsZero() {
			s.own.slip.RecordDuration(time.Since(oldest))
			oldest = time.Time{}
		}
		return true
	}
	defer func() { *bp = buf }()

	endless := fault == FailEndless
	interval := s.cfg.StreamInterval
	tpot := s.cfg.TPOT
	if endless {
		tpot = max(tpot, endlessMinTPOT)
	}
	zero := g.ttft == 0 && tpot == 0
	if !zero && !flush() { // headers go out at once, as uvicorn sends them
		return false
	}
	// Events end at token counts 1, then every interval tokens as SGLang
	// counts them (1, k+1, 2k+1, …), and at n. A zero-token answer is one
	// event covering nothing.
	prev, first := 0, true
	var firstAt time.Time
	to := min(1, n)
	if endless {
		to = 1
	}
	for ; ; to++ {
		if (endless || to < n) && interval > 1 && to%interval != 1 {
			continue
		}
		var sched time.Time // when token to is due (zero: at once)
		if !zero {
			sched = g.start.Add(g.ttft + time.Duration(max(to-1, 0))*tpot)
			due := sched
			if now := time.Now(); due.After(now) {
				if !first {
					if !flush() {
						return false
					}
					if tpot < minSleep {
						due = maxTime(due, now.Add(minSleep))
					}
				}
				if !s.sleepUntil(g.ctx, due) {
					return false
				}
			}
		}
		buf = events(buf, prev, to)
		if oldest.IsZero() {
			oldest = sched
		}
		g.sent(to - prev)
		if first {
			// The first event is the client's first token: send it now.
			if !flush() {
				return false
			}
			firstAt = time.Now()
			s.own.ttft.RecordDuration(firstAt.Sub(g.arrived))
			switch fault {
			case FailCut:
				resetConn(w)
				return false
			case FailSSEError:
				buf = append(buf, sseErrorEvent...)
				flush()
				return false
			}
			first = false
		} else if len(buf) >= writeChunk {
			if _, err := w.Write(buf); err != nil {
				return false
			}
			buf = buf[:0]
		}
		prev = to
		if !endless && to >= n {
			break
		}
	}
	buf = tail(buf)
	if !flush() {
		return false
	}
	end := time.Now()
	s.own.e2e.RecordDuration(end.Sub(g.arrived))
	if n >= 2 {
		s.own.tpot.RecordDuration(end.Sub(firstAt) / time.Duration(n-1))
	}
	return true
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// writeCut sends the headers and half of body, then resets the connection:
// the non-streaming form of FailCut.
func writeCut(w http.ResponseWriter, body []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", itoa(len(body)))
	_, _ = w.Write(body[:len(body)/2])
	_ = http.NewResponseController(w).Flush()
	resetConn(w)
}

func itoa(v int) string { return string(appendInt(nil, v)) }
