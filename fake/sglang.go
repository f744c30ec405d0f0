package fake

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"
)

// sglangDefaultMaxNewTokens is SGLang's SamplingParams.max_new_tokens default.
const sglangDefaultMaxNewTokens = 128

type generateRequest struct {
	Text           json.RawMessage `json:"text"`
	InputIDs       json.RawMessage `json:"input_ids"`
	RID            json.RawMessage `json:"rid"`
	Stream         bool            `json:"stream"`
	SamplingParams struct {
		MaxNewTokens *int `json:"max_new_tokens"`
	} `json:"sampling_params"`
}

// parseGenerate decodes an SGLang /generate request: input_ids as one
// token-ID list or a batch of lists, or text as a string or list of strings.
// It returns the prompts and whether the request was a batch.
func parseGenerate(body []byte) (*generateRequest, [][]int32, bool, error) {
	var req generateRequest
	if err := json.Unmarshal(body, &req); err != nil {
		return nil, nil, false, fmt.Errorf("invalid generate request JSON: %v", err)
	}
	if m := req.SamplingParams.MaxNewTokens; m != nil && *m < 0 {
		return nil, nil, false, fmt.Errorf("max_new_tokens must be at least 0, got %d", *m)
	}
	ids := bytes.TrimSpace(req.InputIDs)
	text := bytes.TrimSpace(req.Text)
	hasIDs := len(ids) > 0 && string(ids) != "null"
	hasText := len(text) > 0 && string(text) != "null"
	if hasIDs == hasText {
		return nil, nil, false, errors.New("Either text or input_ids should be provided.")
	}
	var prompts [][]int32
	batch := false
	if hasIDs {
		var one []int32
		if err := json.Unmarshal(ids, &one); err == nil {
			prompts = [][]int32{one}
		} else if err := json.Unmarshal(ids, &prompts); err == nil {
			batch = true
		} else {
			return nil, nil, false, fmt.Errorf("input_ids must be a list of token IDs or a list of such lists: %v", err)
		}
	} else {
		var one string
		var many []string
		if err := json.Unmarshal(text, &one); err == nil {
			prompts = [][]int32{textPromptIDs(one)}
		} else if err := json.Unmarshal(text, &many); err == nil {
			batch = true
			for _, t := range many {
				prompts = append(prompts, textPromptIDs(t))
			}
		} else {
			return nil, nil, false, fmt.Errorf("text must be a string or a list of strings: %v", err)
		}
	}
	if len(prompts) == 0 {
		return nil, nil, false, errors.New("the batch of prompts is empty")
	}
	if batch && req.Stream {
		return nil, nil, false, errors.New("the fake endpoint does not stream batched /generate requests; send one prompt per request")
	}
	return &req, prompts, batch, nil
}

