package fake

import (
	"encoding/json"
	"net/http"
	"slices"
	"testing"
)

// TestEndTokens: every answer to a token prompt ends with Config.EndTokens
// in place of its last generated tokens, streamed or not, completions and
// SGLang alike, its length unchanged; an answer shorter than EndTokens
// ends with their tail; chats are left alone.
func TestEndTokens(t *testing.T) {
	t.Parallel()
	end := []int32{128009, 128009}
	_, url := start(t, Config{Model: "m", OutputTokens: 6, EndTokens: end})
	prompt := []int32{128000, 9906, 1917}
	want := append(Tokens(prompt, 6)[:4], end...)

	ids := func(body []byte, path string) []int32 {
		t.Helper()
		var out []int32
		if path == "/generate" {
			var r sglangResult
			if err := json.Unmarshal(body, &r); err != nil {
				t.Fatal(err)
			}
			return r.OutputIDs
		}
		for _, a := range decode(t, body)["choices"].([]any)[0].(map[string]any)["token_ids"].([]any) {
			out = append(out, int32(a.(float64)))
		}
		return out
	}
	_, _, body := post(t, http.DefaultClient, url+"/v1/completions", `{"model":"m","prompt":[128000,9906,1917],"max_tokens":64,"return_token_ids":true}`)
	if got := ids(body, "/v1/completions"); !slices.Equal(got, want) {
		t.Errorf("completions token_ids %v, want %v", got, want)
	}
	_, _, body = post(t, http.DefaultClient, url+"/generate", `{"input_ids":[128000,9906,1917],"sampling_params":{"max_new_tokens":64}}`)
	if got := ids(body, "/generate"); !slices.Equal(got, want) {
		t.Errorf("/generate output_ids %v, want %v", got, want)
	}
	_, _, body = post(t, http.DefaultClient, url+"/v1/completions", `{"model":"m","prompt":[128000,9906,1917],"max_tokens":64,"return_token_ids":true,"stream":true}`)
	var streamed []int32
	for _, ev := range sseEvents(t, body) {
		for _, a := range decode(t, []byte(ev))["choices"].([]any)[0].(map[string]any)["token_ids"].([]any) {
			streamed = append(streamed, int32(a.(float64)))
		}
	}
	if !slices.Equal(streamed, want) {
		t.Errorf("streamed token_ids %v, want %v", streamed, want)
	}
	// One token asked: the tail of EndTokens.
	_, _, body = post(t, http.DefaultClient, url+"/v1/completions", `{"model":"m","prompt":[128000,9906,1917],"max_tokens":1,"return_token_ids":true}`)
	if got := ids(body, "/v1/completions"); !slices.Equal(got, end[1:]) {
		t.Errorf("a one-token answer %v, want %v", got, end[1:])
	}
}
