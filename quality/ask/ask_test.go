package ask

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mlperf-go/mlperf-go/protocol"
	"github.com/mlperf-go/mlperf-go/sut"
)

// echoServer answers every chat prompt with the prompt reversed, after
// delay, counting the requests in flight at once.
type echoServer struct {
	delay         time.Duration
	fail          func(prompt string) int // an HTTP status to fail with, 0 for none
	inFlight, max atomic.Int64
	gate          chan struct{} // if set, each answer waits for it
}

func (s *echoServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	n := s.inFlight.Add(1)
	defer s.inFlight.Add(-1)
	for m := s.max.Load(); n > m && !s.max.CompareAndSwap(m, n); m = s.max.Load() {
	}
	var req struct {
		Messages []struct{ Content string } `json:"messages"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || len(req.Messages) != 1 {
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	p := req.Messages[0].Content
	if s.fail != nil {
		if code := s.fail(p); code != 0 {
			http.Error(w, "no", code)
			return
		}
	}
	if s.gate != nil {
		select {
		case <-s.gate:
		case <-r.Context().Done():
			return
		}
	}
	time.Sleep(s.delay)
	b, _ := json.Marshal(reverse(p))
	fmt.Fprintf(w, `{"choices":[{"message":{"content":%s}}],"usage":{"completion_tokens":1}}`, b)
}

func reverse(s string) string {
	r := []rune(s)
	for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
		r[i], r[j] = r[j], r[i]
	}
	return string(r)
}

func prompts(n int) []string {
	p := make([]string, n)
	for i := range p {
		p[i] = fmt.Sprintf("prompt %03d ünï", i)
	}
	return p
}

// TestAskAnswersInOrderWithinConcurrency: every prompt gets its own
// answer, in prompt order, never more than Concurrency in flight, each
// with its latency.
func TestAskAnswersInOrderWithinConcurrency(t *testing.T) {
	t.Parallel()
	s := &echoServer{delay: 5 * time.Millisecond}
	srv := httptest.NewServer(s)
	defer srv.Close()
	ps := prompts(60)
	res, err := Ask(context.Background(), Config{Endpoints: []string{srv.URL}, Concurrency: 4}, ps)
	if err != nil {
		t.Fatal(err)
	}
	for i, a := range res.Answers {
		if a.Text != reverse(ps[i]) || a.Failed || a.NotAsked || a.Latency < s.delay {
			t.Fatalf("answer %d: %+v", i, a)
		}
	}
	if m := s.max.Load(); m > 4 || m < 2 {
		t.Errorf("%d requests in flight at most, want 2 to 4 (the concurrency)", m)
	}
	if res.Failed() != 0 || res.Stopped != "" || res.Stats.Completed != 60 {
		t.Errorf("failed %d, stopped %q, stats %+v", res.Failed(), res.Stopped, res.Stats)
	}
}

// TestAskStopsAtTheFailureLimit: past MaxFailures the run stops; what was
// never sent is NotAsked, and Stopped says why.
func TestAskStopsAtTheFailureLimit(t *testing.T) {
	t.Parallel()
	s := &echoServer{fail: func(string) int { return http.StatusInternalServerError }}
	srv := httptest.NewServer(s)
	defer srv.Close()
	res, err := Ask(context.Background(), Config{Endpoints: []string{srv.URL}, Concurrency: 2, MaxFailures: sut.FailureLimit{Count: 3}}, prompts(200))
	if err != nil {
		t.Fatal(err)
	}
	notAsked := 0
	for _, a := range res.Answers {
		if a.NotAsked {
			notAsked++
		}
	}
	if !strings.Contains(res.Stopped, "too many failed samples") || notAsked < 190 || res.Failed() != 200 {
		t.Errorf("stopped %q, %d not asked, %d failed of 200", res.Stopped, notAsked, res.Failed())
	}
	// The first three to fail (whichever they were: two are in flight at
	// once) failed by their status; the rest were cancelled or not asked.
	byStatus := 0
	for _, a := range res.Answers {
		switch {
		case a.Reason == sut.ReasonHTTPStatus && strings.Contains(a.Error, "500"):
			byStatus++
		case a.Reason != sut.ReasonCanceled && !a.NotAsked:
			t.Errorf("answer %+v: want a 500, cancelled, or not asked", a)
		}
	}
	if byStatus < 3 {
		t.Errorf("%d answers failed by their 500, want at least the limit's 3", byStatus)
	}
}

// TestAskCancelled: cancelling the context ends the run promptly with
// what was answered.
func TestAskCancelled(t *testing.T) {
	t.Parallel()
	s := &echoServer{gate: make(chan struct{})}
	srv := httptest.NewServer(s)
	defer srv.Close()
	ctx, cancel := context.WithCancelCause(context.Background())
	go func() {
		for s.inFlight.Load() < 2 {
			time.Sleep(time.Millisecond)
		}
		cancel(errors.New("interrupted"))
	}()
	res, err := Ask(ctx, Config{Endpoints: []string{srv.URL}, Concurrency: 2}, prompts(50))
	if err != nil {
		t.Fatal(err)
	}
	if res.Stopped != "interrupted" || res.Failed() != 50 {
		t.Errorf("stopped %q, %d failed", res.Stopped, res.Failed())
	}
}

func TestAskRefusesBadConfig(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		cfg  Config
		want string
	}{
		{Config{}, "no endpoint"},
		{Config{Endpoints: []string{"http://u:p@h"}}, "credentials"},
		{Config{Endpoints: []string{"http://h"}, API: "grpc"}, "use chat"},
	} {
		if _, err := Ask(context.Background(), c.cfg, []string{"x"}); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Ask(%+v): %v, want %q", c.cfg, err, c.want)
		}
	}
	if _, err := Ask(context.Background(), Config{Endpoints: []string{"http://h"}}, nil); err == nil {
		t.Errorf("Ask without prompts did not refuse")
	}
}

func TestTextDecode(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		body, text string
		tokens     int64
		err        string
	}{
		{`{"choices":[{"text":" B\n","finish_reason":"length"}],"usage":{"completion_tokens":2}}`, " B\n", 2, ""},
		{`{"choices":[{"text":"é"}]}`, "é", 0, ""},
		{`{"choices":[{"text":"x","finish_reason":"abort"}]}`, "", 0, "abort"},
		{`{"choices":[]}`, "", 0, "no choices[0].text"},
		{`{"error":{"message":"model not found"}}`, "", 0, "model not found"},
		{`not json`, "", 0, "not JSON"},
	} {
		out, n, err := textCompletions{}.DecodeResponse([]byte("pre:"), []byte(c.body))
		switch {
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s: error %v, want %q", c.body, err, c.err)
		case c.err == "" && (err != nil || string(out) != "pre:"+c.text || n != c.tokens):
			t.Errorf("%s: %q, %d, %v", c.body, out, n, err)
		}
	}
	var se *protocol.ServerError
	if _, _, err := (textCompletions{}).DecodeResponse(nil, []byte(`{"error":"x"}`)); !errors.As(err, &se) {
		t.Errorf("an error member is %T, want *protocol.ServerError", err)
	}
}

// FuzzTextDecode: the decoder never panics, and on success appends the
// text after what out held.
func FuzzTextDecode(f *testing.F) {
	for _, s := range []string{`{"choices":[{"text":"A"}]}`, `{"choices":[{"text":null}]}`, `{"error":null,"choices":[{"text":"\u00e9","finish_reason":"stop"}]}`, `[]`, `{"choices":[{"text":"x"}],"usage":{"completion_tokens":-1}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		out, _, err := textCompletions{}.DecodeResponse([]byte("pre"), body)
		if string(out[:3]) != "pre" {
			t.Fatalf("the prefix was overwritten: %q", out)
		}
		if err != nil && len(out) != 3 {
			t.Fatalf("an error appended %q", out)
		}
	})
}

