package sut

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/mlperf-go/mlperf-go/loadgen"
	"github.com/mlperf-go/mlperf-go/protocol/openaicompletions"
	"github.com/mlperf-go/mlperf-go/protocol/sglang"
	"github.com/mlperf-go/mlperf-go/qsl"
)

// qsl.Library is what the CLI passes as Bodies.
var _ Bodies = (*qsl.Library)(nil)

// sliceBodies serves bodies by index; nil means not loaded.
type sliceBodies [][]byte

func (s sliceBodies) Body(i int) []byte {
	if i < 0 || i >= len(s) {
		return nil
	}
	return s[i]
}

// recorder is a loadgen.Completer that keeps copies of everything it is
// given and notes duplicates and ordering problems.
type recorder struct {
	mu       sync.Mutex
	firsts   map[uint64]loadgen.Response
	finals   map[uint64]loadgen.Response
	dups     []string
	order    []string // "first:<id>" / "final:<id>"
	calls    int
	maxBatch int
}

func newRecorder() *recorder {
	return &recorder{firsts: map[uint64]loadgen.Response{}, finals: map[uint64]loadgen.Response{}}
}

func cloneResp(r loadgen.Response) loadgen.Response {
	r.Data = append([]byte(nil), r.Data...)
	return r
}

func (r *recorder) QuerySamplesComplete(rs []loadgen.Response) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls++
	r.maxBatch = max(r.maxBatch, len(rs))
	for _, x := range rs {
		if _, dup := r.finals[x.ID]; dup {
			r.dups = append(r.dups, "final")
		}
		r.finals[x.ID] = cloneResp(x)
	}
	return nil
}

func (r *recorder) FirstTokenComplete(rs []loadgen.Response) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, x := range rs {
		if _, dup := r.firsts[x.ID]; dup {
			r.dups = append(r.dups, "first")
		}
		if _, done := r.finals[x.ID]; done {
			r.dups = append(r.dups, "first after final")
		}
		r.firsts[x.ID] = cloneResp(x)
	}
	return nil
}

// snapshot returns copies of the maps.
func (r *recorder) snapshot() (firsts, finals map[uint64]loadgen.Response, dups []string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	firsts = map[uint64]loadgen.Response{}
	finals = map[uint64]loadgen.Response{}
	for k, v := range r.firsts {
		firsts[k] = v
	}
	for k, v := range r.finals {
		finals[k] = v
	}
	return firsts, finals, append([]string(nil), r.dups...)
}

// samples makes n samples whose ID is 1000+index.
func samples(n int) []loadgen.QuerySample {
	qs := make([]loadgen.QuerySample, n)
	for i := range qs {
		qs[i] = loadgen.QuerySample{ID: uint64(1000 + i), Index: i}
	}
	return qs
}

// newPool starts a pool against urls and registers its Close.
func newPool(t testing.TB, cfg Config) (*Pool, *recorder) {
	t.Helper()
	rec := newRecorder()
	if cfg.Completer == nil {
		cfg.Completer = rec
	}
	if cfg.Concurrency == 0 {
		cfg.Concurrency = 8
	}
	p, err := New(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p, rec
}

// serve starts an httptest server for h.
func serve(t testing.TB, h http.HandlerFunc) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

// decodeMap decodes a JSON object for comparisons.
func decodeMap(t testing.TB, b []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("decoding %q: %v", clip(b, 200), err)
	}
	return m
}

// waitFor polls cond for up to 10 s.
func waitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	// A guard against a hang, not a speed: under -race beside busy
	// loops, 16 streams of 16 MiB took more than 10 s.
	deadline := time.Now().Add(2 * time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

func ptr[T any](v T) *T { return &v }

// llamaParams are llama3_1-8b's registered default sampling (its
// reference's gen_kwargs), the bodies these tests send over completions.
func llamaParams() openaicompletions.Params {
	return openaicompletions.Params{Temperature: ptr(0.0), TopP: ptr(1.0), TopK: ptr(1), Seed: ptr(int64(42)), MaxTokens: ptr(128), MinTokens: ptr(1)}
}

// gptossParams are gpt-oss-120b's registered default sampling (its
// reference's generation_config.json), the bodies these tests send over
// SGLang.
func gptossParams() sglang.Params {
	return sglang.Params{MaxNewTokens: ptr(32768), Temperature: ptr(1.0), TopK: ptr(-1), TopP: ptr(1.0)}
}
