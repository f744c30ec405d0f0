package pyast

import (
	"math/big"

	"github.com/mlperf-go/mlperf-go/score/bfcl/pyval"
)

// LiteralEval evaluates n as Python 3.12's ast.literal_eval(node) does:
// constants, tuples, lists, sets, dicts, set(), a signed number and
// "real ± complex". Anything else is ValueError ("malformed node or
// string"); an unhashable set element or dict key is the TypeError
// CPython raises while building it, in CPython's order of evaluation.
func LiteralEval(n Node) (pyval.Value, error) {
	switch n := n.(type) {
	case *Constant:
		return n.Value, nil
	case *Tuple:
		items, err := evalAll(n.Elts)
		return pyval.Tuple(items...), err
	case *List:
		items, err := evalAll(n.Elts)
		return pyval.List(items...), err
	case *Set:
		var s pyval.SetBuilder
		for _, e := range n.Elts {
			v, err := LiteralEval(e)
			if err != nil {
				return pyval.None, err
			}
			if err := s.Add(v); err != nil {
				return pyval.None, err
			}
		}
		return s.Set(), nil
	case *Call:
		if name, ok := n.Func.(*Name); ok && name.ID == "set" && len(n.Args) == 0 && len(n.Keywords) == 0 {
			return pyval.Value{Kind: pyval.SetKind}, nil
		}
	case *Dict:
		// dict(zip(map(_convert, keys), map(_convert, values))): key i,
		// then value i, then the insertion.
		var d pyval.DictBuilder
		for i, k := range n.Keys {
			if k == nil {
				return pyval.None, malformed()
			}
			kv, err := LiteralEval(k)
			if err != nil {
				return pyval.None, err
			}
			vv, err := LiteralEval(n.Values[i])
			if err != nil {
				return pyval.None, err
			}
			if err := d.Set(kv, vv); err != nil {
				return pyval.None, err
			}
		}
		return d.Dict(), nil
	case *BinOp:
		if n.Op == "+" || n.Op == "-" {
			left, err := signedNum(n.Left)
			if err != nil {
				return pyval.None, err
			}
			right, err := num(n.Right)
			if err != nil {
				return pyval.None, err
			}
			if (left.Kind == pyval.IntKind || left.Kind == pyval.FloatKind) && right.Kind == pyval.ComplexKind {
				l := complex(toFloat(left), 0)
				if n.Op == "+" {
					return pyval.Complex(l + right.Complex), nil
				}
				return pyval.Complex(l - right.Complex), nil
			}
		}
	}
	return signedNum(n)
}

func evalAll(ns []Node) ([]pyval.Value, error) {
	out := make([]pyval.Value, 0, len(ns))
	for _, e := range ns {
		v, err := LiteralEval(e)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

func malformed() error {
	return &pyval.Error{Type: "ValueError", Msg: "malformed node or string"}
}

// num is _convert_num: a Constant int, float or complex (not bool).
func num(n Node) (pyval.Value, error) {
	c, ok := n.(*Constant)
	if !ok {
		return pyval.None, malformed()
	}
	switch c.Value.Kind {
	case pyval.IntKind, pyval.FloatKind, pyval.ComplexKind:
		return c.Value, nil
	}
	return pyval.None, malformed()
}

// signedNum is _convert_signed_num: num, or +num / -num.
func signedNum(n Node) (pyval.Value, error) {
	u, ok := n.(*UnaryOp)
	if !ok || (u.Op != "+" && u.Op != "-") {
		return num(n)
	}
	v, err := num(u.Operand)
	if err != nil || u.Op == "+" {
		return v, err
	}
	switch v.Kind {
	case pyval.IntKind:
		return pyval.BigInt(new(big.Int).Neg(v.Int)), nil
	case pyval.FloatKind:
		return pyval.Float(-v.Float), nil
	}
	return pyval.Complex(-v.Complex), nil
}

// toFloat converts an int or float to float64 (an int exactly rounded,
// as Python's int + complex converts it; too large an int is
// OverflowError in Python and +Inf here).
func toFloat(v pyval.Value) float64 {
	if v.Kind == pyval.FloatKind {
		return v.Float
	}
	f, _ := new(big.Float).SetInt(v.Int).Float64()
	return f
}
