// Package tokencheck checks LoadGen accuracy logs of the token-ID LLM
// benchmarks against their dataset before the official evaluator runs.
//
// Each logged response is the output token IDs as little-endian int32 — the
// reference SUTs complete samples with np.array(tokens, np.int32).tobytes()
// and the evaluators decode it so. The scores themselves (ROUGE, exact match)
// need the tokenizer and the reference's Python scorers; this package checks
// everything that can go wrong before that: coverage of the sample set,
// duplicate or stray indices, payloads that are not whole int32 arrays,
// token_count fields that disagree with the payload (what TEST06's sample
// length check rejects), token IDs outside the vocabulary, and output-length
// statistics. A benchmark adds its own findings through Extra.
package tokencheck

import (
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/loadgen/mllog"
	"github.com/mlperf-go/mlperf-go/tokenizer"
)

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
	// Extra makes the benchmark's own checks for one Check call (nil:
	// none).
	Extra func() Extra
}

// Extra is a benchmark's own checks of one log.
type Extra interface {
	// Sample sees the tokens of each in-range index's first entry with
	// well-formed data; it must not keep the slice.
	Sample(tokens []int32)
	// Finish adds the benchmark's warnings and notes once every entry is
	// seen. It also reports empty outputs (WarnEmpty) as it sees fit.
	Finish(r *Report, d DatasetInfo)
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

// Partial reports whether the log is the first samples of the set and
// nothing else is wrong: every entry in range, whole and logged once, the
// samples 0 to Present-1 there and the rest missing, as a run of
// --total-sample-count N or --quick (whose QSL is the set's first N)
// leaves it. It is scored on what it holds; the verdict calls it partial
// and not submittable, instead of the checks failing it. A gap anywhere
// else is a damaged log.
func (r Report) Partial() bool {
	return r.Entries > 0 && len(r.Missing) > 0 && r.Missing[0] == r.Present && len(r.Duplicates) == 0 && len(r.OutOfRange) == 0 &&
		len(r.BadLength) == 0 && len(r.CountMismatch) == 0 && len(r.BadTokens) == 0
}

// Check checks an accuracy log's entries against d. It never fails: every
// finding is in the Report.
func Check(entries []mllog.AccuracyEntry, d DatasetInfo) Report {
	c := newChecker(d, len(entries))
	for e := range entries {
		c.entry(e, &entries[e])
	}
	c.coverage()
	c.conclude()
	return c.r
}

// checker is one Check call's state.
type checker struct {
	d     DatasetInfo
	r     Report
	extra Extra
	seen  []uint8 // per expected index: 0, 1, 2 = more than once
	stray map[int]bool
	// tokens holds the entry being checked, reused across entries.
	tokens []int32
}

func newChecker(d DatasetInfo, entries int) *checker {
	c := &checker{
		d:     d,
		r:     Report{Benchmark: d.Benchmark, Expected: d.Samples, Entries: entries},
		seen:  make([]uint8, max(d.Samples, 0)),
		stray: map[int]bool{},
	}
	if d.Extra != nil {
		c.extra = d.Extra()
	}
	return c
}

// entry checks log entry e and, for the first entry of an in-range index
// with well-formed data, adds its output to the statistics and to Extra.
func (c *checker) entry(e int, en *mllog.AccuracyEntry) {
	first := c.count(en.QSLIndex)
	if !en.HasTokenCount {
		c.r.NoTokenCount++
	}
	ref := EntryRef{Entry: e, SeqID: en.SeqID, QSLIndex: en.QSLIndex}
	n, ok := c.decode(ref, en)
	if !ok || !first {
		return
	}
	idx := en.QSLIndex
	c.r.Output.add(n)
	if c.d.Datasets != nil && idx < len(c.d.Datasets) {
		if c.r.ByDataset == nil {
			c.r.ByDataset = map[string]Stats{}
		}
		s := c.r.ByDataset[c.d.Datasets[idx]]
		s.add(n)
		c.r.ByDataset[c.d.Datasets[idx]] = s
	}
	if c.extra != nil {
		c.extra.Sample(c.tokens)
	}
}

// count notes one occurrence of idx and reports whether it is the first
// of an in-range index.
func (c *checker) count(idx int) (first bool) {
	if idx < 0 || idx >= c.d.Samples {
		c.stray[idx] = true
		return false
	}
	switch c.seen[idx] {
	case 0:
		c.r.Present++
		c.seen[idx] = 1
		return true
	case 1:
		c.r.Duplicates = append(c.r.Duplicates, idx)
		c.seen[idx] = 2
	}
	return false
}

// decode reads the entry's data into c.tokens, noting malformed data, a
// token_count that disagrees and out-of-vocabulary IDs; ok is false when
// the data is not whole int32s (then there are no tokens to look at).
func (c *checker) decode(ref EntryRef, en *mllog.AccuracyEntry) (n int, ok bool) {
	tokens, whole := mllog.AppendTokenIDs(c.tokens[:0], en.Data, mllog.Int32Size)
	if !whole {
		ref.Detail = fmt.Sprintf("%d bytes of data is not a whole number of int32 token IDs", len(en.Data))
		c.r.BadLength = append(c.r.BadLength, ref)
		return 0, false
	}
	c.tokens = tokens
	n = len(tokens)
	if en.HasTokenCount && en.TokenCount != int64(n) {
		ref.Detail = fmt.Sprintf("token_count %d, but data holds %d tokens", en.TokenCount, n)
		c.r.CountMismatch = append(c.r.CountMismatch, ref)
	}
	if c.d.Vocab > 0 {
		for i, t := range c.tokens {
			if t < 0 || int(t) >= c.d.Vocab {
				ref.Detail = fmt.Sprintf("token %d is %d, outside the vocabulary [0,%d)", i, t, c.d.Vocab)
				c.r.BadTokens = append(c.r.BadTokens, ref)
				break
			}
		}
	}
	return n, true
}

// coverage lists the missing and stray indices, and sorts the duplicates.
func (c *checker) coverage() {
	for i, s := range c.seen {
		if s == 0 {
			c.r.Missing = append(c.r.Missing, i)
		}
	}
	for i := range c.stray {
		c.r.OutOfRange = append(c.r.OutOfRange, i)
	}
	sort.Ints(c.r.OutOfRange)
	sort.Ints(c.r.Duplicates)
}

// conclude adds the warnings about the log as a whole, then the
// benchmark's own (or the plain empty-output warning).
func (c *checker) conclude() {
	r := &c.r
	if r.Entries == 0 {
		r.Warnings = append(r.Warnings, "the log has no entries: was the run in accuracy mode?")
	}
	if r.NoTokenCount > 0 {
		r.Warnings = append(r.Warnings, fmt.Sprintf("%d of %d entries have no token_count: the run did not use token latencies (mlperf.conf sets use_token_latencies = 1 for %s; was the model name right?)", r.NoTokenCount, r.Entries, c.d.Benchmark))
	}
	if c.extra == nil {
		r.WarnEmpty()
	} else {
		c.extra.Finish(r, c.d)
	}
}

// WarnEmpty adds the plain warning about empty outputs, if there are any.
func (r *Report) WarnEmpty() {
	if r.Output.Empty > 0 {
		r.Warnings = append(r.Warnings, fmt.Sprintf("%d samples have an empty output", r.Output.Empty))
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
	switch {
	case r.OK():
		b.WriteString("  result: OK\n")
	case r.Partial():
		fmt.Fprintf(&b, "  result: PARTIAL — %d of %d samples, each whole and logged once: scored on those, not a full accuracy run\n", r.Present, r.Expected)
	default:
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

// AbsPath returns p made absolute (p itself if that fails), so a printed
// command works from another directory.
func AbsPath(p string) string { return absPath(p) }

func absPath(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}

// ErrChecksFailed is Evaluation.Failure for a log that failed a hard
// check (Report.OK). The evaluators score such a log anyway, as the
// references score any log, so the numbers are there to compare; the run
// fails all the same.
var ErrChecksFailed = errors.New("the accuracy log failed its checks (see above)")

// CheckLog reads the accuracy log at logPath and checks it against d. It
// returns the entries, to be scored whatever the checks found, and an
// Evaluation whose Report is the check report and whose Failure is
// ErrChecksFailed when a hard check failed; the error is the log's
// reading.
func CheckLog(logPath string, d DatasetInfo) ([]mllog.AccuracyEntry, benchmark.Evaluation, error) {
	entries, err := mllog.ReadAccuracy(logPath)
	if err != nil {
		return nil, benchmark.Evaluation{}, err
	}
	rep := Check(entries, d)
	ev := benchmark.Evaluation{Report: rep.Format()}
	if !rep.OK() && !rep.Partial() {
		ev.Failure = ErrChecksFailed
	}
	return entries, ev, nil
}

// CheckLogForDecoding is CheckLog followed by opening the tokenizer o
// decodes the log's token IDs with (EvalOptions.OpenTokenizer): every
// token-ID evaluator starts so.
func CheckLogForDecoding(logPath string, d DatasetInfo, o benchmark.EvalOptions) ([]mllog.AccuracyEntry, *tokenizer.Tokenizer, benchmark.Evaluation, error) {
	entries, ev, err := CheckLog(logPath, d)
	if err != nil {
		return nil, nil, ev, err
	}
	tok, err := o.OpenTokenizer()
	if err != nil {
		return nil, nil, ev, err
	}
	return entries, tok, ev, nil
}

// Evaluate checks the accuracy log at logPath against d and returns the
// report followed by command, the official evaluator's command line that
// computes the score. It fails when a hard check fails (Report.OK).
func Evaluate(logPath string, d DatasetInfo, command string) (benchmark.Evaluation, error) {
	_, ev, err := CheckLog(logPath, d)
	if err != nil {
		return ev, err
	}
	ev.Report += "\n" +
		"\nScore it with the official evaluator, from the root of an mlcommons/inference checkout:\n  " + command + "\n"
	return ev, nil
}
