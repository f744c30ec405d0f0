package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mlperf-go/mlperf-go/fake"
	"github.com/mlperf-go/mlperf-go/fake/answers"
	"github.com/mlperf-go/mlperf-go/loadgen/loadgentest"
	resultspkg "github.com/mlperf-go/mlperf-go/results"
)

// TestInteractiveRunFiled runs --scenario Interactive through the CLI for
// each benchmark that has it in mlperf.conf, against the fake endpoint:
// LoadGen must run the Server scenario of the *-interactive model name
// (its own TTFT/TPOT limits, streamed first tokens), and the run must be
// filed under <benchmark>/Interactive/, where the v6.1 checker looks.
func TestInteractiveRunFiled(t *testing.T) {
	loadgentest.Require(t)
	for _, tc := range []struct{ bench, model, dir, ttft, tpot string }{
		// mlperf.conf: *-interactive.Server.ttft_latency / tpot_latency.
		{"llama3_1-8b", "llama3_1-8b-interactive", "llama3.1-8b", "500000000", "30000000"},
		{"gpt-oss-120b", "gpt-oss-120b-interactive", "gpt-oss-120b", "2000000000", "15000000"},
		{"deepseek-r1", "deepseek-r1-interactive", "deepseek-r1", "1500000000", "15000000"},
		{"llama2-70b", "llama2-70b-interactive", "llama2-70b-99.9", "450000000", "40000000"},
	} {
		t.Run(tc.bench, func(t *testing.T) {
			dir := t.TempDir()
			files, err := mustLookup(t, tc.bench).Data.Synth(dir, 24, 5)
			if err != nil {
				t.Fatal(err)
			}
			url := startFake(t, fake.Config{Model: mustLookup(t, tc.bench).Serving.Model, OutputTokens: 8,
				TTFT: 2 * time.Millisecond, TPOT: time.Millisecond})
			results := filepath.Join(dir, "results")
			logs := filepath.Join(dir, "perf")
			out, err := runCLI(t, "run", "-b", tc.bench, "-s", "interactive", "-d", files[0], "-e", url,
				"--results-dir", results, "--allow-unofficial-settings", "--system", "sys1", "--progress-interval", "0", "-o", logs,
				"--setting", "min_duration=300", "--target-qps", "100", "--min-query-count", "24")
			// A 0.3 s run cannot meet early stopping: INVALID is exit 3.
			if c := exitCode(err); c != 0 && c != 3 {
				t.Fatalf("Interactive run: %v\n%s", err, out)
			}
			if !strings.Contains(out, "p99 time to first token") {
				t.Errorf("Interactive report lacks TTFT (not streamed?):\n%s", out)
			}
			if !strings.Contains(out, "Interactive (LoadGen's Server scenario)") {
				t.Errorf("the console names the scenario Server only:\n%s", out)
			}
			if res, err := resultspkg.Read(logs); err != nil || res.Run.ScenarioName != "Interactive" || res.Run.Scenario != "Server" {
				t.Errorf("results.json: %+v (%v), want scenario Server named Interactive", res.Run, err)
			}
			scen := filepath.Join(results, "sys1", tc.dir, "Interactive")
			detail, err := os.ReadFile(filepath.Join(scen, "performance", "run_1", "mlperf_log_detail.txt"))
			if err != nil {
				t.Fatalf("Interactive run not filed under %s: %v\n%s", scen, err, out)
			}
			for _, want := range []string{
				`"key": "effective_scenario", "value": "Server"`,
				`"key": "requested_server_ttft_latency", "value": ` + tc.ttft,
				`"key": "requested_server_tpot_latency", "value": ` + tc.tpot,
				`"key": "requested_use_token_latencies", "value": true`,
			} {
				if !strings.Contains(string(detail), want) {
					t.Errorf("filed detail log lacks %s", want)
				}
			}
			if _, err := os.Stat(filepath.Join(results, "sys1", tc.dir, "Server")); !os.IsNotExist(err) {
				t.Errorf("an Interactive run left a Server directory (stat: %v)", err)
			}
			if _, err := os.Stat(filepath.Join(scen, "user.conf")); err != nil {
				t.Errorf("user.conf not filed: %v", err)
			}
		})
	}
}

