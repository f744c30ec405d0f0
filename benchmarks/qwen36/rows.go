package qwen36

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/mlperf-go/mlperf-go/internal/jsonenc"
	"github.com/mlperf-go/mlperf-go/protocol/openaichat"
	"github.com/mlperf-go/mlperf-go/score/bfcl"
	"github.com/mlperf-go/mlperf-go/score/bfcl/pyval"
)

// Row is one sample of the accuracy set, as endpoints' BFCLv4._process_sample
// makes it.
type Row struct {
	// SampleID is BFCL's id ("simple_python_0"); Subset its subset.
	SampleID, Subset string
	// Messages are the question's turns flattened, null content as "".
	Messages []openaichat.TextMessage
	// Tools is the "tools" array as the request carries it (msgspec
	// encoding of bfcl-eval's convert_to_tool output).
	Tools []byte
	// GroundTruth and FuncDescription are the scorer's columns
	// (json.dumps of the possible answers, "[]" for none, and of the
	// function definitions).
	GroundTruth, FuncDescription string
	// functions are the function definitions, for the fake's answers.
	functions pyval.Value
	truth     pyval.Value
}

// Sample returns the row as the scorer reads it.
func (r *Row) Sample() bfcl.Sample {
	return bfcl.Sample{Subset: r.Subset, GroundTruth: r.GroundTruth, FuncDescription: r.FuncDescription}
}

// buildRow is _process_sample: ok is false for a sample without a
// question (which endpoints skips).
func buildRow(rec bfclRecord) (Row, bool, error) {
	s := rec.sample
	get := func(key string, def pyval.Value) pyval.Value {
		if v, ok := s.GetStr(key); ok {
			return v
		}
		return def
	}
	id := get("id", pyval.Str(""))
	question := get("question", pyval.List())
	functions := get("function", pyval.List())
	truth := get("ground_truth", pyval.List())
	if !question.Truth() {
		return Row{}, false, nil
	}
	row := Row{SampleID: id.Str, Subset: rec.subset, functions: functions, truth: truth}
	msgs, err := flattenQuestion(question)
	if err != nil {
		return Row{}, false, fmt.Errorf("%s: question: %w", id.Str, err)
	}
	row.Messages = msgs
	tools, err := convertTools(functions)
	if err != nil {
		return Row{}, false, fmt.Errorf("%s: functions: %w", id.Str, err)
	}
	if row.Tools, err = appendMsgspec(nil, tools); err != nil {
		return Row{}, false, fmt.Errorf("%s: tools: %w", id.Str, err)
	}
	row.GroundTruth = "[]"
	if truth.Truth() {
		if row.GroundTruth, err = pyval.Dumps(truth); err != nil {
			return Row{}, false, fmt.Errorf("%s: ground truth: %w", id.Str, err)
		}
	}
	if row.FuncDescription, err = pyval.Dumps(functions); err != nil {
		return Row{}, false, fmt.Errorf("%s: functions: %w", id.Str, err)
	}
	return row, true, nil
}

// flattenQuestion is _build_messages_from_question: every message of
// every turn, content null (or missing, or empty) as "".
func flattenQuestion(q pyval.Value) ([]openaichat.TextMessage, error) {
	var out []openaichat.TextMessage
	for _, turn := range q.Items {
		for _, m := range turn.Items {
			role, ok := m.GetStr("role")
			if !ok || role.Kind != pyval.StrKind {
				return nil, errors.New("a message has no role")
			}
			content, _ := m.GetStr("content")
			text := ""
			switch {
			case content.Kind == pyval.StrKind:
				text = content.Str
			case content.Truth():
				return nil, fmt.Errorf("a message's content is a %s, not text", content.TypeName())
			}
			out = append(out, openaichat.TextMessage{Role: role.Str, Content: text})
		}
	}
	return out, nil
}

// gorillaToOpenAPI is bfcl-eval's GORILLA_TO_OPENAPI.
var gorillaToOpenAPI = map[string]string{
	"integer": "integer", "number": "number", "float": "number", "string": "string", "boolean": "boolean",
	"bool": "boolean", "array": "array", "list": "array", "dict": "object", "object": "object", "tuple": "array",
	"any": "string", "byte": "integer", "short": "integer", "long": "integer", "double": "number", "char": "string",
	"ArrayList": "array", "Array": "array", "HashMap": "object", "Hashtable": "object", "Queue": "array",
	"Stack": "array", "Any": "string", "String": "string", "Bigint": "integer",
}

// convertTools is bfcl-eval's convert_to_tool(functions,
// GORILLA_TO_OPENAPI, ModelStyle.OPENAI_COMPLETIONS): dots in names become
// underscores, parameters' type becomes "object" and their properties'
// types OpenAPI's, each function wrapped as {"type": "function",
// "function": ...}. Dict keys keep their places as Python's assignments
// keep them.
func convertTools(functions pyval.Value) (pyval.Value, error) {
	var tools []pyval.Value
	for _, fn := range functions.Items {
		name, err := key(fn, "name")
		if err != nil {
			return pyval.None, err
		}
		if name.Kind == pyval.StrKind && strings.Contains(name.Str, ".") {
			fn = set(fn, "name", pyval.Str(strings.ReplaceAll(name.Str, ".", "_")))
		}
		params, err := key(fn, "parameters")
		if err != nil {
			return pyval.None, err
		}
		params = set(params, "type", pyval.Str("object"))
		props, err := key(params, "properties")
		if err != nil {
			return pyval.None, err
		}
		if props, err = castOpenAI(props); err != nil {
			return pyval.None, err
		}
		fn = set(fn, "parameters", set(params, "properties", props))
		tools = append(tools, pyval.Dict("type", pyval.Str("function"), "function", fn))
	}
	return pyval.List(tools...), nil
}

