package run

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mlperf-go/mlperf-go/fake"
	"github.com/mlperf-go/mlperf-go/loadgen"
	"github.com/mlperf-go/mlperf-go/loadgen/loadgentest"
)

// bodyRecorder serves h on loopback and keeps the JSON body of every
// generation request, in arrival order, so a test sees what went over
// the wire.
func bodyRecorder(t *testing.T, h http.Handler) (string, func() []map[string]any) {
	t.Helper()
	var (
		mu     sync.Mutex
		bodies []map[string]any
	)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		var m map[string]any
		if r.Method == http.MethodPost && json.Unmarshal(body, &m) == nil {
			mu.Lock()
			bodies = append(bodies, m)
			mu.Unlock()
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL, func() []map[string]any {
		mu.Lock()
		defer mu.Unlock()
		return append([]map[string]any(nil), bodies...)
	}
}

// outputCap is the output-length cap a request body carries, at the top
// level or in SGLang's sampling_params, and its minimum length if set.
func outputCap(body map[string]any) (maxTokens, minTokens float64) {
	fields := body
	if sp, ok := body["sampling_params"].(map[string]any); ok {
		fields = sp
	}
	for _, k := range []string{"max_tokens", "max_completion_tokens", "max_new_tokens"} {
		if v, ok := fields[k].(float64); ok {
			maxTokens = v
		}
	}
	for _, k := range []string{"min_tokens", "min_new_tokens"} {
		if v, ok := fields[k].(float64); ok {
			minTokens = v
		}
	}
	return maxTokens, minTokens
}

// TestPreflightProbeAsksForAFewTokens: the probe is sample 0's request as
// the run sends it, but capped at ProbeTokens (and a minimum length above
// that lowered to it), on every API; the run's own requests keep the
// benchmark's cap (deepseek-r1's is 20,000 tokens, which no probe should
// wait for).
func TestPreflightProbeAsksForAFewTokens(t *testing.T) {
	loadgentest.Require(t)
	const n = 4
	for _, bench := range []string{"llama3_1-8b", "gpt-oss-120b", "deepseek-r1"} {
		t.Run(bench, func(t *testing.T) {
			b := mustBenchmark(t, bench)
			srv, err := fake.New(fake.Config{Model: b.Serving.Model, OutputTokens: 8})
			if err != nil {
				t.Fatal(err)
			}
			url, bodies := bodyRecorder(t, srv)
			_, err = Run(context.Background(), Options{
				Benchmark: b, Scenario: loadgen.Offline, Mode: loadgen.AccuracyOnly,
				Data: tokenFixture(t, bench, n), Endpoints: []string{url}, OutputDir: t.TempDir(), Settings: quick,
			})
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			got := bodies()
			if len(got) != n+1 {
				t.Fatalf("%d generation requests, want the probe and %d samples", len(got), n)
			}
			if maxT, minT := outputCap(got[0]); maxT != ProbeTokens || minT > ProbeTokens {
				t.Errorf("probe asks for max %v, min %v tokens, want max %d: %v", maxT, minT, ProbeTokens, got[0])
			}
			want, _ := outputCap(got[1])
			if want <= ProbeTokens {
				t.Fatalf("the run's requests ask for %v tokens: the test needs a benchmark cap above the probe's", want)
			}
			for i, body := range got[1:] {
				if maxT, _ := outputCap(body); maxT != want {
					t.Errorf("request %d asks for %v tokens, want the benchmark's %v", i+1, maxT, want)
				}
			}
		})
	}
}

// TestPreflightProbeTimeout: an engine that is up (it answers /health and
// /v1/models) but does not answer the probe within --preflight-timeout
// is refused once that has passed, with an error that names the probe,
// the bound and the flag, not the /health hint; LoadGen never starts.
func TestPreflightProbeTimeout(t *testing.T) {
	loadgentest.Require(t)
	b := mustBenchmark(t, "llama3_1-8b")
	url, _ := startFake(t, fake.Config{Model: b.Serving.Model, OutputTokens: 4, TTFT: 20 * time.Second})
	out := filepath.Join(t.TempDir(), "out")
	begin := time.Now()
	_, err := Run(context.Background(), Options{
		Benchmark: b, Scenario: loadgen.Offline, Mode: loadgen.AccuracyOnly,
		Data: tokenFixture(t, "llama3_1-8b", 4), Endpoints: []string{url}, OutputDir: out, Settings: quick,
		PreflightTimeout: 500 * time.Millisecond,
	})
	took := time.Since(begin)
	if err == nil {
		t.Fatal("Run passed against an engine that never answers")
	}
	for _, w := range []string{"probe request (sample 0, 4 tokens", url, "no answer within 500ms", "--preflight-timeout"} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q does not say %q", err, w)
		}
	}
	if strings.Contains(err.Error(), "--skip-preflight") {
		t.Errorf("error %q hints --skip-preflight for a server that has /health and /v1/models", err)
	}
	if took > 10*time.Second {
		t.Errorf("refused after %s, want about the 500ms bound", took)
	}
	if _, err := os.Stat(filepath.Join(out, "mlperf_log_detail.txt")); err == nil {
		t.Error("LoadGen started despite the failed probe")
	}
}
