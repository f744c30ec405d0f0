package mmlu

import (
	"bytes"
	"context"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mlperf-go/mlperf-go/quality/ask"
)

// TestReportRendersInChromium opens the report of a scripted run in
// headless Chromium: the page's DOM holds both charts' bars, and its
// screenshot (kept in build/test-artifacts for people to look at) is a
// real rendering.
func TestReportRendersInChromium(t *testing.T) {
	t.Parallel()
	chrome := findChromium(t)
	_, url := startScript(t, "k")
	out := t.TempDir()
	if _, err := Run(context.Background(), Options{Dataset: evalData(t), OutputDir: out, Ask: ask.Config{Endpoints: []string{url}, Model: "m", APIKey: "k"}}); err != nil {
		t.Fatal(err)
	}
	page := "file://" + filepath.Join(out, ReportFile)
	dom := runChromium(t, chrome, "--dump-dom", page)
	for chart, bars := range map[string]int{"categories": 4, "subjects": 4} {
		if n := strings.Count(chartSVG(dom, chart), `class="bar"`); n != bars {
			t.Errorf("rendered chart %s has %d bars, want %d", chart, n, bars)
		}
	}
	shot := filepath.Join(artifactDir(t), "mmlu-report.png")
	runChromium(t, chrome, "--screenshot="+shot, "--window-size=1280,1600", page)
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

// findChromium returns Debian's chromium, or skips the test.
func findChromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("chromium is not installed (apt-get install -y chromium): the rendered-page checks did not run")
	return ""
}

// runChromium runs headless Chromium offline on a fresh profile and
// returns its standard output.
func runChromium(t *testing.T, chrome string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	base := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--disable-dev-shm-usage", "--hide-scrollbars", "--user-data-dir=" + t.TempDir()}
	cmd := exec.CommandContext(ctx, chrome, append(base, args...)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %v: %v\n%s", chrome, args, err, stderr.String())
	}
	return stdout.String()
}

// artifactDir is build/test-artifacts at the repository root.
func artifactDir(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "..", "build", "test-artifacts"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}
