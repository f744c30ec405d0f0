package sut

import (
	"encoding/binary"
	"errors"

	"github.com/mlperf-go/mlperf-go/internal/jscan"
)

// Parsers for the three response formats. Each walks the whole body once
// with a jscan.Scanner (so malformed JSON is always an error), decodes only the
// fields the harness reports, and appends the LoadGen payload to a
// caller-owned buffer.

// fieldError marks a well-formed body that lacks a field the harness needs.
type fieldError struct{ msg string }

func (e *fieldError) Error() string { return e.msg }

// serverError is an {"error": ...} object sent in place of a result.
type serverError struct{ msg string }

func (e *serverError) Error() string { return "server error: " + e.msg }

// errorObject consumes the value of an "error" key and returns it as an
// error (nil for null). The message is clipped so logs stay readable.
func errorObject(s *jscan.Scanner) error {
	if isNull, err := s.Null(); isNull || err != nil {
		return err
	}
	raw, err := s.Raw()
	if err != nil {
		return err
	}
	return &serverError{clip(string(raw), 300)}
}

func clip(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

// parseChat decodes a non-streamed chat completion (vLLM/OpenAI
// /v1/chat/completions). It appends choices[0].message.content (UTF-8;
// null or absent reads as empty, as task.py does) to dst and returns
// usage.completion_tokens, which must be present: task.py's
// int(response.usage.completion_tokens) raises without it, failing the
// sample. Duplicate keys resolve as in encoding/json (the last wins).
func parseChat(dst, body []byte) ([]byte, int64, error) {
	s := jscan.New(body)
	base := len(dst)
	var tokens int64
	haveChoice, haveUsage := false, false
	var srvErr error
	err := s.Object(func(k []byte) error {
		switch string(k) {
		case "choices":
			dst, haveChoice = dst[:base], false
			return s.Array(func(idx int) error {
				if idx != 0 {
					return s.Skip()
				}
				haveChoice = true
				return s.Object(func(k []byte) error {
					if string(k) != "message" {
						return s.Skip()
					}
					dst = dst[:base]
					return s.Object(func(k []byte) error {
						if string(k) != "content" {
							return s.Skip()
						}
						dst = dst[:base]
						return appendStrOrNull(&s, &dst)
					})
				})
			})
		case "usage":
			haveUsage = false
			return completionTokens(&s, &tokens, &haveUsage)
		case "error":
			return errorField(&s, &srvErr)
		}
		return s.Skip()
	})
	if err == nil {
		err = s.End()
	}
	switch {
	case err != nil:
		return dst, 0, err
	case srvErr != nil:
		return dst, 0, srvErr
	case !haveChoice:
		return dst, 0, &fieldError{"chat response has no choices[0]"}
	case !haveUsage:
		return dst, 0, &fieldError{"chat response has no usage.completion_tokens"}
	}
	return dst, tokens, nil
}

// appendStrOrNull appends a string value to *dst; null appends nothing.
func appendStrOrNull(s *jscan.Scanner, dst *[]byte) error {
	if isNull, err := s.Null(); isNull || err != nil {
		return err
	}
	raw, esc, err := s.Str()
	if err != nil {
		return err
	}
	*dst = jscan.AppendStr(*dst, raw, esc)
	return nil
}

// completionTokens reads a usage object (or null) and its
// completion_tokens.
func completionTokens(s *jscan.Scanner, tokens *int64, have *bool) error {
	if isNull, err := s.Null(); isNull || err != nil {
		return err
	}
	return s.Object(func(k []byte) error {
		if string(k) != "completion_tokens" {
			return s.Skip()
		}
		*have = false
		if isNull, err := s.Null(); isNull || err != nil {
			return err
		}
		v, err := s.Int64()
		*tokens, *have = v, err == nil
		return err
	})
}

// errorField reads the value of an "error" key into *srvErr; a malformed
// value is returned as the walk's error.
func errorField(s *jscan.Scanner, srvErr *error) error {
	e := errorObject(s)
	if _, ok := e.(*jscan.Error); ok {
		return e
	}
	*srvErr = e
	return nil
}

// chatChunk is what one streamed chat chunk carries.
type chatChunk struct {
	hasUsage bool
	tokens   int64 // usage.completion_tokens when hasUsage
}

// parseChatChunk decodes one chat.completion.chunk. The content delta of
// choices[0] is appended to dst (task.py: choices[0].delta.content; absent
// or null appends nothing); the usage chunk (choices empty) sets tokens.
func parseChatChunk(dst, data []byte) ([]byte, chatChunk, error) {
	s := jscan.New(data)
	base := len(dst)
	var c chatChunk
	var srvErr error
	err := s.Object(func(k []byte) error {
		switch string(k) {
		case "choices":
			dst = dst[:base]
			if isNull, err := s.Null(); isNull || err != nil {
				return err
			}
			return s.Array(func(idx int) error {
				if idx != 0 {
					return s.Skip()
				}
				return s.Object(func(k []byte) error {
					if string(k) != "delta" {
						return s.Skip()
					}
					dst = dst[:base]
					if isNull, err := s.Null(); isNull || err != nil {
						return err
					}
					return s.Object(func(k []byte) error {
						if string(k) != "content" {
							return s.Skip()
						}
						dst = dst[:base]
						return appendStrOrNull(&s, &dst)
					})
				})
			})
		case "usage":
			c.hasUsage = false
			return completionTokens(&s, &c.tokens, &c.hasUsage)
		case "error":
			return errorField(&s, &srvErr)
		}
		return s.Skip()
	})
	if err == nil {
		err = s.End()
	}
	if err == nil {
		err = srvErr
	}
	return dst, c, err
}

// parseCompletion decodes a non-streamed vLLM /v1/completions response
// requested with return_token_ids: choices[0].token_ids is appended to dst
// as int32 little-endian words and its length returned. A response without
// token_ids is an error: the server does not support return_token_ids
// (vLLM before 0.10.2) and the harness cannot report tokens.
func parseCompletion(dst, body []byte) ([]byte, int64, error) {
	dst, n, have, err := parseCompletionBody(dst, body)
	if err == nil && !have {
		err = &fieldError{"completions response has no choices[0].token_ids; the server must support return_token_ids (vLLM >= 0.10.2)"}
	}
	return dst, int64(n), err
}

// parseCompletionChunk decodes one streamed completions chunk and appends
// its choices[0].token_ids (the delta, per vLLM's return_token_ids) to dst.
// Chunks without token_ids (the usage chunk) append nothing.
func parseCompletionChunk(dst, data []byte) ([]byte, int, error) {
	dst, n, _, err := parseCompletionBody(dst, data)
	return dst, n, err
}

func parseCompletionBody(dst, body []byte) ([]byte, int, bool, error) {
	s := jscan.New(body)
	base := len(dst)
	n := 0
	have := false
	var srvErr error
	err := s.Object(func(k []byte) error {
		switch string(k) {
		case "choices":
			dst, n, have = dst[:base], 0, false
			if isNull, err := s.Null(); isNull || err != nil {
				return err
			}
			return s.Array(func(idx int) error {
				if idx != 0 {
					return s.Skip()
				}
				return s.Object(func(k []byte) error {
					if string(k) != "token_ids" {
						return s.Skip()
					}
					var err error
					dst, n, have, err = replaceTokenIDs(&s, dst, base)
					return err
				})
			})
		case "error":
			return errorField(&s, &srvErr)
		}
		return s.Skip()
	})
	if err == nil {
		err = s.End()
	}
	if err == nil {
		err = srvErr
	}
	if err != nil {
		return dst[:base], 0, false, err
	}
	return dst, n, have, nil
}

// parseSGLang decodes a non-streamed SGLang /generate response. The
// reference offline SUT (language/gpt-oss-120b/mlperf/offline_sut.py)
// reports output_ids as int32 and n_tokens = len(output_ids); we do the
// same. A response without output_ids is an error here (the reference
// would silently report zero tokens).
func parseSGLang(dst, body []byte) ([]byte, int64, error) {
	s := jscan.New(body)
	base := len(dst)
	var n int
	have := false
	var srvErr error
	err := s.Object(func(k []byte) error {
		switch string(k) {
		case "output_ids":
			var err error
			dst, n, have, err = replaceTokenIDs(&s, dst, base)
			return err
		case "error":
			return errorField(&s, &srvErr)
		}
		return s.Skip()
	})
	if err == nil {
		err = s.End()
	}
	switch {
	case err != nil:
		return dst, 0, err
	case srvErr != nil:
		return dst, 0, srvErr
	case !have:
		return dst, 0, &fieldError{"SGLang response has no output_ids"}
	}
	return dst, int64(n), nil
}

// sglangChunk is what one streamed SGLang chunk carries.
type sglangChunk struct {
	ids              []int32 // output_ids of this chunk (cumulative or incremental)
	completionTokens int64   // meta_info.completion_tokens, 0 if absent
	finished         bool    // meta_info.finish_reason non-null, or "finished": true
	textRunes        int     // len(text) in code points
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

// parseSGLangChunk decodes one streamed SGLang chunk. pf is the stream's
// prefix state (nil for none); c.ids is valid until the next call with the
// same pf.
func parseSGLangChunk(pf *idPrefix, data []byte) (sglangChunk, error) {
	if pf == nil {
		pf = &idPrefix{}
	}
	s := jscan.New(data)
	c := sglangChunk{ids: pf.ids[:0]}
	finishedFlag, finishReason := false, false
	var srvErr error
	err := s.Object(func(k []byte) error {
		switch string(k) {
		case "output_ids":
			c.ids = pf.ids[:0]
			if isNull, err := s.Null(); isNull || err != nil {
				pf.raw, pf.ids = pf.raw[:0], c.ids
				return err
			}
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
			c.completionTokens, finishReason = 0, false
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
					finishReason = false
					isNull, err := s.Null()
					if isNull || err != nil {
						return err
					}
					if s.Peek() == '"' {
						raw, esc, err := s.Str()
						if err == nil && string(jscan.AppendStr(nil, raw, esc)) != "null" {
							finishReason = true
						}
						return err
					}
					finishReason = true
					return s.Skip()
				}
				return s.Skip()
			})
		case "error":
			return errorField(&s, &srvErr)
		}
		return s.Skip()
	})
	if err == nil {
		err = s.End()
	}
	if err == nil {
		err = srvErr
	}
	c.finished = finishedFlag || finishReason
	return c, err
}

