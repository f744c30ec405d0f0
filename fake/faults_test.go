package fake

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// The resilience fault modes, each over loopback against the real server,
// asserting on what a client reads off the wire.

// send posts body to url+path on a fresh connection and returns the
// response and its whole body; a read error is returned, not fatal.
func send(t *testing.T, url, path, body string) (*http.Response, []byte, error) {
	t.Helper()
	tr := &http.Transport{}
	defer tr.CloseIdleConnections()
	resp, err := (&http.Client{Transport: tr, Timeout: 10 * time.Second}).Post(url+path, "application/json", strings.NewReader(body))
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp, b, err
}

// rawEvents splits an SSE body into its events (the text between blank
// lines), without requiring a [DONE].
func rawEvents(body []byte) []string {
	return strings.Split(strings.TrimSuffix(string(body), "\n\n"), "\n\n")
}

// dataOf decodes the JSON of a "data: " event.
func dataOf(t *testing.T, ev string) map[string]any {
	t.Helper()
	p, ok := strings.CutPrefix(ev, "data: ")
	if !ok {
		t.Fatalf("event %q is not a data event", ev)
	}
	return decode(t, []byte(p))
}

func serverURL(t *testing.T, mode string, cfg Config) (*Server, string) {
	cfg.FailRate, cfg.FailMode = 1, mode
	if cfg.OutputTokens == 0 {
		cfg.OutputTokens = 5
	}
	return start(t, cfg)
}

func wantFaults(t *testing.T, s *Server, mode string, n uint64) {
	t.Helper()
	if got := s.Stats().Faults[mode]; got != n {
		t.Errorf("Stats().Faults[%q] = %d, want %d", mode, got, n)
	}
}

func TestFaultRateLimit(t *testing.T) {
	s, url := serverURL(t, FailRateLimit, Config{})
	resp, body, err := send(t, url, "/generate", `{"input_ids":[1]}`)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 429 || resp.Header.Get("Retry-After") != "1" || resp.Header.Get("Content-Type") != "application/json" {
		t.Fatalf("status %d Retry-After %q Content-Type %q, want 429, 1, application/json", resp.StatusCode, resp.Header.Get("Retry-After"), resp.Header.Get("Content-Type"))
	}
	want := `{"error":{"message":"injected fault: too many requests, retry later","type":"RateLimitError","param":null,"code":429}}`
	if string(body) != want {
		t.Errorf("body %s, want %s", body, want)
	}
	wantFaults(t, s, FailRateLimit, 1)
}

