package bfcl

import (
	"strings"

	"github.com/mlperf-go/mlperf-go/score/bfcl/pyval"
)

// Python's operators on values whose type the reference code assumes but
// a model's answer may break: each returns the exception CPython raises
// where the value is of another type, so the port fails where the
// reference does.

// getKey is v[key] for a str key.
func getKey(v pyval.Value, key string) (pyval.Value, error) {
	switch v.Kind {
	case pyval.DictKind:
		if x, ok := v.GetStr(key); ok {
			return x, nil
		}
		return pyval.None, pyval.Errorf("KeyError", "'%s'", key)
	case pyval.ListKind, pyval.TupleKind:
		return pyval.None, pyval.Errorf("TypeError", "%s indices must be integers or slices, not str", v.TypeName())
	case pyval.StrKind:
		return pyval.None, pyval.Errorf("TypeError", "string indices must be integers, not 'str'")
	}
	return pyval.None, pyval.Errorf("TypeError", "'%s' object is not subscriptable", v.TypeName())
}

// seq returns the elements len() and [i] see for a list, tuple or str (a
// str's characters as one-character strs).
func seq(v pyval.Value) ([]pyval.Value, error) {
	switch v.Kind {
	case pyval.ListKind, pyval.TupleKind:
		return v.Items, nil
	case pyval.StrKind:
		var out []pyval.Value
		for _, r := range v.Str {
			out = append(out, pyval.Str(string(r)))
		}
		return out, nil
	case pyval.DictKind, pyval.SetKind:
		// len() works, [i] would not: callers that index them fail there.
		return nil, pyval.Errorf("TypeError", "'%s' object is not subscriptable", v.TypeName())
	}
	return nil, pyval.Errorf("TypeError", "object of type '%s' has no len()", v.TypeName())
}

// in is Python's x in container.
func in(x, container pyval.Value) (bool, error) {
	switch container.Kind {
	case pyval.DictKind:
		if err := pyval.Hashable(x); err != nil {
			return false, err
		}
		return container.Has(x), nil
	case pyval.SetKind:
		if err := pyval.Hashable(x); err != nil {
			return false, err
		}
		return pyval.Contains(container.Items, x), nil
	case pyval.ListKind, pyval.TupleKind:
		return pyval.Contains(container.Items, x), nil
	case pyval.StrKind:
		if x.Kind != pyval.StrKind {
			return false, pyval.Errorf("TypeError", "'in <string>' requires string as left operand, not %s", x.TypeName())
		}
		return strings.Contains(container.Str, x.Str), nil
	case pyval.BytesKind:
		if x.Kind != pyval.BytesKind && x.Kind != pyval.IntKind {
			return false, pyval.Errorf("TypeError", "a bytes-like object is required, not '%s'", x.TypeName())
		}
		if x.Kind == pyval.IntKind {
			return x.Int.IsInt64() && x.Int.Int64() >= 0 && x.Int.Int64() < 256 && strings.IndexByte(container.Str, byte(x.Int.Int64())) >= 0, nil
		}
		return strings.Contains(container.Str, x.Str), nil
	}
	return false, pyval.Errorf("TypeError", "argument of type '%s' is not iterable", container.TypeName())
}

// dictItems is d.items() for a dict.
func dictItems(v pyval.Value) ([]pyval.Value, []pyval.Value, error) {
	if v.Kind != pyval.DictKind {
		return nil, nil, pyval.Errorf("AttributeError", "'%s' object has no attribute 'items'", v.TypeName())
	}
	return v.Keys, v.Vals, nil
}

// firstKey is list(d.keys())[0] (list(d.values())[0] with vals).
func firstKey(v pyval.Value, vals bool) (pyval.Value, error) {
	if v.Kind != pyval.DictKind {
		return pyval.None, pyval.Errorf("AttributeError", "'%s' object has no attribute 'keys'", v.TypeName())
	}
	if len(v.Keys) == 0 {
		return pyval.None, pyval.Errorf("IndexError", "list index out of range")
	}
	if vals {
		return v.Vals[0], nil
	}
	return v.Keys[0], nil
}
