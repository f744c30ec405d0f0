package results

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mlperf-go/mlperf-go/engine/metrics"
	"github.com/mlperf-go/mlperf-go/loadgen/mllog"
	"github.com/mlperf-go/mlperf-go/record"
)

// detailLines renders detail-log lines from key/value pairs, as LoadGen writes
// them.
func detailLines(kv ...any) string {
	var b strings.Builder
	for i := 0; i < len(kv); i += 2 {
		v, _ := json.Marshal(kv[i+1])
		isErr := strings.HasPrefix(kv[i].(string), "error")
		fmt.Fprintf(&b, `:::MLLOG {"key": %q, "value": %s, "time_ms": 1.0, "namespace": "mlperf::logging", "event_type": "POINT_IN_TIME", "metadata": {"is_error": %v, "is_warning": false, "file": "results.cc", "line_no": 1, "pid": 1, "tid": 1}}`+"\n", kv[i], v, isErr)
	}
	return b.String()
}

func writeRun(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

var offlineLLM = detailLines(
	"loadgen_version", "6.0.17 @ NA",
	"test_datetime", "2026-11-23T12:00:00Z",
	"qsl_reported_total_count", 100,
	"effective_scenario", "Offline",
	"effective_test_mode", "PerformanceOnly",
	"effective_target_qps", 12.5,
	"effective_qsl_rng_seed", json.Number("16159082839903944936"),
	"requested_use_token_latencies", true,
	"result_validity", "VALID",
	"result_min_duration_met", true,
	"result_min_queries_met", true,
	"early_stopping_met", true,
	"early_stopping_result", "",
	"result_samples_per_second", 11.9876,
	"result_min_latency_ns", 1000,
	"result_max_latency_ns", 9000,
	"result_mean_latency_ns", 5000,
	"result_50.00_percentile_latency_ns", 4800,
	"result_99.00_percentile_latency_ns", 8900,
	"result_tokens_per_second", 1534.5,
	"num_errors", 0,
)

func TestBuildOfflineLLM(t *testing.T) {
	start := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	dir := writeRun(t, map[string]string{
		mllog.DetailFile:  offlineLLM,
		mllog.SummaryFile: "MLPerf Results Summary\nResult is : VALID\n",
	})
	if err := record.Write(dir, record.Run{
		Command:        []string{"mlperf-go", "run", "-e", "http://alice:s3cret@gpu0:8000/v1"},
		HarnessVersion: "v1.2.3", LoadGenVersion: "6.0.17", Round: "v6.1",
		Benchmark: "llama3_1-8b", Scenario: "Offline", Kind: "performance",
		Endpoints: []string{"http://alice:s3cret@gpu0:8000/v1", "http://gpu1:8000"},
		API:       "completions", Model: "meta-llama/Llama-3.1-8B-Instruct",
		Engine: "vLLM 0.11.0", EngineFlags: []string{"--api-key", "sk-123", "--hf-token=hf_abc", "--max-num-seqs 256"},
		Start: start, End: start.Add(90 * time.Second),
		Samples: &record.SampleCounts{Issued: 100, Completed: 100},
	}); err != nil {
		t.Fatal(err)
	}
	r, err := Build(dir)
	if err != nil {
		t.Fatal(err)
	}
	if r.Schema != Schema || r.Outcome.Status != StatusValid || len(r.Outcome.Reasons) != 0 {
		t.Errorf("schema %q outcome %+v", r.Schema, r.Outcome)
	}
	if h := r.Metrics.Headline; h == nil || h.Value != 11.9876 || h.Key != "result_samples_per_second" {
		t.Errorf("headline %+v", h)
	}
	if tp := r.Metrics.TokensPerSecond; tp == nil || tp.Value != 1534.5 {
		t.Errorf("tokens/s %+v", tp)
	}
	if l := r.Metrics.Latency; l == nil || *l.Min != 1000 || *l.Mean != 5000 || l.Percentiles["99.00"] != 8900 || len(l.Percentiles) != 2 {
		t.Errorf("latency %+v", l)
	}
	if r.Metrics.TTFT != nil || r.Metrics.TPOT != nil {
		t.Errorf("Offline has no TTFT/TPOT in LoadGen's log, got %+v %+v", r.Metrics.TTFT, r.Metrics.TPOT)
	}
	if r.Settings["scenario"] != "Offline" || r.Settings["qsl_rng_seed"] != json.Number("16159082839903944936") || r.Settings["use_token_latencies"] != true {
		t.Errorf("settings %v", r.Settings)
	}
	if r.Run.DurationSeconds != 90 || r.Run.Benchmark != "llama3_1-8b" || r.Versions.LoadGenDetail != "6.0.17 @ NA" || r.Versions.Harness != "v1.2.3" {
		t.Errorf("run %+v versions %+v", r.Run, r.Versions)
	}
	b, _ := json.Marshal(r)
	for _, secret := range []string{"s3cret", "alice", "sk-123", "hf_abc"} {
		if strings.Contains(string(b), secret) {
			t.Errorf("results hold the secret %q: %s", secret, b)
		}
	}
	if r.Endpoints[0] != "http://gpu0:8000/v1" || r.Engine.Flags[1] != "REDACTED" || r.Engine.Flags[2] != "--hf-token=REDACTED" || r.Engine.Flags[3] != "--max-num-seqs 256" {
		t.Errorf("endpoints %v engine flags %v", r.Endpoints, r.Engine.Flags)
	}

	// Written and read back unchanged.
	if err := Write(dir, r); err != nil {
		t.Fatal(err)
	}
	back, err := Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	if back.Metrics.Headline.Value != r.Metrics.Headline.Value || back.Outcome.Status != r.Outcome.Status {
		t.Errorf("read back %+v", back)
	}
}

func TestBuildOutcomes(t *testing.T) {
	invalid := detailLines(
		"effective_scenario", "Server",
		"effective_test_mode", "PerformanceOnly",
		"result_validity", "INVALID",
		"result_perf_constraints_met", false,
		"result_min_duration_met", true,
		"result_min_queries_met", true,
		"early_stopping_met", true,
		"result_invalid_reason", "Reduce target QPS to improve latency. ",
		"error_runtime", "n_tokens argument missing",
		"error_runtime", "n_tokens argument missing",
		"result_completed_samples_per_sec", 3.5,
	)
	dir := writeRun(t, map[string]string{mllog.DetailFile: invalid})
	r, err := Build(dir)
	if err != nil {
		t.Fatal(err)
	}
	o := r.Outcome
	if o.Status != StatusInvalid || o.LoadGenErrors != 2 || len(o.Messages) != 1 || o.Messages[0].Count != 2 {
		t.Errorf("outcome %+v", o)
	}
	if !strings.Contains(strings.Join(o.Reasons, "\n"), "performance constraints") || !strings.Contains(strings.Join(o.Reasons, "\n"), "Reduce target QPS") {
		t.Errorf("reasons %q", o.Reasons)
	}

	// Failed samples make the run failed whatever LoadGen says, and
	// prefix-cache hits are a warning.
	dir = writeRun(t, map[string]string{
		mllog.DetailFile: offlineLLM,
		metrics.File: `{"unix_ms":1,"endpoint":"http://gpu0:8000","status":"ok","values":{"vllm:prefix_cache_hits_total":10}}
{"unix_ms":2,"endpoint":"http://gpu0:8000","status":"ok","values":{"vllm:prefix_cache_hits_total":50}}
`,
	})
	if err := record.Write(dir, record.Run{Samples: &record.SampleCounts{
		Issued: 100, Completed: 100, Failed: 3, FailuresByReason: map[string]int64{"timeout": 2, "http_status": 1},
		FirstFailures: []record.SampleFailure{{Index: 4, Reason: "http_status", Message: "500 from http://u:pw@h/v1"}},
	}}); err != nil {
		t.Fatal(err)
	}
	r, err = Build(dir)
	if err != nil {
		t.Fatal(err)
	}
	if r.Outcome.Status != StatusFailed || !strings.Contains(r.Outcome.Reasons[0], "3 of 100 samples failed (http_status: 1, timeout: 2)") {
		t.Errorf("outcome %+v", r.Outcome)
	}
	if len(r.Outcome.Warnings) != 1 || !strings.Contains(r.Outcome.Warnings[0], "40 prompt tokens in its prefix cache") {
		t.Errorf("warnings %q", r.Outcome.Warnings)
	}
	if r.Samples.FirstFailures[0].Message != "500 from http://h/v1" {
		t.Errorf("failure message not redacted: %q", r.Samples.FirstFailures[0].Message)
	}

	// A record saying the test was aborted wins over LoadGen's VALID.
	dir = writeRun(t, map[string]string{mllog.DetailFile: offlineLLM})
	if err := record.Write(dir, record.Run{Outcome: record.Aborted, OutcomeReason: "interrupted by terminated"}); err != nil {
		t.Fatal(err)
	}
	if r, err = Build(dir); err != nil {
		t.Fatal(err)
	}
	if r.Outcome.Status != StatusAborted || r.Outcome.LoadGenValidity != "VALID" || !strings.Contains(r.Outcome.Reasons[0], "aborted: interrupted by terminated") {
		t.Errorf("aborted run: outcome %+v", r.Outcome)
	}
	// An aborted run's LoadGen calls it INVALID for what the abort did
	// (too short, too few queries): its advice ("Reduce target QPS") is
	// not why the run failed and is left out.
	dir = writeRun(t, map[string]string{mllog.DetailFile: invalid})
	if err := record.Write(dir, record.Run{Outcome: record.Aborted, OutcomeReason: "interrupted by SIGINT (Ctrl-C)"}); err != nil {
		t.Fatal(err)
	}
	if r, err = Build(dir); err != nil {
		t.Fatal(err)
	}
	if r.Outcome.Status != StatusAborted || len(r.Outcome.Reasons) != 1 || r.Outcome.Reasons[0] != "the test was aborted: interrupted by SIGINT (Ctrl-C)" {
		t.Errorf("aborted INVALID run: reasons %q, want only the abort's", r.Outcome.Reasons)
	}

	// Accuracy runs have no verdict; a log that stops early is incomplete.
	for log, want := range map[string]string{
		detailLines("effective_scenario", "Offline", "effective_test_mode", "AccuracyOnly"):    StatusAccuracy,
		detailLines("effective_scenario", "Offline", "effective_test_mode", "PerformanceOnly"): StatusIncomplete,
	} {
		r, err := Build(writeRun(t, map[string]string{mllog.DetailFile: log}))
		if err != nil || r.Outcome.Status != want {
			t.Errorf("status %v, %v; want %s", r.Outcome.Status, err, want)
		}
	}
}

func TestBuildErrors(t *testing.T) {
	for name, c := range map[string]struct {
		files map[string]string
		want  string
	}{
		"no detail log": {map[string]string{mllog.SummaryFile: "Result is : VALID\n"}, "mlperf_log_detail.txt: no such file"},
		"malformed line": {map[string]string{mllog.DetailFile: offlineLLM + ":::MLLOG {\"key\": \"x\"\n"},
			"mlperf_log_detail.txt, line 22: invalid :::MLLOG JSON"},
		"wrong type": {map[string]string{mllog.DetailFile: detailLines("effective_scenario", "Offline", "result_validity", true)},
			`line 2: "result_validity" is true, want a string`},
		"summary disagrees": {map[string]string{mllog.DetailFile: offlineLLM, mllog.SummaryFile: "Result is : INVALID\n"},
			"not from the same run"},
		"bad run record": {map[string]string{mllog.DetailFile: offlineLLM, record.File: "{"},
			"mlperf_go_run.json is not valid run-info JSON"},
		"bad engine metrics": {map[string]string{mllog.DetailFile: offlineLLM, metrics.File: "{}\nnope\n"},
			"engine_metrics.jsonl, line 2"},
		"never started": {map[string]string{mllog.DetailFile: detailLines("loadgen_version", "6.0.17 @ NA")},
			"no effective_scenario line"},
	} {
		_, err := Build(writeRun(t, c.files))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", name, err, c.want)
		}
	}
	dir := writeRun(t, map[string]string{record.ResultsFile: `{"schema": "mlperf-go/results/v0"}`})
	if _, err := Read(dir); err == nil || !strings.Contains(err.Error(), "mlperf-go report") {
		t.Errorf("old schema: %v", err)
	}
}
