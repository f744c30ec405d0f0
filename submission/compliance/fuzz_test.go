package compliance

import (
	"strings"
	"testing"
)

func FuzzTEST07Command(f *testing.F) {
	f.Add("python3 eval.py {accuracy_log} {{x}}")
	f.Add("{")
	f.Fuzz(func(t *testing.T, tmpl string) {
		out, err := TEST07Command(tmpl, "LOG")
		if err != nil {
			return
		}
		if !strings.ContainsAny(tmpl, "{}") && out != tmpl {
			t.Fatalf("template without braces changed: %q -> %q", tmpl, out)
		}
	})
}

// FuzzJudgeTEST07: any script output gives a file that starts with the
// output (newlines normalised), ends in TEST PASS or TEST FAIL as the
// verdict says, and a verdict whose problems are empty exactly when it
// passed.
func FuzzJudgeTEST07(f *testing.F) {
	f.Add([]byte("'exact_match': 61.000\n"))
	f.Add([]byte("'exact_match': 1.2.3\r\n"))
	f.Add([]byte("'exact_match': " + strings.Repeat("9", 400)))
	f.Add([]byte(""))
	f.Fuzz(func(t *testing.T, out []byte) {
		v := JudgeTEST07(out, 60.698)
		text := strings.ReplaceAll(strings.ReplaceAll(string(out), "\r\n", "\n"), "\r", "\n")
		if !strings.HasPrefix(string(v.Text), text+"\n") {
			t.Fatalf("file does not start with the output")
		}
		end := "TEST FAIL\n"
		if v.Pass() {
			end = "TEST PASS\n"
		}
		if !strings.HasSuffix(string(v.Text), end) || v.Pass() != (len(v.Verdict.Problems()) == 0) {
			t.Fatalf("pass %v, problems %q, file %q", v.Pass(), v.Verdict.Problems(), v.Text)
		}
	})
}
