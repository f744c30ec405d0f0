package main

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mlperf-go/mlperf-go/fake"
	"github.com/mlperf-go/mlperf-go/loadgen/loadgentest"
	"github.com/mlperf-go/mlperf-go/loadgen/mllog"
	"github.com/mlperf-go/mlperf-go/tokenizer"
)

// TestDeepSeekR1AndLlama2Runs runs deepseek-r1 and llama2-70b (and v6.0's
// llama2-70b-99, the same runs filed apart) through the CLI against the
// fake endpoint: a Server run and a TEST06 run filed under the checker's
// directory with the round's TTFT/TPOT limits and TEST06 passing (the full
// sequence, first token included, in the final response), an Offline
// accuracy run, and evaluate printing the official metric with its verdict.
func TestDeepSeekR1AndLlama2Runs(t *testing.T) {
	loadgentest.Require(t)
	for _, tc := range []struct {
		bench, dir, ttft, tpot string
	}{
		{"deepseek-r1", "deepseek-r1", "2000000000", "80000000"},
		{"llama2-70b", "llama2-70b-99.9", "2000000000", "200000000"},
		{"llama2-70b-99", "llama2-70b-99", "2000000000", "200000000"},
	} {
		t.Run(tc.bench, func(t *testing.T) {
			b := mustLookup(t, tc.bench)
			dir := t.TempDir()
			files, err := b.Data.Synth(dir, 40, 5)
			if err != nil {
				t.Fatal(err)
			}
			url := startFake(t, fake.Config{Model: b.Serving.Model, OutputTokens: 12, TTFT: 2 * time.Millisecond, TPOT: time.Millisecond})
			results := filepath.Join(dir, "results")
			common := []string{"run", "-b", tc.bench, "-d", files[0], "-e", url, "--results-dir", results, "--system", "sys1",
				"--progress-interval", "0", "--allow-unofficial-settings", "--round", "v6.0"}
			server := append(append([]string{}, common...), "-s", "Server", "--setting", "min_duration=300", "--target-qps", "100", "--min-query-count", "40")
			out, err := runCLI(t, append(server, "-o", filepath.Join(dir, "perf"))...)
			if c := exitCode(err); c != 0 && c != 3 { // a 0.3 s run cannot meet early stopping: INVALID, exit 3
				t.Fatalf("Server run: %v\n%s", err, out)
			}
			scen := filepath.Join(results, "sys1", tc.dir, "Server")
			detail, err := os.ReadFile(filepath.Join(scen, "performance", "run_1", "mlperf_log_detail.txt"))
			if err != nil {
				t.Fatalf("Server run not filed under %s: %v\n%s", scen, err, out)
			}
			for _, want := range []string{
				`"key": "requested_server_ttft_latency", "value": ` + tc.ttft,
				`"key": "requested_server_tpot_latency", "value": ` + tc.tpot,
				`"key": "requested_use_token_latencies", "value": true`,
			} {
				if !strings.Contains(string(detail), want) {
					t.Errorf("filed detail log lacks %s", want)
				}
			}

			out, err = runCLI(t, append(server, "--compliance", "TEST06", "-o", filepath.Join(dir, "t06"))...)
			if c := exitCode(err); c != 0 && c != 3 {
				t.Fatalf("TEST06 run: %v\n%s", err, out)
			}
			verify, err := os.ReadFile(filepath.Join(scen, "TEST06", "verify_accuracy.txt"))
			if err != nil {
				t.Fatalf("TEST06 not verified: %v\n%s", err, out)
			}
			for _, want := range []string{"First token check pass: True", "EOS check pass: True", "Sample length check pass: True", "TEST06 verification complete"} {
				if !strings.Contains(string(verify), want) {
					t.Errorf("verify_accuracy.txt lacks %q:\n%s", want, verify)
				}
			}

			acc := filepath.Join(dir, "acc")
			out, err = runCLI(t, append(common, "-s", "Offline", "-m", "accuracy", "-o", acc)...)
			if err != nil {
				t.Fatalf("accuracy run: %v\n%s", err, out)
			}
			if _, err := os.Stat(filepath.Join(results, "sys1", tc.dir, "Offline", "accuracy", "mlperf_log_accuracy.json")); err != nil {
				t.Errorf("accuracy run not filed: %v", err)
			}
			if tc.bench == "deepseek-r1" {
				checkDeepSeekEvaluate(t, files[0], filepath.Join(acc, "mlperf_log_accuracy.json"))
			} else {
				checkLlama2Evaluate(t, tc.bench, files[0], filepath.Join(acc, "mlperf_log_accuracy.json"))
			}
		})
	}
}

