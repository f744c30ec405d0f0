// Package openaichat is the OpenAI-compatible chat completions protocol
// (POST /v1/chat/completions) as the qwen3-vl reference client speaks it
// (multimodal/qwen3-vl/src/mlperf_inf_mm_q3vl/task.py): requests built
// from openai-go message params, answers read as UTF-8 text, and streams
// whose first non-empty content delta is the first token and whose final
// usage chunk gives the token count. Importing it registers it as
// "openai-chat" (alias "chat").
package openaichat

import (
	"encoding/json"
	"time"

	"github.com/openai/openai-go"

	"github.com/mlperf-go/mlperf-go/protocol"
)

// Protocol is the chat completions protocol.
var Protocol protocol.Protocol = chat{}

func init() { protocol.Register(Protocol) }

// chat implements protocol.Protocol, protocol.MessagesEncoder.
type chat struct{}

var _ protocol.MessagesEncoder = chat{}

func (chat) Name() string      { return "openai-chat" }
func (chat) Aliases() []string { return []string{"chat"} }
func (chat) Path() string      { return "/v1/chat/completions" }

// DefaultTimeout is 2 h, the reference's (schema.py
// Endpoint.request_timeout, chosen there because Offline queues long).
func (chat) DefaultTimeout() time.Duration { return 2 * time.Hour }

// DefaultParams sends no sampling parameter, as the reference.
func (chat) DefaultParams() protocol.Params { return &Params{} }

func (chat) DecodeResponse(out, body []byte) ([]byte, int64, error) {
	return parseResponse(out, body)
}

func (chat) NewStream() protocol.Stream { return &stream{} }

func (chat) AppendMessages(dst []byte, model string, messages []openai.ChatCompletionMessageParamUnion, responseFormat json.RawMessage, params protocol.Params, stream bool) ([]byte, error) {
	p, err := own(params)
	if err != nil {
		return nil, err
	}
	return Append(dst, model, messages, responseFormat, *p, stream)
}

func (chat) MessagesPrefix(model string, first openai.ChatCompletionMessageParamUnion, responseFormat json.RawMessage, params protocol.Params, stream bool) ([]byte, error) {
	p, err := own(params)
	if err != nil {
		return nil, err
	}
	return Prefix(model, first, responseFormat, *p, stream)
}

// own returns params as this protocol's type.
func own(params protocol.Params) (*Params, error) {
	return protocol.ParamsAs[Params](chat{}.Name(), params)
}

// Params are the sampling parameters of a chat completions request.
// Every field is a pointer: nil means "not sent", so the
// server's default applies, exactly as the reference's SamplingParams
// (multimodal/qwen3-vl/src/mlperf_inf_mm_q3vl/schema.py) whose fields all
// default to None. The zero value sends no sampling parameter.
//
// The JSON tags are the wire names, so a --generation-config file holds the
// same keys the server receives.
type Params struct {
	// FrequencyPenalty, PresencePenalty, Temperature and TopP are standard
	// OpenAI fields.
	FrequencyPenalty *float64 `json:"frequency_penalty,omitempty"`
	PresencePenalty  *float64 `json:"presence_penalty,omitempty"`
	Temperature      *float64 `json:"temperature,omitempty"`
	TopP             *float64 `json:"top_p,omitempty"`
	// TopK, MinP and RepetitionPenalty are vLLM extensions the reference
	// sends through extra_body.
	TopK              *int     `json:"top_k,omitempty"`
	MinP              *float64 `json:"min_p,omitempty"`
	RepetitionPenalty *float64 `json:"repetition_penalty,omitempty"`
	// MaxTokens and MaxCompletionTokens cap the output; the reference sets
	// neither.
	MaxTokens           *int `json:"max_tokens,omitempty"`
	MaxCompletionTokens *int `json:"max_completion_tokens,omitempty"`
	// Seed is sent only when set.
	Seed *int64 `json:"seed,omitempty"`
	// MinTokens and IgnoreEOS are extensions vLLM and SGLang read from a
	// chat request to fix an answer's length: at least MinTokens tokens,
	// and no stop at the end-of-sequence token. The reference sends
	// neither; mlperf-go bench sets both for exact output lengths.
	MinTokens *int  `json:"min_tokens,omitempty"`
	IgnoreEOS *bool `json:"ignore_eos,omitempty"`
}

// MaxTokensKey implements protocol.Params.
func (*Params) MaxTokensKey() string { return "max_tokens" }

// MinTokensKey is the wire name of the answer's minimum length.
func (*Params) MinTokensKey() string { return "min_tokens" }
