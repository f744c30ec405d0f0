// Package jsonwire holds what the protocol packages share to write request
// bodies and read responses: the error-member and token-ID readers built on
// jscan.Scanner, and the body encoders' exact-size copies.
package jsonwire

import (
	"bytes"
	"encoding/json"

	"github.com/mlperf-go/mlperf-go/internal/slab"
	"github.com/mlperf-go/mlperf-go/protocol"
	"github.com/mlperf-go/mlperf-go/protocol/internal/jscan"
)

// TokenID is any integer type a tokenised dataset may store.
type TokenID interface {
	~int | ~int32 | ~int64 | ~uint32
}

// FieldError marks a well-formed body that lacks a field the harness
// needs.
type FieldError struct{ Msg string }

func (e *FieldError) Error() string { return e.Msg }

// Clip shortens s to n bytes for messages, marking the cut.
func Clip(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

// ErrorField reads the value of an "error" member into *srvErr: null
// clears it (duplicate keys: the last one wins), anything else becomes a
// *protocol.ServerError. A malformed value is returned as the walk's
// error.
func ErrorField(s *jscan.Scanner, srvErr *error) error {
	if isNull, err := s.Null(); isNull || err != nil {
		if err == nil {
			*srvErr = nil
		}
		return err
	}
	raw, err := s.Raw()
	if err != nil {
		return err
	}
	*srvErr = &protocol.ServerError{Message: Clip(string(raw), 300)}
	return nil
}

// WalkErr is the outcome of walking a response body or stream chunk with
// s, given the walk's own error and the server error an "error" member set
// (ErrorField). The order is the point: a malformed value, then data after
// the top-level value, then the server's error, so a body that is not
// valid JSON is reported as malformed even when it also names an error,
// the same way by every protocol.
func WalkErr(s *jscan.Scanner, walkErr, srvErr error) error {
	if walkErr == nil {
		walkErr = s.End()
	}
	if walkErr == nil {
		walkErr = srvErr
	}
	return walkErr
}

// ReplaceTokenIDs reads a token-ID member's value into dst[base:] as
// int32 little-endian words, replacing what an earlier member of the same
// name put there (duplicate keys: the last one wins, as in encoding/json).
// A null value reads as no IDs at all: have is false.
func ReplaceTokenIDs(s *jscan.Scanner, dst []byte, base int) (out []byte, n int, have bool, err error) {
	dst = dst[:base]
	if isNull, err := s.Null(); isNull || err != nil {
		return dst, 0, false, err
	}
	dst, n, err = s.AppendInt32sLE(dst)
	return dst, n, true, err
}

// MarshalNoEscape is json.Marshal without HTML escaping, as Python's
// json.dumps writes, returned without spare capacity (Exact).
func MarshalNoEscape(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return Exact(bytes.TrimSuffix(buf.Bytes(), []byte("\n"))), nil
}

// Exact returns a copy of b without spare capacity: bodies stay in memory
// while their sample is loaded (see package slab).
func Exact(b []byte) []byte { return slab.Copy(b) }

// ReadUsage reads an OpenAI usage object (or null) into p: prompt_tokens
// and completion_tokens_details.reasoning_tokens, each -1 when absent or
// null.
func ReadUsage(s *jscan.Scanner, p *protocol.Parts) error {
	p.PromptTokens, p.ReasoningTokens = -1, -1
	if isNull, err := s.Null(); isNull || err != nil {
		return err
	}
	return s.Object(func(k []byte) error {
		switch string(k) {
		case "prompt_tokens":
			return ReadCount(s, &p.PromptTokens)
		case "completion_tokens_details":
			p.ReasoningTokens = -1
			if isNull, err := s.Null(); isNull || err != nil {
				return err
			}
			return s.Object(func(k []byte) error {
				if string(k) != "reasoning_tokens" {
					return s.Skip()
				}
				return ReadCount(s, &p.ReasoningTokens)
			})
		}
		return s.Skip()
	})
}

// ReadCount reads a token count (or null, which reads as -1: not said)
// into *v.
func ReadCount(s *jscan.Scanner, v *int64) error {
	*v = -1
	if isNull, err := s.Null(); isNull || err != nil {
		return err
	}
	n, err := s.Int64()
	if err == nil {
		*v = n
	}
	return err
}

// UsageParts reads the Parts of an answer or event whose only report is
// a top-level usage object (ReadUsage), as OpenAI's completions and
// transcriptions write it.
func UsageParts(data []byte) protocol.Parts { return PartsUnder(data, "usage", ReadUsage) }

// PartsUnder reads the Parts of data from the value of its top-level key
// with read; the rest is not said.
func PartsUnder(data []byte, key string, read func(*jscan.Scanner, *protocol.Parts) error) protocol.Parts {
	p := protocol.NoParts
	s := jscan.New(data)
	_ = s.Object(func(k []byte) error {
		if string(k) != key {
			return s.Skip()
		}
		return read(&s, &p)
	})
	return p
}
