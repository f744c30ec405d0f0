package openaichat

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/mlperf-go/mlperf-go/internal/jsonenc"
	"github.com/mlperf-go/mlperf-go/protocol"
)

// textOut is a protocol.Output over a text split into pieces of up to
// size bytes (on rune boundaries), as the fake splits its answers.
type textOut struct{ pieces []string }

func newTextOut(s string, size int) *textOut {
	o := &textOut{}
	for len(s) > 0 {
		n := min(size, len(s))
		for n < len(s) && !utf8.RuneStart(s[n]) {
			n++
		}
		o.pieces = append(o.pieces, s[:n])
		s = s[n:]
	}
	return o
}

func (o *textOut) AppendText(dst []byte, from, to int) []byte {
	for i := from; i < to; i++ {
		dst = jsonenc.AppendMinimalBody(dst, o.pieces[i%len(o.pieces)])
	}
	return dst
}

func (o *textOut) AppendIDs(dst []byte, _, _ int) []byte { return append(dst, "null"...) }

type seqIDs struct{ n int }

func (s *seqIDs) AppendID(dst []byte) []byte {
	s.n++
	return fmt.Appendf(dst, "%032x", s.n)
}

func toolReply(text string, size int) *protocol.Reply {
	out := newTextOut(text, size)
	return &protocol.Reply{Model: "m", Outputs: []protocol.Output{out}, Tokens: len(out.pieces), Finish: protocol.FinishStop,
		Started: time.Unix(1, 0), IDs: &seqIDs{}}
}

const toolsReq = `{"model":"m","messages":[{"role":"user","content":"q"}],"tools":[{"type":"function","function":{"name":"f"}}],"tool_choice":"auto"%s}`

// TestFakeToolCalls: the server side answers a tools request whose answer
// text holds <tool_call> blocks with tool_calls (whole and streamed, the
// arguments split across chunks), and the tools client reads back what
// endpoints would score; without tools, or with tool_choice "none", the
// text is the content.
func TestFakeToolCalls(t *testing.T) {
	t.Parallel()
	answer := "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"São Paulo\", \"days\": [1, 2], \"q\": \"a \\\"b\\\"\"}}\n</tool_call>\n<tool_call>\n{\"name\": \"math_factorial\", \"arguments\": {\"number\": 5}}\n</tool_call>"
	merged := `[{"type":"function","function":{"arguments":"{\"city\": \"São Paulo\", \"days\": [1, 2], \"q\": \"a \\\"b\\\"\"}","name":"get_weather"},"id":"chatcmpl-tool-%032x"},` +
		`{"type":"function","function":{"arguments":"{\"number\": 5}","name":"math_factorial"},"id":"chatcmpl-tool-%032x"}]`
	for _, size := range []int{1, 3, 7, 1000} {
		t.Run(fmt.Sprint("piece size ", size), func(t *testing.T) {
			t.Parallel()
			// Whole answer.
			req, err := Protocol.(protocol.Serving).ParseRequest([]byte(fmt.Sprintf(toolsReq, "")))
			if err != nil {
				t.Fatal(err)
			}
			body := req.AppendBody(nil, toolReply(answer, size))
			if !strings.Contains(string(body), `"finish_reason":"tool_calls"`) || !strings.Contains(string(body), `"content":null`) {
				t.Errorf("body %s", body)
			}
			got, _, err := ToolsProtocol.DecodeResponse(nil, body)
			want := fmt.Sprintf(`[{"id":"chatcmpl-tool-%032x","type":"function","function":{"name":"get_weather","arguments":"{\"city\": \"São Paulo\", \"days\": [1, 2], \"q\": \"a \\\"b\\\"\"}"}},{"id":"chatcmpl-tool-%032x","type":"function","function":{"name":"math_factorial","arguments":"{\"number\": 5}"}}]`, 2, 3)
			if err != nil || string(got) != want {
				t.Errorf("whole answer read %s (%v), want %s", got, err, want)
			}
			// Streamed, one piece per event.
			sreq, _ := Protocol.(protocol.Serving).ParseRequest([]byte(fmt.Sprintf(toolsReq, `,"stream":true`)))
			rep := toolReply(answer, size)
			var events []byte
			for i := 0; i < rep.Tokens; i++ {
				events = sreq.AppendEvents(events, rep, i, i+1, i+1 == rep.Tokens)
			}
			st := ToolsProtocol.NewStream()
			st.Reset()
			var out []byte
			argChunks := 0
			for _, line := range strings.Split(string(events), "\n\n") {
				data, ok := strings.CutPrefix(line, "data: ")
				if !ok {
					continue
				}
				if strings.Contains(data, `"arguments"`) {
					argChunks++
				}
				if out, _, err = st.Next(out, []byte(data)); err != nil {
					t.Fatalf("%v in %s", err, data)
				}
			}
			if err := st.End(true); err != nil {
				t.Fatal(err)
			}
			if want := fmt.Sprintf(merged, 2, 3); string(out) != want {
				t.Errorf("stream read %s\nwant %s", out, want)
			}
			if size < 10 && argChunks < 4 {
				t.Errorf("arguments came in %d chunks; small pieces should split them", argChunks)
			}
		})
	}
}

