package pyast

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/mlperf-go/mlperf-go/internal/golden"
	"github.com/mlperf-go/mlperf-go/score/bfcl/pyval"
)

// exprRow is one line of testdata/exprs.jsonl.gz (gen_golden.py).
type exprRow struct {
	Src        string
	Err        *string
	Unparse    *string
	UnparseErr string `json:"unparse_err"`
	Literal    map[string]any
}

// TestGolden parses, literal-evaluates and unparses every expression of
// the golden file and compares with CPython 3.12: the same SyntaxError or
// ValueError, the same unparse text, the same literal value or error.
func TestGolden(t *testing.T) {
	t.Parallel()
	rows, bad := 0, 0
	golden.JSONL(t, "testdata/exprs.jsonl.gz", func(n int, r exprRow) {
		rows++
		p, err := Parse(r.Src)
		fail := func(format string, a ...any) {
			bad++
			if bad <= 25 {
				t.Errorf("line %d %q: "+format, append([]any{n, r.Src}, a...)...)
			}
		}
		if r.Err != nil {
			var pe *pyval.Error
			if !errors.As(err, &pe) || pe.Type != *r.Err {
				fail("Python raises %s, the port: %v", *r.Err, err)
			}
			return
		}
		if err != nil {
			fail("Python parses it, the port: %v", err)
			return
		}
		got, uerr := Unparse(p.Body)
		switch {
		case r.UnparseErr != "":
			if uerr == nil {
				fail("unparse: Python raises %s, the port writes %q", r.UnparseErr, got)
			}
		case uerr != nil || got != *r.Unparse:
			fail("unparse %q (%v), Python %q", got, uerr, *r.Unparse)
		}
		v, lerr := LiteralEval(p.Body)
		if want, ok := r.Literal["err"]; ok {
			var pe *pyval.Error
			if !errors.As(lerr, &pe) || pe.Type != want {
				fail("literal_eval: Python raises %v, the port: %v %#v", want, lerr, v)
			}
			return
		}
		if lerr != nil {
			fail("literal_eval: the port raises %v, Python %v", lerr, r.Literal)
			return
		}
		b, _ := json.Marshal(pyval.Tag(v))
		var gotTag any
		_ = json.Unmarshal(b, &gotTag)
		if !pyval.TagEqual(gotTag, any(r.Literal)) {
			fail("literal_eval %s, Python %v", b, r.Literal)
		}
	})
	t.Logf("%d expressions, %d differ", rows, bad)
	if rows < 3000 {
		t.Errorf("only %d golden rows", rows)
	}
}
