package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/fake"
	"github.com/mlperf-go/mlperf-go/loadgen/loadgentest"
	"github.com/mlperf-go/mlperf-go/record"
	"github.com/mlperf-go/mlperf-go/results"
	"github.com/mlperf-go/mlperf-go/submission"
)

// runSub runs this test binary as mlperf-go in a process of its own (LoadGen
// runs one test per process, so parallel tests each need one) and returns
// its combined output and exit status.
func runSub(t *testing.T, args ...string) (string, int) {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(self, append([]string{"--log-level", "warn"}, args...)...)
	cmd.Env = append(os.Environ(), beCLI+"=1")
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		return string(out), ee.ExitCode()
	case err != nil:
		t.Fatalf("running mlperf-go: %v", err)
	}
	return string(out), 0
}

// complianceCase is one compliance test of a benchmark in one scenario.
type complianceCase struct {
	bench    benchmark.Benchmark
	test     string
	scenario string
}

// complianceCases lists every compliance test the registry declares for the
// v6.1 round, in every scenario the round's checker allows for a
// datacenter submission of the benchmark; it fails if the registry's
// audit.configs and the round's list disagree.
func complianceCases(t *testing.T) []complianceCase {
	t.Helper()
	var cases []complianceCase
	for _, b := range benchmark.All() {
		rules := b.Submission.Rounds["v6.1"]
		if rules == nil {
			continue
		}
		declared := b.Submission.ComplianceTests()
		scenarios := slices.Concat(rules.Required["datacenter"], rules.Optional["datacenter"])
		slices.Sort(scenarios)
		for _, test := range declared {
			for _, s := range scenarios {
				cases = append(cases, complianceCase{b, test, s})
			}
		}
	}
	return cases
}

// complianceRun is what one mlperf-go compliance run left.
type complianceRun struct {
	out     string
	code    int
	dir     string // --output-dir
	results string // --results-dir
}

// runCompliance runs one compliance test against the fake at url, filing
// it into a results tree of its own: a short run on a small library, as
// the test's audit.config asks (gpt-oss-120b's unique-issue tests need the
// sample-count override at the library size).
func runCompliance(t *testing.T, tc complianceCase, data, url string, extra ...string) complianceRun {
	t.Helper()
	dir := t.TempDir()
	r := complianceRun{dir: filepath.Join(dir, "out"), results: filepath.Join(dir, "results")}
	args := []string{"run", "-b", tc.bench.Name, "-s", tc.scenario, "--compliance", tc.test, "-d", data, "-e", url,
		"-o", r.dir, "--results-dir", r.results, "--system", "sys", "--progress-interval", "0", "--engine-metrics-interval", "0",
		"--target-qps", "200", "--setting", "performance_sample_count_override=24"}
	r.out, r.code = runSub(t, append(args, extra...)...)
	return r
}

// test01References makes the accuracy and performance runs a TEST01 run
// is compared with, in a runs history of their own, and returns the flags
// that point the TEST01 run at them and make it as long as the
// performance run (TEST01 wants the scores within 10%).
func test01References(t *testing.T, tc complianceCase, data, url string) []string {
	t.Helper()
	runs := filepath.Join(t.TempDir(), "runs")
	same := []string{"--min-duration", "0", "--min-query-count", "200"}
	for _, mode := range []string{"accuracy", "performance"} {
		args := append([]string{"run", "-b", tc.bench.Name, "-s", tc.scenario, "-m", mode, "-d", data, "-e", url, "--runs-dir", runs,
			"--progress-interval", "0", "--engine-metrics-interval", "0", "--setting", "performance_sample_count_override=24"}, same...)
		if out, code := runSub(t, args...); code != 0 {
			t.Fatalf("the %s run TEST01 compares with: exit %d\n%s", mode, code, out)
		}
	}
	return append([]string{"--runs-dir", runs}, same...)
}

