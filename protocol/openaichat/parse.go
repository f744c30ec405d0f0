package openaichat

import (
	"fmt"

	"github.com/mlperf-go/mlperf-go/protocol"
	"github.com/mlperf-go/mlperf-go/protocol/internal/jscan"
	"github.com/mlperf-go/mlperf-go/protocol/internal/jsonwire"
)

// The parsers walk the whole body once with a jscan.Scanner (so malformed
// JSON is always an error), decode only the fields the harness reports,
// and append the LoadGen payload to a caller-owned buffer.

// parseResponse decodes a non-streamed chat completion (vLLM/OpenAI
// /v1/chat/completions). It appends choices[0].message.content (UTF-8;
// null or absent reads as empty, as task.py does) to dst and returns
// usage.completion_tokens, which must be present: task.py's
// int(response.usage.completion_tokens) raises without it, failing the
// sample. Duplicate keys resolve as in encoding/json (the last wins).
func parseResponse(dst, body []byte) ([]byte, int64, error) {
	s := jscan.New(body)
	base := len(dst)
	var tokens int64
	haveChoice, haveUsage := false, false
	var finish []byte
	var srvErr error
	err := s.Object(func(k []byte) error {
		switch string(k) {
		case "choices":
			dst, haveChoice, finish = dst[:base], false, nil
			return s.Array(func(idx int) error {
				if idx != 0 {
					return s.Skip()
				}
				haveChoice = true
				return s.Object(func(k []byte) error {
					if string(k) == "finish_reason" {
						return finishReason(&s, &finish)
					}
					if string(k) != "message" {
						return s.Skip()
					}
					dst = dst[:base]
					return content(&s, &dst, base)
				})
			})
		case "usage":
			haveUsage = false
			return completionTokens(&s, &tokens, &haveUsage)
		case "error":
			return jsonwire.ErrorField(&s, &srvErr)
		}
		return s.Skip()
	})
	switch err = jsonwire.WalkErr(&s, err, srvErr); {
	case err != nil:
		return dst, 0, err
	case protocol.FinishFailed(string(finish)):
		return dst, 0, protocol.FinishError(string(finish), fmt.Sprintf("%d bytes of content", len(dst)-base))
	case !haveChoice:
		return dst, 0, &jsonwire.FieldError{Msg: "chat response has no choices[0]"}
	case !haveUsage:
		return dst, 0, &jsonwire.FieldError{Msg: "chat response has no usage.completion_tokens"}
	}
	return dst, tokens, nil
}

// content reads a message (or a stream's delta) object and puts its
// content string in (*dst)[base:]: a later content member replaces an
// earlier one (duplicate keys: the last wins), and null leaves nothing.
// A whole answer's message and a chunk's delta carry the text the same way.
func content(s *jscan.Scanner, dst *[]byte, base int) error {
	return s.Object(func(k []byte) error {
		if string(k) != "content" {
			return s.Skip()
		}
		*dst = (*dst)[:base]
		return appendStrOrNull(s, dst)
	})
}

// appendStrOrNull appends a string value to *dst; null appends nothing.
func appendStrOrNull(s *jscan.Scanner, dst *[]byte) error {
	if isNull, err := s.Null(); isNull || err != nil {
		return err
	}
	raw, esc, err := s.Str()
	if err != nil {
		return err
	}
	*dst = jscan.AppendStr(*dst, raw, esc)
	return nil
}

// finishReason reads a finish_reason value: a string (decoded into *dst)
// or null (which leaves *dst empty).
func finishReason(s *jscan.Scanner, dst *[]byte) error {
	*dst = (*dst)[:0]
	return appendStrOrNull(s, dst)
}