// key is d[k], or Python's KeyError.
func key(d pyval.Value, k string) (pyval.Value, error) {
	if d.Kind != pyval.DictKind {
		return pyval.None, fmt.Errorf("%s is not an object where %q is read", d.TypeName(), k)
	}
	v, ok := d.GetStr(k)
	if !ok {
		return pyval.None, fmt.Errorf("KeyError: %q", k)
	}
	return v, nil
}

// set returns d with d[k] = v: in k's place when present, last otherwise.
func set(d pyval.Value, k string, v pyval.Value) pyval.Value {
	var b pyval.DictBuilder
	for i, key := range d.Keys {
		_ = b.Set(key, d.Vals[i])
	}
	_ = b.Set(pyval.Str(k), v)
	return b.Dict()
}

// mapType is mapping[t], or the KeyError.
func mapType(t pyval.Value) (pyval.Value, error) {
	if m, ok := gorillaToOpenAPI[t.Str]; ok && t.Kind == pyval.StrKind {
		return pyval.Str(m), nil
	}
	return pyval.None, fmt.Errorf("KeyError: %#v is not a BFCL type", t)
}

// castOpenAI is _cast_to_openai_type.
func castOpenAI(props pyval.Value) (pyval.Value, error) {
	if props.Kind != pyval.DictKind {
		return pyval.None, fmt.Errorf("properties is a %s", props.TypeName())
	}
	out := props
	for i, k := range props.Keys {
		p := props.Vals[i]
		if p.Kind != pyval.DictKind {
			return pyval.None, fmt.Errorf("property %s is a %s", k.Str, p.TypeName())
		}
		t, ok := p.GetStr("type")
		switch {
		case !ok:
			p = set(p, "type", pyval.Str("string"))
		default:
			if t.Kind == pyval.StrKind && t.Str == "float" {
				p = set(p, "format", pyval.Str("float"))
				desc, err := key(p, "description")
				if err != nil || desc.Kind != pyval.StrKind {
					return pyval.None, fmt.Errorf("property %s: a float parameter needs a description: %v", k.Str, err)
				}
				p = set(p, "description", pyval.Str(desc.Str+" This is a float type value."))
			}
			mapped := "string"
			if m, ok := gorillaToOpenAPI[t.Str]; ok && t.Kind == pyval.StrKind {
				mapped = m
			}
			p = set(p, "type", pyval.Str(mapped))
		}
		var err error
		if p, err = castNested(p); err != nil {
			return pyval.None, fmt.Errorf("property %s: %w", k.Str, err)
		}
		out = set(out, k.Str, p)
	}
	return out, nil
}

// castNested converts an array's or object's nested properties or items,
// as the second half of _cast_to_openai_type's loop does.
func castNested(p pyval.Value) (pyval.Value, error) {
	t, _ := p.GetStr("type")
	if t.Str != "array" && t.Str != "object" {
		return p, nil
	}
	if inner, ok := p.GetStr("properties"); ok {
		c, err := castOpenAI(inner)
		if err != nil {
			return pyval.None, err
		}
		return set(p, "properties", c), nil
	}
	items, ok := p.GetStr("items")
	if !ok {
		return p, nil
	}
	it, err := key(items, "type")
	if err != nil {
		return pyval.None, err
	}
	if it, err = mapType(it); err != nil {
		return pyval.None, err
	}
	items = set(items, "type", it)
	if inner, ok := items.GetStr("items"); ok && it.Str == "array" {
		iit, err := key(inner, "type")
		if err != nil {
			return pyval.None, err
		}
		if iit, err = mapType(iit); err != nil {
			return pyval.None, err
		}
		items = set(items, "items", set(inner, "type", iit))
	} else if inner, ok := items.GetStr("properties"); ok && it.Str == "object" {
		c, err := castOpenAI(inner)
		if err != nil {
			return pyval.None, err
		}
		items = set(items, "properties", c)
	}
	return set(p, "items", items), nil
}

// appendMsgspec appends v as msgspec.json.encode writes the Python value:
// compact, strings escaped as msgspec escapes them, floats as msgspec
// writes them.
func appendMsgspec(dst []byte, v pyval.Value) ([]byte, error) {
	var err error
	switch v.Kind {
	case pyval.NoneKind:
		dst = append(dst, "null"...)
	case pyval.BoolKind:
		dst = strconv.AppendBool(dst, v.Bool)
	case pyval.IntKind:
		if !v.Int.IsInt64() && !v.Int.IsUint64() {
			return dst, fmt.Errorf("integer %s is out of msgspec's range", v.Int)
		}
		dst = v.Int.Append(dst, 10)
	case pyval.FloatKind:
		dst = openaichat.AppendMsgspecFloat(dst, v.Float)
	case pyval.StrKind:
		dst = jsonenc.AppendShort(dst, v.Str)
	case pyval.ListKind, pyval.TupleKind:
		dst = append(dst, '[')
		for i, it := range v.Items {
			if i > 0 {
				dst = append(dst, ',')
			}
			if dst, err = appendMsgspec(dst, it); err != nil {
				return dst, err
			}
		}
		dst = append(dst, ']')
	case pyval.DictKind:
		dst = append(dst, '{')
		for i, k := range v.Keys {
			if i > 0 {
				dst = append(dst, ',')
			}
			if k.Kind != pyval.StrKind {
				return dst, fmt.Errorf("a key of type %s", k.TypeName())
			}
			dst = append(jsonenc.AppendShort(dst, k.Str), ':')
			if dst, err = appendMsgspec(dst, v.Vals[i]); err != nil {
				return dst, err
			}
		}
		dst = append(dst, '}')
	default:
		return dst, fmt.Errorf("msgspec cannot encode a %s", v.TypeName())
	}
	return dst, nil
}
