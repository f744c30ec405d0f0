package sut

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/openai/openai-go"
	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"

	"github.com/mlperf-go/mlperf-go/fake"
	"github.com/mlperf-go/mlperf-go/fake/faketest"
	"github.com/mlperf-go/mlperf-go/loadgen/loadgentest"
	"github.com/mlperf-go/mlperf-go/protocol"
	"github.com/mlperf-go/mlperf-go/protocol/openaichat"
	"github.com/mlperf-go/mlperf-go/protocol/openaicompletions"
	"github.com/mlperf-go/mlperf-go/protocol/sglang"
)

// These tests drive the pool against the project's fake endpoint on
// loopback, in each of its fault modes.

// startFake serves a fake endpoint and returns its base URL.
func startFake(t testing.TB, cfg fake.Config) (string, *fake.Server) {
	t.Helper()
	if cfg.OutputTokens == 0 {
		cfg.OutputTokens = 8
	}
	srv, url := faketest.Start(t, cfg)
	return url, srv
}

// wireAPI is a wire protocol with the bodies the tests send over it.
type wireAPI struct{ proto protocol.Protocol }

// wireAPIs are every registered protocol: the pool must handle each one's
// failures, and the fake serves them all.
func wireAPIs() []wireAPI {
	var out []wireAPI
	for _, p := range protocol.All() {
		out = append(out, wireAPI{p})
	}
	return out
}

func (a wireAPI) name() string { return a.proto.Name() }

// path is where the fake serves the protocol, for its request counts.
func (a wireAPI) path() string { return a.proto.Path() }

// answersTokenIDs reports whether the protocol's answers carry token IDs
// (which the fake's no-token-ids fault takes away).
func (a wireAPI) answersTokenIDs(t testing.TB) bool {
	s, ok := a.proto.(protocol.Serving)
	if !ok {
		t.Fatalf("protocol %s has no server side (protocol.Serving), so the fake does not serve it", a.name())
	}
	return s.AnswersTokenIDs()
}

