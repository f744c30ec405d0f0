package openaichat

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mlperf-go/mlperf-go/internal/golden"
	"github.com/mlperf-go/mlperf-go/protocol/internal/jscan"
	"github.com/mlperf-go/mlperf-go/protocol/internal/prototest"
)

// toolsRow is one line of testdata/tools.jsonl.gz (gen_tools_golden.py).
type toolsRow struct {
	Kind   string
	Input  json.RawMessage
	Output json.RawMessage
	Args   map[string]json.RawMessage
	Body   string
}

// TestToolsGolden reads the vectors mlcommons/endpoints' own adapter,
// SSE accumulator and scorer made: the text endpoints scores for each
// streamed or whole answer (merged tool calls, or the text), or a
// failure where endpoints raises; and request bodies byte for byte.
func TestToolsGolden(t *testing.T) {
	t.Parallel()
	n := 0
	golden.JSONL(t, "testdata/tools.jsonl.gz", func(line int, r toolsRow) {
		n++
		var want string
		wantErr := json.Unmarshal(r.Output, &want) != nil
		switch r.Kind {
		case "stream":
			var datas []string
			if err := json.Unmarshal(r.Input, &datas); err != nil {
				t.Fatal(err)
			}
			st := ToolsProtocol.NewStream()
			st.Reset()
			var out []byte
			var err error
			for _, d := range datas {
				if out, _, err = st.Next(out, []byte(d)); err != nil {
					break
				}
			}
			if err == nil {
				err = st.End(true)
			}
			check(t, line, string(out), err, want, wantErr)
		case "body":
			var body string
			_ = json.Unmarshal(r.Input, &body)
			out, _, err := ToolsProtocol.DecodeResponse(nil, []byte(body))
			check(t, line, string(out), err, want, wantErr)
		case "request":
			got := encodeGoldenRequest(t, r.Args)
			if got != r.Body {
				t.Errorf("line %d: request\n%s\nendpoints\n%s", line, got, r.Body)
			}
		}
	})
	if n < 30 {
		t.Errorf("only %d vectors", n)
	}
}

func check(t *testing.T, line int, got string, err error, want string, wantErr bool) {
	t.Helper()
	switch {
	case wantErr && err == nil:
		t.Errorf("line %d: endpoints fails, the port reads %q", line, got)
	case !wantErr && (err != nil || got != want):
		t.Errorf("line %d: %q (%v), endpoints %q", line, got, err, want)
	}
}

// encodeGoldenRequest builds a ToolsRequest from the generator's
// arguments; the tools are re-encoded from Python's json.dumps by
// appendMsgspecValue, which must give msgspec's bytes.
func encodeGoldenRequest(t *testing.T, args map[string]json.RawMessage) string {
	t.Helper()
	var q ToolsRequest
	_ = json.Unmarshal(args["model"], &q.Model)
	if err := json.Unmarshal(mustJSON(args), &q.Params); err != nil {
		t.Fatal(err)
	}
	_ = json.Unmarshal(args["stream"], &q.Stream)
	var msgs []TextMessage
	var raw []struct{ Role, Content string }
	_ = json.Unmarshal(args["messages"], &raw)
	for _, m := range raw {
		msgs = append(msgs, TextMessage{m.Role, m.Content})
	}
	var tools []byte
	if tr, ok := args["tools"]; ok && string(tr) != "null" {
		s := jscan.New(tr)
		var err error
		if tools, err = appendMsgspecValue(nil, &s); err != nil {
			t.Fatal(err)
		}
	}
	var choice string
	_ = json.Unmarshal(args["tool_choice"], &choice)
	body, err := q.Append(nil, msgs, tools, choice)
	if err != nil {
		t.Fatal(err)
	}
	return string(body)
}

func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

// TestToolsStreamEnd: a stream of the tools protocol is complete with
// [DONE], or without it after its finish_reason; cut before either it is
// truncated; a failed finish or an error event fails it; a malformed
// chunk is an error.
func TestToolsStreamEnd(t *testing.T) {
	t.Parallel()
	call := `{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"a","type":"function","function":{"name":"f","arguments":"{}"}}]},"finish_reason":null}]}`
	for _, tc := range []prototest.StreamEnd{
		{Name: "done", Chunks: []string{call}, Done: true},
		{Name: "finish without done", Chunks: []string{call, `{"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}`}},
		{Name: "cut", Chunks: []string{call}, Want: "no data: [DONE] and no finish_reason, after 1 events, 0 bytes of content and 1 tool calls"},
		{Name: "aborted", Chunks: []string{call, `{"choices":[{"index":0,"delta":{},"finish_reason":"abort"}]}`}, Done: true, Want: `finish_reason "abort"`},
		{Name: "error event", Chunks: []string{`{"error":{"message":"boom"}}`}, Done: true, Want: "boom"},
		{Name: "index not an integer", Chunks: []string{`{"choices":[{"delta":{"tool_calls":[{"index":"0"}]}}]}`}, Done: true, Want: "index is not an integer"},
		{Name: "malformed", Chunks: []string{`{"choices":[`}, Done: true, Want: "malformed JSON"},
	} {
		t.Run(tc.Name, func(t *testing.T) { prototest.CheckStreamEnd(t, ToolsProtocol, tc) })
	}
	for _, body := range []string{
		`{"choices":[{"index":0,"message":{"role":"assistant","content":"x"},"finish_reason":"error"}]}`,
		`{"error":{"message":"boom"}}`,
		`{"choices":[{"index":0,"message":{"role":"assistant","tool_calls":["x"]}}]}`,
		`{"choices":[{"index":0,"message":{"role":"assistant","reasoning_content":"a","reasoning":"b"}}]}`,
	} {
		if _, _, err := ToolsProtocol.DecodeResponse(nil, []byte(body)); err == nil {
			t.Errorf("%s: no error", body)
		}
	}
}

// FuzzToolsDecode: whole answers and stream chunks never panic, and what
// they give LoadGen when they give tool calls is a JSON array.
func FuzzToolsDecode(f *testing.F) {
	golden.JSONL(f, "testdata/tools.jsonl.gz", func(_ int, r toolsRow) {
		var body string
		if json.Unmarshal(r.Input, &body) == nil {
			f.Add(body)
			return
		}
		var datas []string
		if json.Unmarshal(r.Input, &datas) == nil {
			for _, d := range datas {
				f.Add(d)
			}
		}
	})
	f.Fuzz(func(t *testing.T, data string) {
		out, _, err := ToolsProtocol.DecodeResponse(nil, []byte(data))
		if err == nil && strings.HasPrefix(string(out), `[{"`) && !json.Valid(out) && strings.Contains(data, "tool_calls") {
			t.Errorf("tool calls %q are not JSON", out)
		}
		st := ToolsProtocol.NewStream()
		st.Reset()
		var sout []byte
		for i := 0; i < 2; i++ {
			if sout, _, err = st.Next(sout, []byte(data)); err != nil {
				return
			}
		}
		if strings.HasPrefix(string(sout), `[{"type"`) && !json.Valid(sout) {
			t.Errorf("merged tool calls %q are not JSON", sout)
		}
	})
}
