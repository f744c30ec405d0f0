// Package sglang is SGLang's native generation protocol (POST /generate)
// with token-ID prompts, as the gpt-oss-120b reference backend speaks it
// (language/gpt-oss-120b/backends/sglang_backend.py): input_ids and
// sampling_params in, output_ids and meta_info.completion_tokens out, in
// SGLang's cumulative stream chunks or --incremental-streaming-output ones.
// Importing it registers it as "sglang-generate" (alias "sglang").
package sglang

import (
	"encoding/binary"
	"fmt"
	"time"

	"github.com/mlperf-go/mlperf-go/protocol"
	"github.com/mlperf-go/mlperf-go/protocol/internal/jscan"
	"github.com/mlperf-go/mlperf-go/protocol/internal/jsonwire"
)

// Protocol is the SGLang /generate protocol.
var Protocol protocol.Protocol = generate{}

func init() { protocol.Register(Protocol) }

// generate implements protocol.Protocol, protocol.TokenEncoder and
// protocol.TextEncoder.
type generate struct{}

var (
	_ protocol.TokenEncoder = generate{}
	_ protocol.TextEncoder  = generate{}
)

func (generate) Name() string      { return "sglang-generate" }
func (generate) Aliases() []string { return []string{"sglang"} }
func (generate) Path() string      { return "/generate" }

// DefaultTimeout is 1200 s, the reference's (run_mlperf.py --timeout).
func (generate) DefaultTimeout() time.Duration { return 1200 * time.Second }

// DefaultParams sends no sampling parameter (the server's defaults apply);
// a benchmark's reference values are its registered default sampling
// (benchmark.Serving.Sampling).
func (generate) DefaultParams() protocol.Params { return &Params{} }

func (generate) DecodeResponse(out, body []byte) ([]byte, int64, error) {
	return parseResponse(out, body)
}

func (generate) NewStream() protocol.Stream { return &stream{} }

func (generate) EncodeTokens(_ string, prompt []int32, params protocol.Params, stream bool) ([]byte, error) {
	p, err := protocol.ParamsAs[Params](generate{}.Name(), params)
	if err != nil {
		return nil, err
	}
	return Encode(prompt, *p, stream)
}

func (generate) EncodeText(_, prompt string, params protocol.Params, stream bool) ([]byte, error) {
	p, err := protocol.ParamsAs[Params](generate{}.Name(), params)
	if err != nil {
		return nil, err
	}
	if prompt == "" {
		return nil, fmt.Errorf("SGLang request: empty text")
	}
	return jsonwire.MarshalNoEscape(textRequest{Text: prompt, SamplingParams: *p, Stream: stream})
}

