// Package vllmwire holds what the server sides of the OpenAI-compatible
// protocols (openaichat, openaicompletions) share, as vLLM v0.12 writes it
// (vllm/entrypoints/openai/protocol.py): stream_options, the members every
// response and stream chunk begins with, and the usage object.
package vllmwire

import (
	"strconv"

	"github.com/mlperf-go/mlperf-go/internal/jsonenc"
	"github.com/mlperf-go/mlperf-go/protocol"
)

// StreamOptions is a request's stream_options.
type StreamOptions struct {
	IncludeUsage         bool `json:"include_usage"`
	ContinuousUsageStats bool `json:"continuous_usage_stats"`
}

// AppendHead appends the members a response (and each of its stream
// chunks) begins with, up to the opening of "choices": a fresh ID with
// idPrefix, the object type, the time its generation started and the
// served model.
func AppendHead(dst []byte, r *protocol.Reply, idPrefix, object string) []byte {
	dst = append(dst, `{"id":"`...)
	dst = append(dst, idPrefix...)
	dst = r.IDs.AppendID(dst)
	dst = append(dst, `","object":"`...)
	dst = append(dst, object...)
	dst = append(dst, `","created":`...)
	dst = strconv.AppendInt(dst, r.Started.Unix(), 10)
	dst = append(dst, `,"model":`...)
	dst = jsonenc.AppendMinimal(dst, r.Model)
	return append(dst, `,"choices":[`...)
}

// AppendUsage appends a UsageInfo in vLLM's field order: prompt, total,
// completion (and prompt_tokens_details, null, in a whole response), then
// completion_tokens_details with reasoning_tokens when reasoning is not
// negative (vLLM reports it when a reasoning parser runs).
func AppendUsage(dst []byte, prompt, completion, reasoning int, withDetails bool) []byte {
	dst = append(dst, `{"prompt_tokens":`...)
	dst = strconv.AppendInt(dst, int64(prompt), 10)
	dst = append(dst, `,"total_tokens":`...)
	dst = strconv.AppendInt(dst, int64(prompt+completion), 10)
	dst = append(dst, `,"completion_tokens":`...)
	dst = strconv.AppendInt(dst, int64(completion), 10)
	if withDetails {
		dst = append(dst, `,"prompt_tokens_details":null`...)
	}
	if reasoning >= 0 {
		dst = append(dst, `,"completion_tokens_details":{"reasoning_tokens":`...)
		dst = strconv.AppendInt(dst, int64(reasoning), 10)
		dst = append(dst, '}')
	}
	return append(dst, '}')
}

// NoReasoning is AppendUsage's reasoning for a server without a
// reasoning parser: no completion_tokens_details.
const NoReasoning = -1
