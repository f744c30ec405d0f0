package tokensynth

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strconv"
)

// The deepseek-r1 and llama2-70b references ship pickled pandas DataFrames,
// which mlperf-go reads once converted with
// pd.read_pickle(…).to_json(…, orient="records") (the command the dataset
// readers print for a pickle). The writers here write that form: one
// compact JSON list of records, a member per DataFrame column, in column
// order.

// DeepSeekR1 token IDs the synthetic prompts are shaped with. The chat
// template's special tokens (<｜User｜>, <｜Assistant｜>, <think>) sit in the
// tokenizer's added-token range, above its ordinary BPE IDs; the exact IDs
// here are placeholders of that shape (the DeepSeek-R1 tokenizer is not
// available offline), not claimed to be the real ones.
const (
	// DeepSeekR1Vocab is DeepSeek-R1's vocab_size (config.json).
	DeepSeekR1Vocab = 129280
	// DeepSeekR1BOS is <｜begin▁of▁sentence｜>, which the chat template puts
	// first; DeepSeekR1EOS is <｜end▁of▁sentence｜>, the end of an answer.
	DeepSeekR1BOS = 0
	DeepSeekR1EOS = 1

	deepseekText      = 128000 // ordinary BPE tokens are below this
	deepseekUser      = 128803
	deepseekAssistant = 128804
	deepseekThink     = 128798
)

// DeepSeekR1Record is one record of the deepseek-r1 dataset as the
// converted pickle holds it, with the columns
// language/deepseek-r1 reads: text_input (the prompt text the SGLang
// backend sends), tok_input (the chat-templated prompt's token IDs, the
// "pre-tokenized MLPerf prompt" mlcommons/endpoints sends), ground_truth,
// dataset and question (eval_accuracy.py). GroundTruth is a JSON value: a
// number for AIME (an int column pickles that way), text otherwise.
type DeepSeekR1Record struct {
	Dataset     string          `json:"dataset"`
	Question    string          `json:"question"`
	GroundTruth json.RawMessage `json:"ground_truth"`
	TextInput   string          `json:"text_input"`
	TokInput    []int64         `json:"tok_input"`
}

// deepseekSets are the sub-datasets eval_accuracy.py routes by substring
// (gpqa, mmlu_pro, math500, aime, livecodebench), with a ground truth of
// each one's kind.
var deepseekSets = []struct {
	name  string
	truth func(*rand.Rand) string // the JSON value
}{
	{"aime1983", func(r *rand.Rand) string { return strconv.Itoa(r.IntN(1000)) }},
	{"gpqa", func(r *rand.Rand) string { return strconv.Quote(string(rune('A' + r.IntN(4)))) }},
	{"mmlu_pro", func(r *rand.Rand) string { return strconv.Quote(string(rune('A' + r.IntN(10)))) }},
	{"math500", func(r *rand.Rand) string {
		return strconv.Quote([]string{`\frac{1}{2}`, "5", "(1,2)", `2\sqrt{3}`, "x^2+1", `\text{(B)}`}[r.IntN(6)])
	}},
	{"livecodebench", func(r *rand.Rand) string { return strconv.Quote(fmt.Sprintf("lcb_%06d", r.IntN(1000000))) }},
}

// DeepSeekR1Records returns n synthetic deepseek-r1 records, deterministic
// in seed: each of the five sub-datasets in turn drawn at random, a
// question of plausible words, and a prompt of <｜begin▁of▁sentence｜>
// <｜User｜> ordinary token IDs <｜Assistant｜><think>, 40 to about 3,100
// tokens (the reference's MAX_ISL is 3136).
func DeepSeekR1Records(n int, seed int64) []DeepSeekR1Record {
	out := make([]DeepSeekR1Record, n)
	for i := range out {
		rng := llmRNG(seed, i)
		set := deepseekSets[rng.IntN(len(deepseekSets))]
		length := llmLength(rng, 40, 3100, 500)
		toks := make([]int64, 0, length+5)
		toks = append(toks, DeepSeekR1BOS, deepseekUser)
		for j := 0; j < length; j++ {
			toks = append(toks, 2+llmTokenID(rng, deepseekText-2)) // no BOS/EOS inside
		}
		toks = append(toks, deepseekAssistant, deepseekThink)
		q := llmSentences(rng, 1+rng.IntN(4))
		out[i] = DeepSeekR1Record{
			Dataset:     set.name,
			Question:    q,
			GroundTruth: json.RawMessage(set.truth(rng)),
			TextInput:   q + "\nPut your final answer within \\boxed{}.",
			TokInput:    toks,
		}
	}
	return out
}

