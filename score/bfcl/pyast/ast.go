// Package pyast parses a Python 3.12 expression as ast.parse(src,
// mode="eval") does, evaluates literals as ast.literal_eval does and
// writes expressions back as ast.unparse does. The BFCL scorer's text
// fallback (mlcommons/endpoints' FunctionCallExtractor) turns
// "name(arg=value, ...)" found in a model's text into arguments with
// exactly these three calls, so the port reads what CPython reads: a
// SyntaxError where CPython raises one, literal values where
// literal_eval succeeds, and unparse's spelling (quotes, parentheses,
// spacing) where it does not.
//
// \N{...} escapes are resolved with Unicode's name table as CPython's
// unicodedata does (names.go), and non-ASCII identifiers NFKC-normalized
// as CPython normalizes them, both at Unicode 15.0.0. F-strings are read
// by a simpler scanner than PEP 701's tokenizer; the golden vectors cover
// the forms a model writes (conversions, format specs, nested fields and
// quotes, "=").
package pyast

import "github.com/mlperf-go/mlperf-go/score/bfcl/pyval"

// Node is an expression node; the types below mirror Python's ast
// classes of the same names.
type Node interface{ node() }

// Name is an identifier.
type Name struct{ ID string }

// Constant is a literal; Kind is "u" for a str literal written u'...'.
type Constant struct {
	Value pyval.Value
	Kind  string
}

// JoinedStr is an f-string: Constant str parts and FormattedValues.
type JoinedStr struct{ Values []Node }

// FormattedValue is an f-string replacement field; Conversion is -1 or
// 's', 'r', 'a'.
type FormattedValue struct {
	Value      Node
	Conversion int
	FormatSpec *JoinedStr
}

// List, Tuple and Set are displays.
type (
	List  struct{ Elts []Node }
	Tuple struct{ Elts []Node }
	Set   struct{ Elts []Node }
)

// Dict is a dict display; a nil key is a **mapping unpacking.
type Dict struct{ Keys, Values []Node }

// Starred is *value.
type Starred struct{ Value Node }

// BinOp is left op right; Op is the operator's spelling ("+", "**").
type BinOp struct {
	Left  Node
	Op    string
	Right Node
}

// UnaryOp is op operand: "not", "~", "+", "-".
type UnaryOp struct {
	Op      string
	Operand Node
}

// BoolOp is values joined by "and" or "or".
type BoolOp struct {
	Op     string
	Values []Node
}

// Compare is left op1 c1 op2 c2...; ops are spelled "==", "not in", ...
type Compare struct {
	Left        Node
	Ops         []string
	Comparators []Node
}

// IfExp is body if test else orelse.
type IfExp struct{ Test, Body, OrElse Node }

// NamedExpr is target := value.
type NamedExpr struct{ Target, Value Node }

// Attribute is value.attr.
type Attribute struct {
	Value Node
	Attr  string
}

// Subscript is value[slice].
type Subscript struct{ Value, Slice Node }

// Slice is lower:upper:step inside a subscript (nil parts are absent).
type Slice struct{ Lower, Upper, Step Node }

// Call is func(args, keywords).
type Call struct {
	Func     Node
	Args     []Node
	Keywords []Keyword
}

// Keyword is arg=value, or **value when Arg is nil.
type Keyword struct {
	Arg   *string
	Value Node
}

// Await, Yield and YieldFrom are those expressions; Yield's Value may be
// nil.
type (
	Await     struct{ Value Node }
	Yield     struct{ Value Node }
	YieldFrom struct{ Value Node }
)

// Lambda is lambda args: body.
type Lambda struct {
	Args *Arguments
	Body Node
}

// Arguments are a lambda's parameters: positional-only, positional (with
// Defaults for the last of both), *Vararg, keyword-only (KwDefaults, nil
// where none) and **Kwarg ("" where absent).
type Arguments struct {
	PosOnly, Args     []string
	Defaults          []Node
	Vararg            *string
	KwOnly            []string
	KwDefaults        []Node
	Kwarg             *string
	bareStarForKwonly bool
}

// Comprehension is "for target in iter if ..." of a comprehension.
type Comprehension struct {
	Target, Iter Node
	Ifs          []Node
	IsAsync      bool
}

// ListComp, SetComp, GeneratorExp and DictComp are comprehensions.
type (
	ListComp struct {
		Elt        Node
		Generators []Comprehension
	}
	SetComp struct {
		Elt        Node
		Generators []Comprehension
	}
	GeneratorExp struct {
		Elt        Node
		Generators []Comprehension
	}
	DictComp struct {
		Key, Value Node
		Generators []Comprehension
	}
)

func (*Name) node()           {}
func (*Constant) node()       {}
func (*JoinedStr) node()      {}
func (*FormattedValue) node() {}
func (*List) node()           {}
func (*Tuple) node()          {}
func (*Set) node()            {}
func (*Dict) node()           {}
func (*Starred) node()        {}
func (*BinOp) node()          {}
func (*UnaryOp) node()        {}
func (*BoolOp) node()         {}
func (*Compare) node()        {}
func (*IfExp) node()          {}
func (*NamedExpr) node()      {}
func (*Attribute) node()      {}
func (*Subscript) node()      {}
func (*Slice) node()          {}
func (*Call) node()           {}
func (*Await) node()          {}
func (*Yield) node()          {}
func (*YieldFrom) node()      {}
func (*Lambda) node()         {}
func (*ListComp) node()       {}
func (*SetComp) node()        {}
func (*GeneratorExp) node()   {}
func (*DictComp) node()       {}
