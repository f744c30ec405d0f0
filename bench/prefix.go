package bench

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
)

// PrefixOptions describe vllm bench serve's prefix_repetition workload:
// NumPrefixes prefixes of PrefixLen tokens, each followed by
// Requests/NumPrefixes suffixes of SuffixLen tokens of their own, in a
// shuffled order, so an engine with a prefix cache finds every prefix
// after its first request.
type PrefixOptions struct {
	// Requests is the number of requests asked (default 100); as vllm
	// bench serve does, NumPrefixes × ⌊Requests/NumPrefixes⌋ are made.
	Requests int
	// PrefixLen, SuffixLen and NumPrefixes default to vllm bench serve's
	// 256, 256 and 10.
	PrefixLen, SuffixLen, NumPrefixes int
	// OutputLen is each request's output length (default 128).
	OutputLen int
	// Tokenizer, when set, makes the lengths exact in its tokens, as
	// SyntheticOptions.Tokenizer does; else they are words, about a token
	// each.
	Tokenizer Encoder
	// Seed seeds the words and the order (default 0).
	Seed uint64
}

// Defaults of PrefixOptions, vllm bench serve's
// (PrefixRepetitionRandomDataset).
const (
	DefaultPrefixLen   = 256
	DefaultSuffixLen   = 256
	DefaultNumPrefixes = 10
)

// PrefixRepetition generates the prefix_repetition workload: one user
// message a request, its prefix's words then its own, each request marked
// with its prefix (Turn.PrefixGroup, Turn.PrefixShare) for the hit rate
// the workload implies.
func PrefixRepetition(o PrefixOptions) (*Workload, error) {
	if o.Requests == 0 {
		o.Requests = 100
	}
	if o.PrefixLen == 0 {
		o.PrefixLen = DefaultPrefixLen
	}
	if o.SuffixLen == 0 {
		o.SuffixLen = DefaultSuffixLen
	}
	if o.NumPrefixes == 0 {
		o.NumPrefixes = DefaultNumPrefixes
	}
	if o.OutputLen == 0 {
		o.OutputLen = 128
	}
	switch {
	case o.Requests < 0 || o.PrefixLen < 0 || o.SuffixLen < 1 || o.NumPrefixes < 0 || o.OutputLen < 0:
		return nil, fmt.Errorf("prefix-repetition workload: --requests %d, --prefix-len %d, --suffix-len %d, --num-prefixes %d, --output-len %d: want them positive (the suffix at least 1)",
			o.Requests, o.PrefixLen, o.SuffixLen, o.NumPrefixes, o.OutputLen)
	case o.Requests < o.NumPrefixes:
		return nil, fmt.Errorf("prefix-repetition workload: --requests %d is fewer than --num-prefixes %d: each prefix is sent ⌊requests/prefixes⌋ times, as vllm bench serve does, so give at least one request a prefix",
			o.Requests, o.NumPrefixes)
	}
	words, unit, err := promptVocabulary(o.Tokenizer)
	if err != nil {
		return nil, err
	}
	r := rand.New(rand.NewPCG(o.Seed, 0x9e7))
	per := o.Requests / o.NumPrefixes
	w := &Workload{Kind: "prefix-repetition", Facts: map[string]any{
		"prefix_len": o.PrefixLen, "suffix_len": o.SuffixLen, "num_prefixes": o.NumPrefixes, "requests": per * o.NumPrefixes,
		"output_len": o.OutputLen, "seed": o.Seed, "input_unit": unit},
		AskedPrompt: &AskedPrompt{Length: o.PrefixLen + o.SuffixLen, Unit: unit, Flags: "--prefix-len + --suffix-len"}}
	for p := range o.NumPrefixes {
		prefix := drawWords(r, words, o.PrefixLen)
		for range per {
			text := prefix + " " + drawWords(r, words, o.SuffixLen)
			if o.PrefixLen == 0 {
				text = text[1:]
			}
			if err := checkTokens(o.Tokenizer, text, o.PrefixLen+o.SuffixLen); err != nil {
				return nil, err
			}
			w.Conversations = append(w.Conversations, Conversation{Turns: []Turn{{
				Messages:    []json.RawMessage{userMessage(text, nil)},
				MaxTokens:   o.OutputLen,
				PrefixGroup: fmt.Sprintf("prefix-%d", p),
				PrefixShare: float64(o.PrefixLen) / float64(o.PrefixLen+o.SuffixLen),
			}}})
		}
	}
	r.Shuffle(len(w.Conversations), func(i, j int) { w.Conversations[i], w.Conversations[j] = w.Conversations[j], w.Conversations[i] })
	for i := range w.Conversations {
		w.Conversations[i].ID = fmt.Sprintf("prefix-repetition-%d", i)
	}
	return w, nil
}

// promptVocabulary is the synthetic prompts' words: those enc encodes as
// one token each when set (exact lengths, unit "tokens"), else all of
// promptWords (unit "words").
func promptVocabulary(enc Encoder) ([]string, string, error) {
	if enc == nil {
		return promptWords, "words", nil
	}
	words, err := singleTokenWords(enc)
	return words, "tokens", err
}

// drawWords is n words drawn from words, space-separated.
func drawWords(r *rand.Rand, words []string, n int) string {
	var sb strings.Builder
	for k := range n {
		if k > 0 {
			sb.WriteByte(' ')
		}
		sb.WriteString(words[r.IntN(len(words))])
	}
	return sb.String()
}

// checkTokens checks that enc (when set) encodes text to n tokens, as the
// single-token words make it.
func checkTokens(enc Encoder, text string, n int) error {
	if enc == nil {
		return nil
	}
	ids, err := enc.Encode(text)
	if err != nil {
		return err
	}
	if len(ids) != n {
		return fmt.Errorf("synthetic workload: internal error: a prompt of %d single-token words encodes to %d tokens", n, len(ids))
	}
	return nil
}
