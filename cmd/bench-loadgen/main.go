// Command bench-loadgen measures what mlperf-go's cgo bridge costs: the same
// null SUT (it completes every sample inside IssueQuery with an empty
// response, in one completion call per query) runs in LoadGen's Server
// scenario once in Go through the bridge and once as the C++ program
// cmd/bench-loadgen/cpp/null_sut.cc, both linked against the same
// libmlperf_loadgen.a. For each it searches the highest target QPS that
// LoadGen still reports VALID (doubling, then bisecting) and prints both and
// their ratio. Run it with `make bench-loadgen`; it is a benchmark, not a
// test, and its numbers depend on the machine's load.
package main

import (
	"flag"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/mlperf-go/mlperf-go/internal/buildinfo"
	"github.com/mlperf-go/mlperf-go/loadgen"
	"github.com/mlperf-go/mlperf-go/loadgen/mllog"
)

type config struct {
	cppBin          string
	minDurationMs   uint64
	targetLatencyNs uint64
	samples         int
	startQPS        float64
	maxQPS          float64
	bisectSteps     int
	rounds          int
	outDir          string
	only            string
}

func main() {
	var c config
	var latency time.Duration
	flag.StringVar(&c.cppBin, "cpp", "build/bin/loadgen_null_sut_cpp", "the C++ null SUT binary (built by CMake)")
	flag.Uint64Var(&c.minDurationMs, "min-duration-ms", 1000, "LoadGen min_duration of each step, in ms")
	flag.DurationVar(&latency, "target-latency", 10*time.Millisecond, "Server p99 latency bound (mlperf.conf's default for Server is 10ms)")
	flag.IntVar(&c.samples, "samples", 1024, "QSL size")
	flag.Float64Var(&c.startQPS, "start-qps", 10000, "first target QPS tried")
	flag.Float64Var(&c.maxQPS, "max-qps", 4e6, "stop doubling here")
	flag.IntVar(&c.bisectSteps, "bisect-steps", 5, "bisection steps after the doubling phase")
	flag.IntVar(&c.rounds, "rounds", 2, "search rounds per implementation (alternating C++ and Go); the best of each is reported")
	flag.StringVar(&c.outDir, "outdir", "", "where LoadGen logs go (default: a temporary directory, removed)")
	flag.StringVar(&c.only, "only", "", `run only "go" or "cpp" (for profiling)`)
	flag.Parse()
	c.targetLatencyNs = uint64(latency)
	if err := run(c); err != nil {
		fmt.Fprintln(os.Stderr, "bench-loadgen:", err)
		os.Exit(1)
	}
}

// step is one LoadGen run at one target QPS.
type step struct {
	qps       float64
	valid     bool
	completed float64 // completed samples per second
	p99Ns     int64
}

// runner runs one LoadGen Server test at qps, logging into dir.
type runner func(qps float64, dir string) (step, error)

