package qwen36

import (
	"strconv"
	"strings"

	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/internal/pyfloat"
	"github.com/mlperf-go/mlperf-go/score/bfcl"
	"github.com/mlperf-go/mlperf-go/score/bfcl/pyval"
)

// What the fake endpoint answers BFCL samples with: the text a Qwen model
// generates, tool calls as <tool_call>{"name": ..., "arguments": ...}
// </tool_call> blocks, which the fake's server side turns into tool_calls
// as vLLM's hermes parser does (protocol/openaichat). Right answers call
// the expected functions with the first possible value of each parameter
// (Java and JavaScript values as their source text); wrong ones change a
// value, call another function, or answer in prose; hallucination samples
// are answered right by declining in prose.

// fakeDefaultAnswer answers a question no sample has.
const fakeDefaultAnswer = "I cannot help with that: none of the available functions fits the request."

// FakeAnswers returns the fake's answers, keyed on each sample's last user
// message. Samples sharing a question (31 pairs in the official set) share
// the first one's answer.
func (d *Dataset) FakeAnswers() []benchmark.FakeAnswer {
	var out []benchmark.FakeAnswer
	seen := map[string]bool{}
	for i := range d.rows {
		r := &d.rows[i]
		key := lastUser(r)
		if seen[key] {
			continue
		}
		seen[key] = true
		out = append(out, fakeAnswer(r, key))
	}
	return out
}

func lastUser(r *Row) string {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		if r.Messages[i].Role == "user" {
			return r.Messages[i].Content
		}
	}
	return ""
}

func fakeAnswer(r *Row, key string) benchmark.FakeAnswer {
	a := benchmark.FakeAnswer{Keys: []string{key}}
	calls := rightCalls(r)
	if bfcl.CategoryOf(r.Subset) == "hallucination" || len(calls) == 0 {
		a.Right = fakeDefaultAnswer
		if fn := firstFunctionName(r); fn != "" {
			a.Wrongs = []string{hermes([]call{{fn, pyval.Dict()}})}
		}
		return a
	}
	conv := sourceFor(r)
	a.Right = hermes(conv(calls))
	a.Wrongs = []string{hermes(conv(changeValue(calls))), hermes(conv(renameFirst(calls))), "I need more information to answer that."}
	return a
}

// call is one function call of an answer.
type call struct {
	name string
	args pyval.Value // a dict
}

// sourceFor returns what turns a sample's calls into what a model passes:
// Java and JavaScript arguments as their source text, Python ones as
// they are.
func sourceFor(r *Row) func([]call) []call {
	lang := bfcl.LanguageOf(r.Subset)
	if lang == bfcl.Python {
		return func(c []call) []call { return c }
	}
	types := paramTypes(r.functions)
	return func(calls []call) []call {
		out := make([]call, len(calls))
		for i, c := range calls {
			var args pyval.DictBuilder
			for j, k := range c.args.Keys {
				v, typ := c.args.Vals[j], types[c.name][k.Str]
				if lang == bfcl.Java {
					v = pyval.Str(javaSource(v, typ))
				} else {
					v = pyval.Str(jsSource(v, typ))
				}
				_ = args.Set(k, v)
			}
			out[i] = call{c.name, args.Dict()}
		}
		return out
	}
}

// hermes writes calls as Qwen's chat template does: one
// <tool_call>\n{json}\n</tool_call> block each, on lines of their own,
// the JSON as json.dumps(ensure_ascii=False) writes it.
func hermes(calls []call) string {
	var blocks []string
	for _, c := range calls {
		body, err := pyval.DumpsUnicode(pyval.Dict("name", pyval.Str(c.name), "arguments", c.args))
		if err != nil {
			continue
		}
		blocks = append(blocks, "<tool_call>\n"+body+"\n</tool_call>")
	}
	return strings.Join(blocks, "\n")
}

// rightCalls are the expected calls with the first possible value of each
// parameter given a value (optional ones, whose only value is "", left
// out), named as the tools were sent (dots as underscores).
func rightCalls(r *Row) []call {
	var out []call
	for _, c := range r.truth.Items {
		if c.Kind != pyval.DictKind || len(c.Keys) == 0 {
			continue
		}
		name := strings.ReplaceAll(c.Keys[0].Str, ".", "_")
		var args pyval.DictBuilder
		params := c.Vals[0]
		for i, p := range params.Keys {
			v, ok := firstValue(params.Vals[i])
			if !ok {
				continue
			}
			_ = args.Set(p, concrete(v))
		}
		out = append(out, call{name, args.Dict()})
	}
	return out
}

// firstValue is the first possible value that is not "" (the mark of an
// optional parameter).
func firstValue(vals pyval.Value) (pyval.Value, bool) {
	for _, v := range vals.Items {
		if !(v.Kind == pyval.StrKind && v.Str == "") {
			return v, true
		}
	}
	return pyval.None, false
}

// concrete turns a possible value of a dict parameter (a dict of possible
// values) or of a list of dicts into a value.
func concrete(v pyval.Value) pyval.Value {
	switch v.Kind {
	case pyval.DictKind:
		var d pyval.DictBuilder
		for i, k := range v.Keys {
			x := v.Vals[i]
			if x.Kind == pyval.ListKind {
				var ok bool
				if x, ok = firstValue(x); !ok {
					continue
				}
			}
			_ = d.Set(k, concrete(x))
		}
		return d.Dict()
	case pyval.ListKind:
		if len(v.Items) > 0 && v.Items[0].Kind == pyval.DictKind {
			items := make([]pyval.Value, len(v.Items))
			for i, it := range v.Items {
				items[i] = concrete(it)
			}
			return pyval.List(items...)
		}
	}
	return v
}

