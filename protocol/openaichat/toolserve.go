package openaichat

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/mlperf-go/mlperf-go/internal/jsonenc"
	"github.com/mlperf-go/mlperf-go/protocol"
	"github.com/mlperf-go/mlperf-go/protocol/internal/vllmwire"
)

// The server side of tool calls, as vLLM v0.12 serves a Qwen model with
// --enable-auto-tool-choice --tool-call-parser hermes: the text the model
// generates (for the fake, the answer it is told) holds each call as
// <tool_call>{"name": ..., "arguments": {...}}</tool_call>, and the
// parser (Hermes2ProToolParser) turns complete blocks into tool_calls,
// the text before the first block into content (null when empty), with
// finish_reason "tool_calls". A block that is not JSON leaves the whole
// text as content. The arguments are sent as written in the block (the
// parser re-dumps them with json.dumps(ensure_ascii=False); answers
// written that way read the same). Streams send a call's name first,
// then its arguments in pieces as the block's text arrives.

// hermesBlock is vLLM's tool_call_regex.
var hermesBlock = regexp.MustCompile(`(?s)<tool_call>(.*?)</tool_call>|<tool_call>(.*)`)

// toolCall is one parsed call: its name and arguments (JSON text), and
// where its block lies in the answer's text.
type toolCall struct {
	name       string
	args       string
	start, end int
}

// parseHermes reads text as Hermes2ProToolParser.extract_tool_calls does:
// ok is false when text has no tool call (or a block that is not a JSON
// object with a name), content is the text before the first block.
func parseHermes(text string) (content string, calls []toolCall, ok bool) {
	first := strings.Index(text, "<tool_call>")
	if first < 0 {
		return text, nil, false
	}
	for _, m := range hermesBlock.FindAllStringSubmatchIndex(text, -1) {
		body := ""
		switch {
		case m[2] >= 0:
			body = text[m[2]:m[3]]
		case m[4] >= 0:
			body = text[m[4]:m[5]]
		}
		var call struct {
			Name      *string         `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		}
		if err := json.Unmarshal([]byte(body), &call); err != nil || call.Name == nil {
			return text, nil, false
		}
		args := string(bytes.TrimSpace(call.Arguments))
		if args == "" {
			args = "null"
		}
		calls = append(calls, toolCall{name: *call.Name, args: args, start: m[0], end: m[1]})
	}
	return text[:first], calls, true
}

// toolsOn reports whether the request lets the server call tools: tools
// given and tool_choice not "none".
func (r *chatRequest) toolsOn() bool {
	return present(r.Tools) && string(bytes.TrimSpace(r.ToolChoice)) != `"none"`
}

// present reports a member given with a value other than null.
func present(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	return len(t) > 0 && string(t) != "null"
}

// answerText returns the raw text of pieces [from, to) of the answer.
func answerText(out protocol.Output, from, to int) string {
	esc := out.AppendText([]byte{'"'}, from, to)
	var s string
	if err := json.Unmarshal(append(esc, '"'), &s); err != nil {
		return ""
	}
	return s
}

// toolState is a tool-calling answer being written: the parse of its
// whole text and where each piece ends in it.
type toolState struct {
	content  string
	calls    []toolCall
	pieceEnd []int
	sent     []bool // a call's header was sent
	argsSent []int  // how much of a call's arguments were sent
}

// prepareTools parses the answer when tools are on; nil when it calls
// none.
func (r *chatRequest) prepareTools(rep *protocol.Reply) *toolState {
	if !r.toolsOn() {
		return nil
	}
	n := rep.Tokens
	st := &toolState{pieceEnd: make([]int, n)}
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteString(answerText(rep.Outputs[0], i, i+1))
		st.pieceEnd[i] = b.Len()
	}
	content, calls, ok := parseHermes(b.String())
	if !ok {
		return nil
	}
	st.content, st.calls = content, calls
	st.sent, st.argsSent = make([]bool, len(calls)), make([]int, len(calls))
	return st
}

// finish is the answer's finish_reason: "tool_calls" for one that ended
// of itself with calls.
func (st *toolState) finish(rep *protocol.Reply) string {
	if rep.Finish == protocol.FinishStop {
		return "tool_calls"
	}
	return rep.Finish
}

// appendToolCalls appends the message's tool_calls array.
func (st *toolState) appendToolCalls(b []byte, rep *protocol.Reply) []byte {
	b = append(b, '[')
	for i, c := range st.calls {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"id":"chatcmpl-tool-`...)
		b = rep.IDs.AppendID(b)
		b = append(b, `","type":"function","function":{"name":`...)
		b = jsonenc.AppendMinimal(b, c.name)
		b = append(b, `,"arguments":`...)
		b = jsonenc.AppendMinimal(b, c.args)
		b = append(b, "}}"...)
	}
	return append(b, ']')
}

