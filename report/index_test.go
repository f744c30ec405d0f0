package report_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mlperf-go/mlperf-go/internal/browsertest"
	"github.com/mlperf-go/mlperf-go/loadgen/mllog"
	"github.com/mlperf-go/mlperf-go/record"
	"github.com/mlperf-go/mlperf-go/report"
)

// writeRunDir writes a run folder as the harness leaves one: LoadGen's
// detail log (the keys the report reads) and the run record.
func writeRunDir(t *testing.T, dir, scenario, mode string, qps float64, start time.Time, acc *record.Accuracy) {
	t.Helper()
	keys := [][2]any{{"effective_scenario", scenario}, {"effective_test_mode", mode}}
	if mode == "PerformanceOnly" {
		keys = append(keys, [2]any{"result_validity", "VALID"}, [2]any{"result_completed_samples_per_sec", qps},
			[2]any{"result_99.00_percentile_latency_ns", 9e8}, [2]any{"effective_target_latency_ns", 1.2e9})
	}
	writeLoggedRun(t, dir, keys, record.Run{Benchmark: "qwen3-vl-235b-a22b", Scenario: scenario, Start: start, End: start.Add(10 * time.Minute), Outcome: record.Valid, Accuracy: acc})
}

// TestIndexShowsDatesAccuracyAndTrends: the runs index dates each run,
// fills the accuracy column from the verdict, draws each benchmark and
// scenario's headline over time, and (in headless Chromium, at 1280 px)
// its runs table fits its card; a run's page shows the accuracy table and
// the Server latency limit.
func TestIndexShowsDatesAccuracyAndTrends(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	day := time.Date(2026, 11, 20, 9, 30, 0, 0, time.UTC)
	for i, qps := range []float64{10.5, 11.25, 12} {
		writeRunDir(t, filepath.Join(root, "qwen3-vl-235b-a22b", "Server-performance", fmt.Sprintf("2026112%dT093000Z-with-a-long-run-folder-name", i)),
			"Server", "PerformanceOnly", qps, day.Add(time.Duration(i)*24*time.Hour), nil)
	}
	acc := &record.Accuracy{Round: "v6.1", Scenario: "Offline", Pass: false, Problems: []string{"F1_HIERARCHICAL = 0.5 is below the required 0.7799"},
		Metrics: []record.AccuracyMetric{{Name: "F1_HIERARCHICAL", Value: "0.5", Bound: "0.7799", Pass: false}}, Scorer: "test scorer"}
	accDir := filepath.Join(root, "qwen3-vl-235b-a22b", "Offline-accuracy", "20261123T000000Z")
	writeRunDir(t, accDir, "Offline", "AccuracyOnly", 0, day.Add(72*time.Hour), acc)

	if _, err := report.WriteTree(root); err != nil {
		t.Fatal(err)
	}
	index, err := os.ReadFile(filepath.Join(root, record.IndexHTMLFile))
	if err != nil {
		t.Fatal(err)
	}
	page := string(index)
	for _, want := range []string{"date (UTC)", "2026-11-20 09:30", "2026-11-22 09:30", "FAIL F1_HIERARCHICAL 0.5", `data-chart="trend-qwen3-vl-235b-a22b-Server"`} {
		if !strings.Contains(page, want) {
			t.Errorf("index.html lacks %q", want)
		}
	}
	if n := strings.Count(chartSVG(page, "trend-qwen3-vl-235b-a22b-Server"), `class="pt"`); n != 3 {
		t.Errorf("the Server trend has %d points, want the 3 runs", n)
	}
	md, _ := os.ReadFile(filepath.Join(root, record.IndexMarkdownFile))
	if !strings.Contains(string(md), "| 2026-11-23 09:30 |") || !strings.Contains(string(md), "FAIL F1_HIERARCHICAL 0.5") {
		t.Errorf("index.md lacks the date or the accuracy:\n%s", md)
	}
	runPage, _ := os.ReadFile(filepath.Join(accDir, record.ReportHTMLFile))
	if !regexp.MustCompile(`id="accuracy-metrics".*F1_HIERARCHICAL.*0\.5.*&ge; 0\.7799.*FAIL`).Match(regexp.MustCompile(`\s+`).ReplaceAll(runPage, []byte(" "))) {
		t.Errorf("the accuracy run's page lacks its verdict table")
	}
	perfPage, _ := os.ReadFile(filepath.Join(root, "qwen3-vl-235b-a22b", "Server-performance", "20261120T093000Z-with-a-long-run-folder-name", record.ReportHTMLFile))
	if !strings.Contains(chartSVG(string(perfPage), "latency"), `class="limit"`) || !strings.Contains(string(perfPage), "p99 limit 1200 ms") {
		t.Errorf("the Server latency chart does not draw its limit")
	}

	chrome, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("chromium is not installed (apt-get install -y chromium): the layout check did not run")
	}
	// A page that loads the index at 1280 px and writes whether the runs
	// table fits its card into its own DOM, which --dump-dom prints.
	probe := filepath.Join(root, "probe.html")
	os.WriteFile(probe, []byte(`<!DOCTYPE html><body><iframe id="f" src="index.html" width="1280" height="1200"></iframe><script>
document.getElementById("f").onload = function () {
  var d = this.contentDocument, t = d.getElementById("runs"), w = t.parentElement;
  document.body.setAttribute("data-fit", t.scrollWidth <= w.clientWidth ? "yes" : "no " + t.scrollWidth + ">" + w.clientWidth);
};</script></body>`), 0o644)
	dom := browsertest.Run(t, chrome, "--allow-file-access-from-files", "--virtual-time-budget=5000", "--dump-dom", "file://"+probe)
	if !strings.Contains(dom, `data-fit="yes"`) {
		m := regexp.MustCompile(`data-fit="[^"]*"`).FindString(dom)
		t.Errorf("at 1280 px the runs table does not fit its card: %s", m)
	}
}