// checkDeepSeekEvaluate scores the fake's answers (token IDs, not answers):
// exact_match 0, below its bound, FAIL with exit 1.
func checkDeepSeekEvaluate(t *testing.T, data, log string) {
	t.Helper()
	var lcb strings.Builder
	for _, r := range synthRecords(t, data) {
		if r.Dataset == "livecodebench" {
			var qid string
			json.Unmarshal(r.GroundTruth, &qid)
			fmt.Fprintf(&lcb, `{"question_id": %q, "public_test_cases": "[{\"input\": \"1\\n\", \"output\": \"2\\n\", \"testtype\": \"stdin\"}]", "private_test_cases": "[]", "metadata": "{}"}`+"\n", qid)
		}
	}
	lcbPath := filepath.Join(t.TempDir(), "test.jsonl")
	os.WriteFile(lcbPath, []byte(lcb.String()), 0o644)
	out, err := runCLI(t, "evaluate", "-b", "deepseek-r1", "-l", log, "-d", data, "--livecodebench", lcbPath,
		"--tokenizer", filepath.Join("..", "..", "tokenizer", "testdata", "bytelevel"))
	if exitCode(err) != 1 || !strings.Contains(out, "=== Accuracy: FAIL ===") || !regexp.MustCompile(`exact_match +0\.0 +>= 80\.544618 +FAIL`).MatchString(out) ||
		!regexp.MustCompile(`TOKENS_PER_SAMPLE +12\.0 +>= 3497\.60466, <= 4274\.85014 +FAIL`).MatchString(out) {
		t.Errorf("evaluate of the fake's answers: %v, want exit 1 and a FAIL table:\n%s", err, out)
	}
}

// checkLlama2Evaluate: the fake's token IDs (under 30,000) lie inside
// Llama 2's 32,000-token vocabulary, so its log passes the vocabulary
// check; the test's 1,200-token stand-in tokenizer cannot decode them,
// which evaluate reports as sentencepiece would. A log of real answers is
// scored and judged against the benchmark's own bounds.
func checkLlama2Evaluate(t *testing.T, bench, data, log string) {
	t.Helper()
	tokDir := filepath.Join("..", "..", "tokenizer", "testdata", "spm-legacy")
	out, err := runCLI(t, "evaluate", "-b", bench, "-l", log, "-d", data, "--tokenizer", tokDir)
	if err == nil || strings.Contains(out, "outside the vocabulary") || !strings.Contains(err.Error(), "(vocabulary size 1200); sentencepiece raises") {
		t.Errorf("evaluate of the fake's IDs with a 1,200-token tokenizer: %v, want the decode refused, not the vocabulary check\n%s", err, out)
	}
	tok, err := tokenizer.Load(filepath.Join(tokDir, "tokenizer.json"))
	if err != nil {
		t.Fatal(err)
	}
	var entries []mllog.AccuracyEntry
	for i, r := range synthRecords(t, data) {
		ids, err := tok.Encode(r.Output)
		if err != nil {
			t.Fatal(err)
		}
		buf := make([]byte, 4*len(ids))
		for k, id := range ids {
			binary.LittleEndian.PutUint32(buf[4*k:], uint32(id))
		}
		entries = append(entries, mllog.AccuracyEntry{SeqID: uint64(i), QSLIndex: i, Data: buf, TokenCount: int64(len(ids)), HasTokenCount: true})
	}
	mine := filepath.Join(t.TempDir(), "mlperf_log_accuracy.json")
	f, err := os.Create(mine)
	if err != nil {
		t.Fatal(err)
	}
	mllog.WriteAccuracy(f, entries)
	f.Close()
	bound := map[string]string{"llama2-70b": `44\.3867688`, "llama2-70b-99": `43\.986888`}[bench]
	out, err = runCLI(t, "evaluate", "-b", bench, "-l", mine, "-d", data, "--tokenizer", tokDir, "--round", "v6.0")
	// The answers are the references themselves: ROUGE 100 passes, but
	// the short synthetic answers miss tokens_per_sample.
	if exitCode(err) != 1 || !regexp.MustCompile(`ROUGE1 +100\.0 +>= `+bound+` +PASS`).MatchString(out) ||
		!regexp.MustCompile(`TOKENS_PER_SAMPLE +[0-9.]+ +>= 265\.005, <= 323\.895 +FAIL`).MatchString(out) {
		t.Errorf("evaluate of the references as answers: %v\n%s", err, out)
	}
}

// synthRecord is what these tests read of a synthetic dataset record.
type synthRecord struct {
	Dataset     string          `json:"dataset"`
	GroundTruth json.RawMessage `json:"ground_truth"`
	Output      string          `json:"output"`
}

func synthRecords(t *testing.T, path string) []synthRecord {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var recs []synthRecord
	if err := json.Unmarshal(b, &recs); err != nil {
		t.Fatal(err)
	}
	return recs
}
