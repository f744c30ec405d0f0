package fake

import (
	"net"
	"net/http"
	"strings"

	"go.uber.org/zap"
)

// Fault modes for Config.FailMode. faultModes lists them with what each
// does and which requests it applies to.
const (
	// FailStatus answers HTTP 500 with an OpenAI-style error JSON.
	FailStatus = "status"
	// FailReset closes the TCP connection abruptly (RST, via SO_LINGER 0)
	// without sending a response.
	FailReset = "reset"
	// FailStall holds the request without answering until the client gives
	// up or the server closes.
	FailStall = "stall"
	// FailGarbage answers 200 with malformed JSON, or for a stream with an
	// SSE event whose data is not JSON.
	FailGarbage = "garbage"
	// FailCut starts the answer and then resets the connection: a stream is
	// cut right after its first token, a plain response halfway through its
	// body.
	FailCut = "cut"
	// FailRateLimit answers 429 with a Retry-After header (RetryAfterSeconds)
	// and an OpenAI-style error JSON, as a rate-limiting proxy does.
	FailRateLimit = "rate-limit"
	// FailHTML503 answers 503 with an HTML page (text/html), as a load
	// balancer or reverse proxy in front of a restarting server does.
	FailHTML503 = "html-503"
	// FailNoDone ends a stream after its finish_reason event (and usage
	// chunk, when asked for) without the "data: [DONE]" sentinel; the
	// response itself ends cleanly. Streams only.
	FailNoDone = "no-done"
	// FailSSEError sends the first event, then an SSE "event: error" whose
	// data is an OpenAI-style error JSON, and ends the response there: no
	// further tokens, no finish_reason, no [DONE]. Streams only.
	FailSSEError = "sse-error"
	// FailFinishError stops the answer after its first token with
	// finish_reason "error" (vLLM's FinishReason.ERROR; a protocol without
	// one writes its own failure, SGLang {"type":"abort", …
	// "status_code":500}). The rest of the response (usage, [DONE]) is as
	// usual.
	FailFinishError = "finish-error"
	// FailFinishAbort stops the answer after its first token with
	// finish_reason "abort" (vLLM's FinishReason.ABORT; SGLang's
	// FINISH_ABORT, {"type":"abort","message":"Aborted",…}).
	FailFinishAbort = "finish-abort"
	// FailEndless streams tokens forever, ignoring the request's max
	// tokens, at TPOT but at least one event per endlessMinTPOT, until the
	// client goes away or the server closes. Streams only.
	FailEndless = "endless"
	// FailNoTokenIDs answers with text but no token IDs where a protocol's
	// answers carry them (protocol.Serving.AnswersTokenIDs): vLLM's
	// completions token_ids and prompt_token_ids null although
	// return_token_ids was asked for, SGLang's output_ids left out.
	// Streamed and not; other protocols' requests (chat) are unaffected.
	FailNoTokenIDs = "no-token-ids"
)

// RetryAfterSeconds is the Retry-After header FailRateLimit sends.
const RetryAfterSeconds = 1

// requestKind says what a generation request is, for which faults apply.
type requestKind struct {
	stream   bool // an SSE answer was asked for
	tokenIDs bool // its protocol's answers carry token IDs
}

// faultMode is one Config.FailMode: its name, a line of help, and which
// requests it applies to (nil: every generation request). A request the
// mode does not apply to is answered normally and not counted as a fault.
type faultMode struct {
	name    string
	help    string
	applies func(requestKind) bool
}

func streamsOnly(k requestKind) bool  { return k.stream }
func tokenIDsOnly(k requestKind) bool { return k.tokenIDs }

// faultModes is the one list of fault modes: New validates against it,
// Stats counts by it and FailModeHelp describes it.
var faultModes = [...]faultMode{
	{FailStatus, "HTTP 500 with an OpenAI-style error JSON", nil},
	{FailReset, "TCP reset instead of an answer", nil},
	{FailStall, "never answer, until the client or server gives up", nil},
	{FailGarbage, "200 with malformed JSON (a stream: an event whose data is not JSON)", nil},
	{FailCut, "TCP reset after the first streamed token, or halfway through a body", nil},
	{FailRateLimit, "429 with Retry-After: 1 and an error JSON", nil},
	{FailHTML503, "503 with an HTML body (text/html), like a proxy in front of the server", nil},
	{FailNoDone, "streams end after finish_reason and usage without data: [DONE]", streamsOnly},
	{FailSSEError, "streams send one token, then 'event: error' with an error JSON, and end", streamsOnly},
	{FailFinishError, "answers stop after one token with finish_reason error (SGLang: abort, status 500)", nil},
	{FailFinishAbort, "answers stop after one token with finish_reason abort", nil},
	{FailEndless, "streams never finish: tokens keep coming, past max tokens", streamsOnly},
	{FailNoTokenIDs, "token-ID answers (completions, /generate) carry no token IDs", tokenIDsOnly},
}

