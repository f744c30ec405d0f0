package openaichat

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"hash/maphash"
	"strings"

	"github.com/mlperf-go/mlperf-go/protocol"
	"github.com/mlperf-go/mlperf-go/protocol/internal/vllmwire"
)

// The server side, as vLLM v0.12 serves /v1/chat/completions
// (vllm/entrypoints/openai/serving_chat.py, protocol.py): requests are
// decoded with encoding/json and checked by vLLM's rules; answers are
// written by appending to the server's buffers.

var _ protocol.Serving = chat{}

func (chat) AnswersTokenIDs() bool { return false }

func (chat) ParseRequest(body []byte) (protocol.Request, error) { return parseChat(body) }

// chatRequest is a decoded chat request (encoding/json names the type in
// its errors, which reach the client) and its server-side state.
type chatRequest struct {
	Model               string                  `json:"model"`
	Messages            []chatMessage           `json:"messages"`
	MaxTokens           *int                    `json:"max_tokens"`
	MaxCompletionTokens *int                    `json:"max_completion_tokens"`
	MinTokens           *int                    `json:"min_tokens"`
	IgnoreEOS           bool                    `json:"ignore_eos"`
	Stream              bool                    `json:"stream"`
	StreamOptions       *vllmwire.StreamOptions `json:"stream_options"`
	// Tools and ToolChoice are kept raw: the fake only needs to know
	// whether it may answer with tool calls (toolserve.go).
	Tools      json.RawMessage `json:"tools"`
	ToolChoice json.RawMessage `json:"tool_choice"`

	ask     protocol.Ask
	msgBuf  [4]protocol.Message // holds ask.Messages of a short conversation
	head    []byte              // a stream's chunks all begin with it
	headBuf [160]byte
	tools   *toolState // a streamed answer's tool calls; nil when none
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
}

// contentOf reads a decoded content into m: null is empty, a string is the
// text, a list of parts has its text parts concatenated and its image
// parts (OpenAI's image_url and the image / input_image spellings other
// clients use) counted. Part keys match case-insensitively, as
// encoding/json matches struct fields.
func contentOf(v any, m *protocol.Message) error {
	switch v := v.(type) {
	case nil:
	case string:
		m.Text = v
	case []any:
		for i, p := range v {
			if p == nil {
				continue // a null part is neither text nor image
			}
			part, ok := p.(map[string]any)
			if !ok {
				return fmt.Errorf("content part %d is not an object", i)
			}
			typ, ok := partMember(part, "type").(string)
			if !ok && partMember(part, "type") != nil {
				return fmt.Errorf("content part %d: type must be a string", i)
			}
			switch typ {
			case "text":
				text, ok := partMember(part, "text").(string)
				if !ok && partMember(part, "text") != nil {
					return fmt.Errorf("content part %d: text must be a string", i)
				}
				m.Text += text
			case "image_url", "image", "input_image":
				m.Images++
				url := ""
				if iu, ok := partMember(part, "image_url").(map[string]any); ok {
					url, _ = partMember(iu, "url").(string)
				}
				m.ImageHash = addImage(m.ImageHash, url)
			}
		}
	default:
		return errors.New("content must be a string or a list of content parts")
	}
	return nil
}

