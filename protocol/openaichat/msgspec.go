package openaichat

import (
	"bytes"
	"fmt"
	"math"
	"strconv"

	"github.com/mlperf-go/mlperf-go/internal/jsonenc"
	"github.com/mlperf-go/mlperf-go/protocol/internal/jscan"
)

// mlcommons/endpoints encodes requests and re-encodes the tool calls it
// scores with msgspec.json. These write JSON the way msgspec does, so the
// bytes mlperf-go sends and logs are the reference's.

// AppendMsgspecFloat appends f as msgspec.json.encode writes a float: the
// shortest digits that read back as f, positional when the decimal
// exponent is in [-5, 16) and then always with a fraction ("1.0",
// "0.00001"), otherwise d.ddde±N without "+" or padding ("1e-6", "1e16",
// "2.5e20"); NaN and infinities as null.
func AppendMsgspecFloat(dst []byte, f float64) []byte {
	switch {
	case math.IsNaN(f) || math.IsInf(f, 0):
		return append(dst, "null"...)
	case f == 0:
		if math.Signbit(f) {
			return append(dst, "-0.0"...)
		}
		return append(dst, "0.0"...)
	}
	e := strconv.AppendFloat(nil, f, 'e', -1, 64) // -d.ddde±XX
	mant, expStr, _ := bytes.Cut(e, []byte("e"))
	exp, _ := strconv.Atoi(string(expStr))
	if exp < -5 || exp >= 16 {
		dst = append(dst, mant...)
		dst = append(dst, 'e')
		return strconv.AppendInt(dst, int64(exp), 10)
	}
	start := len(dst)
	dst = strconv.AppendFloat(dst, f, 'f', -1, 64)
	if bytes.IndexByte(dst[start:], '.') < 0 {
		dst = append(dst, '.', '0')
	}
	return dst
}

// MsgspecSampling are the sampling fields of endpoints'
// ChatCompletionRequest (openai/types.py) that mlperf-go sets, in that
// struct's field order; nil fields are not sent, as msgspec omits None.
// The JSON tags are the wire names. ToolParams and qwen3vl's round v6.1
// requests carry them, so both write them with AppendMsgspec.
type MsgspecSampling struct {
	Temperature         *float64 `json:"temperature,omitempty"`
	MaxCompletionTokens *int     `json:"max_completion_tokens,omitempty"`
	Seed                *int64   `json:"seed,omitempty"`
	TopP                *float64 `json:"top_p,omitempty"`
	TopK                *int     `json:"top_k,omitempty"`
	RepetitionPenalty   *float64 `json:"repetition_penalty,omitempty"`
	PresencePenalty     *float64 `json:"presence_penalty,omitempty"`
	FrequencyPenalty    *float64 `json:"frequency_penalty,omitempty"`
}

// AppendMsgspec appends the set fields as msgspec encodes
// ChatCompletionRequest from temperature to frequency_penalty, each
// preceded by a comma: in its field order, with "stream": true after
// max_completion_tokens when stream is set (stream is a field of the
// request, between the two), floats as AppendMsgspecFloat writes them. A
// NaN or infinite value is an error naming its field: it is no JSON
// number, and msgspec's null would not be a sampling value.
func (p *MsgspecSampling) AppendMsgspec(dst []byte, stream bool) ([]byte, error) {
	var err error
	float := func(key string, v *float64) {
		if v == nil || err != nil {
			return
		}
		if math.IsNaN(*v) || math.IsInf(*v, 0) {
			err = fmt.Errorf("%s is %v, not a JSON number", key, *v)
			return
		}
		dst = AppendMsgspecFloat(append(dst, `,"`+key+`":`...), *v)
	}
	integer := func(key string, v int64) {
		dst = strconv.AppendInt(append(dst, `,"`+key+`":`...), v, 10)
	}
	float("temperature", p.Temperature)
	if p.MaxCompletionTokens != nil {
		integer("max_completion_tokens", int64(*p.MaxCompletionTokens))
	}
	if stream {
		dst = append(dst, `,"stream":true`...)
	}
	if p.Seed != nil {
		integer("seed", *p.Seed)
	}
	float("top_p", p.TopP)
	if p.TopK != nil {
		integer("top_k", int64(*p.TopK))
	}
	float("repetition_penalty", p.RepetitionPenalty)
	float("presence_penalty", p.PresencePenalty)
	float("frequency_penalty", p.FrequencyPenalty)
	if err != nil {
		return nil, err
	}
	return dst, nil
}

