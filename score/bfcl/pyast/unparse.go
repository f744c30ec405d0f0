package pyast

import (
	"fmt"
	"strings"

	"github.com/mlperf-go/mlperf-go/score/bfcl/pyval"
)

// Precedences of Lib/ast.py's _Precedence, lowest first.
const (
	precNamedExpr = iota
	precTuple
	precYield
	precTest
	precOr
	precAnd
	precNot
	precCmp
	precExpr // also BOR
	precBXor
	precBAnd
	precShift
	precArith
	precTerm
	precFactor
	precPower
	precAwait
	precAtom
)

func next(p int) int {
	if p < precAtom {
		return p + 1
	}
	return p
}

var binopPrec = map[string]int{
	"+": precArith, "-": precArith, "*": precTerm, "@": precTerm, "/": precTerm, "%": precTerm,
	"<<": precShift, ">>": precShift, "|": precExpr, "^": precBXor, "&": precBAnd, "//": precTerm, "**": precPower,
}

// Unparse returns ast.unparse(n) as CPython 3.12 writes it. Its error is
// the ValueError CPython raises for an int too long to print.
func Unparse(n Node) (string, error) {
	u := &unparser{}
	u.visit(n, precTest)
	return u.b.String(), u.err
}

type unparser struct {
	b   strings.Builder
	err error
}

func (u *unparser) w(s string) { u.b.WriteString(s) }

// parens writes open when need, runs body, then closes.
func (u *unparser) parens(need bool, body func()) {
	if need {
		u.w("(")
	}
	body()
	if need {
		u.w(")")
	}
}

// visit writes n, given the precedence its parent set (precTest when
// none).
func (u *unparser) visit(n Node, prec int) {
	switch n := n.(type) {
	case *Name:
		u.w(n.ID)
	case *Constant:
		if n.Value.Kind == pyval.EllipsisKind {
			u.w("...")
			return
		}
		if n.Kind == "u" {
			u.w("u")
		}
		s, err := constRepr(n.Value)
		if err != nil && u.err == nil {
			u.err = err
		}
		u.w(s)
	case *JoinedStr:
		u.joinedStr(n)
	case *List:
		u.w("[")
		u.commaSep(n.Elts)
		u.w("]")
	case *Tuple:
		u.parens(len(n.Elts) == 0 || prec > precTuple, func() { u.itemsView(n.Elts) })
	case *Set:
		if len(n.Elts) == 0 {
			u.w("{*()}")
			return
		}
		u.w("{")
		u.commaSep(n.Elts)
		u.w("}")
	case *Dict:
		u.dict(n)
	case *Starred:
		u.w("*")
		u.visit(n.Value, precExpr)
	case *UnaryOp:
		u.unaryOp(n, prec)
	case *BinOp:
		u.binOp(n, prec)
	case *BoolOp:
		u.boolOp(n, prec)
	case *Compare:
		u.parens(prec > precCmp, func() {
			u.visit(n.Left, next(precCmp))
			for i, op := range n.Ops {
				u.w(" " + op + " ")
				u.visit(n.Comparators[i], next(precCmp))
			}
		})
	case *IfExp:
		u.parens(prec > precTest, func() {
			u.visit(n.Body, next(precTest))
			u.w(" if ")
			u.visit(n.Test, next(precTest))
			u.w(" else ")
			u.visit(n.OrElse, precTest)
		})
	case *NamedExpr:
		u.parens(prec > precNamedExpr, func() {
			u.visit(n.Target, precAtom)
			u.w(" := ")
			u.visit(n.Value, precAtom)
		})
	default:
		u.visitMore(n, prec)
	}
}

// visitMore writes the nodes visit leaves out.
func (u *unparser) visitMore(n Node, prec int) {
	switch n := n.(type) {
	case *Attribute:
		u.visit(n.Value, precAtom)
		if c, ok := n.Value.(*Constant); ok && (c.Value.Kind == pyval.IntKind || c.Value.Kind == pyval.BoolKind) {
			u.w(" ") // 3 .real; True is an int too
		}
		u.w(".")
		u.w(n.Attr)
	case *Subscript:
		u.visit(n.Value, precAtom)
		u.w("[")
		if t, ok := n.Slice.(*Tuple); ok && len(t.Elts) > 0 {
			u.itemsView(t.Elts)
		} else {
			u.visit(n.Slice, precTest)
		}
		u.w("]")
	case *Slice:
		if n.Lower != nil {
			u.visit(n.Lower, precTest)
		}
		u.w(":")
		if n.Upper != nil {
			u.visit(n.Upper, precTest)
		}
		if n.Step != nil {
			u.w(":")
			u.visit(n.Step, precTest)
		}
	case *Call:
		u.call(n)
	case *Await:
		u.parens(prec > precAwait, func() {
			u.w("await")
			if n.Value != nil {
				u.w(" ")
				u.visit(n.Value, precAtom)
			}
		})
	case *Yield:
		u.parens(prec > precYield, func() {
			u.w("yield")
			if n.Value != nil {
				u.w(" ")
				u.visit(n.Value, precAtom)
			}
		})
	case *YieldFrom:
		u.parens(prec > precYield, func() {
			u.w("yield from ")
			u.visit(n.Value, precAtom)
		})
	case *Lambda:
		u.parens(prec > precTest, func() {
			u.w("lambda")
			var args unparser
			args.arguments(n.Args)
			if args.b.Len() > 0 {
				u.w(" " + args.b.String())
			}
			u.w(": ")
			u.visit(n.Body, precTest)
		})
	case *ListComp:
		u.comp("[", "]", n.Elt, nil, n.Generators)
	case *SetComp:
		u.comp("{", "}", n.Elt, nil, n.Generators)
	case *GeneratorExp:
		u.comp("(", ")", n.Elt, nil, n.Generators)
	case *DictComp:
		u.comp("{", "}", n.Key, n.Value, n.Generators)
	case *FormattedValue:
		u.formattedValue(n)
	default:
		panic(fmt.Sprintf("pyast: unparse of %T", n))
	}
}

