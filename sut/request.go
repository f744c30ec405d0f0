package sut

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"runtime/debug"
	"sync"
	"time"

	"github.com/mlperf-go/mlperf-go/loadgen"
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

var prefixPool = sync.Pool{New: func() any { return &idPrefix{ids: make([]int32, 0, 1024)} }}

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
	if p.targets != nil {
		return p.doH1(w, st, ep, prefix, body)
	}
	return p.doHTTP(st, ep, prefix, body)
}

// doH1 sends the request over the worker's own connection to endpoint ep
// (see h1.go).
func (p *Pool) doH1(w *worker, st *reqState, ep int, prefix, body []byte) *failure {
	t := &p.targets[ep]
	deadline := st.start.Add(p.cfg.Timeout)
	netFail := func(err error) *failure {
		switch {
		case p.ctx.Err() != nil:
			return fail(ReasonCanceled, fmt.Errorf("run cancelled: %w", err))
		case errors.Is(err, os.ErrDeadlineExceeded):
			return fail(ReasonTimeout, fmt.Errorf("no complete response within %v: %w", p.cfg.Timeout, err))
		}
		return fail(ReasonTransport, fmt.Errorf("POST %s: %w", p.urls[ep], err))
	}
	var (
		c    *h1Conn
		resp h1Response
		err  error
	)
	for attempt := 0; ; attempt++ {
		c = w.conns[ep]
		w.conns[ep] = nil
		// Every reuse is checked (one non-blocking peek): a POST that was
		// written is never sent again (below), so a connection the server
		// closed while idle must be caught before writing to it.
		if c != nil && !c.alive() {
			p.closeConn(c)
			c = nil
		}
		if c == nil {
			dctx, cancel := context.WithDeadline(p.ctx, deadline)
			c, err = p.dial(dctx, t)
			cancel()
			if err != nil {
				return netFail(err)
			}
		}
		// The deadline is set before the cancellation check so that a
		// cancellation either is seen here or interrupts the I/O
		// (interruptConns runs after the context is done).
		if err = c.nc.SetDeadline(deadline); err == nil && p.ctx.Err() != nil {
			err = p.ctx.Err()
		}
		if err == nil {
			resp, w.hdr, err = c.roundTrip(t, prefix, body, w.hdr, p.cfg.Stream)
		}
		var stale *errStale
		if err != nil && errors.As(err, &stale) && attempt == 0 {
			p.closeConn(c) // the server closed it while idle: once more, fresh
			continue
		}
		break
	}
	if err != nil {
		p.closeConn(c)
		return netFail(err)
	}
	c.used = true
	f := p.handle(st, resp.status, resp.statusLine, resp.contentType, c.body.lengthHint(), &c.body, p.urls[ep], netFail)
	if resp.keepAlive && c.body.drain(1<<20) {
		c.lastUsed = time.Now()
		w.conns[ep] = c
	} else {
		p.closeConn(c)
	}
	return f
}

// doHTTP sends the request through net/http (https endpoints, proxies,
// Config.Transport).
func (p *Pool) doHTTP(st *reqState, ep int, prefix, body []byte) *failure {
	ctx, cancel := context.WithTimeout(p.ctx, p.cfg.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.urls[ep], bytes.NewReader(body))
	if err != nil {
		return fail(ReasonInternal, err)
	}
	if len(prefix) > 0 {
		req.ContentLength = int64(len(prefix) + len(body))
		req.GetBody = func() (io.ReadCloser, error) {
			return io.NopCloser(io.MultiReader(bytes.NewReader(prefix), bytes.NewReader(body))), nil
		}
		req.Body, _ = req.GetBody()
	}
	req.Header = http.Header{"Content-Type": {"application/json"}}
	if p.cfg.Stream {
		req.Header["Accept"] = []string{"text/event-stream"}
	}
	if p.auth != "" {
		req.Header["Authorization"] = []string{p.auth}
	}
	resp, err := p.client.Do(req)
	if err != nil {
		return p.netFailure(ctx, err)
	}
	defer resp.Body.Close()
	f := p.handle(st, resp.StatusCode, resp.Status, resp.Header.Get("Content-Type"), resp.ContentLength, resp.Body, p.urls[ep],
		func(err error) *failure { return p.netFailure(ctx, err) })
	if f == nil {
		// Read to the end (the chunked trailer after [DONE]) so the
		// connection goes back to the pool instead of being closed.
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
	}
	return f
}

