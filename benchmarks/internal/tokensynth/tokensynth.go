// Package tokensynth writes synthetic datasets of the token-ID LLM
// benchmarks in the references' exact file formats (the llama3_1-8b
// CNN/DailyMail JSON records, the gpt-oss-120b parquet) or, where the
// reference ships a pickle mlperf-go cannot read, in the form the readers'
// conversion command makes of it (deepseek-r1's and llama2-70b's
// DataFrame.to_json records), so tests and demos run without downloading
// anything. Everything it writes is deterministic given a seed.
package tokensynth

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/parquet-go/parquet-go"
)

// Synth returns a benchmark.Data.Synth for a token-ID benchmark: one
// file, named file in the folder it is given, written by write (Llama,
// Llama2, DeepSeekR1, GPTOSS).
func Synth(file string, write func(path string, n int, seed int64) error) func(dir string, n int, seed uint64) ([]string, error) {
	return func(dir string, n int, seed uint64) ([]string, error) {
		p := filepath.Join(dir, file)
		return []string{p}, write(p, n, int64(seed))
	}
}

// Token ID facts the synthetic LLM datasets follow, so their prompts look
// like the real ones to a server and pass the readers' vocabulary checks.
const (
	// LlamaVocab is the Llama 3 vocabulary size; IDs 128000 and up are
	// special tokens.
	LlamaVocab = 128256
	// LlamaBOS is <|begin_of_text|>, the first token of every Llama 3 prompt
	// the reference tokenizer produces.
	LlamaBOS = 128000
	// GPTOSSVocab is the o200k_harmony vocabulary size of gpt-oss; IDs
	// 199998 and up are special tokens.
	GPTOSSVocab = 201088

	llamaText  = 128000 // ordinary Llama 3 tokens are below this
	gptossText = 199998 // ordinary o200k tokens are below this

	harmonyStart   = 200006 // <|start|>
	harmonyEnd     = 200007 // <|end|>
	harmonyMessage = 200008 // <|message|>
)

// llamaInstruction is the prompt template of
// language/llama3.1-8b/download_cnndm.py, kept in each record's
// "instruction" field as the reference does.
const llamaInstruction = "Summarize the following news article in 128 tokens. Please output the summary only, without any other text.\n\nArticle:\n{input}\n\nSummary:"

// LlamaRecord is one record of the llama3_1-8b evaluation file
// (cnn_eval.json), with the reference's field names.
type LlamaRecord struct {
	Instruction map[string]string `json:"instruction"`
	Input       string            `json:"input"`
	TokInput    []int64           `json:"tok_input"`
	Output      string            `json:"output"`
}

// LlamaRecords returns n synthetic CNN/DailyMail records, deterministic in
// seed: an article and a summary made of plausible words, and a prompt of
// <|begin_of_text|> followed by ordinary Llama 3 token IDs. Prompt lengths
// vary from 24 to about 2,000 tokens, clustered around 600-900 like the real
// set's. Summaries are one to four sentences, as CNN's highlights are.
func LlamaRecords(n int, seed int64) []LlamaRecord {
	return llamaRecords(n, seed, 0)
}

// llamaRecords is LlamaRecords with summaries of about summaryChars
// characters (within 5%, cut at a word's end) when summaryChars > 0.
func llamaRecords(n int, seed int64, summaryChars int) []LlamaRecord {
	out := make([]LlamaRecord, n)
	for i := range out {
		rng := llmRNG(seed, i)
		length := llmLength(rng, 24, 2000, 780)
		toks := make([]int64, length)
		toks[0] = LlamaBOS
		for j := 1; j < length; j++ {
			toks[j] = llmTokenID(rng, llamaText)
		}
		out[i] = LlamaRecord{
			Instruction: map[string]string{"llama": llamaInstruction},
			Input:       llmSentences(rng, 3+rng.IntN(12)),
			TokInput:    toks,
		}
		if summaryChars > 0 {
			out[i].Output = llmText(rng, summaryChars*(95+rng.IntN(11))/100)
		} else {
			out[i].Output = llmSentences(rng, 1+rng.IntN(4))
		}
	}
	return out
}

// Llama writes n synthetic llama3_1-8b records to path in the layout of the
// reference's cnn_eval.json: a JSON list of records with "instruction",
// "input", "tok_input" and "output", indented by 4 and with non-ASCII text
// unescaped, as json.dump(..., indent=4, ensure_ascii=False) writes it in
// language/llama3.1-8b/download_cnndm.py. Deterministic in seed.
func Llama(path string, n int, seed int64) error {
	return LlamaSummarizing(0)(path, n, seed)
}

