package fake

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/openai/openai-go"
	"github.com/openai/openai-go/option"
)

const testUserText = "The title of the product is the following:\n```text\nPolo \"Navy\" – Größe M & co\n```\n"

// testAnswer is a sample shaped like the qwen3-vl benchmark's: ProductMetadata
// JSON as Python's json.dumps writes it.
var testAnswer = Answer{
	Keys:   []string{testUserText},
	Right:  `{"category": "Clothing & Accessories > Clothing > Shirts > Polo Shirts", "brand": "giorgio armani", "is_secondhand": false}`,
	Wrongs: []string{`{"category": "Home & Garden > Linens & Bedding > Towels", "brand": "giorgio armani outlet", "is_secondhand": true}`},
}

// testRight is testAnswer.Right decoded.
var testRight = product{"Clothing & Accessories > Clothing > Shirts > Polo Shirts", "giorgio armani", false}

// chatBody builds a chat request shaped like the reference task.py's: a
// system prompt, then a user message with a text part and an image part.
func chatBody(t testing.TB, userText string, extra map[string]any) string {
	t.Helper()
	req := map[string]any{
		"model": DefaultModel,
		"messages": []any{
			map[string]any{"role": "system", "content": "Please analyze the product from the user prompt"},
			map[string]any{"role": "user", "content": []any{
				map[string]any{"type": "text", "text": userText},
				map[string]any{"type": "image_url", "image_url": map[string]any{"url": "data:image/JPEG;base64,/9j/2wCEAAMCAgMCAgMDAwME"}},
			}},
		},
		"temperature": 0,
	}
	for k, v := range extra {
		req[k] = v
	}
	b, err := json.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

type product struct {
	Category     string `json:"category"`
	Brand        string `json:"brand"`
	IsSecondhand bool   `json:"is_secondhand"`
}

func TestChatNonStreamingShape(t *testing.T) {
	_, url := start(t, Config{Answers: []Answer{testAnswer}, Accuracy: 1})
	code, ctype, body := post(t, http.DefaultClient, url+"/v1/chat/completions", chatBody(t, testUserText, nil))
	if code != 200 || ctype != "application/json" {
		t.Fatalf("status %d, content type %q: %s", code, ctype, body)
	}
	got := decode(t, body)
	id, _ := got["id"].(string)
	if !strings.HasPrefix(id, "chatcmpl-") || len(id) != len("chatcmpl-")+32 {
		t.Errorf("id %q is not chatcmpl- and 32 hex digits", id)
	}
	if c, ok := got["created"].(float64); !ok || c < 1.7e9 {
		t.Errorf("created = %v, want a Unix time", got["created"])
	}
	msg := got["choices"].([]any)[0].(map[string]any)["message"].(map[string]any)
	content := msg["content"].(string)
	var p product
	if err := json.Unmarshal([]byte(content), &p); err != nil {
		t.Fatalf("content %q is not ProductMetadata JSON: %v", content, err)
	}
	if diff := cmp.Diff(testRight, p); diff != "" {
		t.Errorf("answer with accuracy 1 is not the truth (-want +got):\n%s", diff)
	}
	nTok := len(splitPieces(content))
	// prompt_tokens: ceil(len/4) per message text plus 256 per image.
	prompt := (len("Please analyze the product from the user prompt")+3)/4 + (len(testUserText)+3)/4 + 256
	want := map[string]any{
		"object": "chat.completion",
		"model":  DefaultModel,
		"choices": []any{map[string]any{
			"index": 0.0,
			"message": map[string]any{
				"role": "assistant", "content": content, "refusal": nil, "annotations": nil,
				"audio": nil, "function_call": nil, "tool_calls": []any{}, "reasoning_content": nil,
			},
			"logprobs": nil, "finish_reason": "stop", "stop_reason": nil, "token_ids": nil,
		}},
		"service_tier": nil, "system_fingerprint": nil,
		"usage": map[string]any{
			"prompt_tokens": float64(prompt), "completion_tokens": float64(nTok),
			"total_tokens": float64(prompt + nTok), "prompt_tokens_details": nil,
		},
		"prompt_logprobs": nil, "prompt_token_ids": nil, "kv_transfer_params": nil,
	}
	if diff := cmp.Diff(want, got, cmpopts.IgnoreMapEntries(func(k string, _ any) bool { return k == "id" || k == "created" })); diff != "" {
		t.Errorf("chat response (-want +got):\n%s", diff)
	}
}

func TestChatStreamingMatchesNonStreaming(t *testing.T) {
	for _, interval := range []int{1, 4} {
		_, url := start(t, Config{Answers: []Answer{testAnswer}, Accuracy: 1, StreamInterval: interval})
		_, _, plain := post(t, http.DefaultClient, url+"/v1/chat/completions", chatBody(t, testUserText, nil))
		pm := decode(t, plain)
		wantContent := pm["choices"].([]any)[0].(map[string]any)["message"].(map[string]any)["content"].(string)
		wantUsage := pm["usage"].(map[string]any)

		code, ctype, body := post(t, http.DefaultClient, url+"/v1/chat/completions", chatBody(t, testUserText, map[string]any{
			"stream": true, "stream_options": map[string]any{"include_usage": true},
		}))
		if code != 200 || ctype != "text/event-stream" {
			t.Fatalf("status %d, content type %q", code, ctype)
		}
		events := sseEvents(t, body)
		var content strings.Builder
		var ids []string
		finishes := 0
		for i, ev := range events[:len(events)-1] {
			m := decode(t, []byte(ev))
			ids = append(ids, m["id"].(string))
			if m["object"] != "chat.completion.chunk" {
				t.Fatalf("event %d object = %v", i, m["object"])
			}
			ch := m["choices"].([]any)[0].(map[string]any)
			delta := ch["delta"].(map[string]any)
			if i == 0 {
				if diff := cmp.Diff(map[string]any{"role": "assistant", "content": ""}, delta); diff != "" {
					t.Errorf("first chunk delta (-want +got):\n%s", diff)
				}
			}
			content.WriteString(delta["content"].(string))
			if ch["finish_reason"] != nil {
				finishes++
				if ch["finish_reason"] != "stop" || i != len(events)-2 {
					t.Errorf("finish_reason %v on chunk %d of %d", ch["finish_reason"], i, len(events)-1)
				}
			}
		}
		if finishes != 1 {
			t.Errorf("%d chunks carry a finish_reason, want 1", finishes)
		}
		if content.String() != wantContent {
			t.Errorf("interval %d: streamed content %q, non-streamed %q", interval, content.String(), wantContent)
		}
		nTok := len(splitPieces(wantContent))
		if wantEvents := 1 + (nTok+interval-1)/interval + 1; len(events) != wantEvents && interval == 1 {
			t.Errorf("%d events for %d tokens, want %d (role, one per token, usage)", len(events), nTok, wantEvents)
		}
		last := decode(t, []byte(events[len(events)-1]))
		if diff := cmp.Diff([]any{}, last["choices"]); diff != "" {
			t.Errorf("usage chunk choices (-want +got):\n%s", diff)
		}
		delete(wantUsage, "prompt_tokens_details")
		if diff := cmp.Diff(wantUsage, last["usage"]); diff != "" {
			t.Errorf("streamed usage differs from non-streamed (-want +got):\n%s", diff)
		}
		for _, id := range ids {
			if id != ids[0] {
				t.Fatalf("chunk ids differ: %q vs %q", id, ids[0])
			}
		}
	}
}

func TestChatMaxTokensAndUnknownPrompt(t *testing.T) {
	_, url := start(t, Config{Answers: []Answer{testAnswer}, Accuracy: 1})
	_, _, body := post(t, http.DefaultClient, url+"/v1/chat/completions", chatBody(t, testUserText, map[string]any{"max_completion_tokens": 3, "max_tokens": 100}))
	m := decode(t, body)
	ch := m["choices"].([]any)[0].(map[string]any)
	if ch["finish_reason"] != "length" {
		t.Errorf("finish_reason = %v, want length", ch["finish_reason"])
	}
	if got := ch["message"].(map[string]any)["content"]; got != `{"category` {
		t.Errorf("content capped at 3 tokens = %q, want %q", got, `{"category`)
	}
	if got := m["usage"].(map[string]any)["completion_tokens"]; got != 3.0 {
		t.Errorf("completion_tokens = %v, want 3", got)
	}

	_, _, body = post(t, http.DefaultClient, url+"/v1/chat/completions", chatBody(t, "some other product", nil))
	if content := answerText(t, body); content != FallbackAnswer {
		t.Errorf("unknown prompt answered %q, want FallbackAnswer", content)
	}

	// A benchmark's default answer replaces the fallback.
	const def = `{"category": "Uncategorized", "brand": "unbranded", "is_secondhand": false}`
	_, url = start(t, Config{Answers: []Answer{testAnswer}, Accuracy: 1, DefaultAnswer: def})
	_, _, body = post(t, http.DefaultClient, url+"/v1/chat/completions", chatBody(t, "some other product", nil))
	if content := answerText(t, body); content != def {
		t.Errorf("unknown prompt answered %q, want the default answer", content)
	}
}

// answerText is the message content of a non-streamed chat answer.
func answerText(t *testing.T, body []byte) string {
	t.Helper()
	return decode(t, body)["choices"].([]any)[0].(map[string]any)["message"].(map[string]any)["content"].(string)
}

func TestBadRequests(t *testing.T) {
	_, url := start(t, Config{})
	tests := []struct {
		path, body string
		code       int
		msg        string
	}{
		{"/v1/chat/completions", `{`, 400, "invalid chat completion request JSON"},
		{"/v1/chat/completions", `{"messages":[]}`, 400, "messages must be a non-empty list"},
		{"/v1/chat/completions", `{"messages":[{"role":"user","content":"x"}],"stream_options":{"include_usage":true}}`, 400, "Stream options can only be defined when `stream=True`."},
		{"/v1/chat/completions", `{"model":"gpt-4","messages":[{"role":"user","content":"x"}]}`, 404, "The model `gpt-4` does not exist."},
		{"/v1/completions", `{"prompt":[]}`, 400, "prompt must not be empty"},
		{"/v1/completions", `{"prompt":[1,2],"max_tokens":0}`, 400, "max_tokens must be at least 1, got 0."},
		{"/generate", `{"sampling_params":{}}`, 400, "Either text or input_ids should be provided."},
		{"/generate", `{"input_ids":[[1],[2]],"stream":true}`, 400, "does not stream batched"},
	}
	for _, tc := range tests {
		code, _, body := post(t, http.DefaultClient, url+tc.path, tc.body)
		if code != tc.code {
			t.Errorf("%s %s: status %d, want %d", tc.path, tc.body, code, tc.code)
			continue
		}
		var e struct {
			Error struct {
				Message string `json:"message"`
				Code    int    `json:"code"`
			} `json:"error"`
		}
		if err := json.Unmarshal(body, &e); err != nil || !strings.Contains(e.Error.Message, tc.msg) || e.Error.Code != tc.code {
			t.Errorf("%s %s: error body %s, want message containing %q and code %d", tc.path, tc.body, body, tc.msg, tc.code)
		}
	}
	resp, err := http.Get(url + "/v1/chat/completions")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("GET chat: status %d, want 405", resp.StatusCode)
	}
}

