package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/png"
	"net"
	"os"
	"os/exec"
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

// TestBenchPreflight: against a dead endpoint, or one serving another
// model, bench fails within seconds naming the target and what is wrong,
// and writes nothing; --skip-preflight sends anyway.
func TestBenchPreflight(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := "http://" + ln.Addr().String()
	ln.Close()
	other := startFake(t, fake.Config{Model: "someone/else-7b"})
	for _, tc := range []struct {
		name, url string
		want      []string
	}{
		{"dead", dead, []string{"target a:", "does not answer", "connection refused"}},
		{"wrong model", other, []string{"target a:", "serves someone/else-7b", "--model NAME"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			_, err := runCLI(t, "bench", "--target", "a="+tc.url, "--model", fake.DefaultModel, "-n", "4", "--input-len", "4", "--output-len", "2",
				"--out", out, "--progress-interval", "0")
			if err == nil {
				t.Fatal("bench passed")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
			if _, err := os.Stat(out); !os.IsNotExist(err) {
				t.Errorf("--out was written: %v", err)
			}
		})
	}
	out := filepath.Join(t.TempDir(), "out")
	if _, err := runCLI(t, "bench", "--target", "a="+other, "--model", fake.DefaultModel, "-n", "2", "--input-len", "4", "--output-len", "2",
		"--out", out, "--progress-interval", "0", "--skip-preflight"); exitCode(err) != 1 || !strings.Contains(err.Error(), "2 requests failed") {
		t.Errorf("--skip-preflight against the wrong model: %v, want the requests sent and failed", err)
	}
}

// TestBenchInterruptKeepsFinishedPoints interrupts a real mlperf-go bench
// process (this test binary as the CLI) during the second load point of a
// sweep: it exits 130, prints the table of the point that finished, and
// its results.json holds that point, marked interrupted.
func TestBenchInterruptKeepsFinishedPoints(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	srv, url := startFakeServer(t, fake.Config{TTFT: 100 * time.Millisecond})
	out := filepath.Join(t.TempDir(), "out")
	// c1 sends 6 requests one at a time (0.6 s); c2 then takes 3 s more.
	cmd := exec.Command(self, "--log-level", "warn", "bench", "--target", "f="+url, "--model", fake.DefaultModel, "-n", "6", "--input-len", "4",
		"--output-len", "2", "--concurrency", "1,2", "--out", out, "--progress-interval", "0")
	cmd.Env = append(os.Environ(), beCLI+"=1")
	var stdout bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stdout
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill() //nolint:errcheck // only if the test failed
	// Interrupt once the first point is saved and the second is sending.
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		_, saved := os.Stat(filepath.Join(out, "results.json"))
		if saved == nil && srv.Stats().Requests["/v1/chat/completions"] > 7 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the sweep never reached its second point:\n%s", stdout.String())
		}
	}
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	err = cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 130 {
		t.Errorf("exit %v, want 130\n%s", err, stdout.String())
	}
	if !strings.Contains(stdout.String(), "the 1 runs (target at load point) that finished") || !strings.Contains(stdout.String(), "| c1 |") {
		t.Errorf("the finished point is not printed:\n%s", stdout.String())
	}
	res, err := bench.ReadResults(out)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Interrupted || len(res.Runs) != 1 || res.Runs[0].Label != "c1" || res.Runs[0].Completed != 6 {
		t.Errorf("results.json: interrupted %v, %d runs %+v", res.Interrupted, len(res.Runs), res.Runs)
	}
}

