package deepseekr1_test

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/benchmarks/deepseekr1"
	"github.com/mlperf-go/mlperf-go/benchmarks/internal/tokencheck"
	"github.com/mlperf-go/mlperf-go/benchmarks/internal/tokenset"
	"github.com/mlperf-go/mlperf-go/benchmarks/internal/tokensynth"
	"github.com/mlperf-go/mlperf-go/loadgen/mllog"
	"github.com/mlperf-go/mlperf-go/protocol"
	"github.com/mlperf-go/mlperf-go/protocol/openaichat"
	"github.com/mlperf-go/mlperf-go/protocol/openaicompletions"
	"github.com/mlperf-go/mlperf-go/protocol/sglang"
	"github.com/mlperf-go/mlperf-go/tokenizer"
)

// TestBounds: each accuracy bound is the float64 Python computes for the
// checker's expression, in both rounds.
func TestBounds(t *testing.T) {
	t.Parallel()
	f := func(a, b float64) float64 { return a * b } // float64 rounding, as Python
	b, err := benchmark.Lookup(deepseekr1.InteractiveName)
	if err != nil || b.SubmissionDir != deepseekr1.Name || !b.IsInteractive() {
		t.Fatalf("%s: %+v, %v", deepseekr1.InteractiveName, b, err)
	}
	for _, round := range []string{"v6.0", "v6.1"} {
		r := b.Submission.Rounds[round]
		got := map[string]float64{}
		for _, bd := range r.Accuracy[""] {
			got[bd.Metric] = bd.Value
		}
		if got["exact_match"] != f(0.99, deepseekr1.ExactMatch) || got["TOKENS_PER_SAMPLE"] != f(0.9, deepseekr1.TokensPerSample) ||
			len(r.Upper) != 1 || r.Upper[0].Value != f(1.1, deepseekr1.TokensPerSample) {
			t.Errorf("%s bounds %v, upper %v", round, got, r.Upper)
		}
	}
}

