package openaiaudio

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/mlperf-go/mlperf-go/protocol"
	"github.com/mlperf-go/mlperf-go/protocol/internal/jscan"
	"github.com/mlperf-go/mlperf-go/protocol/internal/jsonwire"
)

// errNoUsage is the message for an answer without a token count.
const errNoUsage = "the transcription answer has no usage.completion_tokens, which LoadGen's tokens/s needs: " +
	"the request asks for stream=true and stream_include_usage=true, which vLLM's /v1/audio/transcriptions answers with a final usage chunk; use a server that does"

// decodeBody decodes a whole response: a complete event stream (what the
// requests ask for) or, from a server that ignored stream, a JSON object,
// which is an error unless its usage names completion_tokens.
func decodeBody(out, body []byte) ([]byte, int64, error) {
	if t := bytes.TrimLeft(body, " \t\r\n"); len(t) > 0 && t[0] == '{' {
		return decodeJSON(out, body)
	}
	var sse protocol.SSEReader
	sse.Reset(bufio.NewReader(bytes.NewReader(body)), 0)
	st := &stream{}
	base, done := len(out), false
	for {
		data, err := sse.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return out[:base], 0, err
		}
		if bytes.Equal(data, protocol.Done) {
			done = true
			break
		}
		if out, _, err = st.Next(out, data); err != nil {
			return out[:base], 0, err
		}
	}
	if st.events == 0 {
		return out[:base], 0, errors.New("transcription response is neither a JSON object nor server-sent events")
	}
	if err := st.End(done); err != nil {
		return out[:base], 0, err
	}
	return out, st.Tokens(), nil
}

// decodeJSON decodes vLLM's non-streamed answer, {"text": ..., "usage":
// {...}}.
func decodeJSON(out, body []byte) ([]byte, int64, error) {
	c, err := parseChunk(body)
	switch {
	case err != nil:
		return out, 0, err
	case !c.hasText:
		return out, 0, &jsonwire.FieldError{Msg: "transcription response has no text"}
	case !c.hasUsage:
		return out, 0, &jsonwire.FieldError{Msg: errNoUsage}
	}
	return AppendLabels(out, string(c.text)), c.tokens, nil
}

// chunk is what one answer body or stream chunk carries.
type chunk struct {
	text     []byte // the JSON answer's text, or the stream chunk's delta.content
	hasText  bool
	choices  int    // the number of stream choices (0 in the usage chunk)
	finish   []byte // choices[0].finish_reason; empty when null or absent
	tokens   int64  // usage.completion_tokens
	hasUsage bool   // usage.completion_tokens was present
}

// parseChunk reads a transcription answer, JSON or one stream chunk:
// text, choices[0].delta.content, choices[0].finish_reason,
// usage.completion_tokens, and an "error" member (or vLLM's older
// "object": "error" shape) as a *protocol.ServerError.
func parseChunk(body []byte) (chunk, error) {
	s := jscan.New(body)
	var c chunk
	var srvErr error
	err := s.Object(func(k []byte) error {
		switch string(k) {
		case "text":
			return readString(&s, &c.text, &c.hasText)
		case "choices":
			return parseChoices(&s, &c)
		case "usage":
			return parseUsage(&s, &c)
		case "error":
			return jsonwire.ErrorField(&s, &srvErr)
		case "object":
			raw, esc, err := s.Str()
			if err == nil && string(jscan.AppendStr(nil, raw, esc)) == "error" {
				srvErr = &protocol.ServerError{Message: jsonwire.Clip(string(body), 300)}
			}
			return err
		}
		return s.Skip()
	})
	if err = jsonwire.WalkErr(&s, err, srvErr); err != nil {
		return chunk{}, err
	}
	return c, nil
}

// readString reads a string member (null reads as absent) into *dst.
func readString(s *jscan.Scanner, dst *[]byte, have *bool) error {
	*dst, *have = (*dst)[:0], false
	if isNull, err := s.Null(); isNull || err != nil {
		return err
	}
	raw, esc, err := s.Str()
	*dst, *have = jscan.AppendStr(*dst, raw, esc), err == nil
	return err
}

func parseChoices(s *jscan.Scanner, c *chunk) error {
	c.choices, c.text, c.hasText, c.finish = 0, c.text[:0], false, c.finish[:0]
	if isNull, err := s.Null(); isNull || err != nil {
		return err
	}
	return s.Array(func(idx int) error {
		c.choices++
		if idx != 0 {
			return s.Skip()
		}
		return s.Object(func(k []byte) error {
			switch string(k) {
			case "delta":
				if isNull, err := s.Null(); isNull || err != nil {
					return err
				}
				return s.Object(func(k []byte) error {
					if string(k) == "content" {
						return readString(s, &c.text, &c.hasText)
					}
					return s.Skip()
				})
			case "finish_reason":
				var have bool
				return readString(s, &c.finish, &have)
			}
			return s.Skip()
		})
	})
}

func parseUsage(s *jscan.Scanner, c *chunk) error {
	c.hasUsage = false
	if isNull, err := s.Null(); isNull || err != nil {
		return err
	}
	return s.Object(func(k []byte) error {
		if string(k) != "completion_tokens" {
			return s.Skip()
		}
		n, err := s.Int64()
		if err == nil && n < 0 {
			return &jsonwire.FieldError{Msg: fmt.Sprintf("usage.completion_tokens is %d", n)}
		}
		c.tokens, c.hasUsage = n, err == nil
		return err
	})
}

// stream decodes a streamed transcription: each delta's text is mapped to
// labels as it comes (labeler: the answer is the stripped, lowered text's
// labels, and it grows with the stream, so the pool's response cap holds),
// and the final usage chunk brings the token count. The first chunk with
// text is the first token event.
type stream struct {
	labels   labeler
	finish   []byte // the last finish_reason seen
	tokens   int64
	hasUsage bool
	hasText  bool
	events   int
}

func (st *stream) Reset() { *st = stream{finish: st.finish[:0]} }

func (st *stream) Tokens() int64 { return st.tokens }

func (st *stream) Next(out, data []byte) ([]byte, protocol.Event, error) {
	st.events++
	c, err := parseChunk(data)
	if err != nil {
		return out, protocol.Event{}, err
	}
	if err := protocol.NoteFinish(&st.finish, c.finish, st.seen); err != nil {
		return out, protocol.Event{}, err
	}
	var ev protocol.Event
	if c.hasText && c.choices > 0 && len(c.text) > 0 {
		before := len(out)
		out = st.labels.append(out, string(c.text))
		if !st.hasText {
			ev = protocol.Event{First: true, FirstData: out[before:], FirstTokens: 1}
		}
		st.hasText = true
	}
	if c.hasUsage {
		st.tokens, st.hasUsage = c.tokens, true
	}
	return out, ev, nil
}

// End accepts a stream that brought its usage chunk (with or without
// [DONE]); one without is an error saying what was missing.
func (st *stream) End(done bool) error {
	switch {
	case st.hasUsage:
		return nil
	case !done && len(st.finish) == 0:
		return fmt.Errorf("%w: no finish_reason and no usage chunk, after %s", protocol.ErrTruncated, st.seen())
	}
	return &jsonwire.FieldError{Msg: fmt.Sprintf("%s (no usage chunk in %s)", errNoUsage, st.seen())}
}

// seen says how far the stream got, for messages.
func (st *stream) seen() string {
	return fmt.Sprintf("%d events, %d tokens counted", st.events, st.tokens)
}
