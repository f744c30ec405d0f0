package openaichat

import (
	"bytes"
	"errors"
	"hash/maphash"
	"unicode/utf8"

	"github.com/mlperf-go/mlperf-go/protocol"
	"github.com/mlperf-go/mlperf-go/protocol/internal/jscan"
	"github.com/mlperf-go/mlperf-go/protocol/internal/vllmwire"
)

// parseChatFast reads the usual chat request in one pass of jscan, which
// validates strings eight bytes at a time and copies none it does not
// need (an image is only hashed). It reads exactly what parseChatStd
// reads, and gives up (false) wherever encoding/json's reading is not
// plainly the same: any error (parseChatStd then words it), a key that
// matches a field only case-insensitively or one given twice (encoding/json
// folds, and reuses what an earlier value decoded), a null message or a
// content part that is not an object or null, or a request that fails
// validation.
func parseChatFast(body []byte) (*chatRequest, bool) {
	req := new(chatRequest)
	s := jscan.New(body)
	if s.Peek() != '{' {
		return nil, false
	}
	var seen keySet
	err := s.Object(func(k []byte) error {
		if !seen.first(k) {
			return errGiveUp
		}
		switch string(k) {
		case "model":
			return readString(&s, &req.Model)
		case "messages":
			return req.readMessages(&s)
		case "max_tokens":
			return readIntPtr(&s, &req.MaxTokens)
		case "max_completion_tokens":
			return readIntPtr(&s, &req.MaxCompletionTokens)
		case "min_tokens":
			return readIntPtr(&s, &req.MinTokens)
		case "stream":
			return readBool(&s, &req.Stream)
		case "ignore_eos":
			return readBool(&s, &req.IgnoreEOS)
		case "stream_options":
			return readStreamOptions(&s, &req.StreamOptions)
		}
		return skipUnknown(&s, k, chatFields)
	})
	if err != nil || s.End() != nil || req.validate() != nil {
		return nil, false
	}
	req.finish()
	return req, true
}

// errGiveUp ends a fast walk that must be left to encoding/json.
var errGiveUp = errors.New("left to encoding/json")

// The fields each object has, as encoding/json matches them. A field
// listed here that the fast walk does not read (tools, tool_choice: a
// function-calling request, toolserve.go) leaves the request to
// encoding/json.
var (
	chatFields    = []string{"model", "messages", "max_tokens", "max_completion_tokens", "min_tokens", "ignore_eos", "stream", "stream_options", "tools", "tool_choice"}
	messageFields = []string{"role", "content"}
	optionFields  = []string{"include_usage", "continuous_usage_stats"}
	partFields    = []string{"type", "text", "image_url"}
	imageFields   = []string{"url"}
)

// keySet notices a key given twice in one object.
type keySet struct{ keys [][]byte }

func (k *keySet) first(key []byte) bool {
	for _, s := range k.keys {
		if bytes.Equal(s, key) {
			return false
		}
	}
	k.keys = append(k.keys, key)
	return true
}

// skipUnknown skips the value of a key that is none of fields, giving up
// when encoding/json could match it to one of them case-insensitively
// (non-ASCII keys included: its folding knows the Kelvin sign and the long
// s).
func skipUnknown(s *jscan.Scanner, k []byte, fields []string) error {
	for _, c := range k {
		if c >= utf8.RuneSelf {
			return errGiveUp
		}
	}
	for _, f := range fields {
		if bytes.EqualFold(k, []byte(f)) {
			return errGiveUp
		}
	}
	return s.Skip()
}

// readString reads a string field (null leaves it as it is, as
// encoding/json does).
func readString(s *jscan.Scanner, dst *string) error {
	if isNull, err := s.Null(); isNull || err != nil {
		return err
	}
	raw, esc, err := s.Str()
	if err != nil {
		return err
	}
	*dst = jscan.DecodeString(raw, esc)
	return nil
}

// readIntPtr reads an *int field: null sets nil.
func readIntPtr(s *jscan.Scanner, dst **int) error {
	if isNull, err := s.Null(); isNull || err != nil {
		*dst = nil
		return err
	}
	v, err := s.Int64()
	if err != nil {
		return err
	}
	n := int(v)
	*dst = &n
	return nil
}

// readBool reads a bool field (null leaves it).
func readBool(s *jscan.Scanner, dst *bool) error {
	if isNull, err := s.Null(); isNull || err != nil {
		return err
	}
	v, err := s.Bool()
	*dst = v
	return err
}

