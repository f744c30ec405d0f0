// Package llm checks LoadGen accuracy logs of the token-ID LLM benchmarks
// (llama3_1-8b, gpt-oss-120b) against their dataset before the official
// evaluator runs, and builds the evaluator's command line.
//
// For both benchmarks each logged response is the output token IDs as
// little-endian int32 — the reference SUTs complete samples with
// np.array(tokens, np.int32).tobytes() (language/llama3.1-8b/SUT_VLLM.py,
// language/gpt-oss-120b/mlperf/offline_sut.py) and the evaluators decode it
// so (evaluation.py --dtype int32, eval_mlperf_accuracy.py
// decode_hex_to_tokens). The scores themselves (ROUGE, exact match) need the
// tokenizer and the reference's Python scorers; this package checks
// everything that can go wrong before that: coverage of the sample set,
// duplicate or stray indices, payloads that are not whole int32 arrays,
// token_count fields that disagree with the payload (what TEST06's sample
// length check rejects), token IDs outside the vocabulary, and output-length
// statistics.
package llm

import (
	"encoding/binary"
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/mlperf-go/mlperf-go/internal/acclog"
	"github.com/mlperf-go/mlperf-go/qsl"
)

// Reference numbers the checks compare against.
const (
	// LlamaSamples is the size of the llama3_1-8b datacenter set.
	LlamaSamples = 13368
	// LlamaEdgeSamples is the size of the llama3_1-8b edge set.
	LlamaEdgeSamples = 5000
	// LlamaGenLen and LlamaEdgeGenLen are the reference evaluator's gen_len
	// targets (language/llama3.1-8b/README.md); the submission checker
	// accepts ±10%. gen_len is the character count of the decoded, stripped
	// summaries (evaluation.py: sum(len(pred))), not a token count.
	LlamaGenLen     = 8167644
	LlamaEdgeGenLen = 3051113
	// LlamaMaxTokens is the reference's max_tokens (SUT_VLLM.py); it also
	// sets min_tokens = 1.
	LlamaMaxTokens = 128

	// GPTOSSAccuracySamples is mlperf.conf's gpt-oss-120b
	// accuracy_sample_count_override; GPTOSSPerformanceSamples its
	// performance_sample_count_override.
	GPTOSSAccuracySamples    = 4395
	GPTOSSPerformanceSamples = 6396
	// GPTOSSMaxNewTokens is generation_config.json's max_new_tokens for
	// accuracy runs.
	GPTOSSMaxNewTokens = 32768
	// TEST09MinMeanTokens and TEST09MaxMeanTokens bound the mean output
	// length of a gpt-oss-120b performance-mode run over the performance set
	// (compliance/TEST09/gpt-oss-120b/audit.config: 1278.2 ± 10%).
	TEST09MinMeanTokens = 1150.38
	TEST09MaxMeanTokens = 1406.02
)

// llamaEOS are Llama 3.1's end-of-sequence IDs (generation_config.json
// eos_token_id): <|end_of_text|>, <|eom_id|>, <|eot_id|>.
var llamaEOS = []int32{128001, 128008, 128009}

// family is "llama" or "gptoss" for a benchmark name.
func family(benchmark string) (string, error) {
	switch benchmark {
	case "llama3_1-8b", "llama3.1-8b", "llama3_1-8b-edge", "llama3_1-8b-interactive":
		return "llama", nil
	case "gpt-oss-120b", "gpt-oss-120b-interactive":
		return "gptoss", nil
	}
	return "", fmt.Errorf("llm: benchmark %q has no token-ID accuracy check (want llama3_1-8b[-edge|-interactive] or gpt-oss-120b[-interactive])", benchmark)
}

// DatasetInfo is what an accuracy log is checked against.
type DatasetInfo struct {
	// Benchmark is the LoadGen model name, e.g. "llama3_1-8b".
	Benchmark string
	// Samples is how many QSL indices the accuracy run must cover: every
	// index in [0, Samples) exactly once. LoadGen's accuracy mode issues
	// min(accuracy_sample_count, QSL total) samples (loadgen.cc
	// GenerateLoadableSets).
	Samples int
	// Vocab bounds output token IDs to [0, Vocab); 0 skips that check.
	Vocab int
	// Datasets optionally names each index's sub-dataset (gpt-oss-120b's
	// "dataset" column) for per-dataset statistics; nil for none.
	Datasets []string
}

