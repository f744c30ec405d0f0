package sut

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"runtime/debug"
	"sync"
	"time"

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
	start     time.Time
	firstSent bool
	finished  bool
}

// failure is an error with its Reason.
type failure struct {
	reason string
	err    error
}

func (f *failure) Error() string { return f.err.Error() }

func fail(reason string, err error) *failure { return &failure{reason, err} }

// serve sends one sample and completes it exactly once, whatever happens.
func (p *Pool) serve(w *worker, qs loadgen.QuerySample) {
	p.inFlight.Add(1)
	defer p.inFlight.Add(-1)
	st := &reqState{qs: qs, start: time.Now()}
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

// do performs the request; it completes the sample itself on success and
// returns the failure otherwise.
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
		return fail(ReasonCanceled, err)
	}
	ep := p.acquire()
	defer p.release(ep)
	ctx, cancel := context.WithTimeout(p.ctx, p.cfg.Timeout)
	defer cancel()
	netFail := func(err error) *failure { return p.netFailure(ctx, err) }
	resp, err := p.send(ctx, ep, prefix, body)
	if err != nil {
		return netFail(err)
	}
	defer resp.Body.Close()
	var f *failure
	switch {
	case resp.StatusCode != http.StatusOK:
		snippet, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		f = fail(ReasonHTTPStatus, fmt.Errorf("%s from %s: %s", resp.Status, p.urls[ep], clip(bytes.TrimSpace(snippet), 300)))
	case p.cfg.Stream:
		f = p.readStream(w, st, resp.Body, resp.Header.Get("Content-Type"), netFail)
	default:
		f = p.readBody(st, resp.ContentLength, resp.Body, netFail)
	}
	if f == nil {
		// Read to the end (the chunked trailer after [DONE]) so the
		// connection goes back to the pool instead of being closed.
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
	}
	return f
}

// clip shortens a response snippet for a message.
func clip(b []byte, n int) string {
	if len(b) > n {
		return string(b[:n]) + "…"
	}
	return string(b)
}

// netFailure classifies a transport error.
func (p *Pool) netFailure(ctx context.Context, err error) *failure {
	switch {
	case p.ctx.Err() != nil:
		return fail(ReasonCanceled, fmt.Errorf("run cancelled: %w", err))
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return fail(ReasonTimeout, fmt.Errorf("no complete response within %v: %w", p.cfg.Timeout, err))
	}
	return fail(ReasonTransport, err)
}

// parseFailure classifies a parse error.
func parseFailure(err error) *failure {
	var se *protocol.ServerError
	if errors.As(err, &se) {
		return fail(ReasonServerError, err)
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
	if length > 0 && length <= p.cfg.MaxResponseBytes {
		bb.Grow(int(length))
	}
	n, err := bb.ReadFrom(io.LimitReader(body, p.cfg.MaxResponseBytes+1))
	if err != nil {
		return netFail(err)
	}
	if n > p.cfg.MaxResponseBytes {
		return fail(ReasonMalformed, fmt.Errorf("response larger than %d bytes", p.cfg.MaxResponseBytes))
	}
	buf := getBuf()
	var tokens int64
	*buf, tokens, err = p.cfg.API.DecodeResponse(*buf, bb.Bytes())
	if err != nil {
		putBuf(buf)
		return parseFailure(err)
	}
	p.complete(st, buf, tokens, nil)
	return nil
}

// readStream handles a server-sent-event response: the protocol decodes
// each event; the pool reports the first token when the protocol says an
// event carries it and completes the sample at "[DONE]" or the event the
// protocol says ends the stream.
func (p *Pool) readStream(w *worker, st *reqState, body io.Reader, contentType string, netFail func(error) *failure) *failure {
	br := readerPool.Get().(*bufio.Reader)
	br.Reset(body)
	defer func() { br.Reset(nil); readerPool.Put(br) }()
	var sse protocol.SSEReader
	sse.Reset(br)
	if w.stream == nil {
		w.stream = p.cfg.API.NewStream()
	}
	dec := w.stream
	dec.Reset()

	acc := getBuf()
	ok := false
	defer func() {
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
		if ev.First && !st.firstSent {
			p.firstToken(st, ev.FirstData, ev.FirstTokens)
		}
		done = ev.Done
	}
	if !sawData {
		return fail(ReasonMalformed, fmt.Errorf("no server-sent events in the response (Content-Type %q); was the body built with stream=true?", contentType))
	}
	if !done {
		return fail(ReasonTruncated, errTruncated)
	}
	if !st.firstSent {
		// The stream finished without any content. LoadGen rejects a
		// completion whose first token was never reported, so report an
		// empty first token (task.py would not, and LoadGen would log an
		// error for the sample).
		p.firstToken(st, nil, 0)
	}
	ok = true
	p.complete(st, acc, dec.Tokens(), nil)
	return nil
}

// firstToken reports a stream's first token(s); data is copied.
func (p *Pool) firstToken(st *reqState, data []byte, n int64) {
	st.firstSent = true
	p.ttftNs.Add(int64(time.Since(st.start)))
	p.ttftN.Add(1)
	buf := getBuf()
	*buf = append(*buf, data...)
	p.emit(event{first: true, resp: loadgen.Response{ID: st.qs.ID, Data: *buf, NTokens: n}, buf: buf})
}

// complete reports the sample's final response: the payload in buf on
// success, an empty response (after an empty first token when streaming
// and none was sent) on failure. buf is handed to the completer.
func (p *Pool) complete(st *reqState, buf *[]byte, n int64, f *failure) {
	st.finished = true
	if f != nil {
		if buf != nil {
			putBuf(buf)
			buf = nil
		}
		n = 0
		p.recordFailure(st.qs, f.reason, f.Error())
		if p.cfg.Stream && !st.firstSent {
			st.firstSent = true
			p.emit(event{first: true, resp: loadgen.Response{ID: st.qs.ID}})
		}
	} else {
		p.outTokens.Add(n)
		p.latencyNs.Add(int64(time.Since(st.start)))
		p.latencyN.Add(1)
	}
	p.done.Add(1)
	ev := event{resp: loadgen.Response{ID: st.qs.ID, NTokens: n}, buf: buf}
	if buf != nil {
		ev.resp.Data = *buf
	}
	p.emit(ev)
}

// errTruncated is a stream that ended before its end marker.
var errTruncated = errors.New("stream ended before data: [DONE] or a finish_reason")
