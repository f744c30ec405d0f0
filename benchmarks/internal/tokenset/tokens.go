// Package tokenset reads the datasets of the token-ID LLM benchmarks:
// pre-tokenized prompts in the references' JSON (pandas to_json, any orient)
// or parquet files. Each benchmark describes its columns and vocabulary with
// a Spec; the reader, its checks and its error messages are shared.
package tokenset

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/download"
	"github.com/mlperf-go/mlperf-go/qsl"
)

// Spec says how one benchmark's token file looks.
type Spec struct {
	// Benchmark names the benchmark in messages.
	Benchmark string
	// TokenColumns are the accepted prompt-token column names, in order of
	// preference (the first present wins).
	TokenColumns []string
	// ReferenceColumn holds the text the accuracy evaluator compares
	// against (Dataset.Reference).
	ReferenceColumn string
	// ReferenceColumns, when set, replaces ReferenceColumn: the accepted
	// reference columns in order of preference, the first the file has
	// winning, as a reference's `if 'gt_output' in df.columns: … elif
	// 'ground_truth' in df.columns: …` chain picks one.
	ReferenceColumns []string
	// MetaColumn holds SampleMeta.Dataset ("" if none).
	MetaColumn string
	// MetaColumns, when set, replaces MetaColumn likewise: the first
	// column the file has gives SampleMeta.Dataset, through its Derive.
	MetaColumns []MetaColumn
	// TokensHelp, when set, ends the error for a file without any of
	// TokenColumns: how to make the token IDs (e.g. from a prompt-text
	// column the file does have).
	TokensHelp string
	// Vocab bounds prompt token IDs to [0, Vocab); VocabName names the
	// vocabulary in messages.
	Vocab     int
	VocabName string
	// PickleFix is the python command converting the pickled form: %[1]s
	// is the input, %[2]s the output (PickleToJSON for most); PickleExt
	// the extension it writes.
	PickleFix, PickleExt string
}

// PickleToJSON is the Spec.PickleFix of a set read as records JSON
// (PickleExt ".json"): pandas reads the pickled DataFrame and writes
// DataFrame.to_json(orient="records"), one of the layouts the reader
// takes.
const PickleToJSON = `python3 -c "import pandas as pd; pd.read_pickle(%[1]s).to_json(%[2]s, orient='records')"`

// Open opens a token dataset described by s; see openTokens.
func Open(path string, s *Spec) (*Dataset, error) {
	return openTokens(path, s.internal())
}

// ReadJSON reads a token dataset in JSON form from r; name is the file
// name messages give.
func ReadJSON(r io.Reader, name string, s *Spec) (*Dataset, error) {
	return readTokenJSON(r, name, s.internal())
}

// ReadParquet reads a token dataset in parquet form from r (size bytes);
// name is the file name messages give.
func ReadParquet(r io.ReaderAt, size int64, name string, s *Spec) (*Dataset, error) {
	return readTokenParquet(r, size, name, s.internal())
}

// MetaColumn is a column SampleMeta.Dataset may come from.
type MetaColumn struct {
	// Name is the column's name.
	Name string
	// Derive, when set, turns the column's text into the dataset name (a
	// missing value stays ""); nil takes the text as it is.
	Derive func(string) string
}

func (s *Spec) internal() *tokenSpec {
	t := &tokenSpec{
		benchmark: s.Benchmark, tokenCols: s.TokenColumns, refCols: s.ReferenceColumns,
		metaCols: s.MetaColumns, vocab: s.Vocab, vocabName: s.VocabName,
		pickleFix: s.PickleFix, pickleExt: s.PickleExt, tokensHelp: s.TokensHelp,
	}
	if t.refCols == nil && s.ReferenceColumn != "" {
		t.refCols = []string{s.ReferenceColumn}
	}
	if t.metaCols == nil && s.MetaColumn != "" {
		t.metaCols = []MetaColumn{{Name: s.MetaColumn}}
	}
	return t
}

