package pyval

import (
	"encoding/hex"
	"math"

	"github.com/mlperf-go/mlperf-go/internal/pyfloat"
)

// Tag returns v in the tagged form the golden generators write
// (testdata/gen_golden.py's tag()): {"t": type name, "v": value}, with
// ints as decimal strings, floats as Python's repr, bytes as hex, dicts
// as [key, value] pairs. Sets keep this value's order; compare them with
// TagEqual.
func Tag(v Value) map[string]any {
	m := map[string]any{"t": v.TypeName()}
	switch v.Kind {
	case BoolKind:
		m["v"] = v.Bool
	case IntKind:
		m["v"] = v.Int.String()
	case FloatKind:
		m["v"] = pyfloat.Repr(v.Float)
	case ComplexKind:
		m["v"] = []any{pyfloat.Repr(real(v.Complex)), pyfloat.Repr(imag(v.Complex))}
	case StrKind:
		m["v"] = v.Str
	case BytesKind:
		m["v"] = hex.EncodeToString([]byte(v.Str))
	case ListKind, TupleKind, SetKind:
		items := []any{}
		for _, it := range v.Items {
			items = append(items, Tag(it))
		}
		m["v"] = items
	case DictKind:
		items := []any{}
		for i, k := range v.Keys {
			items = append(items, []any{Tag(k), Tag(v.Vals[i])})
		}
		m["v"] = items
	}
	return m
}

// TagEqual compares two tagged values as decoded from JSON (a golden
// file's) and made by Tag (after a JSON round trip): sets as sets, NaN
// equal to NaN (the same repr), everything else exactly.
func TagEqual(a, b any) bool {
	am, aok := a.(map[string]any)
	bm, bok := b.(map[string]any)
	if !aok || !bok {
		return jsonEqual(a, b)
	}
	if am["t"] != bm["t"] {
		return false
	}
	if am["t"] == "set" {
		as, _ := am["v"].([]any)
		bs, _ := bm["v"].([]any)
		if len(as) != len(bs) {
			return false
		}
		for _, x := range as {
			found := false
			for _, y := range bs {
				if TagEqual(x, y) {
					found = true
					break
				}
			}
			if !found {
				return false
			}
		}
		return true
	}
	return jsonEqual(am["v"], bm["v"])
}

func jsonEqual(a, b any) bool {
	switch a := a.(type) {
	case []any:
		bs, ok := b.([]any)
		if !ok || len(a) != len(bs) {
			return false
		}
		for i := range a {
			if !TagEqual(a[i], bs[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		return TagEqual(a, b)
	case float64:
		bf, ok := b.(float64)
		return ok && (a == bf || math.IsNaN(a) && math.IsNaN(bf))
	}
	return a == b
}
