package fake

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// imagePromptTokens is what one image adds to a chat's estimated
// prompt_tokens; the fake has no vision tokenizer, so it is a flat guess.
const imagePromptTokens = 256

type streamOptions struct {
	IncludeUsage         bool `json:"include_usage"`
	ContinuousUsageStats bool `json:"continuous_usage_stats"`
}

type chatRequest struct {
	Model               string         `json:"model"`
	Messages            []chatMessage  `json:"messages"`
	MaxTokens           *int           `json:"max_tokens"`
	MaxCompletionTokens *int           `json:"max_completion_tokens"`
	Stream              bool           `json:"stream"`
	StreamOptions       *streamOptions `json:"stream_options"`
}

type chatMessage struct {
	Role string `json:"role"`
	// Content is the content as encoding/json decodes it into an
	// interface: a string, or a list of content parts ([]any of
	// map[string]any). A custom UnmarshalJSON would cost encoding/json
	// three more byte-by-byte passes over a 64 KB image part (finding the
	// value's end, then validating and skipping it again), which under the
	// race detector starved other goroutines of tests that share the
	// process; decoded plainly, the image is one string literal.
	Content any `json:"content"`
	// content is what parseChat keeps of Content.
	content chatContent
}

// chatContent keeps only what the fake needs from a message's content: the
// concatenated text parts and the number of images.
type chatContent struct {
	text   string
	images int
}

// contentOf reads a decoded content: null is empty, a string is the text,
// a list of parts has its text parts concatenated and its image parts
// (OpenAI's image_url and the image / input_image spellings other clients
// use) counted. Part keys match case-insensitively, as encoding/json
// matches struct fields.
func contentOf(v any) (chatContent, error) {
	var c chatContent
	switch v := v.(type) {
	case nil:
	case string:
		c.text = v
	case []any:
		for i, p := range v {
			if p == nil {
				continue // a null part is neither text nor image
			}
			part, ok := p.(map[string]any)
			if !ok {
				return c, fmt.Errorf("content part %d is not an object", i)
			}
			typ, ok := member(part, "type").(string)
			if !ok && member(part, "type") != nil {
				return c, fmt.Errorf("content part %d: type must be a string", i)
			}
			switch typ {
			case "text":
				text, ok := member(part, "text").(string)
				if !ok && member(part, "text") != nil {
					return c, fmt.Errorf("content part %d: text must be a string", i)
				}
				c.text += text
			case "image_url", "image", "input_image":
				c.images++
			}
		}
	default:
		return c, errors.New("content must be a string or a list of content parts")
	}
	return c, nil
}

// member returns the value of key name in m: an exact match, else the
// case-insensitive match whose key sorts first (a map does not keep the
// document's order, so that is the deterministic choice).
func member(m map[string]any, name string) any {
	if v, ok := m[name]; ok {
		return v
	}
	best, found := "", false
	for k := range m {
		if strings.EqualFold(k, name) && (!found || k < best) {
			best, found = k, true
		}
	}
	if !found {
		return nil
	}
	return m[best]
}

// parseChat decodes (encoding/json) and validates a chat request the way
// vLLM rejects bad ones: an error here becomes a 400 whose message the
// client sees.
func parseChat(body []byte) (*chatRequest, error) {
	req := new(chatRequest)
	if err := json.Unmarshal(body, req); err != nil {
		return nil, fmt.Errorf("invalid chat completion request JSON: %v", err)
	}
	for i := range req.Messages {
		m := &req.Messages[i]
		c, err := contentOf(m.Content)
		if err != nil {
			return nil, fmt.Errorf("invalid chat completion request JSON: messages[%d]: %v", i, err)
		}
		m.content, m.Content = c, nil // the image data goes with Content
	}
	if err := req.validate(); err != nil {
		return nil, err
	}
	return req, nil
}

// validate applies vLLM's checks to a decoded chat request.
func (r *chatRequest) validate() error {
	if len(r.Messages) == 0 {
		return errors.New("messages must be a non-empty list")
	}
	if r.StreamOptions != nil && !r.Stream {
		return errors.New("Stream options can only be defined when `stream=True`.")
	}
	for _, m := range []*int{r.MaxTokens, r.MaxCompletionTokens} {
		if m != nil && *m < 1 {
			return fmt.Errorf("max_tokens must be at least 1, got %d.", *m)
		}
	}
	return nil
}

// maxTokens is vLLM's rule: max_completion_tokens wins over max_tokens; 0
// means no limit.
func (r *chatRequest) maxTokens() int {
	if r.MaxCompletionTokens != nil {
		return *r.MaxCompletionTokens
	}
	if r.MaxTokens != nil {
		return *r.MaxTokens
	}
	return 0
}