// Info returns the DatasetInfo for benchmark's accuracy run over d:
// llama3_1-8b covers every sample of d; gpt-oss-120b covers
// min(d.Len(), 4395), mlperf.conf's accuracy_sample_count_override.
func Info(benchmark string, d *qsl.TokenDataset) (DatasetInfo, error) {
	fam, err := family(benchmark)
	if err != nil {
		return DatasetInfo{}, err
	}
	info := DatasetInfo{Benchmark: benchmark, Samples: d.Len()}
	switch fam {
	case "llama":
		info.Vocab = qsl.LlamaVocabSize
	case "gptoss":
		info.Vocab = qsl.GPTOSSVocabSize
		info.Samples = min(d.Len(), GPTOSSAccuracySamples)
		info.Datasets = make([]string, info.Samples)
		for i := range info.Datasets {
			info.Datasets[i] = d.Meta(i).Dataset
		}
	}
	return info, nil
}

// EntryRef points at one accuracy-log entry with a problem.
type EntryRef struct {
	// Entry is the entry's position in the log, from 0.
	Entry    int
	SeqID    uint64
	QSLIndex int
	// Detail says what is wrong with it.
	Detail string
}

func (e EntryRef) String() string {
	return fmt.Sprintf("entry %d (seq_id %d, qsl_idx %d): %s", e.Entry, e.SeqID, e.QSLIndex, e.Detail)
}

// Stats summarises output lengths in tokens.
type Stats struct {
	Samples int
	Total   int64
	Min     int
	Max     int
	Mean    float64
	// Empty counts zero-token outputs.
	Empty int
}

func (s *Stats) add(n int) {
	if s.Samples == 0 || n < s.Min {
		s.Min = n
	}
	if n > s.Max {
		s.Max = n
	}
	s.Samples++
	s.Total += int64(n)
	s.Mean = float64(s.Total) / float64(s.Samples)
	if n == 0 {
		s.Empty++
	}
}

func (s Stats) String() string {
	if s.Samples == 0 {
		return "no samples"
	}
	return fmt.Sprintf("%d samples, total %d, mean %.2f, min %d, max %d, empty %d", s.Samples, s.Total, s.Mean, s.Min, s.Max, s.Empty)
}

// Report is the outcome of Check.
type Report struct {
	Benchmark string
	// Expected is DatasetInfo.Samples.
	Expected int
	// Entries is the number of log entries; Present the number of distinct
	// in-range indices among them.
	Entries, Present int
	// Missing lists indices in [0, Expected) absent from the log, ascending.
	Missing []int
	// Duplicates lists indices logged more than once, ascending.
	Duplicates []int
	// OutOfRange lists logged indices >= Expected, ascending, once each.
	OutOfRange []int
	// BadLength: entries whose data is not a whole number of int32s.
	BadLength []EntryRef
	// CountMismatch: entries whose token_count differs from the tokens in
	// data (TEST06's sample length check fails on these).
	CountMismatch []EntryRef
	// BadTokens: entries holding a token ID outside [0, Vocab).
	BadTokens []EntryRef
	// NoTokenCount counts entries without token_count (LoadGen writes it
	// only with use_token_latencies, which mlperf.conf sets for both LLMs).
	NoTokenCount int
	// Output is output-length statistics over the first entry of each
	// in-range index with well-formed data (the evaluators keep the first
	// of duplicates).
	Output Stats
	// ByDataset splits Output by DatasetInfo.Datasets, when given.
	ByDataset map[string]Stats
	// Warnings are findings that do not invalidate the log but deserve a
	// look; Notes are context for reading the numbers.
	Warnings, Notes []string
}

