package bfcl

import (
	"strings"

	"github.com/mlperf-go/mlperf-go/internal/pystr"
	"github.com/mlperf-go/mlperf-go/score/bfcl/pyval"
)

// Port of bfcl_eval/eval_checker/ast_eval/ast_checker.py (bfcl-eval
// 2026.3.23), called as mlcommons/endpoints' BFCLv4Scorer calls it:
// model_name "gpt-4o-2024-11-20-FC", whose underscore_to_dot makes the
// expected function names' dots underscores (the tools were sent with
// them so). Only the verdict (valid or not) is kept: the scorer reads
// nothing else. A Go error is the exception the Python code raises on
// the same input (a model's arguments that are not an object, say), which
// aborts the reference's scoring.

// Language is the checker's language of a subset.
type Language int

// The checker's languages: simple_java is Java, simple_javascript
// JavaScript, every other subset Python.
const (
	Python Language = iota
	Java
	JavaScript
)

// LanguageOf returns the language endpoints passes for a subset
// (_SUBSET_LANGUAGE_NAMES).
func LanguageOf(subset string) Language {
	switch subset {
	case "simple_java":
		return Java
	case "simple_javascript":
		return JavaScript
	}
	return Python
}

// pythonTypes is PYTHON_TYPE_MAPPING.
var pythonTypes = map[string]pyval.Kind{
	"string": pyval.StrKind, "integer": pyval.IntKind, "float": pyval.FloatKind, "boolean": pyval.BoolKind,
	"array": pyval.ListKind, "tuple": pyval.ListKind, "dict": pyval.DictKind, "any": pyval.StrKind,
}

// nestedTypes lists the types whose items are type-checked (Python) or
// converted (Java/JavaScript): PYTHON_NESTED_TYPE_CHECK_LIST and
// NESTED_CONVERSION_TYPE_LIST.
var (
	pythonNested  = map[string]bool{"array": true, "tuple": true}
	convertNested = map[string]bool{"Array": true, "ArrayList": true, "array": true}
)

// astCheck is ast_checker(func_description, model_output,
// possible_answer, language, test_category, model_name): "parallel"
// subsets in any order, "multiple" subsets one call among several
// functions, the rest exactly one call.
func astCheck(funcDesc pyval.Value, output []pyval.Value, possible pyval.Value, lang Language, category string) (bool, error) {
	switch {
	case strings.Contains(category, "parallel"):
		return parallelNoOrder(funcDesc, output, possible, lang)
	case strings.Contains(category, "multiple"):
		return multipleCheck(funcDesc, output, possible, lang)
	}
	if len(output) != 1 {
		return false, nil
	}
	fd, err := index0(funcDesc)
	if err != nil {
		return false, err
	}
	pa, err := index0(possible)
	if err != nil {
		return false, err
	}
	return simpleCheck(fd, output[0], pa, lang)
}

// index0 is v[0].
func index0(v pyval.Value) (pyval.Value, error) {
	if v.Kind == pyval.DictKind {
		if x, ok := v.Get(pyval.Int(0)); ok {
			return x, nil
		}
		return pyval.None, pyval.Errorf("KeyError", "0")
	}
	items, err := seq(v)
	if err != nil {
		return pyval.None, err
	}
	if len(items) == 0 {
		return pyval.None, pyval.Errorf("IndexError", "list index out of range")
	}
	return items[0], nil
}

// findDescription is find_description: the function named name in a list
// (None if absent), or the description itself when it is a dict.
func findDescription(fds, name pyval.Value) (pyval.Value, error) {
	if fds.Kind != pyval.ListKind {
		return fds, nil
	}
	for _, fd := range fds.Items {
		n, err := getKey(fd, "name")
		if err != nil {
			return pyval.None, err
		}
		if pyval.Equal(n, name) {
			return fd, nil
		}
	}
	return pyval.None, nil
}

func multipleCheck(fds pyval.Value, output []pyval.Value, possible pyval.Value, lang Language) (bool, error) {
	answers, err := seq(possible)
	if err != nil {
		return false, err
	}
	if len(output) != len(answers) {
		return false, nil
	}
	if len(answers) == 0 {
		return false, pyval.Errorf("IndexError", "list index out of range")
	}
	name, err := firstKey(answers[0], false)
	if err != nil {
		return false, err
	}
	fd, err := findDescription(fds, name)
	if err != nil {
		return false, err
	}
	return simpleCheck(fd, output[0], answers[0], lang)
}