func run(c config) error {
	if _, err := os.Stat(c.cppBin); err != nil {
		return fmt.Errorf("C++ null SUT: %w (build it with make bench-loadgen)", err)
	}
	out := c.outDir
	if out == "" {
		d, err := os.MkdirTemp("", "bench-loadgen-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(d)
		out = d
	}
	fmt.Printf("bench-loadgen: null SUT, Server scenario, LoadGen %s, min_duration %d ms, p99 bound %v, %d samples\n",
		loadgen.Version(), c.minDurationMs, time.Duration(c.targetLatencyNs), c.samples)
	fmt.Printf("harness %s; search: x2 from %.0f QPS, then %d bisection steps\n\n", buildinfo.Version, c.startQPS, c.bisectSteps)

	impls := []struct {
		name string
		run  runner
	}{
		{"C++", c.runCpp},
		{"Go", c.runGo},
	}
	best := map[string]step{}
	n := 0
	for r := 0; r < c.rounds; r++ {
		for _, im := range impls {
			if c.only != "" && !strings.EqualFold(c.only, strings.Trim(im.name, "+")) && !(c.only == "cpp" && im.name == "C++") {
				continue
			}
			fmt.Printf("%s, round %d:\n", im.name, r+1)
			s, err := search(c, func(qps float64) (step, error) {
				n++
				dir := filepath.Join(out, fmt.Sprintf("%03d-%s", n, strings.ToLower(strings.Trim(im.name, "+"))))
				if err := os.MkdirAll(dir, 0o755); err != nil {
					return step{}, err
				}
				st, err := im.run(qps, dir)
				if err == nil {
					fmt.Printf("  target %9.0f QPS: %-7s completed %9.0f samples/s, p99 %8.3f ms\n",
						st.qps, validity(st.valid), st.completed, float64(st.p99Ns)/1e6)
				}
				return st, err
			})
			if err != nil {
				return fmt.Errorf("%s: %w", im.name, err)
			}
			if s.qps > best[im.name].qps {
				best[im.name] = s
			}
		}
	}
	cpp, goRes := best["C++"], best["Go"]
	fmt.Printf("\nhighest VALID target QPS: C++ %.0f (p99 %.3f ms), Go %.0f (p99 %.3f ms)\n",
		cpp.qps, float64(cpp.p99Ns)/1e6, goRes.qps, float64(goRes.p99Ns)/1e6)
	if cpp.qps > 0 {
		ratio := goRes.qps / cpp.qps
		verdict := "meets"
		if ratio < 0.8 {
			verdict = "MISSES"
		}
		fmt.Printf("Go / C++ = %.2f (%s the 0.8 target)\n", ratio, verdict)
	}
	return nil
}

func validity(v bool) string {
	if v {
		return mllog.ResultValid
	}
	return mllog.ResultInvalid
}

// search doubles the target QPS until LoadGen says INVALID, then bisects
// between the last VALID and the first INVALID rate. It returns the
// highest VALID step (qps 0 if none).
func search(c config, try func(qps float64) (step, error)) (step, error) {
	var lo step
	hi := math.Inf(1)
	for qps := c.startQPS; qps <= c.maxQPS; qps *= 2 {
		s, err := try(qps)
		if err != nil {
			return step{}, err
		}
		if !s.valid {
			hi = qps
			break
		}
		lo = s
	}
	if math.IsInf(hi, 1) {
		return lo, nil
	}
	low := lo.qps
	for i := 0; i < c.bisectSteps; i++ {
		mid := math.Round((low + hi) / 2)
		s, err := try(mid)
		if err != nil {
			return step{}, err
		}
		if s.valid {
			lo, low = s, mid
		} else {
			hi = mid
		}
	}
	return lo, nil
}

func (c config) runCpp(qps float64, dir string) (step, error) {
	cmd := exec.Command(c.cppBin, dir, strconv.FormatFloat(qps, 'f', -1, 64),
		strconv.FormatUint(c.minDurationMs, 10), strconv.FormatUint(c.targetLatencyNs, 10),
		strconv.Itoa(c.samples))
	if out, err := cmd.CombinedOutput(); err != nil {
		return step{}, fmt.Errorf("%s: %v\n%s", c.cppBin, err, out)
	}
	return readSummary(qps, dir)
}

func (c config) runGo(qps float64, dir string) (step, error) {
	s := loadgen.DefaultTestSettings()
	s.Scenario, s.Mode = loadgen.Server, loadgen.PerformanceOnly
	s.ServerTargetQPS = qps
	s.MinDurationMs = c.minDurationMs
	s.ServerTargetLatencyNs = c.targetLatencyNs
	s.MinQueryCount = 1
	l := loadgen.DefaultLogSettings()
	l.OutDir = dir
	l.EnableTrace = false
	sut := &nullSUT{c: loadgen.Native()}
	if err := loadgen.StartTest(sut, nullQSL(c.samples), s, l, filepath.Join(dir, "no-audit.config")); err != nil {
		return step{}, err
	}
	if sut.err != nil {
		return step{}, sut.err
	}
	return readSummary(qps, dir)
}

// nullSUT completes every sample inside IssueQuery, one completion call per
// query, as the C++ null SUT does. LoadGen issues from one thread here
// (server_num_issue_query_threads 0), so one reusable buffer suffices.
type nullSUT struct {
	c   loadgen.Completer
	buf []loadgen.Response
	err error
}

func (s *nullSUT) Name() string { return "NullSUT-go" }
func (s *nullSUT) IssueQuery(qs []loadgen.QuerySample) {
	s.buf = s.buf[:0]
	for _, q := range qs {
		s.buf = append(s.buf, loadgen.Response{ID: q.ID})
	}
	if err := s.c.QuerySamplesComplete(s.buf); err != nil && s.err == nil {
		s.err = err
	}
}
func (s *nullSUT) FlushQueries() {}

type nullQSL int

func (q nullQSL) Name() string                       { return "NullQSL" }
func (q nullQSL) TotalSampleCount() int              { return int(q) }
func (q nullQSL) PerformanceSampleCount() int        { return int(q) }
func (q nullQSL) LoadSamplesToRam(idx []int) error   { return nil }
func (q nullQSL) UnloadSamplesFromRam(i []int) error { return nil }

var (
	reResult    = regexp.MustCompile(`Result is : (VALID|INVALID)`)
	reCompleted = regexp.MustCompile(`Completed samples per second\s*:\s*([0-9.e+]+)`)
	reP99       = regexp.MustCompile(`99\.00 percentile latency \(ns\)\s*:\s*(\d+)`)
)

// readSummary reads LoadGen's verdict from its own summary log.
func readSummary(qps float64, dir string) (step, error) {
	path := filepath.Join(dir, mllog.SummaryFile)
	b, err := os.ReadFile(path)
	if err != nil {
		return step{}, err
	}
	text := string(b)
	m := reResult.FindStringSubmatch(text)
	if m == nil {
		return step{}, fmt.Errorf("%s: no 'Result is' line", path)
	}
	s := step{qps: qps, valid: m[1] == mllog.ResultValid}
	if m := reCompleted.FindStringSubmatch(text); m != nil {
		s.completed, _ = strconv.ParseFloat(m[1], 64)
	}
	if m := reP99.FindStringSubmatch(text); m != nil {
		s.p99Ns, _ = strconv.ParseInt(m[1], 10, 64)
	}
	return s, nil
}
