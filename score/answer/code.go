package answer

import (
	"strings"

	"github.com/mlperf-go/mlperf-go/internal/pystr"
)

// ParseCode extracts the code of a LiveCodeBench answer the way v's
// parse_code does, reporting false when there is no fenced block.
//
// DeepSeekR1 takes the first ```python ... ``` block of the text. GPTOSS looks
// in the harmony final section first (when the text has one) and then in the
// whole text, each time preferring the last ```python block and else the last
// plain ``` block, from which a leading "python"/"py" line tag is removed.
// A found block may be empty; the caller grades empty code as wrong without
// running it, as the reference does.
func ParseCode(text string, v Variant) (string, bool) {
	text = pystr.Strip(text)
	if text == "" {
		return "", false
	}
	if v == DeepSeekR1 {
		if body, ok := fencedBlock(text, "```python", false); ok {
			return pystr.Strip(body), true
		}
		return "", false
	}
	if final := ExtractFinalSection(text); final != text {
		if code, ok := lastCodeBlock(final); ok {
			return code, true
		}
	}
	return lastCodeBlock(text)
}

// lastCodeBlock is the last ```python(.*?)``` match, else the last
// ```(.*?)``` match with its language tag removed, both stripped.
func lastCodeBlock(s string) (string, bool) {
	if body, ok := fencedBlock(s, "```python", true); ok {
		return pystr.Strip(body), true
	}
	if body, ok := fencedBlock(s, "```", true); ok {
		return dropLanguageTag(pystr.Strip(body)), true
	}
	return "", false
}

// fencedBlock returns the body of the first (or, with last, the last)
// non-overlapping match of open(.*?)``` in s (re.DOTALL).
func fencedBlock(s, open string, last bool) (string, bool) {
	body, found := "", false
	for pos := 0; ; {
		i := strings.Index(s[pos:], open)
		if i < 0 {
			return body, found
		}
		start := pos + i + len(open)
		j := strings.Index(s[start:], "```")
		if j < 0 {
			return body, found
		}
		body, found = s[start:start+j], true
		if !last {
			return body, true
		}
		pos = start + j + 3
	}
}

// dropLanguageTag is re.sub(r'^(?:python|py)\s*\n', "", code, flags=re.I):
// a leading "python" or "py" (any case) followed by whitespace up to and
// including the last newline of that whitespace run is removed.
func dropLanguageTag(code string) string {
	s := []rune(code)
	for _, tag := range []string{"python", "py"} {
		if !matchFoldAt(s, 0, tag) {
			continue
		}
		end := skipSpace(s, len(tag))
		for k := end - 1; k >= len(tag); k-- {
			if s[k] == '\n' {
				return string(s[k+1:])
			}
		}
	}
	return code
}
