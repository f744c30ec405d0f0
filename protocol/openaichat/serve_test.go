package openaichat

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mlperf-go/mlperf-go/protocol"
)

// TestParseChat pins readings of chat requests derived from the
// encoding/json documentation and vLLM's rules, and the 400 messages.
func TestParseChat(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		user       string
		images     int
		maxTokens  int
		stream     bool
	}{
		{"text and image parts", `{"model":"m","messages":[{"role":"system","content":"s"},{"role":"user","content":[{"type":"text","text":"a \u0026 b"},{"type":"image_url","image_url":{"url":"data:image/JPEG;base64,/9j/2w=="}},{"text":"c","type":"text"}]}],"max_completion_tokens":5,"temperature":0}`, "a & bc", 1, 5, false},
		// "Unmarshal matches incoming object keys to the keys used by
		// Marshal ... preferring an exact match but also accepting a
		// case-insensitive match."
		{"case-insensitive keys", `{"MESSAGES":[{"Role":"user","CONTENT":[{"Type":"text","TEXT":"hi"},{"TYPE":"image_url"}]}],"Max_Completion_Tokens":4,"STREAM":true}`, "hi", 1, 4, true},
		// Duplicate keys: the last value wins.
		{"duplicate keys", `{"messages":[{"role":"user","content":"a","content":"b"}],"max_tokens":2,"max_tokens":3}`, "b", 0, 3, false},
		// "unmarshals null into a pointer ... by setting that value to
		// nil"; otherwise null "has no effect".
		{"null", `{"messages":[{"role":"user","content":"a","role":null}],"max_tokens":2,"max_tokens":null,"stream":true,"stream":null}`, "a", 0, protocol.NoLimit, true},
		{"escaped key", `{"messag\u0065s":[{"role":"user","content":"\u00e9"}]}`, "é", 0, protocol.NoLimit, false},
		// max_completion_tokens wins over max_tokens, as in vLLM.
		{"max_completion_tokens wins", `{"messages":[{"role":"user","content":"x"}],"max_tokens":9,"max_completion_tokens":2}`, "x", 0, 2, false},
		{"other image spellings", `{"messages":[{"role":"user","content":[{"type":"image"},{"type":"input_image"},{"type":"audio"},null]}]}`, "", 2, protocol.NoLimit, false},
		{"last user message", `{"messages":[{"role":"user","content":"first"},{"role":"assistant","content":"no"},{"role":"user","content":"second"}]}`, "second", 0, protocol.NoLimit, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, err := parseChat([]byte(tc.body))
			if err != nil {
				t.Fatal(err)
			}
			a := req.Ask()
			last := a.Messages[len(a.Messages)-1]
			got := []any{lastUserText(a.Messages), last.Images, a.MaxTokens, a.Stream}
			want := []any{tc.user, tc.images, tc.maxTokens, tc.stream}
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
	for _, tc := range []struct{ body, msg string }{
		{`{"messages":[]}`, "messages must be a non-empty list"},
		{`{"messages":null}`, "messages must be a non-empty list"},
		{`null`, "messages must be a non-empty list"},
		{`{"messages":[{"role":"user","content":"x"}],"stream_options":{"include_usage":true}}`, "Stream options can only be defined when `stream=True`."},
		{`{"messages":[{"role":"user","content":"x"}],"max_tokens":0}`, "max_tokens must be at least 1, got 0."},
		{`{"messages":[{"role":"user","content":"x"}],"max_completion_tokens":-1,"max_tokens":2}`, "max_tokens must be at least 1, got -1."},
		// encoding/json's own words reach the client, naming field and type.
		{`{"messages":[{"role":"user","content":"x"}],"max_tokens":1.0}`, "invalid chat completion request JSON: json: cannot unmarshal number 1.0 into Go struct field chatRequest.max_tokens of type int"},
		{`{"messages":[{"role":"user","content":"x"}],"max_tokens":"3"}`, "invalid chat completion request JSON: json: cannot unmarshal string into Go struct field chatRequest.max_tokens of type int"},
		{`{"messages":[{"role":"user","content":5}]}`, "invalid chat completion request JSON: messages[0]: content must be a string or a list of content parts"},
		{`{"messages":[{"role":"user","content":{"type":"text"}}]}`, "invalid chat completion request JSON: messages[0]: content must be a string or a list of content parts"},
		{`{"messages":[{"role":"user","content":"x"},{"role":"user","content":["x"]}]}`, "invalid chat completion request JSON: messages[1]: content part 0 is not an object"},
		{`{"messages":[{"role":"user","content":[{"type":"text","text":5}]}]}`, "invalid chat completion request JSON: messages[0]: content part 0: text must be a string"},
		{`{"messages":[{"role":"user","content":[null,{"type":1}]}]}`, "invalid chat completion request JSON: messages[0]: content part 1: type must be a string"},
		{`{"messages":[{"role":"user","content":"x"}]} x`, "invalid chat completion request JSON: invalid character 'x' after top-level value"},
		{`[]`, "invalid chat completion request JSON: json: cannot unmarshal array into Go value of type openaichat.chatRequest"},
		{``, "invalid chat completion request JSON: unexpected end of JSON input"},
	} {
		_, err := parseChat([]byte(tc.body))
		if err == nil || err.Error() != tc.msg {
			t.Errorf("parseChat(%q) error %v, want %q", tc.body, err, tc.msg)
		}
	}
}

// lastUserText is the text of the last user message, what the fake keys
// its answers on.
func lastUserText(msgs []protocol.Message) string {
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == "user" {
			return msgs[i].Text
		}
	}
	return ""
}
