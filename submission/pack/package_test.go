package pack

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mlperf-go/mlperf-go/record"
	"github.com/mlperf-go/mlperf-go/submission"
	"github.com/mlperf-go/mlperf-go/submission/check"
	"github.com/mlperf-go/mlperf-go/submission/compliance"
	"github.com/mlperf-go/mlperf-go/submission/filing"
	"github.com/mlperf-go/mlperf-go/submission/internal/logtest"
	"github.com/mlperf-go/mlperf-go/submission/internal/treetest"
)

// llamaResults fills a results tree the way the CLI would: FileRun for the
// performance, accuracy and TEST06 runs of llama3.1-8b Offline and Server,
// VerifyTEST06, IngestEvaluatorOutput for accuracy.txt, and a
// measurements.json at the benchmark level.
func llamaResults(t *testing.T) (results, systems string) {
	t.Helper()
	results, systems = t.TempDir(), t.TempDir()
	uc := filepath.Join(t.TempDir(), "user.conf")
	logtest.MustWrite(t, uc, "llama3_1-8b.Server.target_qps = 10\n")
	evalOut := []byte("\nResults\n\n{'rouge1': '38.9', 'rouge2': '16.1', 'rougeL': '24.6', 'rougeLsum': '35.9', 'gen_len': np.int64(8167644), 'gen_num': 13368}\n")
	for _, scen := range []string{"Offline", "Server"} {
		for _, kind := range []string{"performance", "accuracy", "TEST06"} {
			logDir := t.TempDir()
			mode := "PerformanceOnly"
			if kind == "accuracy" {
				mode = "AccuracyOnly"
			}
			d := logtest.PerfDetail("v6.1", logtest.BenchmarkLlama8B, scen, mode)
			acc := "[\n]\n"
			switch kind {
			case "TEST06":
				d.Warnings = []string{logtest.AuditWarning}
				acc = ""
			case "accuracy":
				acc = logtest.FakeAccLog(50000)
			}
			logtest.WriteLogDir(t, logDir, d, logtest.ValidSummary, acc)
			if kind == "TEST06" {
				logtest.WriteAccLog(t, filepath.Join(logDir, "x"), []logtest.Sample{{Data: []int32{5, 6, logtest.EOT}, TokenData: []int32{5}, Count: logtest.Cnt(3)}})
				os.Rename(filepath.Join(logDir, "x", "accuracy", "mlperf_log_accuracy.json"), filepath.Join(logDir, "mlperf_log_accuracy.json"))
			}
			if err := record.Write(logDir, record.Run{
				Command:        []string{"mlperf-go", "run", "--benchmark", "llama3_1-8b", "--scenario", scen, "--mode", kind, "--note", "it's"},
				HarnessVersion: "v0.1.0", LoadGenVersion: "6.0.17", Round: "v6.1",
				Endpoints: []string{"http://127.0.0.1:8000/v1"}, API: "completions", Model: "meta-llama/Llama-3.1-8B-Instruct",
				Engine: "vLLM 0.11.0", EngineFlags: []string{"--max-num-seqs", "256"},
				Sampling: map[string]any{"temperature": 0, "max_tokens": 128},
				Start:    time.Date(2026, 11, 21, 8, 0, 0, 0, time.UTC), End: time.Date(2026, 11, 21, 8, 11, 0, 0, time.UTC),
			}); err != nil {
				t.Fatal(err)
			}
			dir, err := filing.FileRun(filing.RunRecord{ResultsDir: results, System: "sys1", Benchmark: "llama3_1-8b", Scenario: scen, Kind: record.Kind(kind), LogDir: logDir, UserConf: uc})
			if err != nil {
				t.Fatalf("%s %s: %v", scen, kind, err)
			}
			switch kind {
			case "accuracy":
				txt, err := submission.IngestEvaluatorOutput("llama3_1-8b", "", evalOut)
				if err != nil {
					t.Fatal(err)
				}
				logtest.MustWrite(t, filepath.Join(dir, "accuracy.txt"), string(txt))
			case "TEST06":
				v, err := compliance.VerifyTEST06(filepath.Join(dir, "accuracy", "mlperf_log_accuracy.json"), compliance.TEST06Options{Scenario: scen, EOSTokenID: logtest.EOT})
				if err != nil || !v.Pass() {
					t.Fatalf("TEST06 %s: %+v, %v", scen, v, err)
				}
				if err := v.Write(dir); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	m, err := submission.MeasurementsTemplate("llama3_1-8b")
	if err != nil {
		t.Fatal(err)
	}
	filled := strings.NewReplacer(
		`"TODO: the checkpoint you started from, e.g. the Hugging Face repo id"`, `"meta-llama/Llama-3.1-8B-Instruct"`,
		`"TODO: e.g. bf16, fp8"`, `"bf16"`, `"TODO: e.g. none, or the quantization applied"`, `"none"`).Replace(string(m))
	logtest.MustWrite(t, filepath.Join(results, "sys1", "llama3.1-8b", "measurements.json"), filled)
	logtest.WriteJSON(t, filepath.Join(systems, "sys1.json"), treetest.ValidSystemJSON("closed", "Org"))
	return results, systems
}

func TestPackageEndToEnd(t *testing.T) {
	results, systems := llamaResults(t)
	// A replaced run and a user note must be handled: the first left out, the
	// second kept as notes.
	os.MkdirAll(filepath.Join(results, "sys1/llama3.1-8b/Offline/.previous-accuracy-20261121T000000Z"), 0o755)
	logtest.MustWrite(t, filepath.Join(results, "sys1/llama3.1-8b/Offline/README.md"), "Ran on a quiet machine.\n")
	out := t.TempDir()
	err := Package(PackageOptions{Division: "closed", Submitter: "Org", ResultsDir: results, SystemsDir: systems, Out: out, Round: "v6.1",
		SourceNote: "https://github.com/mlperf-go/mlperf-go at commit abc123"})
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, s := range []string{"Offline", "Server"} {
		p := "closed/Org/results/sys1/llama3.1-8b/" + s + "/"
		want = append(want,
			p+"README.md",
			p+"TEST06/accuracy/mlperf_log_accuracy.json",
			p+"TEST06/performance/run_1/mlperf_log_detail.txt",
			p+"TEST06/performance/run_1/mlperf_log_summary.txt",
			p+"TEST06/verify_accuracy.txt",
			p+"accuracy/accuracy.txt",
			p+"accuracy/mlperf_log_accuracy.json",
			p+"accuracy/mlperf_log_detail.txt",
			p+"accuracy/mlperf_log_summary.txt",
			p+"measurements.json",
			p+"performance/run_1/mlperf_log_accuracy.json",
			p+"performance/run_1/mlperf_log_detail.txt",
			p+"performance/run_1/mlperf_log_summary.txt",
			p+"user.conf",
		)
	}
	want = append([]string{"closed/Org/documentation/README.md"}, want...)
	want = append(want, "closed/Org/src/README.md", "closed/Org/systems/sys1.json")
	if diff := cmp.Diff(want, logtest.ListTree(t, out)); diff != "" {
		t.Errorf("packaged tree (-want +got):\n%s", diff)
	}
	if ps := check.Check(out, "v6.1"); len(ps) != 0 {
		t.Errorf("packaged tree has problems:\n%s", logtest.ProblemsText(ps))
	}
	scen := filepath.Join(out, "closed/Org/results/sys1/llama3.1-8b/Offline")
	// Truncated as the official tool does, hash of the full log appended.
	full := logtest.MustRead(t, filepath.Join(results, "sys1/llama3.1-8b/Offline/accuracy/mlperf_log_accuracy.json"))
	wantLog, hash := expectedTruncation(full)
	if got := logtest.MustRead(t, filepath.Join(scen, "accuracy/mlperf_log_accuracy.json")); got != wantLog {
		t.Errorf("accuracy log not truncated as expected (%d bytes)", len(got))
	}
	txt := logtest.MustRead(t, filepath.Join(scen, "accuracy/accuracy.txt"))
	if !strings.HasSuffix(txt, "'gen_len': 8167644, 'gen_num': 13368}\n\nhash="+hash+"\n") {
		t.Errorf("accuracy.txt = %q", txt)
	}
	readme := logtest.MustRead(t, filepath.Join(scen, "README.md"))
	for _, s := range []string{
		"mlperf-go run --benchmark llama3_1-8b --scenario Offline --mode performance --note 'it'\\''s'",
		"- LoadGen version: 6.0.17", "- Engine: vLLM 0.11.0", "- Engine flags: `--max-num-seqs 256`",
		"- Sampling: max_tokens=128, temperature=0", "## Compliance run TEST06", "## Notes\n\nRan on a quiet machine.\n",
	} {
		if !strings.Contains(readme, s) {
			t.Errorf("README lacks %q:\n%s", s, readme)
		}
	}
	// The results tree keeps the full logs.
	if len(full) != 50000 {
		t.Errorf("results tree log changed: %d bytes", len(full))
	}
	// A second package into the same place is refused.
	if err := Package(PackageOptions{Division: "closed", Submitter: "Org", ResultsDir: results, SystemsDir: systems, Out: out, SourceNote: "x"}); err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Errorf("repackage: err = %v", err)
	}
}

func TestPackageRefusesInvalidInputs(t *testing.T) {
	results, systems := llamaResults(t)
	sys := treetest.ValidSystemJSON("closed", "Org")
	delete(sys, "cooling")
	sys["status"] = "TODO: available, preview or rdi"
	sys["accelerators_per_node"] = 0
	logtest.WriteJSON(t, filepath.Join(systems, "sys1.json"), sys)
	os.Remove(filepath.Join(results, "sys1/llama3.1-8b/measurements.json"))
	out := t.TempDir()
	err := Package(PackageOptions{Division: "closed", Submitter: "Org", ResultsDir: results, SystemsDir: systems, Out: out, SourceNote: "src"})
	if err == nil {
		t.Fatal("Package succeeded with an invalid systems JSON")
	}
	for _, s := range []string{`field "cooling" is missing`, `field "status" still holds the template placeholder`,
		`field "accelerators_per_node" must not be empty`, "Offline: no measurements.json", "Server: no measurements.json"} {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("error lacks %q:\n%v", s, err)
		}
	}
	if ents, _ := os.ReadDir(out); len(ents) != 0 {
		t.Errorf("failed Package left %d entries in Out", len(ents))
	}
	if err := Package(PackageOptions{Division: "closed", Submitter: "Org", ResultsDir: results, SystemsDir: systems, Out: out}); err == nil || !strings.Contains(err.Error(), "SourceNote") {
		t.Errorf("missing SourceNote: %v", err)
	}
	if err := Package(PackageOptions{Division: "network", Submitter: "Org", ResultsDir: results, SystemsDir: systems, Out: out, SourceNote: "x"}); err == nil {
		t.Error("division network accepted")
	}
}

// TestPackageWithoutAccuracyTxt: an accuracy run not yet scored is named by
// its path in the results tree with the two ways to score it, and the
// failed package leaves no folder behind.
func TestPackageWithoutAccuracyTxt(t *testing.T) {
	t.Parallel()
	results, systems := llamaResults(t)
	txt := filepath.Join(results, "sys1", "llama3.1-8b", "Offline", "accuracy", "accuracy.txt")
	if err := os.Remove(txt); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "sub")
	err := Package(PackageOptions{Division: "closed", Submitter: "Org", ResultsDir: results, SystemsDir: systems, Out: out, SourceNote: "x"})
	if err == nil || !strings.Contains(err.Error(), txt) || !strings.Contains(err.Error(), "ingest-accuracy") || strings.Contains(err.Error(), ".package-") {
		t.Fatalf("err = %v, want one naming %s and submission ingest-accuracy, not the staging folder", err, txt)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("the failed package left %s behind (%v)", out, err)
	}
}
