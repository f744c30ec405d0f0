package fakeendpoint

import (
	"bytes"
	"errors"
	"strconv"

	"github.com/mlperf-go/mlperf-go/internal/jscan"
)

// scanChat decodes a chat request body into req in one pass with
// jscan, exactly as json.Unmarshal(body, req) decodes it into the
// chatRequest types (with chatContent.UnmarshalJSON) whenever
// json.Unmarshal succeeds, and fails whenever it fails. The qwen3-vl
// bodies are ~64 KB, nearly all a base64 image data URL: encoding/json
// validated the whole body, then skipped through it again, then
// chatContent re-validated and re-decoded each parts array (~600 µs a
// request, the fake's whole budget at 1,500 req/s). Here the image is one
// SWAR string scan and is never copied.
//
// Matching encoding/json, down to what a client can see:
//   - keys select fields exactly or else case-insensitively with Unicode
//     folding (bytes.EqualFold), so "Messages" is messages;
//   - duplicate keys: the last wins, and a null leaves a string or bool
//     field as it was but clears a pointer or slice;
//   - a repeated messages array decodes into the existing elements
//     (merging with them) and truncates, as encoding/json reuses a slice;
//     an empty one leaves a fresh empty slice;
//   - a repeated content appends to the text and image count it already
//     has (chatContent.UnmarshalJSON's +=), a string content replaces the
//     text only;
//   - numbers for the token limits must be integers in int's range.
//
// The error carries no message a client sees: parseChat asks
// encoding/json for its words on the (cold) rejection path.
// FuzzParseChat checks all of this against encoding/json.
func scanChat(body []byte, req *chatRequest) error {
	s := jscan.New(body)
	if isNull, err := s.Null(); err != nil || isNull {
		if err == nil {
			err = s.End()
		}
		return err // null decodes to the zero request
	}
	err := s.Object(func(k []byte) error {
		switch matchField(k, chatRequestFields) {
		case 0:
			return scanString(&s, &req.Model)
		case 1:
			return scanMessages(&s, &req.Messages)
		case 2:
			return scanIntPtr(&s, &req.MaxTokens)
		case 3:
			return scanIntPtr(&s, &req.MaxCompletionTokens)
		case 4:
			return scanBool(&s, &req.Stream)
		case 5:
			return scanStreamOptions(&s, &req.StreamOptions)
		}
		return s.Skip()
	})
	if err != nil {
		return err
	}
	return s.End()
}

// The JSON names of chatRequest, chatMessage, streamOptions and the
// content-part struct fields, in the order the scanners switch on.
var (
	chatRequestFields   = []string{"model", "messages", "max_tokens", "max_completion_tokens", "stream", "stream_options"}
	chatMessageFields   = []string{"role", "content"}
	streamOptionsFields = []string{"include_usage", "continuous_usage_stats"}
	contentPartFields   = []string{"type", "text"}
)

// matchField returns the index of the field an object key selects, or -1,
// the way encoding/json picks a struct field: an exact match first, else
// one equal under Unicode case folding (bytes.EqualFold, so "Model" and
// even "\u212a"-for-"k" spellings select a field).
func matchField(key []byte, names []string) int {
	for i, n := range names {
		if string(key) == n {
			return i
		}
	}
	for i, n := range names {
		if bytes.EqualFold(key, []byte(n)) {
			return i
		}
	}
	return -1
}

// errChatType marks a value of the wrong JSON type for its field; the
// client sees encoding/json's message for it instead.
var errChatType = errors.New("chat request value of the wrong type")

// scanString decodes a string into *dst; null leaves it unchanged.
func scanString(s *jscan.Scanner, dst *string) error {
	switch s.Peek() {
	case 'n':
		_, err := s.Null()
		return err
	case '"':
		raw, esc, err := s.Str()
		if err == nil {
			*dst = jscan.DecodeString(raw, esc)
		}
		return err
	}
	return typeError(s)
}

// scanBool decodes a boolean into *dst; null leaves it unchanged.
func scanBool(s *jscan.Scanner, dst *bool) error {
	switch s.Peek() {
	case 'n':
		_, err := s.Null()
		return err
	case 't', 'f':
		v, err := s.Bool()
		*dst = v
		return err
	}
	return typeError(s)
}

// scanIntPtr decodes an integer into **dst (allocating it if nil); null
// sets *dst to nil.
func scanIntPtr(s *jscan.Scanner, dst **int) error {
	switch c := s.Peek(); {
	case c == 'n':
		*dst = nil
		_, err := s.Null()
		return err
	case c == '-' || ('0' <= c && c <= '9'):
		raw, _, err := s.Number()
		if err != nil {
			return err
		}
		// encoding/json's rule for an int field: strconv.ParseInt of the
		// literal (so no fraction or exponent), within int's range.
		v, err := strconv.ParseInt(string(raw), 10, strconv.IntSize)
		if err != nil {
			return errChatType
		}
		if *dst == nil {
			*dst = new(int)
		}
		**dst = int(v)
		return nil
	}
	return typeError(s)
}

