package openaichat

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/mlperf-go/mlperf-go/protocol"
	"github.com/mlperf-go/mlperf-go/protocol/internal/jsonref"
	"github.com/mlperf-go/mlperf-go/protocol/internal/prototest"
)

// The fuzz targets check that the hand-written parsers never panic,
// reject every body encoding/json rejects, and on valid JSON agree with an
// independent interpretation built on encoding/json (package jsonref).

func refChat(b []byte, chunk bool) (content string, tokens int64, hasUsage bool, err error) {
	v, ok := jsonref.Decode(b)
	if !ok {
		return "", 0, false, jsonref.Err
	}
	m, err := jsonref.Obj(v)
	if err != nil {
		return "", 0, false, err
	}
	key := "message"
	if chunk {
		key = "delta"
	}
	c0, have, err := jsonref.First(m, chunk)
	if err != nil {
		return "", 0, false, err
	}
	if have {
		finish, err := jsonref.Finish(c0)
		if err != nil || (!chunk && protocol.FinishFailed(finish)) {
			return "", 0, false, jsonref.Err
		}
		msg, has := c0[key]
		if has && !(chunk && msg == nil) {
			mo, ok := msg.(map[string]any)
			if !ok {
				return "", 0, false, jsonref.Err
			}
			c, has := mo["content"]
			if content, err = jsonref.Str(c, has); err != nil {
				return "", 0, false, err
			}
		}
	}
	tokens, hasUsage, err = jsonref.Usage(m)
	if err != nil {
		return "", 0, false, err
	}
	if !chunk && (!have || !hasUsage) {
		return "", 0, false, jsonref.Err
	}
	return content, tokens, hasUsage, nil
}

var chatSeeds = []string{
	`{"choices":[{"message":{"content":"a"},"finish_reason":"abort"}],"usage":{"completion_tokens":1}}`,
	`{"choices":[{"message":{"content":"a"},"finish_reason":"error"},{"finish_reason":3}],"usage":{"completion_tokens":1}}`,
	`{"choices":[{"message":{"content":"a"},"finish_reason":["stop"]}],"usage":{"completion_tokens":1}}`,
	`{"id":"c","choices":[{"index":0,"message":{"role":"assistant","content":"{\"category\": \"A \u003e B\", \"brand\": \"x\\\\y\"}\n\u00e9\ud83d\ude00","tool_calls":[]},"finish_reason":"stop"}],"usage":{"prompt_tokens":1,"completion_tokens":17,"prompt_tokens_details":null}}`,
	`{"choices":[{"message":{"content":null}}],"usage":{"completion_tokens":0}}`,
	`{"choices":[],"usage":{"completion_tokens":1}}`,
	`{"error":{"message":"x","code":400}}`,
	`{"choices":[{"message":{"content":"\ud800x"}}],"usage":{"completion_tokens":1e2}}`,
	"{\"choices\":[{\"message\":{\"content\":\"\xff\"}}],\"usage\":{\"completion_tokens\":-0}}",
	`[1,2]`, ``, `{"choices":[{"message":{"content":"a"}},3],"usage":{"completion_tokens":9223372036854775808}}`,
}

func FuzzParseChat(f *testing.F) {
	for _, s := range chatSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		got, tokens, err := parseResponse([]byte("prefix"), b)
		wc, wt, _, werr := refChat(b, false)
		if jsonref.CheckErr(t, b, err, werr) && (string(got) != "prefix"+wc || tokens != wt) {
			t.Fatalf("body %q: got (%q, %d), want (%q, %d)", b, got, tokens, wc, wt)
		}
	})
}

var chatChunkSeeds = []string{
	`{"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"role":"assistant","content":""},"logprobs":null,"finish_reason":null}],"usage":null}`,
	`{"choices":[{"delta":{"content":"Gr\u00f6\u00dfe \"1\""}}]}`,
	`{"choices":[],"usage":{"prompt_tokens":3,"completion_tokens":12}}`,
	`{"choices":null,"usage":{"completion_tokens":null}}`,
	`{"choices":[{"delta":null}]}`,
	`{"error":{"message":"boom"}}`,
	`{"choices":[{"delta":{"content":"x"},"finish_reason":"abort"}]}`,
	`{"choices":[{"delta":{"content":""},"finish_reason":"stop"}],"usage":{"completion_tokens":2}}`,
}

// refFinish is choices[0].finish_reason of a valid chunk, "" for none.
func refFinish(b []byte) string {
	v, _ := jsonref.Decode(b)
	m, _ := v.(map[string]any)
	c0, _, _ := jsonref.First(m, true)
	f, _ := jsonref.Finish(c0)
	return f
}

func FuzzParseChatChunk(f *testing.F) {
	for _, s := range chatChunkSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		got, c, err := parseChunk(nil, b)
		wc, wt, wu, werr := refChat(b, true)
		if jsonref.CheckErr(t, b, err, werr) && (string(got) != wc || c.tokens != wt || c.hasUsage != wu) {
			t.Fatalf("body %q: got (%q, %+v), want (%q, %d, %v)", b, got, c, wc, wt, wu)
		}
		if err == nil && string(c.finish) != refFinish(b) {
			t.Fatalf("body %q: finish_reason %q, want %q", b, c.finish, refFinish(b))
		}
	})
}

