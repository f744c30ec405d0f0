// Command bench-latency measures how much latency a harness adds: it runs
// llama3_1-8b's Server scenario, streamed, against the fake endpoint
// (mlperf-go fake-endpoint, --ttft and --tpot) at several target QPS, and
// subtracts the fake's own time (GET /fake/stats: request received to first
// token written, and its TPOT) from the TTFT and TPOT the harness measured.
// What is left is the harness's, plus the loopback and the kernel.
//
// It measures mlperf-go (LoadGen's own TTFT and TPOT from results.json,
// and the pool's per-sample breakdown beside them) and, when given its
// command, mlcommons/endpoints' `inference-endpoint benchmark online`
// (poisson arrivals, openai_completions with the same token prompts; its
// TTFT from its result summary, its TPOT from its per-sample events) against
// the same fake, alternating the two at each rate. Each harness and the
// fake are pinned to CPUs with taskset. Run it with `make bench-latency`;
// it is a benchmark, not a test, and its numbers move with the machine's
// load, which it prints.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// model is llama3_1-8b's served model name (what the fake must answer to).
const model = "meta-llama/Llama-3.1-8B-Instruct"

// outputTokens is how many tokens the fake streams per answer: the
// benchmark's max_tokens, so every answer has exactly this many.
const outputTokens = 128

type config struct {
	bin, fakeBin, endpointsBin string
	rates                      []rate
	fakeCPUs                   string
	ttft, tpot, duration       time.Duration
	samples, rounds            int
	out                        string
	harnessEnv                 []string
}

// rate is one target QPS and the CPUs the harness gets for it ("": any).
type rate struct {
	qps  float64
	cpus string
}

func main() {
	if len(os.Args) == 3 && os.Args[1] == probeFlag {
		d, err := time.ParseDuration(os.Args[2])
		if err != nil {
			os.Exit(2)
		}
		runProbe(d)
		return
	}
	var c config
	var rates string
	flag.StringVar(&c.bin, "bin", "build/bin/mlperf-go", "the mlperf-go binary measured")
	flag.StringVar(&c.fakeBin, "fake-bin", "", "the mlperf-go binary serving the fake endpoint (default: -bin)")
	flag.StringVar(&c.endpointsBin, "endpoints", "", "mlcommons/endpoints' inference-endpoint command, to measure it too (\"\": mlperf-go only)")
	flag.StringVar(&rates, "rates", "60@0,200@0,500@0-1", "target QPS and harness CPUs (taskset -c list; none: any), comma-separated")
	flag.StringVar(&c.fakeCPUs, "fake-cpus", "1", "CPUs of the fake endpoint (taskset -c list; \"\": any)")
	flag.DurationVar(&c.ttft, "ttft", 50*time.Millisecond, "the fake's time to first token")
	flag.DurationVar(&c.tpot, "tpot", 5*time.Millisecond, "the fake's time per output token")
	flag.DurationVar(&c.duration, "duration", 30*time.Second, "each run's min_duration")
	flag.IntVar(&c.samples, "samples", 1000, "synthetic llama3_1-8b samples")
	flag.IntVar(&c.rounds, "rounds", 1, "runs of each harness at each rate (alternated)")
	flag.StringVar(&c.out, "out", "", "where runs go (default: a temporary directory, kept)")
	flag.Func("harness-env", "KEY=VALUE added to mlperf-go's environment (repeatable), e.g. GOMAXPROCS=2", func(s string) error {
		if !strings.Contains(s, "=") {
			return fmt.Errorf("%q is not KEY=VALUE", s)
		}
		c.harnessEnv = append(c.harnessEnv, s)
		return nil
	})
	flag.Parse()
	if c.fakeBin == "" {
		c.fakeBin = c.bin
	}
	var err error
	if c.rates, err = parseRates(rates); err == nil {
		err = run(c)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench-latency:", err)
		os.Exit(1)
	}
}

