package mmlu

import (
	"context"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mlperf-go/mlperf-go/internal/browsertest"
	"github.com/mlperf-go/mlperf-go/quality/ask"
)

// TestReportRendersInChromium opens the report of a scripted run in
// headless Chromium: the page's DOM holds both charts' bars, and its
// screenshot (kept in build/test-artifacts for people to look at) is a
// real rendering.
func TestReportRendersInChromium(t *testing.T) {
	t.Parallel()
	chrome := browsertest.Find(t)
	_, url := startScript(t, "k")
	out := t.TempDir()
	if _, err := Run(context.Background(), Options{Dataset: evalData(t), OutputDir: out, Ask: ask.Config{Endpoints: []string{url}, Model: "m", APIKey: "k"}}); err != nil {
		t.Fatal(err)
	}
	page := "file://" + filepath.Join(out, ReportFile)
	dom := browsertest.Run(t, chrome, "--dump-dom", page)
	for chart, bars := range map[string]int{"categories": 4, "subjects": 4} {
		if n := strings.Count(chartSVG(dom, chart), `class="bar"`); n != bars {
			t.Errorf("rendered chart %s has %d bars, want %d", chart, n, bars)
		}
	}
	shot := filepath.Join(browsertest.ArtifactDir(t), "mmlu-report.png")
	browsertest.Run(t, chrome, "--screenshot="+shot, "--window-size=1280,1600", page)
	f, err := os.Open(shot)
	if err != nil {
		t.Fatalf("no screenshot: %v", err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	colours := map[[3]uint32]bool{}
	for y := img.Bounds().Min.Y; y < img.Bounds().Max.Y; y += 7 {
		for x := img.Bounds().Min.X; x < img.Bounds().Max.X; x += 7 {
			r, g, b, _ := img.At(x, y).RGBA()
			colours[[3]uint32{r >> 8, g >> 8, b >> 8}] = true
		}
	}
	if len(colours) < 8 {
		t.Errorf("the screenshot has %d colours: the page did not render", len(colours))
	}
	t.Logf("screenshot: %s", shot)
}
