package bfcl

import (
	"strings"

	"github.com/mlperf-go/mlperf-go/internal/pystr"
	"github.com/mlperf-go/mlperf-go/score/bfcl/pyast"
	"github.com/mlperf-go/mlperf-go/score/bfcl/pyval"
)

// Port of mlcommons/endpoints' FunctionCallExtractor
// (src/inference_endpoint/evaluation/extractor.py at ea33275): the
// function calls of a model's output, tried as serialized OpenAI
// tool_calls, then as a JSON array of {"name", "arguments"}, then as
// "name(key=value, ...)" text, normalized to json.dumps of
// [{"name": ..., "arguments": ...}].

// Extraction is the extractor's result for one output.
type Extraction struct {
	// JSON is what extract(text, default="[]") returns: json.dumps of
	// the calls, or "[]".
	JSON string
}

// Extract is FunctionCallExtractor.extract(text, default="[]"). Its error
// is an exception the Python code lets escape (a RecursionError on
// deeply nested JSON, a TypeError from an unhashable literal or from
// json.dumps of a set), which aborts the reference's scoring.
func Extract(text string) (Extraction, error) {
	text = pystr.Strip(text)
	if text == "" {
		return Extraction{JSON: "[]"}, nil
	}
	if s, ok, err := toolCallsJSON(text); err != nil || ok {
		return Extraction{JSON: s}, err
	}
	if s, ok, err := functionArray(text); err != nil || ok {
		return Extraction{JSON: s}, err
	}
	s, ok, err := textCalls(text)
	if err != nil {
		return Extraction{}, err
	}
	if !ok {
		s = "[]"
	}
	return Extraction{JSON: s}, nil
}

// HasNativeToolCalls is FunctionCallExtractor.has_native_tool_calls: text
// (not stripped) parses as serialized tool_calls.
func HasNativeToolCalls(text string) (bool, error) {
	_, ok, err := toolCallsJSON(text)
	return ok, err
}

// caught reports whether err is one of the exceptions the extractor's
// JSON attempts catch: json.JSONDecodeError, ValueError, TypeError.
func caught(err error) bool {
	pe, ok := err.(*pyval.Error)
	return ok && (pe.Type == "JSONDecodeError" || pe.Type == "ValueError" || pe.Type == "TypeError")
}

// loadList is how both JSON attempts begin: data = json.loads(text),
// where an exception they catch (caught) means "not this format", as does
// data that is not a list. ok is false when it is not this format or err
// is an exception they let escape.
func loadList(text string) (items []pyval.Value, ok bool, err error) {
	data, err := pyval.Loads(text)
	if err != nil {
		if caught(err) {
			return nil, false, nil
		}
		return nil, false, err
	}
	if data.Kind != pyval.ListKind {
		return nil, false, nil
	}
	return data.Items, true, nil
}

// toolCallsJSON is _try_parse_tool_calls_json: a JSON list of objects
// each with a "function" object; string arguments are JSON-decoded where
// they decode.
func toolCallsJSON(text string) (string, bool, error) {
	items, ok, err := loadList(text)
	if !ok {
		return "", false, err
	}
	var calls []pyval.Value
	for _, item := range items {
		if item.Kind != pyval.DictKind {
			return "", false, nil
		}
		fn, _ := item.GetStr("function")
		if fn.Kind != pyval.DictKind {
			return "", false, nil
		}
		name, ok := fn.GetStr("name")
		if !ok {
			name = pyval.Str("")
		}
		args, ok := fn.GetStr("arguments")
		if !ok {
			args = pyval.Str("{}")
		}
		if args.Kind == pyval.StrKind {
			v, err := pyval.Loads(args.Str)
			switch {
			case err == nil:
				args = v
			case !isJSONOrValueError(err):
				return "", false, err
			}
		}
		calls = append(calls, pyval.Dict("name", name, "arguments", args))
	}
	return dumpCalls(calls)
}

func isJSONOrValueError(err error) bool {
	pe, ok := err.(*pyval.Error)
	return ok && (pe.Type == "JSONDecodeError" || pe.Type == "ValueError")
}

// dumpCalls is "if calls: return json.dumps(calls)" inside the JSON
// attempts' try, whose except takes a ValueError or TypeError from
// json.dumps as "not this format".
func dumpCalls(calls []pyval.Value) (string, bool, error) {
	if len(calls) == 0 {
		return "", false, nil
	}
	s, err := pyval.Dumps(pyval.List(calls...))
	if err != nil {
		if caught(err) {
			return "", false, nil
		}
		return "", false, err
	}
	return s, true, nil
}

// functionArray is _try_parse_function_array: a JSON list of objects each
// with a "name".
func functionArray(text string) (string, bool, error) {
	items, ok, err := loadList(text)
	if !ok {
		return "", false, err
	}
	var calls []pyval.Value
	for _, item := range items {
		if item.Kind != pyval.DictKind {
			return "", false, nil
		}
		name, ok := item.GetStr("name")
		if !ok {
			return "", false, nil
		}
		args, ok := item.GetStr("arguments")
		if !ok {
			args = pyval.Dict()
		}
		calls = append(calls, pyval.Dict("name", name, "arguments", args))
	}
	return dumpCalls(calls)
}

// skipNames is FunctionCallExtractor._SKIP_NAMES.
var skipNames = map[string]bool{
	"print": true, "return": true, "if": true, "for": true, "while": true, "def": true, "class": true,
	"import": true, "from": true, "with": true, "assert": true, "raise": true, "try": true, "except": true,
	"len": true, "str": true, "int": true, "float": true, "list": true, "dict": true, "set": true,
	"tuple": true, "type": true, "isinstance": true, "range": true, "enumerate": true, "zip": true,
	"map": true, "filter": true, "Note": true, "Example": true, "Here": true, "This": true, "The": true,
	"For": true,
}

