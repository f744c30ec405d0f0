package sut

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
)

// ChatParams are the sampling parameters of a chat completions request
// (qwen3-vl). Every field is a pointer: nil means "not sent", so the
// server's default applies, exactly as the reference's SamplingParams
// (multimodal/qwen3-vl/src/mlperf_inf_mm_q3vl/schema.py) whose fields all
// default to None. The zero value sends no sampling parameter.
//
// The JSON tags are the wire names, so a --generation-config file holds the
// same keys the server receives.
type ChatParams struct {
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
}

// CompletionParams are the sampling parameters of a vLLM /v1/completions
// request (llama3_1-8b). nil fields are not sent. DefaultCompletionParams
// gives the reference's values.
type CompletionParams struct {
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

// DefaultCompletionParams returns the reference llama3.1-8b sampling
// parameters (language/llama3.1-8b/SUT_VLLM.py gen_kwargs): greedy
// (temperature 0, top_p 1, top_k 1), seed 42, max_tokens 128, min_tokens 1.
func DefaultCompletionParams() CompletionParams {
	return CompletionParams{
		Temperature: ptr(0.0),
		TopP:        ptr(1.0),
		TopK:        ptr(1),
		Seed:        ptr(int64(42)),
		MaxTokens:   ptr(128),
		MinTokens:   ptr(1),
	}
}

// SGLangParams are the sampling_params of an SGLang /generate request
// (gpt-oss-120b). nil fields are not sent. The keys are those of the
// reference's generation_config.json and the extra parameters it lists as
// accepted by SGLang.
type SGLangParams struct {
	MaxNewTokens      *int     `json:"max_new_tokens,omitempty"`
	MinNewTokens      *int     `json:"min_new_tokens,omitempty"`
	Temperature       *float64 `json:"temperature,omitempty"`
	TopK              *int     `json:"top_k,omitempty"`
	TopP              *float64 `json:"top_p,omitempty"`
	MinP              *float64 `json:"min_p,omitempty"`
	FrequencyPenalty  *float64 `json:"frequency_penalty,omitempty"`
	PresencePenalty   *float64 `json:"presence_penalty,omitempty"`
	RepetitionPenalty *float64 `json:"repetition_penalty,omitempty"`
	Stop              []string `json:"stop,omitempty"`
	StopTokenIDs      []int    `json:"stop_token_ids,omitempty"`
	IgnoreEOS         *bool    `json:"ignore_eos,omitempty"`
}

// DefaultSGLangParams returns the reference gpt-oss-120b values
// (language/gpt-oss-120b/generation_config.json): max_new_tokens 32768,
// temperature 1.0, top_k -1 (disabled), top_p 1.0.
func DefaultSGLangParams() SGLangParams {
	return SGLangParams{
		MaxNewTokens: ptr(32768),
		Temperature:  ptr(1.0),
		TopK:         ptr(-1),
		TopP:         ptr(1.0),
	}
}

func ptr[T any](v T) *T { return &v }

// DecodeGenerationConfig fills params (a *ChatParams, *CompletionParams or
// *SGLangParams, usually pre-set to the defaults) from a generation-config
// JSON document. As in the reference's load_generation_config
// (language/gpt-oss-120b/run_mlperf.py), top-level keys starting with "_"
// are comments and are dropped; any other unknown key is an error, so a
// typo does not silently leave a default in place. Keys present override
// the value in params; keys absent leave it.
func DecodeGenerationConfig(data []byte, params any) error {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return fmt.Errorf("generation config: not a JSON object: %w", err)
	}
	for k := range top {
		if strings.HasPrefix(k, "_") {
			delete(top, k)
		}
	}
	clean, err := json.Marshal(top)
	if err != nil {
		return fmt.Errorf("generation config: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(clean))
	dec.DisallowUnknownFields()
	if err := dec.Decode(params); err != nil {
		return fmt.Errorf("generation config: %w (keys are the request's wire names, e.g. temperature, top_p, max_new_tokens)", err)
	}
	return nil
}

// LoadGenerationConfig reads a generation-config file into params; see
// DecodeGenerationConfig.
func LoadGenerationConfig(path string, params any) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("generation config: %w", err)
	}
	if err := DecodeGenerationConfig(data, params); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}
