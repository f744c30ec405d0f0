package openaicompletions

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/mlperf-go/mlperf-go/protocol"
	"github.com/mlperf-go/mlperf-go/protocol/internal/vllmwire"
)

// The server side, as vLLM v0.12 serves /v1/completions
// (vllm/entrypoints/openai/serving_completion.py, protocol.py), including
// return_token_ids: choices carry prompt_token_ids and token_ids; when
// streaming, prompt_token_ids only in a choice's first chunk and token_ids
// as the chunk's delta. Requests are decoded with encoding/json.

var _ protocol.Serving = completions{}

func (completions) AnswersTokenIDs() bool { return true }

func (completions) ParseRequest(body []byte) (protocol.Request, error) {
	return parseCompletion(body)
}

// completionDefaultMaxTokens is vLLM's CompletionRequest.max_tokens default.
const completionDefaultMaxTokens = 16

// completionRequest is a decoded completions request (encoding/json names
// the type in its errors, which reach the client) and its server-side
// state.
type completionRequest struct {
	Model          string                  `json:"model"`
	Prompt         json.RawMessage         `json:"prompt"`
	MaxTokens      *int                    `json:"max_tokens"`
	MinTokens      *int                    `json:"min_tokens"`
	IgnoreEOS      bool                    `json:"ignore_eos"`
	Stream         bool                    `json:"stream"`
	StreamOptions  *vllmwire.StreamOptions `json:"stream_options"`
	ReturnTokenIDs bool                    `json:"return_token_ids"`
	Echo           bool                    `json:"echo"`

	ask     protocol.Ask
	head    []byte // a stream's chunks all begin with it
	headBuf [160]byte
}

// parsePrompts decodes an OpenAI completions prompt into ask: a string, a
// list of strings, a token-ID list or a list of token-ID lists.
func parsePrompts(raw json.RawMessage, ask *protocol.Ask) error {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return errors.New("prompt is required")
	}
	if raw[0] == '"' {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return fmt.Errorf("invalid prompt: %v", err)
		}
		ask.TextPrompts = []string{s}
		return nil
	}
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return fmt.Errorf("prompt must be a string, a list of strings, a list of token IDs or a list of token-ID lists: %v", err)
	}
	if len(items) == 0 {
		return errors.New("prompt must not be empty")
	}
	first := bytes.TrimSpace(items[0])
	switch {
	case len(first) > 0 && (first[0] == '-' || (first[0] >= '0' && first[0] <= '9')):
		var ids []int32
		if err := json.Unmarshal(raw, &ids); err != nil {
			return fmt.Errorf("invalid token-ID prompt: %v", err)
		}
		ask.Prompts = [][]int32{ids}
	case len(first) > 0 && first[0] == '"':
		if err := json.Unmarshal(raw, &ask.TextPrompts); err != nil {
			return fmt.Errorf("invalid list-of-strings prompt: %v", err)
		}
	default:
		if err := json.Unmarshal(raw, &ask.Prompts); err != nil {
			return fmt.Errorf("invalid list-of-token-lists prompt: %v", err)
		}
		for i, l := range ask.Prompts {
			if len(l) == 0 {
				return fmt.Errorf("prompt %d is an empty token list", i)
			}
		}
	}
	return nil
}

// parseCompletion decodes (encoding/json) and validates a completions
// request the way vLLM rejects bad ones (400 with a message).
func parseCompletion(body []byte) (*completionRequest, error) {
	req := new(completionRequest)
	if err := json.Unmarshal(body, req); err != nil {
		return nil, fmt.Errorf("invalid completion request JSON: %v", err)
	}
	if req.StreamOptions != nil && !req.Stream {
		return nil, errors.New("Stream options can only be defined when `stream=True`.")
	}
	if req.Echo {
		return nil, errors.New("echo is not supported by the fake endpoint")
	}
	if req.MaxTokens != nil && *req.MaxTokens < 1 {
		return nil, fmt.Errorf("max_tokens must be at least 1, got %d.", *req.MaxTokens)
	}
	if err := parsePrompts(req.Prompt, &req.ask); err != nil {
		return nil, err
	}
	req.ask.Model, req.ask.Stream, req.ask.MaxTokens = req.Model, req.Stream, completionDefaultMaxTokens
	if req.MaxTokens != nil {
		req.ask.MaxTokens = *req.MaxTokens
	}
	if m := req.MinTokens; m != nil {
		if *m < 0 || *m > req.ask.MaxTokens {
			return nil, fmt.Errorf("min_tokens must be between 0 and max_tokens=%d, got %d.", req.ask.MaxTokens, *m)
		}
		req.ask.MinTokens = *m
	}
	req.ask.IgnoreEOS = req.IgnoreEOS
	return req, nil
}