// handleGenerate serves SGLang's native /generate: a JSON object {text,
// output_ids, meta_info} (an array of them for a batch), or with stream an
// SSE stream of such objects ending in "data: [DONE]". Stream events carry the
// cumulative text and output_ids unless SGLangIncrementalStream is set.
func (s *Server) handleGenerate(w http.ResponseWriter, r *http.Request) {
	arrived := time.Now()
	var (
		req     *generateRequest
		prompts [][]int32
		batch   bool
	)
	if !s.decodeBody(w, r, func(b []byte) (err error) { req, prompts, batch, err = parseGenerate(b); return err }) {
		return
	}
	fault := s.pickFault(requestKind{stream: req.Stream, tokenIDs: true})
	if s.injectEarly(w, r, fault, req.Stream) {
		return
	}

	maxNew := sglangDefaultMaxNewTokens
	if m := req.SamplingParams.MaxNewTokens; m != nil {
		maxNew = *m
	}
	n, capped := s.cfg.OutputTokens, false
	if n >= maxNew {
		n, capped = maxNew, true
	}
	abort := finishReason(fault)
	if abort != "" {
		n = min(n, 1)
	}
	endless := fault == FailEndless
	if endless {
		n = max(n, 1)
	}
	rids := s.rids(req.RID, len(prompts))
	outs := make([]*encodedTokens, len(prompts))
	promptTotal := 0
	for i, p := range prompts {
		outs[i] = encodeTokens(Tokens(p, n))
		promptTotal += len(p)
	}

	g, ok := s.begin(r, arrived, promptTotal, prompts)
	if !ok {
		return
	}
	defer g.end()

	// meta appends meta_info for prompt i after c tokens, SGLang's key order.
	meta := func(b []byte, i, c int, final bool) []byte {
		b = append(b, `"meta_info":{"id":`...)
		b = appendJSONString(b, rids[i])
		b = append(b, `,"finish_reason":`...)
		switch {
		case !final:
			b = append(b, "null"...)
		case abort == "error":
			// SGLang has no error finish reason: a failed request is
			// aborted with the HTTP status it failed with.
			b = append(b, `{"type":"abort","message":"injected fault: internal error","status_code":500,"err_type":"InternalServerError"}`...)
		case abort == "abort":
			b = append(b, `{"type":"abort","message":"Aborted","status_code":null,"err_type":null}`...)
		case capped:
			b = append(b, `{"type":"length","length":`...)
			b = appendInt(b, maxNew)
			b = append(b, '}')
		default:
			b = append(b, `{"type":"stop","matched":`...)
			b = appendInt(b, StopTokenID)
			b = append(b, '}')
		}
		b = append(b, `,"prompt_tokens":`...)
		b = appendInt(b, len(prompts[i]))
		b = append(b, `,"weight_version":"default","completion_tokens":`...)
		b = appendInt(b, c)
		b = append(b, `,"cached_tokens":0`...)
		if final {
			b = append(b, `,"e2e_latency":`...)
			b = strconv.AppendFloat(b, time.Since(g.arrived).Seconds(), 'g', -1, 64)
		}
		return append(b, '}')
	}
	// object appends {text, output_ids, meta_info} for tokens [from, to).
	object := func(b []byte, i, from, to int, final bool) []byte {
		if to > outs[i].len() { // endless: Tokens(p, k) extends Tokens(p, n)
			outs[i] = encodeTokens(Tokens(prompts[i], 2*to))
		}
		b = append(b, `{"text":"`...)
		b = outs[i].appendText(b, from, to)
		if fault == FailNoTokenIDs {
			b = append(b, `",`...)
		} else {
			b = append(b, `","output_ids":`...)
			b = outs[i].appendIDs(b, from, to)
			b = append(b, ',')
		}
		b = meta(b, i, to, final)
		return append(b, '}')
	}

	if !req.Stream {
		if !g.waitAll(n) {
			return
		}
		bp := s.getBuf()
		defer s.putBuf(bp)
		b := (*bp)[:0]
		if batch {
			b = append(b, '[')
		}
		for i := range outs {
			if i > 0 {
				b = append(b, ',')
			}
			b = object(b, i, 0, n, true)
		}
		if batch {
			b = append(b, ']')
		}
		*bp = b
		if fault == FailCut {
			writeCut(w, b)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(b)
		return
	}

	incremental := s.cfg.SGLangIncrementalStream
	events := func(b []byte, from, to int) []byte {
		if !incremental {
			from = 0
		}
		b = append(b, "data: "...)
		b = object(b, 0, from, to, to == n && !endless)
		return append(b, "\n\n"...)
	}
	tail := func(b []byte) []byte { return appendDone(b, fault) }
	g.stream(w, n, fault, events, tail)
}

// rids returns the request IDs: the request's rid (a string, or a list for a
// batch) when given, else fresh uuid-like hex IDs as SGLang makes.
func (s *Server) rids(raw json.RawMessage, n int) []string {
	out := make([]string, n)
	var one string
	var many []string
	if len(raw) > 0 {
		if json.Unmarshal(raw, &one) == nil && n == 1 && one != "" {
			out[0] = one
			return out
		}
		if json.Unmarshal(raw, &many) == nil && len(many) == n {
			copy(out, many)
			return out
		}
	}
	for i := range out {
		out[i] = string(appendHexID(nil, s.nextID()))
	}
	return out
}
