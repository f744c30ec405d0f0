package main

import (
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mlperf-go/mlperf-go/bench"
	"github.com/mlperf-go/mlperf-go/fake"
)

// TestBenchDashInferCommandLine runs DashInfer's README command as written
// (its flag names), A/B against two fakes of different speeds, and then
// bench compare over the saved results.
func TestBenchDashInferCommandLine(t *testing.T) {
	dir := t.TempDir()
	prompts := filepath.Join(dir, "conv.jsonl")
	var lines []string
	for i := range 40 {
		lines = append(lines, fmt.Sprintf(`{"conversations":[{"from":"human","value":"<image>\nq%d"},{"from":"gpt","value":"a%d"}]}`, i, i))
	}
	if err := os.WriteFile(prompts, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	imgs := filepath.Join(dir, "images")
	_ = os.MkdirAll(imgs, 0o755)
	for i := range 5 {
		f, _ := os.Create(filepath.Join(imgs, fmt.Sprintf("%d.png", i)))
		_ = png.Encode(f, image.NewGray(image.Rect(0, 0, 8+i, 8)))
		f.Close()
	}
	slow := startFake(t, fake.Config{TTFT: 8 * time.Millisecond, MaxConcurrency: 2})
	fastURL := startFake(t, fake.Config{MaxConcurrency: 2})
	out := filepath.Join(dir, "out")
	stdout, err := runCLI(t, "bench", "--target", "vllm="+slow, "--target", "dashinfer="+fastURL,
		"--prompt-file", prompts, "--image-folder", imgs, "--req-nums", "10", "--batch-size", "1,4",
		"--image-nums-mean", "3", "--image-nums-range", "1", "--response-mean", "20", "--response-len-range", "8",
		"--multi-turn", "2", "--model", fake.DefaultModel, "--out", out, "--progress-interval", "0")
	if err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	if !strings.Contains(stdout, "Speedup (dashinfer/vllm)") || !strings.Contains(stdout, "| 2 | 4 | c4 |") {
		t.Errorf("no comparison table:\n%s", stdout)
	}
	res, err := bench.ReadResults(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Runs) != 4 || res.Workload.MultiTurn != 2 || res.Requests != 30 {
		t.Fatalf("results: %d runs, multi-turn %d, %d requests", len(res.Runs), res.Workload.MultiTurn, res.Requests)
	}
	for _, r := range res.Runs {
		if r.Completed != 30 || r.MeanImages != 1 || r.MeanOutputTokens < 16 || r.MeanOutputTokens > 24 {
			t.Errorf("%s %s: %d completed, %.2f images and %.1f output tokens per request", r.Target, r.Label, r.Completed, r.MeanImages, r.MeanOutputTokens)
		}
	}
	var sampling map[string]float64
	if err := json.Unmarshal(res.Workload.Sampling, &sampling); err != nil || sampling["top_p"] != 0.01 {
		t.Errorf("DashInfer's sampling not sent: %s", res.Workload.Sampling)
	}
	cmp, err := runCLI(t, "bench", "compare", "--html", filepath.Join(dir, "cmp"), out)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(cmp, "Speedup (dashinfer/vllm)") {
		t.Errorf("compare:\n%s", cmp)
	}
	if _, err := os.Stat(filepath.Join(dir, "cmp", "report.html")); err != nil {
		t.Error(err)
	}
	if _, err := runCLI(t, "bench", "--target", "x"); err == nil || !strings.Contains(err.Error(), "NAME=URL") {
		t.Errorf("a target without a URL: %v", err)
	}
}
