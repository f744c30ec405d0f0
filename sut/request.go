package sut

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"runtime/debug"
	"strings"
	"sync"

	"github.com/mlperf-go/mlperf-go/loadgen"
	"github.com/mlperf-go/mlperf-go/protocol"
)

// Buffers for response payloads, returned by the completer goroutine once
// the Completer has copied them (loadgen.Response.Data may be reused after
// the call).
var bufPool = sync.Pool{New: func() any { b := make([]byte, 0, 4096); return &b }}

func getBuf() *[]byte { return bufPool.Get().(*[]byte) }

func putBuf(b *[]byte) {
	if cap(*b) > 4<<20 { // let rare huge buffers go
		return
	}
	*b = (*b)[:0]
	bufPool.Put(b)
}

// Read buffers for bodies and streams.
var readerPool = sync.Pool{New: func() any { return bufio.NewReaderSize(nil, 32<<10) }}

var bodyPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// reqState tracks one sample through its request.
type reqState struct {
	qs        loadgen.QuerySample
	t         stamps // where its time went (latency.go)
	firstSent bool
	first     firstReport // what firstSent reported (accounting.go)
	finished  bool
	attempts  int
}

// failure is an error with its Reason and, once known, where it
// happened.
type failure struct {
	reason   string
	err      error
	endpoint string
	status   int
}

func (f *failure) Error() string { return f.err.Error() }

func fail(reason string, err error) *failure { return &failure{reason: reason, err: err} }

// serve sends one sample and completes it exactly once, whatever happens.
func (p *Pool) serve(w *worker, ps pending) {
	p.book.inFlight.Add(1)
	defer p.book.inFlight.Add(-1)
	st := &reqState{qs: ps.qs, t: stamps{issued: ps.issued, free: ps.free, taken: p.clk.now()}}
	defer func() {
		if r := recover(); r != nil {
			if !st.finished {
				p.complete(st, nil, 0, fail(ReasonInternal, fmt.Errorf("panic: %v\n%s", r, debug.Stack())))
			}
		}
	}()
	f := p.do(w, st)
	if !st.finished {
		if f == nil { // a handler returned without completing: a bug
			f = fail(ReasonInternal, errors.New("request finished without a response"))
		}
		p.complete(st, nil, 0, f)
	}
}

// answer is what one attempt did: its failure (nil when the sample was
// answered and completed) and how far it got, for judge.
type answer struct {
	f *failure
	// lost: no response came back (send failed); trace says what
	// net/http saw of the connection.
	lost  bool
	trace *attemptTrace
	// status and header are the response's when it came back with a
	// status other than 200 (status 0 otherwise).
	status int
	header http.Header
}

// message is what went wrong, "" when nothing did.
func (a answer) message() string {
	if a.f == nil {
		return ""
	}
	return a.f.Error()
}

// attempt sends the sample once to endpoint ep and reads the answer; on
// success it completes the sample. Whether a failure is retried, and what
// it says of the endpoint, judge decides from what attempt returns.
func (p *Pool) attempt(ctx context.Context, w *worker, st *reqState, ep int, prefix, body []byte, fresh bool) (a answer) {
	defer func() {
		if a.f != nil {
			a.f.endpoint = p.eps.urls[ep]
		}
	}()
	netFail := func(err error) *failure { return p.netFailure(ctx, err) }
	if p.cfg.Tracer != nil {
		p.cfg.Tracer.Sent(st.qs, ep)
	}
	tr := w.trace
	resp, err := p.send(ctx, tr, ep, st.qs.Index, prefix, body, fresh)
	if err != nil {
		return answer{f: netFail(err), lost: true, trace: tr}
	}
	defer resp.Body.Close()
	// A server may answer before the request is all written; the answer
	// then starts the endpoint's time.
	st.t.written = tr.wrote.Load()
	if st.t.written == 0 {
		st.t.written = p.clk.now()
	}
	if resp.StatusCode != http.StatusOK {
		snippet, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		f := fail(ReasonHTTPStatus, fmt.Errorf("%s from %s: %s", resp.Status, p.eps.shown[ep], clip(bytes.TrimSpace(snippet), 300)))
		f.status = resp.StatusCode
		return answer{f: f, status: resp.StatusCode, header: resp.Header}
	}
	if p.cfg.Stream {
		a.f = p.readStream(w, st, resp.Body, resp.Header.Get("Content-Type"), netFail)
	} else {
		a.f = p.readBody(st, resp.ContentLength, resp.Body, netFail)
	}
	if a.f == nil {
		// Read to the end (the chunked trailer after [DONE]) so the
		// connection goes back to the pool instead of being closed.
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
	}
	return a
}

