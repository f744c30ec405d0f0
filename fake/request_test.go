package fake

import (
	"testing"

	"github.com/google/go-cmp/cmp"
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
		prompt     int
	}{
		{"text and image parts", `{"model":"m","messages":[{"role":"system","content":"s"},{"role":"user","content":[{"type":"text","text":"a \u0026 b"},{"type":"image_url","image_url":{"url":"data:image/JPEG;base64,/9j/2w=="}},{"text":"c","type":"text"}]}],"max_completion_tokens":5,"temperature":0}`, "a & bc", 1, 5, false, 1 + 2 + imagePromptTokens},
		// "Unmarshal matches incoming object keys to the keys used by
		// Marshal ... preferring an exact match but also accepting a
		// case-insensitive match."
		{"case-insensitive keys", `{"MESSAGES":[{"Role":"user","CONTENT":[{"Type":"text","TEXT":"hi"},{"TYPE":"image_url"}]}],"Max_Completion_Tokens":4,"STREAM":true}`, "hi", 1, 4, true, 1 + imagePromptTokens},
		// Duplicate keys: the last value wins.
		{"duplicate keys", `{"messages":[{"role":"user","content":"a","content":"b"}],"max_tokens":2,"max_tokens":3}`, "b", 0, 3, false, 1},
		// "unmarshals null into a pointer ... by setting that value to
		// nil"; otherwise null "has no effect".
		{"null", `{"messages":[{"role":"user","content":"a","role":null}],"max_tokens":2,"max_tokens":null,"stream":true,"stream":null}`, "a", 0, 0, true, 1},
		{"escaped key", `{"messag\u0065s":[{"role":"user","content":"\u00e9"}]}`, "é", 0, 0, false, 1},
		// max_completion_tokens wins over max_tokens, as in vLLM.
		{"max_completion_tokens wins", `{"messages":[{"role":"user","content":"x"}],"max_tokens":9,"max_completion_tokens":2}`, "x", 0, 2, false, 1},
		{"other image spellings", `{"messages":[{"role":"user","content":[{"type":"image"},{"type":"input_image"},{"type":"audio"},null]}]}`, "", 2, 0, false, 2 * imagePromptTokens},
		{"last user message", `{"messages":[{"role":"user","content":"first"},{"role":"assistant","content":"no"},{"role":"user","content":"second"}]}`, "second", 0, 0, false, 2 + 1 + 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, err := parseChat([]byte(tc.body))
			if err != nil {
				t.Fatal(err)
			}
			got := []any{req.userText(), req.Messages[len(req.Messages)-1].content.images, req.maxTokens(), req.Stream, req.promptTokens()}
			want := []any{tc.user, tc.images, tc.maxTokens, tc.stream, tc.prompt}
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
		{`[]`, "invalid chat completion request JSON: json: cannot unmarshal array into Go value of type fake.chatRequest"},
		{``, "invalid chat completion request JSON: unexpected end of JSON input"},
	} {
		_, err := parseChat([]byte(tc.body))
		if err == nil || err.Error() != tc.msg {
			t.Errorf("parseChat(%q) error %v, want %q", tc.body, err, tc.msg)
		}
	}
}