// body builds request i through the protocol's encoder: the token prompt
// [1 2 i], or a user message "question i", capped at 8 output tokens.
func (a wireAPI) body(t testing.TB, i int, stream bool) []byte {
	params := a.proto.DefaultParams()
	if err := protocol.DecodeGenerationConfig(fmt.Appendf(nil, `{%q: 8}`, params.MaxTokensKey()), params); err != nil {
		t.Fatal(err)
	}
	var b []byte
	var err error
	switch enc := a.proto.(type) {
	case protocol.TokenEncoder:
		b, err = enc.EncodeTokens("", []int32{1, 2, int32(i)}, params, stream)
	case protocol.MessagesEncoder:
		msgs := []openai.ChatCompletionMessageParamUnion{openai.UserMessage(fmt.Sprintf("question %d", i))}
		b, err = enc.AppendMessages(nil, fake.DefaultModel, msgs, nil, params, stream)
	case protocol.AudioEncoder:
		b, err = enc.EncodeAudio(fake.DefaultModel, "q.wav", testWAV(i), params)
	default:
		t.Fatalf("protocol %s has neither a token nor a messages encoder: teach wireAPI.body its requests", a.name())
	}
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// testWAV is a tiny 16 kHz mono 16-bit WAV whose one sample is i.
func testWAV(i int) []byte {
	b := []byte("RIFF\x26\x00\x00\x00WAVEfmt \x10\x00\x00\x00\x01\x00\x01\x00\x80\x3e\x00\x00\x00\x7d\x00\x00\x02\x00\x10\x00data\x02\x00\x00\x00")
	return append(b, byte(i), byte(i>>8))
}

// bodies are requests 0 to n-1.
func (a wireAPI) bodies(t testing.TB, n int, stream bool) sliceBodies {
	b := make(sliceBodies, n)
	for i := range b {
		b[i] = a.body(t, i, stream)
	}
	return b
}

// apiOf is the wire API of p, for tests that need one protocol, any.
func apiOf(p protocol.Protocol) wireAPI { return wireAPI{p} }

// saysInOrder reports whether msg contains each of words, in order.
func saysInOrder(msg string, words []string) bool {
	for _, w := range words {
		i := strings.Index(msg, w)
		if i < 0 {
			return false
		}
		msg = msg[i+len(w):]
	}
	return true
}

// runAll issues n samples, closes the pool and checks that every sample
// was completed exactly once (with its first token first when
// streaming). It returns the stats and the final responses.
func runAll(t *testing.T, cfg Config, n int) (Stats, *recorder) {
	t.Helper()
	p, rec := newPool(t, cfg)
	p.IssueQuery(samples(n))
	p.Close()
	firsts, finals, dups := rec.snapshot()
	if len(finals) != n || len(dups) != 0 {
		t.Fatalf("%d of %d samples completed, duplicates/misordering %v", len(finals), n, dups)
	}
	if cfg.Stream && len(firsts) != n {
		t.Fatalf("%d of %d first tokens", len(firsts), n)
	}
	st := p.Stats()
	if st.Completed != int64(n) {
		t.Fatalf("stats %+v", st)
	}
	return st, rec
}

// TestFaultModesFailClearly: answers the server ended in error, or that
// lack what LoadGen needs, fail the sample with a message that says what
// was seen, streamed or not.
func TestFaultModesFailClearly(t *testing.T) {
	type tc struct {
		mode   string
		api    wireAPI
		stream bool
		reason string
		msg    []string // said in this order
	}
	var cases []tc
	for _, a := range wireAPIs() {
		cases = append(cases, tc{fake.FailSSEError, a, true, ReasonServerError, []string{"error event"}})
		for _, stream := range []bool{false, true} {
			// Each protocol says in its own words that the server ended
			// the answer with a failed finish reason, and names it.
			cases = append(cases,
				tc{fake.FailFinishError, a, stream, ReasonServerError, []string{"finish_reason", "error"}},
				tc{fake.FailFinishAbort, a, stream, ReasonServerError, []string{"finish_reason", "abort"}})
			if a.answersTokenIDs(t) {
				// ... and names the token IDs it lacks.
				cases = append(cases, tc{fake.FailNoTokenIDs, a, stream, ReasonMalformed, []string{"_ids"}})
			}
		}
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s/%s/stream=%v", c.mode, c.api.name(), c.stream), func(t *testing.T) {
			url, srv := startFake(t, fake.Config{FailRate: 1, FailMode: c.mode})
			const n = 6
			st, rec := runAll(t, Config{Endpoints: []string{url}, API: c.api.proto, Stream: c.stream,
				Bodies: c.api.bodies(t, n, c.stream), Concurrency: 3}, n)
			if faults := srv.Stats().Faults[c.mode]; faults != n {
				t.Fatalf("the fake injected %d faults, want %d", faults, n)
			}
			if st.Failed != n || st.FailuresByReason[c.reason] != n {
				t.Fatalf("failures %v, want %d %s", st.FailuresByReason, n, c.reason)
			}
			for _, f := range st.FirstFailures {
				if !saysInOrder(f.Message, c.msg) || f.Endpoint == "" || f.Attempts != 1 {
					t.Errorf("failure %+v: want the message to say %q, and the endpoint and one attempt", f, c.msg)
				}
			}
			_, finals, _ := rec.snapshot()
			for id, r := range finals {
				if len(r.Data) != 0 || r.NTokens != 0 {
					t.Errorf("failed sample %d completed with %d bytes, %d tokens", id, len(r.Data), r.NTokens)
				}
			}
		})
	}
}

// TestNoDoneAccepted: a stream that ends after its finish_reason (and,
// for chat, its usage chunk) without data: [DONE] is a complete answer,
// as OpenAI's client takes it; a chat stream without the usage chunk is
// not, since the token count is missing.
func TestNoDoneAccepted(t *testing.T) {
	for _, a := range wireAPIs() {
		t.Run(a.name(), func(t *testing.T) {
			url, srv := startFake(t, fake.Config{FailRate: 1, FailMode: fake.FailNoDone})
			const n = 6
			st, rec := runAll(t, Config{Endpoints: []string{url}, API: a.proto, Stream: true, Bodies: a.bodies(t, n, true), Concurrency: 3}, n)
			if srv.Stats().Faults[fake.FailNoDone] != n || st.Failed != 0 {
				t.Fatalf("faults %v, stats %+v", srv.Stats().Faults, st)
			}
			_, finals, _ := rec.snapshot()
			for id, r := range finals {
				if len(r.Data) == 0 || r.NTokens <= 0 {
					t.Errorf("sample %d: %d bytes, %d tokens", id, len(r.Data), r.NTokens)
				}
			}
		})
	}
	t.Run("chat without usage", func(t *testing.T) {
		url, _ := startFake(t, fake.Config{FailRate: 1, FailMode: fake.FailNoDone})
		body := []byte(fmt.Sprintf(`{"model":%q,"messages":[{"role":"user","content":"q"}],"stream":true}`, fake.DefaultModel))
		st, _ := runAll(t, Config{Endpoints: []string{url}, API: openaichat.Protocol, Stream: true, Bodies: sliceBodies{body}}, 1)
		if st.FailuresByReason[ReasonTruncated] != 1 || !strings.Contains(st.FirstFailures[0].Message, `finish_reason "stop" but no usage chunk`) {
			t.Errorf("stats %+v", st)
		}
	})
}

