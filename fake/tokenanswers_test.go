package fake

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// completionIDs asks /v1/completions for prompt with max_tokens and
// returns the answer's token IDs and finish reason.
func completionIDs(t *testing.T, url string, prompt []int32, maxTokens int) ([]int32, string) {
	t.Helper()
	return completionIDsWith(t, url, prompt, maxTokens, "")
}

// completionIDsWith is completionIDs with more request fields (`,
// "ignore_eos": true`).
func completionIDsWith(t *testing.T, url string, prompt []int32, maxTokens int, more string) ([]int32, string) {
	t.Helper()
	p, _ := json.Marshal(prompt)
	body := fmt.Sprintf(`{"prompt": %s, "max_tokens": %d, "return_token_ids": true%s}`, p, maxTokens, more)
	code, _, b := post(t, http.DefaultClient, url+"/v1/completions", body)
	if code != http.StatusOK {
		t.Fatalf("status %d: %s", code, b)
	}
	var r struct {
		Choices []struct {
			TokenIDs     []int32 `json:"token_ids"`
			FinishReason string  `json:"finish_reason"`
		} `json:"choices"`
	}
	if err := json.Unmarshal(b, &r); err != nil || len(r.Choices) != 1 {
		t.Fatalf("response %s: %v", b, err)
	}
	return r.Choices[0].TokenIDs, r.Choices[0].FinishReason
}

// TestTokenAnswers: a token prompt the fake was told an answer for gets it
// (right or, by the same hash as a chat's, one of its wrongs), ending of
// itself (finish_reason stop, min_tokens 1 as llama3.1-8b's reference asks
// too) or cut at max_tokens; only ignore_eos runs it on to max_tokens (the
// answer again). An unknown prompt keeps the derived tokens.
func TestTokenAnswers(t *testing.T) {
	var answers []TokenAnswer
	for i := range 40 {
		answers = append(answers, TokenAnswer{
			Prompt: []int32{1000, int32(2000 + i), 3000},
			Right:  []int32{5000, int32(6000 + i), 7000},
			Wrongs: [][]int32{{9000, int32(9100 + i)}},
		})
	}
	const seed = 7
	_, url := start(t, Config{TokenAnswers: answers, Accuracy: 0.5, Seed: seed})
	right := 0
	for _, a := range answers {
		got, finish := completionIDs(t, url, a.Prompt, 100)
		want := a.Wrongs[0]
		if IsCorrectAnswer(PromptKey(a.Prompt), 0.5, seed) {
			want = a.Right
			right++
		}
		if diff := cmp.Diff(want, got); diff != "" || finish != "stop" {
			t.Errorf("prompt %v: finish %q, tokens (-want +got):\n%s", a.Prompt, finish, diff)
		}
	}
	if right == 0 || right == len(answers) {
		t.Errorf("%d of %d answered right at accuracy 0.5; the hash should split them", right, len(answers))
	}

	_, url = start(t, Config{TokenAnswers: answers, Accuracy: 1})
	if got, finish := completionIDs(t, url, answers[0].Prompt, 2); !cmp.Equal(got, answers[0].Right[:2]) || finish != "length" {
		t.Errorf("capped at 2: %v %q, want %v length", got, finish, answers[0].Right[:2])
	}
	a := answers[0]
	if got, finish := completionIDsWith(t, url, a.Prompt, 128, `, "min_tokens": 1`); !cmp.Equal(got, a.Right) || finish != "stop" {
		t.Errorf("min_tokens 1: %v %q, want %v stop", got, finish, a.Right)
	}
	if got, finish := completionIDsWith(t, url, a.Prompt, 8, `, "ignore_eos": true`); !cmp.Equal(got, append(append(a.Right, a.Right...), a.Right[:2]...)) || finish != "length" {
		t.Errorf("ignore_eos, max_tokens 8: %v %q, want the answer run on to 8 tokens, length", got, finish)
	}
	unknown := []int32{1000, 1001}
	if got, _ := completionIDs(t, url, unknown, 5); !cmp.Equal(got, Tokens(unknown, 5)) {
		t.Errorf("unknown prompt: %v, want the derived %v", got, Tokens(unknown, 5))
	}
}

func TestTokenAnswersValidation(t *testing.T) {
	p := []int32{1, 2}
	for name, cfg := range map[string]Config{
		"no right":  {TokenAnswers: []TokenAnswer{{Prompt: p}}},
		"duplicate": {TokenAnswers: []TokenAnswer{{Prompt: p, Right: p}, {Prompt: p, Right: p}}},
	} {
		if _, err := New(cfg); err == nil {
			t.Errorf("%s: New accepted %+v", name, cfg.TokenAnswers)
		}
	}
}
