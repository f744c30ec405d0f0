package bench

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
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
	if enc, ok := b.textAPI(); ok {
		body, err := b.textBody(enc, c)
		return nil, body, err
	}
	tail, err := b.tail(t.MaxTokens, c.Tools)
	if err != nil {
		return nil, nil, err
	}
	return joinMessages([]byte(`{"messages":[`), t.Messages), tail, nil
}

// textAPI is the API's plain-text encoder when it takes no chat messages
// (vLLM's /v1/completions, SGLang's /generate).
func (b *builder) textAPI() (protocol.TextEncoder, bool) {
	if _, chat := b.api.(protocol.MessagesEncoder); chat {
		return nil, false
	}
	enc, ok := b.api.(protocol.TextEncoder)
	return enc, ok
}

// checkAPI says, before anything is sent, why a workload cannot go over
// the API: an API of text prompts takes one turn of text per request, so
// images, tools and later turns need a chat API.
func (b *builder) checkAPI(w *Workload) error {
	if _, ok := b.textAPI(); !ok {
		if _, chat := b.api.(protocol.MessagesEncoder); chat || w.Kind == "benchmark" {
			return nil // chat takes any workload; a benchmark's own encoder built its bodies
		}
		return fmt.Errorf("--api %s takes neither chat messages nor a text prompt: a %s workload needs openai-chat, openai-completions or sglang-generate", b.api.Name(), w.Kind)
	}
	for i := range w.Conversations {
		c := &w.Conversations[i]
		if c.Turns[0].Body != nil {
			continue
		}
		why := ""
		switch {
		case len(c.Turns) > 1:
			why = fmt.Sprintf("%d turns (--multi-turn)", len(c.Turns))
		case c.Turns[0].Images > 0:
			why = fmt.Sprintf("%d images", c.Turns[0].Images)
		case c.Tools != nil:
			why = "tools"
		default:
			if _, err := promptText(c.Turns[0].Messages); err != nil {
				return fmt.Errorf("conversation %s: %w", c.ID, err)
			}
			continue
		}
		return fmt.Errorf("--api %s sends one text prompt per request, but conversation %s has %s: use --api openai-chat for this workload", b.api.Name(), c.ID, why)
	}
	return nil
}

// textBody is a one-turn conversation's request over a text-prompt API:
// its user message's text as the prompt, as vllm bench serve sends its
// prompts over /v1/completions.
func (b *builder) textBody(enc protocol.TextEncoder, c *Conversation) ([]byte, error) {
	t := &c.Turns[0]
	text, err := promptText(t.Messages)
	if err != nil {
		return nil, err
	}
	p, err := b.params(t.MaxTokens)
	if err != nil {
		return nil, err
	}
	return enc.EncodeText(b.model, text, p, b.stream)
}

// promptText is the text of a turn made of one user message without
// images: its string content, or its text parts joined.
func promptText(msgs []json.RawMessage) (string, error) {
	if len(msgs) != 1 {
		return "", fmt.Errorf("a text prompt is one user message, not %d messages", len(msgs))
	}
	var m struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	}
	if err := json.Unmarshal(msgs[0], &m); err != nil {
		return "", fmt.Errorf("a message that is not a chat message: %w", err)
	}
	if m.Role != "user" {
		return "", fmt.Errorf("a text prompt is a user message, not a %q one", m.Role)
	}
	var s string
	if json.Unmarshal(m.Content, &s) == nil {
		return s, nil
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if err := json.Unmarshal(m.Content, &parts); err != nil {
		return "", fmt.Errorf("message content is neither text nor parts: %w", err)
	}
	var sb strings.Builder
	for _, part := range parts {
		if part.Type != "text" {
			return "", fmt.Errorf("a text prompt has text parts only, not %q", part.Type)
		}
		sb.WriteString(part.Text)
	}
	return sb.String(), nil
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
