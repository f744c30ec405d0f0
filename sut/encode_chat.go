package sut

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"sync"

	"github.com/mlperf-go/mlperf-go/internal/jsonenc"
	"github.com/openai/openai-go"
	"github.com/openai/openai-go/packages/param"
)

// A direct encoder for chat requests. openai-go marshals its params
// through nested MarshalJSON calls, and encoding/json re-validates and
// re-compacts each level's output, so a 60 KB base64 image is scanned
// byte by byte a dozen times. This walks the message unions the harness
// builds (system and user messages whose content is a string or text and
// image_url parts) and writes the JSON once. Anything else - other roles,
// names, extra fields, overrides, image detail - is marshalled by
// openai-go, message by message, so the output is always what the
// generic path produces.
//
// The bytes are those of json.Marshal(openai.ChatCompletionNewParams):
// the same member order and number formats, and encoding/json's string
// escaping with HTML escaping on (json.Marshal applies it to the whole
// body). The one difference: openai-go adds the extra top-level fields
// (top_k, min_p, repetition_penalty, response_format, stream) in map
// order, which varies from call to call; here they come sorted by key,
// so a sample's body is the same on every run.

// chatScratch holds bodies while they are written; the result is copied
// into a slice of exactly its size (bodies live as long as their sample is
// loaded, so spare capacity would be resident memory).
var chatScratch = sync.Pool{New: func() any { return new([]byte) }}

// encodeChatDirect is EncodeChat's implementation: appendChatDirect into
// scratch space, then an exact copy.
func encodeChatDirect(model string, messages []openai.ChatCompletionMessageParamUnion, responseFormat json.RawMessage, p ChatParams, stream bool) ([]byte, error) {
	sp := chatScratch.Get().(*[]byte)
	defer chatScratch.Put(sp)
	b, err := appendChatDirect((*sp)[:0], model, messages, responseFormat, p, stream)
	if err != nil {
		return nil, err
	}
	*sp = b
	return exact(b), nil
}

// appendChatDirect is AppendChat's implementation.
func appendChatDirect(dst []byte, model string, messages []openai.ChatCompletionMessageParamUnion, responseFormat json.RawMessage, p ChatParams, stream bool) ([]byte, error) {
	var rf []byte
	if responseFormat != nil {
		var err error
		if rf, err = compactResponseFormat(responseFormat); err != nil {
			return nil, err
		}
	}
	b := append(dst, `{"messages":[`...)
	for i := range messages {
		if i > 0 {
			b = append(b, ',')
		}
		var ok bool
		if b, ok = appendMessage(b, &messages[i]); !ok {
			m, err := json.Marshal(messages[i])
			if err != nil {
				return nil, fmt.Errorf("chat request: %w", err)
			}
			b = append(b, m...)
		}
	}
	b = append(b, ']')
	if model != "" {
		b = append(b, `,"model":`...)
		b = jsonenc.AppendString(b, model)
	}
	var err error
	std := func(key string, v *float64) {
		if v != nil && err == nil {
			b = append(b, ',', '"')
			b = append(b, key...)
			b = append(b, '"', ':')
			b, err = appendJSONFloat(b, *v, key)
		}
	}
	stdInt := func(key string, v int64) {
		b = append(b, ',', '"')
		b = append(b, key...)
		b = append(b, '"', ':')
		b = strconv.AppendInt(b, v, 10)
	}
	// ChatCompletionNewParams field order.
	std("frequency_penalty", p.FrequencyPenalty)
	if p.MaxCompletionTokens != nil {
		stdInt("max_completion_tokens", int64(*p.MaxCompletionTokens))
	}
	if p.MaxTokens != nil {
		stdInt("max_tokens", int64(*p.MaxTokens))
	}
	std("presence_penalty", p.PresencePenalty)
	if p.Seed != nil {
		stdInt("seed", *p.Seed)
	}
	std("temperature", p.Temperature)
	std("top_p", p.TopP)
	if stream {
		b = append(b, `,"stream_options":{"include_usage":true}`...)
	}
	// Extra fields, sorted by key; sjson writes their floats with
	// strconv 'f' formatting.
	extra := func(key string, v *float64) {
		if v != nil && err == nil {
			if math.IsNaN(*v) || math.IsInf(*v, 0) {
				err = fmt.Errorf("chat request: %s is %v, not a JSON number", key, *v)
				return
			}
			b = append(b, ',', '"')
			b = append(b, key...)
			b = append(b, '"', ':')
			b = strconv.AppendFloat(b, *v, 'f', -1, 64)
		}
	}
	extra("min_p", p.MinP)
	extra("repetition_penalty", p.RepetitionPenalty)
	if rf != nil {
		b = append(b, `,"response_format":`...)
		b = append(b, rf...)
	}
	if stream {
		b = append(b, `,"stream":true`...)
	}
	if p.TopK != nil {
		stdInt("top_k", int64(*p.TopK))
	}
	b = append(b, '}')
	if err != nil {
		return nil, err
	}
	return b, nil
}

// rfCache keeps the last response_format compacted: every sample of a
// run sends the same one.
var rfCache struct {
	sync.Mutex
	raw, out []byte
}

