package runner

import (
	"context"
	"encoding/binary"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mlperf-go/mlperf-go/internal/acclog"
	"github.com/mlperf-go/mlperf-go/internal/benchmark"
	"github.com/mlperf-go/mlperf-go/internal/fakeendpoint"
	"github.com/mlperf-go/mlperf-go/loadgen"
)

// tokenFixture writes n synthetic samples of an LLM benchmark and opens them.
func tokenFixture(t testing.TB, bench string, n int) benchmark.Dataset {
	t.Helper()
	b := mustBenchmark(t, bench)
	files, err := b.Synth(t.TempDir(), n, 11)
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
	const n, outTokens = 24, 40
	for _, bench := range []string{"llama3_1-8b", "gpt-oss-120b"} {
		d := tokenFixture(t, bench, n)
		for _, scen := range []loadgen.Scenario{loadgen.Offline, loadgen.Server} {
			t.Run(bench+"/"+scen.String(), func(t *testing.T) {
				url, _ := startFake(t, fakeendpoint.Config{Model: mustBenchmark(t, bench).Model, OutputTokens: outTokens})
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
				// mlperf.conf turns use_token_latencies on for both.
				if !rep.Stream {
					t.Errorf("requests did not stream")
				}
				entries, err := acclog.Read(filepath.Join(out, "mlperf_log_accuracy.json"))
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
					want := fakeendpoint.Tokens(d.(interface{ Tokens(int) []int32 }).Tokens(e.QSLIndex), outTokens)
					wantCount := int64(outTokens)
					got := decodeInt32(e.Data)
					if rep.Stream && mustBenchmark(t, bench).FinalResponseOmitsFirstToken {
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
	const ttft, tpot = 40 * time.Millisecond, 4 * time.Millisecond
	for _, bench := range []string{"llama3_1-8b", "gpt-oss-120b"} {
		t.Run(bench, func(t *testing.T) {
			d := tokenFixture(t, bench, 20)
			url, _ := startFake(t, fakeendpoint.Config{Model: mustBenchmark(t, bench).Model, OutputTokens: 16, TTFT: ttft, TPOT: tpot})
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
		})
	}
}

// TestLLMOfflinePerformanceValid runs both LLM benchmarks' Offline
// performance mode and checks LoadGen's token throughput line.
func TestLLMOfflinePerformanceValid(t *testing.T) {
	for _, bench := range []string{"llama3_1-8b", "gpt-oss-120b"} {
		t.Run(bench, func(t *testing.T) {
			d := tokenFixture(t, bench, 30)
			// Enough latency that the run outlasts its 200 ms minimum.
			url, _ := startFake(t, fakeendpoint.Config{Model: mustBenchmark(t, bench).Model, OutputTokens: 8,
				TTFT: 20 * time.Millisecond, TPOT: time.Millisecond, MaxConcurrency: 8})
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
			refused.Stream = &stream
			if _, err := Run(context.Background(), refused); err == nil {
				t.Fatal("streaming off with use_token_latencies on must be refused")
			}
			rep, err := Run(context.Background(), o)
			if err != nil {
				t.Fatalf("Run: %v", err)
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
