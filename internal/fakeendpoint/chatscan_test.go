package fakeendpoint

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// parseChatEncodingJSON is parseChat as it was before scanChat: all
// decoding by encoding/json into the chatRequest types. It is the oracle
// scanChat is held to, and the "before" side of the benchmarks.
func parseChatEncodingJSON(body []byte) (*chatRequest, error) {
	var req chatRequest
	if err := json.Unmarshal(body, &req); err != nil {
		return nil, fmt.Errorf("invalid chat completion request JSON: %v", err)
	}
	if len(req.Messages) == 0 {
		return nil, errors.New("messages must be a non-empty list")
	}
	if req.StreamOptions != nil && !req.Stream {
		return nil, errors.New("Stream options can only be defined when `stream=True`.")
	}
	for _, m := range []*int{req.MaxTokens, req.MaxCompletionTokens} {
		if m != nil && *m < 1 {
			return nil, fmt.Errorf("max_tokens must be at least 1, got %d.", *m)
		}
	}
	return &req, nil
}

var chatCmp = cmp.AllowUnexported(chatContent{})

// checkChat holds scanChat and parseChat to encoding/json on one body: the
// same accept/reject decision, the same decoded request (every field,
// including what duplicates, nulls and reused slice elements leave
// behind), the same error messages.
func checkChat(t *testing.T, b []byte) {
	t.Helper()
	var want, got chatRequest
	werr := json.Unmarshal(b, &want)
	gerr := scanChat(b, &got)
	if (gerr == nil) != (werr == nil) {
		t.Fatalf("%q: scanChat error %v, encoding/json error %v", b, gerr, werr)
	}
	if werr == nil {
		if d := cmp.Diff(want, got, chatCmp); d != "" {
			t.Fatalf("%q: scanChat decodes differently (-encoding/json +scanChat):\n%s", b, d)
		}
	}
	wreq, werr := parseChatEncodingJSON(b)
	greq, gerr := parseChat(b)
	if fmt.Sprint(gerr) != fmt.Sprint(werr) {
		t.Fatalf("%q: parseChat error %v, encoding/json original %v", b, gerr, werr)
	}
	if d := cmp.Diff(wreq, greq, chatCmp); d != "" {
		t.Fatalf("%q: parseChat result (-original +new):\n%s", b, d)
	}
	if greq != nil {
		if greq.userText() != wreq.userText() || greq.promptTokens() != wreq.promptTokens() || greq.maxTokens() != wreq.maxTokens() {
			t.Fatalf("%q: derived values differ", b)
		}
	}
}