// compactResponseFormat returns response_format as json.Marshal writes a
// json.RawMessage: compacted, HTML-escaped.
func compactResponseFormat(raw json.RawMessage) ([]byte, error) {
	rfCache.Lock()
	defer rfCache.Unlock()
	if rfCache.out != nil && bytes.Equal(raw, rfCache.raw) {
		return rfCache.out, nil
	}
	var c bytes.Buffer
	if err := json.Compact(&c, raw); err != nil {
		return nil, fmt.Errorf("chat request: response_format is not valid JSON: %w", err)
	}
	var h bytes.Buffer
	json.HTMLEscape(&h, c.Bytes())
	rfCache.raw = append(rfCache.raw[:0], raw...)
	rfCache.out = h.Bytes()
	return rfCache.out, nil
}

// paramMeta is the metadata every openai-go param struct and union embeds.
type paramMeta interface {
	ExtraFields() map[string]any
	Overrides() (any, bool)
}

// plain reports a param value without extra fields, override or null.
func plain(m paramMeta) bool {
	_, over := m.Overrides()
	return !over && len(m.ExtraFields()) == 0
}

// appendMessage appends a system or user message it knows; false means
// the caller must marshal it generically (nothing was appended then).
func appendMessage(b []byte, m *openai.ChatCompletionMessageParamUnion) ([]byte, bool) {
	if !plain(m) {
		return b, false
	}
	n := 0
	for _, set := range []bool{m.OfDeveloper != nil, m.OfSystem != nil, m.OfUser != nil, m.OfAssistant != nil, m.OfTool != nil, m.OfFunction != nil} {
		if set {
			n++
		}
	}
	if n != 1 {
		return b, false
	}
	start := len(b)
	ok := false
	switch {
	case m.OfSystem != nil:
		s := m.OfSystem
		if !plain(s) || !plain(&s.Content) || !param.IsOmitted(s.Name) || (s.Role != "" && s.Role != s.Role.Default()) {
			return b, false
		}
		b = append(b, `{"content":`...)
		switch {
		case s.Content.OfString.Valid() && s.Content.OfArrayOfContentParts == nil:
			b = jsonenc.AppendString(b, s.Content.OfString.Value)
			ok = true
		case param.IsOmitted(s.Content.OfString) && s.Content.OfArrayOfContentParts != nil:
			b = append(b, '[')
			ok = true
			for i := range s.Content.OfArrayOfContentParts {
				if i > 0 {
					b = append(b, ',')
				}
				if b, ok = appendTextPart(b, &s.Content.OfArrayOfContentParts[i]); !ok {
					break
				}
			}
			b = append(b, ']')
		}
		b = append(b, `,"role":"system"}`...)
	case m.OfUser != nil:
		u := m.OfUser
		if !plain(u) || !plain(&u.Content) || !param.IsOmitted(u.Name) || (u.Role != "" && u.Role != u.Role.Default()) {
			return b, false
		}
		b = append(b, `{"content":`...)
		switch {
		case u.Content.OfString.Valid() && u.Content.OfArrayOfContentParts == nil:
			b = jsonenc.AppendString(b, u.Content.OfString.Value)
			ok = true
		case param.IsOmitted(u.Content.OfString) && u.Content.OfArrayOfContentParts != nil:
			b = append(b, '[')
			ok = true
			for i := range u.Content.OfArrayOfContentParts {
				if i > 0 {
					b = append(b, ',')
				}
				if b, ok = appendPart(b, &u.Content.OfArrayOfContentParts[i]); !ok {
					break
				}
			}
			b = append(b, ']')
		}
		b = append(b, `,"role":"user"}`...)
	}
	if !ok {
		return b[:start], false
	}
	return b, true
}

// appendPart appends a user content part: text or image_url.
func appendPart(b []byte, p *openai.ChatCompletionContentPartUnionParam) ([]byte, bool) {
	if !plain(p) || p.OfInputAudio != nil || p.OfFile != nil || (p.OfText != nil) == (p.OfImageURL != nil) {
		return b, false
	}
	if p.OfText != nil {
		return appendTextPart(b, p.OfText)
	}
	im := p.OfImageURL
	// An empty URL makes image_url a zero struct, which openai-go omits.
	if !plain(im) || !plain(&im.ImageURL) || im.ImageURL.URL == "" || im.ImageURL.Detail != "" || (im.Type != "" && im.Type != im.Type.Default()) {
		return b, false
	}
	b = append(b, `{"image_url":{"url":`...)
	b = jsonenc.AppendString(b, im.ImageURL.URL)
	return append(b, `},"type":"image_url"}`...), true
}

// appendTextPart appends a text content part.
func appendTextPart(b []byte, t *openai.ChatCompletionContentPartTextParam) ([]byte, bool) {
	if !plain(t) || (t.Type != "" && t.Type != t.Type.Default()) {
		return b, false
	}
	b = append(b, `{"text":`...)
	b = jsonenc.AppendString(b, t.Text)
	return append(b, `,"type":"text"}`...), true
}

// appendJSONFloat formats a float as encoding/json does.
func appendJSONFloat(b []byte, f float64, key string) ([]byte, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return b, fmt.Errorf("chat request: %s is %v, not a JSON number", key, f)
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		// clean up e-09 to e-9
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b, nil
}