// LlamaSummarizing returns Llama with summaries of about summaryChars
// characters each (0: Llama's), for a set whose references are as long as
// a model's summaries are meant to be.
func LlamaSummarizing(summaryChars int) func(path string, n int, seed int64) error {
	return func(path string, n int, seed int64) error {
		if n <= 0 {
			return fmt.Errorf("synth: llama: sample count must be positive, got %d", n)
		}
		return writeLLMFile(path, func(w *bufio.Writer) error {
			return WriteLlamaJSON(w, llamaRecords(n, seed, summaryChars))
		})
	}
}

// WriteLlamaJSON writes records byte for byte as Python's
// json.dump(records, f, indent=4, ensure_ascii=False) does (no trailing
// newline; HTML characters unescaped).
func WriteLlamaJSON(w io.Writer, records []LlamaRecord) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "    ")
	if err := enc.Encode(records); err != nil {
		return err
	}
	_, err := w.Write(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
	return err
}

// GPTOSSRow is one row of a gpt-oss-120b dataset parquet, with the
// reference's column names (language/gpt-oss-120b/utils/tokenization.py
// reads "tok_input"; eval_mlperf_accuracy.py needs "dataset" and
// "ground_truth"). Strings are optional columns as pyarrow writes them.
type GPTOSSRow struct {
	Dataset     string  `parquet:"dataset,optional"`
	Question    string  `parquet:"question,optional"`
	GroundTruth string  `parquet:"ground_truth,optional"`
	TokInput    []int64 `parquet:"tok_input,list"`
}

// gptossSets are the sub-datasets of the accuracy set, with a ground truth
// of each one's kind (language/gpt-oss-120b/eval_mlperf_accuracy.py
// DATASET_REPEATS).
var gptossSets = []struct {
	name  string
	truth func(*rand.Rand) string
}{
	{"aime25", func(r *rand.Rand) string { return strconv.Itoa(r.IntN(1000)) }},
	{"gpqa_diamond", func(r *rand.Rand) string { return string(rune('A' + r.IntN(4))) }},
	{"livecodebench_v6", func(r *rand.Rand) string { return fmt.Sprintf("lcb_%06d", r.IntN(1000000)) }},
}

// GPTOSSRows returns n synthetic gpt-oss-120b rows, deterministic in seed.
// Prompts are shaped like harmony-format conversations — <|start|> role
// <|message|> text <|end|>, twice, then <|start|>assistant — with ordinary
// o200k token IDs as text, 40 to about 3,000 tokens long.
func GPTOSSRows(n int, seed int64) []GPTOSSRow {
	out := make([]GPTOSSRow, n)
	for i := range out {
		rng := llmRNG(seed, i)
		set := gptossSets[rng.IntN(len(gptossSets))]
		sys := llmLength(rng, 8, 200, 60)
		user := llmLength(rng, 16, 2800, 400)
		toks := make([]int64, 0, sys+user+10)
		toks = append(toks, harmonyStart, 17360 /* "system" */, harmonyMessage)
		for j := 0; j < sys; j++ {
			toks = append(toks, llmTokenID(rng, gptossText))
		}
		toks = append(toks, harmonyEnd, harmonyStart, 1428 /* "user" */, harmonyMessage)
		for j := 0; j < user; j++ {
			toks = append(toks, llmTokenID(rng, gptossText))
		}
		toks = append(toks, harmonyEnd, harmonyStart, 173781 /* "assistant" */)
		out[i] = GPTOSSRow{
			Dataset:     set.name,
			Question:    llmSentences(rng, 1+rng.IntN(5)),
			GroundTruth: set.truth(rng),
			TokInput:    toks,
		}
	}
	return out
}

// GPTOSS writes n synthetic gpt-oss-120b rows to a parquet file at path with
// the reference's columns: "dataset", "question", "ground_truth" (strings)
// and "tok_input" (list<int64>), snappy-compressed as pandas.to_parquet
// writes by default. Deterministic in seed.
func GPTOSS(path string, n int, seed int64) error {
	if n <= 0 {
		return fmt.Errorf("synth: gpt-oss: sample count must be positive, got %d", n)
	}
	rows := GPTOSSRows(n, seed)
	return writeLLMFile(path, func(w *bufio.Writer) error {
		pw := parquet.NewGenericWriter[GPTOSSRow](w, parquet.Compression(&parquet.Snappy))
		if _, err := pw.Write(rows); err != nil {
			return err
		}
		return pw.Close()
	})
}