// Dataset is a dataset of pre-tokenized prompts, the form the LLM
// benchmarks ship: each sample is a list of
// prompt token IDs plus the text the accuracy evaluator compares against.
//
// Prompt tokens are kept back to back in blocks of up to a million tokens
// that many samples share, so a 13,368-sample dataset is a few dozen
// allocations, not 13,368, and reading it never copies what it has read: one
// array grown as the file is read would be allocated six times over (240 MB
// for llama3_1-8b's 40 MB of tokens) and lift the peak of resident memory
// by twice the tokens. A Dataset is immutable after Open and safe for
// concurrent use.
type Dataset struct {
	path   string
	format string // "json" or "parquet"
	column string // name of the token column actually found

	prompts [][]int32 // sample i's prompt tokens, capacity capped, in shared blocks
	total   int       // tokens over all prompts
	refs    []string
	refType []RefType
	meta    []SampleMeta
}

// RefType is the Python type of a sample's reference value in the
// reference's DataFrame, as the file keeps it (JSON: a string, an integer,
// a number with a fraction or exponent, true/false, null; parquet: the
// column's physical type). Scorers that call int() or str() on the value
// need it: int(42.0) is 42, int("42.0") raises.
type RefType uint8

const (
	// RefNone is a missing value: null, an absent field or column, or a
	// float NaN (pd.isna is true).
	RefNone RefType = iota
	RefStr
	RefInt
	RefFloat
	RefBool
)

// tokenBlock is the most tokens a block of a Dataset's token storage holds
// (4 MiB); the first blocks are smaller, so a small dataset stays small.
const tokenBlock = 1 << 20

// SampleMeta is what a token dataset carries per sample besides tokens and
// the reference text.
type SampleMeta struct {
	// Dataset is the source sub-dataset of the sample (the Spec's
	// MetaColumn, e.g. aime25, gpqa_diamond); empty when the records have no
	// such field.
	Dataset string
}

// Path is the file the dataset was read from.
func (d *Dataset) Path() string { return d.path }

// Format is "json" or "parquet", the form the file was read in.
func (d *Dataset) Format() string { return d.format }

// TokenColumn is the name of the column the prompt tokens were read from
// ("tok_input" or "input_tokens").
func (d *Dataset) TokenColumn() string { return d.column }

// Len is the number of samples.
func (d *Dataset) Len() int { return len(d.prompts) }

// Tokens returns sample i's prompt token IDs. The slice aliases the dataset's
// storage and must not be modified; its capacity is capped so appending to
// it copies. It panics if i is out of range, like a slice index.
func (d *Dataset) Tokens(i int) []int32 { return d.prompts[i] }

// A Dataset gives its prompts' token IDs to serving benchmarks.
var _ benchmark.TokenPrompts = (*Dataset)(nil)

// TotalTokens is the number of prompt tokens over all samples.
func (d *Dataset) TotalTokens() int { return d.total }

// Reference returns sample i's reference text: the target summary
// ("output") for llama3_1-8b, the "ground_truth" for gpt-oss-120b. It is ""
// when the file has no such column or the value is null.
func (d *Dataset) Reference(i int) string { return d.refs[i] }

// ReferenceType is the Python type of sample i's reference value; its
// Reference text is Python's str() of it.
func (d *Dataset) ReferenceType(i int) RefType { return d.refType[i] }

// Meta returns sample i's metadata.
func (d *Dataset) Meta(i int) SampleMeta { return d.meta[i] }

// Head returns a dataset of the first min(n, Len()) samples, sharing storage
// with d. This is how a requested total sample count is applied: the
// reference takes min(len(dataset), total_sample_count)
// (language/llama3.1-8b/dataset.py) or df.head(max_samples)
// (language/gpt-oss-120b/utils/tokenization.py). n <= 0 keeps every sample.
func (d *Dataset) Head(n int) *Dataset {
	if n <= 0 || n >= d.Len() {
		return d
	}
	h := *d
	h.prompts = d.prompts[:n:n]
	h.refs = d.refs[:n:n]
	h.refType = d.refType[:n:n]
	h.meta = d.meta[:n:n]
	h.total = 0
	for _, p := range h.prompts {
		h.total += len(p)
	}
	return &h
}