// TestRegistered runs what the harness does with the benchmark through the
// registry alone: synthesize, open, build request bodies over both token
// APIs with the reference's sampling, and evaluate a log that answers every
// sub-dataset right, then one that answers nothing.
func TestRegistered(t *testing.T) {
	t.Parallel()
	b, err := benchmark.Lookup(deepseekr1.Name)
	if err != nil {
		t.Fatal(err)
	}
	if b.Serving.API != sglang.Protocol || b.Serving.FinalResponseOmitsFirstToken {
		t.Errorf("API %s, FinalResponseOmitsFirstToken %v: want SGLang /generate and the full sequence in the final response", b.Serving.API.Name(), b.Serving.FinalResponseOmitsFirstToken)
	}
	dir := t.TempDir()
	const n = 15
	files, err := b.Data.Synth(dir, n, 9)
	if err != nil {
		t.Fatal(err)
	}
	d, err := b.OpenDataset(files, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if d.Len() != n {
		t.Fatalf("Len = %d, want %d", d.Len(), n)
	}
	if _, _, err := d.Bodies(benchmark.BodyOptions{Benchmark: b, API: openaichat.Protocol}); err == nil || !strings.Contains(err.Error(), "cannot be sent over") {
		t.Errorf("chat API: error %v", err)
	}
	rows := tokensynth.DeepSeekR1Records(n, 9)
	for _, tc := range []struct {
		api  protocol.Protocol
		want string
	}{
		{sglang.Protocol, `"sampling_params":{"max_new_tokens":20000,"min_new_tokens":1,"temperature":0,"top_p":1}`},
		{openaicompletions.Protocol, `"max_tokens":20000,"min_tokens":1,"temperature":0,"top_p":1,"seed":42`},
	} {
		p, err := b.DefaultSampling(tc.api)
		if err != nil {
			t.Fatal(err)
		}
		builder, _, err := d.Bodies(benchmark.BodyOptions{Benchmark: b, API: tc.api, Model: b.Serving.Model, Sampling: p, Stream: true})
		if err != nil {
			t.Fatal(err)
		}
		err = builder.Build([]int{3}, func(_ int, body []byte) {
			var req struct {
				Prompt   []int64 `json:"prompt"`
				InputIDs []int64 `json:"input_ids"`
				Stream   bool    `json:"stream"`
			}
			if err := json.Unmarshal(body, &req); err != nil {
				t.Fatal(err)
			}
			ids := append(req.Prompt, req.InputIDs...)
			if !strings.Contains(string(body), tc.want) || !req.Stream || fmt.Sprint(ids) != fmt.Sprint(rows[3].TokInput) {
				t.Errorf("%s body: %s\nwant the prompt's IDs, streamed, and %s", tc.api.Name(), body, tc.want)
			}
		})
		if err != nil {
			t.Fatal(err)
		}
	}

	tok, err := tokenizer.Load(filepath.Join(bytelevel, "tokenizer.json"))
	if err != nil {
		t.Fatal(err)
	}
	var lcb strings.Builder
	answers := make([]string, n)
	for i, r := range rows {
		var v any
		if err := json.Unmarshal(r.GroundTruth, &v); err != nil {
			t.Fatal(err)
		}
		gt := fmt.Sprint(v)
		switch {
		case strings.Contains(r.Dataset, "gpqa"), strings.Contains(r.Dataset, "mmlu_pro"):
			answers[i] = "<think>\nWeighing the options.\n</think>\n\nANSWER: " + gt
		case strings.Contains(r.Dataset, "aime"), strings.Contains(r.Dataset, "math500"):
			answers[i] = "<think>\nWorking.\n</think>\n\nSo \\boxed{" + gt + "}"
		default:
			answers[i] = "Read n, print n+1.\n```python\nprint(int(input()) + 1)\n```\n"
			fmt.Fprintf(&lcb, `{"question_id": %q, "public_test_cases": "[{\"input\": \"41\\n\", \"output\": \"42\\n\", \"testtype\": \"stdin\"}]", "private_test_cases": "[]", "metadata": "{}"}`+"\n", gt)
		}
	}
	lcbPath := filepath.Join(dir, "test.jsonl")
	if err := os.WriteFile(lcbPath, []byte(lcb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	logPath := filepath.Join(dir, "mlperf_log_accuracy.json")
	writeLog(t, tok, logPath, answers)
	o := benchmark.EvalOptions{Benchmark: b, Tokenizer: bytelevel, LiveCodeBench: lcbPath}
	ev, err := d.Evaluate(t.Context(), logPath, o)
	if err != nil && strings.Contains(err.Error(), "unshare") {
		t.Skipf("the LiveCodeBench sandbox cannot run here: %v", err)
	}
	if err != nil || ev.Failure != nil {
		t.Fatalf("Evaluate: %v, %v\n%s", err, ev.Failure, ev.Report)
	}
	if txt := ev.AccuracyTxt; !strings.Contains(string(txt), "{'exact_match': 100.0, 'tokens_per_sample': ") || !strings.Contains(string(txt), fmt.Sprintf("'num-samples': %d}", n)) {
		t.Errorf("accuracy.txt %q, want exact_match 100.0\n%s", txt, ev.Report)
	}
	for _, want := range []string{"Per sub-dataset", "result: OK", "tokens_per_sample, the mean output length"} {
		if !strings.Contains(ev.Report, want) {
			t.Errorf("report lacks %q:\n%s", want, ev.Report)
		}
	}
	for i := range answers {
		answers[i] = "No idea." // no letter: MMLU-Pro's fallback would take a standalone "I"
	}
	writeLog(t, tok, logPath, answers)
	ev, err = d.Evaluate(t.Context(), logPath, o)
	if err != nil {
		t.Fatalf("%v\n%s", err, ev.Report)
	}
	if txt := ev.AccuracyTxt; !strings.Contains(string(txt), "{'exact_match': 0.0, ") {
		t.Errorf("a log of non-answers: accuracy.txt %q, want exact_match 0.0", txt)
	}
}

func writeLog(t *testing.T, tok *tokenizer.Tokenizer, path string, answers []string) {
	t.Helper()
	var entries []mllog.AccuracyEntry
	for i, a := range answers {
		ids, err := tok.Encode(a)
		if err != nil {
			t.Fatal(err)
		}
		entries = append(entries, ent(uint64(i), i, ids...))
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := mllog.WriteAccuracy(f, entries); err != nil {
		t.Fatal(err)
	}
}

func ent[T int | int32](seq uint64, idx int, toks ...T) mllog.AccuracyEntry {
	data := make([]byte, 4*len(toks))
	for i, t := range toks {
		binary.LittleEndian.PutUint32(data[4*i:], uint32(t))
	}
	return mllog.AccuracyEntry{SeqID: seq, QSLIndex: idx, Data: data, TokenCount: int64(len(toks)), HasTokenCount: true}
}

var bytelevel = filepath.Join("..", "..", "tokenizer", "testdata", "bytelevel")

func mustSynth(t *testing.T, n int) *tokenset.Dataset {
	t.Helper()
	p := filepath.Join(t.TempDir(), "r1.json")
	if err := tokensynth.DeepSeekR1(p, n, 1); err != nil {
		t.Fatal(err)
	}
	d, err := deepseekr1.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestChecks: deepseek-r1's own findings on a log, and the
// tokens_per_sample note against the checker's limits.
func TestChecks(t *testing.T) {
	t.Parallel()
	long := make([]int32, 20001)
	for i := range long {
		long[i] = 7
	}
	r := tokencheck.Check([]mllog.AccuracyEntry{
		ent(0, 0, long...),
		ent(1, 1, int32(5), 1, 1), // TEST06's EOS check fails
		ent(2, 2, int32(5), 1),    // one EOS is fine
		ent(3, 3, []int32{}...),   // empty
	}, deepseekr1.AccuracyInfo(deepseekr1.Name, mustSynth(t, 4)))
	joined := strings.Join(r.Warnings, "\n")
	for _, want := range []string{
		"1 samples have more than 20000 output tokens",
		"1 samples end with two or more EOS tokens (1)",
		"1 samples have an empty output; the rules set min_new_tokens = 1",
	} {
		if !strings.Contains(joined, want) {
			t.Errorf("warnings lack %q:\n%s", want, joined)
		}
	}
	if notes := strings.Join(r.Notes, "\n"); !strings.Contains(notes, "is 5001.5000; the checker wants 3497.6047 to 4274.8501") || !strings.Contains(notes, "not the full 4388") {
		t.Errorf("notes: %s", notes)
	}
}
