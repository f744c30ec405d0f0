package sglang

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/mlperf-go/mlperf-go/internal/jsonenc"
	"github.com/mlperf-go/mlperf-go/protocol"
)

// The server side, as SGLang v0.5.4 serves /generate (the image the
// reference's language/gpt-oss-120b/setup_enroot.sh pins;
// sglang/srt/managers/tokenizer_manager.py, entrypoints/http_server.py): a
// JSON object {text, output_ids, meta_info} (an array of them for a
// batch), or with stream an SSE stream of such objects ending in
// "data: [DONE]", each carrying the cumulative text and output_ids unless
// the server streams incrementally (Reply.Incremental). Requests are
// decoded with encoding/json.

var _ protocol.Serving = generate{}

func (generate) AnswersTokenIDs() bool { return true }

func (generate) ParseRequest(body []byte) (protocol.Request, error) { return parseGenerate(body) }

// sglangDefaultMaxNewTokens is SGLang's SamplingParams.max_new_tokens
// default.
const sglangDefaultMaxNewTokens = 128

// generateRequest is a decoded /generate request (encoding/json names the
// type in its errors, which reach the client) and its server-side state.
type generateRequest struct {
	Text           json.RawMessage `json:"text"`
	InputIDs       json.RawMessage `json:"input_ids"`
	RID            json.RawMessage `json:"rid"`
	Stream         bool            `json:"stream"`
	SamplingParams struct {
		MaxNewTokens *int `json:"max_new_tokens"`
		MinNewTokens *int `json:"min_new_tokens"`
		IgnoreEOS    bool `json:"ignore_eos"`
	} `json:"sampling_params"`

	ask   protocol.Ask
	batch bool // the prompts came as a list, and so go the answers
	// metaHeads are, per answer, meta_info's members before its
	// finish_reason (the request ID), and metaMids those between it and
	// completion_tokens (prompt_tokens): the same in every event, so
	// written once.
	metaHeads, metaMids [][]byte
}

// parseGenerate decodes an SGLang /generate request: input_ids as one
// token-ID list or a batch of lists, or text as a string or list of strings.
func parseGenerate(body []byte) (*generateRequest, error) {
	req := new(generateRequest)
	if err := json.Unmarshal(body, req); err != nil {
		return nil, fmt.Errorf("invalid generate request JSON: %v", err)
	}
	if m := req.SamplingParams.MaxNewTokens; m != nil && *m < 0 {
		return nil, fmt.Errorf("max_new_tokens must be at least 0, got %d", *m)
	}
	ids := bytes.TrimSpace(req.InputIDs)
	text := bytes.TrimSpace(req.Text)
	hasIDs := len(ids) > 0 && string(ids) != "null"
	hasText := len(text) > 0 && string(text) != "null"
	if hasIDs == hasText {
		return nil, errors.New("Either text or input_ids should be provided.")
	}
	a := &req.ask
	if hasIDs {
		var one []int32
		if err := json.Unmarshal(ids, &one); err == nil {
			a.Prompts = [][]int32{one}
		} else if err := json.Unmarshal(ids, &a.Prompts); err == nil {
			req.batch = true
		} else {
			return nil, fmt.Errorf("input_ids must be a list of token IDs or a list of such lists: %v", err)
		}
	} else {
		var one string
		if err := json.Unmarshal(text, &one); err == nil {
			a.TextPrompts = []string{one}
		} else if err := json.Unmarshal(text, &a.TextPrompts); err == nil {
			req.batch = true
		} else {
			return nil, fmt.Errorf("text must be a string or a list of strings: %v", err)
		}
	}
	if len(a.Prompts)+len(a.TextPrompts) == 0 {
		return nil, errors.New("the batch of prompts is empty")
	}
	if req.batch && req.Stream {
		return nil, errors.New("the fake endpoint does not stream batched /generate requests; send one prompt per request")
	}
	a.Stream, a.MaxTokens = req.Stream, sglangDefaultMaxNewTokens
	if m := req.SamplingParams.MaxNewTokens; m != nil {
		a.MaxTokens = *m
	}
	if m := req.SamplingParams.MinNewTokens; m != nil {
		if *m < 0 || *m > a.MaxTokens {
			return nil, fmt.Errorf("min_new_tokens must be in [0, max_new_tokens=%d], got %d", a.MaxTokens, *m)
		}
		a.MinTokens = *m
	}
	a.IgnoreEOS = req.SamplingParams.IgnoreEOS
	return req, nil
}

func (r *generateRequest) Ask() *protocol.Ask { return &r.ask }

// AppendBody writes the answer object, or for a batch the list of them.
func (r *generateRequest) AppendBody(b []byte, rep *protocol.Reply) []byte {
	if r.batch {
		b = append(b, '[')
	}
	for i := range rep.Outputs {
		if i > 0 {
			b = append(b, ',')
		}
		b = r.appendObject(b, rep, i, 0, rep.Tokens, true)
	}
	if r.batch {
		b = append(b, ']')
	}
	return b
}

