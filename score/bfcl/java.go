package bfcl

import (
	"strings"

	"github.com/mlperf-go/mlperf-go/internal/pystr"
	"github.com/mlperf-go/mlperf-go/score/bfcl/pyval"
)

// Port of bfcl_eval/eval_checker/ast_eval/type_convertor/
// java_type_converter.py (bfcl-eval 2026.3.23): a Java parameter's value
// arrives as a string of Java source ("123L", "new int[]{1, 2}") and is
// converted to the Python value it denotes, or kept as the string when it
// does not look like one.

// javaTypes is JAVA_TYPE_CONVERSION: the Python type each Java type
// converts to.
var javaTypes = map[string]pyval.Kind{
	"byte": pyval.IntKind, "short": pyval.IntKind, "integer": pyval.IntKind, "float": pyval.FloatKind,
	"double": pyval.FloatKind, "long": pyval.IntKind, "boolean": pyval.BoolKind, "char": pyval.StrKind,
	"Array": pyval.ListKind, "ArrayList": pyval.ListKind, "Set": pyval.SetKind, "HashMap": pyval.DictKind,
	"Hashtable": pyval.DictKind, "Queue": pyval.ListKind, "Stack": pyval.ListKind, "String": pyval.StrKind,
	"any": pyval.StrKind,
}

var (
	reJavaInt       = reMatch(`^-?\d+$`)
	reJavaFloat     = reMatch(`^-?\d+(\.\d+)?([eE][+-]?\d+)?[fF]$`)
	reJavaDouble    = reMatch(`^-?\d+(\.\d+)?([eE][+-]?\d+)?$`)
	reJavaLong      = reMatch(`^-?\d+[lL]$`)
	reJavaChar      = reMatch(`^\'.$\'`)
	reFSuffix       = newRe(`[fF]$`)
	reLSuffix       = newRe(`[lL]$`)
	reArrayListAs   = newRe(`new\s+ArrayList<\w*>\(Arrays\.asList\((.+?)\)\)`)
	reArrayListAdd  = newReDotAll(`new\s+ArrayList<\w*>\(\)\s*\{\{\s*(.+?)\s*\}\}`)
	reAdd           = newRe(`add\((.+?)\)`)
	reArrayListNone = newRe(`new\s+ArrayList<\w*>\(\)`)
	reJavaArray     = newRe(`new\s+\w+\[\]\s*\{(.*?)\}`)
	reHashMap       = newReDotAll(`new\s+HashMap<.*?>\s*\(\)\s*\{\s*\{?\s*(.*?)\s*\}?\s*\}`)
	rePut           = newRe(`put\(\"(.*?)\",\s*(.*?)\)`)
	reHashMapNone   = newRe(`new\s+HashMap<.*?>\s*\(\)`)
)

// javaConvert is java_type_converter(value, expectedType, nestedType);
// nestedType "" is None. Its error is the exception Python raises
// (ValueError for an unknown type, NotImplementedError for Set,
// Hashtable, Queue and Stack).
func javaConvert(value, expectedType, nestedType string) (pyval.Value, error) {
	if _, ok := javaTypes[expectedType]; !ok {
		return pyval.None, pyval.Errorf("ValueError", "Unsupported type: %s", expectedType)
	}
	switch expectedType {
	case "byte", "short", "integer":
		if reJavaInt.search(value) == nil {
			return pyval.Str(value), nil
		}
		return pyIntOrFail(value)
	case "float":
		if reJavaFloat.search(value) == nil {
			return pyval.Str(value), nil
		}
		return pyFloatOrFail(reFSuffix.sub(value, ""))
	case "double":
		if reJavaDouble.search(value) == nil {
			return pyval.Str(value), nil
		}
		return pyFloatOrFail(value)
	case "long":
		if reJavaLong.search(value) == nil {
			return pyval.Str(value), nil
		}
		return pyIntOrFail(reLSuffix.sub(value, ""))
	case "boolean":
		if value != "true" && value != "false" {
			return pyval.Str(value), nil
		}
		return pyval.Bool(value == "true"), nil
	case "char":
		if reJavaChar.search(value) == nil {
			return pyval.Str(value), nil
		}
		return pyval.Str(value), nil
	case "Array":
		return javaArray(value, nestedType)
	case "ArrayList":
		return javaArrayList(value, nestedType)
	case "HashMap":
		return javaHashMap(value)
	case "Set", "Hashtable":
		return pyval.None, pyval.Errorf("NotImplementedError", "Set conversion is not implemented")
	case "Queue", "Stack":
		return pyval.None, pyval.Errorf("NotImplementedError", "%s conversion is not implemented", expectedType)
	}
	return pyval.Str(value), nil // String, any
}

