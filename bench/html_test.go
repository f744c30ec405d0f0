package bench

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mlperf-go/mlperf-go/fake"
	"github.com/mlperf-go/mlperf-go/internal/browsertest"
)

// TestHTMLReportRendered writes the report of an A/B run at one load point
// with goodput objectives, as `bench --target vllm=… --target dashinfer=…
// -c 32 --slo …` does, and renders it in headless Chromium at 1280 px: the
// title names the targets, the comparison is a table with goodput, the
// goodput chart's title states the --slo it was measured against, every
// chart shows its one point mid-plot under a single x tick, and no legend
// entry runs off its chart. The screenshot is kept in build/test-artifacts.
func TestHTMLReportRendered(t *testing.T) {
	w, err := Synthetic(SyntheticOptions{Requests: 8, InputLen: 8, OutputLen: 4})
	if err != nil {
		t.Fatal(err)
	}
	slow := startFake(t, fake.Config{TTFT: 30 * time.Millisecond}, nil)
	fast := startFake(t, fake.Config{}, nil)
	res, recs, err := Run(context.Background(), w, Options{Targets: []Target{{Name: "vllm", URLs: []string{slow}}, {Name: "dashinfer", URLs: []string{fast}}},
		Stream: true, Loads: []Load{{Concurrency: 32}}, SLO: SLO{TTFT: 20 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := WriteFiles(dir, res, recs); err != nil {
		t.Fatal(err)
	}
	html := reportIn(t, dir, res)
	for _, want := range []string{"<title>mlperf-go bench: vllm vs dashinfer</title>", `<table id="comparison">`, "<th>vllm goodput</th>", `data-chart="goodput"`, "<th>goodput req/s</th>",
		`<h3 class="chart-title" data-caption="goodput">Goodput: requests/s meeting every objective of --slo ttft=20ms</h3>`} {
		if !strings.Contains(html, want) {
			t.Errorf("report.html lacks %q", want)
		}
	}
	if strings.Contains(html, "<pre>") || strings.Contains(html, "| :---: |") {
		t.Error("the comparison is Markdown in a <pre>, not a table")
	}
	// One load point: each chart's only x tick is 32.
	thr := regexp.MustCompile(`(?s)<svg class="chart" data-chart="throughput".*?</svg>`).FindString(html)
	if ticks := regexp.MustCompile(`<text class="tick"[^>]*text-anchor="middle">([^<]*)</text>`).FindAllStringSubmatch(thr, -1); len(ticks) != 1 || ticks[0][1] != "32" {
		t.Errorf("x ticks of the one-point chart: %q, want the single tick 32", ticks)
	}

	chrome := browsertest.Find(t)
	probe := filepath.Join(dir, "probe.html")
	// The probe loads the report at 1280 px and writes into its own DOM
	// every legend entry that ends past its chart's right edge, and where
	// each chart's points are.
	if err := os.WriteFile(probe, []byte(`<!DOCTYPE html><body><iframe id="f" src="report.html" width="1280" height="2000"></iframe><script>
document.getElementById("f").onload = function () {
  var d = this.contentDocument, out = [], pts = [];
  d.querySelectorAll("svg.chart").forEach(function (svg) {
    var w = svg.viewBox.baseVal.width;
    svg.querySelectorAll("text.legend").forEach(function (t) {
      var b = t.getBBox();
      if (b.x + b.width > w) out.push(svg.dataset.chart + ":" + t.textContent);
    });
    svg.querySelectorAll("circle.pt").forEach(function (c) { pts.push(Math.round(c.cx.baseVal.value)); });
  });
  document.body.setAttribute("data-clipped", out.join("|"));
  document.body.setAttribute("data-points", pts.join(","));
};</script></body>`), 0o644); err != nil {
		t.Fatal(err)
	}
	dom := browsertest.Run(t, chrome, "--allow-file-access-from-files", "--virtual-time-budget=5000", "--dump-dom", "file://"+probe)
	if m := regexp.MustCompile(`data-clipped="([^"]*)"`).FindStringSubmatch(dom); m == nil || m[1] != "" {
		t.Errorf("legend entries past their chart's edge: %q", m)
	}
	m := regexp.MustCompile(`data-points="([^"]*)"`).FindStringSubmatch(dom)
	if m == nil || m[1] == "" {
		t.Fatalf("no chart points rendered: %q", m)
	}
	for _, x := range strings.Split(m[1], ",") {
		if x != "302" { // padL + plotW/2: mid-plot
			t.Errorf("a one-load-point chart's point at x=%s, want mid-plot (302)", x)
			break
		}
	}
	shot := filepath.Join(browsertest.ArtifactDir(t), "bench-report-ab-one-point.png")
	browsertest.Run(t, chrome, "--screenshot="+shot, "--window-size=1280,2000", "file://"+filepath.Join(dir, "report.html"))
}

// TestHTMLReasoningSection: a run against a reasoning model gets the
// reasoning table (tokens counted apart, TTFAT) and the TTFAT chart; one
// without reasoning gets neither.
func TestHTMLReasoningSection(t *testing.T) {
	t.Parallel()
	w, err := Synthetic(SyntheticOptions{Requests: 4, InputLen: 8, OutputLen: 6})
	if err != nil {
		t.Fatal(err)
	}
	for _, think := range []int{0, 3} {
		url := startFake(t, fake.Config{ReasoningTokens: think}, nil)
		res, _, err := Run(context.Background(), w, Options{Targets: []Target{{Name: "f", URLs: []string{url}}}, Stream: true, ExactOutput: true})
		if err != nil {
			t.Fatal(err)
		}
		html := reportOf(t, res)
		has := strings.Contains(html, `<table id="reasoning">`) && strings.Contains(html, `data-chart="TTFAT"`)
		if has != (think > 0) {
			t.Errorf("reasoning tokens %d: reasoning section shown %v", think, has)
		}
		if think > 0 && !strings.Contains(html, `<td class="num">12</td>`) {
			t.Errorf("the reasoning table does not count 4 x 3 reasoning tokens")
		}
	}
}

// reportOf is the report.html of res, written in a folder of its own.
func reportOf(t *testing.T, res *Results) string { return reportIn(t, t.TempDir(), res) }

// reportIn writes res's report.html into dir and returns it.
func reportIn(t *testing.T, dir string, res *Results) string {
	t.Helper()
	if err := WriteHTML(dir, []*Results{res}); err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(filepath.Join(dir, "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	return string(page)
}