func (r *completionRequest) Ask() *protocol.Ask { return &r.ask }

// returnIDs says whether choices carry token IDs: asked for and not left
// out.
func (r *completionRequest) returnIDs(rep *protocol.Reply) bool {
	return r.ReturnTokenIDs && !rep.OmitTokenIDs
}

// AppendBody writes a text_completion with a choice per prompt.
func (r *completionRequest) AppendBody(b []byte, rep *protocol.Reply) []byte {
	n, ids := rep.Tokens, r.returnIDs(rep)
	b = vllmwire.AppendHead(b, rep, "cmpl-", "text_completion")
	for i, out := range rep.Outputs {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"index":`...)
		b = strconv.AppendInt(b, int64(i), 10)
		b = append(b, `,"text":"`...)
		b = out.AppendText(b, 0, n)
		b = append(b, `","logprobs":null,"finish_reason":"`...)
		b = append(b, rep.Finish...)
		b = append(b, `","stop_reason":null,"token_ids":`...)
		b = appendIDsOrNull(b, ids, out, 0, n)
		b = append(b, `,"prompt_logprobs":null,"prompt_token_ids":`...)
		b = appendPromptOrNull(b, ids, rep.Prompts[i])
		b = append(b, '}')
	}
	b = append(b, `],"service_tier":null,"system_fingerprint":null,"usage":`...)
	b = vllmwire.AppendUsage(b, rep.PromptTokens, n*len(rep.Outputs), vllmwire.NoReasoning, true)
	return append(b, `,"kv_transfer_params":null}`...)
}

// AppendEvents writes a chunk per prompt, each with its tokens' text and
// IDs.
func (r *completionRequest) AppendEvents(b []byte, rep *protocol.Reply, from, to int, last bool) []byte {
	if from == 0 {
		r.head = vllmwire.AppendHead(r.headBuf[:0], rep, "cmpl-", "text_completion")
	}
	ids := r.returnIDs(rep)
	continuous := r.StreamOptions != nil && r.StreamOptions.ContinuousUsageStats
	for i, out := range rep.Outputs {
		b = append(b, "data: "...)
		b = append(b, r.head...)
		b = append(b, `{"index":`...)
		b = strconv.AppendInt(b, int64(i), 10)
		b = append(b, `,"text":"`...)
		b = out.AppendText(b, from, to)
		b = append(b, `","logprobs":null,"finish_reason":`...)
		if last {
			b = append(b, '"')
			b = append(b, rep.Finish...)
			b = append(b, `","stop_reason":null`...)
		} else {
			b = append(b, `null,"stop_reason":null`...)
		}
		b = append(b, `,"prompt_token_ids":`...)
		b = appendPromptOrNull(b, ids && from == 0, rep.Prompts[i])
		b = append(b, `,"token_ids":`...)
		b = appendIDsOrNull(b, ids, out, from, to)
		b = append(b, `}],"usage":`...)
		if continuous {
			b = vllmwire.AppendUsage(b, len(rep.Prompts[i]), to, vllmwire.NoReasoning, false)
		} else {
			b = append(b, "null"...)
		}
		b = append(b, "}\n\n"...)
	}
	return b
}

// AppendTail writes the usage chunk stream_options.include_usage asks for.
func (r *completionRequest) AppendTail(b []byte, rep *protocol.Reply) []byte {
	if r.StreamOptions == nil || !r.StreamOptions.IncludeUsage {
		return b
	}
	b = append(b, "data: "...)
	b = append(b, r.head...)
	b = append(b, `],"usage":`...)
	b = vllmwire.AppendUsage(b, rep.PromptTokens, rep.Tokens*len(rep.Outputs), vllmwire.NoReasoning, false)
	return append(b, "}\n\n"...)
}

// appendIDsOrNull appends out's tokens [from, to) as a JSON array, or null
// when the choice carries no IDs.
func appendIDsOrNull(b []byte, ids bool, out protocol.Output, from, to int) []byte {
	if !ids {
		return append(b, "null"...)
	}
	return out.AppendIDs(b, from, to)
}

// appendPromptOrNull appends prompt as a JSON array, or null.
func appendPromptOrNull(b []byte, ids bool, prompt []int32) []byte {
	if !ids {
		return append(b, "null"...)
	}
	return protocol.AppendTokenIDs(b, prompt)
}
