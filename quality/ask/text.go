package ask

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/mlperf-go/mlperf-go/protocol"
)

// textCompletions is the OpenAI completions API with a text prompt
// (POST /v1/completions, {"prompt": "…"}, answer in choices[0].text), as
// base models are evaluated. It is a protocol.Protocol for the pool but is
// not registered: no benchmark sends text prompts (llama3_1-8b's
// openai-completions sends token IDs), so `run --api` has no use for it
// and the fake endpoint need not serve it.
type textCompletions struct{}

func (textCompletions) Name() string      { return "openai-text-completions" }
func (textCompletions) Aliases() []string { return nil }
func (textCompletions) Path() string      { return "/v1/completions" }

// DefaultTimeout is the completions protocol's (20 minutes).
func (textCompletions) DefaultTimeout() time.Duration { return 20 * time.Minute }

func (textCompletions) DefaultParams() protocol.Params { return &textParams{} }

func (textCompletions) NewStream() protocol.Stream { return noStream{} }

// textParams are the sampling parameters a text completions request sends.
type textParams struct {
	MaxTokens   *int     `json:"max_tokens,omitempty"`
	Temperature *float64 `json:"temperature,omitempty"`
}

// MaxTokensKey implements protocol.Params.
func (*textParams) MaxTokensKey() string { return "max_tokens" }

// textRequest is a completions request with a text prompt.
type textRequest struct {
	Model  string `json:"model,omitempty"`
	Prompt string `json:"prompt"`
	textParams
}

// encodeText builds a text completions body.
func encodeText(model, prompt string, p textParams) ([]byte, error) {
	return json.Marshal(textRequest{Model: model, Prompt: prompt, textParams: p})
}

// DecodeResponse appends choices[0].text to out. A body without
// choices[0] is malformed; an "error" member is the server's error; a
// finish_reason of "error" or "abort" means the server gave up on the
// answer (protocol.FinishFailed). The token count is usage.completion_tokens,
// 0 when absent (it is only shown).
func (textCompletions) DecodeResponse(out, body []byte) ([]byte, int64, error) {
	var r struct {
		Choices []struct {
			Text         *string `json:"text"`
			FinishReason *string `json:"finish_reason"`
		} `json:"choices"`
		Usage *struct {
			CompletionTokens int64 `json:"completion_tokens"`
		} `json:"usage"`
		Error json.RawMessage `json:"error"`
	}
	if err := json.Unmarshal(body, &r); err != nil {
		return out, 0, fmt.Errorf("completions response is not JSON: %w", err)
	}
	if len(r.Error) > 0 && string(r.Error) != "null" {
		msg := string(r.Error)
		if len(msg) > 500 {
			msg = msg[:500] + "…"
		}
		return out, 0, &protocol.ServerError{Message: msg}
	}
	if len(r.Choices) == 0 || r.Choices[0].Text == nil {
		return out, 0, errors.New("completions response has no choices[0].text")
	}
	c := r.Choices[0]
	if c.FinishReason != nil && protocol.FinishFailed(*c.FinishReason) {
		return out, 0, protocol.FinishError(*c.FinishReason, fmt.Sprintf("%d bytes of text", len(*c.Text)))
	}
	var tokens int64
	if r.Usage != nil {
		tokens = r.Usage.CompletionTokens
	}
	return append(out, *c.Text...), tokens, nil
}

// noStream is the stream decoder of a protocol asked never to stream.
type noStream struct{}

func (noStream) Reset()        {}
func (noStream) Tokens() int64 { return 0 }
func (noStream) Next(out, _ []byte) ([]byte, protocol.Event, error) {
	return out, protocol.Event{}, errors.New("text completions are asked without streaming; the server streamed")
}
func (noStream) End(bool) error {
	return errors.New("text completions are asked without streaming; the server streamed")
}
