package answer

import (
	"strings"

	"github.com/mlperf-go/mlperf-go/internal/pystr"
)

// ParseBoxed returns the stripped contents of the last \boxed{...} of text,
// matching braces, as parse_boxed_math does (identical in both evaluators).
// It reports false when text has no "\boxed{" or its braces never close.
// Only the last occurrence is tried: an unclosed last box hides earlier ones.
func ParseBoxed(text string) (string, bool) {
	text = pystr.Strip(text)
	idx := strings.LastIndex(text, `\boxed{`)
	if idx < 0 {
		return "", false
	}
	start := idx + len(`\boxed{`)
	depth := 0
	for i := start; i < len(text); i++ {
		switch text[i] {
		case '{':
			depth++
		case '}':
			if depth == 0 {
				return pystr.Strip(text[start:i]), true
			}
			depth--
		}
	}
	return "", false
}
