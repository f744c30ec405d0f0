package llama2_test

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/benchmarks/internal/tokensynth"
	"github.com/mlperf-go/mlperf-go/benchmarks/llama2"
	"github.com/mlperf-go/mlperf-go/loadgen/mllog"
	"github.com/mlperf-go/mlperf-go/protocol"
	"github.com/mlperf-go/mlperf-go/protocol/openaichat"
	"github.com/mlperf-go/mlperf-go/protocol/openaicompletions"
	"github.com/mlperf-go/mlperf-go/protocol/sglang"
	"github.com/mlperf-go/mlperf-go/tokenizer"
)

// TestNames: the two registrations answer to every name the checker and
// LoadGen use, with the right LoadGen model, directory and rounds; an
// Interactive run of either runs LoadGen as llama2-70b-interactive.
func TestNames(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, want, loadgen, dir string
		interactive              bool
		rounds                   []string
	}{
		{"llama2-70b", llama2.Name, "llama2-70b", "llama2-70b-99.9", false, []string{"v6.0", "v6.1"}},
		{"llama2-70b-99.9", llama2.Name, "llama2-70b", "llama2-70b-99.9", false, []string{"v6.0", "v6.1"}},
		{"llama2-70b-interactive", llama2.InteractiveName, "llama2-70b-interactive", "llama2-70b-99.9", true, []string{"v6.0", "v6.1"}},
		{"llama2-70b-99", llama2.Name99, "llama2-70b", "llama2-70b-99", false, []string{"v6.0"}},
		{"llama2-70b-interactive-99", llama2.Interactive99, "llama2-70b-interactive", "llama2-70b-99", true, []string{"v6.0"}},
	} {
		b, err := benchmark.Lookup(tc.name)
		if err != nil {
			t.Fatal(err)
		}
		if b.Name != tc.want || b.LoadGenModel() != tc.loadgen || b.SubmissionDir != tc.dir || b.IsInteractive() != tc.interactive {
			t.Errorf("%s: name %s, LoadGen %s, dir %s, interactive %v; want %s, %s, %s, %v",
				tc.name, b.Name, b.LoadGenModel(), b.SubmissionDir, b.IsInteractive(), tc.want, tc.loadgen, tc.dir, tc.interactive)
		}
		var rounds []string
		for _, r := range []string{"v6.0", "v6.1"} {
			if b.Submission.Rounds[r] != nil {
				rounds = append(rounds, r)
			}
		}
		if strings.Join(rounds, ",") != strings.Join(tc.rounds, ",") {
			t.Errorf("%s: rounds %v, want %v", tc.name, rounds, tc.rounds)
		}
		iv, err := b.InteractiveVariant()
		if err != nil || iv.LoadGenModel() != llama2.InteractiveName || iv.SubmissionDir != tc.dir {
			t.Errorf("%s: Interactive variant %s (LoadGen %s, dir %s), %v", tc.name, iv.Name, iv.LoadGenModel(), iv.SubmissionDir, err)
		}
	}
}

// TestBounds: each accuracy bound is the float64 Python computes for the
// checker's expression (reference × factor in float64, not exactly).
func TestBounds(t *testing.T) {
	t.Parallel()
	f := func(a, b float64) float64 { return a * b } // float64 rounding, as Python
	want := map[string]map[string]float64{
		"llama2-70b-99.9": {"ROUGE1": f(44.4312, 0.999), "ROUGE2": f(22.0352, 0.999), "ROUGEL": f(28.6162, 0.999), "TOKENS_PER_SAMPLE": f(294.45, 0.9)},
		"llama2-70b-99":   {"ROUGE1": f(44.4312, 0.99), "ROUGE2": f(22.0352, 0.99), "ROUGEL": f(28.6162, 0.99), "TOKENS_PER_SAMPLE": f(294.45, 0.9)},
	}
	for dir, metrics := range want {
		b, err := benchmark.Lookup(dir)
		if err != nil {
			t.Fatal(err)
		}
		for round, r := range b.Submission.Rounds {
			got := map[string]float64{}
			for _, bd := range r.Accuracy[""] {
				got[bd.Metric] = bd.Value
			}
			for m, v := range metrics {
				if got[m] != v {
					t.Errorf("%s %s: %s bound %v, want %v", dir, round, m, got[m], v)
				}
			}
			if len(r.Upper) != 1 || r.Upper[0].Value != f(294.45, 1.1) {
				t.Errorf("%s %s: upper %v", dir, round, r.Upper)
			}
		}
	}
}

