package check

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mlperf-go/mlperf-go/submission/internal/logtest"
	"github.com/mlperf-go/mlperf-go/submission/internal/treetest"
)

func TestCheckValidTree(t *testing.T) {
	for _, round := range []string{"v6.0", "v6.1"} {
		out := treetest.BuildTree(t, round)
		if ps := Check(out, round); len(ps) != 0 {
			t.Errorf("%s: valid tree has problems:\n%s", round, logtest.ProblemsText(ps))
		}
		// The division directory itself is accepted too.
		if ps := Check(filepath.Join(out, "closed"), round); len(ps) != 0 {
			t.Errorf("%s: checking closed/ directly: %s", round, logtest.ProblemsText(ps))
		}
	}
}

// want is one expected problem: a suffix of its File and a part of its Msg.
type want struct{ file, msg string }

func TestCheckRules(t *testing.T) {
	const L, G, Q = logtest.BenchmarkLlama8B, logtest.BenchmarkGPTOSS, logtest.BenchmarkQwen3VL
	const perfDetailFile = "performance/run_1/mlperf_log_detail.txt"
	tests := []struct {
		name   string
		round  string // default v6.1
		mutate func(t *testing.T, out string)
		want   []want
	}{
		{"wrong seed", "", func(t *testing.T, out string) {
			treetest.EditDetail(t, out, "v6.1", L, "Offline", "perf", func(d *logtest.DetailFixture) {
				d.Set("effective_schedule_rng_seed", logtest.RawJSON("3936089224930324775"))
			})
		}, []want{{L + "/Offline/" + perfDetailFile, "effective_schedule_rng_seed is 3936089224930324775, round v6.1 requires 16159082839903944936"}}},
		{"v6.0 seeds checked against v6.1 differ in all three", "", func(t *testing.T, out string) {
			treetest.EditDetail(t, out, "v6.0", Q, "Offline", "perf", func(d *logtest.DetailFixture) {})
		}, []want{
			{Q + "/Offline/" + perfDetailFile, "effective_qsl_rng_seed"},
			{Q + "/Offline/" + perfDetailFile, "effective_sample_index_rng_seed"},
			{Q + "/Offline/" + perfDetailFile, "effective_schedule_rng_seed"},
		}},
		{"scenario mismatch", "", func(t *testing.T, out string) {
			treetest.EditDetail(t, out, "v6.1", L, "Offline", "perf", func(d *logtest.DetailFixture) { d.Set("effective_scenario", "Server") })
		}, []want{{L + "/Offline/" + perfDetailFile, `effective_scenario is "Server" but the directory is Offline`}}},
		{"min duration", "", func(t *testing.T, out string) {
			treetest.EditDetail(t, out, "v6.1", G, "Offline", "perf", func(d *logtest.DetailFixture) { d.Set("effective_min_duration_ms", 599999) })
		}, []want{{G + "/Offline/" + perfDetailFile, "effective_min_duration_ms is 599999, must be at least 600000"}}},
		{"performance sample count", "", func(t *testing.T, out string) {
			treetest.EditDetail(t, out, "v6.1", G, "Interactive", "perf", func(d *logtest.DetailFixture) { d.Set("effective_performance_sample_count", 6395) })
		}, []want{{G + "/Interactive/" + perfDetailFile, "effective_performance_sample_count is 6395, must be at least 6396"}}},
		{"offline samples per query", "", func(t *testing.T, out string) {
			treetest.EditDetail(t, out, "v6.1", Q, "Offline", "perf", func(d *logtest.DetailFixture) { d.Set("effective_samples_per_query", 48288) })
		}, []want{{Q + "/Offline/" + perfDetailFile, "effective_samples_per_query is 48288, must be at least 48289"}}},
		{"offline min query count", "", func(t *testing.T, out string) {
			treetest.EditDetail(t, out, "v6.1", Q, "Offline", "perf", func(d *logtest.DetailFixture) { d.Set("effective_min_query_count", 0) })
		}, []want{{Q + "/Offline/" + perfDetailFile, "effective_min_query_count is 0, must be at least 1"}}},
		{"early stopping not met", "", func(t *testing.T, out string) {
			treetest.EditDetail(t, out, "v6.1", Q, "Server", "perf", func(d *logtest.DetailFixture) {
				d.Set("early_stopping_met", false)
				d.Set("early_stopping_result", "Run more queries")
			})
		}, []want{{Q + "/Server/" + perfDetailFile, "early stopping condition not met: Run more queries"}}},
		{"server target latency above constraint", "", func(t *testing.T, out string) {
			treetest.EditDetail(t, out, "v6.1", Q, "Server", "perf", func(d *logtest.DetailFixture) { d.Set("effective_target_latency_ns", int64(12000000001)) })
		}, []want{{Q + "/Server/" + perfDetailFile, "effective_target_latency_ns 12000000001 exceeds the Server limit 12000000000"}}},
		{"server target latency at constraint is fine", "", func(t *testing.T, out string) {
			treetest.EditDetail(t, out, "v6.1", Q, "Server", "perf", func(d *logtest.DetailFixture) { d.Set("effective_target_latency_ns", int64(12000000000)) })
		}, nil},
		{"TTFT must be strictly below", "", func(t *testing.T, out string) {
			treetest.EditDetail(t, out, "v6.1", L, "Server", "perf", func(d *logtest.DetailFixture) {
				d.Set("result_first_token_99.00_percentile_latency_ns", int64(2000000000))
			})
		}, []want{{L + "/Server/" + perfDetailFile, "p99 TTFT 2000000000 ns and TPOT 10000000 ns must be below 2000000000 ns and 100000000 ns for Server"}}},
		{"Interactive held to Interactive TPOT", "", func(t *testing.T, out string) {
			treetest.EditDetail(t, out, "v6.1", G, "Interactive", "perf", func(d *logtest.DetailFixture) {
				d.Set("result_time_per_output_token_99.00_percentile_ns", int64(20000000))
			})
		}, []want{{G + "/Interactive/" + perfDetailFile, "must be below 2000000000 ns and 15000000 ns for Interactive"}}},
		{"token latencies off", "", func(t *testing.T, out string) {
			treetest.EditDetail(t, out, "v6.1", L, "Offline", "perf", func(d *logtest.DetailFixture) { d.Set("requested_use_token_latencies", false) })
		}, []want{{L + "/Offline/" + perfDetailFile, "use_token_latencies is not enabled"}}},
		{"result metric missing", "", func(t *testing.T, out string) {
			treetest.EditDetail(t, out, "v6.1", L, "Offline", "perf", func(d *logtest.DetailFixture) { d.Del("result_tokens_per_second") })
		}, []want{{L + "/Offline/" + perfDetailFile, `key "result_tokens_per_second" is missing`}}},
		{"sample rate missing for an LLM too", "", func(t *testing.T, out string) {
			treetest.EditDetail(t, out, "v6.1", G, "Interactive", "perf", func(d *logtest.DetailFixture) { d.Del("result_completed_samples_per_sec") })
		}, []want{{G + "/Interactive/" + perfDetailFile, `key "result_completed_samples_per_sec" is missing`}}},
		{"LoadGen said INVALID", "", func(t *testing.T, out string) {
			logtest.MustWrite(t, filepath.Join(treetest.ScenDir(out, L, "Offline"), "performance/run_1/mlperf_log_summary.txt"), strings.Replace(logtest.ValidSummary, "VALID", "INVALID", 1))
		}, []want{{L + "/Offline/performance/run_1/mlperf_log_summary.txt", `"Result is : INVALID"`}}},
		{"result_validity INVALID in detail", "", func(t *testing.T, out string) {
			treetest.EditDetail(t, out, "v6.1", L, "Offline", "perf", func(d *logtest.DetailFixture) { d.Set("result_validity", "INVALID") })
		}, []want{{L + "/Offline/" + perfDetailFile, `result_validity is "INVALID"`}}},
		{"LoadGen error in performance log", "", func(t *testing.T, out string) {
			treetest.EditDetail(t, out, "v6.1", L, "Offline", "perf", func(d *logtest.DetailFixture) { d.Errors = []string{"SUT completed an unknown sample"} })
		}, []want{{L + "/Offline/" + perfDetailFile, "LoadGen logged an error: error_runtime: SUT completed an unknown sample"}}},
		{"detail log not in MLLOG format", "", func(t *testing.T, out string) {
			logtest.MustWrite(t, filepath.Join(treetest.ScenDir(out, L, "Offline"), perfDetailFile), "pid: 1 ts: 2\n")
		}, []want{{L + "/Offline/" + perfDetailFile, "does not start with"}}},
		{"performance summary missing", "", func(t *testing.T, out string) {
			os.Remove(filepath.Join(treetest.ScenDir(out, L, "Offline"), "performance/run_1/mlperf_log_summary.txt"))
		}, []want{{L + "/Offline/performance/run_1/mlperf_log_summary.txt", "no such file"}}},
		{"accuracy below target", "", func(t *testing.T, out string) {
			logtest.MustWrite(t, filepath.Join(treetest.ScenDir(out, L, "Server"), "accuracy/accuracy.txt"), strings.Replace(logtest.AccuracyTxt(L), "'rouge1': '38.9'", "'rouge1': '38.3'", 1))
		}, []want{{L + "/Server/accuracy/accuracy.txt", "ROUGE1 = 38.3 is below the required 38.391408"}}},
		{"gen_len above upper limit", "", func(t *testing.T, out string) {
			logtest.MustWrite(t, filepath.Join(treetest.ScenDir(out, L, "Server"), "accuracy/accuracy.txt"), strings.Replace(logtest.AccuracyTxt(L), "8167644", "8984409", 1))
		}, []want{{L + "/Server/accuracy/accuracy.txt", "GEN_LEN = 8984409 is above the upper limit 8984408.4"}}},
		{"gpt-oss exact_match below", "", func(t *testing.T, out string) {
			logtest.MustWrite(t, filepath.Join(treetest.ScenDir(out, G, "Offline"), "accuracy/accuracy.txt"), strings.Replace(logtest.AccuracyTxt(G), "83.500", "82.298", 1))
		}, []want{{G + "/Offline/accuracy/accuracy.txt", "exact_match = 82.298 is below the required 82.2987"}}},
		{"deepseek-r1 tokens_per_sample above its upper limit", "", func(t *testing.T, out string) {
			logtest.MustWrite(t, filepath.Join(treetest.ScenDir(out, logtest.BenchmarkDeepSeekR1, "Server"), "accuracy/accuracy.txt"), strings.Replace(logtest.AccuracyTxt(logtest.BenchmarkDeepSeekR1), "3886.2", "4274.9", 1))
		}, []want{{logtest.BenchmarkDeepSeekR1 + "/Server/accuracy/accuracy.txt", "TOKENS_PER_SAMPLE = 4274.9 is above the upper limit 4274.85014"}}},
		// v6.0: a ROUGE-1 of 44.0 meets llama2-70b-99's 99% bound, not
		// -99.9's, though both are the same LoadGen benchmark.
		{"llama2-70b 99% and 99.9% bounds", "v6.0", func(t *testing.T, out string) {
			for _, b := range []string{logtest.BenchmarkLlama2, logtest.BenchmarkLlama2_99} {
				logtest.MustWrite(t, filepath.Join(treetest.ScenDir(out, b, "Offline"), "accuracy/accuracy.txt"), strings.Replace(logtest.AccuracyTxt(b), "'rouge1': 44.4542", "'rouge1': 44.0", 1))
			}
		}, []want{{logtest.BenchmarkLlama2 + "/Offline/accuracy/accuracy.txt", "ROUGE1 = 44.0 is below the required 44.3867688"}}},
		{"llama2-70b-99 in v6.1", "", func(t *testing.T, out string) {
			src := filepath.Join(treetest.ScenDir(out, logtest.BenchmarkLlama2, "Offline"), "..")
			if b, err := exec.Command("cp", "-r", src, filepath.Join(src, "..", logtest.BenchmarkLlama2_99)).CombinedOutput(); err != nil {
				t.Fatal(string(b))
			}
		}, []want{{"/" + logtest.BenchmarkLlama2_99, "llama2-70b-99 is not a benchmark of round v6.1"}}},
		{"qwen f1 line missing", "", func(t *testing.T, out string) {
			logtest.MustWrite(t, filepath.Join(treetest.ScenDir(out, Q, "Offline"), "accuracy/accuracy.txt"), "{'f1': 0.8}\n"+logtest.TestHash)
		}, []want{{Q + "/Offline/accuracy/accuracy.txt", "no line matches the checker's F1_HIERARCHICAL pattern"}}},
		{"hash missing", "", func(t *testing.T, out string) {
			logtest.MustWrite(t, filepath.Join(treetest.ScenDir(out, Q, "Offline"), "accuracy/accuracy.txt"), "{\"f1\": 0.7903}\n")
		}, []want{{Q + "/Offline/accuracy/accuracy.txt", "no hash= line"}}},
		{"accuracy log too large", "", func(t *testing.T, out string) {
			logtest.MustWrite(t, filepath.Join(treetest.ScenDir(out, Q, "Offline"), "accuracy/mlperf_log_accuracy.json"), logtest.FakeAccLog(10241))
		}, []want{{Q + "/Offline/accuracy/mlperf_log_accuracy.json", "accuracy log has 10241 bytes; the limit is 10240"}}},
		{"accuracy log of exactly 10240 bytes is fine", "", func(t *testing.T, out string) {
			logtest.MustWrite(t, filepath.Join(treetest.ScenDir(out, Q, "Offline"), "accuracy/mlperf_log_accuracy.json"), logtest.FakeAccLog(10240))
		}, nil},
		{"accuracy run did not cover the dataset", "", func(t *testing.T, out string) {
			treetest.EditDetail(t, out, "v6.1", G, "Offline", "accuracy", func(d *logtest.DetailFixture) { d.Set("effective_accuracy_sample_count", 6396) })
		}, []want{{G + "/Offline/accuracy/mlperf_log_detail.txt", "accuracy run covered 6396 samples (effective_accuracy_sample_count); the dataset has 4395"}}},
		{"accuracy log from a performance run", "", func(t *testing.T, out string) {
			d := logtest.PerfDetail("v6.1", G, "Offline", "PerformanceOnly")
			logtest.MustWrite(t, filepath.Join(treetest.ScenDir(out, G, "Offline"), "accuracy/mlperf_log_detail.txt"), d.Render())
		}, []want{{G + "/Offline/accuracy/mlperf_log_detail.txt", `effective_test_mode is "PerformanceOnly", not AccuracyOnly`}}},
		{"LoadGen error in accuracy log", "", func(t *testing.T, out string) {
			treetest.EditDetail(t, out, "v6.1", G, "Offline", "accuracy", func(d *logtest.DetailFixture) { d.Errors = []string{"boom"} })
		}, []want{{G + "/Offline/accuracy/mlperf_log_detail.txt", "LoadGen logged an error: error_runtime: boom"}}},
		{"accuracy.txt missing", "", func(t *testing.T, out string) {
			os.Remove(filepath.Join(treetest.ScenDir(out, G, "Offline"), "accuracy/accuracy.txt"))
		}, []want{{G + "/Offline/accuracy/accuracy.txt", "accuracy run file accuracy.txt is missing"}}},
		{"TEST06 EOS failed", "", func(t *testing.T, out string) {
			logtest.MustWrite(t, filepath.Join(treetest.ScenDir(out, L, "Server"), "TEST06/verify_accuracy.txt"),
				"First token check pass: True\nEOS check pass: False\nSample length check pass: True\nTEST06 verification failed\n")
		}, []want{{L + "/Server/TEST06/verify_accuracy.txt", "TEST06 EOS check did not pass"}}},
		{"TEST06 first token failed", "", func(t *testing.T, out string) {
			logtest.MustWrite(t, filepath.Join(treetest.ScenDir(out, L, "Server"), "TEST06/verify_accuracy.txt"),
				"First token check pass: False\nEOS check pass: True\nSample length check pass: True\n")
		}, []want{{L + "/Server/TEST06/verify_accuracy.txt", "TEST06 first-token check did not pass"}}},
		{"TEST06 sample length failed", "", func(t *testing.T, out string) {
			logtest.MustWrite(t, filepath.Join(treetest.ScenDir(out, L, "Server"), "TEST06/verify_accuracy.txt"),
				"First token check pass: True\nEOS check pass: True\nSample length check pass: False\n")
		}, []want{{L + "/Server/TEST06/verify_accuracy.txt", "TEST06 sample length check did not pass"}}},
		{"TEST06 missing", "", func(t *testing.T, out string) {
			os.RemoveAll(filepath.Join(treetest.ScenDir(out, L, "Offline"), "TEST06"))
		}, []want{{L + "/Offline/TEST06", "compliance test TEST06 is missing"}}},
		{"TEST07 failed", "", func(t *testing.T, out string) {
			logtest.MustWrite(t, filepath.Join(treetest.ScenDir(out, G, "Offline"), "TEST07/verify_accuracy.txt"), "Accuracy check pass: False\nTEST FAIL\n")
		}, []want{{G + "/Offline/TEST07/verify_accuracy.txt", "TEST07 verification did not pass"}}},
		{"TEST09 verification missing", "", func(t *testing.T, out string) {
			os.Remove(filepath.Join(treetest.ScenDir(out, G, "Interactive"), "TEST09/verify_output_len.txt"))
		}, []want{{G + "/Interactive/TEST09/verify_output_len.txt", "verify_output_len.txt is missing"}}},
		{"system field missing", "", func(t *testing.T, out string) {
			treetest.EditSystem(t, out, func(v map[string]any) { delete(v, "cooling") })
		}, []want{{"systems/sys1.json", `field "cooling" is missing`}}},
		{"system field empty", "", func(t *testing.T, out string) {
			treetest.EditSystem(t, out, func(v map[string]any) { v["accelerators_per_node"] = 0 })
		}, []want{{"systems/sys1.json", `field "accelerators_per_node" must not be empty (or 0)`}}},
		{"system optional field may be empty", "", func(t *testing.T, out string) {
			treetest.EditSystem(t, out, func(v map[string]any) { v["hw_notes"] = "" })
		}, nil},
		{"system status", "", func(t *testing.T, out string) {
			treetest.EditSystem(t, out, func(v map[string]any) { v["status"] = "released" })
		}, []want{{"systems/sys1.json", `field "status" is released`}}},
		{"system type", "", func(t *testing.T, out string) {
			treetest.EditSystem(t, out, func(v map[string]any) { v["system_type"] = "datacenter, edge" })
		}, []want{{"systems/sys1.json", `field "system_type" is datacenter, edge`}}},
		{"system nodes not integer", "", func(t *testing.T, out string) {
			treetest.EditSystem(t, out, func(v map[string]any) { v["number_of_nodes"] = "one" })
		}, []want{{"systems/sys1.json", `field "number_of_nodes" is "one"; it must be an integer`}}},
		{"system submitter mismatch", "", func(t *testing.T, out string) {
			treetest.EditSystem(t, out, func(v map[string]any) { v["submitter"] = "Other" })
		}, []want{{"systems/sys1.json", `field "submitter" is "Other" but the submission directory says "Org"`}}},
		{"system is_network in closed", "", func(t *testing.T, out string) {
			treetest.EditSystem(t, out, func(v map[string]any) { v["is_network"] = "true" })
		}, []want{{"systems/sys1.json", `is_network`}}},
		{"system template placeholder", "", func(t *testing.T, out string) {
			treetest.EditSystem(t, out, func(v map[string]any) { v["cooling"] = "TODO: fill in cooling" })
		}, []want{{"systems/sys1.json", `field "cooling" still holds the template placeholder`}}},
		{"system JSON missing", "", func(t *testing.T, out string) {
			os.Remove(filepath.Join(out, "closed/Org/systems/sys1.json"))
		}, []want{{"systems/sys1.json", "systems JSON for results/sys1 is missing"}}},
		{"measurements field empty", "", func(t *testing.T, out string) {
			logtest.WriteJSON(t, filepath.Join(treetest.ScenDir(out, Q, "Server"), "measurements.json"), map[string]any{
				"input_data_types": "int32", "retraining": "No", "starting_weights_filename": "",
				"weight_data_types": "bf16", "weight_transformations": "none"})
		}, []want{{Q + "/Server/measurements.json", `field "starting_weights_filename" must not be empty`}}},
		{"measurements missing", "", func(t *testing.T, out string) {
			os.Remove(filepath.Join(treetest.ScenDir(out, Q, "Server"), "measurements.json"))
		}, []want{{Q + "/Server/measurements.json", "measurements.json is missing"}}},
		{"README missing", "", func(t *testing.T, out string) {
			os.Remove(filepath.Join(treetest.ScenDir(out, Q, "Server"), "README.md"))
		}, []want{{Q + "/Server/README.md", "README.md is missing"}}},
		{"user.conf empty", "", func(t *testing.T, out string) {
			logtest.MustWrite(t, filepath.Join(treetest.ScenDir(out, Q, "Server"), "user.conf"), "")
		}, []want{{Q + "/Server/user.conf", "user.conf is empty"}}},
		{"required scenario missing", "", func(t *testing.T, out string) {
			os.RemoveAll(treetest.ScenDir(out, L, "Offline"))
		}, []want{{L + "/Offline", "required scenario Offline is missing"}}},
		{"neither Server nor Interactive", "", func(t *testing.T, out string) {
			os.RemoveAll(treetest.ScenDir(out, G, "Interactive"))
		}, []want{{G, "one of Interactive or Server is required"}}},
		{"v6.0 qwen3-vl needs Server", "v6.0", func(t *testing.T, out string) {
			os.RemoveAll(treetest.ScenDir(out, Q, "Server"))
		}, []want{{Q + "/Server", "required scenario Server is missing"}}},
		{"unknown scenario directory", "", func(t *testing.T, out string) {
			os.MkdirAll(treetest.ScenDir(out, Q, ".previous-Offline-20261121T084648Z"), 0o755)
		}, []want{{Q + "/.previous-Offline-20261121T084648Z", "is not allowed for qwen3-vl-235b-a22b"}}},
		{"moved-aside run inside a scenario", "", func(t *testing.T, out string) {
			os.MkdirAll(filepath.Join(treetest.ScenDir(out, Q, "Offline"), ".previous-accuracy-20261121T084648Z"), 0o755)
		}, []want{{Q + "/Offline/.previous-accuracy-20261121T084648Z", "leftover replaced run"}}},
		{"open division: no compliance or accuracy bounds, but no stray directories", "", func(t *testing.T, out string) {
			os.Rename(filepath.Join(out, "closed"), filepath.Join(out, "open"))
			logtest.WriteJSON(t, filepath.Join(out, "open", "Org", "systems", "sys1.json"), treetest.ValidSystemJSON("open", "Org"))
			d := filepath.Join(out, "open/Org/results/sys1", L, "Offline")
			os.RemoveAll(filepath.Join(d, "TEST06"))
			logtest.MustWrite(t, filepath.Join(d, "accuracy/accuracy.txt"), strings.Replace(logtest.AccuracyTxt(L), "'rouge1': '38.9'", "'rouge1': '30.0'", 1))
			os.MkdirAll(filepath.Join(out, "open/Org/results/sys1", L, ".previous-Server-x"), 0o755)
		}, []want{{"open/Org/results/sys1/" + L + "/.previous-Server-x", "is not a scenario directory"}}},
		{"unknown benchmark", "", func(t *testing.T, out string) {
			os.MkdirAll(filepath.Join(out, "closed/Org/results/sys1/resnet50/Offline"), 0o755)
		}, []want{{"sys1/resnet50", `unknown benchmark directory "resnet50"`}}},
		{"src missing", "", func(t *testing.T, out string) {
			os.RemoveAll(filepath.Join(out, "closed/Org/src"))
		}, []want{{"closed/Org/src", "required directory src/ is missing"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			round := tc.round
			if round == "" {
				round = "v6.1"
			}
			out := treetest.BuildTree(t, round)
			tc.mutate(t, out)
			got := Check(out, round)
			if len(got) != len(tc.want) {
				t.Fatalf("got %d problems, want %d:\n%s", len(got), len(tc.want), logtest.ProblemsText(got))
			}
			for _, w := range tc.want {
				found := false
				for _, p := range got {
					if strings.HasSuffix(filepath.ToSlash(p.File), w.file) && strings.Contains(p.Msg, w.msg) && p.Fix != "" {
						found = true
					}
				}
				if !found {
					t.Errorf("no problem with file …%s and message containing %q; got:\n%s", w.file, w.msg, logtest.ProblemsText(got))
				}
			}
		})
	}
}

func TestCheckBadInput(t *testing.T) {
	if ps := Check(t.TempDir(), "v6.1"); len(ps) != 1 || !strings.Contains(ps[0].Msg, "no closed/") {
		t.Errorf("empty dir: %v", ps)
	}
	if ps := Check(t.TempDir(), "v5.0"); len(ps) != 1 || !strings.Contains(ps[0].Msg, "unknown round") {
		t.Errorf("bad round: %v", ps)
	}
}

// TestCheckEmptyTreeAndCutLog: a packaged tree whose folders are all empty
// is not "no problems found", and a performance detail log cut before its
// last line (num_errors) is named.
func TestCheckEmptyTreeAndCutLog(t *testing.T) {
	t.Parallel()
	empty := t.TempDir()
	for _, d := range []string{"results", "systems", "src", "documentation"} {
		if err := os.MkdirAll(filepath.Join(empty, "closed", "Org", d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	ps := Check(empty, "v6.1")
	if got := logtest.ProblemsText(ps); !strings.Contains(got, "results/ holds no system") || !strings.Contains(got, "systems/ holds no systems JSON") {
		t.Errorf("empty tree: %s", got)
	}

	out := treetest.BuildTree(t, "v6.1")
	detail := filepath.Join(treetest.ScenDir(out, logtest.BenchmarkLlama8B, "Offline"), "performance", "run_1", "mlperf_log_detail.txt")
	b, err := os.ReadFile(detail)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(strings.TrimSuffix(string(b), "\n"), "\n")
	if !strings.Contains(lines[len(lines)-1], `"num_errors"`) {
		t.Fatalf("the fixture's last line is not num_errors: %s", lines[len(lines)-1])
	}
	logtest.MustWrite(t, detail, strings.Join(lines[:len(lines)-1], ""))
	if got := logtest.ProblemsText(Check(out, "v6.1")); !strings.Contains(got, "ends before num_errors") {
		t.Errorf("cut detail log not named: %s", got)
	}
}