// textCalls is _try_parse_text_function_calls over the text's code
// points: each "name(" the pattern \b([A-Za-z_]\w*)\s*\( finds, outside
// calls already taken, with balanced parentheses, whose arguments do not
// look like a signature.
func textCalls(text string) (string, bool, error) {
	rs := []rune(text)
	var calls []pyval.Value
	var consumed [][2]int
	for _, m := range funcStarts(rs) {
		if inRanges(consumed, m.start) || skipNames[string(rs[m.start:m.nameEnd])] {
			continue
		}
		closeAt := balancedParens(rs, m.open)
		if closeAt < 0 {
			continue
		}
		consumed = append(consumed, [2]int{m.open, closeAt + 1})
		args := pystr.Strip(string(rs[m.open+1 : closeAt]))
		if args != "" && looksLikeSignature(args) {
			continue
		}
		parsed, err := parseArguments(args)
		if err != nil {
			return "", false, err
		}
		calls = append(calls, pyval.Dict("name", pyval.Str(string(rs[m.start:m.nameEnd])), "arguments", parsed))
	}
	if len(calls) == 0 {
		return "", false, nil
	}
	s, err := pyval.Dumps(pyval.List(calls...))
	return s, err == nil, err
}

func inRanges(rs [][2]int, i int) bool {
	for _, r := range rs {
		if r[0] <= i && i < r[1] {
			return true
		}
	}
	return false
}

// funcStart is one match of _FUNC_START_PATTERN: the name's span and
// where its "(" is.
type funcStart struct{ start, nameEnd, open int }

// funcStarts is finditer(r"\b([A-Za-z_]\w*)\s*\(", text): a name starting
// with an ASCII letter or "_" where a word begins, the longest run of
// word characters after it, optional whitespace, "("; the scan resumes
// after each match's "(".
func funcStarts(rs []rune) []funcStart {
	var out []funcStart
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		if !(r == '_' || (r|0x20 >= 'a' && r|0x20 <= 'z')) || (i > 0 && pystr.IsWord(rs[i-1])) {
			continue
		}
		j := i + 1
		for j < len(rs) && pystr.IsWord(rs[j]) {
			j++
		}
		k := j
		for k < len(rs) && pystr.IsSpace(rs[k]) {
			k++
		}
		if k < len(rs) && rs[k] == '(' {
			out = append(out, funcStart{start: i, nameEnd: j, open: k})
			i = k
		}
	}
	return out
}

// balancedParens is _find_balanced_parens: the index of the ")" closing
// the "(" at start, skipping quoted text ('...' and "...", with backslash
// escapes inside them), or -1.
func balancedParens(rs []rune, start int) int {
	depth := 0
	single, double := false, false
	for i := start; i < len(rs); i++ {
		c := rs[i]
		switch {
		case c == '\\' && (single || double):
			i++
		case c == '\'' && !double:
			single = !single
		case c == '"' && !single:
			double = !double
		case !single && !double && c == '(':
			depth++
		case !single && !double && c == ')':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// looksLikeSignature is _looks_like_signature: every non-empty
// comma-separated part fully matches [A-Za-z_]\w*(?:\s*:\s*\w+)?.
func looksLikeSignature(args string) bool {
	for _, part := range strings.Split(args, ",") {
		part = pystr.Strip(part)
		if part != "" && !signaturePart([]rune(part)) {
			return false
		}
	}
	return true
}

func signaturePart(rs []rune) bool {
	if len(rs) == 0 || !(rs[0] == '_' || (rs[0]|0x20 >= 'a' && rs[0]|0x20 <= 'z')) {
		return false
	}
	i := 1
	for i < len(rs) && pystr.IsWord(rs[i]) {
		i++
	}
	if i == len(rs) {
		return true
	}
	for i < len(rs) && pystr.IsSpace(rs[i]) {
		i++
	}
	if i >= len(rs) || rs[i] != ':' {
		return false
	}
	i++
	for i < len(rs) && pystr.IsSpace(rs[i]) {
		i++
	}
	j := i
	for j < len(rs) && pystr.IsWord(rs[j]) {
		j++
	}
	return j > i && j == len(rs)
}

// parseArguments is _parse_arguments_string: the keyword arguments of
// ast.parse(f"dict({args})"), each literal_eval'd or, failing that,
// ast.unparse'd; {"_raw": args} when it does not parse.
func parseArguments(args string) (pyval.Value, error) {
	var d pyval.DictBuilder
	if args == "" {
		return d.Dict(), nil
	}
	p, err := pyast.Parse("dict(" + args + ")")
	if err != nil {
		if pe, ok := err.(*pyval.Error); ok && (pe.Type == "SyntaxError" || pe.Type == "ValueError") {
			return pyval.Dict("_raw", pyval.Str(args)), nil
		}
		return pyval.None, err
	}
	call, ok := p.Body.(*pyast.Call)
	if !ok {
		return d.Dict(), nil
	}
	for _, kw := range call.Keywords {
		if kw.Arg == nil {
			continue
		}
		v, err := pyast.LiteralEval(kw.Value)
		if err != nil {
			pe, ok := err.(*pyval.Error)
			if !ok || pe.Type != "ValueError" {
				return pyval.None, err // a TypeError escapes
			}
			s, uerr := pyast.Unparse(kw.Value)
			if uerr != nil { // ValueError inside the outer try: {"_raw": ...}
				return pyval.Dict("_raw", pyval.Str(args)), nil
			}
			v = pyval.Str(s)
		}
		_ = d.Set(pyval.Str(*kw.Arg), v)
	}
	return d.Dict(), nil
}
