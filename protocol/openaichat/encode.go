package openaichat

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"sync"

	"github.com/openai/openai-go"
	"github.com/openai/openai-go/packages/param"

	"github.com/mlperf-go/mlperf-go/internal/jsonenc"
	"github.com/mlperf-go/mlperf-go/protocol"
	"github.com/mlperf-go/mlperf-go/protocol/internal/jsonwire"
)

// Request encoders. Bodies are built once, when LoadGen loads a sample
// (qsl.Builder), so the hot path only writes bytes; fidelity matters most,
// but loading tens of thousands of 60 KB chat bodies must not take minutes
// (see the direct encoder below).

// Encode builds a /v1/chat/completions body the way the reference
// does (multimodal/qwen3-vl/src/mlperf_inf_mm_q3vl/task.py,
// _query_endpoint_async_batch and _query_endpoint_async_stream): model,
// messages, the set sampling parameters (top_k, min_p and
// repetition_penalty as top-level extra fields, as the reference's
// extra_body does), response_format when responseFormat is non-nil (the
// raw json_schema object guided decoding sends), and for streaming
// "stream": true with stream_options.include_usage so the final chunk
// carries usage.completion_tokens.
//
// The body is JSON-equal to json.Marshal of the openai-go request, and
// byte-equal except that the extra fields come sorted by key (openai-go
// emits them in map order); it has no spare capacity.
func Encode(model string, messages []openai.ChatCompletionMessageParamUnion, responseFormat json.RawMessage, p Params, stream bool) ([]byte, error) {
	if len(messages) == 0 { // openai-go omits a nil list; leave such oddities to it
		b, err := encodeGeneric(model, messages, responseFormat, p, stream)
		return jsonwire.Exact(b), err
	}
	return encodeDirect(model, messages, responseFormat, p, stream)
}

// Prefix returns the bytes every Encode body begins with when its
// messages are first and then a user message whose content is a list of
// parts starting with text, as the Qwen3-VL requests are, for the given
// model and parameters: the part qsl.Library.SharePrefix can keep once
// (the model and the 1.8 KB system prompt). It is found by encoding two
// such requests whose user text differs in its first byte, so it is
// exactly what Encode writes.
func Prefix(model string, first openai.ChatCompletionMessageParamUnion, responseFormat json.RawMessage, p Params, stream bool) ([]byte, error) {
	probe := func(text string) ([]byte, error) {
		return Encode(model, []openai.ChatCompletionMessageParamUnion{
			first,
			openai.UserMessage([]openai.ChatCompletionContentPartUnionParam{openai.TextContentPart(text)}),
		}, responseFormat, p, stream)
	}
	a, err := probe("a")
	if err != nil {
		return nil, err
	}
	b, err := probe("b")
	if err != nil {
		return nil, err
	}
	n := 0
	for n < min(len(a), len(b)) && a[n] == b[n] {
		n++
	}
	return a[:n:n], nil
}

// Append appends the body Encode returns to dst, for builders
// that keep one scratch buffer per worker (qsl.Library copies what it is
// given).
func Append(dst []byte, model string, messages []openai.ChatCompletionMessageParamUnion, responseFormat json.RawMessage, p Params, stream bool) ([]byte, error) {
	if len(messages) == 0 {
		b, err := encodeGeneric(model, messages, responseFormat, p, stream)
		return append(dst, b...), err
	}
	return appendDirect(dst, model, messages, responseFormat, p, stream)
}

