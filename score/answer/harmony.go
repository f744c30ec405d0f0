package answer

import (
	"strings"

	"github.com/mlperf-go/mlperf-go/internal/pystr"
)

const (
	finalOpen   = "<|channel|>final"
	messageMark = "<|message|>"
	returnMark  = "<|return|>"
)

// ExtractFinalSection returns the stripped body of the first harmony final
// channel of text, or the stripped text when it has none (gpt-oss-120b's
// extract_final_section). It replaces
//
//	re.search(r'<\|channel\|>final[^<]*<\|message\|>(.*?)(?:<\|return\|>|$)', text, re.DOTALL)
//
// on the stripped text: anything but '<' may sit between "final" and
// "<|message|>" (corrupted markers such as "final 明"), and the body ends at
// the first "<|return|>" or at the end of the text.
func ExtractFinalSection(text string) string {
	text = pystr.Strip(text)
	if text == "" {
		return ""
	}
	for from := 0; ; {
		i := strings.Index(text[from:], finalOpen)
		if i < 0 {
			return text
		}
		i += from
		j := i + len(finalOpen)
		if k := strings.IndexByte(text[j:], '<'); k >= 0 && strings.HasPrefix(text[j+k:], messageMark) {
			body := text[j+k+len(messageMark):]
			if e := strings.Index(body, returnMark); e >= 0 {
				body = body[:e]
			}
			return pystr.Strip(body)
		}
		from = i + 1
	}
}

// StripMarkdownBold replaces each **x** (x without '*') by x, scanning left to
// right as re.sub(r'\*\*([^*]+)\*\*', r'\1', text) does.
func StripMarkdownBold(s string) string {
	if !strings.Contains(s, "**") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		if strings.HasPrefix(s[i:], "**") {
			j := i + 2
			for j < len(s) && s[j] != '*' {
				j++
			}
			if j > i+2 && strings.HasPrefix(s[j:], "**") {
				b.WriteString(s[i+2 : j])
				i = j + 2
				continue
			}
		}
		b.WriteByte(s[i])
		i++
	}
	return b.String()
}
