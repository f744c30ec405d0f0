// Package jsonref is the independent interpretation the protocol
// parsers' fuzz tests compare against: a generic encoding/json decode into
// any, navigated by the rules each parser documents. Only tests import it.
package jsonref

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"strconv"
	"testing"
)

// Err is the reference's error: it only says that one is expected.
var Err = errors.New("reference: error expected")

// Decode decodes with encoding/json, keeping numbers exact.
func Decode(b []byte) (any, bool) {
	if !json.Valid(b) {
		return nil, false
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, false
	}
	return v, true
}

// Int reads an integer that fits in bits.
func Int(v any, bits int) (int64, error) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, Err
	}
	i, err := strconv.ParseInt(string(n), 10, bits)
	if err != nil {
		return 0, Err
	}
	return i, nil
}

// IDs reads a token-ID array (null: none) as int32 little-endian words.
func IDs(v any) ([]byte, int, error) {
	if v == nil {
		return nil, 0, nil
	}
	arr, ok := v.([]any)
	if !ok {
		return nil, 0, Err
	}
	var out []byte
	for _, x := range arr {
		i, err := Int(x, 32)
		if err != nil {
			return nil, 0, err
		}
		out = binary.LittleEndian.AppendUint32(out, uint32(int32(i)))
	}
	return out, len(arr), nil
}

// Obj reads an object without a non-null "error" member.
func Obj(v any) (map[string]any, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, Err
	}
	if e, has := m["error"]; has && e != nil {
		return nil, Err
	}
	return m, nil
}

// First returns choices[0] as an object; ok=false when there is none.
func First(m map[string]any, nullOK bool) (map[string]any, bool, error) {
	c, has := m["choices"]
	if !has || (c == nil && nullOK) {
		return nil, false, nil
	}
	arr, isArr := c.([]any)
	if !isArr {
		return nil, false, Err
	}
	if len(arr) == 0 {
		return nil, false, nil
	}
	o, isObj := arr[0].(map[string]any)
	if !isObj {
		return nil, false, Err
	}
	return o, true, nil
}

// Str reads a string member (absent or null: empty).
func Str(v any, has bool) (string, error) {
	if !has || v == nil {
		return "", nil
	}
	s, ok := v.(string)
	if !ok {
		return "", Err
	}
	return s, nil
}

// Usage returns usage.completion_tokens.
func Usage(m map[string]any) (int64, bool, error) {
	u, has := m["usage"]
	if !has || u == nil {
		return 0, false, nil
	}
	uo, ok := u.(map[string]any)
	if !ok {
		return 0, false, Err
	}
	ct, has := uo["completion_tokens"]
	if !has || ct == nil {
		return 0, false, nil
	}
	i, err := Int(ct, 64)
	return i, err == nil, err
}

// CheckErr fails the test unless the parser and the reference agree on
// whether b is an error, and reports whether it is not.
func CheckErr(t *testing.T, b []byte, got, want error) bool {
	t.Helper()
	if (got == nil) != (want == nil) {
		t.Fatalf("body %q: parser error %v, reference error %v", b, got, want)
	}
	return got == nil
}

// Finish reads choices[0].finish_reason: a string, or "" when null or
// absent; anything else is an error.
func Finish(c0 map[string]any) (string, error) {
	v, has := c0["finish_reason"]
	return Str(v, has)
}