// TestEndlessStreamHitsByteCap: a stream that never ends fails once what
// it accumulated passes MaxResponseBytes, long before its timeout.
func TestEndlessStreamHitsByteCap(t *testing.T) {
	for _, a := range wireAPIs() {
		t.Run(a.name(), func(t *testing.T) {
			url, _ := startFake(t, fake.Config{FailRate: 1, FailMode: fake.FailEndless})
			const n, limit = 4, 2048
			st, _ := runAll(t, Config{Endpoints: []string{url}, API: a.proto, Stream: true, Bodies: a.bodies(t, n, true),
				Concurrency: n, MaxResponseBytes: limit, Timeout: time.Minute}, n)
			if st.FailuresByReason[ReasonTooLarge] != n {
				t.Fatalf("failures %v, want %d %s", st.FailuresByReason, n, ReasonTooLarge)
			}
			if m := st.FirstFailures[0].Message; !strings.Contains(m, fmt.Sprint(limit)) {
				t.Errorf("message %q does not name the limit", m)
			}
		})
	}
}

// TestLongSSELineHitsByteCap: one endless server-sent-event line is
// bounded too.
func TestLongSSELineHitsByteCap(t *testing.T) {
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "data: {\"choices\":[{\"delta\":{\"content\":\"")
		for range 64 {
			if _, err := io.WriteString(w, strings.Repeat("x", 1024)); err != nil {
				return
			}
		}
	})
	st, _ := runAll(t, Config{Endpoints: []string{srv.URL}, API: openaichat.Protocol, Stream: true,
		Bodies: sliceBodies{[]byte(`{}`)}, MaxResponseBytes: 4096}, 1)
	if st.FailuresByReason[ReasonTooLarge] != 1 || !strings.Contains(st.FirstFailures[0].Message, "line longer than 4096") {
		t.Errorf("stats %+v", st)
	}
}

// TestRateLimitRetried: 429s with Retry-After are waited out and sent
// again, and every retry is counted; with retries off each is a failure;
// a Retry-After past the sample's deadline is not waited for.
func TestRateLimitRetried(t *testing.T) {
	const n = 24
	a := apiOf(openaichat.Protocol)
	t.Run("retried", func(t *testing.T) {
		url, srv := startFake(t, fake.Config{FailRate: 0.25, FailMode: fake.FailRateLimit, Seed: 5})
		t0 := time.Now()
		st, _ := runAll(t, Config{Endpoints: []string{url}, API: a.proto, Bodies: a.bodies(t, n, false), Concurrency: 8, Retries: 10}, n)
		faults := int64(srv.Stats().Faults[fake.FailRateLimit])
		if faults == 0 || st.Failed != 0 {
			t.Fatalf("%d faults injected, stats %+v", faults, st)
		}
		if st.Retries != faults || st.RetriesByCause[RetryRateLimited] != faults {
			t.Errorf("retries %d %v, want %d 429 retries", st.Retries, st.RetriesByCause, faults)
		}
		if el := time.Since(t0); el < fake.RetryAfterSeconds*time.Second {
			t.Errorf("done in %v: Retry-After %ds not honoured", el, fake.RetryAfterSeconds)
		}
	})
	t.Run("retries off", func(t *testing.T) {
		url, srv := startFake(t, fake.Config{FailRate: 0.25, FailMode: fake.FailRateLimit, Seed: 5})
		st, _ := runAll(t, Config{Endpoints: []string{url}, API: a.proto, Bodies: a.bodies(t, n, false), Concurrency: 8, Retries: NoRetries}, n)
		faults := int64(srv.Stats().Faults[fake.FailRateLimit])
		if st.Failed != faults || st.Retries != 0 {
			t.Fatalf("%d faults, stats %+v", faults, st)
		}
		for _, f := range st.FirstFailures {
			if f.Status != 429 || f.Reason != ReasonHTTPStatus {
				t.Errorf("failure %+v, want status 429", f)
			}
		}
	})
	t.Run("past the deadline", func(t *testing.T) {
		url, _ := startFake(t, fake.Config{FailRate: 1, FailMode: fake.FailRateLimit})
		st, _ := runAll(t, Config{Endpoints: []string{url}, API: a.proto, Bodies: a.bodies(t, 2, false), Timeout: 500 * time.Millisecond}, 2)
		if st.Failed != 2 || st.Retries != 0 || !strings.Contains(st.FirstFailures[0].Message, "would pass the sample's 500ms timeout") {
			t.Errorf("stats %+v", st)
		}
	})
}