// TestFakeToolCallsOff: no tools, tool_choice "none", or text without a
// complete block: the answer is content, as vLLM's parser leaves it.
func TestFakeToolCallsOff(t *testing.T) {
	t.Parallel()
	block := `<tool_call>{"name": "f", "arguments": {}}</tool_call>`
	for _, tc := range []struct{ name, body, answer, want string }{
		{"no tools", `{"messages":[{"role":"user","content":"q"}]}`, block, block},
		{"tool_choice none", fmt.Sprintf(`{"messages":[{"role":"user","content":"q"}],"tools":[{}],"tool_choice":"none"}`), block, block},
		{"plain text", fmt.Sprintf(toolsReq, ""), "I cannot help with that.", "I cannot help with that."},
		{"unterminated block", fmt.Sprintf(toolsReq, ""), `Let me <tool_call>{"name": "f", "argu`, `Let me <tool_call>{"name": "f", "argu`},
		{"content before", fmt.Sprintf(toolsReq, ""), "Sure. " + block, `[{"id":"chatcmpl-tool-00000000000000000000000000000002","type":"function","function":{"name":"f","arguments":"{}"}}]`},
	} {
		req, err := Protocol.(protocol.Serving).ParseRequest([]byte(tc.body))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		body := req.AppendBody(nil, toolReply(tc.answer, 4))
		got, _, err := ToolsProtocol.DecodeResponse(nil, body)
		if err != nil || string(got) != tc.want {
			t.Errorf("%s: read %q (%v), want %q", tc.name, got, err, tc.want)
		}
		if tc.name == "content before" {
			var m struct {
				Choices []struct{ Message struct{ Content string } }
			}
			_ = json.Unmarshal(body, &m)
			if m.Choices[0].Message.Content != "Sure. " {
				t.Errorf("content before the call %q", m.Choices[0].Message.Content)
			}
		}
	}
	if _, err := parseChat([]byte(`{"messages":[{"role":"user","content":"q"}],"tool_choice":"auto"}`)); err == nil || !strings.Contains(err.Error(), "`tools` must be set") {
		t.Errorf("tool_choice without tools: %v", err)
	}
}

// FuzzFakeToolAnswer: whatever text the fake is told to answer a tools
// request with, its whole and streamed answers are read back by the tools
// client without error, and the calls it makes carry JSON arguments.
func FuzzFakeToolAnswer(f *testing.F) {
	f.Add("<tool_call>\n{\"name\": \"f\", \"arguments\": {\"a\": 1}}\n</tool_call>", 3)
	f.Add("text <tool_call>{\"name\": \"g\", \"arguments\": \"x\"}</tool_call><tool_call>{\"name\": \"h\"}", 1)
	f.Add("<tool_call>{\"name\": \"é\", \"arguments\": {\"s\": \"😀\\u0000\"}}</tool_call> after", 2)
	f.Add("plain", 1)
	f.Fuzz(func(t *testing.T, answer string, size int) {
		if !utf8.ValidString(answer) || answer == "" {
			return
		}
		size = 1 + (size&0xff)%16
		_, calls, _ := parseHermes(answer)
		for _, c := range calls {
			if !json.Valid([]byte(c.args)) {
				t.Fatalf("arguments %q are not JSON", c.args)
			}
		}
		req, err := Protocol.(protocol.Serving).ParseRequest([]byte(fmt.Sprintf(toolsReq, "")))
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := ToolsProtocol.DecodeResponse(nil, req.AppendBody(nil, toolReply(answer, size))); err != nil {
			t.Fatalf("whole answer: %v", err)
		}
		sreq, _ := Protocol.(protocol.Serving).ParseRequest([]byte(fmt.Sprintf(toolsReq, `,"stream":true`)))
		rep := toolReply(answer, size)
		var ev []byte
		for i := 0; i < rep.Tokens; i++ {
			ev = sreq.AppendEvents(ev, rep, i, i+1, i+1 == rep.Tokens)
		}
		st := ToolsProtocol.NewStream()
		st.Reset()
		var out []byte
		for _, line := range strings.Split(string(ev), "\n\n") {
			if data, ok := strings.CutPrefix(line, "data: "); ok {
				if out, _, err = st.Next(out, []byte(data)); err != nil {
					t.Fatalf("stream: %v in %s", err, data)
				}
			}
		}
		if err := st.End(true); err != nil {
			t.Fatal(err)
		}
	})
}