func readStreamOptions(s *jscan.Scanner, dst **vllmwire.StreamOptions) error {
	if isNull, err := s.Null(); isNull || err != nil {
		*dst = nil
		return err
	}
	o := new(vllmwire.StreamOptions)
	*dst = o
	var seen keySet
	return s.Object(func(k []byte) error {
		if !seen.first(k) {
			return errGiveUp
		}
		switch string(k) {
		case "include_usage":
			return readBool(s, &o.IncludeUsage)
		case "continuous_usage_stats":
			return readBool(s, &o.ContinuousUsageStats)
		}
		return skipUnknown(s, k, optionFields)
	})
}

// readMessages reads the messages array into the Ask directly (the chat
// messages keep no content).
func (r *chatRequest) readMessages(s *jscan.Scanner) error {
	if isNull, err := s.Null(); isNull || err != nil {
		r.Messages = nil
		return err
	}
	r.ask.Messages = r.msgBuf[:0]
	r.Messages = r.Messages[:0]
	return s.Array(func(int) error {
		if s.Peek() != '{' {
			return errGiveUp
		}
		var m protocol.Message
		var seen keySet
		err := s.Object(func(k []byte) error {
			if !seen.first(k) {
				return errGiveUp
			}
			switch string(k) {
			case "role":
				return readString(s, &m.Role)
			case "content":
				return readContent(s, &m)
			}
			return skipUnknown(s, k, messageFields)
		})
		r.ask.Messages = append(r.ask.Messages, m)
		r.Messages = append(r.Messages, chatMessage{Role: m.Role})
		return err
	})
}

// readContent reads a message's content as contentOf reads the value
// encoding/json decodes: null, a string, or a list of parts.
func readContent(s *jscan.Scanner, m *protocol.Message) error {
	switch s.Peek() {
	case 'n':
		_, err := s.Null()
		m.Text, m.Images, m.ImageHash = "", 0, 0
		return err
	case '"':
		m.Images, m.ImageHash = 0, 0
		return readString(s, &m.Text)
	case '[':
	default:
		return errGiveUp
	}
	var text []byte
	m.Images, m.ImageHash = 0, 0
	err := s.Array(func(int) error {
		switch s.Peek() {
		case 'n':
			_, err := s.Null()
			return err
		case '{':
		default:
			return errGiveUp
		}
		var typ, txt, url []byte
		var txtEsc bool
		txtKind := byte(0)
		var seen keySet
		err := s.Object(func(k []byte) error {
			if !seen.first(k) {
				return errGiveUp
			}
			switch string(k) {
			case "type":
				if isNull, err := s.Null(); isNull || err != nil {
					return err
				}
				raw, esc, err := s.Str()
				if err != nil {
					return errGiveUp
				}
				typ = raw
				if esc {
					typ = jscan.AppendStr(nil, raw, esc)
				}
				return nil
			case "text":
				txtKind = s.Peek()
				if txtKind != '"' {
					return s.Skip()
				}
				var err error
				txt, txtEsc, err = s.Str()
				return err
			case "image_url":
				if s.Peek() != '{' {
					return s.Skip()
				}
				var seenURL keySet
				return s.Object(func(k []byte) error {
					if !seenURL.first(k) {
						return errGiveUp
					}
					if string(k) != "url" {
						return skipUnknown(s, k, imageFields)
					}
					if s.Peek() != '"' {
						url = nil
						return s.Skip()
					}
					raw, esc, err := s.Str()
					if err != nil || esc || !utf8.Valid(raw) {
						return errGiveUp // the decoded URL differs from its bytes
					}
					url = raw
					return nil
				})
			}
			return skipUnknown(s, k, partFields)
		})
		if err != nil {
			return err
		}
		switch string(typ) {
		case "text":
			switch txtKind {
			case '"':
				text = jscan.AppendStr(text, txt, txtEsc)
			case 0, 'n':
			default:
				return errGiveUp // contentOf's "text must be a string"
			}
		case "image_url", "image", "input_image":
			m.Images++
			m.ImageHash = addImageBytes(m.ImageHash, url)
		}
		return nil
	})
	m.Text = string(text)
	return err
}

// addImageBytes is addImage of a URL given as its bytes.
func addImageBytes(h uint64, url []byte) uint64 {
	v := uint64(1)
	if len(url) > 0 {
		v = maphashBytes(url) | 1
	}
	return h*0x9e3779b97f4a7c15 + v
}

func maphashBytes(b []byte) uint64 { return maphash.Bytes(imageSeed, b) }