// DeepSeekR1 writes n synthetic deepseek-r1 records to path as the
// converted pickle (DataFrame.to_json(orient="records")). Deterministic in
// seed.
func DeepSeekR1(path string, n int, seed int64) error {
	if n <= 0 {
		return fmt.Errorf("synth: deepseek-r1: sample count must be positive, got %d", n)
	}
	return writeRecords(path, DeepSeekR1Records(n, seed))
}

// Llama 2 token IDs the synthetic OpenOrca prompts are shaped with.
const (
	// Llama2Vocab is Llama 2's vocabulary size; BOS is 1, EOS 2.
	Llama2Vocab = 32000
	Llama2BOS   = 1
	Llama2EOS   = 2
	// Llama2ResponseInit is the token processorca.py appends to every
	// prompt ("Llama always outputs token 29871 first"), so TEST06 can
	// check first tokens.
	Llama2ResponseInit = 29871
)

// Llama2Record is one record of the OpenOrca set
// (open_orca_gpt4_tokenized_llama.sampled_24576.pkl) with the columns
// language/llama2-70b/processorca.py writes, in its order.
type Llama2Record struct {
	ID              string  `json:"id"`
	SystemPrompt    string  `json:"system_prompt"`
	Question        string  `json:"question"`
	Output          string  `json:"output"`
	Input           string  `json:"input"`
	TokInput        []int64 `json:"tok_input"`
	TokOutput       []int64 `json:"tok_output"`
	Origin          string  `json:"origin"`
	TokInputLength  int     `json:"tok_input_length"`
	TokOutputLength int     `json:"tok_output_length"`
}

// llama2Origins are OpenOrca's sub-datasets, sampled equally by
// processorca.py.
var llama2Origins = []string{"cot", "flan", "niv", "t0"}

// Llama2Records returns n synthetic OpenOrca records, deterministic in
// seed. Prompts are shaped like processorca.py's: the tokenizer's BOS, then
// the "<s>" the prompt text starts with (also 1), "[INST]" (518, 25580,
// 29962), ordinary Llama 2 IDs, "[/INST]" (518, 29914, 25580, 29962) and the
// appended 29871; 20 to about 1,000 tokens (processorca's limit is 1024).
func Llama2Records(n int, seed int64) []Llama2Record {
	out := make([]Llama2Record, n)
	for i := range out {
		rng := llmRNG(seed, i)
		origin := llama2Origins[i%len(llama2Origins)]
		length := llmLength(rng, 10, 990, 150)
		toks := []int64{Llama2BOS, Llama2BOS, 518, 25580, 29962}
		for j := 0; j < length; j++ {
			toks = append(toks, 3+llmTokenID(rng, Llama2Vocab-3))
		}
		toks = append(toks, 518, 29914, 25580, 29962, Llama2ResponseInit)
		outToks := []int64{Llama2BOS}
		for j := llmLength(rng, 2, 1000, 200); j > 0; j-- {
			outToks = append(outToks, 3+llmTokenID(rng, Llama2Vocab-3))
		}
		q := llmSentences(rng, 1+rng.IntN(6))
		sys := ""
		if rng.IntN(2) == 0 {
			sys = "You are a helpful assistant."
		}
		in := "<s>[INST] " + q + " [/INST]"
		if sys != "" {
			in = "<s>[INST] <<SYS>>\n" + sys + "\n<</SYS>>\n\n" + q + " [/INST]"
		}
		out[i] = Llama2Record{
			ID: fmt.Sprintf("%s.%d", origin, rng.IntN(1000000)), SystemPrompt: sys, Question: q,
			Output: llmSentences(rng, 1+rng.IntN(5)), Input: in, TokInput: toks, TokOutput: outToks,
			Origin: origin, TokInputLength: len(toks), TokOutputLength: len(outToks),
		}
	}
	return out
}

// Llama2 writes n synthetic OpenOrca records to path as the converted
// pickle (DataFrame.to_json(orient="records")). Deterministic in seed.
func Llama2(path string, n int, seed int64) error {
	if n <= 0 {
		return fmt.Errorf("synth: llama2-70b: sample count must be positive, got %d", n)
	}
	return writeRecords(path, Llama2Records(n, seed))
}

// writeRecords writes records as one compact JSON list.
func writeRecords[T any](path string, records []T) error {
	return writeLLMFile(path, func(w *bufio.Writer) error {
		b, err := json.Marshal(records)
		if err != nil {
			return err
		}
		_, err = w.Write(b)
		return err
	})
}
