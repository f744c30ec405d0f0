package fake

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

// start builds and starts a server on loopback; it closes with the test.
func start(t testing.TB, cfg Config) (*Server, string) {
	t.Helper()
	s, err := New(cfg)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	url, err := s.Start("127.0.0.1:0")
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s, url
}

// post sends a JSON body and returns status, content type and body.
func post(t testing.TB, client *http.Client, url, body string) (int, string, []byte) {
	t.Helper()
	resp, err := client.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatalf("POST %s: %v", url, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("reading %s: %v", url, err)
	}
	return resp.StatusCode, resp.Header.Get("Content-Type"), b
}

// decode unmarshals JSON into a generic value, failing the test on error.
func decode(t testing.TB, b []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("response is not a JSON object: %v\n%s", err, b)
	}
	return m
}

// sseEvents splits an SSE body into the data payloads of its events and
// checks the framing: every event is one "data: " line, the last is [DONE].
func sseEvents(t testing.TB, body []byte) []string {
	t.Helper()
	if !bytes.HasSuffix(body, []byte("\n\n")) {
		t.Fatalf("SSE body does not end with a blank line: %q", tail(body))
	}
	var out []string
	for _, ev := range strings.Split(strings.TrimSuffix(string(body), "\n\n"), "\n\n") {
		if !strings.HasPrefix(ev, "data: ") || strings.Contains(ev, "\n") {
			t.Fatalf("malformed SSE event %q", ev)
		}
		out = append(out, strings.TrimPrefix(ev, "data: "))
	}
	if len(out) == 0 || out[len(out)-1] != "[DONE]" {
		t.Fatalf("SSE stream does not end with [DONE]: %q", tail(body))
	}
	return out[:len(out)-1]
}

func tail(b []byte) []byte {
	if len(b) > 200 {
		return b[len(b)-200:]
	}
	return b
}

// wordsOf is the fake's expected text for tokens, built independently of
// appendTokenText.
func wordsOf(ids []int32) string {
	var sb strings.Builder
	for _, id := range ids {
		sb.WriteString(TokenText(id))
	}
	return sb.String()
}

func toAny(ids []int32) []any {
	out := make([]any, len(ids))
	for i, v := range ids {
		out[i] = float64(v)
	}
	return out
}