// encodeGeneric is Encode through openai-go's marshalling: the
// reference the direct encoder is tested against.
func encodeGeneric(model string, messages []openai.ChatCompletionMessageParamUnion, responseFormat json.RawMessage, p Params, stream bool) ([]byte, error) {
	req := openai.ChatCompletionNewParams{
		Model:    model,
		Messages: messages,
	}
	if p.FrequencyPenalty != nil {
		req.FrequencyPenalty = openai.Float(*p.FrequencyPenalty)
	}
	if p.PresencePenalty != nil {
		req.PresencePenalty = openai.Float(*p.PresencePenalty)
	}
	if p.Temperature != nil {
		req.Temperature = openai.Float(*p.Temperature)
	}
	if p.TopP != nil {
		req.TopP = openai.Float(*p.TopP)
	}
	if p.MaxTokens != nil {
		req.MaxTokens = openai.Int(int64(*p.MaxTokens))
	}
	if p.MaxCompletionTokens != nil {
		req.MaxCompletionTokens = openai.Int(int64(*p.MaxCompletionTokens))
	}
	if p.Seed != nil {
		req.Seed = openai.Int(*p.Seed)
	}
	extra := map[string]any{}
	if p.TopK != nil {
		extra["top_k"] = *p.TopK
	}
	if p.MinP != nil {
		extra["min_p"] = *p.MinP
	}
	if p.RepetitionPenalty != nil {
		extra["repetition_penalty"] = *p.RepetitionPenalty
	}
	if p.IgnoreEOS != nil {
		extra["ignore_eos"] = *p.IgnoreEOS
	}
	if p.MinTokens != nil {
		extra["min_tokens"] = *p.MinTokens
	}
	if responseFormat != nil {
		if !json.Valid(responseFormat) {
			return nil, fmt.Errorf("chat request: response_format is not valid JSON")
		}
		extra["response_format"] = responseFormat
	}
	if stream {
		extra["stream"] = true
		req.StreamOptions = openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)}
	}
	if len(extra) > 0 {
		req.SetExtraFields(extra)
	}
	body, err := json.Marshal(req)
	if err != nil {
		return nil, fmt.Errorf("chat request: %w", err)
	}
	return body, nil
}

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

// encodeDirect is Encode's implementation: appendDirect into
// scratch space, then an exact copy.
func encodeDirect(model string, messages []openai.ChatCompletionMessageParamUnion, responseFormat json.RawMessage, p Params, stream bool) ([]byte, error) {
	sp := chatScratch.Get().(*[]byte)
	defer chatScratch.Put(sp)
	b, err := appendDirect((*sp)[:0], model, messages, responseFormat, p, stream)
	if err != nil {
		return nil, err
	}
	*sp = b
	return jsonwire.Exact(b), nil
}

// appendDirect is Append's implementation: the messages, the model, the
// standard sampling fields, then the extra fields, as json.Marshal of the
// openai-go request orders them.
func appendDirect(dst []byte, model string, messages []openai.ChatCompletionMessageParamUnion, responseFormat json.RawMessage, p Params, stream bool) ([]byte, error) {
	var rf []byte
	if responseFormat != nil {
		var err error
		if rf, err = compactResponseFormat(responseFormat); err != nil {
			return nil, err
		}
	}
	b, err := appendMessages(append(dst, `{"messages":[`...), messages)
	if err != nil {
		return nil, err
	}
	b = append(b, ']')
	return appendParams(b, model, rf, p, stream)
}

// appendParams appends what follows a body's messages, up to its closing
// brace: the model, the standard sampling fields, then the extra fields
// (and response_format rf, already compacted), as json.Marshal of the
// openai-go request orders them.
func appendParams(b []byte, model string, rf []byte, p Params, stream bool) ([]byte, error) {
	if model != "" {
		b = append(b, `,"model":`...)
		b = jsonenc.AppendString(b, model)
	}
	b, err := appendStandardParams(b, &p, stream)
	if err != nil {
		return nil, err
	}
	if b, err = appendExtraParams(b, &p, rf, stream); err != nil {
		return nil, err
	}
	return append(b, '}'), nil
}

// appendMessages appends the messages array's members: directly where
// appendMessage knows the message, through openai-go otherwise.
func appendMessages(b []byte, messages []openai.ChatCompletionMessageParamUnion) ([]byte, error) {
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
	return b, nil
}

// appendStandardParams appends the sampling fields openai-go declares, in
// ChatCompletionNewParams' field order, which is the order it marshals
// them in; floats are formatted as encoding/json formats them.
func appendStandardParams(b []byte, p *Params, stream bool) ([]byte, error) {
	var err error
	std := func(key string, v *float64) {
		if v != nil && err == nil {
			b = appendKey(b, key)
			b, err = appendJSONFloat(b, *v, key)
		}
	}
	std("frequency_penalty", p.FrequencyPenalty)
	if p.MaxCompletionTokens != nil {
		b = appendIntField(b, "max_completion_tokens", int64(*p.MaxCompletionTokens))
	}
	if p.MaxTokens != nil {
		b = appendIntField(b, "max_tokens", int64(*p.MaxTokens))
	}
	std("presence_penalty", p.PresencePenalty)
	if p.Seed != nil {
		b = appendIntField(b, "seed", *p.Seed)
	}
	std("temperature", p.Temperature)
	std("top_p", p.TopP)
	if stream {
		b = append(b, `,"stream_options":{"include_usage":true}`...)
	}
	return b, err
}