// TestRegistered runs what the harness does with the benchmark through the
// registry alone: synthesize, open, build request bodies over both token
// APIs with the reference's sampling, evaluate a log.
func TestRegistered(t *testing.T) {
	t.Parallel()
	b, err := benchmark.Lookup(llama2.Name)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	files, err := b.Data.Synth(dir, 6, 3)
	if err != nil {
		t.Fatal(err)
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
	rec := tokensynth.Llama2Records(6, 3)[4]
	for _, tc := range []struct {
		api  protocol.Protocol
		want string
	}{
		{openaicompletions.Protocol, `"max_tokens":1024,"min_tokens":1,"temperature":0`},
		{sglang.Protocol, `"sampling_params":{"max_new_tokens":1024,"min_new_tokens":1,"temperature":0}`},
	} {
		p, err := b.DefaultSampling(tc.api)
		if err != nil {
			t.Fatal(err)
		}
		builder, _, err := d.Bodies(benchmark.BodyOptions{Benchmark: b, API: tc.api, Model: b.Serving.Model, Sampling: p})
		if err != nil {
			t.Fatal(err)
		}
		err = builder.Build([]int{4}, func(_ int, body []byte) {
			var req struct {
				Prompt   []int64 `json:"prompt"`
				InputIDs []int64 `json:"input_ids"`
			}
			if err := json.Unmarshal(body, &req); err != nil {
				t.Fatal(err)
			}
			ids := append(req.Prompt, req.InputIDs...)
			if !strings.Contains(string(body), tc.want) || len(ids) != len(rec.TokInput) || ids[len(ids)-1] != tokensynth.Llama2ResponseInit {
				t.Errorf("%s body: %s\nwant the prompt's %d IDs and %s", tc.api.Name(), body, len(rec.TokInput), tc.want)
			}
		})
		if err != nil {
			t.Fatal(err)
		}
	}

	// A log answering every sample passes its checks and is scored in the
	// reference's format (spm-legacy stands in for Llama 2's tokenizer).
	tokDir := filepath.Join("..", "..", "tokenizer", "testdata", "spm-legacy")
	tok, err := tokenizer.Load(filepath.Join(tokDir, "tokenizer.json"))
	if err != nil {
		t.Fatal(err)
	}
	ids, err := tok.Encode("The storm reached the city.")
	if err != nil {
		t.Fatal(err)
	}
	var entries []mllog.AccuracyEntry
	for i := 0; i < d.Len(); i++ {
		data := make([]byte, 4*len(ids)+4)
		for k, id := range ids {
			binary.LittleEndian.PutUint32(data[4*k:], uint32(id))
		}
		binary.LittleEndian.PutUint32(data[4*len(ids):], llama2.EOS)
		entries = append(entries, mllog.AccuracyEntry{SeqID: uint64(i), QSLIndex: i, Data: data, TokenCount: int64(len(ids) + 1), HasTokenCount: true})
	}
	logPath := filepath.Join(dir, "mlperf_log_accuracy.json")
	writeLog(t, logPath, entries)
	ev, err := d.Evaluate(t.Context(), logPath, benchmark.EvalOptions{Benchmark: b, Tokenizer: tokDir})
	if err != nil || ev.Failure != nil {
		t.Fatalf("Evaluate: %v, %v\n%s", err, ev.Failure, ev.Report)
	}
	txt, err := ev.AccuracyTxt, error(nil)
	n := len(ids) + 1
	if want := fmt.Sprintf("'gen_num': 6, 'gen_tok_len': %d, 'tokens_per_sample': %d.0}", 6*n, n); err != nil || !strings.Contains(string(txt), want) {
		t.Errorf("accuracy.txt: %q, %v", txt, err)
	}
	for _, want := range []string{"6 of 6 samples present", "result: OK", "'rouge1':", "not the full 24576"} {
		if !strings.Contains(ev.Report, want) {
			t.Errorf("report lacks %q:\n%s", want, ev.Report)
		}
	}
	// A missing sample fails the check; an ID outside the vocabulary is
	// an error, as sentencepiece raises for it.
	writeLog(t, logPath, entries[1:])
	if ev, err := d.Evaluate(t.Context(), logPath, benchmark.EvalOptions{Benchmark: b, Tokenizer: tokDir}); err != nil || ev.Failure == nil {
		t.Errorf("a log missing sample 0 passed: %v\n%s", err, ev.Report)
	}
	binary.LittleEndian.PutUint32(entries[0].Data, 31999)
	writeLog(t, logPath, entries)
	if _, err := d.Evaluate(t.Context(), logPath, benchmark.EvalOptions{Benchmark: b, Tokenizer: tokDir}); err == nil || !strings.Contains(err.Error(), "out of range") {
		t.Errorf("an ID the tokenizer lacks: %v", err)
	}
}

func writeLog(t *testing.T, path string, entries []mllog.AccuracyEntry) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := mllog.WriteAccuracy(f, entries); err != nil {
		t.Fatal(err)
	}
}