// parallelNoOrder is parallel_function_checker_no_order: each expected
// call, in order, takes the first unmatched output call that passes.
func parallelNoOrder(fds pyval.Value, output []pyval.Value, possible pyval.Value, lang Language) (bool, error) {
	answers, err := seq(possible)
	if err != nil {
		return false, err
	}
	if len(output) != len(answers) {
		return false, nil
	}
	matched := make([]bool, len(output))
	for _, answer := range answers {
		name, err := firstKey(answer, false)
		if err != nil {
			return false, err
		}
		fd, err := findDescription(fds, name)
		if err != nil {
			return false, err
		}
		valid := false
		for j := range output {
			if matched[j] {
				continue
			}
			if valid, err = simpleCheck(fd, output[j], answer, lang); err != nil {
				return false, err
			}
			if valid {
				matched[j] = true
				break
			}
		}
		if !valid {
			return false, nil
		}
	}
	return true, nil
}

// convertFuncName is convert_func_name for the FC model: dots become
// underscores.
func convertFuncName(name pyval.Value) pyval.Value {
	if name.Kind == pyval.StrKind && strings.Contains(name.Str, ".") {
		return pyval.Str(strings.ReplaceAll(name.Str, ".", "_"))
	}
	return name
}

// simpleCheck is simple_function_checker.
func simpleCheck(fd, output, possible pyval.Value, lang Language) (bool, error) {
	pa, err := firstKey(possible, true)
	if err != nil {
		return false, err
	}
	name, err := getKey(fd, "name")
	if err != nil {
		return false, err
	}
	params, err := getKey(fd, "parameters")
	if err != nil {
		return false, err
	}
	details, err := getKey(params, "properties")
	if err != nil {
		return false, err
	}
	required, err := getKey(params, "required")
	if err != nil {
		return false, err
	}
	name = convertFuncName(name)
	if ok, err := in(name, output); err != nil || !ok {
		return false, err
	}
	args, _ := output.Get(name)
	reqs, err := iterate(required)
	if err != nil {
		return false, err
	}
	for _, r := range reqs {
		if ok, err := in(r, args); err != nil || !ok {
			return false, err
		}
	}
	keys, vals, err := dictItems(args)
	if err != nil {
		return false, err
	}
	for i, param := range keys {
		ok, err := checkParam(param, vals[i], details, pa, lang)
		if err != nil || !ok {
			return false, err
		}
	}
	// Every expected parameter not given must be optional ("" among its
	// possible values).
	pkeys, err := iterate(pa)
	if err != nil {
		return false, err
	}
	for _, param := range pkeys {
		given, err := in(param, args)
		if err != nil {
			return false, err
		}
		if given {
			continue
		}
		allowed, err := subscript(pa, param)
		if err != nil {
			return false, err
		}
		optional, err := in(pyval.Str(""), allowed)
		if err != nil || !optional {
			return false, err
		}
	}
	return true, nil
}

// iterate returns what a for loop over v yields: a dict's keys, a
// sequence's items, a str's characters.
func iterate(v pyval.Value) ([]pyval.Value, error) {
	switch v.Kind {
	case pyval.DictKind:
		return v.Keys, nil
	case pyval.SetKind:
		return v.Items, nil
	}
	items, err := seq(v)
	if err != nil {
		return nil, pyval.Errorf("TypeError", "'%s' object is not iterable", v.TypeName())
	}
	return items, nil
}

// subscript is v[k] for any key.
func subscript(v, k pyval.Value) (pyval.Value, error) {
	if v.Kind == pyval.DictKind {
		if err := pyval.Hashable(k); err != nil {
			return pyval.None, err
		}
		if x, ok := v.Get(k); ok {
			return x, nil
		}
		return pyval.None, pyval.Errorf("KeyError", "%#v", k)
	}
	if k.Kind == pyval.StrKind {
		return getKey(v, k.Str)
	}
	return pyval.None, pyval.Errorf("TypeError", "'%s' object is not subscriptable", v.TypeName())
}