// OK reports whether the log passed every hard check: entries present,
// every expected index exactly once, none out of range, all data whole
// int32 arrays with matching token counts and in-vocabulary IDs.
func (r Report) OK() bool {
	return r.Entries > 0 && len(r.Missing) == 0 && len(r.Duplicates) == 0 && len(r.OutOfRange) == 0 &&
		len(r.BadLength) == 0 && len(r.CountMismatch) == 0 && len(r.BadTokens) == 0
}

// Check checks an accuracy log's entries against d. It never fails: every
// finding is in the Report.
func Check(entries []acclog.Entry, d DatasetInfo) Report {
	r := Report{Benchmark: d.Benchmark, Expected: d.Samples, Entries: len(entries)}
	fam, _ := family(d.Benchmark)
	seen := make([]uint8, max(d.Samples, 0)) // 0, 1, 2 = more than once
	stray := map[int]bool{}
	var over128, repeatedEOS int
	var tokens []int32
	for e, en := range entries {
		ref := EntryRef{Entry: e, SeqID: en.SeqID, QSLIndex: en.QSLIndex}
		idx := en.QSLIndex
		first := false
		if idx < 0 || idx >= d.Samples {
			stray[idx] = true
		} else {
			switch seen[idx] {
			case 0:
				first = true
				r.Present++
				seen[idx] = 1
			case 1:
				r.Duplicates = append(r.Duplicates, idx)
				seen[idx] = 2
			}
		}
		if !en.HasTokenCount {
			r.NoTokenCount++
		}
		if len(en.Data)%4 != 0 {
			ref.Detail = fmt.Sprintf("%d bytes of data is not a whole number of int32 token IDs", len(en.Data))
			r.BadLength = append(r.BadLength, ref)
			continue
		}
		n := len(en.Data) / 4
		if en.HasTokenCount && en.TokenCount != int64(n) {
			ref.Detail = fmt.Sprintf("token_count %d, but data holds %d tokens", en.TokenCount, n)
			r.CountMismatch = append(r.CountMismatch, ref)
		}
		tokens = tokens[:0]
		for i := 0; i < n; i++ {
			tokens = append(tokens, int32(binary.LittleEndian.Uint32(en.Data[4*i:])))
		}
		if d.Vocab > 0 {
			for i, t := range tokens {
				if t < 0 || int(t) >= d.Vocab {
					ref.Detail = fmt.Sprintf("token %d is %d, outside the vocabulary [0,%d)", i, t, d.Vocab)
					r.BadTokens = append(r.BadTokens, ref)
					break
				}
			}
		}
		if !first {
			continue
		}
		r.Output.add(n)
		if d.Datasets != nil && idx < len(d.Datasets) {
			if r.ByDataset == nil {
				r.ByDataset = map[string]Stats{}
			}
			s := r.ByDataset[d.Datasets[idx]]
			s.add(n)
			r.ByDataset[d.Datasets[idx]] = s
		}
		if fam == "llama" {
			if n > LlamaMaxTokens {
				over128++
			}
			if endsWithRepeatedEOS(tokens) {
				repeatedEOS++
			}
		}
	}
	for i, s := range seen {
		if s == 0 {
			r.Missing = append(r.Missing, i)
		}
	}
	for i := range stray {
		r.OutOfRange = append(r.OutOfRange, i)
	}
	sort.Ints(r.OutOfRange)
	sort.Ints(r.Duplicates)

	if r.Entries == 0 {
		r.Warnings = append(r.Warnings, "the log has no entries: was the run in accuracy mode?")
	}
	if r.NoTokenCount > 0 {
		r.Warnings = append(r.Warnings, fmt.Sprintf("%d of %d entries have no token_count: the run did not use token latencies (mlperf.conf sets use_token_latencies = 1 for %s; was the model name right?)", r.NoTokenCount, r.Entries, d.Benchmark))
	}
	if r.Output.Empty > 0 && fam != "llama" {
		r.Warnings = append(r.Warnings, fmt.Sprintf("%d samples have an empty output", r.Output.Empty))
	}
	switch fam {
	case "llama":
		r.llamaNotes(d, over128, repeatedEOS)
	case "gptoss":
		r.gptossNotes(d)
	}
	return r
}

