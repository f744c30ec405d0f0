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