// scanStreamOptions decodes an object into **dst (allocating it if nil,
// merging into it if not); null sets *dst to nil.
func scanStreamOptions(s *jscan.Scanner, dst **streamOptions) error {
	switch s.Peek() {
	case 'n':
		*dst = nil
		_, err := s.Null()
		return err
	case '{':
		if *dst == nil {
			*dst = new(streamOptions)
		}
		o := *dst
		return s.Object(func(k []byte) error {
			switch matchField(k, streamOptionsFields) {
			case 0:
				return scanBool(s, &o.IncludeUsage)
			case 1:
				return scanBool(s, &o.ContinuousUsageStats)
			}
			return s.Skip()
		})
	}
	return typeError(s)
}

// scanMessages decodes the messages array into *dst as encoding/json
// decodes into a slice: element i decodes into the existing element when
// there is one (within the length, or within the capacity left by an
// earlier, longer array), the slice is truncated to the elements read, an
// empty array leaves a new empty slice and null a nil one.
func scanMessages(s *jscan.Scanner, dst *[]chatMessage) error {
	switch s.Peek() {
	case 'n':
		*dst = nil
		_, err := s.Null()
		return err
	case '[':
	default:
		return typeError(s)
	}
	msgs := *dst
	n := 0
	err := s.Array(func(i int) error {
		switch {
		case i >= cap(msgs):
			msgs = append(msgs, chatMessage{})
		case i >= len(msgs):
			msgs = msgs[:i+1]
		}
		n = i + 1
		return scanMessage(s, &msgs[i])
	})
	// Keep what was decoded even on error, as encoding/json does (the
	// request is rejected either way).
	switch {
	case n == 0:
		msgs = []chatMessage{}
	case n < len(msgs):
		msgs = msgs[:n]
	}
	*dst = msgs
	return err
}

// scanMessage decodes one message object into *m (null leaves it as it is).
func scanMessage(s *jscan.Scanner, m *chatMessage) error {
	switch s.Peek() {
	case 'n':
		_, err := s.Null()
		return err
	case '{':
		return s.Object(func(k []byte) error {
			switch matchField(k, chatMessageFields) {
			case 0:
				return scanString(s, &m.Role)
			case 1:
				return scanContent(s, &m.Content)
			}
			return s.Skip()
		})
	}
	return typeError(s)
}

// contentMemo remembers the last long string content (a system prompt: the
// same in every request of a run) for scanContent. It is shared by every
// Server in the process: what it returns is exactly what scanning gives.
var contentMemo jscan.StrMemo

// scanContent does what chatContent.UnmarshalJSON does: null changes
// nothing, a string replaces the text, a list of parts appends its text
// parts to the text and counts its image parts; anything else is an
// error. Part fields other than type and text (the image data URL) are
// skipped without being decoded or copied.
func scanContent(s *jscan.Scanner, c *chatContent) error {
	switch s.Peek() {
	case 'n':
		_, err := s.Null()
		return err
	case '"':
		text, err := s.DecodeStrMemo(&contentMemo)
		if err == nil {
			c.text = text
		}
		return err
	case '[':
	default:
		return typeError(s)
	}
	return s.Array(func(int) error {
		if isNull, err := s.Null(); err != nil || isNull {
			return err // a zero part: neither text nor image
		}
		if s.Peek() != '{' {
			return typeError(s)
		}
		// The last type and text members win; text may come first (openai-go
		// writes it first), so it is kept raw until the type is known.
		var typ, text []byte
		var typEsc, textEsc bool
		err := s.Object(func(k []byte) error {
			switch matchField(k, contentPartFields) {
			case 0:
				return scanRawString(s, &typ, &typEsc)
			case 1:
				return scanRawString(s, &text, &textEsc)
			}
			return s.Skip()
		})
		if err != nil {
			return err
		}
		if typEsc {
			typ = jscan.AppendStr(nil, typ, true)
		}
		switch string(typ) {
		case "text":
			c.text += jscan.DecodeString(text, textEsc)
		case "image_url", "image", "input_image":
			c.images++
		}
		return nil
	})
}

// scanRawString reads a string's raw contents into *raw and *esc; null
// leaves them as they were.
func scanRawString(s *jscan.Scanner, raw *[]byte, esc *bool) error {
	switch s.Peek() {
	case 'n':
		_, err := s.Null()
		return err
	case '"':
		r, e, err := s.Str()
		if err == nil {
			*raw, *esc = r, e
		}
		return err
	}
	return typeError(s)
}

// typeError rejects a value of the wrong type for its field. The walk
// stops there: the request is rejected whatever follows, and the message
// the client sees is encoding/json's (a syntax error anywhere in the body,
// else the first type error).
func typeError(*jscan.Scanner) error { return errChatType }
