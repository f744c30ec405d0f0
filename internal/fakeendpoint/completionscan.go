package fakeendpoint

import (
	"errors"

	"github.com/mlperf-go/mlperf-go/internal/jscan"
)

// completionRequestFields are completionRequest's JSON names, in the order
// scanCompletion switches on.
var completionRequestFields = []string{"model", "prompt", "max_tokens", "stream", "stream_options", "return_token_ids", "echo"}

// errCompletionRejected is scanCompletion's verdict on a body it does not
// accept; parseCompletionEncodingJSON then says why.
var errCompletionRejected = errors.New("completions request rejected")

// scanCompletion decodes and validates a completions request in one jscan
// pass. Whenever it returns no error, parseCompletionEncodingJSON would
// return the same request (Prompt aside: it is left empty) and prompts;
// whenever it returns an error, so would parseCompletionEncodingJSON,
// whose message the client gets (FuzzParseCompletion checks both ways).
// llama3.1-8b bodies are mostly a token-ID prompt, which encoding/json
// validated, copied into a json.RawMessage, probed as []json.RawMessage and
// decoded again as []int32, all with reflection: 75% of the fake's CPU in
// make bench. A token-ID prompt is read here by jscan's integer loop in
// one pass; other prompt shapes (text, lists of texts or token lists) are
// rare and handed, as raw bytes, to the original parsePrompts.
//
// Fields match as encoding/json matches them (see scanChat): exactly or
// case-folded, the last duplicate wins, null leaves a bool or string as it
// is and clears a pointer; a null or absent prompt is "required".
func scanCompletion(body []byte, req *completionRequest) ([][]int32, error) {
	s := jscan.New(body)
	if isNull, err := s.Null(); err != nil || isNull {
		return nil, errCompletionRejected // no prompt
	}
	var (
		ids        []int32 // the prompt, when it is a plain token-ID list
		promptRaw  []byte  // the prompt's JSON otherwise
		havePrompt bool
	)
	err := s.Object(func(k []byte) error {
		switch matchField(k, completionRequestFields) {
		case 0:
			return scanString(&s, &req.Model)
		case 1:
			var ok bool
			if ids, ok = s.TryInt32s(ids[:0]); ok {
				promptRaw, havePrompt = nil, true
				return nil
			}
			raw, err := s.Raw()
			promptRaw, havePrompt = raw, string(raw) != "null"
			return err
		case 2:
			return scanIntPtr(&s, &req.MaxTokens)
		case 3:
			return scanBool(&s, &req.Stream)
		case 4:
			return scanStreamOptions(&s, &req.StreamOptions)
		case 5:
			return scanBool(&s, &req.ReturnTokenIDs)
		case 6:
			return scanBool(&s, &req.Echo)
		}
		return s.Skip()
	})
	if err == nil {
		err = s.End()
	}
	// parseCompletionEncodingJSON's checks, in its order.
	switch {
	case err != nil,
		req.StreamOptions != nil && !req.Stream,
		req.Echo,
		req.MaxTokens != nil && *req.MaxTokens < 1,
		!havePrompt:
		return nil, errCompletionRejected
	case promptRaw == nil:
		if len(ids) == 0 {
			return nil, errCompletionRejected // "prompt must not be empty"
		}
		return [][]int32{ids}, nil
	}
	prompts, err := parsePrompts(promptRaw)
	if err != nil {
		return nil, errCompletionRejected
	}
	return prompts, nil
}
