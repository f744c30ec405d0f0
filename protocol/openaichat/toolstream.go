package openaichat

import (
	"fmt"
	"sort"
	"strconv"

	"github.com/mlperf-go/mlperf-go/internal/jsonenc"
	"github.com/mlperf-go/mlperf-go/protocol"
	"github.com/mlperf-go/mlperf-go/protocol/internal/jscan"
	"github.com/mlperf-go/mlperf-go/protocol/internal/jsonwire"
)

// toolStream accumulates a streamed answer as endpoints'
// OpenAISSEAccumulator does (choices[0] only): a delta's tool_calls are
// kept as a chunk, its content as output, else its reasoning_content or
// reasoning as reasoning; at each event the output handed back holds what
// endpoints would score if the stream ended there (see toolAnswer).
type toolStream struct {
	base      int
	started   bool
	content   []byte
	reasoning []byte
	calls     []mergedCall // in order of first appearance
	rendered  bool         // out holds a rendering that is not plain content
	finish    []byte
	tokens    int64
	hasUsage  bool
	firstSeen bool
	events    int
	delta     []byte // the last content or reasoning delta
}

// mergedCall is one tool call as merge_tool_calls builds it from its
// partial deltas: {"type": "function", "function": {"arguments": ""}},
// then id, type, name replaced by truthy values and arguments
// concatenated, in that dict's key order.
type mergedCall struct {
	index int
	typ   []byte // msgspec-encoded
	id    []byte // msgspec-encoded; nil until set
	name  []byte // msgspec-encoded; nil until set
	args  []byte // the arguments text
}

func (st *toolStream) Reset() {
	*st = toolStream{content: st.content[:0], reasoning: st.reasoning[:0], finish: st.finish[:0], delta: st.delta[:0]}
}

func (st *toolStream) Tokens() int64 { return st.tokens }

// toolChunk is what one chat.completion.chunk carries.
type toolChunk struct {
	messageText
	hasChoice bool
	finish    []byte
	partials  [][]byte // the delta's tool_calls items, raw
	hasUsage  bool
	tokens    int64
}

// parseToolChunk decodes one chunk.
func parseToolChunk(data []byte) (toolChunk, error) {
	s := jscan.New(data)
	var c toolChunk
	var srvErr error
	err := s.Object(func(k []byte) error {
		switch string(k) {
		case "choices":
			c = toolChunk{hasUsage: c.hasUsage, tokens: c.tokens}
			if isNull, err := s.Null(); isNull || err != nil {
				return err
			}
			return s.Array(func(idx int) error {
				if idx != 0 {
					return s.Skip()
				}
				c.hasChoice = true
				return s.Object(func(k []byte) error {
					switch string(k) {
					case "finish_reason":
						return finishReason(&s, &c.finish)
					case "delta":
						return readDelta(&s, &c)
					}
					return s.Skip()
				})
			})
		case "usage":
			c.hasUsage = false
			return completionTokens(&s, &c.tokens, &c.hasUsage)
		case "error":
			return jsonwire.ErrorField(&s, &srvErr)
		}
		return s.Skip()
	})
	return c, jsonwire.WalkErr(&s, err, srvErr)
}

// readDelta reads a delta object (or null).
func readDelta(s *jscan.Scanner, c *toolChunk) error {
	if isNull, err := s.Null(); isNull || err != nil {
		return err
	}
	return s.Object(func(k []byte) error {
		if known, err := c.read(s, k); known {
			return err
		}
		switch string(k) {
		case "tool_calls":
			c.partials = c.partials[:0]
			if isNull, err := s.Null(); isNull || err != nil {
				return err
			}
			return s.Array(func(i int) error {
				if s.Peek() != '{' {
					return s.Fail(fmt.Sprintf("delta.tool_calls[%d] is not an object", i))
				}
				raw, err := s.Raw()
				c.partials = append(c.partials, raw)
				return err
			})
		}
		return s.Skip()
	})
}

func (st *toolStream) Next(out, data []byte) ([]byte, protocol.Event, error) {
	if !st.started {
		st.started, st.base = true, len(out)
	}
	st.events++
	c, err := parseToolChunk(data)
	if err != nil {
		return out, protocol.Event{}, err
	}
	if c.hasUsage {
		st.tokens, st.hasUsage = c.tokens, true
	}
	if err := protocol.NoteFinish(&st.finish, c.finish, st.seen); err != nil {
		return out, protocol.Event{}, err
	}
	first := false
	for _, p := range c.partials {
		if err := st.merge(p); err != nil {
			return out, protocol.Event{}, err
		}
	}
	st.delta = st.delta[:0]
	switch {
	case len(c.content) > 0:
		st.content = append(st.content, c.content...)
		st.delta = append(st.delta, c.content...)
	case len(c.rc) > 0 || len(c.r) > 0:
		r := c.reasoning()
		st.reasoning = append(st.reasoning, r...)
		st.delta = append(st.delta, r...)
	}
	if !st.firstSeen && (len(st.delta) > 0 || len(c.partials) > 0) {
		st.firstSeen, first = true, true
	}
	out = st.render(out, len(c.content) > 0 && len(c.partials) == 0)
	var ev protocol.Event
	if first {
		ev = protocol.Event{First: true, FirstData: st.delta, FirstTokens: 1}
	}
	return out, ev, nil
}