// TestComplianceVerdicts runs each compliance test the registry declares in
// every scenario the checker allows (fake endpoint, real LoadGen, one
// process each, in parallel): the outcome line, the exit status, the run
// record and results.json carry the test's own verdict, PASS, and LoadGen's
// performance verdict is shown as information only; the verification's
// file is filed where the checker reads it. TEST07 runs an accuracy script
// that prints a passing score (workflow.TestComplianceTEST07ScoredInGo scores it in
// Go).
func TestComplianceVerdicts(t *testing.T) {
	loadgentest.Require(t)
	cases := complianceCases(t)
	if len(cases) < 9 {
		t.Fatalf("%d compliance cases, want TEST06 of llama3_1-8b and TEST07, TEST09 of gpt-oss-120b in Offline, Server and Interactive", len(cases))
	}
	data := map[string]string{}
	urls := map[string]string{}
	for _, tc := range cases {
		if _, ok := data[tc.bench.Name]; ok {
			continue
		}
		files, err := tc.bench.Data.Synth(t.TempDir(), 24, 3)
		if err != nil {
			t.Fatal(err)
		}
		data[tc.bench.Name] = files[0]
		// TEST09 wants a mean output length within ±10% of 1278.2 tokens.
		cfg := fake.Config{Model: tc.bench.Serving.Model, OutputTokens: 1280, StreamInterval: 64}
		if _, ok := tc.bench.Submission.Compliance[submission.TEST01]; ok {
			// TEST01 wants its run's throughput within 10% of the
			// performance run's: the fake's latency, not this machine's
			// CPU, sets it (25 waves of 8 answers 300 ms apart, 7.5 s: a
			// busy machine's stalls, which reached the 10% of 2.5 s that
			// waves 100 ms apart took, are small beside them).
			cfg.TTFT, cfg.MaxConcurrency = 300*time.Millisecond, 8
		}
		urls[tc.bench.Name] = startFake(t, cfg)
	}
	for _, tc := range cases {
		t.Run(tc.bench.Name+"/"+tc.test+"/"+tc.scenario, func(t *testing.T) {
			t.Parallel()
			var extra []string
			switch tc.test {
			case submission.TEST07:
				extra = []string{"--accuracy-script", `test -s {accuracy_log} && echo "'exact_match': 70.125"`}
			case submission.TEST01:
				extra = test01References(t, tc, data[tc.bench.Name], urls[tc.bench.Name])
			}
			r := runCompliance(t, tc, data[tc.bench.Name], urls[tc.bench.Name], extra...)
			if r.code != 0 || !strings.Contains(r.out, "=== Outcome: "+tc.test+" PASS ===") {
				t.Fatalf("exit %d, want 0 and the outcome %s PASS:\n%s", r.code, tc.test, r.out)
			}
			res, err := results.Read(r.dir)
			if err != nil {
				t.Fatal(err)
			}
			if res.Outcome.Status != results.StatusPass || res.Compliance == nil || !res.Compliance.Pass || res.Compliance.Test != tc.test ||
				res.Run.Kind != tc.test || len(res.Outcome.Reasons) > 0 {
				t.Errorf("results.json: status %q, kind %q, reasons %q, compliance %+v", res.Outcome.Status, res.Run.Kind, res.Outcome.Reasons, res.Compliance)
			}
			if len(res.Compliance.Checks) == 0 {
				t.Errorf("results.json has no checks: %+v", res.Compliance)
			}
			for _, c := range res.Compliance.Checks {
				if !regexp.MustCompile(`(?m)^    ` + c.Name + ` +` + c.Result + `$`).MatchString(r.out) {
					t.Errorf("check %q (%s) not printed:\n%s", c.Name, c.Result, r.out)
				}
			}
			// LoadGen's performance verdict is information, never the
			// outcome: Server and Interactive runs this short are INVALID.
			v := res.Outcome.LoadGenValidity
			if v == "" || !strings.Contains(r.out, "LoadGen result                             "+v+" (information: "+tc.test) {
				t.Errorf("LoadGen's verdict %q not shown as information:\n%s", v, r.out)
			}
			if v == "INVALID" && len(res.Outcome.LoadGenReasons) == 0 {
				t.Errorf("LoadGen's INVALID without its reasons in loadgen_reasons: %+v", res.Outcome)
			}
			// The report shows the verdict as its status and as a card.
			page, err := os.ReadFile(filepath.Join(r.dir, "report.html"))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(page), `<div class="label">`+tc.test+`</div><div class="value">PASS</div>`) ||
				!strings.Contains(string(page), `<span id="status" class="badge ok">PASS</span>`) {
				t.Errorf("report.html shows no %s PASS card or ok status:\n%s", tc.test, string(page[:min(len(page), 4000)]))
			}
			info := readRecord(t, r.dir)
			if info.Outcome != record.Valid || info.Compliance == nil || !info.Compliance.Pass {
				t.Errorf("run record: outcome %q, compliance %+v", info.Outcome, info.Compliance)
			}
			// Filed with the verification, where the checker reads it.
			file := filepath.Join(r.results, "sys", tc.bench.SubmissionDir, tc.scenario, tc.test, info.Compliance.File)
			filed, err := os.ReadFile(file)
			if err != nil {
				t.Fatalf("the verification was not filed: %v", err)
			}
			if mine, _ := os.ReadFile(filepath.Join(r.dir, info.Compliance.File)); string(filed) != string(mine) || !regexp.MustCompile(`TEST06 verification complete|TEST PASS`).Match(filed) {
				t.Errorf("%s:\n%s\nbeside the logs:\n%s", file, filed, mine)
			}
		})
	}
}

