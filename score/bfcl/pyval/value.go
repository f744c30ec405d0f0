// Package pyval holds values as the BFCL reference scorer's Python code
// sees them (None, bool, int, float, complex, str, bytes, list, tuple,
// dict, set, Ellipsis) with Python's rules for them: == across numeric
// types (True == 1 == 1.0), `in` over lists and dict keys, exact type
// tests (type(v) == int is false for True), hashability, and json.loads /
// json.dumps as Python's json module reads and writes them (arbitrary
// precision ints, NaN and Infinity, the last of duplicate keys winning at
// the first one's place). The scorer (package bfcl) compares model
// answers with BFCL's possible answers through these rules, so a Go
// comparison never disagrees with bfcl-eval's.
package pyval

import (
	"fmt"
	"math"
	"math/big"
	"strings"
)

// Kind is a Python type.
type Kind uint8

// The Python types a value can have.
const (
	NoneKind Kind = iota
	BoolKind
	IntKind
	FloatKind
	ComplexKind
	StrKind
	BytesKind
	ListKind
	TupleKind
	DictKind
	SetKind
	EllipsisKind
)

// typeNames are type(v).__name__ per Kind.
var typeNames = [...]string{"NoneType", "bool", "int", "float", "complex", "str", "bytes", "list", "tuple", "dict", "set", "ellipsis"}

// String returns the Python type's name, as type(v).__name__ gives it.
func (k Kind) String() string {
	if int(k) < len(typeNames) {
		return typeNames[k]
	}
	return fmt.Sprintf("Kind(%d)", k)
}

// Value is one Python value. The zero Value is None. Containers hold
// their elements by value; nothing here mutates a Value after it is made,
// so sharing is safe.
type Value struct {
	// Kind is the value's type.
	Kind Kind
	// Bool is a bool's value.
	Bool bool
	// Int is an int's value (never nil for IntKind).
	Int *big.Int
	// Float is a float's value; Complex a complex's.
	Float   float64
	Complex complex128
	// Str is a str's text (UTF-8) or a bytes value's bytes.
	Str string
	// Items are a list's, tuple's or set's elements (a set's in the order
	// they were first added, without duplicates).
	Items []Value
	// Keys and Vals are a dict's items in insertion order.
	Keys, Vals []Value
	// jsonNaN marks the NaN json.loads returns: one shared float object
	// (json.decoder's NaN constant), which comparisons inside containers
	// and `in` find identical to itself.
	jsonNaN bool
}

// None is Python's None.
var None = Value{}

// Ellipsis is Python's ... constant.
var Ellipsis = Value{Kind: EllipsisKind}

// Bool returns True or False.
func Bool(b bool) Value { return Value{Kind: BoolKind, Bool: b} }

// Int returns an int.
func Int(i int64) Value { return Value{Kind: IntKind, Int: big.NewInt(i)} }

// BigInt returns an int holding i (not copied).
func BigInt(i *big.Int) Value { return Value{Kind: IntKind, Int: i} }

// Float returns a float.
func Float(f float64) Value { return Value{Kind: FloatKind, Float: f} }

// Complex returns a complex.
func Complex(c complex128) Value { return Value{Kind: ComplexKind, Complex: c} }

// Str returns a str.
func Str(s string) Value { return Value{Kind: StrKind, Str: s} }

// Bytes returns a bytes value.
func Bytes(b string) Value { return Value{Kind: BytesKind, Str: b} }

// List returns a list of items.
func List(items ...Value) Value { return Value{Kind: ListKind, Items: items} }

// Tuple returns a tuple of items.
func Tuple(items ...Value) Value { return Value{Kind: TupleKind, Items: items} }

// TypeName returns type(v).__name__.
func (v Value) TypeName() string { return v.Kind.String() }

// IsNone reports v is None.
func (v Value) IsNone() bool { return v.Kind == NoneKind }

