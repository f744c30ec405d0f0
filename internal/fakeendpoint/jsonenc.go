package fakeendpoint

import (
	"strconv"
	"unicode/utf8"
)

// The fake assembles its responses by appending to pooled byte slices rather
// than through encoding/json, so a zero-latency request costs little more
// than the bytes it sends. These helpers are the only encoding primitives.

const hexDigits = "0123456789abcdef"

// appendJSONString appends s as a JSON string literal. Like pydantic's
// model_dump_json (what vLLM uses) it leaves non-ASCII as UTF-8 and does not
// escape <, > or &; it escapes quotes, backslashes and control characters,
// and replaces invalid UTF-8 with U+FFFD so the output is always valid JSON.
func appendJSONString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	dst = appendJSONStringBody(dst, s)
	return append(dst, '"')
}

// appendJSONStringBody appends the escaped contents of s without quotes.
func appendJSONStringBody(dst []byte, s string) []byte {
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch c {
			case '"':
				dst = append(dst, '\\', '"')
			case '\\':
				dst = append(dst, '\\', '\\')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i += size
			start = i
			continue
		}
		i += size
	}
	return append(dst, s[start:]...)
}

func appendInt(dst []byte, v int) []byte { return strconv.AppendInt(dst, int64(v), 10) }

// appendUsage appends vLLM's UsageInfo field order: prompt, total, completion.
func appendUsage(dst []byte, prompt, completion int, withDetails bool) []byte {
	dst = append(dst, `{"prompt_tokens":`...)
	dst = appendInt(dst, prompt)
	dst = append(dst, `,"total_tokens":`...)
	dst = appendInt(dst, prompt+completion)
	dst = append(dst, `,"completion_tokens":`...)
	dst = appendInt(dst, completion)
	if withDetails {
		dst = append(dst, `,"prompt_tokens_details":null`...)
	}
	return append(dst, '}')
}

// appendHexID appends 32 lowercase hex digits derived from x, shaped like
// Python's uuid4().hex that vLLM and SGLang use in request IDs.
func appendHexID(dst []byte, x uint64) []byte {
	a, b := splitmix64(x), splitmix64(^x)
	for _, v := range [2]uint64{a, b} {
		for shift := 60; shift >= 0; shift -= 4 {
			dst = append(dst, hexDigits[(v>>uint(shift))&0xf])
		}
	}
	return dst
}