func TestModelsAndHealth(t *testing.T) {
	s, url := start(t, Config{Model: "meta-llama/Llama-3.1-8B-Instruct"})
	resp, err := http.Get(url + "/health")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("/health status %d", resp.StatusCode)
	}
	client := openai.NewClient(option.WithBaseURL(url+"/v1/"), option.WithAPIKey("EMPTY"))
	page, err := client.Models.List(context.Background())
	if err != nil {
		t.Fatalf("models list: %v", err)
	}
	if len(page.Data) != 1 || page.Data[0].ID != "meta-llama/Llama-3.1-8B-Instruct" || page.Data[0].OwnedBy != "vllm" {
		t.Errorf("models = %+v", page.Data)
	}
	st := s.Stats()
	if st.Requests["/health"] != 1 || st.Requests["/v1/models"] != 1 {
		t.Errorf("stats requests = %v", st.Requests)
	}
}

// TestOpenAIGoClient proves the reference harness's client library parses
// the fake's chat completions, streaming and not.
func TestOpenAIGoClient(t *testing.T) {
	_, url := start(t, Config{Answers: []Answer{testAnswer}, Accuracy: 1})
	client := openai.NewClient(option.WithBaseURL(url+"/v1/"), option.WithAPIKey("EMPTY"), option.WithMaxRetries(0))
	params := openai.ChatCompletionNewParams{
		Model: DefaultModel,
		Messages: []openai.ChatCompletionMessageParamUnion{
			openai.SystemMessage("Please analyze the product from the user prompt"),
			openai.UserMessage([]openai.ChatCompletionContentPartUnionParam{
				openai.TextContentPart(testUserText),
				openai.ImageContentPart(openai.ChatCompletionContentPartImageImageURLParam{URL: "data:image/png;base64,iVBORw0KGgo="}),
			}),
		},
		Temperature: openai.Float(0),
	}
	ctx := context.Background()
	resp, err := client.Chat.Completions.New(ctx, params)
	if err != nil {
		t.Fatalf("chat: %v", err)
	}
	var p product
	if err := json.Unmarshal([]byte(resp.Choices[0].Message.Content), &p); err != nil || p != testRight {
		t.Fatalf("content %q: %v; want the truth", resp.Choices[0].Message.Content, err)
	}
	if resp.Usage.CompletionTokens != int64(len(splitPieces(resp.Choices[0].Message.Content))) || resp.Choices[0].FinishReason != "stop" {
		t.Errorf("usage %+v finish %q", resp.Usage, resp.Choices[0].FinishReason)
	}

	params.StreamOptions = openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)}
	stream := client.Chat.Completions.NewStreaming(ctx, params)
	var acc openai.ChatCompletionAccumulator
	for stream.Next() {
		acc.AddChunk(stream.Current())
	}
	if err := stream.Err(); err != nil {
		t.Fatalf("stream: %v", err)
	}
	if acc.Choices[0].Message.Content != resp.Choices[0].Message.Content {
		t.Errorf("streamed content %q, non-streamed %q", acc.Choices[0].Message.Content, resp.Choices[0].Message.Content)
	}
	if acc.Usage.CompletionTokens != resp.Usage.CompletionTokens || acc.Usage.PromptTokens != resp.Usage.PromptTokens {
		t.Errorf("streamed usage %+v, non-streamed %+v", acc.Usage, resp.Usage)
	}
}