func (u *unparser) commaSep(ns []Node) {
	for i, e := range ns {
		if i > 0 {
			u.w(", ")
		}
		u.visit(e, precTest)
	}
}

// itemsView is items_view: a single item gets a trailing comma.
func (u *unparser) itemsView(ns []Node) {
	if len(ns) == 1 {
		u.visit(ns[0], precTest)
		u.w(",")
		return
	}
	u.commaSep(ns)
}

func (u *unparser) dict(n *Dict) {
	u.w("{")
	for i, k := range n.Keys {
		if i > 0 {
			u.w(", ")
		}
		if k == nil {
			u.w("**")
			u.visit(n.Values[i], precExpr)
			continue
		}
		u.visit(k, precTest)
		u.w(": ")
		u.visit(n.Values[i], precTest)
	}
	u.w("}")
}

func (u *unparser) unaryOp(n *UnaryOp, prec int) {
	opPrec := precFactor
	if n.Op == "not" {
		opPrec = precNot
	}
	u.parens(prec > opPrec, func() {
		u.w(n.Op)
		if opPrec != precFactor {
			u.w(" ")
		}
		u.visit(n.Operand, opPrec)
	})
}

func (u *unparser) binOp(n *BinOp, prec int) {
	opPrec := binopPrec[n.Op]
	u.parens(prec > opPrec, func() {
		left, right := opPrec, next(opPrec)
		if n.Op == "**" {
			left, right = next(opPrec), opPrec
		}
		u.visit(n.Left, left)
		u.w(" " + n.Op + " ")
		u.visit(n.Right, right)
	})
}

// boolOp mirrors visit_BoolOp, whose increasing_level_traverse raises the
// precedence for every value in turn (so "a or b and c or d" comes back
// as "a or (b and c) or d").
func (u *unparser) boolOp(n *BoolOp, prec int) {
	opPrec := precAnd
	if n.Op == "or" {
		opPrec = precOr
	}
	u.parens(prec > opPrec, func() {
		level := opPrec
		for i, v := range n.Values {
			if i > 0 {
				u.w(" " + n.Op + " ")
			}
			level = next(level)
			u.visit(v, level)
		}
	})
}

func (u *unparser) call(n *Call) {
	u.visit(n.Func, precAtom)
	u.w("(")
	comma := false
	sep := func() {
		if comma {
			u.w(", ")
		}
		comma = true
	}
	for _, a := range n.Args {
		sep()
		u.visit(a, precTest)
	}
	for _, k := range n.Keywords {
		sep()
		if k.Arg == nil {
			u.w("**")
		} else {
			u.w(*k.Arg + "=")
		}
		u.visit(k.Value, precTest)
	}
	u.w(")")
}

func (u *unparser) comp(open, close string, elt, val Node, gens []Comprehension) {
	u.w(open)
	u.visit(elt, precTest)
	if val != nil {
		u.w(": ")
		u.visit(val, precTest)
	}
	for _, g := range gens {
		if g.IsAsync {
			u.w(" async for ")
		} else {
			u.w(" for ")
		}
		u.visit(g.Target, precTuple)
		u.w(" in ")
		u.visit(g.Iter, next(precTest))
		for _, c := range g.Ifs {
			u.w(" if ")
			u.visit(c, next(precTest))
		}
	}
	u.w(close)
}

// arguments is visit_arguments for a lambda's parameters.
func (u *unparser) arguments(a *Arguments) {
	first := true
	sep := func() {
		if !first {
			u.w(", ")
		}
		first = false
	}
	all := append(append([]string{}, a.PosOnly...), a.Args...)
	nDefault := len(all) - len(a.Defaults)
	for i, name := range all {
		sep()
		u.w(name)
		if i >= nDefault {
			u.w("=")
			u.visit(a.Defaults[i-nDefault], precTest)
		}
		if i+1 == len(a.PosOnly) {
			u.w(", /")
		}
	}
	if a.Vararg != nil || len(a.KwOnly) > 0 {
		sep()
		u.w("*")
		if a.Vararg != nil {
			u.w(*a.Vararg)
		}
	}
	for i, name := range a.KwOnly {
		u.w(", ")
		u.w(name)
		if d := a.KwDefaults[i]; d != nil {
			u.w("=")
			u.visit(d, precTest)
		}
	}
	if a.Kwarg != nil {
		sep()
		u.w("**" + *a.Kwarg)
	}
}