// TestParseErrors pins the messages users see.
func TestParseErrors(t *testing.T) {
	_, _, err := parseResponse(nil, []byte(`{"choices":[{"message":{"content":"x"}}]}`))
	if err == nil || !strings.Contains(err.Error(), "no usage.completion_tokens") {
		t.Errorf("chat without usage: error %v", err)
	}
	_, _, err = Protocol.DecodeResponse(nil, []byte(`{"error":{"message":"out of memory"}}`))
	var se *protocol.ServerError
	if !errors.As(err, &se) || !strings.Contains(err.Error(), "out of memory") {
		t.Errorf("server error: %v, want a *protocol.ServerError naming the message", err)
	}
}

// TestStream: the first non-empty content delta is the first token,
// reported once with n_tokens 1; the usage chunk gives the count; Reset
// starts over.
func TestStream(t *testing.T) {
	st := Protocol.NewStream()
	for range 2 {
		out, evs := prototest.Feed(t, st, chatChunkSeeds[:3])
		var firsts []string
		for _, ev := range evs {
			if ev.First {
				firsts = append(firsts, string(ev.FirstData))
				if ev.FirstTokens != 1 || ev.Done {
					t.Errorf("first event %+v", ev)
				}
			}
		}
		if want := "Größe \"1\""; string(out) != want || len(firsts) != 1 || firsts[0] != want || st.Tokens() != 12 {
			t.Errorf("out %q, firsts %q, tokens %d", out, firsts, st.Tokens())
		}
	}
	if _, _, err := st.Next(nil, []byte(`{"error":{"message":"boom"}}`)); err == nil {
		t.Error("an error chunk was accepted")
	}
}

const benchChatResponse = `{"id":"chatcmpl-8d2c","object":"chat.completion","created":1732000000,"model":"Qwen/Qwen3-VL-235B-A22B-Instruct","choices":[{"index":0,"message":{"role":"assistant","content":"{\"category\": \"Clothing & Accessories > Clothing > Shirts > Polo Shirts\", \"brand\": \"giorgio armani\", \"is_secondhand\": false}","refusal":null,"annotations":null,"audio":null,"function_call":null,"tool_calls":[],"reasoning_content":null},"logprobs":null,"finish_reason":"stop","stop_reason":null}],"service_tier":null,"system_fingerprint":null,"usage":{"prompt_tokens":1834,"total_tokens":1867,"completion_tokens":33,"prompt_tokens_details":null},"prompt_logprobs":null,"kv_transfer_params":null}`

func BenchmarkParseChat(b *testing.B) {
	prototest.BenchDecode(b, []byte(benchChatResponse), parseResponse)
}

func BenchmarkParseChatEncodingJSON(b *testing.B) {
	body := []byte(benchChatResponse)
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		var r struct {
			Choices []struct {
				Message struct {
					Content *string `json:"content"`
				} `json:"message"`
			} `json:"choices"`
			Usage *struct {
				CompletionTokens int64 `json:"completion_tokens"`
			} `json:"usage"`
		}
		if err := json.Unmarshal(body, &r); err != nil {
			b.Fatal(err)
		}
	}
}

// TestStreamEnd: how a stream may end. [DONE] ends it; without it, a
// finish_reason and the usage chunk make a complete answer, as OpenAI's
// client takes it; anything less is truncated, saying what was seen; a
// failed finish_reason fails it at once.
func TestStreamEnd(t *testing.T) {
	content := `{"choices":[{"delta":{"content":"ab"},"finish_reason":null}]}`
	stop := `{"choices":[{"delta":{},"finish_reason":"stop"}]}`
	usage := `{"choices":[],"usage":{"completion_tokens":2}}`
	for _, tc := range []prototest.StreamEnd{
		{Name: "done", Chunks: []string{content}, Done: true, Want: ""},
		{Name: "finish and usage, no done", Chunks: []string{content, stop, usage}, Done: false, Want: ""},
		{Name: "finish without usage", Chunks: []string{content, stop}, Done: false, Want: `no data: [DONE] and finish_reason "stop" but no usage chunk, after 2 events and 2 bytes of content`},
		{Name: "cut", Chunks: []string{content}, Done: false, Want: "no data: [DONE] and no finish_reason, after 1 events"},
		{Name: "aborted", Chunks: []string{content, `{"choices":[{"delta":{},"finish_reason":"abort"}]}`}, Done: false, Want: `the answer ended with finish_reason "abort" after 2 events and 2 bytes of content`},
		{Name: "error", Chunks: []string{`{"choices":[{"delta":{"content":"x"},"finish_reason":"error"}]}`}, Done: true, Want: `finish_reason "error"`},
	} {
		t.Run(tc.Name, func(t *testing.T) {
			err := prototest.CheckStreamEnd(t, Protocol, tc)
			var se *protocol.ServerError
			if strings.Contains(tc.Want, "finish_reason \"") && strings.Contains(tc.Want, "ended with") && !errors.As(err, &se) {
				t.Errorf("error %v is not a *protocol.ServerError", err)
			}
			if strings.HasPrefix(tc.Want, "no data") && !errors.Is(err, protocol.ErrTruncated) {
				t.Errorf("error %v does not wrap ErrTruncated", err)
			}
		})
	}
}
