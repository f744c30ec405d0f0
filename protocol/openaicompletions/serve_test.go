package openaicompletions

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestParseCompletion pins readings of completions requests: every prompt
// shape vLLM accepts, and its rejections.
func TestParseCompletion(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		prompts    [][]int32
		texts      []string
		maxTokens  int
		ids        bool
	}{
		{"token IDs", `{"prompt":[5,-6],"max_tokens":7,"return_token_ids":true}`, [][]int32{{5, -6}}, nil, 7, true},
		{"case-insensitive keys", `{"Prompt":[5],"MAX_TOKENS":7,"Return_Token_Ids":true}`, [][]int32{{5}}, nil, 7, true},
		{"last duplicate wins", `{"prompt":[5],"prompt":[6,7],"max_tokens":1,"max_tokens":null}`, [][]int32{{6, 7}}, nil, completionDefaultMaxTokens, false},
		{"null element is zero", `{"prompt":[5,null]}`, [][]int32{{5, 0}}, nil, completionDefaultMaxTokens, false},
		{"token lists", `{"prompt":[[1],[2,3]]}`, [][]int32{{1}, {2, 3}}, nil, completionDefaultMaxTokens, false},
		{"text", `{"prompt":"hi there"}`, nil, []string{"hi there"}, completionDefaultMaxTokens, false},
		{"texts", `{"prompt":["a","b"]}`, nil, []string{"a", "b"}, completionDefaultMaxTokens, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, err := parseCompletion([]byte(tc.body))
			if err != nil {
				t.Fatal(err)
			}
			a := req.Ask()
			if d := cmp.Diff(tc.prompts, a.Prompts); d != "" {
				t.Errorf("prompts (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tc.texts, a.TextPrompts); d != "" {
				t.Errorf("text prompts (-want +got):\n%s", d)
			}
			if a.MaxTokens != tc.maxTokens || req.ReturnTokenIDs != tc.ids {
				t.Errorf("max tokens %v return_token_ids %v, want %v %v", a.MaxTokens, req.ReturnTokenIDs, tc.maxTokens, tc.ids)
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
		_, err := parseCompletion([]byte(tc.body))
		if err == nil || err.Error() != tc.msg {
			t.Errorf("parseCompletion(%q) error %v, want %q", tc.body, err, tc.msg)
		}
	}
}
