package openaichat

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/mlperf-go/mlperf-go/internal/jsonenc"
	"github.com/mlperf-go/mlperf-go/protocol"
	"github.com/mlperf-go/mlperf-go/protocol/internal/jscan"
	"github.com/mlperf-go/mlperf-go/protocol/internal/jsonwire"
)

// Chat completions with tools, as mlcommons/endpoints sends and reads
// them (openai/openai_msgspec_adapter.py, openai/accumulator.py,
// core/types.py at ea33275): requests are msgspec's encoding of its
// ChatCompletionRequest with "tools" and "tool_choice"; what LoadGen is
// told is what endpoints scores (BFCLv4Scorer.get_scoring_outputs): the
// answer's tool calls as msgspec encodes them (streamed calls merged by
// merge_tool_calls first), or, with no tool call, its reasoning and
// content text.

// ToolsProtocol is the chat completions protocol for requests carrying
// tools ("openai-chat-tools"): a benchmark whose reference is endpoints'
// tool calling names it as its API. It posts to the same
// /v1/chat/completions as Protocol, whose server side (the fake's)
// answers tool calls, so it is not registered with package protocol: the
// registry holds one protocol per path, each served by the fake, and this
// one differs from Protocol only in what LoadGen is told.
var ToolsProtocol protocol.Protocol = chatTools{}

// chatTools implements protocol.Protocol.
type chatTools struct{}

func (chatTools) Name() string      { return "openai-chat-tools" }
func (chatTools) Aliases() []string { return []string{"chat-tools"} }
func (chatTools) Path() string      { return "/v1/chat/completions" }

// DefaultTimeout is 2 h, as for Protocol.
func (chatTools) DefaultTimeout() time.Duration { return 2 * time.Hour }

// DefaultParams sends no sampling field.
func (chatTools) DefaultParams() protocol.Params { return &ToolParams{} }

func (chatTools) DecodeResponse(out, body []byte) ([]byte, int64, error) {
	return parseToolsResponse(out, body)
}

func (chatTools) NewStream() protocol.Stream { return &toolStream{} }

// ToolParams are the sampling fields of endpoints' ChatCompletionRequest
// (openai/types.py) that a tools request may carry; nil fields are not
// sent, as msgspec omits None. The JSON tags are the wire names.
type ToolParams struct {
	MsgspecSampling
	// ChatTemplateKwargs is sent as given (compacted), e.g.
	// {"enable_thinking": false} for a server whose chat template reads it.
	ChatTemplateKwargs json.RawMessage `json:"chat_template_kwargs,omitempty"`
}

// MaxTokensKey implements protocol.Params: the cap endpoints sends is
// max_completion_tokens.
func (*ToolParams) MaxTokensKey() string { return "max_completion_tokens" }

// TextMessage is one message of a tools request: role and content.
type TextMessage struct {
	Role, Content string
}

// ToolsRequest encodes /v1/chat/completions bodies with tools as
// endpoints' msgspec encoder writes ChatCompletionRequest: members in its
// field order (model, messages, temperature, max_completion_tokens,
// stream, seed, top_p, top_k, repetition_penalty, presence_penalty,
// frequency_penalty, chat_template_kwargs, tools, tool_choice), unset
// ones left out, messages as {"role","content"}, strings escaped as
// msgspec escapes them, floats as msgspec writes them, no
// stream_options.
type ToolsRequest struct {
	// Model is the served model name (always sent).
	Model string
	// Params are the sampling fields.
	Params ToolParams
	// Stream adds "stream": true.
	Stream bool
}

// Append appends the body for messages, tools (the "tools" array, already
// JSON as it is to be sent) and toolChoice ("" leaves it out) to dst.
func (q ToolsRequest) Append(dst []byte, messages []TextMessage, tools []byte, toolChoice string) ([]byte, error) {
	dst = append(dst, `{"model":`...)
	dst = jsonenc.AppendShort(dst, q.Model)
	dst = append(dst, `,"messages":[`...)
	for i, m := range messages {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, `{"role":`...)
		dst = jsonenc.AppendShort(dst, m.Role)
		dst = append(dst, `,"content":`...)
		dst = jsonenc.AppendShort(dst, m.Content)
		dst = append(dst, '}')
	}
	dst = append(dst, ']')
	var err error
	if dst, err = q.appendParams(dst); err != nil {
		return nil, err
	}
	if tools != nil {
		dst = append(dst, `,"tools":`...)
		dst = append(dst, tools...)
	}
	if toolChoice != "" {
		dst = append(dst, `,"tool_choice":`...)
		dst = jsonenc.AppendShort(dst, toolChoice)
	}
	return append(dst, '}'), nil
}

// appendParams appends the sampling fields in ChatCompletionRequest's
// order.
func (q ToolsRequest) appendParams(dst []byte) ([]byte, error) {
	p := &q.Params
	dst, err := p.AppendMsgspec(dst, q.Stream)
	if err != nil {
		return nil, fmt.Errorf("chat tools request: %w", err)
	}
	if len(p.ChatTemplateKwargs) > 0 {
		s := jscan.New(p.ChatTemplateKwargs)
		if s.Peek() != '{' {
			return nil, fmt.Errorf("chat tools request: chat_template_kwargs must be a JSON object, got %.40s", p.ChatTemplateKwargs)
		}
		dst = append(dst, `,"chat_template_kwargs":`...)
		if dst, err = appendMsgspecValue(dst, &s); err == nil {
			err = s.End()
		}
		if err != nil {
			return nil, fmt.Errorf("chat tools request: chat_template_kwargs: %w", err)
		}
	}
	return dst, nil
}