// TestParseCompletion pins readings of completions requests: every prompt
// shape vLLM accepts, and its rejections.
func TestParseCompletion(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		prompts    [][]int32
		maxTokens  *int
		ids        bool
	}{
		{"token IDs", `{"prompt":[5,-6],"max_tokens":7,"return_token_ids":true}`, [][]int32{{5, -6}}, ptr(7), true},
		{"case-insensitive keys", `{"Prompt":[5],"MAX_TOKENS":7,"Return_Token_Ids":true}`, [][]int32{{5}}, ptr(7), true},
		{"last duplicate wins", `{"prompt":[5],"prompt":[6,7],"max_tokens":1,"max_tokens":null}`, [][]int32{{6, 7}}, nil, false},
		{"null element is zero", `{"prompt":[5,null]}`, [][]int32{{5, 0}}, nil, false},
		{"token lists", `{"prompt":[[1],[2,3]]}`, [][]int32{{1}, {2, 3}}, nil, false},
		{"text", `{"prompt":"hi there"}`, [][]int32{textPromptIDs("hi there")}, nil, false},
		{"texts", `{"prompt":["a","b"]}`, [][]int32{textPromptIDs("a"), textPromptIDs("b")}, nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, prompts, err := parseCompletion([]byte(tc.body))
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tc.prompts, prompts); d != "" {
				t.Errorf("prompts (-want +got):\n%s", d)
			}
			if !cmp.Equal(tc.maxTokens, req.MaxTokens) || req.ReturnTokenIDs != tc.ids {
				t.Errorf("max_tokens %v return_token_ids %v, want %v %v", req.MaxTokens, req.ReturnTokenIDs, tc.maxTokens, tc.ids)
			}
		})
	}
	for _, tc := range []struct{ body, msg string }{
		{`{}`, "prompt is required"},
		{`{"prompt":null}`, "prompt is required"},
		{`{"prompt":[]}`, "prompt must not be empty"},
		{`{"prompt":[[1],[]]}`, "prompt 1 is an empty token list"},
		{`{"prompt":[1],"echo":true}`, "echo is not supported by the fake endpoint"},
		{`{"prompt":[1],"max_tokens":0}`, "max_tokens must be at least 1, got 0."},
		{`{"prompt":[1],"stream_options":{}}`, "Stream options can only be defined when `stream=True`."},
		{`{"prompt":[2147483648]}`, "invalid token-ID prompt: json: cannot unmarshal number 2147483648 into Go value of type int32"},
		{`{"prompt":[1.5]}`, "invalid token-ID prompt: json: cannot unmarshal number 1.5 into Go value of type int32"},
		{`{"prompt":["a",1]}`, "invalid list-of-strings prompt: json: cannot unmarshal number into Go value of type string"},
		{`{"prompt":3}`, "prompt must be a string, a list of strings, a list of token IDs or a list of token-ID lists: json: cannot unmarshal number into Go value of type []json.RawMessage"},
		{`{"prompt":[1],"max_tokens":"3"}`, "invalid completion request JSON: json: cannot unmarshal string into Go struct field completionRequest.max_tokens of type int"},
		{`{"prompt":[1 2]}`, "invalid completion request JSON: invalid character '2' after array element"},
	} {
		_, _, err := parseCompletion([]byte(tc.body))
		if err == nil || err.Error() != tc.msg {
			t.Errorf("parseCompletion(%q) error %v, want %q", tc.body, err, tc.msg)
		}
	}
}

func ptr(v int) *int { return &v }

// requestSeeds are request bodies of every endpoint, well-formed and not,
// that FuzzParseRequests starts from.
var requestSeeds = []string{
	`{"messages":[{"role":"user","content":[{"type":"text","text":"x"},{"type":"image_url","image_url":{"url":"u"}}]}]}`,
	`{"Messages":[{"ROLE":"user","Content":"x"}],"MAX_TOKENS":3,"Stream":true,"Stream_Options":{"Include_Usage":true}}`,
	"{\"me\u017f\u017fages\":[{\"role\":\"user\",\"content\":\"x\"}],\"max_to\u212aens\":2}",
	`{"messages":[{"role":"user","content":"a"},{"role":"user","content":"b"}],"messages":[{"content":"c"}]}`,
	`{"messages":[null,{"role":"user","content":[null,{"type":"text","text":"a","type":"input_image"},{"text":"b","type":"text","text":null}]}]}`,
	"{\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"te\\u0078t\",\"text\":\"\xff\\ud800\"}]}]}",
	`{"model":"meta-llama/Llama-3.1-8B-Instruct","prompt":[128000,791,4062,-1,2147483647],"max_tokens":128,"temperature":0,"top_p":1,"return_token_ids":true,"stream":false}`,
	`{"prompt":[1,2],"stream":true,"stream_options":{"include_usage":true,"continuous_usage_stats":true}}`,
	`{"prompt":[[1,2],[3]],"max_tokens":3}`, `{"prompt":"hi"}`, `{"prompt":["a","b"]}`, `{"prompt":[1,null,3]}`, `{"prompt":[[1],null]}`,
	`{"input_ids":[1,2],"sampling_params":{"max_new_tokens":2},"stream":true}`, `{"input_ids":[[1],[2,3]]}`, `{"text":["a"]}`, `{"text":"a","rid":"r"}`,
	`null`, `[]`, `"x"`, `1`, `true`, ``, ` {} `, `{"prompt":[1`,
}

// FuzzParseRequests feeds any body to all three parsers: none panics,
// and what one accepts is usable (prompts present, limits not negative).
func FuzzParseRequests(f *testing.F) {
	for _, s := range requestSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if req, err := parseChat(b); err == nil {
			_ = req.userText()
			if len(req.Messages) == 0 || req.maxTokens() < 0 || req.promptTokens() < 0 {
				t.Fatalf("parseChat(%q) accepted an unusable request", b)
			}
		}
		if req, prompts, err := parseCompletion(b); err == nil {
			if len(prompts) == 0 || (req.MaxTokens != nil && *req.MaxTokens < 1) {
				t.Fatalf("parseCompletion(%q) accepted an unusable request", b)
			}
		}
		if _, prompts, _, err := parseGenerate(b); err == nil && len(prompts) == 0 {
			t.Fatalf("parseGenerate(%q) accepted no prompts", b)
		}
	})
}