// checkParam checks one given parameter: known to the function and to
// the possible answer, of the right type (converted first for Java and
// JavaScript), and among the possible values.
func checkParam(param, value, details, pa pyval.Value, lang Language) (bool, error) {
	known, err := in(param, details)
	if err != nil {
		return false, err
	}
	if known {
		known, err = in(param, pa)
		if err != nil {
			return false, err
		}
	}
	if !known {
		return false, nil
	}
	pd, err := subscript(details, param)
	if err != nil {
		return false, err
	}
	typ, err := getKey(pd, "type")
	if err != nil {
		return false, err
	}
	t, err := typeKey(typ)
	if err != nil {
		return false, err
	}
	value, kind, nested, ok, err := convertForLanguage(value, t, pd, lang)
	if err != nil || !ok {
		return false, err
	}
	if lang == Python && t == "float" && value.Kind == pyval.IntKind {
		if value, err = pyval.IntToFloat(value.Int); err != nil {
			return false, err
		}
	}
	allowed, err := subscript(pa, param)
	if err != nil {
		return false, err
	}
	tc, err := typeCheck(value, allowed, kind, nested)
	if err != nil || !tc.valid {
		return false, err
	}
	if !tc.isVariable {
		switch {
		case kind == pyval.DictKind:
			return dictCheck(value, allowed)
		case kind == pyval.ListKind && nested != nil && *nested == pyval.DictKind:
			return listDictCheck(value, allowed)
		case kind == pyval.StrKind:
			return stringCheck(value, allowed)
		case kind == pyval.ListKind:
			return listCheck(value, allowed)
		}
	}
	return in(value, allowed)
}

// typeKey returns a type description usable as a mapping key: a str, or
// the TypeError an unhashable one would raise.
func typeKey(t pyval.Value) (string, error) {
	if err := pyval.Hashable(t); err != nil {
		return "", err
	}
	if t.Kind != pyval.StrKind {
		return "", pyval.Errorf("KeyError", "%#v", t)
	}
	return t.Str, nil
}

// convertForLanguage looks up the expected Python type of type t (and of
// its items where nested) and, for Java and JavaScript, converts the
// string value; ok is false when a Java or JavaScript value is not a
// string.
func convertForLanguage(value pyval.Value, t string, pd pyval.Value, lang Language) (pyval.Value, pyval.Kind, *pyval.Kind, bool, error) {
	table, convert := pythonTypes, (func(string, string, string) (pyval.Value, error))(nil)
	nestedList := pythonNested
	switch lang {
	case Java:
		table, convert, nestedList = javaTypes, javaConvert, convertNested
	case JavaScript:
		table, convert, nestedList = jsTypes, jsConvert, convertNested
	}
	kind, ok := table[t]
	if !ok {
		return value, 0, nil, false, pyval.Errorf("KeyError", "'%s'", t)
	}
	if convert != nil && value.Kind != pyval.StrKind {
		return value, kind, nil, false, nil
	}
	var nested *pyval.Kind
	nestedType := ""
	if nestedList[t] {
		items, err := getKey(pd, "items")
		if err != nil {
			return value, kind, nil, false, err
		}
		it, err := getKey(items, "type")
		if err != nil {
			return value, kind, nil, false, err
		}
		if nestedType, err = typeKey(it); err != nil {
			return value, kind, nil, false, err
		}
		nk, ok := table[nestedType]
		if !ok {
			return value, kind, nil, false, pyval.Errorf("KeyError", "'%s'", nestedType)
		}
		nested = &nk
	}
	if convert == nil {
		return value, kind, nested, true, nil
	}
	v, err := convert(value.Str, t, nestedType)
	return v, kind, nested, err == nil, err
}

// typeResult is type_checker's result: valid and is_variable.
type typeResult struct{ valid, isVariable bool }

// possibleType is get_possible_answer_type: the type of the first
// possible value that is not "" (ok false when there is none).
func possibleType(possible pyval.Value) (pyval.Kind, bool, error) {
	items, err := iterate(possible)
	if err != nil {
		return 0, false, err
	}
	for _, a := range items {
		if !(a.Kind == pyval.StrKind && a.Str == "") {
			return a.Kind, true, nil
		}
	}
	return 0, false, nil
}

// typeCheck is type_checker, including its fall-through: a nested check
// that fails but whose value has the possible answers' type comes back
// invalid and a variable.
func typeCheck(value, possible pyval.Value, expected pyval.Kind, nested *pyval.Kind) (typeResult, error) {
	res := typeResult{valid: true}
	isVar := false
	pt, havePT, err := possibleType(possible)
	if err != nil {
		return res, err
	}
	if havePT && pt != expected {
		isVar = true
	}
	if value.Kind == expected {
		if nested == nil {
			return typeResult{valid: true, isVariable: isVar}, nil
		}
		items, err := iterate(possible)
		if err != nil {
			return res, err
		}
		for _, item := range items {
			flag := true
			if item.Kind == pyval.ListKind {
				elems, err := iterate(value)
				if err != nil {
					return res, err
				}
				for _, el := range elems {
					r, err := typeCheck(el, item, *nested, nil)
					if err != nil {
						return res, err
					}
					if !r.valid {
						flag = false
						break
					}
				}
			}
			if flag {
				return typeResult{valid: true, isVariable: isVar}, nil
			}
		}
		res.valid = false
	}
	if havePT && value.Kind == pt {
		res.isVariable = true
		return res, nil
	}
	res.valid = false
	return res, nil
}