// completionTokens reads a usage object (or null) and its
// completion_tokens.
func completionTokens(s *jscan.Scanner, tokens *int64, have *bool) error {
	if isNull, err := s.Null(); isNull || err != nil {
		return err
	}
	return s.Object(func(k []byte) error {
		if string(k) != "completion_tokens" {
			return s.Skip()
		}
		*have = false
		if isNull, err := s.Null(); isNull || err != nil {
			return err
		}
		v, err := s.Int64()
		*tokens, *have = v, err == nil
		return err
	})
}

// chunk is what one streamed chat chunk carries.
type chunk struct {
	hasUsage bool
	tokens   int64  // usage.completion_tokens when hasUsage
	finish   []byte // choices[0].finish_reason; empty when null or absent
}

// parseChunk decodes one chat.completion.chunk. The content delta of
// choices[0] is appended to dst (task.py: choices[0].delta.content; absent
// or null appends nothing); the usage chunk (choices empty) sets tokens.
func parseChunk(dst, data []byte) ([]byte, chunk, error) {
	s := jscan.New(data)
	base := len(dst)
	var c chunk
	var srvErr error
	err := s.Object(func(k []byte) error {
		switch string(k) {
		case "choices":
			dst, c.finish = dst[:base], c.finish[:0]
			if isNull, err := s.Null(); isNull || err != nil {
				return err
			}
			return s.Array(func(idx int) error {
				if idx != 0 {
					return s.Skip()
				}
				return s.Object(func(k []byte) error {
					if string(k) == "finish_reason" {
						return finishReason(&s, &c.finish)
					}
					if string(k) != "delta" {
						return s.Skip()
					}
					dst = dst[:base]
					if isNull, err := s.Null(); isNull || err != nil {
						return err
					}
					return content(&s, &dst, base)
				})
			})
		case "usage":
			c.hasUsage = false
			return completionTokens(&s, &c.tokens, &c.hasUsage)
		case "error":
			return jsonwire.ErrorField(&s, &srvErr)
		}
		return s.Skip()
	})
	err = jsonwire.WalkErr(&s, err, srvErr)
	return dst, c, err
}

// stream accumulates a streamed chat response as task.py does: the first
// non-empty content delta is the first token (reported with n_tokens 1);
// the final usage chunk gives the token count.
type stream struct {
	tokens    int64
	firstSeen bool
	events    int
	bytes     int    // content bytes so far
	finish    []byte // the last finish_reason seen
	hasUsage  bool
}

func (st *stream) Reset() { *st = stream{finish: st.finish[:0]} }

func (st *stream) Tokens() int64 { return st.tokens }

func (st *stream) Next(out, data []byte) ([]byte, protocol.Event, error) {
	before := len(out)
	st.events++
	out, c, err := parseChunk(out, data)
	if err != nil {
		return out[:before], protocol.Event{}, err
	}
	if c.hasUsage {
		st.tokens, st.hasUsage = c.tokens, true
	}
	st.bytes += len(out) - before
	if err := protocol.NoteFinish(&st.finish, c.finish, st.seen); err != nil {
		return out, protocol.Event{}, err
	}
	var ev protocol.Event
	if !st.firstSeen && len(out) > before {
		st.firstSeen = true
		ev = protocol.Event{First: true, FirstData: out[before:], FirstTokens: 1}
	}
	return out, ev, nil
}

// End accepts a stream that ended with [DONE], and, as OpenAI's client
// does (it simply reads to the end of the body), one that ended without it
// after its finish_reason and usage chunk.
func (st *stream) End(done bool) error {
	if done || (len(st.finish) > 0 && st.hasUsage) {
		return nil
	}
	what := "no finish_reason"
	if len(st.finish) > 0 {
		what = fmt.Sprintf("finish_reason %q but no usage chunk", st.finish)
	}
	return fmt.Errorf("%w: no data: [DONE] and %s, after %s", protocol.ErrTruncated, what, st.seen())
}

// seen says how far the stream got, for messages.
func (st *stream) seen() string {
	return fmt.Sprintf("%d events and %d bytes of content", st.events, st.bytes)
}
