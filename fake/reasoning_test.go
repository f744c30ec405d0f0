package fake

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// pieceText is the text of the first n of the fake's pieces of s, its
// text repeated past its end.
func pieceText(s string, n int) string {
	a := newTextAnswer(s, false)
	return (&textOutput{a: a, n: n}).sentBack(n)
}

// TestReasoningChat: with ReasoningTokens, a chat answer begins with that
// many reasoning tokens, apart from its content as vLLM's reasoning
// parser puts them (the message's and the deltas' reasoning), counted in
// completion_tokens and in completion_tokens_details.reasoning_tokens;
// max_tokens caps the two together.
func TestReasoningChat(t *testing.T) {
	t.Parallel()
	const think = 5
	_, url := start(t, Config{ReasoningTokens: think, StreamInterval: 3})
	answer := pieceText(FallbackAnswer, len(splitPieces(FallbackAnswer)))
	reasoning := pieceText(ReasoningText, think)
	total := think + len(splitPieces(FallbackAnswer))

	type usage struct {
		Completion int `json:"completion_tokens"`
		Details    *struct {
			Reasoning int `json:"reasoning_tokens"`
		} `json:"completion_tokens_details"`
	}
	var whole struct {
		Choices []struct {
			Message struct {
				Content   *string `json:"content"`
				Reasoning *string `json:"reasoning"`
			} `json:"message"`
			Finish string `json:"finish_reason"`
		} `json:"choices"`
		Usage usage `json:"usage"`
	}
	code, _, body := post(t, http.DefaultClient, url+"/v1/chat/completions", `{"messages":[{"role":"user","content":"q"}]}`)
	if code != 200 || json.Unmarshal(body, &whole) != nil {
		t.Fatalf("%d %s", code, body)
	}
	m := whole.Choices[0].Message
	if m.Content == nil || *m.Content != answer || m.Reasoning == nil || *m.Reasoning != reasoning {
		t.Errorf("message content %v reasoning %v, want %q and %q", m.Content, m.Reasoning, answer, reasoning)
	}
	if u := whole.Usage; u.Completion != total || u.Details == nil || u.Details.Reasoning != think {
		t.Errorf("usage %+v, want %d tokens, %d of them reasoning", u, total, think)
	}

	// Streamed three tokens an event (SGLang's interval: tokens 1, 4, 7,
	// …): after the role's event come [0, 1) and [1, 4), reasoning, then
	// [4, 7), the last reasoning token and the first two of the answer.
	code, _, body = post(t, http.DefaultClient, url+"/v1/chat/completions", `{"messages":[{"role":"user","content":"q"}],"stream":true,"stream_options":{"include_usage":true}}`)
	if code != 200 {
		t.Fatalf("%d %s", code, body)
	}
	var gotReasoning, gotContent strings.Builder
	var last usage
	for i, ev := range sseEvents(t, body) {
		var c struct {
			Choices []struct {
				Delta struct {
					Content   *string `json:"content"`
					Reasoning *string `json:"reasoning"`
				} `json:"delta"`
			} `json:"choices"`
			Usage *usage `json:"usage"`
		}
		if err := json.Unmarshal([]byte(ev), &c); err != nil {
			t.Fatal(err)
		}
		if c.Usage != nil {
			last = *c.Usage
		}
		if len(c.Choices) == 0 {
			continue
		}
		d := c.Choices[0].Delta
		if d.Reasoning != nil {
			gotReasoning.WriteString(*d.Reasoning)
		}
		if d.Content != nil {
			gotContent.WriteString(*d.Content)
		}
		if i == 3 && (d.Reasoning == nil || d.Content == nil || *d.Content == "") {
			t.Errorf("event %d spans reasoning and answer but carries %s", i, ev)
		}
		if (i == 1 || i == 2) && d.Content != nil {
			t.Errorf("event %d carries content during the reasoning: %s", i, ev)
		}
	}
	if gotReasoning.String() != reasoning || gotContent.String() != answer {
		t.Errorf("streamed reasoning %q content %q, want %q and %q", gotReasoning.String(), gotContent.String(), reasoning, answer)
	}
	if last.Completion != total || last.Details == nil || last.Details.Reasoning != think {
		t.Errorf("stream usage %+v, want %d tokens, %d of them reasoning", last, total, think)
	}

	// Capped inside the reasoning: no content at all.
	code, _, body = post(t, http.DefaultClient, url+"/v1/chat/completions", `{"messages":[{"role":"user","content":"q"}],"max_tokens":3}`)
	if code != 200 || json.Unmarshal(body, &whole) != nil {
		t.Fatalf("%d %s", code, body)
	}
	if m := whole.Choices[0].Message; m.Content != nil || m.Reasoning == nil || *m.Reasoning != pieceText(ReasoningText, 3) ||
		whole.Choices[0].Finish != "length" || whole.Usage.Details == nil || whole.Usage.Details.Reasoning != 3 {
		t.Errorf("capped at 3: %s", body)
	}
}

