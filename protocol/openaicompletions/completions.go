// Package openaicompletions is vLLM's OpenAI-compatible completions
// protocol (POST /v1/completions) with token-ID prompts, as llama3_1-8b
// uses it: the prompt is sent as its token IDs (what the reference
// SUT_VLLM.py passes to generate(prompt_token_ids=...)) and the answer is
// read as the generated token IDs, which vLLM (>= 0.10.2) returns when the
// request asks for return_token_ids. Importing it registers it as
// "openai-completions" (alias "completions").
package openaicompletions

import (
	"fmt"
	"time"

	"github.com/mlperf-go/mlperf-go/protocol"
	"github.com/mlperf-go/mlperf-go/protocol/internal/jscan"
	"github.com/mlperf-go/mlperf-go/protocol/internal/jsonwire"
)

// Protocol is the completions protocol.
var Protocol protocol.Protocol = completions{}

func init() { protocol.Register(Protocol) }

// completions implements protocol.Protocol, protocol.TokenEncoder and
// protocol.TextEncoder.
type completions struct{}

var (
	_ protocol.TokenEncoder = completions{}
	_ protocol.TextEncoder  = completions{}
)

func (completions) Name() string      { return "openai-completions" }
func (completions) Aliases() []string { return []string{"completions"} }
func (completions) Path() string      { return "/v1/completions" }

// DefaultTimeout is 1200 s: the llama3.1-8b reference has no HTTP client,
// so this is the gpt-oss-120b reference's (run_mlperf.py --timeout).
func (completions) DefaultTimeout() time.Duration { return 1200 * time.Second }

// DefaultParams sends no sampling parameter (the server's defaults apply);
// a benchmark's reference values are its registered default sampling
// (benchmark.Serving.Sampling).
func (completions) DefaultParams() protocol.Params { return &Params{} }

func (completions) DecodeResponse(out, body []byte) ([]byte, int64, error) {
	return parseResponse(out, body)
}

func (completions) NewStream() protocol.Stream { return &stream{} }

func (completions) EncodeTokens(model string, prompt []int32, params protocol.Params, stream bool) ([]byte, error) {
	p, err := protocol.ParamsAs[Params](completions{}.Name(), params)
	if err != nil {
		return nil, err
	}
	return Encode(model, prompt, *p, stream)
}

func (completions) EncodeText(model, prompt string, params protocol.Params, stream bool) ([]byte, error) {
	p, err := protocol.ParamsAs[Params](completions{}.Name(), params)
	if err != nil {
		return nil, err
	}
	if prompt == "" {
		return nil, fmt.Errorf("completions request: empty prompt")
	}
	return encode(model, prompt, *p, stream)
}

// Params are the sampling parameters of a vLLM /v1/completions request.
// nil fields are not sent.
type Params struct {
	MaxTokens         *int     `json:"max_tokens,omitempty"`
	MinTokens         *int     `json:"min_tokens,omitempty"`
	Temperature       *float64 `json:"temperature,omitempty"`
	TopP              *float64 `json:"top_p,omitempty"`
	TopK              *int     `json:"top_k,omitempty"`
	MinP              *float64 `json:"min_p,omitempty"`
	Seed              *int64   `json:"seed,omitempty"`
	FrequencyPenalty  *float64 `json:"frequency_penalty,omitempty"`
	PresencePenalty   *float64 `json:"presence_penalty,omitempty"`
	RepetitionPenalty *float64 `json:"repetition_penalty,omitempty"`
	Stop              []string `json:"stop,omitempty"`
	StopTokenIDs      []int    `json:"stop_token_ids,omitempty"`
	IgnoreEOS         *bool    `json:"ignore_eos,omitempty"`
}

// MaxTokensKey implements protocol.Params.
func (*Params) MaxTokensKey() string { return "max_tokens" }

// MinTokensKey is the wire name of the answer's minimum length.
func (*Params) MinTokensKey() string { return "min_tokens" }

// request is a vLLM /v1/completions request; the prompt is token IDs
// ([]T) or text (string).
type request[P any] struct {
	Model  string `json:"model,omitempty"`
	Prompt P      `json:"prompt"`
	Params
	// ReturnTokenIDs asks vLLM (>= 0.10.2) to add choices[i].token_ids,
	// the generated token IDs, to the response (and, when streaming, the
	// delta IDs to every chunk). We use it rather than
	// return_tokens_as_token_ids, which only changes how tokens are
	// spelled inside logprobs ("token_id:123") and so needs logprobs
	// computed and parsed as strings: return_token_ids gives the IDs the
	// reference SUT reports (output.outputs[0].token_ids) directly.
	ReturnTokenIDs bool `json:"return_token_ids"`
	Stream         bool `json:"stream,omitempty"`
	// StreamOptions asks a stream to end with a usage chunk (the prompt
	// and answer token counts, which a whole answer always carries), so
	// a streamed request is counted as a plain one is.
	StreamOptions *streamOptions `json:"stream_options,omitempty"`
}

// streamOptions are a streamed request's OpenAI stream_options.
type streamOptions struct {
	IncludeUsage bool `json:"include_usage"`
}

// Encode builds a vLLM /v1/completions body: the prompt as its token-ID
// list, the set sampling parameters, "return_token_ids": true, and
// "stream": true with stream_options.include_usage when streaming. model
// may be empty (vLLM then uses its served model). The body has no spare
// capacity.
func Encode[T jsonwire.TokenID](model string, prompt []T, p Params, stream bool) ([]byte, error) {
	if len(prompt) == 0 {
		return nil, fmt.Errorf("completions request: empty prompt")
	}
	return encode(model, prompt, p, stream)
}

