package fakeendpoint

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// ignorePrompt: scanCompletion leaves the raw prompt out of the request
// (nothing reads it after parsing).
var ignorePrompt = cmpopts.IgnoreFields(completionRequest{}, "Prompt")

// checkCompletion holds scanCompletion and parseCompletion to the
// encoding/json original on one body.
func checkCompletion(t *testing.T, b []byte) {
	t.Helper()
	wreq, wprompts, werr := parseCompletionEncodingJSON(b)
	var got completionRequest
	prompts, err := scanCompletion(b, &got)
	if (err == nil) != (werr == nil) {
		t.Fatalf("%q: scanCompletion error %v, original error %v", b, err, werr)
	}
	if werr == nil {
		if d := cmp.Diff(wreq, &got, ignorePrompt); d != "" {
			t.Fatalf("%q: request (-original +scanCompletion):\n%s", b, d)
		}
		if d := cmp.Diff(wprompts, prompts); d != "" {
			t.Fatalf("%q: prompts (-original +scanCompletion):\n%s", b, d)
		}
	}
	greq, gprompts, gerr := parseCompletion(b)
	if fmt.Sprint(gerr) != fmt.Sprint(werr) {
		t.Fatalf("%q: parseCompletion error %v, original %v", b, gerr, werr)
	}
	if d := cmp.Diff(wreq, greq, ignorePrompt); d != "" {
		t.Fatalf("%q: parseCompletion request (-original +new):\n%s", b, d)
	}
	if d := cmp.Diff(wprompts, gprompts); d != "" {
		t.Fatalf("%q: parseCompletion prompts (-original +new):\n%s", b, d)
	}
}

var completionRequestSeeds = []string{
	`{"model":"meta-llama/Llama-3.1-8B-Instruct","prompt":[128000,791,4062,-1,2147483647],"max_tokens":128,"temperature":0,"top_p":1,"return_token_ids":true,"stream":false}`,
	`{"prompt":[1,2],"stream":true,"stream_options":{"include_usage":true,"continuous_usage_stats":true}}`,
	`{"PROMPT":[1],"Max_Tokens":3,"Return_Token_IDs":true,"STREAM":true,"Stream":null}`,
	"{\"prompt\":[1],\"max_to\u212aens\":2,\"\u017ftream\":true}",
	`{"prompt":[1,2],"prompt":"text prompt"}`, `{"prompt":"x","prompt":[3,4]}`, `{"prompt":[],"prompt":[5]}`, `{"prompt":[5],"prompt":[]}`,
	`{"prompt":[1,2],"prompt":null}`, `{"prompt":null}`, `{}`, `null`, `[]`, `1`, ``,
	`{"prompt":[1,null,3]}`, `{"prompt":[null]}`, `{"prompt":[[1,2],[3]]}`, `{"prompt":[[1],[]]}`, `{"prompt":[[1],null]}`, `{"prompt":[[1,null]]}`,
	`{"prompt":["a","b"]}`, `{"prompt":["a",null]}`, `{"prompt":["a",1]}`, `{"prompt":[1,"a"]}`, `{"prompt":[true]}`, `{"prompt":[{}]}`,
	`{"prompt":[1.5]}`, `{"prompt":[1e2]}`, `{"prompt":[2147483648]}`, `{"prompt":[-2147483649]}`, `{"prompt":[-0]}`, `{"prompt":3}`, `{"prompt":{}}`, `{"prompt":true}`,
	`{"prompt":"\u00e9t\u00e9 \ud83d\ude00","max_tokens":1}`, `{"prompt":""}`,
	`{"prompt":[1],"max_tokens":0}`, `{"prompt":[1],"max_tokens":-5}`, `{"prompt":[1],"max_tokens":1.0}`, `{"prompt":[1],"max_tokens":null}`, `{"prompt":[1],"max_tokens":"3"}`,
	`{"prompt":[1],"echo":true}`, `{"prompt":[1],"echo":true,"echo":false}`, `{"prompt":[1],"echo":1}`,
	`{"prompt":[1],"stream_options":{}}`, `{"prompt":[1],"stream_options":{},"stream_options":null}`, `{"prompt":[1],"stream_options":[]}`,
	`{"prompt":[1],"model":5}`, `{"prompt":[1],"return_token_ids":"yes"}`,
	`{"prompt":[1]} x`, `{"prompt":[1],}`, `{"prompt":[1`, `{"prompt":[1 2]}`, ` {"prompt" : [ 1 , 2 ] } `,
}

func FuzzParseCompletion(f *testing.F) {
	for _, s := range completionRequestSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) { checkCompletion(t, b) })
}

func TestParseCompletionMatchesEncodingJSON(t *testing.T) {
	for _, s := range completionRequestSeeds {
		checkCompletion(t, []byte(s))
	}
	// Readings derived from the encoding/json documentation and vLLM's
	// rules, not from either implementation.
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
}

func ptr(v int) *int { return &v }