func TestCompletionsReturnTokenIDs(t *testing.T) {
	_, url := start(t, Config{Model: "m", OutputTokens: 10})
	prompt := []int32{128000, 9906, 1917}
	out := Tokens(prompt, 10)
	code, _, body := post(t, http.DefaultClient, url+"/v1/completions", `{"model":"m","prompt":[128000,9906,1917],"max_tokens":64,"return_token_ids":true}`)
	if code != 200 {
		t.Fatalf("status %d: %s", code, body)
	}
	got := decode(t, body)
	if id := got["id"].(string); !strings.HasPrefix(id, "cmpl-") {
		t.Errorf("id %q", id)
	}
	want := map[string]any{
		"object": "text_completion", "model": "m",
		"choices": []any{map[string]any{
			"index": 0.0, "text": wordsOf(out), "logprobs": nil, "finish_reason": "stop", "stop_reason": nil,
			"token_ids": toAny(out), "prompt_logprobs": nil, "prompt_token_ids": toAny(prompt),
		}},
		"service_tier": nil, "system_fingerprint": nil,
		"usage":              map[string]any{"prompt_tokens": 3.0, "completion_tokens": 10.0, "total_tokens": 13.0, "prompt_tokens_details": nil},
		"kv_transfer_params": nil,
	}
	if diff := cmp.Diff(want, got, cmpopts.IgnoreMapEntries(func(k string, _ any) bool { return k == "id" || k == "created" })); diff != "" {
		t.Errorf("completion (-want +got):\n%s", diff)
	}

	// Without return_token_ids the ID fields are null; without max_tokens
	// vLLM's default of 16 applies, and a batch gives one choice per prompt.
	_, _, body = post(t, http.DefaultClient, url+"/v1/completions", `{"prompt":[[5,6],[7]]}`)
	got = decode(t, body)
	choices := got["choices"].([]any)
	if len(choices) != 2 {
		t.Fatalf("%d choices for 2 prompts", len(choices))
	}
	for i, p := range [][]int32{{5, 6}, {7}} {
		c := choices[i].(map[string]any)
		if c["index"] != float64(i) || c["text"] != wordsOf(Tokens(p, 10)) || c["token_ids"] != nil || c["prompt_token_ids"] != nil {
			t.Errorf("choice %d = %v", i, c)
		}
	}
}

