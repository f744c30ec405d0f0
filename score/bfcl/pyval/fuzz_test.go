package pyval

import (
	"testing"

	"github.com/mlperf-go/mlperf-go/internal/golden"
)

// FuzzLoads: Loads never panics, and what Dumps writes of a loaded value
// loads back equal.
func FuzzLoads(f *testing.F) {
	golden.JSONL(f, "testdata/values.jsonl.gz", func(_ int, r struct{ Src string }) {
		if len(r.Src) < 2000 {
			f.Add(r.Src)
		}
	})
	f.Fuzz(func(t *testing.T, s string) {
		v, err := Loads(s)
		if err != nil {
			return
		}
		out, err := Dumps(v)
		if err != nil {
			return // an int past the digit limit
		}
		w, err := Loads(out)
		if err != nil || !Equal(v, w) && !hasNaN(v) {
			t.Errorf("%q: dumps %q loads back %#v (%v)", s, out, w, err)
		}
	})
}

func hasNaN(v Value) bool {
	switch v.Kind {
	case FloatKind:
		return v.Float != v.Float
	case ListKind:
		for _, it := range v.Items {
			if hasNaN(it) {
				return true
			}
		}
	case DictKind:
		for _, it := range v.Vals {
			if hasNaN(it) {
				return true
			}
		}
	}
	return false
}
