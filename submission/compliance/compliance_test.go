package compliance

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mlperf-go/mlperf-go/record"
	"github.com/mlperf-go/mlperf-go/submission"
	"github.com/mlperf-go/mlperf-go/submission/internal/logtest"
)

func TestVerifyTEST06(t *testing.T) {
	ok := func(toks ...int32) logtest.Sample {
		return logtest.Sample{Data: toks, TokenData: toks[:1], Count: logtest.Cnt(int64(len(toks)))}
	}
	tests := []struct {
		name     string
		scenario string
		samples  []logtest.Sample
		want     string
		pass     bool
	}{
		{"offline pass", "Offline", []logtest.Sample{ok(5, 6, 7, logtest.EOT), ok(8, logtest.EOT)},
			"First token check pass: Skipped\nEOS check pass: True\nSample length check pass: True\nTEST06 verification complete\n", true},
		{"server pass", "Server", []logtest.Sample{ok(5, 6, 7, logtest.EOT), ok(8, 9)},
			"First token check pass: True\nEOS check pass: True\nSample length check pass: True\nTEST06 verification complete\n", true},
		{"double EOS", "Offline", []logtest.Sample{ok(5, 6, logtest.EOT, logtest.EOT)},
			"First token check pass: Skipped\nEOS check pass: False\nSample length check pass: True\nTEST06 verification failed\n", false},
		{"two EOS in a two-token response are not seen (token 0 is never examined)", "Offline", []logtest.Sample{ok(logtest.EOT, logtest.EOT)},
			"First token check pass: Skipped\nEOS check pass: True\nSample length check pass: True\nTEST06 verification complete\n", true},
		{"EOS then other token is fine", "Offline", []logtest.Sample{ok(5, logtest.EOT, logtest.EOT, 7)},
			"First token check pass: Skipped\nEOS check pass: True\nSample length check pass: True\nTEST06 verification complete\n", true},
		{"first token differs", "Interactive", []logtest.Sample{ok(5, 6), {Data: []int32{5, 6}, TokenData: []int32{9}, Count: logtest.Cnt(2)}},
			"First token check pass: False\nEOS check pass: True\nSample length check pass: True\nTEST06 verification failed\n", false},
		{"first token missing in Server", "Server", []logtest.Sample{{Data: []int32{5, 6}, Count: logtest.Cnt(2)}},
			"First token check pass: False\nEOS check pass: True\nSample length check pass: True\nTEST06 verification failed\n", false},
		{"token count wrong", "Offline", []logtest.Sample{{Data: []int32{5, 6}, Count: logtest.Cnt(3)}},
			"First token check pass: Skipped\nEOS check pass: True\nSample length check pass: False\nTEST06 verification failed\n", false},
		{"data not whole tokens", "Server", []logtest.Sample{{BadData: "0500000006", TokenData: []int32{5}, Count: logtest.Cnt(1)}},
			"First token check pass: False\nEOS check pass: False\nSample length check pass: False\nTEST06 verification failed\n", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			log := logtest.WriteAccLog(t, t.TempDir(), tc.samples)
			v, err := VerifyTEST06(log, TEST06Options{Scenario: tc.scenario, EOSTokenID: logtest.EOT})
			if err != nil {
				t.Fatal(err)
			}
			if v.Pass() != tc.pass {
				t.Errorf("pass = %v, want %v", v.Pass(), tc.pass)
			}
			if got := string(v.Text); got != tc.want || v.File != submission.VerifyAccuracyFile {
				t.Errorf("%s =\n%s\nwant verify_accuracy.txt\n%s", v.File, got, tc.want)
			}
			// The verdict's checks are the file's lines, and each failed
			// one says which sample failed it.
			checkLines(t, &v.Verdict, tc.want)
		})
	}
	if _, err := VerifyTEST06(filepath.Join(t.TempDir(), "none.json"), TEST06Options{Scenario: "Offline", EOSTokenID: logtest.EOT}); err == nil {
		t.Error("missing log: no error")
	}
	if _, err := VerifyTEST06("x", TEST06Options{Scenario: "Offline", DType: "float32"}); err == nil {
		t.Error("float32: no error")
	}
}

// checkLines fails t unless v's checks are the "<name> pass: <result>"
// lines of file, in order, each failed one with a detail naming a qsl_idx
// or a score, and v's problems name every failed check.
func checkLines(t *testing.T, v *record.Compliance, file string) {
	t.Helper()
	var lines []string
	for _, l := range strings.Split(file, "\n") {
		if strings.Contains(l, " pass: ") {
			lines = append(lines, l)
		}
	}
	if len(lines) != len(v.Checks) {
		t.Fatalf("checks %+v, want one per line of %q", v.Checks, lines)
	}
	problems := strings.Join(v.Problems(), "\n")
	for i, c := range v.Checks {
		if got := c.Name + " pass: " + c.Result; got != lines[i] {
			t.Errorf("check %d = %q, want %q", i, got, lines[i])
		}
		if c.Pass == (c.Result == "False") {
			t.Errorf("check %q: pass %v with result %s", c.Name, c.Pass, c.Result)
		}
		if !c.Pass && (c.Detail == "" || !strings.Contains(problems, lines[i]+" ("+c.Detail+")")) {
			t.Errorf("failed check %q: detail %q, problems %q", c.Name, c.Detail, problems)
		}
	}
	if v.Pass != (len(v.Problems()) == 0) {
		t.Errorf("pass %v with problems %q", v.Pass, v.Problems())
	}
}

