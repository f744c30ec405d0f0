package llama31_test

import (
	"encoding/binary"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/benchmarks/llama31"
	"github.com/mlperf-go/mlperf-go/loadgen/mllog"
	"github.com/mlperf-go/mlperf-go/protocol/openaichat"
	"github.com/mlperf-go/mlperf-go/protocol/openaicompletions"
)

// TestRegistered runs what the harness does with the benchmark through the
// registry alone: synthesize, open, build request bodies, evaluate a log.
func TestRegistered(t *testing.T) {
	b, err := benchmark.Lookup(llama31.Name)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	files, err := b.Data.Synth(dir, 6, 3)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.OpenDataset(append(files, files[0]), nil); err == nil || !strings.Contains(err.Error(), "reads one dataset file, got 2") {
		t.Errorf("two files: error %v", err)
	}
	d, err := b.OpenDataset(files, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if d.Len() != 6 {
		t.Fatalf("Len = %d, want 6", d.Len())
	}
	if _, _, err := d.Bodies(benchmark.BodyOptions{Benchmark: b, API: openaichat.Protocol}); err == nil || !strings.Contains(err.Error(), "cannot be sent over") {
		t.Errorf("chat API: error %v", err)
	}
	p, err := b.DefaultSampling(openaicompletions.Protocol)
	if err != nil {
		t.Fatal(err)
	}
	builder, prefix, err := d.Bodies(benchmark.BodyOptions{Benchmark: b, API: openaicompletions.Protocol, Model: b.Serving.Model, Sampling: p})
	if err != nil || prefix != nil {
		t.Fatalf("Bodies: prefix %q, err %v", prefix, err)
	}
	prompts := d.(benchmark.TokenPrompts)
	err = builder.Build([]int{4}, func(i int, body []byte) {
		var req struct {
			Model     string  `json:"model"`
			Prompt    []int32 `json:"prompt"`
			MaxTokens int     `json:"max_tokens"`
		}
		if err := json.Unmarshal(body, &req); err != nil {
			t.Fatal(err)
		}
		if req.Model != b.Serving.Model || req.MaxTokens != llama31.MaxTokens || len(req.Prompt) != len(prompts.Tokens(4)) {
			t.Errorf("sample %d body: %s", i, body)
		}
	})
	if err != nil {
		t.Fatal(err)
	}

	// A log answering every sample with two tokens ending in one
	// <|eot_id|> passes its checks and is scored.
	var entries []mllog.AccuracyEntry
	for i := 0; i < d.Len(); i++ {
		data := make([]byte, 8)
		binary.LittleEndian.PutUint32(data, 42)
		binary.LittleEndian.PutUint32(data[4:], llama31.TEST06EOS)
		entries = append(entries, mllog.AccuracyEntry{SeqID: uint64(i), QSLIndex: i, Data: data, TokenCount: 2, HasTokenCount: true})
	}
	logPath := filepath.Join(dir, "mlperf_log_accuracy.json")
	f, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	if err := mllog.WriteAccuracy(f, entries); err != nil {
		t.Fatal(err)
	}
	f.Close()
	// A tokenizer of our own stands in for Llama 3's (the golden test uses
	// the real one): the IDs decode to something, scored as the reference
	// scores it.
	ev, err := d.Evaluate(t.Context(), logPath, benchmark.EvalOptions{Benchmark: b, Tokenizer: filepath.Join("..", "..", "tokenizer", "testdata", "bytelevel")})
	if err != nil || ev.Failure != nil {
		t.Fatalf("Evaluate: %v, %v\n%s", err, ev.Failure, ev.Report)
	}
	if txt, err := ev.AccuracyTxt, error(nil); err != nil || !strings.Contains(string(txt), "'gen_num': 6}") {
		t.Errorf("accuracy.txt: %q, %v", txt, err)
	}
	for _, want := range []string{"6 of 6 samples present", "result: OK", "'rouge1':", "clean_up_tokenization_spaces=true"} {
		if !strings.Contains(ev.Report, want) {
			t.Errorf("report lacks %q:\n%s", want, ev.Report)
		}
	}
	// A missing sample fails the check.
	f, _ = os.Create(logPath)
	mllog.WriteAccuracy(f, entries[1:])
	f.Close()
	if ev, err := d.Evaluate(t.Context(), logPath, benchmark.EvalOptions{Benchmark: b, Tokenizer: filepath.Join("..", "..", "tokenizer", "testdata", "bytelevel")}); err != nil || ev.Failure == nil {
		t.Errorf("a log missing sample 0 passed: %v\n%s", err, ev.Report)
	}
}

// TestEdgeIsAModelOfItsOwn: the checker treats llama3.1-8b-edge as its own
// model (constants.py, v6.0 and v6.1): SingleStream and Offline on the
// 5,000-sample set, its own ROUGE targets, and no TEST06 (models_TEST06
// lists llama3.1-8b and its Interactive form only).
func TestEdgeIsAModelOfItsOwn(t *testing.T) {
	base, err := benchmark.Lookup(llama31.Name)
	if err != nil {
		t.Fatal(err)
	}
	edge, err := benchmark.Lookup(llama31.EdgeName)
	if err != nil {
		t.Fatal(err)
	}
	for _, round := range []string{"v6.0", "v6.1"} {
		b, e := base.Submission.Rounds[round], edge.Submission.Rounds[round]
		if got := strings.Join(e.Required["edge"], ","); got != "SingleStream,Offline" {
			t.Errorf("%s: edge requires %q, want SingleStream,Offline", round, got)
		}
		if e.PerformanceSampleCount != llama31.EdgeSamples || e.AccuracySampleCount[""] != llama31.EdgeSamples {
			t.Errorf("%s: edge sample counts %d/%d, want %d", round, e.PerformanceSampleCount, e.AccuracySampleCount[""], llama31.EdgeSamples)
		}
		if e.Accuracy[""][0].Value == b.Accuracy[""][0].Value {
			t.Errorf("%s: edge ROUGE1 target equals the datacenter one (%v)", round, b.Accuracy[""][0].Value)
		}
	}
	if _, ok := edge.Submission.Compliance["TEST06"]; ok {
		t.Error("the edge variant still offers TEST06")
	}
	if _, ok := base.Submission.Compliance["TEST06"]; !ok {
		t.Error("llama3_1-8b lost TEST06")
	}
	inter, err := benchmark.Lookup(llama31.InteractiveName)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := inter.Submission.Compliance["TEST06"]; !ok {
		t.Error("llama3_1-8b-interactive lost TEST06")
	}
}
