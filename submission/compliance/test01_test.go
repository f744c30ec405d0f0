package compliance

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mlperf-go/mlperf-go/loadgen/mllog"
)

// copyTree copies the folder src into dst.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

var logStamp = regexp.MustCompile(`^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} `)

// normalize masks what differs between two runs of verify_performance.py:
// the log lines' time stamps and the folder the logs are in.
func normalize(s, dir string) string {
	lines := strings.Split(strings.ReplaceAll(s, dir, "DIR"), "\n")
	for i, l := range lines {
		lines[i] = logStamp.ReplaceAllString(l, "[TIME ")
	}
	return strings.Join(lines, "\n")
}

// verifyTEST01Tree verifies the TEST01 run filed in scenario directory
// dir against the runs filed beside it, and writes the files where the
// reference's scripts leave them.
func verifyTEST01Tree(dir string) (*Verification, error) {
	test := filepath.Join(dir, "TEST01")
	v, err := VerifyTEST01(filepath.Join(test, "accuracy", "mlperf_log_accuracy.json"),
		filepath.Join(test, "performance", "run_1", "mlperf_log_detail.txt"), TEST01ReferenceIn(dir), "int64")
	if err != nil {
		return nil, err
	}
	return v, v.Write(test)
}

// TestVerifyTEST01Golden: over crafted runs, verify_accuracy.txt is byte
// for byte what the official verify_accuracy.py --dtype int64 printed and
// verify_performance.txt what verify_performance.py printed, but for time
// stamps and paths (testdata/gen_test01.py).
func TestVerifyTEST01Golden(t *testing.T) {
	t.Parallel()
	cases, err := os.ReadDir("testdata/test01")
	if err != nil || len(cases) < 8 {
		t.Fatalf("%d cases, %v", len(cases), err)
	}
	for _, c := range cases {
		t.Run(c.Name(), func(t *testing.T) {
			t.Parallel()
			src := filepath.Join("testdata", "test01", c.Name())
			dir := t.TempDir()
			copyTree(t, src, dir)
			v, err := verifyTEST01Tree(dir)
			if err != nil {
				t.Fatal(err)
			}
			pass := v.Pass()
			wantPass := true
			for _, f := range []string{"accuracy", "performance"} {
				got, _ := os.ReadFile(filepath.Join(dir, "TEST01", "verify_"+f+".txt"))
				want, _ := os.ReadFile(filepath.Join(src, "expected_verify_"+f+".txt"))
				// The generator ran from the repository root.
				if g, w := normalize(string(got), dir), normalize(string(want), filepath.Join("submission", "compliance", src)); g != w {
					t.Errorf("verify_%s.txt:\n%s\nthe reference printed:\n%s", f, g, w)
				}
				wantPass = wantPass && strings.Contains(string(want), "TEST PASS")
				check := map[string]int{"accuracy": 0, "performance": 1}[f]
				if got := v.Verdict.Checks[check]; got.Pass != strings.Contains(string(want), "TEST PASS") {
					t.Errorf("check %s says %s, the reference's verify_%s.txt:\n%s", got.Name, got.Result, f, want)
				}
			}
			if pass != wantPass {
				t.Errorf("pass = %v, the reference's files say %v", pass, wantPass)
			}
		})
	}
}

// TestVerifyTEST01Stops: a log LoadGen marked INVALID or with an ERROR
// fails the performance check as the script stops there.
func TestVerifyTEST01Stops(t *testing.T) {
	t.Parallel()
	for name, edit := range map[string]func(string) string{
		"invalid": func(s string) string { return strings.Replace(s, `"VALID"`, `"INVALID"`, 1) },
		"error": func(s string) string {
			return s + strings.Replace(strings.SplitAfter(s, "\n")[1], `"is_error": false`, `"is_error": true`, 1)
		},
	} {
		dir := t.TempDir()
		copyTree(t, filepath.Join("testdata", "test01", "pass"), dir)
		p := filepath.Join(dir, "TEST01", "performance", "run_1", "mlperf_log_detail.txt")
		b, _ := os.ReadFile(p)
		os.WriteFile(p, []byte(edit(string(b))), 0o644)
		v, err := verifyTEST01Tree(dir)
		got, _ := os.ReadFile(filepath.Join(dir, "TEST01", "verify_performance.txt"))
		if err != nil || v.Pass() || strings.Contains(string(got), "TEST PASS") || v.Verdict.Checks[1].Pass {
			t.Errorf("%s: %+v, %v:\n%s", name, v, err, got)
		}
	}
}

// TestTEST01Baseline: Part III's baseline keeps the accuracy run's entries
// for the sampled samples, in the accuracy log's order.
func TestTEST01Baseline(t *testing.T) {
	t.Parallel()
	acc := []mllog.AccuracyEntry{{QSLIndex: 2}, {QSLIndex: 0}, {QSLIndex: 1}, {QSLIndex: 0, SeqID: 9}}
	got := TEST01Baseline(acc, []mllog.AccuracyEntry{{QSLIndex: 0}, {QSLIndex: 2}, {QSLIndex: 0}})
	if len(got) != 3 || got[0].QSLIndex != 2 || got[1].QSLIndex != 0 || got[2].SeqID != 9 {
		t.Errorf("baseline %+v", got)
	}
}