// clip shortens a response snippet for a message.
func clip(b []byte, n int) string {
	if len(b) > n {
		return string(b[:n]) + "…"
	}
	return string(b)
}

// stopReason is the first line of why the run stopped, for the failures of
// the samples it cut short: a launched engine's death carries the tail of
// its log, which the run's own error shows once, not once per sample.
func (p *Pool) stopReason() string {
	why, _, _ := strings.Cut(context.Cause(p.ctx).Error(), "\n")
	return why
}

// netFailure classifies a transport error.
func (p *Pool) netFailure(ctx context.Context, err error) *failure {
	switch {
	case p.ctx.Err() != nil:
		// err repeats the cause in its own words (a request cut short by
		// the run's end): the reason alone says it.
		return fail(ReasonCanceled, fmt.Errorf("run stopped: %s", p.stopReason()))
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return fail(ReasonTimeout, fmt.Errorf("no complete response within %v: %w", p.cfg.Timeout, err))
	}
	return fail(ReasonTransport, err)
}

// parseFailure classifies an error from a protocol or the SSE reader.
func parseFailure(err error) *failure {
	var se *protocol.ServerError
	switch {
	case errors.As(err, &se):
		return fail(ReasonServerError, err)
	case errors.Is(err, protocol.ErrTruncated):
		return fail(ReasonTruncated, err)
	case errors.Is(err, protocol.ErrTooLarge):
		return fail(ReasonTooLarge, err)
	}
	return fail(ReasonMalformed, err)
}

// readBody handles a non-streamed response.
func (p *Pool) readBody(st *reqState, length int64, body io.Reader, netFail func(error) *failure) *failure {
	bb := bodyPool.Get().(*bytes.Buffer)
	defer func() {
		if bb.Cap() <= 16<<20 {
			bb.Reset()
			bodyPool.Put(bb)
		}
	}()
	bb.Reset()
	h := hold{b: &p.mem}
	defer h.release()
	if length > 0 && length <= p.cfg.MaxResponseBytes {
		if !h.growTo(length) {
			return p.overBudget(length)
		}
		bb.Grow(int(length))
	}
	br := &budgetReader{r: io.LimitReader(body, p.cfg.MaxResponseBytes+1), h: &h}
	n, err := bb.ReadFrom(br)
	if br.over {
		return p.overBudget(2 * br.n)
	}
	if err != nil {
		return netFail(err)
	}
	st.t.last = p.clk.now()
	if n > p.cfg.MaxResponseBytes {
		return fail(ReasonTooLarge, fmt.Errorf("%w: the body is longer than %d bytes (raise the response byte limit if that is right)", protocol.ErrTooLarge, p.cfg.MaxResponseBytes))
	}
	buf := getBuf()
	var tokens int64
	*buf, tokens, err = p.cfg.API.DecodeResponse(*buf, bb.Bytes())
	if err != nil {
		putBuf(buf)
		return parseFailure(err)
	}
	if len(*buf) == 0 && tokens == 0 {
		putBuf(buf)
		return emptyAnswer()
	}
	if p.cfg.Tracer != nil {
		p.cfg.Tracer.Received(st.qs, len(*buf), bb.Bytes())
	}
	p.complete(st, buf, tokens, nil)
	return nil
}

// emptyAnswer is the failure of a well-formed answer with no output: an
// empty text, no token IDs, a stream of only a finish or [DONE], and no
// generated token reported either. Every request asks for at least one
// token, and an empty answer scored as a sample would pass for a result.
// An empty text for which the server counts generated tokens is an
// answer (whisper's transcript of a silent clip is its end-of-text token).
func emptyAnswer() *failure {
	return fail(ReasonEmpty, errors.New("the answer has no output (empty text or no token IDs) though the request asks for at least one token"))
}

