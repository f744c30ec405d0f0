package bfcl

import (
	"strings"

	"github.com/mlperf-go/mlperf-go/internal/pystr"
	"github.com/mlperf-go/mlperf-go/score/bfcl/pyval"
)

// Port of bfcl_eval/eval_checker/ast_eval/type_convertor/
// js_type_converter.py (bfcl-eval 2026.3.23).

// jsTypes is JS_TYPE_CONVERSION.
var jsTypes = map[string]pyval.Kind{
	"String": pyval.StrKind, "integer": pyval.IntKind, "float": pyval.FloatKind, "Bigint": pyval.IntKind,
	"Boolean": pyval.BoolKind, "dict": pyval.DictKind, "array": pyval.ListKind, "any": pyval.StrKind,
}

var (
	reJSInt     = reMatch(`^-?\d+$`)
	reJSFloat   = reMatch(`^-?\d+(\.\d+)?$`)
	reJSBigint  = reMatch(`^-?\d+n$`)
	reJSArray2D = reMatch(`\[\s*\[.*?\]\s*(,\s*\[.*?\]\s*)*\]|\bnew\s+Array\(\s*\[.*?\]\s*(,\s*\[.*?\]\s*)*\)`)
	reJSArray   = reMatch(`\[(.*?)\]|\bnew\s+Array\((.*?)\)`)
	reJSInner   = newRe(`\[(.*?)\]`)
	reJSDict    = reMatch(`\{(.*?)\}`)
	reJSPairs   = newRe(`([^:]+):\s*(.*?)(?:,\s*(?=[^,]+:)|$)`)
)

// jsConvert is js_type_converter(value, expectedType, nestedType).
func jsConvert(value, expectedType, nestedType string) (pyval.Value, error) {
	if _, ok := jsTypes[expectedType]; !ok {
		return pyval.None, pyval.Errorf("ValueError", "Unsupported type: %s", expectedType)
	}
	switch expectedType {
	case "String":
		if !(strings.HasPrefix(value, `"`) && strings.HasSuffix(value, `"`)) && !(strings.HasPrefix(value, "'") && strings.HasSuffix(value, "'")) {
			return pyval.Str(value), nil
		}
		return pyval.Str(inner(value)), nil
	case "integer":
		if reJSInt.search(value) == nil {
			return pyval.Str(value), nil
		}
		return pyIntOrFail(value)
	case "float":
		if reJSFloat.search(value) == nil {
			return pyval.Str(value), nil
		}
		return pyFloatOrFail(value)
	case "Bigint":
		if reJSBigint.search(value) == nil {
			return pyval.Str(value), nil
		}
		r := []rune(value)
		return pyIntOrFail(string(r[:len(r)-1]))
	case "Boolean":
		if value != "true" && value != "false" {
			return pyval.Str(value), nil
		}
		return pyval.Bool(value == "true"), nil
	case "dict":
		return jsDict(pystr.Strip(value)), nil
	case "array":
		return jsArray(pystr.Strip(value), nestedType), nil
	}
	return pyval.Str(value), nil // any
}

// jsArray is parse_js_collection(code, "array", nestedType); any error
// inside makes it return the code, as its bare except does.
func jsArray(code, nestedType string) pyval.Value {
	if m := reJSArray2D.search(code); m != nil {
		all, _ := m.group(0)
		var rows []pyval.Value
		for idx, im := range reJSInner.findAll(all) {
			s, _ := im.group(1)
			s = pystr.Strip(s)
			if idx == 0 && strings.HasPrefix(s, "[") {
				s = s[1:]
			}
			var row []pyval.Value
			for _, e := range strings.Split(s, ",") {
				row = append(row, jsValue(pystr.Strip(e)))
			}
			rows = append(rows, pyval.List(row...))
		}
		return pyval.List(rows...)
	}
	m := reJSArray.search(code)
	if m == nil {
		return pyval.Str(code)
	}
	var elems []string
	if g, ok := m.group(1); ok {
		if g = pystr.Strip(g); g != "" {
			elems = strings.Split(g, ",")
		}
	} else if g, ok := m.group(2); ok {
		if g = pystr.Strip(g); g != "" {
			elems = strings.Split(g, ",")
		}
	}
	out := make([]pyval.Value, 0, len(elems))
	for _, e := range elems {
		e = pystr.Strip(e)
		if nestedType == "" {
			out = append(out, jsValue(e))
			continue
		}
		nested := ""
		if strings.HasPrefix(e, "'") || strings.HasPrefix(e, `"`) {
			nested = "String"
		}
		v, err := jsConvert(e, nestedType, nested)
		if err != nil {
			return pyval.Str(code)
		}
		out = append(out, v)
	}
	return pyval.List(out...)
}

// jsDict is parse_js_collection(code, "dict").
func jsDict(code string) pyval.Value {
	if code == "{}" {
		return pyval.Dict()
	}
	m := reJSDict.search(code)
	if m == nil {
		return pyval.Str(code)
	}
	content, _ := m.group(1)
	var d pyval.DictBuilder
	for _, pm := range reJSPairs.findAll(content) {
		k, _ := pm.group(1)
		v, _ := pm.group(2)
		k = strings.Trim(pystr.Strip(k), `'"`)
		v = pystr.Strip(v)
		var val pyval.Value
		switch {
		case strings.HasPrefix(v, "[") && strings.HasSuffix(v, "]"):
			val = jsArray(v, "")
		case strings.HasPrefix(v, "{") && strings.HasSuffix(v, "}"):
			val = jsDict(v)
		default:
			val = jsValue(strings.Trim(v, `'"`))
		}
		_ = d.Set(pyval.Str(k), val)
	}
	return d.Dict()
}

// jsValue is parse_js_value.
func jsValue(s string) pyval.Value {
	s = pystr.Strip(s)
	switch {
	case s == "true":
		return pyval.Bool(true)
	case s == "false":
		return pyval.Bool(false)
	case (strings.HasPrefix(s, `"`) && strings.HasSuffix(s, `"`)) || (strings.HasPrefix(s, "'") && strings.HasSuffix(s, "'")):
		return pyval.Str(inner(s))
	}
	if v, ok := pyval.PyInt(s); ok {
		return v
	}
	if v, ok := pyval.PyFloat(s); ok {
		return v
	}
	return pyval.Str(s)
}
