package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mlperf-go/mlperf-go/bench"
	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/loadgen/loadgentest"
	"github.com/mlperf-go/mlperf-go/loadgen/mllog"
	"github.com/mlperf-go/mlperf-go/protocol"
	"github.com/mlperf-go/mlperf-go/protocol/openaichat"
)

// The SGLang tests run the harness against SGLang's CPU path (make
// test-engines installs it: scripts/engines/fetch-sglang.sh) serving tiny
// random-weight models made offline (scripts/engines/make_tiny_*.py). They
// skip without these variables.
const (
	// sglangEnv names the python of SGLang's venv, which holds the
	// sgl_kernel stand-in (scripts/engines/sgl_kernel_standin.py).
	sglangEnv = "MLPERF_GO_SGLANG"
	// tinyGPTOSSEnv and tinyDeepSeekEnv name tiny Llamas with
	// gpt-oss-120b's and deepseek-r1's vocabulary sizes: the first has no
	// tokenizer (served with --skip-tokenizer-init), the second a made-up
	// word-level one (deepseek-r1's min_new_tokens needs one).
	tinyGPTOSSEnv   = "MLPERF_GO_TINY_GPTOSS"
	tinyDeepSeekEnv = "MLPERF_GO_TINY_DEEPSEEK"
)

// sglangVersion is what fetch-sglang.sh installs and what the harness
// must record as served.
const sglangServed = "SGLang 0.5.23"

// sglangEngineEnv turns on SGLang's CPU platform.
var sglangEngineEnv = map[string]string{"SGLANG_USE_CPU_ENGINE": "1"}

// sglangArgs are the flags every test server gets: SGLang's CPU path in
// plain PyTorch (no kernel is called, see the stand-in), a KV cache of
// 16k tokens (a handful of the synthetic prompts at once), the radix
// cache off as the MLPerf rules want it (--launch adds it too), and
// Prometheus /metrics on.
var sglangArgs = []string{"--device", "cpu", "--attention-backend", "torch_native", "--max-total-tokens", "16384",
	"--disable-radix-cache", "--enable-metrics"}

// requireSGLang returns SGLang's python, or skips the test saying how to
// get it.
func requireSGLang(t *testing.T) string {
	t.Helper()
	loadgentest.Require(t)
	py := os.Getenv(sglangEnv)
	if py == "" {
		t.Skipf("no SGLang: set %s (make test-engines installs SGLang and makes the models)", sglangEnv)
	}
	return py
}

// requireModel returns the folder an environment variable names, or skips.
func requireModel(t *testing.T, env string) string {
	t.Helper()
	m := os.Getenv(env)
	if m == "" {
		t.Skipf("no tiny model: set %s (make test-engines makes it)", env)
	}
	return m
}

// sglangLaunchArgv is the command line that serves model under served.
func sglangLaunchArgv(py, model, served string, port int, args []string) []string {
	argv := append([]string{py, "-m", "sglang.launch_server", "--model-path", model, "--served-model-name", served}, listenArgs(port)...)
	return append(append(argv, sglangArgs...), args...)
}

// oneAtATime makes SGLang compute each request alone, so that the same
// request gets the same greedy answer whenever it is sent: on a CPU a
// row's matrix products depend on the batch it is computed in, and a
// random model's near-tied logits then make the answers of one request in
// two batches part ways (seen once in three runs).
var oneAtATime = []string{"--max-running-requests", "1"}

// startSGLang serves model under served with sglangArgs and args.
func startSGLang(t *testing.T, py, model, served string, args ...string) *realEngine {
	t.Helper()
	port := freePort(t)
	return startRealEngine(t, sglangLaunchArgv(py, model, served, port, args), sglangEngineEnv, port, served)
}

