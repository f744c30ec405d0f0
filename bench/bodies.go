package bench

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/mlperf-go/mlperf-go/protocol"
	"github.com/mlperf-go/mlperf-go/protocol/openaichat"
)

// store holds each request's body, by request index, for the pool
// (sut.PrefixedBodies and sut.HeaderBodies). A conversation's turns share
// its first messages as their prefix, kept once. Entries are written by
// the driver before the request is issued and never change after, so the
// pool's workers read them without a lock (the pool's queue orders the
// write before the read).
type store struct {
	entries []entry
	header  string
}

type entry struct {
	prefix, rest []byte
	session      string
}

func (s *store) Body(i int) []byte {
	e := &s.entries[i]
	if e.prefix == nil {
		return e.rest
	}
	return append(append(make([]byte, 0, len(e.prefix)+len(e.rest)), e.prefix...), e.rest...)
}

func (s *store) Parts(i int) ([]byte, []byte) { e := &s.entries[i]; return e.prefix, e.rest }

func (s *store) Header(i int) (string, string) {
	if s.header == "" {
		return "", ""
	}
	return s.header, s.entries[i].session
}

// builder writes chat bodies: a turn's body is its conversation's prefix
// (`{"messages":[` and the first turn's messages), the history since, the
// turn's own messages, and the tail (`]`, tools, model, parameters) that
// openaichat.AppendRaw writes.
type builder struct {
	api      protocol.Protocol
	model    string
	sampling json.RawMessage
	exact    bool
	stream   bool

	mu    sync.Mutex
	tails map[tailKey][]byte
}

type tailKey struct {
	maxTokens int
	tools     string
}

// params returns the sampling parameters of a turn with maxTokens output
// tokens: the workload's sampling, then the output length (with
// ignore_eos and the minimum length when exact).
func (b *builder) params(maxTokens int) (protocol.Params, error) {
	p := b.api.DefaultParams()
	if b.sampling != nil {
		if err := protocol.DecodeGenerationConfig(b.sampling, p); err != nil {
			return nil, fmt.Errorf("sampling parameters: %w", err)
		}
	}
	if maxTokens > 0 {
		if err := protocol.SetOutputLength(p, maxTokens, b.exact); err != nil {
			return nil, fmt.Errorf("output length: %w", err)
		}
	}
	return p, nil
}

// tail returns what follows a body's messages.
func (b *builder) tail(maxTokens int, tools json.RawMessage) ([]byte, error) {
	k := tailKey{maxTokens, string(tools)}
	b.mu.Lock()
	defer b.mu.Unlock()
	if t, ok := b.tails[k]; ok {
		return t, nil
	}
	p, err := b.params(maxTokens)
	if err != nil {
		return nil, err
	}
	full, err := openaichat.AppendRaw(nil, b.model, []json.RawMessage{json.RawMessage(`{}`)}, tools, p, b.stream)
	if err != nil {
		return nil, err
	}
	t, ok := bytes.CutPrefix(full, []byte(`{"messages":[{}`))
	if !ok {
		return nil, fmt.Errorf("internal error: unexpected chat body layout %.40q", full)
	}
	if b.tails == nil {
		b.tails = map[tailKey][]byte{}
	}
	b.tails[k] = t
	return t, nil
}

// joinMessages appends msgs to dst, each preceded by a comma unless dst
// ends with the opening bracket.
func joinMessages(dst []byte, msgs []json.RawMessage) []byte {
	for _, m := range msgs {
		if n := len(dst); n > 0 && dst[n-1] != '[' {
			dst = append(dst, ',')
		}
		dst = append(dst, m...)
	}
	return dst
}

// firstBody is the prefix and rest of a conversation's first turn.
func (b *builder) firstBody(c *Conversation) (prefix, rest []byte, err error) {
	t := &c.Turns[0]
	if t.Body != nil {
		return nil, t.Body, nil
	}
	tail, err := b.tail(t.MaxTokens, c.Tools)
	if err != nil {
		return nil, nil, err
	}
	return joinMessages([]byte(`{"messages":[`), t.Messages), tail, nil
}

// laterBody is the rest of turn k > 0 after the conversation's prefix:
// hist holds the messages between the first turn's and turn k's own.
func (b *builder) laterBody(c *Conversation, k int, hist []byte) ([]byte, error) {
	t := &c.Turns[k]
	tail, err := b.tail(t.MaxTokens, c.Tools)
	if err != nil {
		return nil, err
	}
	rest := make([]byte, 0, len(hist)+len(tail)+256)
	rest = append(rest, hist...)
	for _, m := range t.Messages {
		rest = append(append(rest, ','), m...)
	}
	return append(rest, tail...), nil
}