// TestBenchCompareKeepsRunsApart: two saved runs whose target shares a
// name ("vllm" before and after a change) stay two columns, named by their
// folders, with a speedup between them; runs of different workloads are
// compared with a warning that says so.
func TestBenchCompareKeepsRunsApart(t *testing.T) {
	url := startFake(t, fake.Config{})
	dir := t.TempDir()
	run := func(name string, extra ...string) string {
		out := filepath.Join(dir, name)
		args := append([]string{"bench", "--target", "vllm=" + url, "--model", fake.DefaultModel, "-n", "4", "--output-len", "2", "-c", "2",
			"--out", out, "--progress-interval", "0"}, extra...)
		if stdout, err := runCLI(t, args...); err != nil {
			t.Fatalf("%v\n%s", err, stdout)
		}
		return out
	}
	before, after, other := run("before", "--input-len", "8"), run("after", "--input-len", "8"), run("other", "--input-len", "16")
	stdout, err := runCLI(t, "bench", "compare", before, after)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"vllm (" + before + ") QPS", "vllm (" + after + ") QPS", "Speedup (vllm (" + after + ")/vllm (" + before + "))"} {
		if !strings.Contains(stdout, w) {
			t.Errorf("compare does not show %q:\n%s", w, stdout)
		}
	}
	if strings.Contains(stdout, "| x |") || strings.Contains(stdout, "warning") {
		t.Errorf("the same workload compared with gaps or a warning:\n%s", stdout)
	}
	stdout, err = runCLI(t, "bench", "compare", before, other)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout, "warning: "+before+" and "+other+" ran different workloads") || !strings.Contains(stdout, `"input_len":16`) {
		t.Errorf("no warning for different workloads:\n%s", stdout)
	}
}

// TestBenchHidesQueryKey: a key in a target's query string reaches the
// server but neither the console nor the files bench writes (results.json
// keeps the targets and the command line), also when requests fail.
func TestBenchHidesQueryKey(t *testing.T) {
	const secret = "S3cretB"
	url := startFake(t, fake.Config{FailRate: 0.5, Seed: 4})
	out := filepath.Join(t.TempDir(), "out")
	stdout, err := runCLI(t, "bench", "--target", "a="+url+"/v1?api_key="+secret, "--endpoint", url+"?api_key="+secret,
		"--model", fake.DefaultModel, "-n", "8", "--input-len", "4", "--output-len", "2", "--out", out, "--progress-interval", "0")
	if err == nil {
		t.Fatal("bench passed with half its requests failing")
	}
	if strings.Contains(stdout+err.Error(), secret) {
		t.Errorf("the console shows the key:\n%s\n%v", stdout, err)
	}
	files, marked := 0, 0
	filepath.WalkDir(out, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		files++
		b, err := os.ReadFile(p)
		if err == nil && bytes.Contains(b, []byte(secret)) {
			t.Errorf("%s holds the key", p)
		}
		if bytes.Contains(b, []byte("api_key=REDACTED")) {
			marked++
		}
		return nil
	})
	if files < 3 || marked == 0 {
		t.Errorf("%d files written, %d naming the redacted endpoint: the test saw too little", files, marked)
	}
}

// TestBenchPrefixRepetitionAndReasoning: vllm bench serve's
// prefix_repetition flag names make the workload, and against a fake
// with its prefix cache on that reasons, the summary and results.json
// carry the engine's hit rate beside the workload's, and the reasoning
// counted apart.
func TestBenchPrefixRepetitionAndReasoning(t *testing.T) {
	url := startFake(t, fake.Config{PrefixCache: true, ReasoningTokens: 4})
	out := filepath.Join(t.TempDir(), "out")
	stdout, err := runCLI(t, "bench", "-e", url, "--model", fake.DefaultModel, "--num-prompts", "30",
		"--prefix-repetition-prefix-len", "100", "--prefix-repetition-suffix-len", "10", "--prefix-repetition-num-prefixes", "3",
		"--prefix-repetition-output-len", "12", "-c", "2", "--out", out, "--progress-interval", "0")
	if err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	for _, want := range []string{"Prefix cache hit rate (engine):", "Prefix cache hit rate (workload):", "Reasoning tokens:                        120", "Mean TTFAT (ms):"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("the summary lacks %q:\n%s", want, stdout)
		}
	}
	res, err := bench.ReadResults(out)
	if err != nil {
		t.Fatal(err)
	}
	r := res.Runs[0]
	if res.Workload.Kind != "prefix-repetition" || r.Completed != 30 || r.PrefixCache == nil || r.PrefixCache.HitRate == nil ||
		*r.PrefixCache.HitRate < 0.5 || r.PrefixCache.ImpliedHitRate < 0.5 || r.ReasoningTokens != 120 || r.TTFAT == nil {
		t.Errorf("results: kind %s, %d completed, prefix cache %+v, %d reasoning tokens", res.Workload.Kind, r.Completed, r.PrefixCache, r.ReasoningTokens)
	}
	if _, err := runCLI(t, "bench", "-e", url, "--prefix-len", "10", "--multi-turn", "1", "--out", out); err == nil || !strings.Contains(err.Error(), "--prefix-len") {
		t.Errorf("--prefix-len with --multi-turn: %v", err)
	}
}