func faultIndex(mode string) int {
	for i, m := range faultModes {
		if m.name == mode {
			return i
		}
	}
	return -1
}

// faultNames lists the modes' names, for error messages.
func faultNames() []string {
	out := make([]string, len(faultModes))
	for i, m := range faultModes {
		out[i] = m.name
	}
	return out
}

// FailModeHelp describes every fault mode, "name: what it does" joined by
// "; ", for a command-line flag's help text.
func FailModeHelp() string {
	parts := make([]string, len(faultModes))
	for i, m := range faultModes {
		parts[i] = m.name + ": " + m.help
	}
	return strings.Join(parts, "; ")
}

// pickFault decides, from the request counter and Seed, whether this
// generation request fails; it returns the mode or "". Every generation
// request advances the counter, so which requests fail does not depend on
// which modes apply to them.
func (s *Server) pickFault(k requestKind) string {
	n := s.reqCounter.Add(1)
	if s.cfg.FailRate <= 0 {
		return ""
	}
	if unitFloat(splitmix64(n^splitmix64(uint64(s.cfg.Seed)+0x5eed))) >= s.cfg.FailRate {
		return ""
	}
	i := faultIndex(s.cfg.FailMode)
	if ap := faultModes[i].applies; ap != nil && !ap(k) {
		return ""
	}
	s.faultCount[i].Add(1)
	return s.cfg.FailMode
}

// injectEarly applies the faults that replace the whole answer. It reports
// whether the request is finished.
func (s *Server) injectEarly(w http.ResponseWriter, r *http.Request, mode string, stream bool) bool {
	if mode != "" {
		s.log.Debug("injecting fault", zap.String("mode", mode), zap.String("path", r.URL.Path))
	}
	switch mode {
	case FailStatus:
		writeError(w, http.StatusInternalServerError, "injected fault: internal server error", "InternalServerError", "")
		return true
	case FailRateLimit:
		w.Header().Set("Retry-After", itoa(RetryAfterSeconds))
		writeError(w, http.StatusTooManyRequests, "injected fault: too many requests, retry later", "RateLimitError", "")
		return true
	case FailHTML503:
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusServiceUnavailable)
		_, _ = w.Write([]byte(html503))
		return true
	case FailReset:
		resetConn(w)
		return true
	case FailStall:
		select {
		case <-r.Context().Done():
		case <-s.done:
		}
		resetConn(w)
		return true
	case FailGarbage:
		if stream {
			w.Header().Set("Content-Type", "text/event-stream")
			_, _ = w.Write([]byte("data: {\"id\": \"cmpl-garbage\", \"choices\": [{\"delta\": \n\ndata: not json at all}\n\ndata: [DONE]\n\n"))
		} else {
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"id": "cmpl-garbage", "object": "chat.completion", "choices": [{"index": 0, "message": {"content": "tru`))
		}
		return true
	}
	return false
}

// html503 is the page nginx serves for a 503.
const html503 = "<html>\r\n<head><title>503 Service Temporarily Unavailable</title></head>\r\n<body>\r\n<center><h1>503 Service Temporarily Unavailable</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n"

// sseErrorEvent is what FailSSEError sends after the first event.
const sseErrorEvent = "event: error\ndata: {\"error\":{\"message\":\"injected fault: error mid-stream\",\"type\":\"InternalServerError\",\"param\":null,\"code\":500}}\n\n"

// finishReason is the OpenAI finish_reason a truncating fault ends the
// answer with ("" for other modes).
func finishReason(fault string) string {
	switch fault {
	case FailFinishError:
		return "error"
	case FailFinishAbort:
		return "abort"
	}
	return ""
}

// resetConn drops the client connection with a TCP RST when it can hijack
// it, and otherwise aborts the response the way net/http allows.
func resetConn(w http.ResponseWriter) {
	conn, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		panic(http.ErrAbortHandler)
	}
	if tc, ok := conn.(*net.TCPConn); ok {
		_ = tc.SetLinger(0)
	}
	_ = conn.Close()
}