// TestReasoningSGLang: SGLang's /generate counts the reasoning in
// meta_info.reasoning_tokens, and a server without a reasoning parser
// (the default) says nothing of it anywhere.
func TestReasoningSGLang(t *testing.T) {
	t.Parallel()
	_, url := start(t, Config{ReasoningTokens: 4, OutputTokens: 10})
	var out struct {
		Meta map[string]any `json:"meta_info"`
	}
	code, _, body := post(t, http.DefaultClient, url+"/generate", `{"input_ids":[1,2,3]}`)
	if code != 200 || json.Unmarshal(body, &out) != nil {
		t.Fatalf("%d %s", code, body)
	}
	if out.Meta["reasoning_tokens"] != float64(4) || out.Meta["completion_tokens"] != float64(10) {
		t.Errorf("meta_info %v: want 4 reasoning tokens of 10", out.Meta)
	}
	_, plain := start(t, Config{OutputTokens: 10})
	for _, r := range []struct{ path, body string }{
		{"/generate", `{"input_ids":[1,2,3]}`},
		{"/v1/chat/completions", `{"messages":[{"role":"user","content":"q"}],"stream":true,"stream_options":{"include_usage":true}}`},
		{"/v1/chat/completions", `{"messages":[{"role":"user","content":"q"}]}`},
	} {
		if _, _, body := post(t, http.DefaultClient, plain+r.path, r.body); strings.Contains(string(body), `"reasoning`) && !strings.Contains(string(body), `"reasoning_content":null`) {
			t.Errorf("%s without reasoning: %s", r.path, body)
		}
	}
}

// TestReasoningLeftOutOfTheNextTurn: the next turn carries the answer
// without its reasoning, as clients send it back, and finds that in the
// prefix cache.
func TestReasoningLeftOutOfTheNextTurn(t *testing.T) {
	t.Parallel()
	var cached []int
	_, url := start(t, Config{ReasoningTokens: 7, PrefixCache: true, PrefixBlockTokens: 1,
		OnRequest: func(ri RequestInfo) { cached = append(cached, ri.CachedTokens) }})
	first := `{"role":"user","content":"` + strings.Repeat("question ", 10) + `"}`
	post(t, http.DefaultClient, url+"/v1/chat/completions", `{"messages":[`+first+`]}`)
	next := `{"messages":[` + first + `,{"role":"assistant","content":"` + FallbackAnswer + `"},{"role":"user","content":"and?"}]}`
	post(t, http.DefaultClient, url+"/v1/chat/completions", next)
	if want := approxTextTokens(strings.Repeat("question ", 10)) + approxTextTokens(FallbackAnswer); len(cached) != 2 || cached[1] != want {
		t.Errorf("cached %v, want the second turn to find the question and the answer without its reasoning (%d)", cached, want)
	}
}