// standardize is standardize_string: " ,./-_*^" removed, lower-cased (as
// str.lower does, Unicode's special cases included), ' turned into ".
func standardize(s string) string {
	s = strings.Map(func(r rune) rune {
		if strings.ContainsRune(" ,./-_*^", r) {
			return -1
		}
		return r
	}, s)
	return strings.ReplaceAll(pystr.Lower(s), "'", `"`)
}

// standardizeAll standardizes the strs among vs.
func standardizeAll(vs []pyval.Value) []pyval.Value {
	out := make([]pyval.Value, len(vs))
	for i, v := range vs {
		if v.Kind == pyval.StrKind {
			v = pyval.Str(standardize(v.Str))
		}
		out[i] = v
	}
	return out
}

// stringCheck is string_checker.
func stringCheck(value, possible pyval.Value) (bool, error) {
	items, err := seq(possible)
	if err != nil {
		return false, err
	}
	var std []pyval.Value
	for _, a := range items {
		if a.Kind == pyval.StrKind {
			std = append(std, pyval.Str(standardize(a.Str)))
		}
	}
	return pyval.Contains(std, pyval.Str(standardize(value.Str))), nil
}

// listCheck is list_checker.
func listCheck(value, possible pyval.Value) (bool, error) {
	got := pyval.List(standardizeAll(value.Items)...)
	answers, err := seq(possible)
	if err != nil {
		return false, err
	}
	std := make([]pyval.Value, 0, len(answers))
	for _, a := range answers {
		items, err := seq(a)
		if err != nil {
			return false, err
		}
		std = append(std, pyval.List(standardizeAll(items)...))
	}
	return pyval.Contains(std, got), nil
}

// dictCheck is dict_checker: the value must match one of the possible
// dicts, key by key, with optional keys ("" among their values) allowed
// to be absent.
func dictCheck(value, possible pyval.Value) (bool, error) {
	answers, err := seq(possible)
	if err != nil {
		return false, err
	}
	for _, answer := range answers {
		if answer.Kind == pyval.StrKind && answer.Str == "" {
			continue
		}
		ok, err := dictMatches(value, answer)
		if err != nil || ok {
			return ok, err
		}
	}
	return false, nil
}

func dictMatches(value, answer pyval.Value) (bool, error) {
	keys, vals, err := dictItems(value)
	if err != nil {
		return false, err
	}
	ok := true
	for i, k := range keys {
		known, err := in(k, answer)
		if err != nil {
			return false, err
		}
		if !known {
			ok = false
			break
		}
		v := vals[i]
		if v.Kind == pyval.StrKind {
			v = pyval.Str(standardize(v.Str))
		}
		allowed, err := subscript(answer, k)
		if err != nil {
			return false, err
		}
		items, err := seq(allowed)
		if err != nil {
			return false, err
		}
		if !pyval.Contains(standardizeAll(items), v) {
			ok = false
			break
		}
	}
	// The check for missing keys runs even after a mismatch, as in
	// dict_checker, so its exceptions surface the same way.
	akeys, avals, err := dictItems(answer)
	if err != nil {
		return false, err
	}
	for i, k := range akeys {
		given, err := in(k, value)
		if err != nil {
			return false, err
		}
		if given {
			continue
		}
		optional, err := in(pyval.Str(""), avals[i])
		if err != nil {
			return false, err
		}
		if !optional {
			ok = false
			break
		}
	}
	return ok, nil
}

// listDictCheck is list_dict_checker: the list must match one possible
// list of dicts, dict by dict, in order.
func listDictCheck(value, possible pyval.Value) (bool, error) {
	answers, err := seq(possible)
	if err != nil {
		return false, err
	}
	for _, answer := range answers {
		items, err := seq(answer)
		if err != nil {
			return false, err
		}
		if len(value.Items) != len(items) {
			continue
		}
		all := true
		for j, v := range value.Items {
			ok, err := dictCheck(v, pyval.List(items[j]))
			if err != nil {
				return false, err
			}
			if !ok {
				all = false
				break
			}
		}
		if all {
			return true, nil
		}
	}
	return false, nil
}