// readStream handles a server-sent-event response: the protocol decodes
// each event; the pool reports the first token when the protocol says an
// event carries it and completes the sample at "[DONE]" or the event the
// protocol says ends the stream.
func (p *Pool) readStream(w *worker, st *reqState, body io.Reader, contentType string, netFail func(error) *failure) *failure {
	br := readerPool.Get().(*bufio.Reader)
	w.rd.r, w.rd.at = body, 0
	br.Reset(&w.rd)
	defer func() { br.Reset(nil); readerPool.Put(br); w.rd.r = nil }()
	var sse protocol.SSEReader
	sse.Reset(br, int(min(p.cfg.MaxResponseBytes, math.MaxInt)))
	if w.stream == nil {
		w.stream = p.cfg.API.NewStream()
	}
	dec := w.stream
	dec.Reset()

	acc := getBuf()
	ok := false
	h := hold{b: &p.mem}
	defer func() {
		h.release()
		if !ok {
			putBuf(acc)
		}
	}()
	done, sawData := false, false // done: [DONE] or the protocol's end event
	for !done {
		data, err := sse.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			var se *protocol.ServerError
			if errors.As(err, &se) || errors.Is(err, protocol.ErrTooLarge) {
				return parseFailure(err)
			}
			return netFail(err)
		}
		sawData = true
		if bytes.Equal(data, protocol.Done) {
			done = true
			break
		}
		var ev protocol.Event
		*acc, ev, err = dec.Next(*acc, data)
		if err != nil {
			return parseFailure(err)
		}
		if int64(len(*acc)) > p.cfg.MaxResponseBytes {
			return fail(ReasonTooLarge, fmt.Errorf("%w: the stream's output passed %d bytes without ending (raise the response byte limit if that is right)", protocol.ErrTooLarge, p.cfg.MaxResponseBytes))
		}
		// What the output costs in memory is its buffer, which grows
		// ahead of its length.
		if c := int64(cap(*acc)); !h.growTo(c) {
			return p.overBudget(c)
		}
		if p.cfg.Tracer != nil {
			p.cfg.Tracer.Received(st.qs, len(*acc), data)
		}
		if ev.First {
			if !st.firstSent {
				st.t.first = w.rd.at
				p.firstToken(st, ev.FirstData, ev.FirstTokens)
			} else {
				// A sample sent again after its answer was cut: LoadGen
				// keeps the first report's time, and the final response
				// leaves out this answer's own first token(s).
				st.first = firstReport{bytes: len(ev.FirstData), tokens: ev.FirstTokens}
			}
		}
		done = ev.Done
	}
	st.t.last = w.rd.at
	if !sawData {
		return fail(ReasonMalformed, fmt.Errorf("no server-sent events in the response (Content-Type %q); was the body built with stream=true?", contentType))
	}
	if err := dec.End(done); err != nil {
		return parseFailure(err)
	}
	if len(*acc) == 0 && dec.Tokens() == 0 {
		return emptyAnswer()
	}
	if !st.firstSent {
		// The stream finished without any content. LoadGen rejects a
		// completion whose first token was never reported, so report an
		// empty first token (task.py would not, and LoadGen would log an
		// error for the sample).
		st.t.first = st.t.last
		p.firstToken(st, nil, 0)
	}
	ok = true
	p.complete(st, acc, dec.Tokens(), nil)
	return nil
}

// firstToken reports a stream's first token(s); data is copied.
func (p *Pool) firstToken(st *reqState, data []byte, n int64) {
	st.firstSent = true
	st.first = firstReport{bytes: len(data), tokens: n}
	p.book.firstToken(p.clk.now() - st.t.taken)
	buf := getBuf()
	*buf = append(*buf, data...)
	p.out.emit(event{first: true, resp: loadgen.Response{ID: st.qs.ID, Data: *buf, NTokens: n}, buf: buf, timed: true, t: st.t})
}

// complete reports the sample's final response: the payload in buf on
// success, an empty response (after an empty first token when streaming
// and none was sent) on failure. buf is handed to the completer.
func (p *Pool) complete(st *reqState, buf *[]byte, n int64, f *failure) {
	st.finished = true
	if p.cfg.Tracer != nil {
		p.cfg.Tracer.Finished(st.qs)
	}
	if f != nil {
		if buf != nil {
			putBuf(buf)
			buf = nil
		}
		n = 0
		p.recordFailure(st.qs, Failure{Reason: f.reason, Message: f.Error(), Endpoint: f.endpoint, Status: f.status, Attempts: st.attempts})
		if p.cfg.Stream && !st.firstSent {
			st.firstSent = true
			p.out.emit(event{first: true, resp: loadgen.Response{ID: st.qs.ID}})
		}
	} else {
		p.book.succeeded(n, p.clk.now()-st.t.taken)
		n = p.omitFirst(st, buf, n)
	}
	p.book.done.Add(1)
	ev := event{resp: loadgen.Response{ID: st.qs.ID, NTokens: n}, buf: buf, timed: f == nil, t: st.t}
	if buf != nil {
		ev.resp.Data = *buf
	}
	p.out.emit(ev)
}