// partMember returns the value of key name in m: an exact match, else the
// case-insensitive match whose key sorts first (a map does not keep the
// document's order, so that is the deterministic choice).
func partMember(m map[string]any, name string) any {
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

// imageSeed keys ImageHash for the life of the process.
var imageSeed = maphash.MakeSeed()

// addImage folds one image part into a message's ImageHash: its URL
// hashed, or 1 for a part without one.
func addImage(h uint64, url string) uint64 {
	v := uint64(1)
	if url != "" {
		v = maphash.String(imageSeed, url) | 1
	}
	return h*0x9e3779b97f4a7c15 + v
}

// parseChat decodes and validates a chat request the way vLLM rejects bad
// ones: an error here becomes a 400 whose message the client sees. The
// usual request is read by parseChatFast in one pass that copies no image;
// anything it does not read exactly as encoding/json would (an error, a
// duplicate or case-folded key, a null message) is read again by
// parseChatStd, whose verdict and message stand, so the fast path changes
// nothing a client can see (FuzzParseChatFast compares the two).
func parseChat(body []byte) (*chatRequest, error) {
	if req, ok := parseChatFast(body); ok {
		return req, nil
	}
	return parseChatStd(body)
}

// parseChatStd is parseChat through encoding/json.
func parseChatStd(body []byte) (*chatRequest, error) {
	req := new(chatRequest)
	if err := json.Unmarshal(body, req); err != nil {
		return nil, fmt.Errorf("invalid chat completion request JSON: %v", err)
	}
	req.ask.Messages = req.msgBuf[:0]
	for i := range req.Messages {
		req.ask.Messages = append(req.ask.Messages, protocol.Message{Role: req.Messages[i].Role})
		m := &req.ask.Messages[i]
		if err := contentOf(req.Messages[i].Content, m); err != nil {
			return nil, fmt.Errorf("invalid chat completion request JSON: messages[%d]: %v", i, err)
		}
		req.Messages[i].Content = nil // the image data goes with it
	}
	if err := req.validate(); err != nil {
		return nil, err
	}
	req.finish()
	return req, nil
}

// finish fills the Ask from a decoded, validated request.
func (r *chatRequest) finish() {
	r.ask.Model, r.ask.Stream, r.ask.MaxTokens = r.Model, r.Stream, r.maxTokens()
	r.ask.IgnoreEOS = r.IgnoreEOS
	if r.MinTokens != nil && *r.MinTokens > 0 {
		r.ask.MinTokens = *r.MinTokens
	}
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
	if m := r.MinTokens; m != nil && *m < 0 {
		return fmt.Errorf("min_tokens must be greater than or equal to 0, got %d.", *m)
	}
	if m, mx := r.MinTokens, r.maxTokens(); m != nil && mx != protocol.NoLimit && *m > mx {
		return fmt.Errorf("min_tokens must be less than or equal to max_tokens=%d, got %d.", mx, *m)
	}
	if present(r.ToolChoice) && !present(r.Tools) {
		return errors.New("When using `tool_choice`, `tools` must be set.")
	}
	if present(r.Tools) && bytes.TrimSpace(r.Tools)[0] != '[' {
		return errors.New("tools: Input should be a valid list")
	}
	return nil
}

// maxTokens is vLLM's rule: max_completion_tokens wins over max_tokens;
// neither means no limit.
func (r *chatRequest) maxTokens() int {
	if r.MaxCompletionTokens != nil {
		return *r.MaxCompletionTokens
	}
	if r.MaxTokens != nil {
		return *r.MaxTokens
	}
	return protocol.NoLimit
}

func (r *chatRequest) Ask() *protocol.Ask { return &r.ask }

// AppendBody writes a chat.completion (with tool calls where the answer
// makes some: toolserve.go). An answer's reasoning (Reply.Reasoning) goes
// in the message's reasoning, as vLLM's reasoning parser puts it, and its
// count in the usage's completion_tokens_details.
func (r *chatRequest) AppendBody(b []byte, rep *protocol.Reply) []byte {
	if st := r.prepareTools(rep); st != nil {
		return r.appendToolBody(b, rep, st)
	}
	n, think := rep.Tokens, min(rep.Reasoning, rep.Tokens)
	b = vllmwire.AppendHead(b, rep, "chatcmpl-", "chat.completion")
	b = append(b, `{"index":0,"message":{"role":"assistant","content":`...)
	if think > 0 && think == n {
		b = append(b, "null"...) // all reasoning: vLLM leaves the content out
	} else {
		b = append(b, '"')
		b = rep.Outputs[0].AppendText(b, think, n)
		b = append(b, '"')
	}
	b = append(b, `,"refusal":null,"annotations":null,"audio":null,"function_call":null,"tool_calls":[],`...)
	if think > 0 {
		b = append(b, `"reasoning":"`...)
		b = rep.Outputs[0].AppendText(b, 0, think)
		b = append(b, '"')
	} else {
		b = append(b, `"reasoning_content":null`...)
	}
	b = append(b, `},"logprobs":null,"finish_reason":"`...)
	b = append(b, rep.Finish...)
	b = append(b, `","stop_reason":null,"token_ids":null}],"service_tier":null,"system_fingerprint":null,"usage":`...)
	b = vllmwire.AppendUsage(b, rep.PromptTokens, n, reasoningCount(rep, n), true)
	return append(b, `,"prompt_logprobs":null,"prompt_token_ids":null,"kv_transfer_params":null}`...)
}

// reasoningCount is what the usage says of the reasoning among an
// answer's first n tokens: nothing without a reasoning parser
// (Reply.Reasoning 0), else the count.
func reasoningCount(rep *protocol.Reply, n int) int {
	if rep.Reasoning == 0 {
		return vllmwire.NoReasoning
	}
	return min(rep.Reasoning, n)
}

// AppendEvents writes chat.completion.chunk events: vLLM's first carries
// only the role, then each carries the content delta, or the reasoning
// delta for the answer's first Reply.Reasoning tokens (both, content
// first, for an event that spans the two).
func (r *chatRequest) AppendEvents(b []byte, rep *protocol.Reply, from, to int, last bool) []byte {
	continuous := r.StreamOptions != nil && r.StreamOptions.ContinuousUsageStats
	if from == 0 {
		r.head = vllmwire.AppendHead(r.headBuf[:0], rep, "chatcmpl-", "chat.completion.chunk")
		b = append(b, "data: "...)
		b = append(b, r.head...)
		b = append(b, `{"index":0,"delta":{"role":"assistant","content":""},"logprobs":null,"finish_reason":null}]`...)
		if continuous {
			b = append(b, `,"usage":`...)
			b = vllmwire.AppendUsage(b, rep.PromptTokens, 0, reasoningCount(rep, 0), false)
		}
		b = append(b, "}\n\n"...)
		r.tools = r.prepareTools(rep)
	}
	if r.tools != nil {
		return r.appendToolEvents(b, rep, r.tools, from, to, last)
	}
	think := rep.Reasoning
	b = append(b, "data: "...)
	b = append(b, r.head...)
	b = append(b, `{"index":0,"delta":{`...)
	if to > think || from == to {
		b = append(b, `"content":"`...)
		b = rep.Outputs[0].AppendText(b, max(from, think), to)
		b = append(b, '"')
		if from < think {
			b = append(b, ',')
		}
	}
	if from < think {
		b = append(b, `"reasoning":"`...)
		b = rep.Outputs[0].AppendText(b, from, min(to, think))
		b = append(b, '"')
	}
	b = append(b, `},"logprobs":null,"finish_reason":`...)
	if last {
		b = append(b, '"')
		b = append(b, rep.Finish...)
		b = append(b, `","stop_reason":null}]`...)
	} else {
		b = append(b, `null}]`...)
	}
	if continuous {
		b = append(b, `,"usage":`...)
		b = vllmwire.AppendUsage(b, rep.PromptTokens, to, reasoningCount(rep, to), false)
	}
	return append(b, "}\n\n"...)
}

// AppendTail writes the usage chunk stream_options.include_usage asks for.
func (r *chatRequest) AppendTail(b []byte, rep *protocol.Reply) []byte {
	if r.StreamOptions == nil || !r.StreamOptions.IncludeUsage {
		return b
	}
	b = append(b, "data: "...)
	b = append(b, r.head...)
	b = append(b, `],"usage":`...)
	b = vllmwire.AppendUsage(b, rep.PromptTokens, rep.Tokens, reasoningCount(rep, rep.Tokens), false)
	return append(b, "}\n\n"...)
}
