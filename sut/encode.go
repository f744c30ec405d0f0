package sut

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/mlperf-go/mlperf-go/internal/slab"
	"github.com/openai/openai-go"
)

// Request encoders. Bodies are built once, when LoadGen loads a sample
// (qsl.Builder), so the hot path only writes bytes; fidelity matters most,
// but loading tens of thousands of 60 KB chat bodies must not take minutes
// (see encode_chat.go).

// TokenID is any integer type a tokenised dataset may store.
type TokenID interface {
	~int | ~int32 | ~int64 | ~uint32
}

// EncodeChat builds a /v1/chat/completions body the way the reference
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
func EncodeChat(model string, messages []openai.ChatCompletionMessageParamUnion, responseFormat json.RawMessage, p ChatParams, stream bool) ([]byte, error) {
	if len(messages) == 0 { // openai-go omits a nil list; leave such oddities to it
		b, err := encodeChatGeneric(model, messages, responseFormat, p, stream)
		return exact(b), err
	}
	return encodeChatDirect(model, messages, responseFormat, p, stream)
}

// ChatPrefix returns the bytes every EncodeChat body begins with when its
// messages are first and then a user message whose content is a list of
// parts starting with text, as the Qwen3-VL requests are, for the given
// model and parameters: the part qsl.Library.SharePrefix can keep once
// (the model and the 1.8 KB system prompt). It is found by encoding two
// such requests whose user text differs in its first byte, so it is
// exactly what EncodeChat writes.
func ChatPrefix(model string, first openai.ChatCompletionMessageParamUnion, responseFormat json.RawMessage, p ChatParams, stream bool) ([]byte, error) {
	probe := func(text string) ([]byte, error) {
		return EncodeChat(model, []openai.ChatCompletionMessageParamUnion{
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

// AppendChat appends the body EncodeChat returns to dst, for builders
// that keep one scratch buffer per worker (qsl.Library copies what it is
// given).
func AppendChat(dst []byte, model string, messages []openai.ChatCompletionMessageParamUnion, responseFormat json.RawMessage, p ChatParams, stream bool) ([]byte, error) {
	if len(messages) == 0 {
		b, err := encodeChatGeneric(model, messages, responseFormat, p, stream)
		return append(dst, b...), err
	}
	return appendChatDirect(dst, model, messages, responseFormat, p, stream)
}

// encodeChatGeneric is EncodeChat through openai-go's marshalling: the
// reference the direct encoder is tested against.
func encodeChatGeneric(model string, messages []openai.ChatCompletionMessageParamUnion, responseFormat json.RawMessage, p ChatParams, stream bool) ([]byte, error) {
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

// completionBody is a vLLM /v1/completions request.
type completionBody[T TokenID] struct {
	Model  string `json:"model,omitempty"`
	Prompt []T    `json:"prompt"`
	CompletionParams
	// ReturnTokenIDs asks vLLM (>= 0.10.2) to add choices[i].token_ids,
	// the generated token IDs, to the response (and, when streaming, the
	// delta IDs to every chunk). We use it rather than
	// return_tokens_as_token_ids, which only changes how tokens are
	// spelled inside logprobs ("token_id:123") and so needs logprobs
	// computed and parsed as strings: return_token_ids gives the IDs the
	// reference SUT reports (output.outputs[0].token_ids) directly.
	ReturnTokenIDs bool `json:"return_token_ids"`
	Stream         bool `json:"stream,omitempty"`
}

// EncodeCompletion builds a vLLM /v1/completions body: the prompt as its
// token-ID list (what the reference SUT_VLLM.py passes to
// generate(prompt_token_ids=...)), the set sampling parameters,
// "return_token_ids": true, and "stream": true when streaming.
// model may be empty (vLLM then uses its served model).
func EncodeCompletion[T TokenID](model string, prompt []T, p CompletionParams, stream bool) ([]byte, error) {
	if len(prompt) == 0 {
		return nil, fmt.Errorf("completions request: empty prompt")
	}
	return marshalNoEscape(completionBody[T]{
		Model:            model,
		Prompt:           prompt,
		CompletionParams: p,
		ReturnTokenIDs:   true,
		Stream:           stream,
	})
}

// sglangBody is an SGLang /generate request.
type sglangBody[T TokenID] struct {
	InputIDs       []T          `json:"input_ids"`
	SamplingParams SGLangParams `json:"sampling_params"`
	Stream         bool         `json:"stream,omitempty"`
}

// EncodeSGLang builds an SGLang /generate body as the reference backend
// does (language/gpt-oss-120b/backends/sglang_backend.py): input_ids,
// sampling_params (only the set ones) and "stream": true when streaming.
func EncodeSGLang[T TokenID](inputIDs []T, p SGLangParams, stream bool) ([]byte, error) {
	if len(inputIDs) == 0 {
		return nil, fmt.Errorf("SGLang request: empty input_ids")
	}
	return marshalNoEscape(sglangBody[T]{InputIDs: inputIDs, SamplingParams: p, Stream: stream})
}

func marshalNoEscape(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return exact(bytes.TrimSuffix(buf.Bytes(), []byte("\n"))), nil
}

// exact returns a copy of b without spare capacity: bodies stay in memory
// while their sample is loaded (see package slab).
func exact(b []byte) []byte { return slab.Copy(b) }