// messageText is the text a message or a streamed delta carries, as
// endpoints reads it: content, and reasoning_content (rc) and reasoning
// (r), of which it keeps the first that is not empty.
type messageText struct {
	content, rc, r []byte
}

// read reads the value of key k when k is one of the text fields (a
// string or null), replacing what the field held; known is false for
// any other key, which is left unread.
func (t *messageText) read(s *jscan.Scanner, k []byte) (known bool, err error) {
	var dst *[]byte
	switch string(k) {
	case "content":
		dst = &t.content
	case "reasoning_content":
		dst = &t.rc
	case "reasoning":
		dst = &t.r
	default:
		return false, nil
	}
	*dst = (*dst)[:0]
	return true, appendStrOrNull(s, dst)
}

// reasoning is reasoning_content, else reasoning.
func (t *messageText) reasoning() []byte {
	if len(t.rc) > 0 {
		return t.rc
	}
	return t.r
}

// toolAnswer is what one answer carries for LoadGen, as endpoints keeps
// it: content and reasoning text, and tool calls.
type toolAnswer struct {
	messageText
	calls []byte // the message's tool_calls, msgspec-encoded; nil when none
	role  bool   // the message has a role (a string)
}

// appendOutput appends what endpoints scores: the tool calls when there
// are any, else the reasoning followed by the content.
func (a *toolAnswer) appendOutput(dst []byte) []byte {
	if len(a.calls) > 0 {
		return append(dst, a.calls...)
	}
	return append(append(dst, a.reasoning()...), a.content...)
}

// parseToolsResponse decodes a non-streamed chat completion: choices[0]'s
// message content, reasoning (reasoning_content, else reasoning) and
// tool_calls, re-encoded as msgspec encodes the list endpoints decoded.
// usage.completion_tokens is the token count when present (endpoints does
// not need it, so neither is it required here).
func parseToolsResponse(dst, body []byte) ([]byte, int64, error) {
	s := jscan.New(body)
	var ans toolAnswer
	var tokens int64
	var finish []byte
	haveChoice := false
	var srvErr error
	err := s.Object(func(k []byte) error {
		switch string(k) {
		case "choices":
			ans, haveChoice, finish = toolAnswer{}, false, nil
			if isNull, err := s.Null(); isNull || err != nil {
				return err
			}
			return s.Array(func(idx int) error {
				if idx != 0 {
					return s.Skip()
				}
				haveChoice = true
				return s.Object(func(k []byte) error {
					switch string(k) {
					case "finish_reason":
						return finishReason(&s, &finish)
					case "message":
						return readToolMessage(&s, &ans)
					}
					return s.Skip()
				})
			})
		case "usage":
			var have bool
			return completionTokens(&s, &tokens, &have)
		case "error":
			return jsonwire.ErrorField(&s, &srvErr)
		}
		return s.Skip()
	})
	switch err = jsonwire.WalkErr(&s, err, srvErr); {
	case err != nil:
		return dst, 0, err
	case protocol.FinishFailed(string(finish)):
		return dst, 0, protocol.FinishError(string(finish), fmt.Sprintf("%d bytes of content", len(ans.content)))
	case !haveChoice:
		return dst, 0, &jsonwire.FieldError{Msg: "chat response has no choices[0]"}
	case !ans.role:
		return dst, 0, &jsonwire.FieldError{Msg: "chat response's message has no role (endpoints' decoder requires one)"}
	case len(ans.rc) > 0 && len(ans.r) > 0:
		return dst, 0, &jsonwire.FieldError{Msg: "chat response's message has both reasoning_content and reasoning (endpoints rejects it)"}
	}
	return ans.appendOutput(dst), tokens, nil
}

// readToolMessage reads a message object: content, reasoning_content,
// reasoning and tool_calls (null or empty meaning none; each call must be
// an object, as endpoints' decoder types it).
func readToolMessage(s *jscan.Scanner, a *toolAnswer) error {
	if isNull, err := s.Null(); isNull || err != nil {
		return err
	}
	return s.Object(func(k []byte) error {
		if known, err := a.read(s, k); known {
			return err
		}
		switch string(k) {
		case "role":
			_, _, err := s.Str()
			a.role = err == nil
			return err
		case "tool_calls":
			a.calls = nil
			if isNull, err := s.Null(); isNull || err != nil {
				return err
			}
			calls, err := appendToolCallList(nil, s)
			if err != nil {
				return err
			}
			if len(calls) > 2 { // not []
				a.calls = calls
			}
			return nil
		}
		return s.Skip()
	})
}

// appendToolCallList re-encodes a list of tool-call objects as msgspec
// does.
func appendToolCallList(dst []byte, s *jscan.Scanner) ([]byte, error) {
	if s.Peek() != '[' {
		return dst, s.Fail("tool_calls is not a list")
	}
	dst = append(dst, '[')
	err := s.Array(func(i int) error {
		if s.Peek() != '{' {
			return s.Fail(fmt.Sprintf("tool_calls[%d] is not an object", i))
		}
		if i > 0 {
			dst = append(dst, ',')
		}
		var err error
		dst, err = appendMsgspecValue(dst, s)
		return err
	})
	return append(dst, ']'), err
}