// Truth returns bool(v): Python's truthiness.
func (v Value) Truth() bool {
	switch v.Kind {
	case NoneKind:
		return false
	case BoolKind:
		return v.Bool
	case IntKind:
		return v.Int.Sign() != 0
	case FloatKind:
		return v.Float != 0
	case ComplexKind:
		return v.Complex != 0
	case StrKind, BytesKind:
		return v.Str != ""
	case ListKind, TupleKind, SetKind:
		return len(v.Items) > 0
	case DictKind:
		return len(v.Keys) > 0
	}
	return true
}

// Len returns len(v) for the sized types (str in code points).
func (v Value) Len() (int, error) {
	switch v.Kind {
	case StrKind:
		return len([]rune(v.Str)), nil
	case BytesKind:
		return len(v.Str), nil
	case ListKind, TupleKind, SetKind:
		return len(v.Items), nil
	case DictKind:
		return len(v.Keys), nil
	}
	return 0, &Error{Type: "TypeError", Msg: fmt.Sprintf("object of type '%s' has no len()", v.TypeName())}
}

// Error is a Python exception the reference code would raise: Type is its
// class name ("TypeError") and Msg its message.
type Error struct {
	Type, Msg string
}

func (e *Error) Error() string { return e.Type + ": " + e.Msg }

// Errorf returns an *Error of type typ.
func Errorf(typ, format string, a ...any) *Error {
	return &Error{Type: typ, Msg: fmt.Sprintf(format, a...)}
}

// numeric reports whether v takes part in Python's numeric comparisons
// (bool, int, float, complex).
func (v Value) numeric() bool {
	return v.Kind == BoolKind || v.Kind == IntKind || v.Kind == FloatKind || v.Kind == ComplexKind
}

// intOf returns a bool's or int's integer value.
func (v Value) intOf() *big.Int {
	if v.Kind == BoolKind {
		if v.Bool {
			return big.NewInt(1)
		}
		return big.NewInt(0)
	}
	return v.Int
}

// Equal reports a == b as Python compares inside containers and for
// `in` (PyObject_RichCompareBool, identity first): numbers by value
// across bool, int, float and complex (an int and a float exactly, NaN
// equal to nothing but json.loads' own NaN to itself), str with str,
// bytes with bytes, list with list and tuple with tuple element by
// element, dicts by their items whatever the order, sets by their
// elements. (A bare nan == nan is False even for json.loads' NaN; the
// scorer never compares floats bare.)
func Equal(a, b Value) bool {
	if a.jsonNaN && b.jsonNaN {
		return true
	}
	if a.numeric() && b.numeric() {
		return numEqual(a, b)
	}
	if a.Kind != b.Kind {
		return false
	}
	switch a.Kind {
	case NoneKind, EllipsisKind:
		return true
	case StrKind, BytesKind:
		return a.Str == b.Str
	case ListKind, TupleKind:
		if len(a.Items) != len(b.Items) {
			return false
		}
		for i := range a.Items {
			if !Equal(a.Items[i], b.Items[i]) {
				return false
			}
		}
		return true
	case SetKind:
		if len(a.Items) != len(b.Items) {
			return false
		}
		for _, x := range a.Items {
			if !Contains(b.Items, x) {
				return false
			}
		}
		return true
	case DictKind:
		if len(a.Keys) != len(b.Keys) {
			return false
		}
		for i, k := range a.Keys {
			j := b.index(k)
			if j < 0 || !Equal(a.Vals[i], b.Vals[j]) {
				return false
			}
		}
		return true
	}
	return false
}

// numEqual compares two numbers as Python does.
func numEqual(a, b Value) bool {
	if a.Kind == ComplexKind || b.Kind == ComplexKind {
		ar, ai := a.complexParts()
		br, bi := b.complexParts()
		if ai != bi {
			return false
		}
		// The real parts compare as the real numbers they came from.
		return numEqual(ar, br)
	}
	if a.Kind == FloatKind && b.Kind == FloatKind {
		return a.Float == b.Float
	}
	if a.Kind == FloatKind {
		a, b = b, a
	}
	if b.Kind == FloatKind { // a is an int or bool
		f := b.Float
		if math.IsNaN(f) || math.IsInf(f, 0) || f != math.Trunc(f) {
			return false
		}
		bf := new(big.Float).SetFloat64(f)
		bi, _ := bf.Int(nil)
		return a.intOf().Cmp(bi) == 0
	}
	return a.intOf().Cmp(b.intOf()) == 0
}

