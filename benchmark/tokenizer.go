package benchmark

import (
	"fmt"
	"path/filepath"
	"slices"

	"github.com/mlperf-go/mlperf-go/download"
	"github.com/mlperf-go/mlperf-go/tokenizer"
)

// NeedsTokenizer reports whether scoring an accuracy log of this output
// needs the model's tokenizer: token-ID answers are decoded to text before
// they are scored, so an evaluation (run --evaluate, --mode both, TEST07)
// can check for it before the test rather than after it.
func (o Output) NeedsTokenizer() bool { return o == TokenIDs }

// OpenTokenizer finds and loads the tokenizer that decodes o.Benchmark's
// token-ID answers: o.Tokenizer (a file or folder) when given, else the
// model o.TokenizerModel names (the benchmark's Model by default) as a
// folder or in the Hugging Face cache. The error says where it looked and
// how to get the files, `mlperf-go dataset download --only tokenizer`
// first where the benchmark pins its tokenizer for o.Round.
func (o EvalOptions) OpenTokenizer() (*tokenizer.Tokenizer, error) {
	model := o.TokenizerModel
	if model == "" {
		model = o.Benchmark.Serving.Model
	}
	tok, err := o.Benchmark.FindTokenizer(o.Tokenizer, model, o.Round)
	if err != nil {
		return nil, fmt.Errorf("%s's evaluator decodes the logged token IDs with %s's tokenizer: %w", o.Benchmark.Name, model, err)
	}
	return tok, nil
}

// FindTokenizer loads the tokenizer at path (a file or folder), else
// model's (a folder, or a name in the Hugging Face cache; "" is b's
// Model). Not found, the error lists where it looked, the download that
// fetches the one round pins, and, where b has one, the tokenizer of the
// same vocabulary to be had without a gated repository
// (Serving.UngatedTokenizer).
func (b Benchmark) FindTokenizer(path, model, round string) (*tokenizer.Tokenizer, error) {
	if model == "" {
		model = b.Serving.Model
	}
	tok, err := tokenizer.Open(tokenizer.FindOptions{Path: path, Model: model, Download: EvalOptions{Benchmark: b, Round: round}.tokenizerDownload()})
	if err != nil && b.Serving.UngatedTokenizer != "" {
		err = fmt.Errorf("%w\nWithout access to %s: %s", err, model, b.Serving.UngatedTokenizer)
	}
	return tok, err
}

// tokenizerDownload is the command that fetches the tokenizer the round
// pins for the benchmark, and the --tokenizer to pass then ("" when it pins
// none).
func (o EvalOptions) tokenizerDownload() string {
	pins, _ := o.Benchmark.DownloadPins(o.Round)
	i := slices.IndexFunc(pins, func(p download.Pin) bool { return p.Role == download.RoleTokenizer })
	if i < 0 {
		return ""
	}
	round := ""
	if o.Round != "" {
		round = " --round " + o.Round
	}
	return fmt.Sprintf("mlperf-go dataset download -b %s%s --only %s --out DIR, then pass --tokenizer DIR/%s",
		o.Benchmark.Name, round, download.RoleTokenizer, pins[i].Dir)
}

// DownloadedTokenizer is the tokenizer folder of the first download folder
// among a dataset's paths (`mlperf-go dataset download --out DIR` fetches
// the benchmark's pinned tokenizer into DIR/tokenizer beside its data),
// when that download holds it whole; "" otherwise. A run or evaluation
// given -d DIR and no --tokenizer decodes with it before looking for the
// model in the Hugging Face cache.
func DownloadedTokenizer(paths []string) string {
	for _, p := range paths {
		if !download.IsDownload(p) {
			continue
		}
		m, err := download.ReadManifest(p)
		if err != nil {
			continue
		}
		if s := m.Role(download.RoleTokenizer); s != nil && s.Missing(p) == nil {
			return filepath.Join(p, s.Pin.Dir)
		}
	}
	return ""
}