// encode builds a body for either kind of prompt.
func encode[P any](model string, prompt P, p Params, stream bool) ([]byte, error) {
	req := request[P]{Model: model, Prompt: prompt, Params: p, ReturnTokenIDs: true, Stream: stream}
	if stream {
		req.StreamOptions = &streamOptions{IncludeUsage: true}
	}
	return jsonwire.MarshalNoEscape(req)
}

// parseResponse decodes a non-streamed vLLM /v1/completions response
// requested with return_token_ids: choices[0].token_ids is appended to dst
// as int32 little-endian words and its length returned. A response without
// token_ids is an error: the server does not support return_token_ids
// (vLLM before 0.10.2) and the harness cannot report tokens. So is one
// whose finish_reason says the server gave up (protocol.FinishFailed).
func parseResponse(dst, body []byte) ([]byte, int64, error) {
	base := len(dst)
	dst, c, err := parseBody(dst, body)
	switch {
	case err != nil:
	case protocol.FinishFailed(string(c.finish)):
		err = protocol.FinishError(string(c.finish), fmt.Sprintf("%d tokens", c.n))
	case !c.have:
		err = &jsonwire.FieldError{Msg: errNoTokenIDs}
	}
	if err != nil {
		return dst[:base], 0, err
	}
	return dst, int64(c.n), nil
}

// errNoTokenIDs is the message for an answer without token IDs.
const errNoTokenIDs = "completions response has no choices[0].token_ids; the server must support return_token_ids (vLLM >= 0.10.2)"

// chunk is what one completions body or stream chunk carries.
type chunk struct {
	n      int    // token IDs appended
	have   bool   // choices[0].token_ids was an array
	finish []byte // choices[0].finish_reason; empty when null or absent
}

// parseChunk decodes one streamed completions chunk and appends its
// choices[0].token_ids (the delta, per vLLM's return_token_ids) to dst.
// Chunks without token_ids (the usage chunk) append nothing.
func parseChunk(dst, data []byte) ([]byte, chunk, error) {
	return parseBody(dst, data)
}

func parseBody(dst, body []byte) ([]byte, chunk, error) {
	s := jscan.New(body)
	base := len(dst)
	var c chunk
	var srvErr error
	err := s.Object(func(k []byte) error {
		switch string(k) {
		case "choices":
			dst, c = dst[:base], chunk{}
			if isNull, err := s.Null(); isNull || err != nil {
				return err
			}
			return s.Array(func(idx int) error {
				if idx != 0 {
					return s.Skip()
				}
				return s.Object(func(k []byte) error {
					switch string(k) {
					case "token_ids":
						var err error
						dst, c.n, c.have, err = jsonwire.ReplaceTokenIDs(&s, dst, base)
						return err
					case "finish_reason":
						c.finish = c.finish[:0]
						if isNull, err := s.Null(); isNull || err != nil {
							return err
						}
						raw, esc, err := s.Str()
						c.finish = jscan.AppendStr(c.finish, raw, esc)
						return err
					}
					return s.Skip()
				})
			})
		case "error":
			return jsonwire.ErrorField(&s, &srvErr)
		}
		return s.Skip()
	})
	err = jsonwire.WalkErr(&s, err, srvErr)
	if err != nil {
		return dst[:base], chunk{}, err
	}
	return dst, c, nil
}

// stream accumulates a streamed completions response: every chunk's
// token_ids are the next tokens; the first chunk with any is the first
// token event, reporting all of its IDs.
type stream struct {
	tokens  int64
	events  int
	haveIDs bool   // some chunk carried token_ids
	finish  []byte // the last finish_reason seen
}

func (st *stream) Reset() { *st = stream{finish: st.finish[:0]} }

func (st *stream) Tokens() int64 { return st.tokens }

func (st *stream) Next(out, data []byte) ([]byte, protocol.Event, error) {
	before := len(out)
	st.events++
	out, c, err := parseChunk(out, data)
	if err != nil {
		return out, protocol.Event{}, err
	}
	st.haveIDs = st.haveIDs || c.have
	if err := protocol.NoteFinish(&st.finish, c.finish, st.seen); err != nil {
		return out[:before], protocol.Event{}, err
	}
	var ev protocol.Event
	if st.tokens == 0 && c.n > 0 {
		ev = protocol.Event{First: true, FirstData: out[before:], FirstTokens: int64(c.n)}
	}
	st.tokens += int64(c.n)
	return out, ev, nil
}

// End fails a stream none of whose chunks carried token IDs, as
// parseResponse fails such a body, and accepts one that ended without
// [DONE] after its finish_reason, as OpenAI's client does.
func (st *stream) End(done bool) error {
	switch {
	case !st.haveIDs:
		return &jsonwire.FieldError{Msg: fmt.Sprintf("streamed %s, in none of %d events", errNoTokenIDs, st.events)}
	case done || len(st.finish) > 0:
		return nil
	}
	return fmt.Errorf("%w: no data: [DONE] and no finish_reason, after %s", protocol.ErrTruncated, st.seen())
}

// seen says how far the stream got, for messages.
func (st *stream) seen() string {
	return fmt.Sprintf("%d events and %d tokens", st.events, st.tokens)
}
