package pyval

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/mlperf-go/mlperf-go/internal/golden"
)

// TestGolden compares json.loads / json.dumps, int(), float(), == and
// `in` with CPython 3.12 (testdata/gen_golden.py).
func TestGolden(t *testing.T) {
	t.Parallel()
	type row struct {
		Op, Src      string
		Loads, Value map[string]any
		Dumps        any
		DumpsU       *string `json:"dumps_u"`
		A, B         string
		Eq, In       bool
	}
	tagOf := func(v Value) any {
		b, _ := json.Marshal(Tag(v))
		var x any
		_ = json.Unmarshal(b, &x)
		return x
	}
	errMatches := func(err error, want any) bool {
		var pe *Error
		return errors.As(err, &pe) && pe.Type == want
	}
	n := 0
	golden.JSONL(t, "testdata/values.jsonl.gz", func(line int, r row) {
		n++
		switch r.Op {
		case "json":
			if strings.Contains(r.Src, `\ud800`) || strings.Contains(r.Src, `\udc00"`) {
				// A lone surrogate: Python keeps it, a Go string cannot;
				// Loads gives U+FFFD (documented on Loads).
				return
			}
			v, err := Loads(r.Src)
			if want, ok := r.Loads["err"]; ok {
				if !errMatches(err, want) {
					t.Errorf("line %d: Loads(%.60q): Python raises %v, the port %v", line, r.Src, want, err)
				}
				return
			}
			if err != nil {
				t.Errorf("line %d: Loads(%.60q): %v", line, r.Src, err)
				return
			}
			if r.Loads["deep"] == true {
				return
			}
			if !TagEqual(tagOf(v), any(r.Loads)) {
				t.Errorf("line %d: Loads(%.60q) = %v, Python %v", line, r.Src, tagOf(v), r.Loads)
			}
			s, err := Dumps(v)
			if m, ok := r.Dumps.(map[string]any); ok {
				if !errMatches(err, m["err"]) {
					t.Errorf("line %d: Dumps: Python raises %v, the port %v", line, m["err"], err)
				}
			} else if err != nil || s != r.Dumps {
				t.Errorf("line %d: Dumps = %q (%v), Python %q", line, s, err, r.Dumps)
			}
			if r.DumpsU != nil {
				if s, err := DumpsUnicode(v); err != nil || s != *r.DumpsU {
					t.Errorf("line %d: DumpsUnicode = %q (%v), Python %q", line, s, err, *r.DumpsU)
				}
			}
		case "int", "float":
			conv := PyInt
			if r.Op == "float" {
				conv = PyFloat
			}
			v, ok := conv(r.Src)
			if _, isErr := r.Value["err"]; isErr {
				if ok {
					t.Errorf("line %d: %s(%q) = %#v, Python raises", line, r.Op, r.Src, v)
				}
				return
			}
			if !ok || !TagEqual(tagOf(v), any(r.Value)) {
				t.Errorf("line %d: %s(%q) = %v (%v), Python %v", line, r.Op, r.Src, tagOf(v), ok, r.Value)
			}
		case "eq":
			a, _ := Loads(r.A)
			b, _ := Loads(r.B)
			// Equal is the comparison containers and `in` make; it differs
			// from a bare == only for json.loads' shared NaN.
			if Equal(a, b) != r.In || Contains([]Value{b}, a) != r.In || (r.Eq != r.In && r.A != "NaN") {
				t.Errorf("line %d: %s == %s: port %v/%v, Python %v/%v", line, r.A, r.B, Equal(a, b), Contains([]Value{b}, a), r.Eq, r.In)
			}
		}
	})
	if n < 1000 {
		t.Errorf("only %d golden rows", n)
	}
}