// Builder returns a qsl.Builder that builds sample i's request body with
// encode(i, d.Tokens(i)). encode must not keep or modify the token slice.
func (d *Dataset) Builder(encode func(i int, tokens []int32) ([]byte, error)) qsl.Builder {
	return qsl.BuilderFunc(func(i int) ([]byte, error) {
		if i < 0 || i >= d.Len() {
			return nil, fmt.Errorf("%s: sample index %d out of range [0,%d)", d.path, i, d.Len())
		}
		b, err := encode(i, d.Tokens(i))
		if err != nil {
			return nil, fmt.Errorf("%s: sample %d: %w", d.path, i, err)
		}
		return b, nil
	})
}

// tokenSpec says how one benchmark's token file looks.
type tokenSpec struct {
	benchmark  string       // for messages
	tokenCols  []string     // accepted token column names, in order of preference
	refCols    []string     // reference text columns, in order of preference
	metaCols   []MetaColumn // SampleMeta.Dataset columns, in order of preference
	vocab      int          // token IDs must lie in [0, vocab)
	vocabName  string       // for messages
	pickleFix  string       // python command converting the pickle form; %[1]s is the input, %[2]s the output stem
	pickleExt  string       // extension the conversion writes
	tokensHelp string       // added to the missing-token-column error
}

// knownField reports whether name is a column this spec reads.
func (s *tokenSpec) knownField(name string) bool {
	for _, c := range s.refCols {
		if name == c {
			return true
		}
	}
	for _, c := range s.metaCols {
		if name == c.Name {
			return true
		}
	}
	for _, c := range s.tokenCols {
		if name == c {
			return true
		}
	}
	return false
}

// noTokensHelp is what ends the error for a file without a token column.
func (s *tokenSpec) noTokensHelp() string {
	if s.tokensHelp == "" {
		return ""
	}
	return "; " + s.tokensHelp
}

func (s *tokenSpec) tokenColsText() string {
	q := make([]string, len(s.tokenCols))
	for i, c := range s.tokenCols {
		q[i] = fmt.Sprintf("%q", c)
	}
	return strings.Join(q, " or ")
}

// tokenAssembler accumulates samples into a Dataset. Readers append one
// sample at a time through addTokens/finishSample.
type tokenAssembler struct {
	spec    *tokenSpec
	path    string
	d       *Dataset
	interns map[string]string // few distinct dataset names; share their strings

	// refCol and metaCol are the reference and meta columns chosen for the
	// file (refField, metaField); "" and nil until one is found.
	refCol  string
	metaCol *MetaColumn

	block []int32 // the block being filled: prompts back to back, then the open one's tokens
	open  int     // where the open prompt starts in block
	first int     // index of the block's first prompt
}

// refField returns the file's reference column: the first of the spec's
// that has reports present, chosen once (on the first record holding one)
// and kept, as pandas picks a column for the whole frame. "" if none yet.
func (a *tokenAssembler) refField(has func(string) bool) string {
	if a.refCol == "" {
		for _, c := range a.spec.refCols {
			if has(c) {
				a.refCol = c
				break
			}
		}
	}
	return a.refCol
}

// metaField is refField for the meta column; "" if none yet.
func (a *tokenAssembler) metaField(has func(string) bool) string {
	if a.metaCol == nil {
		for i, c := range a.spec.metaCols {
			if has(c.Name) {
				a.metaCol = &a.spec.metaCols[i]
				break
			}
		}
	}
	if a.metaCol == nil {
		return ""
	}
	return a.metaCol.Name
}

func newAssembler(spec *tokenSpec, path, format string) *tokenAssembler {
	return &tokenAssembler{
		spec: spec,
		path: path,
		d: &Dataset{
			path:   path,
			format: format,
		},
		interns: map[string]string{},
	}
}