// complexParts splits a number into its real part (as the number it is,
// for an exact comparison) and its imaginary part.
func (v Value) complexParts() (Value, float64) {
	if v.Kind == ComplexKind {
		return Float(real(v.Complex)), imag(v.Complex)
	}
	return v, 0
}

// Contains reports Python's x in items (a list or tuple's elements).
func Contains(items []Value, x Value) bool {
	for _, it := range items {
		if Equal(it, x) {
			return true
		}
	}
	return false
}

// Hashable returns nil when v can be a dict key or set element, else
// Python's TypeError ("unhashable type: 'list'").
func Hashable(v Value) error {
	switch v.Kind {
	case ListKind, DictKind, SetKind:
		return Errorf("TypeError", "unhashable type: '%s'", v.TypeName())
	case TupleKind:
		for _, it := range v.Items {
			if err := Hashable(it); err != nil {
				return err
			}
		}
	}
	return nil
}

// index returns the position of key k in dict d, or -1.
func (v Value) index(k Value) int {
	for i, key := range v.Keys {
		if Equal(key, k) {
			return i
		}
	}
	return -1
}

// Get returns d[k] and whether the dict d has the key.
func (v Value) Get(k Value) (Value, bool) {
	if i := v.index(k); i >= 0 {
		return v.Vals[i], true
	}
	return None, false
}

// GetStr returns d[k] for a str key.
func (v Value) GetStr(k string) (Value, bool) { return v.Get(Str(k)) }

// Has reports k in d for a dict.
func (v Value) Has(k Value) bool { return v.index(k) >= 0 }

// DictBuilder builds a dict as Python's d[k] = v does: a key already
// present (by ==) keeps its place and takes the new value.
type DictBuilder struct {
	keys, vals []Value
}

// Set assigns d[k] = val, or returns Python's TypeError when k is
// unhashable.
func (d *DictBuilder) Set(k, val Value) error {
	if err := Hashable(k); err != nil {
		return err
	}
	for i, key := range d.keys {
		if Equal(key, k) {
			d.vals[i] = val
			return nil
		}
	}
	d.keys = append(d.keys, k)
	d.vals = append(d.vals, val)
	return nil
}

// Dict returns the dict built so far.
func (d *DictBuilder) Dict() Value {
	return Value{Kind: DictKind, Keys: d.keys, Vals: d.vals}
}

// Dict returns a dict of str keys and values, in order, for tests and
// callers that build known-good dicts (a repeated key is assigned again).
func Dict(kv ...any) Value {
	var d DictBuilder
	for i := 0; i+1 < len(kv); i += 2 {
		k, ok := kv[i].(string)
		if !ok {
			panic("pyval.Dict: keys must be strings")
		}
		_ = d.Set(Str(k), kv[i+1].(Value))
	}
	return d.Dict()
}

// SetBuilder builds a set as Python's set.add does.
type SetBuilder struct{ items []Value }

// Add adds x, or returns Python's TypeError when x is unhashable.
func (s *SetBuilder) Add(x Value) error {
	if err := Hashable(x); err != nil {
		return err
	}
	if !Contains(s.items, x) {
		s.items = append(s.items, x)
	}
	return nil
}

// Set returns the set built so far.
func (s *SetBuilder) Set() Value { return Value{Kind: SetKind, Items: s.items} }

// GoString renders v for test failure messages (json.dumps-like, not
// Python's repr).
func (v Value) GoString() string {
	if s, err := Dumps(v); err == nil {
		return s
	}
	var b strings.Builder
	fmt.Fprintf(&b, "<%s>", v.TypeName())
	return b.String()
}