// TestComplianceFailures: a verification that fails exits 1, names the
// failing criterion in the outcome line, results.json and the run record,
// and the run is not filed: the fake told to end every answer with two
// <|eot_id|> breaks TEST06's EOS check; answers of 16 tokens break TEST09's
// minimum mean length (the log holds 15 of them: gpt-oss-120b's final
// response leaves out the first token, as its reference SUT does).
func TestComplianceFailures(t *testing.T) {
	loadgentest.Require(t)
	llama, gpt := mustLookup(t, "llama3_1-8b"), mustLookup(t, "gpt-oss-120b")
	eot := int32(llama.Submission.Compliance[submission.TEST06].EOSTokenID)
	gptData, err := gpt.Data.Synth(t.TempDir(), 24, 3)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		complianceCase
		data    string
		cfg     fake.Config
		outcome string // the outcome line's start
		reason  string // results.json's reason
	}{
		{complianceCase{llama, submission.TEST06, "Server"}, llamaData(t, 24), fake.Config{Model: llama.Serving.Model, OutputTokens: 16, EndTokens: []int32{eot, eot}},
			"=== Outcome: TEST06 FAIL: EOS check pass: False (qsl_idx ", "TEST06: EOS check pass: False (qsl_idx "},
		{complianceCase{gpt, submission.TEST09, "Interactive"}, gptData[0], fake.Config{Model: gpt.Serving.Model, OutputTokens: 16},
			"=== Outcome: TEST09 FAIL: Min check pass: False (mean output tokens 15.00 over 24 samples, minimum 1150.38) ===",
			"TEST09: Min check pass: False (mean output tokens 15.00 over 24 samples, minimum 1150.38)"},
	} {
		t.Run(tc.test, func(t *testing.T) {
			t.Parallel()
			r := runCompliance(t, tc.complianceCase, tc.data, startFake(t, tc.cfg))
			if r.code != 1 || !strings.Contains(r.out, tc.outcome) {
				t.Fatalf("exit %d, want 1 and an outcome starting %q:\n%s", r.code, tc.outcome, r.out)
			}
			if !strings.Contains(r.out, "not filed into --results-dir") {
				t.Errorf("no word that the failed run was not filed:\n%s", r.out)
			}
			if _, err := os.Stat(filepath.Join(r.results, "sys", tc.bench.SubmissionDir, tc.scenario, tc.test)); err == nil {
				t.Errorf("the failed %s run was filed", tc.test)
			}
			res, err := results.Read(r.dir)
			if err != nil {
				t.Fatal(err)
			}
			if res.Outcome.Status != results.StatusFail || len(res.Outcome.Reasons) != 1 || !strings.HasPrefix(res.Outcome.Reasons[0], tc.reason) {
				t.Errorf("results.json: status %q, reasons %q; want fail, %q", res.Outcome.Status, res.Outcome.Reasons, tc.reason)
			}
			info := readRecord(t, r.dir)
			if info.Outcome != record.Invalid || !strings.HasPrefix(info.OutcomeReason, tc.test+" FAIL: ") || info.Submittable() == nil {
				t.Errorf("run record: outcome %q (%q), submittable %v", info.Outcome, info.OutcomeReason, info.Submittable())
			}
		})
	}
}
