package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mlperf-go/mlperf-go/results"
)

// runMLPerfGo runs one mlperf-go Server test into dir. LoadGen's verdict
// does not matter here (exit status 3, INVALID, is fine: a 30 s run is too
// short for early stopping); its latencies do.
func runMLPerfGo(c config, r rate, data, url, dir string) error {
	queries := int(math.Ceil(r.qps * c.duration.Seconds()))
	cmd := pinned(r.cpus, c.bin, "run", "-b", "llama3_1-8b", "-s", "Server", "-m", "performance",
		"-d", data, "-e", url, "-o", dir, "--target-qps", strconv.FormatFloat(r.qps, 'g', -1, 64),
		"--min-duration", strconv.FormatInt(c.duration.Milliseconds(), 10), "--min-query-count", strconv.Itoa(queries),
		"--total-sample-count", strconv.Itoa(c.samples), "--progress-interval", "0", "--engine-metrics-interval", "0")
	cmd.Env = append(os.Environ(), c.harnessEnv...)
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if errors.As(err, &ee) && ee.ExitCode() == 3 {
		err = nil
	}
	if err != nil {
		return fmt.Errorf("mlperf-go run at %g QPS: %v\n%s", r.qps, err, tail(out))
	}
	return nil
}

// mlperfGoResult reads LoadGen's TTFT and TPOT and the pool's own
// breakdown from the run's results.json.
func mlperfGoResult(r result, dir string) (result, error) {
	res, err := results.Read(dir)
	if err != nil {
		return r, err
	}
	m := res.Metrics
	if m.TTFT == nil || m.TPOT == nil {
		return r, fmt.Errorf("%s: no TTFT/TPOT in results.json", dir)
	}
	if res.Samples != nil {
		r.n = res.Samples.Completed
	}
	pct := func(d *results.Distribution) (out [3]float64) {
		for i, k := range []string{"50.00", "99.00", "99.90"} {
			out[i] = d.Percentiles[k] / 1e6
		}
		return out
	}
	r.raw = pct(m.TTFT)
	r.ttft, r.tpot = sub(r.raw, r.fake), sub(pct(m.TPOT), r.tpot)
	if h := res.HarnessLatency; h != nil {
		for _, p := range h.Parts {
			if p.Name == "harness_first_token" {
				r.pool = &[3]float64{ms(p.P50), ms(p.P99), ms(p.P999)}
			}
		}
	}
	return r, nil
}

func sub(a, b [3]float64) (out [3]float64) {
	for i := range a {
		out[i] = a[i] - b[i]
	}
	return out
}

// runEndpoints runs mlcommons/endpoints' online benchmark (poisson
// arrivals, streamed /v1/completions of the same token prompts) into dir.
// Without network access it finds no tokenizer and reports no TPOT of its
// own, so TPOT is taken from its per-sample events (endpointsResult).
func runEndpoints(c config, r rate, jsonl, url, dir string) error {
	cmd := pinned(r.cpus, c.endpointsBin, "benchmark", "online", "--endpoints", url, "--model", model,
		"--dataset", jsonl, "--api-type", "openai_completions", "--streaming", "on",
		"--load-pattern", "poisson", "--target-qps", strconv.FormatFloat(r.qps, 'g', -1, 64),
		"--duration", strconv.FormatInt(c.duration.Milliseconds(), 10),
		"--max-output-tokens", strconv.Itoa(outputTokens), "--workers", "2",
		"--client.worker-initialization-timeout", "300", "--report-dir", dir)
	cmd.Env = append(os.Environ(), "HF_HUB_OFFLINE=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("%v\n%s", err, tail(out))
	}
	return os.WriteFile(filepath.Join(dir, "run.log"), out, 0o644)
}