// tokenPrompts is the token-ID prompts of benchmark name's dataset at path.
func tokenPrompts(t *testing.T, name, path string) [][]int32 {
	t.Helper()
	b := mustLookup(t, name)
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

// synthData writes n synthetic samples of benchmark name and returns the
// dataset file.
func synthData(t *testing.T, name string, n int) string {
	t.Helper()
	files, err := mustLookup(t, name).Data.Synth(t.TempDir(), n, 11)
	if err != nil || len(files) != 1 {
		t.Fatalf("synth %s: %v, %v", name, files, err)
	}
	return files[0]
}

// generateDirect asks SGLang's /generate for each prompt's answer itself,
// all at once as the run's requests went, with sampling, and returns the
// output token IDs by prompt.
func generateDirect(t *testing.T, base string, prompts [][]int32, sampling map[string]any) [][]int32 {
	t.Helper()
	out := make([][]int32, len(prompts))
	var wg sync.WaitGroup
	for i, p := range prompts {
		wg.Go(func() {
			body, _ := json.Marshal(map[string]any{"input_ids": p, "sampling_params": sampling})
			resp, err := http.Post(base+"/generate", "application/json", bytes.NewReader(body))
			if err != nil {
				t.Error(err)
				return
			}
			defer resp.Body.Close()
			var r struct {
				OutputIDs []int32 `json:"output_ids"`
			}
			if b, _ := io.ReadAll(resp.Body); resp.StatusCode != http.StatusOK || json.Unmarshal(b, &r) != nil {
				t.Errorf("direct /generate: %d %s", resp.StatusCode, b)
				return
			}
			out[i] = r.OutputIDs
		})
	}
	wg.Wait()
	return out
}

// loggedTokens reads an accuracy log of int32 token IDs, by QSL index.
func loggedTokens(t *testing.T, dir string) map[int][]int32 {
	t.Helper()
	entries, err := mllog.ReadAccuracy(filepath.Join(dir, "mlperf_log_accuracy.json"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[int][]int32{}
	for _, e := range entries {
		got, ok := mllog.AppendTokenIDs([]int32(nil), e.Data, 4)
		if !ok {
			t.Fatalf("sample %d: %d bytes are not int32 token IDs", e.QSLIndex, len(e.Data))
		}
		if _, dup := out[e.QSLIndex]; dup {
			t.Errorf("sample %d is logged twice", e.QSLIndex)
		}
		out[e.QSLIndex] = got
	}
	return out
}

// compareAnswers checks that the log holds every sample once, each equal
// to want[i] with its first skip tokens dropped.
func compareAnswers(t *testing.T, logged map[int][]int32, want [][]int32, skip int) {
	t.Helper()
	if len(logged) != len(want) {
		t.Errorf("%d samples logged, want %d", len(logged), len(want))
	}
	stopped := 0
	for i, w := range want {
		w = w[min(skip, len(w)):]
		if d := cmp.Diff(w, logged[i], cmpEmptyIsNil); d != "" {
			t.Errorf("sample %d: logged tokens differ from SGLang's direct answer (-direct +logged):\n%s", i, d)
		}
	}
	for _, w := range want {
		if len(w) < 48 {
			stopped++
		}
	}
	t.Logf("%d of %d answers stopped before 48 tokens", stopped, len(want))
}

// cmpEmptyIsNil compares an empty answer with a missing one as equal
// slices: what counts is the tokens.
var cmpEmptyIsNil = cmp.Transformer("nilEmpty", func(s []int32) []int32 {
	if len(s) == 0 {
		return nil
	}
	return s
})

// tokenRunCase is one run of a token-ID benchmark against SGLang and what
// its log must equal.
type tokenRunCase struct {
	name string
	args []string
	// skipFirst: the answer is logged without its first token (the
	// reference's FinalResponseOmitsFirstToken, in streamed runs).
	skipFirst int
}

// checkTokenBenchmark runs benchmark name's accuracy test Offline and
// streamed in the Server scenario against SGLang at base, comparing the
// logs with SGLang's direct greedy answers under the same limits, then a
// Server performance run whose token and request counts must equal
// SGLang's own counters and whose TTFT must be measured.
func checkTokenBenchmark(t *testing.T, e *realEngine, name string, n int, sampling map[string]any, flags []string, skipFirstStreamed int) {
	data := synthData(t, name, n)
	prompts := tokenPrompts(t, name, data)
	direct := generateDirect(t, e.URL, prompts, sampling)
	common := append([]string{"-b", name, "-d", data, "-e", e.URL, "--total-sample-count", strconv.Itoa(n), "--progress-interval", "0"}, flags...)
	for _, tc := range []tokenRunCase{
		{"offline accuracy", []string{"-s", "Offline", "-m", "accuracy"}, 0},
		{"server accuracy streamed", []string{"-s", "Server", "-m", "accuracy", "--stream", "true"}, skipFirstStreamed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "run")
			stdout, err := runCLI(t, append(append([]string{"run", "-o", out}, tc.args...), common...)...)
			if err != nil {
				t.Fatalf("%v\n%s", err, stdout)
			}
			compareAnswers(t, loggedTokens(t, out), direct, tc.skipFirst)
			rec := readRecord(t, out)
			if rec.Samples.Failed != 0 || rec.Samples.Completed != int64(n) {
				t.Errorf("samples: %+v", rec.Samples)
			}
			if d := cmp.Diff([]string{sglangServed}, rec.EngineServed); d != "" {
				t.Errorf("engine served (-want +got):\n%s", d)
			}
			res := readRunResults(t, out)
			if len(res.Engine.Metrics) != 1 || res.Engine.Metrics[0].Engine != "SGLang" || res.Engine.Metrics[0].Errors != 0 || res.Engine.Metrics[0].Scrapes == 0 {
				t.Errorf("engine metrics: %+v", res.Engine.Metrics)
			}
		})
	}
	t.Run("server performance counts what SGLang counts", func(t *testing.T) {
		out := filepath.Join(t.TempDir(), "perf")
		before := scrapeMetrics(t, e.URL)
		// No preflight: its probe would count in SGLang's counters too.
		stdout, err := runCLI(t, append([]string{"run", "-s", "Server", "-m", "performance", "-o", out, "--skip-preflight",
			"--min-duration", "2000", "--min-query-count", strconv.Itoa(n), "--setting", "target_qps=4",
			"--performance-sample-count", strconv.Itoa(n)}, common...)...)
		if exitCode(err) > 3 { // INVALID (3) is fine: a CPU misses the latency targets
			t.Fatalf("%v\n%s", err, stdout)
		}
		after := scrapeMetrics(t, e.URL)
		rec := readRecord(t, out)
		issued := rec.Samples.Issued
		if rec.Samples.Failed != 0 || rec.Samples.Completed != issued || issued < int64(n) {
			t.Fatalf("samples: %+v\n%s", rec.Samples, stdout)
		}
		want := int64(0)
		for i := range issued {
			want += int64(len(direct[i%int64(n)]))
		}
		if got := after.delta(before, "sglang:generation_tokens_total"); int64(got) != want {
			t.Errorf("SGLang generated %v tokens, its direct answers to the issued samples hold %d", got, want)
		}
		if rec.Samples.OutputTokens != want {
			t.Errorf("the harness counted %d output tokens, SGLang's answers hold %d", rec.Samples.OutputTokens, want)
		}
		if got := after.delta(before, "sglang:num_requests_total"); int64(got) != issued {
			t.Errorf("SGLang counted %v requests, LoadGen issued %d", got, issued)
		}
		res := readRunResults(t, out)
		if res.Metrics.TTFT == nil || res.Metrics.TTFT.Mean == nil || *res.Metrics.TTFT.Mean <= 0 {
			t.Errorf("no TTFT in a streamed Server run: %+v", res.Metrics.TTFT)
		}
	})
}

// TestSGLangGPTOSS runs gpt-oss-120b over SGLang's /generate with token
// prompts: a tiny model of gpt-oss's vocabulary served without a tokenizer
// (--skip-tokenizer-init), streaming SGLang's cumulative chunks (its
// default). The accuracy logs equal SGLang's direct greedy answers under
// the benchmark's limits (Server streamed: without the first token, which
// the reference reports first and leaves out of the final response), the
// token and request counts equal SGLang's counters, and bench's
// sglang-generate API counts what SGLang counts.
func TestSGLangGPTOSS(t *testing.T) {
	py := requireSGLang(t)
	model := requireModel(t, tinyGPTOSSEnv)
	b := mustLookup(t, "gpt-oss-120b")
	e := startSGLang(t, py, model, b.Serving.Model, append(oneAtATime, "--skip-tokenizer-init")...)
	// Greedy, and 48 tokens: the benchmark's 32,768 would take a CPU hours.
	sampling := map[string]any{"temperature": 0, "top_k": -1, "top_p": 1.0, "max_new_tokens": 48}
	checkTokenBenchmark(t, e, b.Name, 12, sampling, []string{"--temperature", "0", "--max-tokens", "48"}, 1)

	t.Run("bench sglang-generate", func(t *testing.T) {
		data := synthData(t, b.Name, 8)
		out := filepath.Join(t.TempDir(), "bench")
		before := scrapeMetrics(t, e.URL)
		stdout, err := runCLI(t, "bench", "--target", "sglang="+e.URL, "--api", "sglang-generate", "-b", b.Name, "-d", data,
			"--num-prompts", "8", "--output-len", "8", "--max-concurrency", "4", "--out", out, "--progress-interval", "0")
		if err != nil {
			t.Fatalf("%v\n%s", err, stdout)
		}
		after := scrapeMetrics(t, e.URL)
		res, err := bench.ReadResults(out)
		if err != nil {
			t.Fatal(err)
		}
		r := res.Runs[0]
		if r.Completed != 8 || r.Failed != 0 {
			t.Fatalf("%d completed, %d failed\n%s", r.Completed, r.Failed, stdout)
		}
		if got := after.delta(before, "sglang:prompt_tokens_total"); int64(got) != r.PromptTokens {
			t.Errorf("bench counted %d prompt tokens, SGLang %v", r.PromptTokens, got)
		}
		if got := after.delta(before, "sglang:generation_tokens_total"); int64(got) != r.OutputTokens || r.OutputTokens != 64 {
			t.Errorf("bench counted %d output tokens, SGLang %v, want 8 x 8", r.OutputTokens, got)
		}
	})
}

// TestSGLangDeepSeek runs deepseek-r1 over SGLang's /generate with token
// prompts: a tiny model of DeepSeek-R1's vocabulary with a made-up
// tokenizer (SGLang needs one for the reference's min_new_tokens 1),
// streaming incrementally (--incremental-streaming-output). The logs equal
// SGLang's direct greedy answers, and the counts its counters.
func TestSGLangDeepSeek(t *testing.T) {
	py := requireSGLang(t)
	model := requireModel(t, tinyDeepSeekEnv)
	b := mustLookup(t, "deepseek-r1")
	e := startSGLang(t, py, model, b.Serving.Model, append(oneAtATime, "--incremental-streaming-output")...)
	sampling := map[string]any{"temperature": 0, "top_p": 1, "max_new_tokens": 48, "min_new_tokens": 1}
	checkTokenBenchmark(t, e, b.Name, 12, sampling, []string{"--max-tokens", "48"}, 0)
}

// TestSGLangOpenAI runs text benchmarks over SGLang's OpenAI routes with a
// real tokenizer (the tiny Llama 3.1 with Meta's): llama3_1-8b over
// /v1/completions (its log equals SGLang's direct greedy answers, its
// token counts SGLang's counters) and qwen3.6-27b over /v1/chat/completions
// with tools, streamed (each logged answer equals SGLang's answer to the
// same request unstreamed), --launch sglang starts SGLang itself,
// records it, scrapes its /metrics and stops it, and, last, SGLang killed
// as one of two endpoints loses no sample (sglangOneOfTwoKilled).
func TestSGLangOpenAI(t *testing.T) {
	py := requireSGLang(t)
	model := requireModel(t, tinyLlamaEnv)
	e := startSGLang(t, py, model, vllmServedName, oneAtATime...)
	const n = 12

	t.Run("llama3_1-8b completions", func(t *testing.T) {
		data := llamaData(t, n)
		prompts := llamaPrompts(t, data)
		out := filepath.Join(t.TempDir(), "acc")
		if stdout, err := runCLI(t, "run", "-b", "llama3_1-8b", "-s", "Offline", "-m", "accuracy", "-d", data, "-e", e.URL, "-o", out,
			"--total-sample-count", strconv.Itoa(n), "--progress-interval", "0"); err != nil {
			t.Fatalf("%v\n%s", err, stdout)
		}
		direct := make([][]int32, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() { direct[i] = directTokens(t, e.URL, prompts[i]) })
		}
		wg.Wait()
		logged := loggedTokens(t, out)
		for i := range n {
			if d := cmp.Diff(direct[i], logged[i], cmpEmptyIsNil); d != "" {
				t.Errorf("sample %d: logged tokens differ from SGLang's direct answer (-direct +logged):\n%s", i, d)
			}
		}
		rec := readRecord(t, out)
		want := int64(0)
		for _, d := range direct {
			want += int64(len(d))
		}
		if rec.Samples.OutputTokens != want {
			t.Errorf("the harness counted %d output tokens, SGLang answered %d", rec.Samples.OutputTokens, want)
		}
		if d := cmp.Diff([]string{sglangServed}, rec.EngineServed); d != "" {
			t.Errorf("engine served (-want +got):\n%s", d)
		}
	})

	t.Run("qwen3.6-27b chat with tools", func(t *testing.T) {
		b := mustLookup(t, "qwen3.6-27b")
		files, err := b.Data.Synth(t.TempDir(), n, 5)
		if err != nil {
			t.Fatal(err)
		}
		data := filepath.Dir(files[0])
		out := filepath.Join(t.TempDir(), "acc")
		args := []string{"-b", b.Name, "-d", data, "-e", e.URL, "--model", vllmServedName, "--total-sample-count", strconv.Itoa(n),
			"--temperature", "0", "--max-tokens", "32"}
		if stdout, err := runCLI(t, append([]string{"run", "-s", "Offline", "-m", "accuracy", "-o", out, "--progress-interval", "0"}, args...)...); err != nil {
			t.Fatalf("%v\n%s", err, stdout)
		}
		entries, err := mllog.ReadAccuracy(filepath.Join(out, "mlperf_log_accuracy.json"))
		if err != nil || len(entries) != n {
			t.Fatalf("%d accuracy entries, %v", len(entries), err)
		}
		// The same requests, unstreamed, answered by SGLang directly.
		d, err := b.Data.Open([]string{data}, b.Data.Splits)
		if err != nil {
			t.Fatal(err)
		}
		defer d.Close()
		// The sampling the run recorded as sent, on the API's own params.
		sampling := openaichat.ToolsProtocol.DefaultParams()
		sent, _ := json.Marshal(readRecord(t, out).Sampling)
		if err := protocol.DecodeGenerationConfig(sent, sampling); err != nil {
			t.Fatal(err)
		}
		builder, _, err := d.Bodies(benchmark.BodyOptions{Benchmark: b, API: openaichat.ToolsProtocol, Model: vllmServedName, Sampling: sampling})
		if err != nil {
			t.Fatal(err)
		}
		answers := make([]string, n)
		var wg sync.WaitGroup
		if err := builder.Build(seq(n), func(i int, body []byte) {
			body = bytes.Clone(body) // the builder may reuse it
			wg.Go(func() { answers[i] = chatAnswer(t, e.URL, body) })
		}); err != nil {
			t.Fatal(err)
		}
		wg.Wait()
		for _, en := range entries {
			if got := string(en.Data); got != answers[en.QSLIndex] {
				t.Errorf("sample %d: logged %q, SGLang answers %q", en.QSLIndex, got, answers[en.QSLIndex])
			}
		}
	})

	t.Run("launch", func(t *testing.T) {
		dir := t.TempDir()
		conf := filepath.Join(dir, "engine.yaml")
		// As a user runs SGLang's CPU path: the venv's python, the CPU
		// flags, SGLANG_USE_CPU_ENGINE; --launch adds --disable-radix-cache.
		args := []string{"--served-model-name", vllmServedName, "--device", "cpu", "--attention-backend", "torch_native",
			"--max-total-tokens", "16384", "--enable-metrics"}
		cfg := map[string]any{"engine": "sglang", "model": model, "command": sh(py) + " -m sglang.launch_server", "args": args, "env": sglangEngineEnv}
		b, _ := json.Marshal(cfg) // JSON is YAML
		if err := os.WriteFile(conf, b, 0o644); err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(dir, "run")
		port := freePort(t)
		stdout, err := runCLI(t, "run", "-b", "llama3_1-8b", "-s", "Offline", "-m", "accuracy", "-d", llamaData(t, 8), "-o", out,
			"--total-sample-count", "8", "--progress-interval", "0", "--launch", "sglang", "--engine-config", conf,
			"--engine-port", strconv.Itoa(port), "--engine-ready-timeout", "10m", "--engine-metrics-interval", "1s")
		if err != nil {
			t.Fatalf("%v\n%s\nengine.log:\n%s", err, stdout, readFile(t, filepath.Join(out, "engine.log")))
		}
		rec := readRecord(t, out)
		flags := strings.Join(rec.EngineFlags, " ")
		if rec.Samples.Completed != 8 || rec.EngineName() != sglangServed || !strings.Contains(flags, "--model-path "+model) || !strings.Contains(flags, "--disable-radix-cache") {
			t.Errorf("record: %d completed, engine %q, flags %q", rec.Samples.Completed, rec.EngineName(), rec.EngineFlags)
		}
		// SGLang's /metrics, read by its names: the tokens it generated
		// over the run are the tokens the run counted, and its KV-cache
		// use reaches the report.
		res := readRunResults(t, out)
		if len(res.Engine.Metrics) != 1 {
			t.Fatalf("engine metrics: %+v", res.Engine.Metrics)
		}
		m := res.Engine.Metrics[0]
		if m.Engine != "SGLang" || m.Errors != 0 || m.Scrapes == 0 || m.MaxKVCacheUsage == nil || m.GenerationTokens == nil ||
			int64(*m.GenerationTokens) != rec.Samples.OutputTokens {
			t.Errorf("engine metrics: %+v (the run counted %d output tokens)", m, rec.Samples.OutputTokens)
		}
		report := readFile(t, filepath.Join(out, "report.html"))
		if !regexp.MustCompile(`<td>SGLang</td><td class="num">[0-9.]+%</td>`).MatchString(report) {
			t.Error("report.html's engine summary has no SGLang row with its KV-cache use")
		}
		if !portClosed(fmt.Sprintf("http://127.0.0.1:%d", port)) {
			t.Error("the launched SGLang still listens after the run")
		}
	})

	// Last: the engine does not survive it.
	t.Run("one of two endpoints killed", func(t *testing.T) { sglangOneOfTwoKilled(t, e) })
}

// chatAnswer posts a chat request and returns its answer's text.
func chatAnswer(t *testing.T, base string, body []byte) string {
	t.Helper()
	resp, err := http.Post(base+"/v1/chat/completions", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Error(err)
		return ""
	}
	defer resp.Body.Close()
	var r struct {
		Choices []struct {
			Message struct {
				Content string `json:"content"`
			} `json:"message"`
		} `json:"choices"`
	}
	if b, _ := io.ReadAll(resp.Body); resp.StatusCode != http.StatusOK || json.Unmarshal(b, &r) != nil || len(r.Choices) != 1 {
		t.Errorf("direct chat request: %d %s", resp.StatusCode, b)
		return ""
	}
	return r.Choices[0].Message.Content
}

// seq is 0, 1, …, n-1.
func seq(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}