// TestServedModel: the one model a server lists is taken; several, none,
// or no list is an error saying to pass --model.
func TestServedModel(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		list, want, err string
	}{
		{`{"data":[{"id":"llama"}]}`, "llama", ""},
		{`{"data":[{"id":"a"},{"id":"b"}]}`, "", "serves a, b: pass --model NAME"},
		{`{"data":[]}`, "", "serves no model"},
		{`{}`, "", "not an OpenAI model list"},
	} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path != "/v1/models" {
				http.NotFound(w, r)
				return
			}
			fmt.Fprint(w, c.list)
		}))
		got, err := ServedModel(context.Background(), srv.URL+"/v1", "")
		srv.Close()
		if got != c.want || (c.err == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), c.err)) {
			t.Errorf("%s: %q, %v; want %q, %q", c.list, got, err, c.want, c.err)
		}
	}
}

// TestPreflight: a server that lists other models is refused, naming
// them and the fix.
func TestPreflight(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `{"data":[{"id":"served"}]}`)
	}))
	defer srv.Close()
	if err := Preflight(context.Background(), []string{srv.URL}, "served", ""); err != nil {
		t.Errorf("the served model: %v", err)
	}
	if err := Preflight(context.Background(), []string{srv.URL}, "other", ""); err == nil || !strings.Contains(err.Error(), "serves served") || !strings.Contains(err.Error(), "--model") {
		t.Errorf("another model: %v", err)
	}
}