// TestHTML503Retried: a proxy's 503 page is retried with backoff (no
// Retry-After), counted apart from 429s.
func TestHTML503Retried(t *testing.T) {
	url, srv := startFake(t, fake.Config{FailRate: 0.3, FailMode: fake.FailHTML503, Seed: 2})
	const n = 30
	a := apiOf(sglang.Protocol)
	st, _ := runAll(t, Config{Endpoints: []string{url}, API: a.proto, Stream: true, Bodies: a.bodies(t, n, true), Concurrency: 4, Retries: 10}, n)
	faults := int64(srv.Stats().Faults[fake.FailHTML503])
	if faults == 0 || st.Failed != 0 || st.RetriesByCause[RetryUnavailable] != faults {
		t.Errorf("%d faults, stats %+v", faults, st)
	}
}

// TestTwoEndpointsOneDead: a dead endpoint is ejected and the load goes
// to the live one. Refused connections are retried there, so every
// sample succeeds; an endpoint that answers 500 costs only the samples
// sent to it before it was ejected, and sees little load after.
func TestTwoEndpointsOneDead(t *testing.T) {
	const n = 200
	a := apiOf(openaicompletions.Protocol)
	t.Run("refusing connections", func(t *testing.T) {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		dead := "http://" + ln.Addr().String()
		ln.Close()
		url, srv := startFake(t, fake.Config{})
		st, _ := runAll(t, Config{Endpoints: []string{dead, url}, API: a.proto, Bodies: a.bodies(t, n, false), Concurrency: 8}, n)
		if st.Failed != 0 || st.RetriesByCause[RetryConnection] == 0 || st.Ejections == 0 {
			t.Errorf("stats %+v", st)
		}
		if got := srv.Stats().Requests[a.path()]; got != n {
			t.Errorf("the live endpoint answered %d requests, want %d", got, n)
		}
		t.Logf("%d retries, %d ejections", st.Retries, st.Ejections)
	})
	t.Run("answering 500", func(t *testing.T) {
		deadURL, dead := startFake(t, fake.Config{FailRate: 1, FailMode: fake.FailStatus})
		url, live := startFake(t, fake.Config{TTFT: time.Millisecond})
		st, _ := runAll(t, Config{Endpoints: []string{deadURL, url}, API: a.proto, Bodies: a.bodies(t, n, false), Concurrency: 8}, n)
		deadReqs := dead.Stats().Requests[a.path()]
		if st.Failed != int64(deadReqs) || st.Failed > n/10 || st.Ejections == 0 {
			t.Errorf("%d requests to the dead endpoint, stats %+v; want almost every sample served by the live one", deadReqs, st)
		}
		if got := live.Stats().Requests[a.path()]; got != n-deadReqs {
			t.Errorf("the live endpoint answered %d, want %d", got, n-deadReqs)
		}
		t.Logf("%d of %d samples failed, on the dead endpoint", st.Failed, n)
	})
}

// TestKeepAliveClosedIdle: a server closing idle keep-alive connections
// after a short time costs no sample.
func TestKeepAliveClosedIdle(t *testing.T) {
	const idle = 30 * time.Millisecond
	url, _ := startFake(t, fake.Config{KeepAlive: idle})
	a := apiOf(openaichat.Protocol)
	p, rec := newPool(t, Config{Endpoints: []string{url}, API: a.proto, Bodies: a.bodies(t, 1, false), Concurrency: 4})
	const n = 40
	qs := samples(n)
	for i := range qs {
		qs[i].Index = 0
		p.IssueQuery(qs[i : i+1])
		time.Sleep(idle - 3*time.Millisecond + time.Duration(i%7)*time.Millisecond)
	}
	p.Close()
	_, finals, dups := rec.snapshot()
	if st := p.Stats(); len(finals) != n || len(dups) != 0 || st.Failed != 0 {
		t.Fatalf("%d completions, dups %v, stats %+v", len(finals), dups, st)
	}
	t.Logf("%d retries", p.Stats().Retries)
}

