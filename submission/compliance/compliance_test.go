package compliance

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

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
			dir := t.TempDir()
			logtest.WriteAccLog(t, dir, tc.samples)
			pass, err := VerifyTEST06(dir, TEST06Options{Scenario: tc.scenario, EOSTokenID: logtest.EOT})
			if err != nil {
				t.Fatal(err)
			}
			if pass != tc.pass {
				t.Errorf("pass = %v, want %v", pass, tc.pass)
			}
			if got := logtest.MustRead(t, filepath.Join(dir, "verify_accuracy.txt")); got != tc.want {
				t.Errorf("verify_accuracy.txt =\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
	if _, err := VerifyTEST06(t.TempDir(), TEST06Options{Scenario: "Offline", EOSTokenID: logtest.EOT}); err == nil {
		t.Error("missing log: no error")
	}
	if _, err := VerifyTEST06(t.TempDir(), TEST06Options{Scenario: "Offline", DType: "float32"}); err == nil {
		t.Error("float32: no error")
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
			dir := t.TempDir()
			logtest.WriteAccLog(t, dir, logtest.LenSamples(tc.lengths...))
			pass, err := VerifyTEST09(dir, "gpt-oss-120b")
			if err != nil {
				t.Fatal(err)
			}
			if pass != tc.pass {
				t.Errorf("pass = %v, want %v", pass, tc.pass)
			}
			got := logtest.MustRead(t, filepath.Join(dir, "verify_output_len.txt"))
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
		})
	}
	// A partial trailing token is not counted (len(bytes)//4).
	dir := t.TempDir()
	logtest.WriteAccLog(t, dir, []logtest.Sample{{BadData: strings.Repeat("00", 4*1200+3)}})
	if _, err := VerifyTEST09(dir, "gpt-oss-120b"); err != nil {
		t.Fatal(err)
	}
	if got := logtest.MustRead(t, filepath.Join(dir, "verify_output_len.txt")); !strings.Contains(got, "Max output tokens: 1200\n") {
		t.Errorf("partial token counted:\n%s", got)
	}
	if _, err := VerifyTEST09(t.TempDir(), "llama3.1-8b"); err == nil {
		t.Error("llama3.1-8b has no TEST09, want an error")
	}
}

func TestTEST07(t *testing.T) {
	th, err := TEST07Threshold("gpt-oss-120b")
	if err != nil || th != 60.698 {
		t.Fatalf("threshold = %v, %v; want 60.698 from the audit.config", th, err)
	}
	cmd, err := TEST07Command("python3 eval.py --mlperf-log {accuracy_log} --fmt '{{x}}'", "/a b/log.json")
	if err != nil || cmd != "python3 eval.py --mlperf-log /a b/log.json --fmt '{x}'" {
		t.Errorf("TEST07Command = %q, %v", cmd, err)
	}
	for _, bad := range []string{"x {other}", "x {accuracy_log", "x }"} {
		if _, err := TEST07Command(bad, "p"); err == nil {
			t.Errorf("TEST07Command(%q) succeeded", bad)
		}
	}
	eq := strings.Repeat("=", 80)
	tests := []struct {
		name, output string
		pass         bool
		tail         string
	}{
		{"pass", "Evaluating\n'exact_match': 61.000\n", true,
			"Accuracy score: 61.0\nAccuracy threshold: 60.698\nAccuracy check pass: True\nTEST PASS\n"},
		{"at threshold passes", "'exact_match': 60.698\n", true,
			"Accuracy score: 60.698\nAccuracy threshold: 60.698\nAccuracy check pass: True\nTEST PASS\n"},
		{"below", "'exact_match':59.5\r\n", false,
			"Accuracy score: 59.5\nAccuracy threshold: 60.698\nAccuracy check pass: False\nTEST FAIL\n"},
		{"no score", "Traceback (most recent call last):\n", false,
			"Error: Could not parse accuracy score\nTEST FAIL\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			pass, err := WriteTEST07Verification(dir, []byte(tc.output), th)
			if err != nil {
				t.Fatal(err)
			}
			if pass != tc.pass {
				t.Errorf("pass = %v", pass)
			}
			want := strings.ReplaceAll(tc.output, "\r\n", "\n") + "\n" + eq + "\nTEST07 Verification Summary\n" + eq + "\n" + tc.tail
			if got := logtest.MustRead(t, filepath.Join(dir, "verify_accuracy.txt")); got != want {
				t.Errorf("verify_accuracy.txt =\n%q\nwant\n%q", got, want)
			}
		})
	}
}

func TestRunTEST07(t *testing.T) {
	dir := t.TempDir()
	logtest.WriteAccLog(t, dir, logtest.LenSamples(3))
	// The "script" proves it got the log path, and prints to stderr too.
	pass, err := RunTEST07(context.Background(), dir, "gpt-oss-120b", `test -f {accuracy_log} && echo "'exact_match': 70.25" && echo warn >&2`)
	if err != nil || !pass {
		t.Fatalf("pass=%v err=%v", pass, err)
	}
	got := logtest.MustRead(t, filepath.Join(dir, "verify_accuracy.txt"))
	for _, s := range []string{"'exact_match': 70.25\n", "warn\n", "Accuracy score: 70.25\n", "TEST PASS\n"} {
		if !strings.Contains(got, s) {
			t.Errorf("verify_accuracy.txt lacks %q:\n%s", s, got)
		}
	}
	pass, err = RunTEST07(context.Background(), dir, "gpt-oss-120b", "exit 3")
	if err == nil || pass {
		t.Errorf("failing script: pass=%v err=%v", pass, err)
	}
	if !strings.Contains(logtest.MustRead(t, filepath.Join(dir, "verify_accuracy.txt")), "TEST FAIL") {
		t.Error("failing script did not produce TEST FAIL")
	}
}