// checkToken validates one token ID of the sample being assembled.
// where names the record ("record 12", "row 7").
func (a *tokenAssembler) checkToken(where string, pos int, v int64) (int32, error) {
	if v < 0 || v >= int64(a.spec.vocab) {
		return 0, fmt.Errorf("%s: %s: %s[%d] = %d is outside the %s vocabulary [0,%d)",
			a.path, where, a.d.column, pos, v, a.spec.vocabName, a.spec.vocab)
	}
	return int32(v), nil
}

// addToken appends a token to the open prompt. A full block is left to the
// prompts it holds; the open prompt's tokens move to a new one, which is at
// least twice their size.
func (a *tokenAssembler) addToken(t int32) {
	if len(a.block) == cap(a.block) {
		open := a.block[a.open:]
		size := min(max(a.d.total, 1024), tokenBlock) // the first blocks grow with the dataset
		b := make([]int32, len(open), max(size, 2*len(open)))
		copy(b, open)
		a.block, a.open, a.first = b, 0, len(a.d.prompts)
	}
	a.block = append(a.block, t)
}

// endTokens closes the open prompt: the tokens added since the previous
// endTokens.
func (a *tokenAssembler) endTokens(where string) error {
	end := len(a.block)
	if end == a.open {
		return fmt.Errorf("%s: %s: empty prompt: %q has no token IDs", a.path, where, a.d.column)
	}
	a.d.prompts = append(a.d.prompts, a.block[a.open:end:end])
	a.d.total += end - a.open
	a.open = end
	return nil
}

// addMeta records the next sample's reference text and type and dataset
// name (the meta column's text, through its Derive).
func (a *tokenAssembler) addMeta(ref string, refType RefType, dataset string) {
	a.d.refs = append(a.d.refs, ref)
	a.d.refType = append(a.d.refType, refType)
	if dataset != "" && a.metaCol != nil && a.metaCol.Derive != nil {
		dataset = a.metaCol.Derive(dataset)
	}
	if s, ok := a.interns[dataset]; ok {
		dataset = s
	} else if len(a.interns) < 1024 {
		a.interns[dataset] = dataset
	}
	a.d.meta = append(a.d.meta, SampleMeta{Dataset: dataset})
}

func (a *tokenAssembler) finish() (*Dataset, error) {
	if a.d.Len() == 0 {
		return nil, fmt.Errorf("%s: the dataset has no samples", a.path)
	}
	// The last block's unused rest could be most of it: move its prompts
	// to one of their size, so a long-lived dataset holds no spare room.
	if used := a.block[:a.open]; cap(a.block)-len(used) > len(used)/8 {
		b := slices.Clone(used)
		off := 0
		for j := a.first; j < len(a.d.prompts); j++ {
			n := len(a.d.prompts[j])
			a.d.prompts[j] = b[off : off+n : off+n]
			off += n
		}
		a.block = b
	}
	return a.d, nil
}

// openTokens opens a token dataset in JSON or parquet form, deciding by the
// file's first bytes (parquet's "PAR1" magic, JSON's '[' or '{'), so a file's
// extension need not be right. A Python pickle gets an error with the command
// converting it.
func openTokens(path string, spec *tokenSpec) (*Dataset, error) {
	d, err := openTokensFile(path, spec)
	if err != nil {
		return nil, fmt.Errorf("%s dataset: %w", spec.benchmark, err)
	}
	return d, nil
}