// render makes out[base:] what endpoints would score now: appending a
// content delta when that is all that changed, rewriting otherwise.
func (st *toolStream) render(out []byte, contentOnly bool) []byte {
	if len(st.calls) == 0 && len(st.reasoning) == 0 && !st.rendered && contentOnly {
		return append(out, st.delta...)
	}
	out = out[:st.base]
	if len(st.calls) == 0 {
		st.rendered = len(st.reasoning) > 0
		return append(append(out, st.reasoning...), st.content...)
	}
	st.rendered = true
	return st.appendCalls(out)
}

// merge adds one partial tool call (merge_tool_calls' loop body).
func (st *toolStream) merge(raw []byte) error {
	s := jscan.New(raw)
	index := 0
	var id, typ, fnRaw []byte
	err := s.Object(func(k []byte) error {
		var err error
		switch string(k) {
		case "index":
			var v []byte
			if v, err = s.Raw(); err == nil {
				n, perr := strconv.Atoi(string(v))
				if perr != nil {
					return s.Fail("tool call index is not an integer")
				}
				index = n
			}
		case "id":
			id, err = s.Raw()
		case "type":
			typ, err = s.Raw()
		case "function":
			fnRaw, err = s.Raw()
		default:
			err = s.Skip()
		}
		return err
	})
	if err != nil {
		return err
	}
	mc := st.call(index)
	if id != nil && truthy(id) {
		if mc.id, err = msgspecRaw(id); err != nil {
			return err
		}
	}
	if typ != nil && truthy(typ) {
		if mc.typ, err = msgspecRaw(typ); err != nil {
			return err
		}
	}
	if fnRaw == nil || !truthy(fnRaw) {
		return nil
	}
	return mc.mergeFunction(fnRaw)
}

// mergeFunction applies a partial's function object: a truthy name
// replaces the name, truthy arguments (text) are appended.
func (mc *mergedCall) mergeFunction(fnRaw []byte) error {
	if fnRaw[0] != '{' {
		return fmt.Errorf("a streamed tool call's function is not an object: %.60s", fnRaw)
	}
	s := jscan.New(fnRaw)
	var name, args []byte
	err := s.Object(func(k []byte) error {
		var err error
		switch string(k) {
		case "name":
			name, err = s.Raw()
		case "arguments":
			args, err = s.Raw()
		default:
			err = s.Skip()
		}
		return err
	})
	if err != nil {
		return err
	}
	if name != nil && truthy(name) {
		if mc.name, err = msgspecRaw(name); err != nil {
			return err
		}
	}
	if args != nil && truthy(args) {
		if args[0] != '"' {
			return fmt.Errorf("a streamed tool call's arguments are not a string: %.60s", args)
		}
		as := jscan.New(args)
		raw, esc, err := as.Str()
		if err != nil {
			return err
		}
		mc.args = jscan.AppendStr(mc.args, raw, esc)
	}
	return nil
}

// call returns the merged call of index, made on first sight.
func (st *toolStream) call(index int) *mergedCall {
	for i := range st.calls {
		if st.calls[i].index == index {
			return &st.calls[i]
		}
	}
	st.calls = append(st.calls, mergedCall{index: index, typ: []byte(`"function"`)})
	return &st.calls[len(st.calls)-1]
}

// msgspecRaw re-encodes one raw JSON value as msgspec would.
func msgspecRaw(raw []byte) ([]byte, error) {
	s := jscan.New(raw)
	return appendMsgspecValue(nil, &s)
}

// appendCalls appends msgspec.json.encode(list(merged)): the calls sorted
// by index.
func (st *toolStream) appendCalls(dst []byte) []byte {
	calls := make([]*mergedCall, len(st.calls))
	for i := range st.calls {
		calls[i] = &st.calls[i]
	}
	sort.Slice(calls, func(a, b int) bool { return calls[a].index < calls[b].index })
	dst = append(dst, '[')
	for i, c := range calls {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, `{"type":`...)
		dst = append(dst, c.typ...)
		dst = append(dst, `,"function":{"arguments":`...)
		dst = jsonenc.AppendShort(dst, string(c.args))
		if c.name != nil {
			dst = append(dst, `,"name":`...)
			dst = append(dst, c.name...)
		}
		dst = append(dst, '}')
		if c.id != nil {
			dst = append(dst, `,"id":`...)
			dst = append(dst, c.id...)
		}
		dst = append(dst, '}')
	}
	return append(dst, ']')
}

// End accepts a stream that ended with [DONE], or without it after its
// finish_reason (endpoints reads the body to its end).
func (st *toolStream) End(done bool) error {
	if done || len(st.finish) > 0 {
		return nil
	}
	return fmt.Errorf("%w: no data: [DONE] and no finish_reason, after %s", protocol.ErrTruncated, st.seen())
}

func (st *toolStream) seen() string {
	return fmt.Sprintf("%d events, %d bytes of content and %d tool calls", st.events, len(st.content), len(st.calls))
}