// writeLoggedRun writes a run folder with the detail log keys given (in
// order) and the run record info.
func writeLoggedRun(t *testing.T, dir string, keys [][2]any, info record.Run) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, kv := range keys {
		j, _ := json.Marshal(kv[1])
		fmt.Fprintf(&b, `:::MLLOG {"key": %q, "value": %s, "time_ms": 1.0, "namespace": "mlperf::logging", "event_type": "POINT_IN_TIME", "metadata": {"is_error": false, "is_warning": false, "file": "x.cc", "line_no": 1, "pid": 1, "tid": 1}}`+"\n", kv[0], j)
	}
	if err := os.WriteFile(filepath.Join(dir, mllog.DetailFile), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := record.Write(dir, info); err != nil {
		t.Fatal(err)
	}
}

// TestIndexMarksQuickRunsAndNoEstimate: a --quick run is marked as one in
// the index and left out of the headline's trend (seconds of load on a
// tiny sample library would dip it); a SingleStream run too short for
// early stopping, whose estimate LoadGen leaves 0, has no headline rather
// than 0.000 ms.
func TestIndexMarksQuickRunsAndNoEstimate(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	day := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	for i, qps := range []float64{40, 0.5, 41} {
		start := day.Add(time.Duration(i) * time.Hour)
		writeLoggedRun(t, filepath.Join(root, "offline", fmt.Sprint(i)), [][2]any{
			{"effective_scenario", "Offline"}, {"effective_test_mode", "PerformanceOnly"},
			{"result_validity", "VALID"}, {"result_samples_per_second", qps},
		}, record.Run{Benchmark: "llama3_1-8b", Scenario: "Offline", Start: start, End: start.Add(time.Minute), Outcome: record.Valid, Quick: i == 1})
	}
	writeLoggedRun(t, filepath.Join(root, "ss"), [][2]any{
		{"effective_scenario", "SingleStream"}, {"effective_test_mode", "PerformanceOnly"},
		{"result_validity", "INVALID"}, {"early_stopping_met", false}, {"early_stopping_latency_ss", 0}, {"result_90.00_percentile_latency_ns", 4.2e8},
	}, record.Run{Benchmark: "llama3_1-8b", Scenario: "SingleStream", Start: day, End: day.Add(time.Minute), Outcome: record.Invalid})
	if _, err := report.WriteTree(root); err != nil {
		t.Fatal(err)
	}
	md, _ := os.ReadFile(filepath.Join(root, record.IndexMarkdownFile))
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`(?m)^\| \[offline/1\]\S* \| 2026-12-01 10:00 \| llama3_1-8b \| Offline \| PerformanceOnly \| VALID \(quick\) \|`),
		regexp.MustCompile(`(?m)^\| \[offline/0\]\S* \| .* \| VALID \|`),
		regexp.MustCompile(`(?m)^\| \[ss\]\S* \| .* \| SingleStream \| PerformanceOnly \| INVALID \| – \| – \|`),
	} {
		if !want.Match(md) {
			t.Errorf("index.md does not match %s:\n%s", want, md)
		}
	}
	page, _ := os.ReadFile(filepath.Join(root, record.IndexHTMLFile))
	if n := strings.Count(chartSVG(string(page), "trend-llama3_1-8b-Offline"), `class="pt"`); n != 2 {
		t.Errorf("the Offline trend has %d points, want the 2 runs that are not --quick", n)
	}
	if strings.Contains(string(page), "0.000 ms") {
		t.Errorf("index.html shows a headline of 0.000 ms")
	}
	quickPage, _ := os.ReadFile(filepath.Join(root, "offline", "1", record.ReportHTMLFile))
	if !strings.Contains(string(quickPage), `<span id="status" class="badge ok">VALID (quick)</span>`) {
		t.Errorf("the quick run's page does not mark its status as quick")
	}
}