func TestCompletionsCapAndStreaming(t *testing.T) {
	_, url := start(t, Config{OutputTokens: 128})
	prompt := []int32{1, 2, 3, 4}
	out := Tokens(prompt, 5)
	_, _, body := post(t, http.DefaultClient, url+"/v1/completions", `{"prompt":[1,2,3,4],"max_tokens":5,"return_token_ids":true}`)
	c := decode(t, body)["choices"].([]any)[0].(map[string]any)
	if c["finish_reason"] != "length" || !cmp.Equal(c["token_ids"], toAny(out)) {
		t.Errorf("capped choice = %v, want 5 tokens %v and finish length", c, out)
	}
	_, _, body = post(t, http.DefaultClient, url+"/v1/completions", `{"prompt":[1,2,3,4]}`)
	if got := decode(t, body)["usage"].(map[string]any)["completion_tokens"]; got != 16.0 {
		t.Errorf("default max_tokens gave %v tokens, want vLLM's 16", got)
	}

	code, ctype, body := post(t, http.DefaultClient, url+"/v1/completions",
		`{"prompt":[1,2,3,4],"max_tokens":5,"return_token_ids":true,"stream":true,"stream_options":{"include_usage":true}}`)
	if code != 200 || ctype != "text/event-stream" {
		t.Fatalf("status %d type %q", code, ctype)
	}
	events := sseEvents(t, body)
	if len(events) != 6 {
		t.Fatalf("%d events, want 5 tokens and a usage chunk:\n%s", len(events), body)
	}
	var ids []any
	var text strings.Builder
	for i, ev := range events[:5] {
		m := decode(t, []byte(ev))
		if _, ok := m["usage"]; !ok || m["usage"] != nil {
			t.Errorf("chunk %d usage = %v, want an explicit null", i, m["usage"])
		}
		ch := m["choices"].([]any)[0].(map[string]any)
		ids = append(ids, ch["token_ids"].([]any)...)
		text.WriteString(ch["text"].(string))
		wantPrompt := any(nil)
		if i == 0 {
			wantPrompt = toAny(prompt)
		}
		if !cmp.Equal(ch["prompt_token_ids"], wantPrompt) {
			t.Errorf("chunk %d prompt_token_ids = %v, want %v", i, ch["prompt_token_ids"], wantPrompt)
		}
		wantFinish := any(nil)
		if i == 4 {
			wantFinish = "length"
		}
		if ch["finish_reason"] != wantFinish {
			t.Errorf("chunk %d finish_reason = %v", i, ch["finish_reason"])
		}
	}
	if !cmp.Equal(ids, toAny(out)) || text.String() != wordsOf(out) {
		t.Errorf("streamed ids %v text %q, want %v %q", ids, text.String(), out, wordsOf(out))
	}
	u := decode(t, []byte(events[5]))
	if diff := cmp.Diff(map[string]any{"prompt_tokens": 4.0, "completion_tokens": 5.0, "total_tokens": 9.0}, u["usage"]); diff != "" {
		t.Errorf("usage chunk (-want +got):\n%s", diff)
	}
}