// outputIDs reads an output_ids array, reusing pf's prefix when the array
// starts with it, and leaves pf describing this array.
func outputIDs(s *jscan.Scanner, pf *idPrefix) ([]int32, error) {
	var err error
	pf.raw, pf.ids, err = s.Int32sReusing(pf.raw, pf.ids)
	return pf.ids, err
}

// replaceTokenIDs reads a token-ID member's value into dst[base:],
// replacing what an earlier member of the same name put there (duplicate
// keys: the last one wins, as in encoding/json). A null value reads as no
// IDs at all: have is false.
func replaceTokenIDs(s *jscan.Scanner, dst []byte, base int) (out []byte, n int, have bool, err error) {
	dst = dst[:base]
	if isNull, err := s.Null(); isNull || err != nil {
		return dst, 0, false, err
	}
	dst, n, err = s.AppendInt32sLE(dst)
	return dst, n, true, err
}

// sglangStream accumulates a streamed SGLang response exactly as the
// reference backend does (language/gpt-oss-120b/backends/sglang_backend.py,
// generate_stream): meta_info.completion_tokens is the authoritative
// cumulative count; when it grows by n, the new tokens are the last n of
// the chunk's output_ids (which covers both SGLang's cumulative chunks and
// incremental --stream-output chunks), or placeholders previous..count-1
// when the chunk carries fewer than n IDs. Without completion_tokens the
// chunk's output_ids are taken as a delta, and without those a non-empty
// text counts as max(1, len(text)/4) zero tokens.
type sglangStream struct {
	acc     []byte // int32 LE
	n       int    // tokens in acc
	started bool   // a chunk with tokens or text has been seen
}