// appendToolBody writes a whole chat.completion with tool calls.
func (r *chatRequest) appendToolBody(b []byte, rep *protocol.Reply, st *toolState) []byte {
	b = vllmwire.AppendHead(b, rep, "chatcmpl-", "chat.completion")
	b = append(b, `{"index":0,"message":{"role":"assistant","content":`...)
	if st.content == "" {
		b = append(b, "null"...)
	} else {
		b = jsonenc.AppendMinimal(b, st.content)
	}
	b = append(b, `,"refusal":null,"annotations":null,"audio":null,"function_call":null,"tool_calls":`...)
	b = st.appendToolCalls(b, rep)
	b = append(b, `,"reasoning_content":null},"logprobs":null,"finish_reason":"`...)
	b = append(b, st.finish(rep)...)
	b = append(b, `","stop_reason":null,"token_ids":null}],"service_tier":null,"system_fingerprint":null,"usage":`...)
	b = vllmwire.AppendUsage(b, rep.PromptTokens, rep.Tokens, vllmwire.NoReasoning, true)
	return append(b, `,"prompt_logprobs":null,"prompt_token_ids":null,"kv_transfer_params":null}`...)
}

// offset is where piece i begins in the answer's text (past its end for
// pieces beyond it).
func (st *toolState) offset(i int) int {
	if i <= 0 {
		return 0
	}
	if i > len(st.pieceEnd) {
		return st.pieceEnd[len(st.pieceEnd)-1]
	}
	return st.pieceEnd[i-1]
}

// appendToolEvents writes the chunks for pieces [from, to): the content
// before the first call, then each call's header and a share of its
// arguments proportional to how much of its block has arrived.
func (r *chatRequest) appendToolEvents(b []byte, rep *protocol.Reply, st *toolState, from, to int, last bool) []byte {
	lo, hi := st.offset(from), st.offset(to)
	if c := len(st.content); lo < c {
		b = r.appendDelta(b, rep, func(d []byte) []byte {
			d = append(d, `{"content":`...)
			return append(jsonenc.AppendMinimal(d, st.content[lo:min(hi, c)]), '}')
		})
	}
	for k, c := range st.calls {
		if hi <= c.start || lo >= c.end {
			continue
		}
		if !st.sent[k] {
			st.sent[k] = true
			b = r.appendDelta(b, rep, func(d []byte) []byte {
				d = append(d, `{"tool_calls":[{"index":`...)
				d = appendInt(d, k)
				d = append(d, `,"id":"chatcmpl-tool-`...)
				d = rep.IDs.AppendID(d)
				d = append(d, `","type":"function","function":{"name":`...)
				return append(jsonenc.AppendMinimal(d, c.name), "}}]}"...)
			})
		}
		upto := len(c.args)
		if hi < c.end {
			upto = runeFloor(c.args, len(c.args)*(hi-c.start)/(c.end-c.start))
		}
		if upto > st.argsSent[k] {
			frag := c.args[st.argsSent[k]:upto]
			st.argsSent[k] = upto
			b = r.appendDelta(b, rep, func(d []byte) []byte {
				d = append(d, `{"tool_calls":[{"index":`...)
				d = appendInt(d, k)
				d = append(d, `,"function":{"arguments":`...)
				return append(jsonenc.AppendMinimal(d, frag), "}}]}"...)
			})
		}
	}
	if to > len(st.pieceEnd) { // an endless stream's repeats: plain text
		extra := rep.Outputs[0].AppendText(nil, max(from, len(st.pieceEnd)), to)
		b = r.appendDelta(b, rep, func(d []byte) []byte {
			d = append(d, `{"content":"`...)
			return append(append(d, extra...), `"}`...)
		})
	}
	if last {
		b = append(b, "data: "...)
		b = append(b, r.head...)
		b = append(b, `{"index":0,"delta":{},"logprobs":null,"finish_reason":"`...)
		b = append(b, st.finish(rep)...)
		b = append(b, `","stop_reason":null}]}`...)
		b = append(b, "\n\n"...)
	}
	return b
}

// appendDelta writes one chunk whose delta delta writes.
func (r *chatRequest) appendDelta(b []byte, rep *protocol.Reply, delta func([]byte) []byte) []byte {
	b = append(b, "data: "...)
	b = append(b, r.head...)
	b = append(b, `{"index":0,"delta":`...)
	b = delta(b)
	b = append(b, `,"logprobs":null,"finish_reason":null}]}`...)
	return append(b, "\n\n"...)
}

func appendInt(b []byte, n int) []byte { return strconv.AppendInt(b, int64(n), 10) }

// runeFloor moves i back to the start of the UTF-8 character it falls in.
func runeFloor(s string, i int) int {
	for i > 0 && i < len(s) && !utf8.RuneStart(s[i]) {
		i--
	}
	return i
}