// TestConfigValidation: out-of-range settings are refused naming the
// field, and no secret shows in the error.
func TestConfigValidation(t *testing.T) {
	base := func() Config {
		return Config{Endpoints: []string{"http://127.0.0.1:1"}, API: sglang.Protocol, Bodies: sliceBodies{}, Completer: newRecorder()}
	}
	for _, tc := range []struct {
		name, field, msg string
		edit             func(*Config)
	}{
		{"no endpoint", "Endpoints", "no endpoint", func(c *Config) { c.Endpoints = nil }},
		{"huge concurrency", "Concurrency", "1000000000 is out of range", func(c *Config) { c.Concurrency = 1e9 }},
		{"negative concurrency", "Concurrency", "out of range", func(c *Config) { c.Concurrency = -1 }},
		{"negative timeout", "Timeout", "negative", func(c *Config) { c.Timeout = -time.Second }},
		{"retries", "Retries", "out of range", func(c *Config) { c.Retries = 1000 }},
		{"tiny byte cap", "MaxResponseBytes", "at least 1024", func(c *Config) { c.MaxResponseBytes = 10 }},
		{"bad limit", "MaxFailures", "Fraction", func(c *Config) { c.MaxFailures.Fraction = 2 }},
		{"no scheme", "Endpoints", "want an http:// or https:// URL", func(c *Config) { c.Endpoints = []string{"127.0.0.1:8000"} }},
		{"credentials", "Endpoints", "http://127.0.0.1:8000/v1 carries credentials", func(c *Config) {
			c.Endpoints = []string{"http://127.0.0.1:9", "http://user:s3cr3t@127.0.0.1:8000/v1"}
		}},
		{"credentials without scheme", "Endpoints", "#1", func(c *Config) { c.Endpoints = []string{"user:s3cr3t@127.0.0.1:8000"} }},
		{"unparsable with credentials", "Endpoints", "not a URL", func(c *Config) { c.Endpoints = []string{"http://user:s3cr3t@[::1"} }},
		{"key with CR LF", "APIKey", "control character at byte 6", func(c *Config) { c.APIKey = "s3cr3t\r\nX-Injected: 1" }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := base()
			tc.edit(&cfg)
			for _, err := range []error{cfg.Validate(), func() error { _, err := New(context.Background(), cfg); return err }()} {
				var ce *ConfigError
				if !errors.As(err, &ce) || ce.Field != tc.field || !strings.Contains(err.Error(), tc.msg) {
					t.Fatalf("error %v, want a ConfigError for %s saying %q", err, tc.field, tc.msg)
				}
				if strings.Contains(err.Error(), "s3cr3t") {
					t.Fatalf("error %q shows the secret", err)
				}
			}
		})
	}
}

// TestSecretsNeverLogged: the API key never appears in any log entry or
// failure record, whatever fails.
func TestSecretsNeverLogged(t *testing.T) {
	const key = "sk-s3cr3t-key"
	core, logs := observer.New(zap.DebugLevel)
	var mu sync.Mutex
	var records []Failure
	for _, mode := range []string{fake.FailStatus, fake.FailRateLimit, fake.FailReset} {
		url, _ := startFake(t, fake.Config{FailRate: 1, FailMode: mode})
		a := apiOf(openaichat.Protocol)
		runAll(t, Config{Endpoints: []string{url}, API: a.proto, Bodies: a.bodies(t, 3, false), APIKey: key, Logger: zap.New(core),
			Retries: 1, OnFailure: func(f Failure) { mu.Lock(); records = append(records, f); mu.Unlock() }}, 3)
	}
	if logs.Len() == 0 || len(records) != 9 {
		t.Fatalf("%d log entries, %d failure records", logs.Len(), len(records))
	}
	for _, e := range logs.All() {
		if s := fmt.Sprint(e.Message, e.ContextMap()); strings.Contains(s, "s3cr3t") {
			t.Errorf("log entry shows the key: %s", s)
		}
	}
	for _, f := range records {
		if strings.Contains(fmt.Sprint(f), "s3cr3t") {
			t.Errorf("failure record shows the key: %+v", f)
		}
	}
}