func TestVerifyTEST09(t *testing.T) {
	tests := []struct {
		name    string
		lengths []int
		pass    bool
		stats   string // the statistics lines, computed by hand
	}{
		// mean (1100+1300)/2 = 1200, population std 100.
		{"inside", []int{1100, 1300}, true, "Total samples: 2\nMean output tokens: 1200.00\nMin output tokens: 1100\nMax output tokens: 1300\nStd deviation: 100.00\n"},
		// mean 1150.38 exactly is not reachable with integers; 1150 < 1150.38 fails.
		{"below", []int{1150}, false, "Total samples: 1\nMean output tokens: 1150.00\nMin output tokens: 1150\nMax output tokens: 1150\nStd deviation: 0.00\n"},
		// (1406+1407)/2 = 1406.5 > 1406.02 fails; std 0.5.
		{"above", []int{1406, 1407}, false, "Total samples: 2\nMean output tokens: 1406.50\nMin output tokens: 1406\nMax output tokens: 1407\nStd deviation: 0.50\n"},
		// (1151+1150+1151)/3 = 1150.666… passes; std sqrt(2/9) = 0.4714.
		{"just above min", []int{1151, 1150, 1151}, true, "Total samples: 3\nMean output tokens: 1150.67\nMin output tokens: 1150\nMax output tokens: 1151\nStd deviation: 0.47\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			log := logtest.WriteAccLog(t, t.TempDir(), logtest.LenSamples(tc.lengths...))
			v, err := VerifyTEST09(log, "gpt-oss-120b")
			if err != nil {
				t.Fatal(err)
			}
			if v.Pass() != tc.pass || v.File != submission.VerifyOutputLenFile {
				t.Errorf("pass = %v, want %v (file %s)", v.Pass(), tc.pass, v.File)
			}
			got := string(v.Text)
			eq := strings.Repeat("=", 80)
			mean := strings.Split(tc.stats, "\n")[1]
			verdict, minOK, maxOK := "TEST FAIL", "True", "True"
			if tc.pass {
				verdict = "TEST PASS"
			} else if tc.name == "below" {
				minOK = "False"
			} else {
				maxOK = "False"
			}
			want := eq + "\nTEST09: Verify Output Token Length in Performance Mode\n" + eq + "\n\n" +
				"Output Token Length Statistics\n" + strings.Repeat("-", 40) + "\n" + tc.stats +
				"\n" + eq + "\nVerification Results\n" + eq + "\n" + mean + "\n" +
				"Min threshold: 1150.38\nMax threshold: 1406.02\n" +
				"Min check pass: " + minOK + "\nMax check pass: " + maxOK + "\n\n" + verdict + "\n"
			if got != want {
				t.Errorf("verify_output_len.txt =\n%s\nwant\n%s", got, want)
			}
			checkLines(t, &v.Verdict, want)
		})
	}
	// A partial trailing token is not counted (len(bytes)//4).
	log := logtest.WriteAccLog(t, t.TempDir(), []logtest.Sample{{BadData: strings.Repeat("00", 4*1200+3)}})
	v, err := VerifyTEST09(log, "gpt-oss-120b")
	if err != nil {
		t.Fatal(err)
	}
	if got := string(v.Text); !strings.Contains(got, "Max output tokens: 1200\n") {
		t.Errorf("partial token counted:\n%s", got)
	}
	if _, err := VerifyTEST09(log, "llama3.1-8b"); err == nil {
		t.Error("llama3.1-8b has no TEST09, want an error")
	}
}

func TestRunTEST07(t *testing.T) {
	t.Parallel()
	log := logtest.WriteAccLog(t, t.TempDir(), logtest.LenSamples(3))
	// The "script" proves it got the log path, and prints to stderr too.
	v, err := RunTEST07(context.Background(), log, "gpt-oss-120b", `test -f {accuracy_log} && echo "'exact_match': 70.25" && echo warn >&2`)
	if err != nil || !v.Pass() || len(v.Verdict.Warnings) > 0 {
		t.Fatalf("err %v, verdict %+v", err, v)
	}
	got := string(v.Text)
	for _, s := range []string{"'exact_match': 70.25\n", "warn\n", "Accuracy score: 70.25\n", "TEST PASS\n"} {
		if !strings.Contains(got, s) {
			t.Errorf("verify_accuracy.txt lacks %q:\n%s", s, got)
		}
	}
	if !strings.Contains(v.Verdict.Verifier, "exact_match") {
		t.Errorf("the verifier does not name the script: %q", v.Verdict.Verifier)
	}
	// A script that fails is judged by its output, as the reference
	// does; the verdict says it failed.
	v, err = RunTEST07(context.Background(), log, "gpt-oss-120b", "exit 3")
	if err != nil || v.Pass() || !strings.Contains(string(v.Text), "TEST FAIL") || len(v.Verdict.Warnings) != 1 || !strings.Contains(v.Verdict.Warnings[0], "exit status 3") {
		t.Errorf("failing script: err %v, verdict %+v\n%s", err, v.Verdict, v.Text)
	}
	v, err = RunTEST07(context.Background(), log, "gpt-oss-120b", "echo \"'exact_match': 71\"; exit 2")
	if err != nil || !v.Pass() || len(v.Verdict.Warnings) != 1 {
		t.Errorf("a script printing a passing score, then failing: err %v, verdict %+v", err, v.Verdict)
	}
	if _, err := RunTEST07(context.Background(), log, "gpt-oss-120b", "{bad}"); err == nil {
		t.Error("a template with an unknown field: no error")
	}
}