// userText is the key answers are looked up by: the text of the last user
// message (its text parts concatenated).
func (r *chatRequest) userText() string {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		if r.Messages[i].Role == "user" {
			return r.Messages[i].content.text
		}
	}
	return ""
}

// promptTokens estimates prompt_tokens: about four bytes of text a token,
// plus imagePromptTokens an image.
func (r *chatRequest) promptTokens() int {
	n := 0
	for _, m := range r.Messages {
		n += approxTextTokens(m.content.text) + m.content.images*imagePromptTokens
	}
	return n
}

func (s *Server) checkModel(w http.ResponseWriter, model string) bool {
	if model == "" || model == s.cfg.Model {
		return true
	}
	writeError(w, http.StatusNotFound, fmt.Sprintf("The model `%s` does not exist.", model), "NotFoundError", "model")
	return false
}

// handleChat serves /v1/chat/completions like vLLM's serving_chat.py.
func (s *Server) handleChat(w http.ResponseWriter, r *http.Request) {
	arrived := time.Now()
	var req *chatRequest
	if !s.decodeBody(w, r, func(b []byte) (err error) { req, err = parseChat(b); return err }) {
		return
	}
	if !s.checkModel(w, req.Model) {
		return
	}
	fault := s.pickFault(requestKind{stream: req.Stream})
	if s.injectEarly(w, r, fault, req.Stream) {
		return
	}

	ans := s.fallback
	if a, ok := s.answers[req.userText()]; ok {
		ans = a
	}
	n := ans.pieces()
	finish := "stop"
	if m := req.maxTokens(); m > 0 && m < n {
		n, finish = m, "length"
	}
	if f := finishReason(fault); f != "" {
		n, finish = min(n, 1), f
	}
	endless := fault == FailEndless
	prompt := req.promptTokens()

	g, ok := s.begin(r, arrived, prompt, nil)
	if !ok {
		return
	}
	defer g.end()

	idb := s.getBuf()
	defer s.putBuf(idb)
	object := "chat.completion"
	if req.Stream {
		object = "chat.completion.chunk"
	}
	head := s.appendHead((*idb)[:0], "chatcmpl-", object)
	*idb = head

	if !req.Stream {
		if !g.waitAll(n) {
			return
		}
		bp := s.getBuf()
		defer s.putBuf(bp)
		b := append((*bp)[:0], head...)
		b = append(b, `{"index":0,"message":{"role":"assistant","content":"`...)
		b = ans.appendEscaped(b, 0, n)
		b = append(b, `","refusal":null,"annotations":null,"audio":null,"function_call":null,"tool_calls":[],"reasoning_content":null},"logprobs":null,"finish_reason":"`...)
		b = append(b, finish...)
		b = append(b, `","stop_reason":null,"token_ids":null}],"service_tier":null,"system_fingerprint":null,"usage":`...)
		b = appendUsage(b, prompt, n, true)
		b = append(b, `,"prompt_logprobs":null,"prompt_token_ids":null,"kv_transfer_params":null}`...)
		*bp = b
		if fault == FailCut {
			writeCut(w, b)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(b)
		return
	}

	includeUsage := req.StreamOptions != nil && req.StreamOptions.IncludeUsage
	continuous := req.StreamOptions != nil && req.StreamOptions.ContinuousUsageStats
	events := func(b []byte, from, to int) []byte {
		if from == 0 {
			// vLLM's first chunk carries only the role.
			b = append(b, "data: "...)
			b = append(b, head...)
			b = append(b, `{"index":0,"delta":{"role":"assistant","content":""},"logprobs":null,"finish_reason":null}]`...)
			if continuous {
				b = append(b, `,"usage":`...)
				b = appendUsage(b, prompt, 0, false)
			}
			b = append(b, "}\n\n"...)
		}
		b = append(b, "data: "...)
		b = append(b, head...)
		b = append(b, `{"index":0,"delta":{"content":"`...)
		for i := from; i < to; i++ {
			b = ans.appendEscaped(b, i%n, i%n+1) // past n only when endless
		}
		b = append(b, `"},"logprobs":null,"finish_reason":`...)
		if to == n && !endless {
			b = append(b, '"')
			b = append(b, finish...)
			b = append(b, `","stop_reason":null}]`...)
		} else {
			b = append(b, `null}]`...)
		}
		if continuous {
			b = append(b, `,"usage":`...)
			b = appendUsage(b, prompt, to, false)
		}
		return append(b, "}\n\n"...)
	}
	tail := func(b []byte) []byte {
		if includeUsage {
			b = append(b, "data: "...)
			b = append(b, head...)
			b = append(b, `],"usage":`...)
			b = appendUsage(b, prompt, n, false)
			b = append(b, "}\n\n"...)
		}
		return appendDone(b, fault)
	}
	g.stream(w, n, fault, events, tail)
}

type completionRequest struct {
	Model          string          `json:"model"`
	Prompt         json.RawMessage `json:"prompt"`
	MaxTokens      *int            `json:"max_tokens"`
	Stream         bool            `json:"stream"`
	StreamOptions  *streamOptions  `json:"stream_options"`
	ReturnTokenIDs bool            `json:"return_token_ids"`
	Echo           bool            `json:"echo"`
}

// completionDefaultMaxTokens is vLLM's CompletionRequest.max_tokens default.
const completionDefaultMaxTokens = 16

// parsePrompts decodes an OpenAI completions prompt: a string, a list of
// strings, a token-ID list or a list of token-ID lists. Text prompts become
// pseudo token IDs (textPromptIDs).
func parsePrompts(raw json.RawMessage) ([][]int32, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil, errors.New("prompt is required")
	}
	if raw[0] == '"' {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, fmt.Errorf("invalid prompt: %v", err)
		}
		return [][]int32{textPromptIDs(s)}, nil
	}
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, fmt.Errorf("prompt must be a string, a list of strings, a list of token IDs or a list of token-ID lists: %v", err)
	}
	if len(items) == 0 {
		return nil, errors.New("prompt must not be empty")
	}
	first := bytes.TrimSpace(items[0])
	switch {
	case len(first) > 0 && (first[0] == '-' || (first[0] >= '0' && first[0] <= '9')):
		var ids []int32
		if err := json.Unmarshal(raw, &ids); err != nil {
			return nil, fmt.Errorf("invalid token-ID prompt: %v", err)
		}
		return [][]int32{ids}, nil
	case len(first) > 0 && first[0] == '"':
		var ss []string
		if err := json.Unmarshal(raw, &ss); err != nil {
			return nil, fmt.Errorf("invalid list-of-strings prompt: %v", err)
		}
		out := make([][]int32, len(ss))
		for i, s := range ss {
			out[i] = textPromptIDs(s)
		}
		return out, nil
	default:
		var lists [][]int32
		if err := json.Unmarshal(raw, &lists); err != nil {
			return nil, fmt.Errorf("invalid list-of-token-lists prompt: %v", err)
		}
		for i, l := range lists {
			if len(l) == 0 {
				return nil, fmt.Errorf("prompt %d is an empty token list", i)
			}
		}
		return lists, nil
	}
}

