package qwen3vl_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/benchmarks/qwen3vl"
	"github.com/mlperf-go/mlperf-go/loadgen/mllog"
	"github.com/mlperf-go/mlperf-go/protocol/openaichat"
	"github.com/mlperf-go/mlperf-go/protocol/openaicompletions"
)

// TestRegistered drives the benchmark through the registry alone:
// synthesize, open, the fake's answers, request bodies, and an evaluation
// that writes accuracy.txt and fails the target.
func TestRegistered(t *testing.T) {
	b, err := benchmark.Lookup(qwen3vl.Name)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if _, err := b.Data.Synth(dir, 6, 1); err != nil {
		t.Fatal(err)
	}
	d, err := b.OpenDataset([]string{dir}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	q := d.(*qwen3vl.Dataset)
	answers := d.(benchmark.FakeAnswerer).FakeAnswers()
	if len(answers) != 6 {
		t.Fatalf("%d fake answers for 6 samples", len(answers))
	}
	for i, a := range answers {
		if len(a.Keys) != 2 || a.Keys[0] != q.UserText(i) || a.Keys[1] != q.UserTextV61(i) || !strings.Contains(a.Right, q.Sample(i).Category) || len(a.Wrongs) == 0 {
			t.Errorf("answer %d = %+v, sample %+v", i, a, q.Sample(i))
		}
	}
	if _, _, err := d.Bodies(benchmark.BodyOptions{Benchmark: b, API: openaicompletions.Protocol}); err == nil || !strings.Contains(err.Error(), "cannot be sent over") {
		t.Errorf("completions API: error %v", err)
	}
	if _, _, err := d.Bodies(benchmark.BodyOptions{Benchmark: b, API: openaichat.Protocol, Round: "v5.1"}); err == nil || !strings.Contains(err.Error(), `round "v5.1"`) {
		t.Errorf("unknown round: error %v", err)
	}
	// Each round's bodies (v6.1's by default) carry its own user text.
	for round, userText := range map[string]func(int) string{"": q.UserTextV61, "v6.1": q.UserTextV61, "v6.0": q.UserText} {
		builder, prefix, err := d.Bodies(benchmark.BodyOptions{Benchmark: b, API: openaichat.Protocol, Model: b.Serving.Model, Round: round})
		if err != nil || !strings.Contains(string(prefix), "Please analyze the product") {
			t.Fatalf("round %q: chat prefix %.80q, err %v", round, prefix, err)
		}
		built := 0
		err = builder.Build([]int{0, 5}, func(i int, body []byte) {
			built++
			if !bytes.HasPrefix(body, prefix) || !bytes.Contains(body, []byte(b.Serving.Model)) {
				t.Errorf("round %q: sample %d body does not start with the shared prefix or lacks the model", round, i)
			}
			var req struct {
				Messages []struct {
					Content json.RawMessage `json:"content"`
				} `json:"messages"`
			}
			var parts []struct {
				Text string `json:"text"`
			}
			if err := json.Unmarshal(body, &req); err != nil || len(req.Messages) != 2 {
				t.Fatalf("round %q: sample %d body: %v", round, i, err)
			}
			if err := json.Unmarshal(req.Messages[1].Content, &parts); err != nil || len(parts) != 2 || parts[0].Text != userText(i) {
				t.Errorf("round %q: sample %d body lacks its round's user text (%v)", round, i, err)
			}
		})
		if err != nil || built != 2 {
			t.Errorf("round %q: built %d bodies, err %v", round, built, err)
		}
	}

	// Every answer but the first empty: schema-invalid, far below the
	// target.
	var entries []mllog.AccuracyEntry
	for i := 0; i < d.Len(); i++ {
		entries = append(entries, mllog.AccuracyEntry{SeqID: uint64(i), QSLIndex: i, Data: []byte{}})
	}
	entries[0].Data = []byte(answers[0].Right)
	logPath := filepath.Join(dir, "mlperf_log_accuracy.json")
	f, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	if err := mllog.WriteAccuracy(f, entries); err != nil {
		t.Fatal(err)
	}
	f.Close()
	seed := uint64(7)
	verdicts := filepath.Join(dir, "verdicts.jsonl")
	ev, err := d.Evaluate(t.Context(), logPath, benchmark.EvalOptions{Benchmark: b, Seed: &seed, Workers: 1, Verdicts: verdicts})
	if err != nil {
		t.Fatal(err)
	}
	// One verdict per entry: the right answer parsed and matching
	// everywhere, the empty ones null with the schema's reason.
	vs, err := benchmark.ReadVerdicts(verdicts)
	if err != nil || len(vs) != len(entries) {
		t.Fatalf("%d verdicts for %d entries (%v)", len(vs), len(entries), err)
	}
	if v := vs[0]; v.Extracted == nil || !strings.Contains(*v.Extracted, q.Sample(0).Category) || v.Metrics["category_f1"] != 1 || v.Metrics["brand_match"] != 1 || v.Metrics["is_secondhand_match"] != 1 {
		t.Errorf("right answer's verdict %+v", v)
	}
	for _, v := range vs[1:] {
		if v.Extracted != nil || v.Why == "" || v.Metrics["category_f1"] != 0 {
			t.Errorf("empty answer's verdict %+v", v)
		}
	}
	if ev.Failure == nil || !strings.Contains(ev.Failure.Error(), "below the target") {
		t.Errorf("failure %v\n%s", ev.Failure, ev.Report)
	}
	if acc := ev.AccuracyTxt; !strings.Contains(string(acc), `"f1"`) {
		t.Errorf("accuracy.txt %q\n%s", acc, ev.Report)
	}
	if _, err := os.Stat(filepath.Join(dir, "accuracy.txt")); err == nil {
		t.Error("the evaluator wrote accuracy.txt itself: its caller writes what it returns")
	}
}