// appendExtraParams appends the fields openai-go only knows as extra
// fields, sorted by key (openai-go writes them in map order, which varies
// from call to call); sjson writes their floats with strconv 'f'
// formatting.
func appendExtraParams(b []byte, p *Params, rf []byte, stream bool) ([]byte, error) {
	var err error
	extra := func(key string, v *float64) {
		if v != nil && err == nil {
			if math.IsNaN(*v) || math.IsInf(*v, 0) {
				err = fmt.Errorf("chat request: %s is %v, not a JSON number", key, *v)
				return
			}
			b = appendKey(b, key)
			b = strconv.AppendFloat(b, *v, 'f', -1, 64)
		}
	}
	if p.IgnoreEOS != nil {
		b = strconv.AppendBool(append(b, `,"ignore_eos":`...), *p.IgnoreEOS)
	}
	extra("min_p", p.MinP)
	if p.MinTokens != nil {
		b = appendIntField(b, "min_tokens", int64(*p.MinTokens))
	}
	extra("repetition_penalty", p.RepetitionPenalty)
	if rf != nil {
		b = append(b, `,"response_format":`...)
		b = append(b, rf...)
	}
	if stream {
		b = append(b, `,"stream":true`...)
	}
	if p.TopK != nil {
		b = appendIntField(b, "top_k", int64(*p.TopK))
	}
	return b, err
}

// appendKey appends a member's separator and key: `,"key":`.
func appendKey(b []byte, key string) []byte {
	b = append(b, ',', '"')
	b = append(b, key...)
	return append(b, '"', ':')
}

// appendIntField appends `,"key":v`.
func appendIntField(b []byte, key string, v int64) []byte {
	return strconv.AppendInt(appendKey(b, key), v, 10)
}

// AppendRaw appends a chat body whose messages are given as JSON, each
// written as it is (a replayed conversation's messages: assistant tool
// calls, tool results, reasoning_content), followed by tools when
// non-nil and then the model and parameters as Append writes them. Each
// message and tools must be one valid JSON value (checked: a malformed
// one is an error naming it). The body is `{"messages":[`, the messages
// joined by commas, and `]` followed by the rest, so a client may keep
// the messages of a conversation's earlier turns written once and join
// them with the rest of a body AppendRaw wrote.
func AppendRaw(dst []byte, model string, messages []json.RawMessage, tools json.RawMessage, params protocol.Params, stream bool) ([]byte, error) {
	p, err := own(params)
	if err != nil {
		return nil, err
	}
	b := append(dst, `{"messages":[`...)
	for i, m := range messages {
		if !json.Valid(m) {
			return nil, fmt.Errorf("chat request: message %d is not valid JSON", i)
		}
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, m...)
	}
	b = append(b, ']')
	if tools != nil {
		if !json.Valid(tools) {
			return nil, errors.New("chat request: tools is not valid JSON")
		}
		b = append(append(b, `,"tools":`...), tools...)
	}
	return appendParams(b, model, nil, *p, stream)
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
		b, ok = appendContent(b, s.Content.OfString, s.Content.OfArrayOfContentParts, appendTextPart)
		b = append(b, `,"role":"system"}`...)
	case m.OfUser != nil:
		u := m.OfUser
		if !plain(u) || !plain(&u.Content) || !param.IsOmitted(u.Name) || (u.Role != "" && u.Role != u.Role.Default()) {
			return b, false
		}
		b = append(b, `{"content":`...)
		b, ok = appendContent(b, u.Content.OfString, u.Content.OfArrayOfContentParts, appendPart)
		b = append(b, `,"role":"user"}`...)
	}
	if !ok {
		return b[:start], false
	}
	return b, true
}

// appendContent appends a system or user message's content value as
// openai-go marshals it: the string when only it is set, or the array of
// parts, each through appendOne, when only they are. The two message
// kinds differ only in their part type. ok is false for any other shape
// (both or neither set, or a part appendOne refuses), which the caller
// leaves to openai-go.
func appendContent[P any](b []byte, str param.Opt[string], parts []P, appendOne func([]byte, *P) ([]byte, bool)) ([]byte, bool) {
	switch {
	case str.Valid() && parts == nil:
		return jsonenc.AppendString(b, str.Value), true
	case param.IsOmitted(str) && parts != nil:
		b = append(b, '[')
		ok := true
		for i := range parts {
			if i > 0 {
				b = append(b, ',')
			}
			if b, ok = appendOne(b, &parts[i]); !ok {
				break
			}
		}
		return append(b, ']'), ok
	}
	return b, false
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