func TestFaultHTML503(t *testing.T) {
	s, url := serverURL(t, FailHTML503, Config{})
	resp, body, err := send(t, url, "/v1/chat/completions", `{"messages":[{"role":"user","content":"x"}],"stream":true}`)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 503 || resp.Header.Get("Content-Type") != "text/html" {
		t.Fatalf("status %d Content-Type %q, want 503 text/html", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	if string(body) != html503 || json.Valid(body) || !strings.HasPrefix(string(body), "<html>") {
		t.Errorf("body %q, want nginx's 503 page", body)
	}
	wantFaults(t, s, FailHTML503, 1)
}

// TestFaultNoDone: streams finish (finish_reason, usage) and the response
// ends cleanly, but no [DONE] comes; a non-streamed request is untouched.
func TestFaultNoDone(t *testing.T) {
	s, url := serverURL(t, FailNoDone, Config{})
	_, body, err := send(t, url, "/v1/chat/completions", chatBody(t, "x", map[string]any{"stream": true, "stream_options": map[string]any{"include_usage": true}}))
	if err != nil {
		t.Fatalf("the response should end cleanly: %v", err)
	}
	if strings.Contains(string(body), "[DONE]") {
		t.Fatalf("body has [DONE]: %q", tail(body))
	}
	evs := rawEvents(body)
	last, fin := dataOf(t, evs[len(evs)-1]), dataOf(t, evs[len(evs)-2])
	if u, _ := last["usage"].(map[string]any); u == nil || u["completion_tokens"] == nil {
		t.Errorf("last event %v is not the usage chunk", last)
	}
	if fr := fin["choices"].([]any)[0].(map[string]any)["finish_reason"]; fr != "stop" {
		t.Errorf("finish_reason %v before the usage chunk, want stop", fr)
	}

	_, body, err = send(t, url, "/generate", `{"input_ids":[1],"stream":true}`)
	if err != nil || strings.Contains(string(body), "[DONE]") {
		t.Fatalf("/generate: %v, %q", err, tail(body))
	}
	evs = rawEvents(body)
	if fr := dataOf(t, evs[len(evs)-1])["meta_info"].(map[string]any)["finish_reason"]; fr == nil {
		t.Errorf("/generate's last event has no finish_reason")
	}
	wantFaults(t, s, FailNoDone, 2)

	resp, body, err := send(t, url, "/generate", `{"input_ids":[1]}`)
	if err != nil || resp.StatusCode != 200 || !json.Valid(body) {
		t.Fatalf("non-streamed request: %v %v %q", err, resp, body)
	}
	wantFaults(t, s, FailNoDone, 2)
}

// TestFaultSSEError: one token, then an "event: error" and the end of the
// response: no finish_reason, no [DONE].
func TestFaultSSEError(t *testing.T) {
	s, url := serverURL(t, FailSSEError, Config{})
	for _, tc := range []struct{ path, body string }{
		{"/v1/chat/completions", `{"messages":[{"role":"user","content":"x"}],"stream":true}`},
		{"/v1/completions", `{"prompt":[1],"stream":true}`},
		{"/generate", `{"input_ids":[1],"stream":true}`},
	} {
		resp, body, err := send(t, url, tc.path, tc.body)
		if err != nil || resp.StatusCode != 200 {
			t.Fatalf("%s: %v %v", tc.path, resp, err)
		}
		if !strings.HasSuffix(string(body), "\n\n"+sseErrorEvent) {
			t.Errorf("%s: body %q does not end with the error event", tc.path, body)
		}
		ev := rawEvents(body)
		for _, e := range ev[:len(ev)-1] {
			if strings.Contains(e, "[DONE]") || strings.Contains(e, `"finish_reason":"`) || strings.Contains(e, `"finish_reason":{`) {
				t.Errorf("%s: event %q before the error finishes the stream", tc.path, e)
			}
		}
		p, _ := strings.CutPrefix(ev[len(ev)-1], "event: error\ndata: ")
		if e, _ := decode(t, []byte(p))["error"].(map[string]any); e["code"] != 500.0 {
			t.Errorf("%s: error event data %s", tc.path, p)
		}
	}
	wantFaults(t, s, FailSSEError, 3)
}

// TestFaultFinishReasons: answers stop after one token with finish_reason
// error or abort, streamed and not, on every endpoint.
func TestFaultFinishReasons(t *testing.T) {
	for _, mode := range []string{FailFinishError, FailFinishAbort} {
		t.Run(mode, func(t *testing.T) {
			s, url := serverURL(t, mode, Config{Answers: []Answer{testAnswer}, Accuracy: 1})
			want := strings.TrimPrefix(mode, "finish-")

			_, body, err := send(t, url, "/v1/chat/completions", chatBody(t, testUserText, nil))
			if err != nil {
				t.Fatal(err)
			}
			m := decode(t, body)
			ch := m["choices"].([]any)[0].(map[string]any)
			if ch["finish_reason"] != want || ch["message"].(map[string]any)["content"] != "{" || m["usage"].(map[string]any)["completion_tokens"] != 1.0 {
				t.Errorf("chat: %s", body)
			}

			_, body, err = send(t, url, "/v1/chat/completions", chatBody(t, testUserText, map[string]any{"stream": true}))
			if err != nil {
				t.Fatal(err)
			}
			evs := sseEvents(t, body) // still ends with [DONE]
			fin := decode(t, []byte(evs[len(evs)-1]))["choices"].([]any)[0].(map[string]any)
			if fin["finish_reason"] != want || len(evs) != 2 {
				t.Errorf("chat stream: %q", body)
			}

			_, body, err = send(t, url, "/v1/completions", `{"prompt":[1],"return_token_ids":true}`)
			if err != nil {
				t.Fatal(err)
			}
			ch = decode(t, body)["choices"].([]any)[0].(map[string]any)
			if ch["finish_reason"] != want || !cmp.Equal(ch["token_ids"], toAny(Tokens([]int32{1}, 1))) {
				t.Errorf("completions: %s", body)
			}

			_, body, err = send(t, url, "/generate", `{"input_ids":[1]}`)
			if err != nil {
				t.Fatal(err)
			}
			var r sglangResult
			if err := json.Unmarshal(body, &r); err != nil {
				t.Fatal(err)
			}
			wantFR := map[string]any{"type": "abort", "message": "Aborted", "status_code": nil, "err_type": nil}
			if mode == FailFinishError {
				wantFR = map[string]any{"type": "abort", "message": "injected fault: internal error", "status_code": 500.0, "err_type": "InternalServerError"}
			}
			if d := cmp.Diff(wantFR, r.MetaInfo["finish_reason"]); d != "" || len(r.OutputIDs) != 1 {
				t.Errorf("/generate finish_reason (-want +got):\n%s\n%s", d, body)
			}
			wantFaults(t, s, mode, 4)
		})
	}
}

// TestFaultEndless: a stream goes on past max tokens, never finishing,
// its tokens still the deterministic ones, until the client hangs up;
// then the handler returns.
func TestFaultEndless(t *testing.T) {
	s, url := serverURL(t, FailEndless, Config{IncrementalStream: true})
	resp, err := http.Post(url+"/generate", "application/json", strings.NewReader(`{"input_ids":[7],"sampling_params":{"max_new_tokens":2},"stream":true}`))
	if err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(resp.Body)
	var ids []int32
	const events = 40 // 20 times max_new_tokens
	for len(ids) < events {
		line, err := br.ReadString('\n')
		if err != nil {
			t.Fatalf("after %d tokens: %v", len(ids), err)
		}
		p, ok := strings.CutPrefix(strings.TrimSpace(line), "data: ")
		if !ok {
			continue
		}
		var r sglangResult
		if err := json.Unmarshal([]byte(p), &r); err != nil {
			t.Fatalf("event %q: %v", p, err)
		}
		if r.MetaInfo["finish_reason"] != nil {
			t.Fatalf("endless stream finished: %s", p)
		}
		ids = append(ids, r.OutputIDs...)
	}
	if !slices.Equal(ids[:events], Tokens([]int32{7}, events)) {
		t.Errorf("endless tokens are not Tokens' sequence")
	}
	resp.Body.Close()
	deadline := time.Now().Add(5 * time.Second)
	for s.inFlight.Load() != 0 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if n := s.inFlight.Load(); n != 0 {
		t.Errorf("%d requests still in flight after the client hung up", n)
	}

	// Chat: content keeps coming, finish_reason stays null; Close ends it.
	resp, err = http.Post(url+"/v1/chat/completions", "application/json", strings.NewReader(`{"messages":[{"role":"user","content":"x"}],"max_tokens":1,"stream":true}`))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	br = bufio.NewReader(resp.Body)
	for n := 0; n < 10; {
		line, err := br.ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		if p, ok := strings.CutPrefix(strings.TrimSpace(line), "data: "); ok {
			if fr := decode(t, []byte(p))["choices"].([]any)[0].(map[string]any)["finish_reason"]; fr != nil {
				t.Fatalf("endless chat stream finished: %s", p)
			}
			n++
		}
	}
	t0 := time.Now()
	s.Close()
	if d := time.Since(t0); d > 2*time.Second {
		t.Errorf("Close took %v with an endless stream open", d)
	}
	_, _ = io.ReadAll(br) // returns (EOF or a reset) only because Close ended the stream
	wantFaults(t, s, FailEndless, 2)
}

// TestFaultNoTokenIDs: token-ID answers carry text but no IDs, streamed
// and not; chat is answered normally and not counted.
func TestFaultNoTokenIDs(t *testing.T) {
	s, url := serverURL(t, FailNoTokenIDs, Config{})
	text := wordsOf(Tokens([]int32{3}, 5))

	_, body, err := send(t, url, "/v1/completions", `{"prompt":[3],"max_tokens":5,"return_token_ids":true}`)
	if err != nil {
		t.Fatal(err)
	}
	ch := decode(t, body)["choices"].([]any)[0].(map[string]any)
	if ch["text"] != text || ch["token_ids"] != nil || ch["prompt_token_ids"] != nil {
		t.Errorf("completions: %s", body)
	}
	_, body, err = send(t, url, "/v1/completions", `{"prompt":[3],"max_tokens":5,"return_token_ids":true,"stream":true}`)
	if err != nil {
		t.Fatal(err)
	}
	var got strings.Builder
	for _, ev := range sseEvents(t, body) {
		c := decode(t, []byte(ev))["choices"].([]any)[0].(map[string]any)
		if c["token_ids"] != nil || c["prompt_token_ids"] != nil {
			t.Errorf("completions chunk with IDs: %s", ev)
		}
		got.WriteString(c["text"].(string))
	}
	if got.String() != text {
		t.Errorf("streamed text %q, want %q", got.String(), text)
	}

	_, body, err = send(t, url, "/generate", `{"input_ids":[3],"sampling_params":{"max_new_tokens":5}}`)
	if err != nil {
		t.Fatal(err)
	}
	if m := decode(t, body); m["text"] != text || m["meta_info"] == nil || strings.Contains(string(body), "output_ids") {
		t.Errorf("/generate: %s", body)
	}
	_, body, err = send(t, url, "/generate", `{"input_ids":[3],"sampling_params":{"max_new_tokens":5},"stream":true}`)
	if err != nil {
		t.Fatal(err)
	}
	if evs := sseEvents(t, body); strings.Contains(string(body), "output_ids") || decode(t, []byte(evs[len(evs)-1]))["text"] != text {
		t.Errorf("/generate stream: %q", body)
	}
	wantFaults(t, s, FailNoTokenIDs, 4)

	resp, body, err := send(t, url, "/v1/chat/completions", `{"messages":[{"role":"user","content":"x"}]}`)
	if err != nil || resp.StatusCode != 200 || decode(t, body)["choices"] == nil {
		t.Fatalf("chat: %v %s", err, body)
	}
	wantFaults(t, s, FailNoTokenIDs, 4)
}

// TestKeepAlive: with KeepAlive set, an idle keep-alive connection is
// closed by the server after about that long (the client reads EOF);
// without it, the connection stays open.
func TestKeepAlive(t *testing.T) {
	const keepAlive = 150 * time.Millisecond
	for _, ka := range []time.Duration{keepAlive, 0} {
		_, url := start(t, Config{KeepAlive: ka})
		conn, err := net.Dial("tcp", strings.TrimPrefix(url, "http://"))
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		if _, err := io.WriteString(conn, "GET /health HTTP/1.1\r\nHost: fake\r\n\r\n"); err != nil {
			t.Fatal(err)
		}
		br := bufio.NewReader(conn)
		resp, err := http.ReadResponse(br, nil)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		idle := time.Now()
		_ = conn.SetReadDeadline(time.Now().Add(3 * keepAlive))
		_, err = br.ReadByte()
		closedAfter := time.Since(idle)
		if ka > 0 {
			if !errors.Is(err, io.EOF) {
				t.Fatalf("KeepAlive %v: read on the idle connection gave %v, want EOF", ka, err)
			}
			if closedAfter < ka-10*time.Millisecond {
				t.Errorf("closed after %v, before the keep-alive %v", closedAfter, ka)
			}
		} else if !errors.Is(err, os.ErrDeadlineExceeded) {
			t.Errorf("no KeepAlive: read on the idle connection gave %v, want it to stay open", err)
		}
	}
}

// TestFailModeHelpListsEveryMode keeps the CLI help in step with the modes.
func TestFailModeHelpListsEveryMode(t *testing.T) {
	h := FailModeHelp()
	for _, m := range []string{FailStatus, FailReset, FailStall, FailGarbage, FailCut, FailRateLimit, FailHTML503, FailNoDone, FailSSEError, FailFinishError, FailFinishAbort, FailEndless, FailNoTokenIDs} {
		if !strings.Contains(h, m+": ") {
			t.Errorf("FailModeHelp lacks %q: %s", m, h)
		}
		if _, err := New(Config{FailMode: m}); err != nil {
			t.Errorf("New rejects mode %q: %v", m, err)
		}
	}
	if _, err := New(Config{FailMode: "nope"}); err == nil || !strings.Contains(err.Error(), "no-token-ids") {
		t.Errorf("unknown mode error %v should list the modes", err)
	}
}