func writeLLMFile(path string, write func(*bufio.Writer) error) (err error) {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("synth: %w", err)
	}
	defer func() {
		if cerr := f.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("synth: %s: %w", path, cerr)
		}
	}()
	w := bufio.NewWriterSize(f, 1<<20)
	if err := write(w); err != nil {
		return fmt.Errorf("synth: writing %s: %w", path, err)
	}
	if err := w.Flush(); err != nil {
		return fmt.Errorf("synth: writing %s: %w", path, err)
	}
	return nil
}

// llmRNG gives sample i its own stream, so a sample does not change when n
// does.
func llmRNG(seed int64, i int) *rand.Rand {
	return rand.New(rand.NewPCG(uint64(seed), uint64(i)*0x9E3779B97F4A7C15+0x632BE59BD9B4E019))
}

// llmLength draws a length in [lo, hi] from a log-normal-ish distribution
// around typical.
func llmLength(rng *rand.Rand, lo, hi, typical int) int {
	v := int(float64(typical) * (0.5 + rng.ExpFloat64()*0.5))
	return max(lo, min(hi, v))
}

// llmTokenID draws an ordinary token ID below limit, skewed toward small IDs
// as real text is (BPE merges made early are the frequent ones).
func llmTokenID(rng *rand.Rand, limit int) int64 {
	if rng.IntN(4) == 0 {
		return int64(rng.IntN(limit))
	}
	return int64(rng.IntN(limit / 16))
}

var llmWords = strings.Fields(`the a of to and in said on for was with
	police government minister president company people year city report
	officials court school hospital storm election market players team season
	new first last two three after before during while about since against
	announced found told reported claimed revealed confirmed denied warned
	London Washington Paris Berlin Sydney Zürich São Paulo Kraków
	écoles naïve café €5 £20 “quoted” ‘single’ — – 100% 3.5 O'Brien`)

// llmText makes sentences of plain words (llmPlainWords) until they are
// chars characters long (Python's len: code points), cut at a word's end
// and closed by a full stop.
func llmText(rng *rand.Rand, chars int) string {
	var b strings.Builder
	n := 0 // characters in b
	for n < chars {
		if n > 0 {
			b.WriteByte(' ')
			n++
		}
		// A sentence of at least one word, however close to chars.
		words := 5 + rng.IntN(20)
		for w := 0; w < words && (w == 0 || n < chars); w++ {
			word := llmPlainWords[rng.IntN(len(llmPlainWords))]
			if w == 0 {
				word = strings.ToUpper(word[:1]) + word[1:]
			} else {
				b.WriteByte(' ')
				n++
			}
			b.WriteString(word)
			n += len(word)
		}
		b.WriteByte('.')
		n++
	}
	return b.String()
}

// llmPlainWords are llmWords of ASCII letters only: a model-length summary
// made of them tokenizes as English prose does (Llama 3: about five
// characters a token), so it fits the 128 tokens a model's summary is
// capped at as the model's do; the other words (accents, quotes, figures,
// several tokens each) stay in articles and short summaries, where they
// exercise the writers' escaping.
var llmPlainWords = func() []string {
	var out []string
	for _, w := range llmWords {
		if strings.IndexFunc(w, func(r rune) bool { return !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z') }) < 0 {
			out = append(out, w)
		}
	}
	return out
}()

// llmSentences makes n sentences of plausible news words, including some
// non-ASCII and quotes so writers' escaping is exercised.
func llmSentences(rng *rand.Rand, n int) string {
	var b strings.Builder
	for s := 0; s < n; s++ {
		if s > 0 {
			b.WriteByte(' ')
		}
		words := 5 + rng.IntN(20)
		for w := 0; w < words; w++ {
			word := llmWords[rng.IntN(len(llmWords))]
			if w == 0 {
				r, size := utf8.DecodeRuneInString(word)
				word = string(unicode.ToUpper(r)) + word[size:]
			} else {
				b.WriteByte(' ')
			}
			b.WriteString(word)
		}
		b.WriteByte('.')
	}
	return b.String()
}