// endsWithRepeatedEOS is TEST06's EOS check for one sample
// (compliance/TEST06/run_verification.py eos_check, which scans back from
// the last token down to index 1): true if the output ends with two or more
// EOS tokens. Any of Llama 3.1's EOS IDs counts.
func endsWithRepeatedEOS(t []int32) bool {
	isEOS := func(x int32) bool {
		for _, e := range llamaEOS {
			if x == e {
				return true
			}
		}
		return false
	}
	n := 0
	for i := len(t) - 1; i > 0; i-- {
		if !isEOS(t[i]) {
			break
		}
		n++
		if n >= 2 {
			return true
		}
	}
	return false
}

func (r *Report) llamaNotes(d DatasetInfo, over128, repeatedEOS int) {
	if over128 > 0 {
		r.Warnings = append(r.Warnings, fmt.Sprintf("%d samples have more than %d output tokens; the reference generates at most %d (SUT_VLLM.py max_tokens)", over128, LlamaMaxTokens, LlamaMaxTokens))
	}
	if r.Output.Empty > 0 {
		r.Warnings = append(r.Warnings, fmt.Sprintf("%d samples have an empty output; the reference sets min_tokens = 1 (SUT_VLLM.py), so requests were not sent like the reference's", r.Output.Empty))
	}
	if repeatedEOS > 0 {
		r.Warnings = append(r.Warnings, fmt.Sprintf("%d samples end with two or more EOS tokens; TEST06's EOS check fails on such output", repeatedEOS))
	}
	target := 0
	switch d.Samples {
	case LlamaSamples:
		target = LlamaGenLen
	case LlamaEdgeSamples:
		target = LlamaEdgeGenLen
	}
	if target > 0 {
		r.Notes = append(r.Notes, fmt.Sprintf("gen_len must be within ±10%% of %d ([%d, %d]); it counts characters of the decoded summaries, so only the evaluator can tell (this log has %d output tokens)",
			target, target*9/10, target*11/10, r.Output.Total))
	} else {
		r.Notes = append(r.Notes, fmt.Sprintf("the set has %d samples, not the full %d (or %d edge): the gen_len target does not apply and the run is not valid for submission", d.Samples, LlamaSamples, LlamaEdgeSamples))
	}
}

func (r *Report) gptossNotes(d DatasetInfo) {
	if r.Output.Max > GPTOSSMaxNewTokens {
		r.Warnings = append(r.Warnings, fmt.Sprintf("the longest output has %d tokens, more than the reference's max_new_tokens %d (generation_config.json)", r.Output.Max, GPTOSSMaxNewTokens))
	}
	if r.Output.Samples == 0 {
		return
	}
	in := r.Output.Mean >= TEST09MinMeanTokens && r.Output.Mean <= TEST09MaxMeanTokens
	where := "inside"
	if !in {
		where = "outside"
	}
	msg := fmt.Sprintf("mean output length %.2f tokens is %s TEST09's bounds [%.2f, %.2f]", r.Output.Mean, where, TEST09MinMeanTokens, TEST09MaxMeanTokens)
	if d.Samples != GPTOSSPerformanceSamples {
		msg += fmt.Sprintf("; those bound performance-mode runs over the %d-sample performance set (reasoning_effort low), so for this %d-sample log it is only a rough comparison", GPTOSSPerformanceSamples, d.Samples)
	} else if !in {
		r.Warnings = append(r.Warnings, msg+"; TEST09 would fail")
		return
	}
	r.Notes = append(r.Notes, msg)
	if d.Samples != GPTOSSAccuracySamples {
		r.Notes = append(r.Notes, fmt.Sprintf("an accuracy run for submission covers the %d-sample accuracy set; this one covers %d", GPTOSSAccuracySamples, d.Samples))
	}
}

