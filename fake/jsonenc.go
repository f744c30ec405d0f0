package fake

import (
	"strconv"

	"github.com/mlperf-go/mlperf-go/internal/jsonenc"
)

// The fake assembles what it writes (errors, /v1/models, the token text and
// IDs the protocols copy into their answers) by appending to pooled byte
// slices rather than through encoding/json, so a zero-latency request
// costs little more than the bytes it sends. These helpers are its
// encoding primitives.

const hexDigits = "0123456789abcdef"

// appendJSONString appends s as a JSON string literal the way vLLM's
// pydantic models write it: non-ASCII kept as UTF-8, <, > and & not
// escaped, invalid UTF-8 replaced so the output is always valid JSON (see
// jsonenc.AppendMinimal for the exact rules).
func appendJSONString(dst []byte, s string) []byte { return jsonenc.AppendMinimal(dst, s) }

// appendJSONStringBody appends the escaped contents of s without quotes.
func appendJSONStringBody(dst []byte, s string) []byte { return jsonenc.AppendMinimalBody(dst, s) }

func appendInt(dst []byte, v int) []byte { return strconv.AppendInt(dst, int64(v), 10) }

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
