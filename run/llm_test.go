package run

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/fake"
	"github.com/mlperf-go/mlperf-go/internal/breakdown"
	"github.com/mlperf-go/mlperf-go/loadgen"
	"github.com/mlperf-go/mlperf-go/loadgen/loadgentest"
	"github.com/mlperf-go/mlperf-go/loadgen/mllog"
	"github.com/mlperf-go/mlperf-go/sut"
)

// tokenFixture writes n synthetic samples of an LLM benchmark and opens them.
func tokenFixture(t testing.TB, bench string, n int) benchmark.Dataset {
	t.Helper()
	b := mustBenchmark(t, bench)
	files, err := b.Data.Synth(t.TempDir(), n, 11)
	if err != nil {
		t.Fatal(err)
	}
	d, err := b.OpenDataset(files, nil)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func decodeInt32(b []byte) []int32 {
	out := make([]int32, len(b)/4)
	for i := range out {
		out[i] = int32(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return out
}

// TestLLMAccuracyLogsTheEndpointsTokens runs both LLM benchmarks in
// accuracy mode, Offline (plain requests) and Server (streamed, as
// use_token_latencies requires), and checks that every accuracy-log entry
// is exactly the token IDs the fake endpoint generated for that prompt.
func TestLLMAccuracyLogsTheEndpointsTokens(t *testing.T) {
	loadgentest.Require(t)
	const n, outTokens = 24, 40
	for _, bench := range []string{"llama3_1-8b", "gpt-oss-120b"} {
		d := tokenFixture(t, bench, n)
		for _, scen := range []loadgen.Scenario{loadgen.Offline, loadgen.Server} {
			t.Run(bench+"/"+scen.String(), func(t *testing.T) {
				url, _ := startFake(t, fake.Config{Model: mustBenchmark(t, bench).Serving.Model, OutputTokens: outTokens})
				out := t.TempDir()
				rep, err := Run(context.Background(), Options{
					Benchmark: mustBenchmark(t, bench),
					Scenario:  scen,
					Mode:      loadgen.AccuracyOnly,
					Data:      d,
					Endpoints: []string{url},
					OutputDir: out,
					Settings:  quick,
				})
				if err != nil {
					t.Fatalf("Run: %v", err)
				}
				// mlperf.conf turns use_token_latencies on for both; only
				// Server needs a first token, so only Server streams (the
				// references send Offline unstreamed).
				if want := scen != loadgen.Offline; rep.Stream != want {
					t.Errorf("requests streamed: %v, want %v", rep.Stream, want)
				}
				entries, err := mllog.ReadAccuracy(filepath.Join(out, "mlperf_log_accuracy.json"))
				if err != nil {
					t.Fatal(err)
				}
				if len(entries) != n {
					t.Fatalf("%d accuracy entries, want %d", len(entries), n)
				}
				seen := map[int]bool{}
				for _, e := range entries {
					if seen[e.QSLIndex] {
						t.Errorf("sample %d logged twice", e.QSLIndex)
					}
					seen[e.QSLIndex] = true
					want := fake.Tokens(d.(benchmark.TokenPrompts).Tokens(e.QSLIndex), outTokens)
					wantCount := int64(outTokens)
					got := decodeInt32(e.Data)
					if rep.Stream && mustBenchmark(t, bench).Serving.FinalResponseOmitsFirstToken {
						// The reference (gpt-oss-120b server_sut.py) reports
						// token 0 first and completes with tokens[1:], n-1:
						// LoadGen logs the first as token_data, the rest as data.
						wantCount--
						got = append(decodeInt32(e.TokenData), got...)
						if len(e.TokenData) != 4 {
							t.Errorf("sample %d token_data is %d bytes, want token 0 alone", e.QSLIndex, len(e.TokenData))
						}
					}
					if diff := cmp.Diff(want, got); diff != "" {
						t.Errorf("sample %d tokens (-fake +logged):\n%s", e.QSLIndex, diff)
					}
					if e.HasTokenCount && e.TokenCount != wantCount {
						t.Errorf("sample %d token_count %d, want %d", e.QSLIndex, e.TokenCount, wantCount)
					}
				}
			})
		}
	}
}

// TestServerTokenLatenciesFollowTheFake checks that the TTFT and TPOT
// LoadGen reports reflect the fake's latency model: never below it (the
// harness cannot make a server faster) and, on this noisy shared machine,
// within a generous bound above it.
func TestServerTokenLatenciesFollowTheFake(t *testing.T) {
	loadgentest.Require(t)
	const ttft, tpot = 40 * time.Millisecond, 4 * time.Millisecond
	for _, bench := range []string{"llama3_1-8b", "gpt-oss-120b"} {
		t.Run(bench, func(t *testing.T) {
			d := tokenFixture(t, bench, 20)
			url, _ := startFake(t, fake.Config{Model: mustBenchmark(t, bench).Serving.Model, OutputTokens: 16, TTFT: ttft, TPOT: tpot})
			rep, err := Run(context.Background(), Options{
				Benchmark: mustBenchmark(t, bench),
				Scenario:  loadgen.Server,
				Mode:      loadgen.PerformanceOnly,
				Data:      d,
				Endpoints: []string{url},
				OutputDir: t.TempDir(),
				Settings:  []string{"min_duration=1000", "min_query_count=20", "target_qps=20"},
			})
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			ns := func(key string) time.Duration {
				t.Helper()
				v, ok := rep.Summary.Values[key]
				if !ok {
					t.Fatalf("summary has no %q line; values: %v", key, rep.Summary.Values)
				}
				f, err := strconv.ParseFloat(v, 64)
				if err != nil {
					t.Fatalf("%s = %q: %v", key, v, err)
				}
				return time.Duration(f)
			}
			meanTTFT := ns("Mean First Token latency (ns)")
			meanTPOT := ns("Mean Time per Output Token (ns)")
			minTTFT := ns("Min First Token latency (ns)")
			if minTTFT < ttft {
				t.Errorf("min TTFT %v is below the fake's %v", minTTFT, ttft)
			}
			if meanTTFT > 5*ttft {
				t.Errorf("mean TTFT %v, want about %v", meanTTFT, ttft)
			}
			if meanTPOT < tpot*9/10 || meanTPOT > 5*tpot {
				t.Errorf("mean TPOT %v, want about %v", meanTPOT, tpot)
			}
			if rep.Stats.OutputTokens != 16*rep.Stats.Completed {
				t.Errorf("%d output tokens for %d samples, want 16 each", rep.Stats.OutputTokens, rep.Stats.Completed)
			}
			checkBreakdown(t, rep, ttft, meanTTFT)
		})
	}
}

// checkBreakdown checks the run's latency breakdown file against the
// fake's latency model and LoadGen's TTFT: every sample in it, the fake's
// wait in the endpoint's part, and the pool's TTFT inside LoadGen's (whose
// clock starts before IssueQuery and stops after the Completer returns).
func checkBreakdown(t *testing.T, rep *Report, ttft, loadgenMeanTTFT time.Duration) {
	t.Helper()
	b, err := breakdown.Read(rep.LogDir)
	if err != nil {
		t.Fatalf("latency breakdown: %v", err)
	}
	if !b.Stream || len(b.Parts) != len(sut.Parts()) {
		t.Fatalf("breakdown stream %v with %d parts, want streamed and %d", b.Stream, len(b.Parts), len(sut.Parts()))
	}
	for _, p := range b.Parts {
		if p.Count != rep.Stats.Completed {
			t.Errorf("part %s counted %d samples, want %d", p.Name, p.Count, rep.Stats.Completed)
		}
	}
	ep, _ := b.Find("endpoint_first_token")
	if time.Duration(ep.P50) < ttft {
		t.Errorf("endpoint first-token median %v is below the fake's %v", time.Duration(ep.P50), ttft)
	}
	pool, _ := b.Find("ttft")
	if time.Duration(pool.Mean) > loadgenMeanTTFT {
		t.Errorf("the pool's mean TTFT %v exceeds LoadGen's %v, which spans it", time.Duration(pool.Mean), loadgenMeanTTFT)
	}
}

// TestLLMOfflinePerformanceValid runs both LLM benchmarks' Offline
// performance mode and checks LoadGen's token throughput line.
func TestLLMOfflinePerformanceValid(t *testing.T) {
	loadgentest.Require(t)
	for _, bench := range []string{"llama3_1-8b", "gpt-oss-120b"} {
		t.Run(bench, func(t *testing.T) {
			d := tokenFixture(t, bench, 30)
			// Enough latency that the run outlasts its 200 ms minimum.
			_, fake := startFake(t, fake.Config{Model: mustBenchmark(t, bench).Serving.Model, OutputTokens: 8,
				TTFT: 20 * time.Millisecond, TPOT: time.Millisecond, MaxConcurrency: 8})
			url, streamed := streamCounter(t, fake)
			o := Options{
				Benchmark: mustBenchmark(t, bench),
				Scenario:  loadgen.Offline,
				Mode:      loadgen.PerformanceOnly,
				Data:      d,
				Endpoints: []string{url},
				OutputDir: t.TempDir(),
				Settings:  quick,
			}
			stream := false
			refused := o
			refused.Scenario = loadgen.Server
			refused.Stream = &stream
			if _, err := Run(context.Background(), refused); err == nil {
				t.Fatal("streaming off with use_token_latencies on must be refused in Server")
			}
			rep, err := Run(context.Background(), o)
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			if !rep.Settings.UseTokenLatencies {
				t.Fatal("mlperf.conf should turn use_token_latencies on for the LLMs")
			}
			if rep.Stream {
				t.Error("Offline streamed; LoadGen needs no first token there")
			}
			if n := streamed.Load(); n != 0 {
				t.Errorf("%d Offline requests asked for a stream, want none", n)
			}
			if rep.Stats.OutputTokens != 8*rep.Stats.Completed || rep.Stats.Completed == 0 {
				t.Errorf("%d output tokens for %d samples, want 8 each", rep.Stats.OutputTokens, rep.Stats.Completed)
			}
			if !rep.Summary.Valid {
				t.Errorf("result %s, want VALID", rep.Summary.Result)
			}
			if _, ok := rep.Summary.Values["Tokens per second"]; !ok {
				t.Errorf("summary lacks the token throughput LLM results are scored on: %v", rep.Summary.Metrics)
			}
		})
	}
}

// streamCounter serves h on loopback and counts the generation requests
// whose body asks for a stream ("stream": true), so a test sees what went
// over the wire, not what the harness says it sent.
func streamCounter(t *testing.T, h http.Handler) (string, *atomic.Int64) {
	t.Helper()
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		var m struct {
			Stream bool `json:"stream"`
		}
		if len(body) > 0 && json.Unmarshal(body, &m) == nil && m.Stream {
			n.Add(1)
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL, &n
}