// Format renders the report for a person: counts, problems (a few examples
// of each), statistics, warnings, notes, and a final verdict line.
func (r Report) Format() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s accuracy log: %d entries, %d of %d samples present\n", r.Benchmark, r.Entries, r.Present, r.Expected)
	list := func(name string, idx []int) {
		if len(idx) > 0 {
			fmt.Fprintf(&b, "  %s: %d indices: %s\n", name, len(idx), Ranges(idx, 20))
		}
	}
	list("missing", r.Missing)
	list("duplicated", r.Duplicates)
	list("out of range", r.OutOfRange)
	refs := func(name string, rs []EntryRef) {
		if len(rs) == 0 {
			return
		}
		fmt.Fprintf(&b, "  %s: %d entries\n", name, len(rs))
		for i, e := range rs {
			if i == 5 {
				fmt.Fprintf(&b, "    … and %d more\n", len(rs)-5)
				break
			}
			fmt.Fprintf(&b, "    %s\n", e)
		}
	}
	refs("malformed data", r.BadLength)
	refs("token_count mismatch", r.CountMismatch)
	refs("token IDs out of vocabulary", r.BadTokens)
	fmt.Fprintf(&b, "  output tokens: %s\n", r.Output)
	if len(r.ByDataset) > 0 {
		names := make([]string, 0, len(r.ByDataset))
		for k := range r.ByDataset {
			names = append(names, k)
		}
		sort.Strings(names)
		for _, k := range names {
			name := k
			if name == "" {
				name = "(no dataset)"
			}
			fmt.Fprintf(&b, "    %s: %s\n", name, r.ByDataset[k])
		}
	}
	for _, w := range r.Warnings {
		fmt.Fprintf(&b, "  warning: %s\n", w)
	}
	for _, n := range r.Notes {
		fmt.Fprintf(&b, "  note: %s\n", n)
	}
	if r.OK() {
		b.WriteString("  result: OK — run the official evaluator for the score\n")
	} else {
		b.WriteString("  result: FAILED — the official evaluator would score an incomplete or corrupt log\n")
	}
	return b.String()
}

// Ranges renders ascending indices compactly ("0-99, 105, 200-201"),
// listing at most limit runs.
func Ranges(idx []int, limit int) string {
	var parts []string
	for i := 0; i < len(idx); {
		j := i
		for j+1 < len(idx) && idx[j+1] == idx[j]+1 {
			j++
		}
		if len(parts) == limit {
			parts = append(parts, fmt.Sprintf("… (%d more)", len(idx)-i))
			break
		}
		if i == j {
			parts = append(parts, fmt.Sprint(idx[i]))
		} else {
			parts = append(parts, fmt.Sprintf("%d-%d", idx[i], idx[j]))
		}
		i = j + 1
	}
	return strings.Join(parts, ", ")
}

// EvaluatorCommand returns the official evaluator's command line for an
// accuracy log, to run from the root of a mlcommons/inference checkout with
// the reference's Python requirements installed. The paths are made
// absolute so the command works from there.
//
// llama3_1-8b (language/llama3.1-8b/README.md, run_accuracy.sh):
//
//	python3 language/llama3.1-8b/evaluation.py --mlperf-accuracy-file LOG --dataset-file DATA --dtype int32
//
// (its --model-name defaults to meta-llama/Meta-Llama-3.1-8B-Instruct on the
// Hugging Face hub; add --model-name with a local checkpoint if needed).
//
// gpt-oss-120b (language/gpt-oss-120b/README.md):
//
//	python3 language/gpt-oss-120b/eval_mlperf_accuracy.py --mlperf-log LOG --reference-data DATA --tokenizer openai/gpt-oss-120b
func EvaluatorCommand(benchmark, accLog, dataset string) (string, error) {
	fam, err := family(benchmark)
	if err != nil {
		return "", err
	}
	accLog, dataset = absPath(accLog), absPath(dataset)
	switch fam {
	case "llama":
		return "python3 language/llama3.1-8b/evaluation.py --mlperf-accuracy-file " + shellQuote(accLog) +
			" --dataset-file " + shellQuote(dataset) + " --dtype int32", nil
	default:
		return "python3 language/gpt-oss-120b/eval_mlperf_accuracy.py --mlperf-log " + shellQuote(accLog) +
			" --reference-data " + shellQuote(dataset) + " --tokenizer openai/gpt-oss-120b", nil
	}
}

func absPath(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./:=+@%,") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