// appendMsgspecValue reads one JSON value from s and appends it as
// msgspec.json.encode(msgspec.json.decode(value)) writes it: compact;
// strings escaped as msgspec escapes them (jsonenc.AppendShort); integers
// in int64/uint64 range as integers ("-0" as 0), other numbers as floats
// (AppendMsgspecFloat); an object key repeated keeps its first place and
// takes its last value, as a Python dict does.
func appendMsgspecValue(dst []byte, s *jscan.Scanner) ([]byte, error) {
	switch c := s.Peek(); {
	case c == '{':
		type member struct {
			key string
			val []byte
		}
		var members []member
		err := s.Object(func(k []byte) error {
			v, err := appendMsgspecValue(nil, s)
			if err != nil {
				return err
			}
			for i := range members {
				if members[i].key == string(k) {
					members[i].val = v
					return nil
				}
			}
			members = append(members, member{string(k), v})
			return nil
		})
		if err != nil {
			return dst, err
		}
		dst = append(dst, '{')
		for i, m := range members {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = jsonenc.AppendShort(dst, m.key)
			dst = append(dst, ':')
			dst = append(dst, m.val...)
		}
		return append(dst, '}'), nil
	case c == '[':
		dst = append(dst, '[')
		err := s.Array(func(i int) error {
			if i > 0 {
				dst = append(dst, ',')
			}
			var err error
			dst, err = appendMsgspecValue(dst, s)
			return err
		})
		return append(dst, ']'), err
	case c == '"':
		raw, esc, err := s.Str()
		if err != nil {
			return dst, err
		}
		return jsonenc.AppendShort(dst, jscan.DecodeString(raw, esc)), nil
	case c == '-' || (c >= '0' && c <= '9'):
		raw, integer, err := s.Number()
		if err != nil {
			return dst, err
		}
		if integer {
			if n, err := strconv.ParseInt(string(raw), 10, 64); err == nil {
				return strconv.AppendInt(dst, n, 10), nil
			}
			if n, err := strconv.ParseUint(string(raw), 10, 64); err == nil {
				return strconv.AppendUint(dst, n, 10), nil
			}
		}
		f, _ := strconv.ParseFloat(string(raw), 64)
		return AppendMsgspecFloat(dst, f), nil
	}
	raw, err := s.Raw() // true, false, null
	return append(dst, raw...), err
}

// truthy reports Python's bool() of a JSON value (raw, as jscan.Raw
// returns it): false for "", 0, 0.0, false, null, [] and {}.
func truthy(raw []byte) bool {
	switch string(bytes.TrimSpace(raw)) {
	case `""`, "false", "null", "[]", "{}":
		return false
	}
	if len(raw) > 0 && (raw[0] == '-' || (raw[0] >= '0' && raw[0] <= '9')) {
		f, err := strconv.ParseFloat(string(raw), 64)
		return err != nil || f != 0
	}
	if len(raw) > 1 && (raw[0] == '[' || raw[0] == '{') {
		s := jscan.New(raw)
		n := 0
		if raw[0] == '[' {
			_ = s.Array(func(int) error { n++; return s.Skip() })
		} else {
			_ = s.Object(func([]byte) error { n++; return s.Skip() })
		}
		return n > 0
	}
	return true
}
