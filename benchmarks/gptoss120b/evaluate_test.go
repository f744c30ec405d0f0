package gptoss120b_test

import (
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/benchmarks/internal/tokensynth"
	"github.com/mlperf-go/mlperf-go/loadgen/mllog"
	"github.com/mlperf-go/mlperf-go/tokenizer"
)

// TestEvaluateScoresEverySubset: a log answering each sub-dataset right
// (a multiple-choice letter, an AIME integer, LiveCodeBench code that passes
// its tests in the sandbox) scores 100 in the script's own format; without
// the LiveCodeBench problems the code subset is an error, never a zero.
// (The scorers' fidelity to the reference is proven by score/'s goldens;
// a tokenizer of our own stands in for o200k_harmony.)
func TestEvaluateScoresEverySubset(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	data := filepath.Join(dir, "acc.parquet")
	const n = 12
	if err := tokensynth.GPTOSS(data, n, 7); err != nil {
		t.Fatal(err)
	}
	rows := tokensynth.GPTOSSRows(n, 7)
	tokDir := filepath.Join("..", "..", "tokenizer", "testdata", "bytelevel")
	tok, err := tokenizer.Load(filepath.Join(tokDir, "tokenizer.json"))
	if err != nil {
		t.Fatal(err)
	}
	var lcb strings.Builder
	var entries []mllog.AccuracyEntry
	for i, r := range rows {
		answer := ""
		switch r.Dataset {
		case "gpqa_diamond":
			answer = "The options weigh up.\nAnswer: " + r.GroundTruth
		case "aime25":
			answer = "So the count is \\boxed{" + r.GroundTruth + "}."
		case "livecodebench_v6":
			answer = "Read n, print n+1.\n```python\nprint(int(input()) + 1)\n```\n"
			fmt.Fprintf(&lcb, `{"question_id": %q, "public_test_cases": "[{\"input\": \"41\\n\", \"output\": \"42\\n\", \"testtype\": \"stdin\"}]", "private_test_cases": "[]", "metadata": "{}"}`+"\n", r.GroundTruth)
		}
		ids, err := tok.Encode(answer)
		if err != nil {
			t.Fatal(err)
		}
		buf := make([]byte, 4*len(ids))
		for k, id := range ids {
			binary.LittleEndian.PutUint32(buf[4*k:], uint32(id))
		}
		entries = append(entries, mllog.AccuracyEntry{SeqID: uint64(i), QSLIndex: i, Data: buf, TokenCount: int64(len(ids)), HasTokenCount: true})
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
	lcbPath := filepath.Join(dir, "test6.jsonl")
	if err := os.WriteFile(lcbPath, []byte(lcb.String()), 0o644); err != nil {
		t.Fatal(err)
	}

	b, err := benchmark.Lookup("gpt-oss-120b")
	if err != nil {
		t.Fatal(err)
	}
	d, err := b.OpenDataset([]string{data}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if _, err := d.Evaluate(t.Context(), logPath, benchmark.EvalOptions{Benchmark: b, Tokenizer: tokDir}); err == nil || !strings.Contains(err.Error(), "--livecodebench") {
		t.Fatalf("without LiveCodeBench problems: %v, want an error naming --livecodebench", err)
	}
	ev, err := d.Evaluate(t.Context(), logPath, benchmark.EvalOptions{Benchmark: b, Tokenizer: tokDir, LiveCodeBench: lcbPath})
	if err != nil {
		t.Fatalf("%v\n%s", err, ev.Report)
	}
	txt, err := ev.AccuracyTxt, error(nil)
	if err != nil || !strings.Contains(string(txt), "'exact_match': 100.000") {
		t.Errorf("accuracy.txt %q (%v), want exact_match 100.000\n%s", txt, err, ev.Report)
	}

	// The same log answering nothing scores 0.
	idk, _ := tok.Encode("I do not know.")
	buf := make([]byte, 4*len(idk))
	for k, id := range idk {
		binary.LittleEndian.PutUint32(buf[4*k:], uint32(id))
	}
	for i := range entries {
		entries[i].Data, entries[i].TokenCount = buf, int64(len(idk))
	}
	f, _ = os.Create(logPath)
	mllog.WriteAccuracy(f, entries)
	f.Close()
	ev, err = d.Evaluate(t.Context(), logPath, benchmark.EvalOptions{Benchmark: b, Tokenizer: tokDir, LiveCodeBench: lcbPath})
	if err != nil {
		t.Fatalf("%v\n%s", err, ev.Report)
	}
	if txt := ev.AccuracyTxt; !strings.Contains(string(txt), "'exact_match': 0.000") {
		t.Errorf("a log of non-answers: accuracy.txt %q, want exact_match 0.000", txt)
	}
}