// add applies one chunk and reports whether it is the first chunk with
// tokens or text (the reference's is_first_token), when FirstTokenComplete
// must be sent.
func (st *sglangStream) add(c sglangChunk) (first bool) {
	delta := 0
	if c.completionTokens > 0 {
		prev := int64(st.n)
		if c.completionTokens > prev {
			k := c.completionTokens - prev
			if int64(len(c.ids)) >= k {
				for _, id := range c.ids[int64(len(c.ids))-k:] {
					st.acc = binary.LittleEndian.AppendUint32(st.acc, uint32(id))
				}
			} else {
				for v := prev; v < c.completionTokens; v++ {
					st.acc = binary.LittleEndian.AppendUint32(st.acc, uint32(int32(v)))
				}
			}
			delta = int(k)
		}
	} else if len(c.ids) > 0 {
		for _, id := range c.ids {
			st.acc = binary.LittleEndian.AppendUint32(st.acc, uint32(id))
		}
		delta = len(c.ids)
	} else if c.textRunes > 0 {
		delta = max(1, c.textRunes/4)
		for range delta {
			st.acc = binary.LittleEndian.AppendUint32(st.acc, 0)
		}
	}
	st.n += delta
	if !st.started && (delta > 0 || c.textRunes > 0) {
		st.started = true
		return true
	}
	return false
}

// errTruncated is a stream that ended before its end marker.
var errTruncated = errors.New("stream ended before data: [DONE] or a finish_reason")