// handle reads a response whose head has arrived: status, the status line
// for messages, the Content-Type of streams, the body length (-1 when
// unknown) and the body.
func (p *Pool) handle(st *reqState, status int, statusLine, contentType string, length int64, body io.Reader, where string, netFail func(error) *failure) *failure {
	if status != http.StatusOK {
		snippet, _ := io.ReadAll(io.LimitReader(body, 512))
		return fail(ReasonHTTPStatus, fmt.Errorf("%s from %s: %s", statusLine, where, clip(string(bytes.TrimSpace(snippet)), 300)))
	}
	if p.cfg.Stream {
		return p.readStream(st, body, contentType, netFail)
	}
	return p.readBody(st, length, body, netFail)
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
	var se *serverError
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
	switch p.cfg.API {
	case APIChat:
		*buf, tokens, err = parseChat(*buf, bb.Bytes())
	case APICompletions:
		*buf, tokens, err = parseCompletion(*buf, bb.Bytes())
	case APISGLang:
		*buf, tokens, err = parseSGLang(*buf, bb.Bytes())
	}
	if err != nil {
		putBuf(buf)
		return parseFailure(err)
	}
	p.complete(st, buf, tokens, nil)
	return nil
}

// readStream handles a server-sent-event response.
func (p *Pool) readStream(st *reqState, body io.Reader, contentType string, netFail func(error) *failure) *failure {
	br := readerPool.Get().(*bufio.Reader)
	br.Reset(body)
	defer func() { br.Reset(nil); readerPool.Put(br) }()
	sse := sseReader{r: br}

	acc := getBuf()
	ok := false
	defer func() {
		if !ok {
			putBuf(acc)
		}
	}()
	var tokens int64
	var sg sglangStream
	var pf *idPrefix
	if p.cfg.API == APISGLang {
		pf = prefixPool.Get().(*idPrefix)
		defer func() { pf.raw, pf.ids = pf.raw[:0], pf.ids[:0]; prefixPool.Put(pf) }()
		sg.acc = *acc
	}
	done, sawData := false, false
	for !done {
		data, err := sse.next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return netFail(err)
		}
		sawData = true
		if bytes.Equal(data, doneMarker) {
			done = true
			break
		}
		switch p.cfg.API {
		case APIChat:
			// task.py: the first non-empty content delta is the first
			// token (reported with n_tokens 1); the final usage chunk
			// gives n_tokens.
			before := len(*acc)
			var c chatChunk
			*acc, c, err = parseChatChunk(*acc, data)
			if err != nil {
				return parseFailure(err)
			}
			if c.hasUsage {
				tokens = c.tokens
			}
			if !st.firstSent && len(*acc) > before {
				p.firstToken(st, (*acc)[before:], 1)
			}
		case APICompletions:
			before := len(*acc)
			var n int
			*acc, n, err = parseCompletionChunk(*acc, data)
			if err != nil {
				return parseFailure(err)
			}
			tokens += int64(n)
			if !st.firstSent && n > 0 {
				p.firstToken(st, (*acc)[before:], int64(n))
			}
		case APISGLang:
			c, err := parseSGLangChunk(pf, data)
			if err != nil {
				return parseFailure(err)
			}
			if sg.add(c) && !st.firstSent {
				// server_sut.py: only the first token, n_tokens 1.
				first := sg.acc[:min(len(sg.acc), 4)]
				p.firstToken(st, first, int64(len(first)/4))
			}
			*acc = sg.acc
			tokens = int64(sg.n)
			if c.finished {
				done = true
			}
		}
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
	p.complete(st, acc, tokens, nil)
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