func parseRates(s string) ([]rate, error) {
	var out []rate
	for _, f := range strings.Split(s, ",") {
		q, cpus, _ := strings.Cut(strings.TrimSpace(f), "@")
		v, err := strconv.ParseFloat(q, 64)
		if err != nil || v <= 0 {
			return nil, fmt.Errorf("-rates: %q is not QPS[@CPUS] (e.g. 200@0)", f)
		}
		out = append(out, rate{v, cpus})
	}
	return out, nil
}

// result is one run's harness-added figures, in milliseconds.
type result struct {
	harness string
	rate    rate
	n       int64
	// ttft and tpot are the harness's p50, p99, p99.9 minus the fake's.
	ttft, tpot [3]float64
	// raw are the harness's own TTFT percentiles, fake the fake's.
	raw, fake [3]float64
	// pool is mlperf-go's harness_first_token p50, p99, p99.9 (its own
	// breakdown), nil for others.
	pool *[3]float64
	load string
	// noise is the machine's wake-up lateness on the harness's CPUs
	// meanwhile (probe.go): p50/p99/p99.9/max ms.
	noise string
}

func run(c config) error {
	out := c.out
	if out == "" {
		d, err := os.MkdirTemp("", "bench-latency-")
		if err != nil {
			return err
		}
		out = d
	}
	data, jsonl, err := synth(c.bin, filepath.Join(out, "data"), c.samples)
	if err != nil {
		return err
	}
	url, stop, err := startFake(c, filepath.Join(out, "fake.log"))
	if err != nil {
		return err
	}
	defer stop()
	fmt.Printf("bench-latency: llama3_1-8b Server, streamed, fake endpoint --ttft %v --tpot %v (%d tokens) on CPUs %q; runs in %s\n",
		c.ttft, c.tpot, outputTokens, c.fakeCPUs, out)
	var results []result
	for i, r := range c.rates {
		for round := range c.rounds {
			dir := filepath.Join(out, fmt.Sprintf("%02d-qps%g-round%d", i, r.qps, round))
			res, err := measure(url, r.cpus, c.duration, func() error { return runMLPerfGo(c, r, data, url, filepath.Join(dir, "mlperf-go")) })
			if err != nil {
				return err
			}
			if res, err = mlperfGoResult(res, filepath.Join(dir, "mlperf-go")); err != nil {
				return err
			}
			results = append(results, withRate(res, "mlperf-go", r))
			printResult(results[len(results)-1])
			if c.endpointsBin == "" {
				continue
			}
			ep := filepath.Join(dir, "endpoints")
			res, err = measure(url, r.cpus, c.duration, func() error { return runEndpoints(c, r, jsonl, url, ep) })
			if err == nil {
				res, err = endpointsResult(res, ep)
			}
			if err != nil {
				return fmt.Errorf("mlcommons/endpoints at %g QPS: %w", r.qps, err)
			}
			results = append(results, withRate(res, "endpoints", r))
			printResult(results[len(results)-1])
		}
	}
	printTable(c, results)
	return nil
}

func withRate(r result, harness string, rt rate) result {
	r.harness, r.rate = harness, rt
	return r
}

// measure resets the fake's own stats, runs a harness, and returns the
// fake's side of it, the machine's load before and after, and its wake-up
// lateness on cpus for the run's first d.
func measure(url, cpus string, d time.Duration, runHarness func() error) (result, error) {
	var r result
	if err := post(url + "/fake/stats/reset"); err != nil {
		return r, err
	}
	before := loadavg()
	p, err := startProbe(cpus, d)
	if err != nil {
		return r, fmt.Errorf("starting the noise probe: %w", err)
	}
	err = runHarness()
	r.noise = p.wait()
	if err != nil {
		return r, err
	}
	r.load = before + " -> " + loadavg()
	st, err := fakeStats(url)
	if err != nil {
		return r, err
	}
	r.fake = [3]float64{ms(st.TTFT.P50), ms(st.TTFT.P99), ms(st.TTFT.P999)}
	r.tpot = [3]float64{ms(st.TPOT.P50), ms(st.TPOT.P99), ms(st.TPOT.P999)} // the fake's, until subtracted
	return r, nil
}