// paramTypes maps function name (as called) and parameter to its BFCL
// type.
func paramTypes(functions pyval.Value) map[string]map[string]string {
	out := map[string]map[string]string{}
	for _, fn := range functions.Items {
		name, _ := fn.GetStr("name")
		params, _ := fn.GetStr("parameters")
		props, _ := params.GetStr("properties")
		m := map[string]string{}
		for i, k := range props.Keys {
			t, _ := props.Vals[i].GetStr("type")
			m[k.Str] = t.Str
		}
		out[strings.ReplaceAll(name.Str, ".", "_")] = m
	}
	return out
}

func firstFunctionName(r *Row) string {
	if len(r.functions.Items) == 0 {
		return ""
	}
	name, _ := r.functions.Items[0].GetStr("name")
	return strings.ReplaceAll(name.Str, ".", "_")
}

// javaSource writes a value as Java source text, as a model passes Java
// arguments.
func javaSource(v pyval.Value, typ string) string {
	switch v.Kind {
	case pyval.BoolKind:
		return strconv.FormatBool(v.Bool)
	case pyval.IntKind:
		if typ == "long" {
			return v.Int.String() + "L"
		}
		return v.Int.String()
	case pyval.FloatKind:
		if typ == "float" {
			return pyfloat.Repr(v.Float) + "f"
		}
		return pyfloat.Repr(v.Float)
	case pyval.ListKind:
		var els []string
		for _, it := range v.Items {
			if it.Kind == pyval.StrKind {
				els = append(els, `"`+it.Str+`"`)
			} else {
				els = append(els, javaSource(it, ""))
			}
		}
		if typ == "ArrayList" {
			return "new ArrayList<>(Arrays.asList(" + strings.Join(els, ", ") + "))"
		}
		return "new int[]{" + strings.Join(els, ", ") + "}"
	case pyval.DictKind:
		var puts []string
		for i, k := range v.Keys {
			x := v.Vals[i]
			val := javaSource(x, "")
			if x.Kind == pyval.StrKind {
				val, _ = pyval.Dumps(x)
			}
			puts = append(puts, `put("`+k.Str+`", `+val+`);`)
		}
		return "new HashMap<String, Object>() {{ " + strings.Join(puts, " ") + " }}"
	case pyval.StrKind:
		return v.Str
	}
	s, _ := pyval.Dumps(v)
	return s
}

// jsSource writes a value as JavaScript source text.
func jsSource(v pyval.Value, typ string) string {
	switch v.Kind {
	case pyval.BoolKind:
		return strconv.FormatBool(v.Bool)
	case pyval.IntKind:
		if typ == "Bigint" {
			return v.Int.String() + "n"
		}
		return v.Int.String()
	case pyval.FloatKind:
		return pyfloat.Repr(v.Float)
	case pyval.ListKind:
		var els []string
		for _, it := range v.Items {
			if it.Kind == pyval.StrKind {
				els = append(els, "'"+it.Str+"'")
			} else {
				els = append(els, jsSource(it, ""))
			}
		}
		return "[" + strings.Join(els, ", ") + "]"
	case pyval.DictKind:
		var kvs []string
		for i, k := range v.Keys {
			x := v.Vals[i]
			val := jsSource(x, "")
			if x.Kind == pyval.StrKind {
				val = "'" + x.Str + "'"
			}
			kvs = append(kvs, "'"+k.Str+"': "+val)
		}
		return "{" + strings.Join(kvs, ", ") + "}"
	case pyval.StrKind:
		return v.Str
	}
	s, _ := pyval.Dumps(v)
	return s
}

// changeValue returns the calls with the first argument of the first call
// changed so that no possible value matches.
func changeValue(calls []call) []call {
	out := append([]call(nil), calls...)
	args := out[0].args
	if len(args.Keys) == 0 {
		out[0].args = pyval.Dict("unexpected_parameter", pyval.Str("x"))
		return out
	}
	var d pyval.DictBuilder
	for i, k := range args.Keys {
		v := args.Vals[i]
		if i == 0 {
			v = altered(v)
		}
		_ = d.Set(k, v)
	}
	out[0].args = d.Dict()
	return out
}

// altered changes a value to one of the same type that matches nothing
// the value matched.
func altered(v pyval.Value) pyval.Value {
	switch v.Kind {
	case pyval.BoolKind:
		return pyval.Bool(!v.Bool)
	case pyval.IntKind:
		return pyval.Int(v.Int.Int64() + 7919)
	case pyval.FloatKind:
		return pyval.Float(v.Float + 7919.5)
	case pyval.StrKind:
		return pyval.Str(v.Str + " zz")
	case pyval.ListKind:
		return pyval.List(append(append([]pyval.Value(nil), v.Items...), pyval.Int(7919))...)
	case pyval.DictKind:
		return set(v, "zz_unexpected_key", pyval.Int(7919))
	}
	return pyval.Str("zz")
}

// renameFirst calls another function than the first expected one.
func renameFirst(calls []call) []call {
	out := append([]call(nil), calls...)
	out[0].name += "_v2"
	return out
}