// AppendEvents writes one event: the answer so far, or with
// Reply.Incremental its new tokens.
func (r *generateRequest) AppendEvents(b []byte, rep *protocol.Reply, from, to int, last bool) []byte {
	if !rep.Incremental {
		from = 0
	}
	b = append(b, "data: "...)
	b = r.appendObject(b, rep, 0, from, to, last)
	return append(b, "\n\n"...)
}

// AppendTail writes nothing: SGLang's last event carries the finish.
func (r *generateRequest) AppendTail(b []byte, _ *protocol.Reply) []byte { return b }

// appendObject appends {text, output_ids, meta_info} of answer i for
// tokens [from, to).
func (r *generateRequest) appendObject(b []byte, rep *protocol.Reply, i, from, to int, final bool) []byte {
	out := rep.Outputs[i]
	b = append(b, `{"text":"`...)
	b = out.AppendText(b, from, to)
	if rep.OmitTokenIDs {
		b = append(b, `",`...)
	} else {
		b = append(b, `","output_ids":`...)
		b = out.AppendIDs(b, from, to)
		b = append(b, ',')
	}
	b = r.appendMeta(b, rep, i, to, final)
	return append(b, '}')
}

// appendMeta appends meta_info for answer i after c tokens, in SGLang's
// key order.
func (r *generateRequest) appendMeta(b []byte, rep *protocol.Reply, i, c int, final bool) []byte {
	if r.metaHeads == nil {
		r.writeMetaParts(rep)
	}
	b = append(b, r.metaHeads[i]...)
	switch {
	case !final:
		b = append(b, "null"...)
	case rep.Finish == "error":
		// SGLang has no error finish reason: a failed request is aborted
		// with the HTTP status it failed with.
		b = append(b, `{"type":"abort","message":`...)
		b = jsonenc.AppendMinimal(b, rep.FailMessage)
		b = append(b, `,"status_code":500,"err_type":"InternalServerError"}`...)
	case rep.Finish == "abort":
		b = append(b, `{"type":"abort","message":"Aborted","status_code":null,"err_type":null}`...)
	case rep.Finish == protocol.FinishLength:
		b = append(b, `{"type":"length","length":`...)
		b = strconv.AppendInt(b, int64(r.ask.MaxTokens), 10)
		b = append(b, '}')
	default:
		b = append(b, `{"type":"stop","matched":`...)
		b = strconv.AppendInt(b, int64(rep.StopToken), 10)
		b = append(b, '}')
	}
	b = append(b, r.metaMids[i]...)
	b = strconv.AppendInt(b, int64(c), 10)
	if rep.Reasoning > 0 {
		// With a reasoning parser on, the tokens of the reasoning so far.
		b = append(b, `,"reasoning_tokens":`...)
		b = strconv.AppendInt(b, int64(min(rep.Reasoning, c)), 10)
	}
	b = append(b, `,"cached_tokens":`...)
	cached := 0
	if i < len(rep.Cached) {
		cached = rep.Cached[i]
	}
	b = strconv.AppendInt(b, int64(cached), 10)
	if final {
		b = append(b, `,"e2e_latency":`...)
		b = strconv.AppendFloat(b, time.Since(rep.Arrived).Seconds(), 'g', -1, 64)
	}
	return append(b, '}')
}

// writeMetaParts writes metaHeads and metaMids. The request ID is the
// request's rid (a string, or a list for a batch) when given, else a fresh
// ID as SGLang makes.
func (r *generateRequest) writeMetaParts(rep *protocol.Reply) {
	n := len(rep.Outputs)
	var one string
	var rids []string
	switch {
	case len(r.RID) > 0 && json.Unmarshal(r.RID, &one) == nil && n == 1 && one != "":
		rids = []string{one}
	case len(r.RID) > 0 && json.Unmarshal(r.RID, &rids) == nil && len(rids) == n:
	default:
		rids = nil
	}
	buf := make([]byte, 0, 128*n)
	r.metaHeads, r.metaMids = make([][]byte, n), make([][]byte, n)
	for j := range n {
		start := len(buf)
		buf = append(buf, `"meta_info":{"id":`...)
		if rids != nil {
			buf = jsonenc.AppendMinimal(buf, rids[j])
		} else {
			buf = append(rep.IDs.AppendID(append(buf, '"')), '"') // hex: nothing to escape
		}
		buf = append(buf, `,"finish_reason":`...)
		r.metaHeads[j] = buf[start:len(buf):len(buf)]
		start = len(buf)
		buf = append(buf, `,"prompt_tokens":`...)
		buf = strconv.AppendInt(buf, int64(len(rep.Prompts[j])), 10)
		buf = append(buf, `,"weight_version":"default","completion_tokens":`...)
		r.metaMids[j] = buf[start:len(buf):len(buf)]
	}
}