func openTokensFile(path string, spec *tokenSpec) (*Dataset, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if st.IsDir() {
		file, err := datasetFileIn(path)
		if err != nil {
			return nil, err
		}
		return openTokensFile(file, spec)
	}
	head := make([]byte, 512)
	n, err := io.ReadFull(f, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	head = head[:n]
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	trimmed := bytes.TrimLeft(head, " \t\r\n\ufeff")
	ext := strings.ToLower(filepath.Ext(path))
	switch {
	case bytes.HasPrefix(head, []byte("PAR1")):
		return readTokenParquet(f, st.Size(), path, spec)
	case len(trimmed) > 0 && (trimmed[0] == '[' || trimmed[0] == '{'):
		return readTokenJSON(f, path, spec)
	case len(head) >= 2 && head[0] == 0x1f && head[1] == 0x8b:
		return nil, gzipError(path, spec)
	case (len(head) > 0 && head[0] == 0x80) || ext == ".pkl" || ext == ".pickle":
		stem := strings.TrimSuffix(path, filepath.Ext(path))
		return nil, fmt.Errorf("%s is a Python pickle, which mlperf-go cannot read; convert it once with:\n  %s",
			path, fmt.Sprintf(spec.pickleFix, pyQuote(path), pyQuote(stem+spec.pickleExt)))
	case n == 0:
		return nil, fmt.Errorf("%s is empty", path)
	default:
		return nil, fmt.Errorf("%s is neither JSON nor parquet (it starts with %q)", path, trimPreview(head))
	}
}

// datasetFileIn is the one dataset file in folder dir, for a folder given
// where a token-ID set is one file: one that `mlperf-go dataset synth`
// wrote before it left a manifest beside its file (newer ones are opened
// by that manifest before a reader sees them), or a folder holding just
// the downloaded file. The candidates are the files a reader could take
// (.json, .parquet, and pickles, whose error says how to convert them);
// the manifests synth and download leave beside their data are not data.
func datasetFileIn(dir string) (string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", err
	}
	var found []string
	for _, e := range entries {
		name := e.Name()
		if name == benchmark.SynthManifestFile || name == download.ManifestFile || strings.HasPrefix(name, ".") {
			continue
		}
		switch strings.ToLower(filepath.Ext(name)) {
		case ".json", ".parquet", ".pkl", ".pickle", ".gz":
			if st, err := os.Stat(filepath.Join(dir, name)); err == nil && !st.IsDir() {
				found = append(found, name)
			}
		}
	}
	switch len(found) {
	case 1:
		return filepath.Join(dir, found[0]), nil
	case 0:
		return "", fmt.Errorf("%s is a folder with no dataset file (.json or .parquet) in it; give the dataset file, or write a synthetic set with `mlperf-go dataset synth`", dir)
	default:
		return "", fmt.Errorf("%s is a folder holding %d dataset files (%s); give the one to use", dir, len(found), strings.Join(found, ", "))
	}
}

// gzipError says what to do with a gzip-compressed file: a pickled
// DataFrame (name.pkl.gz, as MLCommons ships llama2-70b's OpenOrca set) is
// converted by the same pandas command, which decompresses by the ".gz"
// extension; anything else is decompressed first.
func gzipError(path string, spec *tokenSpec) error {
	inner := strings.TrimSuffix(path, filepath.Ext(path))
	if ext := strings.ToLower(filepath.Ext(inner)); ext == ".pkl" || ext == ".pickle" {
		stem := strings.TrimSuffix(inner, filepath.Ext(inner))
		return fmt.Errorf("%s is a gzip-compressed Python pickle, which mlperf-go cannot read; convert it once with (pandas decompresses it by its .gz extension):\n  %s",
			path, fmt.Sprintf(spec.pickleFix, pyQuote(path), pyQuote(stem+spec.pickleExt)))
	}
	return fmt.Errorf("%s is gzip-compressed; decompress it first (gunzip -k %s) and give the file inside", path, path)
}

// pyQuote quotes s as a Python string literal inside a double-quoted shell
// argument (single quotes, with ' and \ escaped).
func pyQuote(s string) string {
	s = strings.NewReplacer(`\`, `\\\\`, `'`, `\'`, `"`, `\"`, "$", `\$`, "`", "\\`").Replace(s)
	return "'" + s + "'"
}

func trimPreview(b []byte) []byte {
	if len(b) > 16 {
		return b[:16]
	}
	return b
}