// Params are the sampling_params of an SGLang /generate request. nil
// fields are not sent. The keys are those of the
// reference's generation_config.json and the extra parameters it lists as
// accepted by SGLang.
type Params struct {
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

// MaxTokensKey implements protocol.Params: SGLang calls it max_new_tokens.
func (*Params) MaxTokensKey() string { return "max_new_tokens" }

// MinTokensKey is the wire name of the answer's minimum length.
func (*Params) MinTokensKey() string { return "min_new_tokens" }

// IgnoreEOSSkipsEveryStopToken implements protocol.EOSIgnorer: SGLang's
// ignore_eos skips the check of every stop token, the model's and the
// request's (Req._check_token_based_finish), so an exact length sends no
// min_new_tokens, which SGLang refuses when it serves without a tokenizer
// (--skip-tokenizer-init: "min_new_tokens=8 is unavailable when
// skip_tokenizer_init=True").
func (*Params) IgnoreEOSSkipsEveryStopToken() {}

// request is an SGLang /generate request.
type request[T jsonwire.TokenID] struct {
	InputIDs       []T    `json:"input_ids"`
	SamplingParams Params `json:"sampling_params"`
	Stream         bool   `json:"stream,omitempty"`
}

// textRequest is an SGLang /generate request with a text prompt, which
// SGLang tokenizes.
type textRequest struct {
	Text           string `json:"text"`
	SamplingParams Params `json:"sampling_params"`
	Stream         bool   `json:"stream,omitempty"`
}

// Encode builds an SGLang /generate body as the reference backend does:
// input_ids, sampling_params (only the set ones) and "stream": true when
// streaming. The body has no spare capacity.
func Encode[T jsonwire.TokenID](inputIDs []T, p Params, stream bool) ([]byte, error) {
	if len(inputIDs) == 0 {
		return nil, fmt.Errorf("SGLang request: empty input_ids")
	}
	return jsonwire.MarshalNoEscape(request[T]{InputIDs: inputIDs, SamplingParams: p, Stream: stream})
}

// parseResponse decodes a non-streamed SGLang /generate response. The
// reference offline SUT (language/gpt-oss-120b/mlperf/offline_sut.py)
// reports output_ids as int32 and n_tokens = len(output_ids); we do the
// same. A response without output_ids is an error here (the reference
// would silently report zero tokens), and so is one SGLang aborted
// (meta_info.finish_reason of type "abort").
func parseResponse(dst, body []byte) ([]byte, int64, error) {
	s := jscan.New(body)
	base := len(dst)
	var n int
	have := false
	var meta chunk
	var srvErr error
	err := s.Object(func(k []byte) error {
		switch string(k) {
		case "output_ids":
			var err error
			dst, n, have, err = jsonwire.ReplaceTokenIDs(&s, dst, base)
			return err
		case "meta_info":
			return metaInfo(&s, &meta)
		case "error":
			return jsonwire.ErrorField(&s, &srvErr)
		}
		return s.Skip()
	})
	switch err = jsonwire.WalkErr(&s, err, srvErr); {
	case err != nil:
		return dst, 0, err
	case meta.aborted:
		return dst, 0, abortError(meta.abortMsg, fmt.Sprintf("%d tokens", n))
	case !have:
		return dst, 0, &jsonwire.FieldError{Msg: "SGLang response has no output_ids"}
	}
	return dst, int64(n), nil
}

// chunk is what one streamed SGLang chunk carries.
type chunk struct {
	ids              []int32 // output_ids of this chunk (cumulative or incremental)
	completionTokens int64   // meta_info.completion_tokens, 0 if absent
	finished         bool    // meta_info.finish_reason non-null, or "finished": true
	textRunes        int     // len(text) in code points
	hasIDs           bool    // output_ids was an array
	finishReason     bool    // meta_info.finish_reason non-null
	aborted          bool    // meta_info.finish_reason.type was "abort"
	abortMsg         []byte  // and its message
}

// abortError is the error of an answer SGLang aborted after what.
func abortError(msg []byte, what string) error {
	if len(msg) == 0 {
		msg = []byte("no message")
	}
	return &protocol.ServerError{Message: fmt.Sprintf("SGLang aborted the answer (finish_reason type \"abort\": %s) after %s", jsonwire.Clip(string(msg), 300), what)}
}

// metaInfo reads a meta_info object (or null) into c: completion_tokens
// and finish_reason, which is finished unless null or the string "null",
// and aborted when it is an object whose type is "abort".
func metaInfo(s *jscan.Scanner, c *chunk) error {
	c.completionTokens, c.finishReason, c.aborted = 0, false, false
	if isNull, err := s.Null(); isNull || err != nil {
		return err
	}
	return s.Object(func(k []byte) error {
		switch string(k) {
		case "completion_tokens":
			if isNull, err := s.Null(); isNull || err != nil {
				c.completionTokens = 0
				return err
			}
			v, err := s.Int64()
			c.completionTokens = v
			return err
		case "finish_reason":
			c.finishReason, c.aborted = false, false
			isNull, err := s.Null()
			if isNull || err != nil {
				return err
			}
			switch s.Peek() {
			case '"':
				raw, esc, err := s.Str()
				if err == nil && string(jscan.AppendStr(nil, raw, esc)) != "null" {
					c.finishReason = true
				}
				return err
			case '{':
				c.finishReason = true
				return s.Object(func(k []byte) error {
					switch string(k) {
					case "type":
						c.aborted = false
						if s.Peek() != '"' {
							return s.Skip()
						}
						raw, esc, err := s.Str()
						c.aborted = err == nil && string(jscan.AppendStr(nil, raw, esc)) == "abort"
						return err
					case "message":
						c.abortMsg = c.abortMsg[:0]
						if s.Peek() != '"' {
							return s.Skip()
						}
						raw, esc, err := s.Str()
						c.abortMsg = jscan.AppendStr(c.abortMsg, raw, esc)
						return err
					}
					return s.Skip()
				})
			}
			c.finishReason = true
			return s.Skip()
		}
		return s.Skip()
	})
}

// idPrefix carries a stream's previous output_ids array to the next chunk:
// raw is that array's bytes from '[' to the end of its last element and
// ids its elements. SGLang's default streams are cumulative (chunk k
// repeats the k-1 IDs already sent), so a chunk whose array starts with
// exactly raw, followed by a separator, starts with exactly ids: those
// bytes were validated and decoded before and are compared, not parsed
// again. That keeps a long stream linear in practice (one memcmp per
// chunk) instead of re-parsing every ID of every chunk
// (jscan.Scanner.Int32sReusing does the work).
type idPrefix struct {
	raw []byte
	ids []int32
}

// parseChunk decodes one streamed SGLang chunk. pf is the stream's
// prefix state (nil for none); c.ids is valid until the next call with the
// same pf.
func parseChunk(pf *idPrefix, data []byte) (chunk, error) {
	if pf == nil {
		pf = &idPrefix{}
	}
	s := jscan.New(data)
	c := chunk{ids: pf.ids[:0]}
	finishedFlag := false
	var srvErr error
	err := s.Object(func(k []byte) error {
		switch string(k) {
		case "output_ids":
			c.ids, c.hasIDs = pf.ids[:0], false
			if isNull, err := s.Null(); isNull || err != nil {
				pf.raw, pf.ids = pf.raw[:0], c.ids
				return err
			}
			c.hasIDs = true
			var err error
			c.ids, err = outputIDs(&s, pf)
			return err
		case "text":
			if isNull, err := s.Null(); isNull || err != nil {
				c.textRunes = 0
				return err
			}
			raw, esc, err := s.Str()
			if err == nil {
				c.textRunes = jscan.RuneCount(raw, esc)
			}
			return err
		case "finished":
			finishedFlag = false
			if p := s.Peek(); p != 't' && p != 'f' {
				return s.Skip()
			}
			v, err := s.Bool()
			finishedFlag = v
			return err
		case "meta_info":
			return metaInfo(&s, &c)
		case "error":
			return jsonwire.ErrorField(&s, &srvErr)
		}
		return s.Skip()
	})
	err = jsonwire.WalkErr(&s, err, srvErr)
	c.finished = finishedFlag || c.finishReason
	return c, err
}

// outputIDs reads an output_ids array, reusing pf's prefix when the array
// starts with it, and leaves pf describing this array.
func outputIDs(s *jscan.Scanner, pf *idPrefix) ([]int32, error) {
	var err error
	pf.raw, pf.ids, err = s.Int32sReusing(pf.raw, pf.ids)
	return pf.ids, err
}

// stream accumulates a streamed SGLang response exactly as the
// reference backend does (language/gpt-oss-120b/backends/sglang_backend.py,
// generate_stream): meta_info.completion_tokens is the authoritative
// cumulative count; when it grows by n, the new tokens are the last n of
// the chunk's output_ids (which covers both SGLang's cumulative chunks and
// incremental --stream-output chunks), or placeholders previous..count-1
// when the chunk carries fewer than n IDs. Without completion_tokens the
// chunk's output_ids are taken as a delta, and without those a non-empty
// text counts as max(1, len(text)/4) zero tokens.
//
// A stream none of whose chunks carries output_ids fails at its end, as a
// non-streamed answer without them does, and a chunk SGLang aborted fails
// it at once.
type stream struct {
	pf      idPrefix // the previous chunk's output_ids, kept across responses for its capacity
	n       int      // tokens so far
	started bool     // a chunk with tokens or text has been seen
	events  int
	hasIDs  bool // some chunk carried output_ids
}

func (st *stream) Reset() {
	st.pf.raw, st.pf.ids = st.pf.raw[:0], st.pf.ids[:0]
	st.n, st.started, st.events, st.hasIDs = 0, false, 0, false
}

// End fails a stream without output_ids, or one cut before its finish
// reason without [DONE].
func (st *stream) End(done bool) error {
	switch {
	case !st.hasIDs:
		return &jsonwire.FieldError{Msg: fmt.Sprintf("SGLang stream has no output_ids in any of its %d events", st.events)}
	case !done:
		return fmt.Errorf("%w: no finish_reason and no data: [DONE], after %d events and %d tokens", protocol.ErrTruncated, st.events, st.n)
	}
	return nil
}

func (st *stream) Tokens() int64 { return int64(st.n) }

// Next reports the first chunk with tokens or text as the first token,
// with its first ID only (server_sut.py: n_tokens 1), and a chunk with a
// finish reason as the end of the response.
func (st *stream) Next(out, data []byte) ([]byte, protocol.Event, error) {
	st.events++
	c, err := parseChunk(&st.pf, data)
	if err != nil {
		return out, protocol.Event{}, err
	}
	st.hasIDs = st.hasIDs || c.hasIDs
	if c.aborted {
		return out, protocol.Event{}, abortError(c.abortMsg, fmt.Sprintf("%d events and %d tokens", st.events, st.n))
	}
	before := len(out)
	out, first := st.add(out, c)
	ev := protocol.Event{Done: c.finished}
	if first {
		ev.First = true
		ev.FirstData = out[before:min(len(out), before+4)]
		ev.FirstTokens = int64(len(ev.FirstData) / 4)
	}
	return out, ev, nil
}

// add applies one chunk, appending its new tokens to acc, and reports
// whether it is the first chunk with tokens or text (the reference's
// is_first_token), when FirstTokenComplete must be sent.
func (st *stream) add(acc []byte, c chunk) (_ []byte, first bool) {
	delta := 0
	if c.completionTokens > 0 {
		prev := int64(st.n)
		if c.completionTokens > prev {
			k := c.completionTokens - prev
			if int64(len(c.ids)) >= k {
				for _, id := range c.ids[int64(len(c.ids))-k:] {
					acc = binary.LittleEndian.AppendUint32(acc, uint32(id))
				}
			} else {
				for v := prev; v < c.completionTokens; v++ {
					acc = binary.LittleEndian.AppendUint32(acc, uint32(int32(v)))
				}
			}
			delta = int(k)
		}
	} else if len(c.ids) > 0 {
		for _, id := range c.ids {
			acc = binary.LittleEndian.AppendUint32(acc, uint32(id))
		}
		delta = len(c.ids)
	} else if c.textRunes > 0 {
		delta = max(1, c.textRunes/4)
		for range delta {
			acc = binary.LittleEndian.AppendUint32(acc, 0)
		}
	}
	st.n += delta
	if !st.started && (delta > 0 || c.textRunes > 0) {
		st.started = true
		return acc, true
	}
	return acc, false
}