// pyIntOrFail is int(s) where the pattern already vouched for s.
func pyIntOrFail(s string) (pyval.Value, error) {
	if v, ok := pyval.PyInt(s); ok {
		return v, nil
	}
	return pyval.None, pyval.Errorf("ValueError", "invalid literal for int() with base 10: %q", s)
}

func pyFloatOrFail(s string) (pyval.Value, error) {
	if v, ok := pyval.PyFloat(s); ok {
		return v, nil
	}
	return pyval.None, pyval.Errorf("ValueError", "could not convert string to float: %q", s)
}

// inner returns s[1:-1] in code points, as Python slices a str.
func inner(s string) string {
	r := []rune(s)
	if len(r) < 2 {
		return ""
	}
	return string(r[1 : len(r)-1])
}

// javaElement converts one collection element: char and String drop
// their quotes, a known nested type converts, else parse_java_value.
func javaElement(s, nestedType string) (pyval.Value, error) {
	switch {
	case nestedType == "char" || nestedType == "String":
		return pyval.Str(inner(s)), nil
	case nestedType != "":
		return javaConvert(s, nestedType, "")
	}
	return javaValue(s), nil
}

// javaArrayList is parse_arraylist.
func javaArrayList(s, nestedType string) (pyval.Value, error) {
	if m := reArrayListAs.search(s); m != nil {
		body, _ := m.group(1)
		var out []pyval.Value
		for _, el := range strings.Split(body, ",") {
			v, err := javaElement(pystr.Strip(el), nestedType)
			if err != nil {
				return pyval.None, err
			}
			out = append(out, v)
		}
		return pyval.List(out...), nil
	}
	if m := reArrayListAdd.search(s); m != nil {
		body, _ := m.group(1)
		var out []pyval.Value
		for _, am := range reAdd.findAll(body) {
			g, _ := am.group(1)
			v, err := javaElement(pystr.Strip(g), nestedType)
			if err != nil {
				return pyval.None, err
			}
			out = append(out, v)
		}
		return pyval.List(out...), nil
	}
	if reArrayListNone.search(s) != nil {
		return pyval.List(), nil
	}
	return pyval.Str(s), nil
}

// javaArray is parse_array: empty elements (after strip) are skipped, and
// a nested type converts each element through javaConvert.
func javaArray(s, nestedType string) (pyval.Value, error) {
	m := reJavaArray.search(s)
	if m == nil {
		return pyval.Str(s), nil
	}
	body, _ := m.group(1)
	var out []pyval.Value
	for _, el := range strings.Split(body, ",") {
		el = pystr.Strip(el)
		if el == "" {
			continue
		}
		if nestedType != "" {
			v, err := javaConvert(el, nestedType, "")
			if err != nil {
				return pyval.None, err
			}
			out = append(out, v)
		} else {
			out = append(out, javaValue(el))
		}
	}
	return pyval.List(out...), nil
}

// javaHashMap is parse_hashmap.
func javaHashMap(s string) (pyval.Value, error) {
	if m := reHashMap.search(s); m != nil {
		var d pyval.DictBuilder
		body, _ := m.group(1)
		if pystr.Strip(body) != "" {
			for _, pm := range rePut.findAll(body) {
				k, _ := pm.group(1)
				v, _ := pm.group(2)
				_ = d.Set(pyval.Str(k), javaValue(pystr.Strip(v)))
			}
		}
		return d.Dict(), nil
	}
	if reHashMapNone.search(s) != nil {
		return pyval.Dict(), nil
	}
	return pyval.Str(s), nil
}

// javaValue is parse_java_value: true/false, "string", 12L, 1.5f, then
// int(), float(), else the string itself.
func javaValue(s string) pyval.Value {
	switch {
	case s == "true":
		return pyval.Bool(true)
	case s == "false":
		return pyval.Bool(false)
	case strings.HasPrefix(s, `"`) && strings.HasSuffix(s, `"`):
		return pyval.Str(inner(s))
	case reJavaLong.search(s) != nil:
		if v, ok := pyval.PyInt(string([]rune(s)[:len([]rune(s))-1])); ok {
			return v
		}
	case reJavaFloat.search(s) != nil:
		if v, ok := pyval.PyFloat(reFSuffix.sub(s, "")); ok {
			return v
		}
	}
	if v, ok := pyval.PyInt(s); ok {
		return v
	}
	if v, ok := pyval.PyFloat(s); ok {
		return v
	}
	return pyval.Str(s)
}