var chatRequestSeeds = []string{
	`{"model":"m","messages":[{"role":"system","content":"s"},{"role":"user","content":[{"type":"text","text":"a \u0026 b"},{"type":"image_url","image_url":{"url":"data:image/JPEG;base64,/9j/2w=="}},{"text":"c","type":"text"}]}],"max_completion_tokens":5,"temperature":0}`,
	`{"Messages":[{"ROLE":"user","Content":"x"}],"MAX_TOKENS":3,"Stream":true,"Stream_Options":{"Include_Usage":true}}`,
	"{\"me\u017f\u017fages\":[{\"role\":\"user\",\"content\":\"x\"}],\"max_to\u212aens\":2}",
	`{"m\u0065ssages":[{"role":"user","content":"x"}]}`,
	`{"messages":[{"role":"user","content":"a"},{"role":"user","content":"b"}],"messages":[{"content":"c"}]}`,
	`{"messages":[{"role":"user","content":"a"},{"role":"x","content":"b"}],"messages":[{"content":"c"}],"messages":[{},{}]}`,
	`{"messages":[{"role":"user","content":"a"},{"role":"user","content":"b"}],"messages":[],"messages":[{},{}]}`,
	`{"messages":[{"role":"user","content":[{"type":"text","text":"a"}]}],"messages":[{"content":[{"type":"text","text":"b"},{"type":"image"}]}]}`,
	`{"messages":[{"role":"user","content":[{"type":"image_url"}],"content":"x","content":null}]}`,
	`{"messages":[null,{"role":"user","content":[null,{"type":"text","text":"a","type":"input_image"},{"text":"b","type":"text","text":null}]}]}`,
	`{"messages":[{"role":"user","content":"x"}],"max_tokens":5,"max_tokens":null,"stream":true,"stream":null,"stream_options":{"include_usage":true},"stream_options":{"continuous_usage_stats":true}}`,
	`{"messages":[{"role":"user","content":"x"}],"stream_options":{"include_usage":true},"stream_options":null}`,
	`{"messages":[{"role":"user","content":"x"}],"stream_options":{"include_usage":true}}`,
	`{"messages":[{"role":"user","content":"x"}],"max_tokens":0}`,
	`{"messages":[{"role":"user","content":"x"}],"max_completion_tokens":-1,"max_tokens":2}`,
	`{"messages":[{"role":"user","content":"x"}],"max_tokens":1.0}`,
	`{"messages":[{"role":"user","content":"x"}],"max_tokens":1e2}`,
	`{"messages":[{"role":"user","content":"x"}],"max_tokens":9223372036854775808}`,
	`{"messages":[{"role":"user","content":"x"}],"max_tokens":"3"}`,
	`{"messages":[{"role":"user","content":5}]}`,
	`{"messages":[{"role":"user","content":{"type":"text"}}]}`,
	`{"messages":[{"role":"user","content":[{"type":"text","text":5}]}]}`,
	`{"messages":[{"role":"user","content":["x"]}]}`,
	`{"messages":[{"role":1,"content":"x"}]}`,
	`{"messages":{"role":"user"}}`,
	`{"messages":[1]}`,
	`{"model":null,"model":7,"messages":[{"role":"user","content":"x"}]}`,
	`{"messages":[{"role":"user","content":"x"}],"stream":"yes"}`,
	`{"messages":[{"role":"user","content":"x"}],"stream_options":[]}`,
	`{"messages":[{"role":"user","content":"x"}],"stream_options":{"include_usage":1}}`,
	"{\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"te\\u0078t\",\"text\":\"\xff\\ud800\"}]}]}",
	`{"messages":[{"role":"user","content":"x"}]} x`, `{"messages":[{"role":"user","content":"x"}],}`, `{"messages":[{"role":"user","content":"x"`,
	`null`, `[]`, `"x"`, `1`, `true`, ``, ` {} `, `{"messages":null}`, `{"messages":[]}`,
}

func FuzzParseChat(f *testing.F) {
	for _, s := range chatRequestSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) { checkChat(t, b) })
}

// TestParseChatMatchesEncodingJSON runs the seeds as a table, and pins a
// few readings derived from the encoding/json documentation rather than
// from either implementation.
func TestParseChatMatchesEncodingJSON(t *testing.T) {
	for _, s := range chatRequestSeeds {
		checkChat(t, []byte(s))
	}
	for _, tc := range []struct {
		name, body string
		user       string
		images     int
		maxTokens  int
		stream     bool
	}{
		// "Unmarshal matches incoming object keys to the keys used by
		// Marshal ... preferring an exact match but also accepting a
		// case-insensitive match."
		{"case-insensitive keys", `{"MESSAGES":[{"Role":"user","CONTENT":[{"Type":"text","TEXT":"hi"},{"TYPE":"image_url"}]}],"Max_Completion_Tokens":4,"STREAM":true}`, "hi", 1, 4, true},
		// Duplicate keys: the last value wins.
		{"duplicate keys", `{"messages":[{"role":"user","content":"a","content":"b"}],"max_tokens":2,"max_tokens":3}`, "b", 0, 3, false},
		// "unmarshals null into a pointer ... by setting that value to
		// nil"; otherwise null "has no effect".
		{"null", `{"messages":[{"role":"user","content":"a","role":null}],"max_tokens":2,"max_tokens":null,"stream":true,"stream":null}`, "a", 0, 0, true},
		{"escaped key", `{"messag\u0065s":[{"role":"user","content":"\u00e9"}]}`, "é", 0, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, err := parseChat([]byte(tc.body))
			if err != nil {
				t.Fatal(err)
			}
			got := []any{req.userText(), req.Messages[len(req.Messages)-1].Content.images, req.maxTokens(), req.Stream}
			want := []any{tc.user, tc.images, tc.maxTokens, tc.stream}
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}