// parseCompletion decodes (encoding/json) and validates a completions
// request the way vLLM rejects bad ones (400 with a message), and returns
// its prompts as token IDs.
func parseCompletion(body []byte) (*completionRequest, [][]int32, error) {
	var req completionRequest
	if err := json.Unmarshal(body, &req); err != nil {
		return nil, nil, fmt.Errorf("invalid completion request JSON: %v", err)
	}
	if req.StreamOptions != nil && !req.Stream {
		return nil, nil, errors.New("Stream options can only be defined when `stream=True`.")
	}
	if req.Echo {
		return nil, nil, errors.New("echo is not supported by the fake endpoint")
	}
	if req.MaxTokens != nil && *req.MaxTokens < 1 {
		return nil, nil, fmt.Errorf("max_tokens must be at least 1, got %d.", *req.MaxTokens)
	}
	prompts, err := parsePrompts(req.Prompt)
	if err != nil {
		return nil, nil, err
	}
	return &req, prompts, nil
}

// handleCompletions serves /v1/completions like vLLM's serving_completion.py,
// including return_token_ids (choices carry prompt_token_ids and token_ids;
// when streaming, prompt_token_ids only in a choice's first chunk and
// token_ids as the chunk's delta).
func (s *Server) handleCompletions(w http.ResponseWriter, r *http.Request) {
	arrived := time.Now()
	var (
		req     *completionRequest
		prompts [][]int32
	)
	if !s.decodeBody(w, r, func(b []byte) (err error) { req, prompts, err = parseCompletion(b); return err }) {
		return
	}
	if !s.checkModel(w, req.Model) {
		return
	}
	fault := s.pickFault(requestKind{stream: req.Stream, tokenIDs: true})
	if s.injectEarly(w, r, fault, req.Stream) {
		return
	}
	returnIDs := req.ReturnTokenIDs && fault != FailNoTokenIDs

	maxTok := completionDefaultMaxTokens
	if req.MaxTokens != nil {
		maxTok = *req.MaxTokens
	}
	n, finish := s.cfg.OutputTokens, "stop"
	if n >= maxTok {
		n, finish = maxTok, "length"
	}
	if f := finishReason(fault); f != "" {
		n, finish = min(n, 1), f
	}
	endless := fault == FailEndless
	outs := make([][]int32, len(prompts))
	promptTotal := 0
	for i, p := range prompts {
		outs[i] = Tokens(p, n)
		promptTotal += len(p)
	}

	g, ok := s.begin(r, arrived, promptTotal, prompts)
	if !ok {
		return
	}
	defer g.end()

	idb := s.getBuf()
	defer s.putBuf(idb)
	head := s.appendHead((*idb)[:0], "cmpl-", "text_completion")
	*idb = head

	if !req.Stream {
		if !g.waitAll(n) {
			return
		}
		bp := s.getBuf()
		defer s.putBuf(bp)
		b := append((*bp)[:0], head...)
		for i, out := range outs {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"index":`...)
			b = appendInt(b, i)
			b = append(b, `,"text":"`...)
			for _, t := range out {
				b = appendTokenText(b, t)
			}
			b = append(b, `","logprobs":null,"finish_reason":"`...)
			b = append(b, finish...)
			b = append(b, `","stop_reason":null,"token_ids":`...)
			if returnIDs {
				b = appendTokenIDs(b, out)
			} else {
				b = append(b, "null"...)
			}
			b = append(b, `,"prompt_logprobs":null,"prompt_token_ids":`...)
			if returnIDs {
				b = appendTokenIDs(b, prompts[i])
			} else {
				b = append(b, "null"...)
			}
			b = append(b, '}')
		}
		b = append(b, `],"service_tier":null,"system_fingerprint":null,"usage":`...)
		b = appendUsage(b, promptTotal, n*len(outs), true)
		b = append(b, `,"kv_transfer_params":null}`...)
		*bp = b
		if fault == FailCut {
			writeCut(w, b)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(b)
		return
	}

	includeUsage := req.StreamOptions != nil && req.StreamOptions.IncludeUsage
	continuous := req.StreamOptions != nil && req.StreamOptions.ContinuousUsageStats
	events := func(b []byte, from, to int) []byte {
		for i := range outs {
			if to > len(outs[i]) { // endless: Tokens(p, k) extends Tokens(p, n)
				outs[i] = Tokens(prompts[i], 2*to)
			}
			out := outs[i]
			b = append(b, "data: "...)
			b = append(b, head...)
			b = append(b, `{"index":`...)
			b = appendInt(b, i)
			b = append(b, `,"text":"`...)
			for _, t := range out[from:to] {
				b = appendTokenText(b, t)
			}
			b = append(b, `","logprobs":null,"finish_reason":`...)
			if to == n && !endless {
				b = append(b, '"')
				b = append(b, finish...)
				b = append(b, `","stop_reason":null`...)
			} else {
				b = append(b, `null,"stop_reason":null`...)
			}
			b = append(b, `,"prompt_token_ids":`...)
			if returnIDs && from == 0 {
				b = appendTokenIDs(b, prompts[i])
			} else {
				b = append(b, "null"...)
			}
			b = append(b, `,"token_ids":`...)
			if returnIDs {
				b = appendTokenIDs(b, out[from:to])
			} else {
				b = append(b, "null"...)
			}
			b = append(b, `}],"usage":`...)
			if continuous {
				b = appendUsage(b, len(prompts[i]), to, false)
			} else {
				b = append(b, "null"...)
			}
			b = append(b, "}\n\n"...)
		}
		return b
	}
	tail := func(b []byte) []byte {
		if includeUsage {
			b = append(b, "data: "...)
			b = append(b, head...)
			b = append(b, `],"usage":`...)
			b = appendUsage(b, promptTotal, n*len(outs), false)
			b = append(b, "}\n\n"...)
		}
		return appendDone(b, fault)
	}
	g.stream(w, n, fault, events, tail)
}

// appendHead appends the members every chat and text completion response
// (and each of its stream chunks) begins with, as vLLM writes them, up to
// the opening of "choices": a fresh ID with idPrefix, the object type, the
// creation time and the served model.
func (s *Server) appendHead(dst []byte, idPrefix, object string) []byte {
	dst = append(dst, `{"id":"`...)
	dst = append(dst, idPrefix...)
	dst = appendHexID(dst, s.nextID())
	dst = append(dst, `","object":"`...)
	dst = append(dst, object...)
	dst = append(dst, `","created":`...)
	dst = appendInt(dst, int(time.Now().Unix()))
	dst = append(dst, `,"model":`...)
	dst = appendJSONString(dst, s.cfg.Model)
	return append(dst, `,"choices":[`...)
}

// appendDone appends the "data: [DONE]" that ends vLLM's and SGLang's
// streams, except under FailNoDone.
func appendDone(b []byte, fault string) []byte {
	if fault == FailNoDone {
		return b
	}
	return append(b, "data: [DONE]\n\n"...)
}