// TestFailureRecords: every failure reaches OnFailure, not only the first
// MaxFailureRecords, with its index, class, endpoint and status.
func TestFailureRecords(t *testing.T) {
	url, _ := startFake(t, fake.Config{FailRate: 1, FailMode: fake.FailStatus})
	const n = 100
	a := apiOf(sglang.Protocol)
	var got []Failure
	st, _ := runAll(t, Config{Endpoints: []string{url}, API: a.proto, Bodies: a.bodies(t, n, false), Concurrency: 4,
		OnFailure: func(f Failure) { got = append(got, f) }}, n) // OnFailure calls never overlap
	if len(got) != n || st.Failed != n || len(st.FirstFailures) != DefaultMaxFailureRecords {
		t.Fatalf("%d records, stats %+v", len(got), st)
	}
	seen := make([]int, n)
	for _, f := range got {
		seen[f.Index]++
		if f.Reason != ReasonHTTPStatus || f.Status != 500 || !strings.HasPrefix(f.Endpoint, url) || f.ID != uint64(1000+f.Index) {
			t.Errorf("record %+v", f)
		}
	}
	if d := cmp.Diff(onesN(n), seen); d != "" {
		t.Errorf("records per sample (-want +got):\n%s", d)
	}
}

func onesN(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = 1
	}
	return s
}

// TestMaxFailuresStopsTheRun: once the limit is passed the pool calls
// Abort once, cancels what is left, and still completes every sample
// once; the server sees only the requests before the stop.
func TestMaxFailuresStopsTheRun(t *testing.T) {
	loadgentest.Require(t)
	for _, limit := range []string{"90%", "5"} {
		t.Run(limit, func(t *testing.T) {
			l, err := ParseFailureLimit(limit)
			if err != nil {
				t.Fatal(err)
			}
			url, srv := startFake(t, fake.Config{FailRate: 1, FailMode: fake.FailStatus, TTFT: 2 * time.Millisecond})
			const n = 2000
			a := apiOf(openaicompletions.Protocol)
			var aborts []error
			var mu sync.Mutex
			st, _ := runAll(t, Config{Endpoints: []string{url}, API: a.proto, Bodies: a.bodies(t, n, false), Concurrency: 4, MaxFailures: l,
				Abort: func(err error) { mu.Lock(); aborts = append(aborts, err); mu.Unlock() }}, n)
			waitFor(t, "abort", func() bool { mu.Lock(); defer mu.Unlock(); return len(aborts) > 0 })
			mu.Lock()
			defer mu.Unlock()
			if len(aborts) != 1 || !errors.Is(aborts[0], ErrTooManyFailures) || st.Stopped != aborts[0].Error() {
				t.Fatalf("aborts %v, stopped %q", aborts, st.Stopped)
			}
			reqs := srv.Stats().Requests[a.path()]
			if reqs >= n/4 || st.Failed != n || st.FailuresByReason[ReasonCanceled] < n-int64(reqs) {
				t.Errorf("%d requests sent, stats %+v", reqs, st)
			}
			t.Logf("stopped after %d requests: %s", reqs, st.Stopped)
		})
	}
}

func TestParseFailureLimit(t *testing.T) {
	for in, want := range map[string]FailureLimit{
		"off": {}, "90%": {Fraction: 0.9, MinSamples: DefaultFailureLimitMinSamples}, " 5 ": {Count: 5}, "100%": {Fraction: 1, MinSamples: DefaultFailureLimitMinSamples},
	} {
		got, err := ParseFailureLimit(in)
		if err != nil || got != want {
			t.Errorf("ParseFailureLimit(%q) = %+v, %v; want %+v", in, got, err, want)
		}
		if back, _ := ParseFailureLimit(got.String()); back != got {
			t.Errorf("%q: String %q reads back as %+v", in, got.String(), back)
		}
	}
	for _, bad := range []string{"", "0", "-3", "0%", "101%", "x%", "ten"} {
		if _, err := ParseFailureLimit(bad); err == nil {
			t.Errorf("ParseFailureLimit(%q) accepted", bad)
		}
	}
	l := FailureLimit{Fraction: 0.9, MinSamples: 50}
	for _, c := range []struct {
		failed, finished int64
		want             bool
	}{{45, 49, false}, {44, 50, false}, {45, 50, true}, {90, 100, true}, {89, 100, false}} {
		if got := l.exceeded(c.failed, c.finished); got != c.want {
			t.Errorf("%d of %d: exceeded %v", c.failed, c.finished, got)
		}
	}
}