// summary is lathist.Summary as the fake serves it.
type summary struct {
	Count               int64
	P50, P90, P99, P999 int64
	Mean, Max           int64
}

func (s *summary) UnmarshalJSON(b []byte) error {
	var m map[string]int64
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	*s = summary{Count: m["count"], P50: m["p50_ns"], P90: m["p90_ns"], P99: m["p99_ns"], P999: m["p99_9_ns"], Mean: m["mean_ns"], Max: m["max_ns"]}
	return nil
}

type ownStats struct {
	TTFT summary `json:"ttft_ns"`
	TPOT summary `json:"tpot_ns"`
}

func fakeStats(url string) (ownStats, error) {
	var st ownStats
	resp, err := http.Get(url + "/fake/stats")
	if err != nil {
		return st, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return st, fmt.Errorf("GET /fake/stats: %s (is -fake-bin a build with the stats route?)", resp.Status)
	}
	return st, json.NewDecoder(resp.Body).Decode(&st)
}

func post(url string) error {
	resp, err := http.Post(url, "text/plain", nil)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("POST %s: %s", url, resp.Status)
	}
	return nil
}

func ms(ns int64) float64 { return float64(ns) / 1e6 }

// loadavg is the 1-minute load average.
func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	return strings.Fields(string(b))[0]
}

// pinned returns cmd args run under taskset when cpus is set.
func pinned(cpus string, args ...string) *exec.Cmd {
	if cpus != "" {
		args = append([]string{"taskset", "-c", cpus}, args...)
	}
	return exec.Command(args[0], args[1:]...)
}

// synth writes the llama3_1-8b dataset and the same prompts as
// endpoints' JSONL ({"input_tokens": [...]}).
func synth(bin, dir string, n int) (data, jsonl string, err error) {
	if out, err := exec.Command(bin, "dataset", "synth", "-b", "llama3_1-8b", "-n", strconv.Itoa(n), "-o", dir).CombinedOutput(); err != nil {
		return "", "", fmt.Errorf("dataset synth: %v\n%s", err, out)
	}
	data = filepath.Join(dir, "cnn_eval.json")
	raw, err := os.ReadFile(data)
	if err != nil {
		return "", "", err
	}
	var samples []struct {
		TokInput []int32 `json:"tok_input"`
	}
	if err := json.Unmarshal(raw, &samples); err != nil {
		return "", "", fmt.Errorf("%s: %w", data, err)
	}
	var b bytes.Buffer
	for _, s := range samples {
		line, _ := json.Marshal(map[string]any{"input_tokens": s.TokInput})
		b.Write(append(line, '\n'))
	}
	jsonl = filepath.Join(dir, "endpoints.jsonl")
	return data, jsonl, os.WriteFile(jsonl, b.Bytes(), 0o644)
}

// startFake starts the fake endpoint and returns its URL and a stop
// function (which logs its own latency into logPath).
func startFake(c config, logPath string) (string, func(), error) {
	cmd := pinned(c.fakeCPUs, c.fakeBin, "fake-endpoint", "--listen", "127.0.0.1:0", "--model", model,
		"--ttft", c.ttft.String(), "--tpot", c.tpot.String(), "--output-tokens", strconv.Itoa(outputTokens))
	logf, err := os.Create(logPath)
	if err != nil {
		return "", nil, err
	}
	cmd.Stderr = logf
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return "", nil, err
	}
	if err := cmd.Start(); err != nil {
		return "", nil, fmt.Errorf("starting the fake endpoint: %w", err)
	}
	stop := func() {
		cmd.Process.Signal(os.Interrupt)
		cmd.Wait()
		logf.Close()
	}
	url, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		stop()
		return "", nil, fmt.Errorf("the fake endpoint printed no URL (see %s): %w", logPath, err)
	}
	go io.Copy(io.Discard, stdout)
	return strings.TrimSpace(url), stop, nil
}