// TestQwen3VLInteractive runs qwen3-vl-235b-a22b --scenario Interactive
// with --mode both against the fake endpoint, over a synthetic dataset in
// the 8k dataset's layout (train split only). mlperf.conf has no
// qwen3-vl-235b-a22b-interactive entry, so LoadGen must run the Server
// scenario of qwen3-vl-235b-a22b with the rules' 1.5 s target latency from
// the generated user.conf and mlperf.conf's performance sample count
// (48289, which the v6.1 checker requires of every qwen3-vl run) over the
// smaller library; the accuracy test is judged against the Interactive
// target; both are filed under qwen3-vl-235b-a22b/Interactive/, and the run
// record says what mlperf-go added.
func TestQwen3VLInteractive(t *testing.T) {
	loadgentest.Require(t)
	const n = 24
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	files, err := mustLookup(t, "qwen3-vl-235b-a22b-interactive").Data.Synth(data, n, 9)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if !strings.HasPrefix(filepath.Base(f), "train-") {
			t.Errorf("the Interactive synthetic dataset has a shard outside the train split: %s", f)
		}
	}
	// The base benchmark's default splits (train, test) do not fit the
	// 8k layout; the Interactive variant reads train alone.
	truths, def, err := answers.Chat("qwen3-vl-235b-a22b-interactive", []string{data}, nil)
	if err != nil {
		t.Fatal(err)
	}
	url := startFake(t, fake.Config{Answers: truths, DefaultAnswer: def, Accuracy: 1, TTFT: 2 * time.Millisecond})
	out, results := filepath.Join(dir, "out"), filepath.Join(dir, "results")
	text, err := runCLI(t, "run", "-b", "qwen3-vl-235b-a22b", "-s", "Interactive", "-m", "both", "-d", data, "-e", url, "-o", out,
		"--results-dir", results, "--allow-unofficial-settings", "--system", "sys1", "--progress-interval", "0", "--engine-metrics-interval", "0",
		"--min-duration", "300", "--target-qps", "100", "--min-query-count", fmt.Sprint(n))
	// A 0.3 s run cannot meet early stopping: INVALID is exit 3.
	if c := exitCode(err); c != 0 && c != 3 {
		t.Fatalf("Interactive run: %v\n%s", err, text)
	}
	acc, err := os.ReadFile(filepath.Join(out, "accuracy", "accuracy.txt"))
	if err != nil || !strings.Contains(string(acc), `{"f1": 1.0}`) {
		t.Errorf("the accuracy test was not evaluated (%v):\n%s", err, acc)
	}
	if !strings.Contains(text, "target 0.7799219999999999: PASS") {
		t.Errorf("the accuracy test was not judged against the Interactive target 0.7878 x 0.99:\n%s", text)
	}
	scen := filepath.Join(results, "sys1", "qwen3-vl-235b-a22b", "Interactive")
	for _, f := range []string{"accuracy/accuracy.txt", "accuracy/mlperf_log_detail.txt", "performance/run_1/mlperf_log_detail.txt", "user.conf"} {
		if _, err := os.Stat(filepath.Join(scen, f)); err != nil {
			t.Errorf("not filed under Interactive/: %v", err)
		}
	}
	if _, err := os.Stat(filepath.Join(results, "sys1", "qwen3-vl-235b-a22b", "Server")); !os.IsNotExist(err) {
		t.Errorf("an Interactive run left a Server directory (stat: %v)", err)
	}
	detail, err := os.ReadFile(filepath.Join(scen, "performance", "run_1", "mlperf_log_detail.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`"key": "effective_scenario", "value": "Server"`,
		`"key": "effective_target_latency_ns", "value": 1500000000`,
		`"key": "effective_performance_sample_count", "value": 48289`,
		`"key": "qsl_reported_total_count", "value": 24`,
		`"key": "effective_sample_concatenate_permutation", "value": true`,
	} {
		if !strings.Contains(string(detail), want) {
			t.Errorf("filed performance log lacks %s", want)
		}
	}
	// mlperf.conf's use_token_latencies = 0 holds (LoadGen logs the key
	// only when on): qwen3-vl is judged on whole-answer latency.
	if strings.Contains(string(detail), "requested_use_token_latencies") {
		t.Errorf("the Interactive run measured token latencies")
	}
	accDetail, err := os.ReadFile(filepath.Join(scen, "accuracy", "mlperf_log_detail.txt"))
	if err != nil || !strings.Contains(string(accDetail), `"key": "qsl_reported_total_count", "value": 24`) {
		t.Errorf("the accuracy log does not cover the whole library (%v)", err)
	}
	conf, err := os.ReadFile(filepath.Join(scen, "user.conf"))
	if err != nil || !strings.Contains(string(conf), "qwen3-vl-235b-a22b.Server.target_latency = 1500\n") {
		t.Errorf("the filed user.conf lacks the Interactive target latency (%v):\n%s", err, conf)
	}
	info := readRecord(t, filepath.Join(out, "performance"))
	if info.Benchmark != "qwen3-vl-235b-a22b-interactive" || info.LoadGenModel != "qwen3-vl-235b-a22b" ||
		len(info.RoundSettings) != 1 || !strings.HasPrefix(info.RoundSettings[0], "qwen3-vl-235b-a22b.Server.target_latency = 1500 (") {
		t.Errorf("run record: benchmark %q, LoadGen model %q, round settings %q", info.Benchmark, info.LoadGenModel, info.RoundSettings)
	}
}

// TestQwen3VLInteractiveRefusals: a filed qwen3-vl Interactive run must keep
// the rules' 1.5 s target latency, and another variant has no Interactive
// scenario.
func TestQwen3VLInteractiveRefusals(t *testing.T) {
	loadgentest.Require(t)
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	if _, err := mustLookup(t, "qwen3-vl-235b-a22b-interactive").Data.Synth(data, 4, 1); err != nil {
		t.Fatal(err)
	}
	_, err := runCLI(t, "run", "-b", "qwen3-vl-235b-a22b", "-s", "Interactive", "-d", data, "-e", "http://127.0.0.1:1", "-o", filepath.Join(dir, "out"),
		"--results-dir", filepath.Join(dir, "results"), "--system", "sys1", "--progress-interval", "0", "--setting", "target_latency=12000")
	if err == nil || !strings.Contains(err.Error(), "target_latency 12000 ms is above the Interactive limit of 1500 ms") {
		t.Errorf("a filed Interactive run with a 12 s target latency: error %v", err)
	}
	if _, err := runCLI(t, "run", "-b", "llama3_1-8b-edge", "-s", "Interactive", "-d", "x", "-e", "http://127.0.0.1:1"); err == nil ||
		!strings.Contains(err.Error(), "llama3_1-8b-edge has no Interactive scenario") {
		t.Errorf("edge Interactive: error %v, want one saying it has none", err)
	}
}