// endpointsResult reads endpoints' TTFT percentiles from its result
// summary and computes TPOT per sample from its events, as LoadGen does:
// (complete - first chunk) / (tokens - 1), every answer having
// outputTokens tokens.
func endpointsResult(r result, dir string) (result, error) {
	b, err := os.ReadFile(filepath.Join(dir, "performance", "result_summary.json"))
	if err != nil {
		return r, err
	}
	var sum struct {
		Completed int64 `json:"n_samples_completed"`
		TTFT      struct {
			Percentiles map[string]float64 `json:"percentiles"`
		} `json:"ttft"`
	}
	if err := json.Unmarshal(b, &sum); err != nil {
		return r, fmt.Errorf("endpoints' result summary: %w", err)
	}
	r.n = sum.Completed
	for i, k := range []string{"50.0", "99.0", "99.9"} {
		r.raw[i] = sum.TTFT.Percentiles[k] / 1e6
	}
	tpot, err := eventsTPOT(filepath.Join(dir, "events.jsonl"))
	if err != nil {
		return r, err
	}
	r.ttft, r.tpot = sub(r.raw, r.fake), sub(tpot, r.tpot)
	return r, nil
}

// eventsTPOT computes TPOT percentiles (ms) from endpoints' events.jsonl.
func eventsTPOT(path string) ([3]float64, error) {
	f, err := os.Open(path)
	if err != nil {
		return [3]float64{}, err
	}
	defer f.Close()
	first := map[string]int64{}
	var tpots []float64
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var ev struct {
			Type string `json:"event_type"`
			At   int64  `json:"timestamp_ns"`
			ID   string `json:"sample_uuid"`
		}
		if json.Unmarshal(sc.Bytes(), &ev) != nil {
			continue
		}
		switch ev.Type {
		case "sample.recv_first":
			first[ev.ID] = ev.At
		case "sample.complete":
			if t, ok := first[ev.ID]; ok {
				tpots = append(tpots, float64(ev.At-t)/1e6/(outputTokens-1))
			}
		}
	}
	if len(tpots) == 0 {
		return [3]float64{}, fmt.Errorf("%s: no sample with a first chunk and a completion", path)
	}
	slices.Sort(tpots)
	q := func(p float64) float64 { return tpots[max(int(math.Ceil(p*float64(len(tpots))))-1, 0)] }
	return [3]float64{q(0.5), q(0.99), q(0.999)}, sc.Err()
}

func tail(b []byte) string {
	s := strings.TrimSpace(string(b))
	if len(s) > 3000 {
		s = "…" + s[len(s)-3000:]
	}
	return s
}

func triple(v [3]float64) string { return fmt.Sprintf("%6.2f %6.2f %6.2f", v[0], v[1], v[2]) }

func printResult(r result) {
	pool := ""
	if r.pool != nil {
		pool = "; pool's own " + triple(*r.pool)
	}
	fmt.Printf("  %-9s %5g QPS, CPUs %-4q %6d samples: added TTFT p50/p99/p99.9 %s ms (raw %s, fake %s)%s; added TPOT %s ms; load %s; wake-up lateness %s ms\n",
		r.harness, r.rate.qps, r.rate.cpus, r.n, triple(r.ttft), triple(r.raw), triple(r.fake), pool, triple(r.tpot), r.load, r.noise)
}

// printTable prints the harness-added latency of every run.
func printTable(c config, rs []result) {
	fmt.Printf("\nHarness-added latency (harness's TTFT/TPOT percentile minus the fake's own, ms), %s runs, %s\n", c.duration, time.Now().UTC().Format(time.RFC3339))
	fmt.Println("| harness | QPS | harness CPUs | samples | TTFT p50 | TTFT p99 | TTFT p99.9 | TPOT p50 | TPOT p99 | TPOT p99.9 | pool's own p50/p99/p99.9 | load | wake-up lateness p50/p99/p99.9/max |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
	for _, r := range rs {
		pool := "-"
		if r.pool != nil {
			pool = fmt.Sprintf("%.2f / %.2f / %.2f", r.pool[0], r.pool[1], r.pool[2])
		}
		cpus := r.rate.cpus
		if cpus == "" {
			cpus = "any"
		}
		fmt.Printf("| %s | %g | %s | %d | %.2f | %.2f | %.2f | %.3f | %.3f | %.3f | %s | %s | %s |\n", r.harness, r.rate.qps, cpus, r.n,
			r.ttft[0], r.ttft[1], r.ttft[2], r.tpot[0], r.tpot[1], r.tpot[2], pool, r.load, r.noise)
	}
}