// TestBenchShardsAndMerge: two bench processes with --shard and one
// --rendezvous folder send one job (a sweep of two load points), and
// 'bench merge' joins their results: every request once, each host's own
// figures, the merged table; a third run of another workload is refused,
// naming what differs.
func TestBenchShardsAndMerge(t *testing.T) {
	url := startFake(t, fake.Config{TTFT: 2 * time.Millisecond})
	dir := t.TempDir()
	common := []string{"bench", "-e", url, "--model", fake.DefaultModel, "--num-prompts", "30", "--input-len", "16", "--output-len", "4",
		"-c", "4,8", "--rendezvous", filepath.Join(dir, "rendezvous"), "--progress-interval", "0"}
	outs := []string{filepath.Join(dir, "h0"), filepath.Join(dir, "h1")}
	codes := make([]int, 2)
	stdouts := make([]string, 2)
	done := make(chan int)
	// Each shard in a process of its own, as on two hosts (two in-process
	// commands at once would share urfave/cli's global help flag).
	for i := range 2 {
		go func() {
			stdouts[i], codes[i] = runSub(t, append(common, "--shard", fmt.Sprintf("%d/2", i), "--host-name", fmt.Sprintf("node%d", i), "--out", outs[i])...)
			done <- i
		}()
	}
	<-done
	<-done
	for i, code := range codes {
		if code != 0 {
			t.Fatalf("shard %d: exit %d\n%s", i, code, stdouts[i])
		}
	}
	merged := filepath.Join(dir, "merged")
	stdout, err := runCLI(t, "bench", "merge", "--out", merged, outs[0], outs[1])
	if err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	if !strings.Contains(stdout, "Per host:") || !strings.Contains(stdout, "node1") || !strings.Contains(stdout, "| c8 |") {
		t.Errorf("merge printed:\n%s", stdout)
	}
	res, err := bench.ReadResults(merged)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Hosts) != 2 || res.Requests != 30 || len(res.Runs) != 2 {
		t.Fatalf("merged: %d hosts, %d requests, %d runs", len(res.Hosts), res.Requests, len(res.Runs))
	}
	for _, r := range res.Runs {
		if r.Completed != 30 || len(r.Hosts) != 2 || r.Hosts[0].Completed != 15 || r.MaxConcurrent > r.Load.Concurrency {
			t.Errorf("run %s: %d completed, hosts %+v, peak %d", r.Label, r.Completed, r.Hosts, r.MaxConcurrent)
		}
	}
	if _, err := os.Stat(filepath.Join(merged, "report.html")); err != nil {
		t.Error(err)
	}
	// Another workload, one load point: shard 1 of a job of its own
	// (one run needs no rendezvous); merged with shard 0 above, the
	// workload and the sweep differ.
	other := filepath.Join(dir, "other")
	if stdout, err := runCLI(t, "bench", "-e", url, "--model", fake.DefaultModel, "--num-prompts", "30", "--input-len", "17", "--output-len", "4",
		"-c", "4", "--shard", "1/2", "--start-at", "@1", "--out", other, "--progress-interval", "0"); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	_, err = runCLI(t, "bench", "merge", "--out", filepath.Join(dir, "bad"), outs[0], other)
	for _, want := range []string{"cannot merge", `"input_len":16`, `"input_len":17`, "loads"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("merging another workload: %v, want it to say %q", err, want)
		}
	}
	if _, err := runCLI(t, "bench", "-e", url, "--num-prompts", "30", "-c", "4,8", "--shard", "1/2", "--out", other); err == nil || !strings.Contains(err.Error(), "--rendezvous") {
		t.Errorf("a sweep of one shard without --rendezvous: %v", err)
	}
}
