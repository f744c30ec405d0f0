package openaichat

import (
	"bytes"

	"github.com/mlperf-go/mlperf-go/protocol"
	"github.com/mlperf-go/mlperf-go/protocol/internal/jscan"
	"github.com/mlperf-go/mlperf-go/protocol/internal/jsonwire"
)

var (
	_ protocol.PartsReader = chat{}
	_ protocol.PartsReader = chatTools{}
)

// ReadParts reads a chat answer's or chunk's content and reasoning
// (choices[0]'s message or delta: reasoning_content, else reasoning, as
// messageText keeps it) and its usage.
func (chat) ReadParts(data []byte) protocol.Parts { return readParts(data) }

// ReadParts reads as chat's ReadParts does.
func (chatTools) ReadParts(data []byte) protocol.Parts { return readParts(data) }

// The keys a chunk says its parts under: a chunk without them (most
// content deltas) is not walked, and tells its answer as its output.
var (
	reasoningKey = []byte(`"reasoning`) // and "reasoning_content"
	usageKey     = []byte(`"usage"`)
)

func readParts(data []byte) protocol.Parts {
	p := protocol.NoParts
	if bytes.IndexByte(data, '\\') < 0 && !bytes.Contains(data, reasoningKey) && !bytes.Contains(data, usageKey) {
		return p // no key can be there, even escaped
	}
	var content, rc, r int
	s := jscan.New(data)
	_ = s.Object(func(k []byte) error {
		switch string(k) {
		case "choices":
			content, rc, r = 0, 0, 0
			if isNull, err := s.Null(); isNull || err != nil {
				return err
			}
			return s.Array(func(idx int) error {
				if idx != 0 {
					return s.Skip()
				}
				return s.Object(func(k []byte) error {
					if string(k) != "delta" && string(k) != "message" {
						return s.Skip()
					}
					content, rc, r = 0, 0, 0 // a later delta or message replaces an earlier one
					if isNull, err := s.Null(); isNull || err != nil {
						return err
					}
					return s.Object(func(k []byte) error {
						switch string(k) {
						case "content":
							return strLen(&s, &content)
						case "reasoning_content":
							return strLen(&s, &rc)
						case "reasoning":
							return strLen(&s, &r)
						}
						return s.Skip()
					})
				})
			})
		case "usage":
			return jsonwire.ReadUsage(&s, &p)
		}
		return s.Skip()
	})
	p.Answer, p.Reasoning = content, r
	if rc > 0 {
		p.Reasoning = rc
	}
	return p
}

// strLen reads a string (or null, 0) and sets *n to its decoded length
// (a content of parts, which a chunk never is, counts as none).
func strLen(s *jscan.Scanner, n *int) error {
	*n = 0
	if isNull, err := s.Null(); isNull || err != nil {
		return err
	}
	if s.Peek() != '"' {
		return s.Skip()
	}
	raw, esc, err := s.Str()
	if err != nil {
		return err
	}
	*n = len(raw)
	if esc {
		*n = len(jscan.AppendStr(nil, raw, esc))
	}
	return nil
}
