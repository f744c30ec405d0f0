package bench

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/mlperf-go/mlperf-go/tokenizer"
)

// TestSyntheticTokenExact: with Meta's Llama 3 tokenizer, every synthetic
// prompt encodes to exactly its drawn length (vllm bench serve's random
// prompts are token-exact); the workload says its lengths are tokens.
func TestSyntheticTokenExact(t *testing.T) {
	t.Parallel()
	p := os.Getenv("MLPERF_GO_LLAMA3_TOKENIZER")
	if p == "" {
		t.Skip("MLPERF_GO_LLAMA3_TOKENIZER is not set: run scripts/fetch-test-tokenizers.sh DIR and set it to DIR/llama3/tokenizer.model")
	}
	tok, err := tokenizer.Load(p)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{1, 17, 1024} {
		w, err := Synthetic(SyntheticOptions{Requests: 20, InputLen: n, InputSpread: n / 2, OutputLen: 4, MultiTurn: 1, Tokenizer: tok, Seed: uint64(n)})
		if err != nil {
			t.Fatal(err)
		}
		if w.Facts["input_unit"] != "tokens" {
			t.Errorf("input_unit %v", w.Facts["input_unit"])
		}
		lens := map[int]bool{}
		for _, c := range w.Conversations {
			for _, turn := range c.Turns {
				text, err := promptText(turn.Messages)
				if err != nil {
					t.Fatal(err)
				}
				ids, err := tok.Encode(text)
				if err != nil {
					t.Fatal(err)
				}
				if len(ids) < n-n/2 || len(ids) > n+n/2 {
					t.Errorf("a prompt of %d tokens, want %d ± %d", len(ids), n, n/2)
				}
				lens[len(ids)] = true
			}
		}
		if n > 1 && len(lens) < 2 {
			t.Errorf("every prompt has the same length %v: the spread is not drawn", lens)
		}
	}
	// Without a tokenizer the lengths are words.
	w, err := Synthetic(SyntheticOptions{Requests: 1, InputLen: 8, OutputLen: 1})
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := json.Marshal(w.Facts); w.Facts["input_unit"] != "words" {
		t.Errorf("facts %s", b)
	}
}
