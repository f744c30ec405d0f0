package fake

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestExactLengths: ignore_eos runs every API's answer to its cap and
// min_tokens (SGLang: min_new_tokens) lengthens a short one, streamed or
// not, as vLLM and SGLang do; a chat answer past its text repeats it.
func TestExactLengths(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var got []RequestInfo
	_, url := start(t, Config{OutputTokens: 10, OnRequest: func(ri RequestInfo) {
		mu.Lock()
		got = append(got, RequestInfo{Path: ri.Path, Tokens: ri.Tokens, Finish: ri.Finish})
		mu.Unlock()
	}})
	cases := []struct {
		path, body string
		tokens     int
		finish     string
	}{
		{"/v1/chat/completions", `{"messages":[{"role":"user","content":"x"}],"max_tokens":37,"ignore_eos":true}`, 37, "length"},
		{"/v1/chat/completions", `{"messages":[{"role":"user","content":"x"}],"max_tokens":37,"min_tokens":25,"stream":true,"stream_options":{"include_usage":true}}`, 25, "stop"},
		{"/v1/chat/completions", `{"messages":[{"role":"user","content":"x"}],"max_tokens":3}`, 3, "length"},
		{"/v1/completions", `{"prompt":[1,2,3],"max_tokens":64,"ignore_eos":true}`, 64, "length"},
		{"/v1/completions", `{"prompt":[1,2,3],"max_tokens":64,"min_tokens":20,"stream":true}`, 20, "stop"},
		{"/generate", `{"input_ids":[1,2,3],"sampling_params":{"max_new_tokens":50,"ignore_eos":true}}`, 50, "length"},
		{"/generate", `{"input_ids":[1,2,3],"sampling_params":{"max_new_tokens":50,"min_new_tokens":30},"stream":true}`, 30, "stop"},
	}
	for _, c := range cases {
		code, _, body := post(t, http.DefaultClient, url+c.path, c.body)
		if code != 200 {
			t.Fatalf("%s %s: %d %s", c.path, c.body, code, body)
		}
		if strings.Contains(c.body, `"stream":true`) && c.path == "/v1/chat/completions" {
			if !strings.Contains(string(body), fmt.Sprintf(`"completion_tokens":%d`, c.tokens)) {
				t.Errorf("%s: usage does not say %d tokens: %s", c.body, c.tokens, tail(body))
			}
		}
	}
	if len(got) != len(cases) {
		t.Fatalf("OnRequest heard %d requests, want %d", len(got), len(cases))
	}
	for i, c := range cases {
		if got[i].Tokens != c.tokens || got[i].Finish != c.finish || got[i].Path != c.path {
			t.Errorf("%s %s: answered %d tokens (%s) at %s, want %d (%s)", c.path, c.body, got[i].Tokens, got[i].Finish, got[i].Path, c.tokens, c.finish)
		}
	}
	for _, bad := range []string{`{"messages":[{"role":"user","content":"x"}],"max_tokens":3,"min_tokens":4}`} {
		if code, _, _ := post(t, http.DefaultClient, url+"/v1/chat/completions", bad); code != 400 {
			t.Errorf("%s: status %d, want 400", bad, code)
		}
	}
}

// TestPrefillAndPrefixCache: prefill time grows with the prompt, and the
// next turn of a conversation, which carries the first turn and its
// answer, finds them in the prefix cache and prefills only what is new; a
// request with the same text and another image finds the text alone.
func TestPrefillAndPrefixCache(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var cached []int
	var prompts []int
	s, url := start(t, Config{PrefillPerToken: 20 * time.Microsecond, PrefixCache: true, PrefixBlockTokens: 1, OnRequest: func(ri RequestInfo) {
		mu.Lock()
		cached, prompts = append(cached, ri.CachedTokens), append(prompts, ri.PromptTokens)
		mu.Unlock()
	}})
	long := strings.Repeat("word ", 4000)
	first := `{"messages":[{"role":"user","content":[{"type":"text","text":"` + long + `"},{"type":"image_url","image_url":{"url":"data:image/png;base64,AAAA"}}]}],"max_tokens":5,"ignore_eos":true}`
	t0 := time.Now()
	code, _, body := post(t, http.DefaultClient, url+"/v1/chat/completions", first)
	cold := time.Since(t0)
	if code != 200 {
		t.Fatalf("%d %s", code, body)
	}
	answer := decode(t, body)["choices"].([]any)[0].(map[string]any)["message"].(map[string]any)["content"].(string)
	second := `{"messages":[{"role":"user","content":[{"type":"text","text":"` + long + `"},{"type":"image_url","image_url":{"url":"data:image/png;base64,AAAA"}}]},` +
		`{"role":"assistant","content":[{"type":"text","text":"` + answer + `"}]},{"role":"user","content":"next"}],"max_tokens":5,"ignore_eos":true}`
	t0 = time.Now()
	if code, _, body := post(t, http.DefaultClient, url+"/v1/chat/completions", second); code != 200 {
		t.Fatalf("%d %s", code, body)
	}
	warm := time.Since(t0)
	// A different image after the same text: the text is the prefix.
	other := strings.Replace(first, "AAAA", "BBBB", 1)
	if code, _, body := post(t, http.DefaultClient, url+"/v1/chat/completions", other); code != 200 {
		t.Fatalf("%d %s", code, body)
	}
	answerTokens := (len(answer) + 3) / 4 // as the fake counts a message's text
	if text := len(long) / 4; cached[0] != 0 || cached[1] != prompts[0]+answerTokens || cached[2] != text {
		t.Errorf("cached tokens %v (prompts %v): want 0, the first prompt plus its answer (%d), then the text's %d", cached, prompts, answerTokens, text)
	}
	if cached[1] >= prompts[1] {
		t.Errorf("the second turn's %d cached tokens cover all of its %d: its new message was not counted", cached[1], prompts[1])
	}
	if cold < time.Duration(prompts[0])*20*time.Microsecond {
		t.Errorf("first turn took %v, less than its %d prompt tokens of prefill", cold, prompts[0])
	}
	if warm >= cold {
		t.Errorf("the second turn (%v) was not faster than the first (%v) despite the cache", warm, cold)
	}
	if st := s.Stats(); st.Images != 3 || st.CachedTokens != uint64(cached[1]+cached[2]) {
		t.Errorf("stats: %d images, %d cached tokens; want 3 and %d", st.Images, st.CachedTokens, cached[1]+cached[2])
	}
}
