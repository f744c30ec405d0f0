package benchmark

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"go.uber.org/zap"

	"github.com/mlperf-go/mlperf-go/download"
	"github.com/mlperf-go/mlperf-go/protocol"
	"github.com/mlperf-go/mlperf-go/qsl"
)

// Dataset is an opened benchmark dataset.
type Dataset interface {
	// Len is the number of samples.
	Len() int
	// Close releases the dataset's files.
	Close() error
	// Bodies returns the qsl.Builder that turns samples into request
	// bodies for o.API, and the prefix those bodies share (nil if none
	// worth sharing) for qsl.Library.SharePrefix. An API the benchmark
	// cannot be sent over is an error naming it.
	Bodies(o BodyOptions) (qsl.Builder, []byte, error)
	// Evaluate scores or checks an accuracy log (LoadGen's
	// mlperf_log_accuracy.json at logPath) against the dataset, returning
	// accuracy.txt's content rather than writing it. Cancelling
	// ctx stops a long evaluation (ROUGE over a full set, code tests,
	// graders) and kills the processes it started.
	Evaluate(ctx context.Context, logPath string, o EvalOptions) (Evaluation, error)
}

// TokenPrompts is a Dataset whose prompts are token IDs (the token-ID
// benchmarks'), which a serving benchmark counts as a request's prompt
// tokens where the server's answer does not say.
type TokenPrompts interface {
	// Tokens is sample i's prompt.
	Tokens(i int) []int32
}

// BodyOptions say how request bodies are built.
type BodyOptions struct {
	// Benchmark is the benchmark (with its variant's facts) being run.
	Benchmark Benchmark
	// API is the endpoint protocol; Model the served model name.
	API   protocol.Protocol
	Model string
	// Stream asks for streamed responses.
	Stream bool
	// Guided turns on guided decoding where the benchmark has it (the
	// answer's JSON schema as response_format).
	Guided bool
	// Sampling are the sampling parameters, of API's own type
	// (API.DefaultParams); nil sends the benchmark's defaults
	// (DefaultSampling).
	Sampling protocol.Params
	// Round is the MLPerf round whose reference the bodies follow ("v6.0",
	// "v6.1"; "" is the benchmark's default), where the round changes them.
	// A round the benchmark does not know is an error.
	Round string
	// Logger receives warnings about the bodies chosen (nil: none).
	Logger *zap.Logger
}

// Params returns the sampling parameters the bodies carry: Sampling, or the
// benchmark's defaults for API.
func (o BodyOptions) Params() (protocol.Params, error) {
	if o.Sampling != nil {
		return o.Sampling, nil
	}
	return o.Benchmark.DefaultSampling(o.API)
}

// EvalOptions tune Dataset.Evaluate. Zero values take the evaluator's
// (the reference's) defaults.
type EvalOptions struct {
	// Benchmark is the benchmark (with its variant's facts) the log belongs
	// to.
	Benchmark Benchmark
	// Seed, when set, replaces the evaluator's random seed.
	Seed *uint64
	// Workers, when positive, replaces the evaluator's worker count where
	// it changes random draws.
	Workers int
	// Interactive judges against the Interactive scenario's target.
	Interactive bool
	// Round is the MLPerf round whose scorer applies, where the rounds
	// score differently ("": the evaluator's default).
	Round string
	// Tokenizer is the tokenizer file or folder that decodes token-ID
	// answers (--tokenizer); "" looks for TokenizerModel's tokenizer in a
	// model folder of that name or the Hugging Face cache.
	Tokenizer string
	// TokenizerModel is the model name or folder the tokenizer is looked
	// up by ("": the benchmark's Model).
	TokenizerModel string
	// CleanUpSpaces, when set, overrides the decode's
	// clean_up_tokenization_spaces; nil takes the round's choice (what the
	// round's targets were computed with).
	CleanUpSpaces *bool
	// LiveCodeBench is the LiveCodeBench problems file the code subsets are
	// tested with ("": none; a log with code answers is then an error).
	LiveCodeBench string
	// Python is the interpreter generated code and reference-only steps run
	// under ("": python3 on PATH).
	Python string
	// PRM800K is the folder holding PRM800K's grading/grader.py (the
	// prm800k folder of an openai/prm800k checkout, deepseek-r1's
	// submodules/prm800k/prm800k). MATH-500 answers whose grade depends on
	// sympy or pylatexenc are graded by its grade_answer under Python ("":
	// such an answer is an error naming the flag, never a wrong answer).
	PRM800K string
	// Verdicts, when set, is the file Evaluate writes one JSON line per
	// scored sample to (SampleVerdict): index, what was extracted, the
	// verdict or per-sample metrics, and why.
	Verdicts string
}

// Evaluation is what an evaluator found.
type Evaluation struct {
	// Report is the text to show: tables, checks, the next step.
	Report string
	// AccuracyTxt is accuracy.txt as the reference's evaluator prints it,
	// which the submission checker reads; nil from an evaluator that
	// scores nothing (log checks only). The caller writes it, once, where
	// it belongs (beside the log, or --output).
	AccuracyTxt []byte
	// Failure is non-nil when the log failed its checks or missed the
	// target; it says which.
	Failure error
	// Scorer says what computed the score and with which choices (the
	// tokenizer and its clean-up setting, the splitter's version), for the
	// run record and results.json.
	Scorer string
}

// OpenDataset opens b's dataset from paths; see Data.Open. No paths is
// an error saying how to make a dataset. No splits reads b.Splits. A path
// that is a `dataset download` folder opens the files its dataset pin names
// (Pin.Open: the performance set where a benchmark has two).
func (b Benchmark) OpenDataset(paths, splits []string) (Dataset, error) {
	return b.openDataset(paths, splits, false)
}

// OpenAccuracyDataset is OpenDataset for an accuracy run or an evaluation:
// a download folder opens its accuracy set (Pin.OpenAccuracy, e.g.
// gpt-oss-120b's acc/acc_eval_ref.parquet) where the benchmark has one.
func (b Benchmark) OpenAccuracyDataset(paths, splits []string) (Dataset, error) {
	return b.openDataset(paths, splits, true)
}

// SeparateAccuracySet reports whether paths (a download folder) hold an
// accuracy set apart from the performance set, so a command running both
// tests must open each.
func (b Benchmark) SeparateAccuracySet(paths []string) bool {
	perf, err1 := b.openDownloads(paths, false)
	acc, err2 := b.openDownloads(paths, true)
	return err1 == nil && err2 == nil && !slices.Equal(perf, acc)
}

func (b Benchmark) openDataset(paths, splits []string, accuracy bool) (Dataset, error) {
	if len(paths) == 0 {
		return nil, fmt.Errorf("no dataset given: pass --dataset (make one with `mlperf-go dataset synth --benchmark %s`)", b.Name)
	}
	if len(splits) == 0 {
		splits = b.Data.Splits
	}
	if err := notManifests(paths); err != nil {
		return nil, err
	}
	paths, err := b.openDownloads(paths, accuracy)
	if err != nil {
		return nil, err
	}
	if paths, err = b.openSynth(paths); err != nil {
		return nil, err
	}
	return b.Data.Open(paths, splits)
}

// notManifests refuses a manifest given as the dataset: the synthetic
// set's (SynthManifestFile) or a download's (download.ManifestFile)
// names the dataset's files, and its folder is what --dataset takes.
func notManifests(paths []string) error {
	for _, p := range paths {
		what := ""
		switch filepath.Base(p) {
		case SynthManifestFile:
			what = "the manifest `mlperf-go dataset synth` wrote beside a synthetic set"
		case download.ManifestFile:
			what = "the manifest `mlperf-go dataset download` wrote beside a download"
		default:
			continue
		}
		return fmt.Errorf("%s is %s, not a dataset file: pass its folder, --dataset %s", p, what, filepath.Dir(p))
	}
	return nil
}

// checkDownloads validates each round's pins: each pin valid, one per role,
// each in its own folder.
func checkDownloads(byRound map[string][]download.Pin) error {
	for round, pins := range byRound {
		roles, dirs := map[string]bool{}, map[string]bool{}
		for _, p := range pins {
			if err := p.Validate(); err != nil {
				return fmt.Errorf("Downloads[%q]: %v", round, err)
			}
			if roles[p.Role] || dirs[p.Dir] {
				return fmt.Errorf("Downloads[%q]: two pins share the role %q or the folder %q", round, p.Role, p.Dir)
			}
			roles[p.Role], dirs[p.Dir] = true, true
		}
	}
	return nil
}

// DownloadPins returns the files b pins for round (download.Pin), or an
// error naming the rounds that have some.
func (b Benchmark) DownloadPins(round string) ([]download.Pin, error) {
	if pins := b.Data.Downloads[round]; len(pins) > 0 {
		return pins, nil
	}
	var have []string
	for r := range b.Data.Downloads {
		have = append(have, r)
	}
	sort.Strings(have)
	if len(have) == 0 {
		return nil, fmt.Errorf("benchmark %s pins no download: pass its files with --dataset", b.Name)
	}
	return nil, fmt.Errorf("benchmark %s pins no download for round %s: use --round %s", b.Name, round, strings.Join(have, " or --round "))
}

// openDownloads replaces each download folder among paths (one holding a
// download.ManifestFile, as `mlperf-go dataset download --out DIR` leaves
// it) by the files its dataset pin says b's reader takes (for an accuracy
// run when accuracy), after checking that the folder holds b's dataset,
// complete.
func (b Benchmark) openDownloads(paths []string, accuracy bool) ([]string, error) {
	out := make([]string, 0, len(paths))
	for _, p := range paths {
		if !download.IsDownload(p) {
			out = append(out, p)
			continue
		}
		m, err := download.ReadManifest(p)
		if err != nil {
			return nil, err
		}
		fix := fmt.Sprintf("mlperf-go dataset download -b %s --out %s", b.Name, p)
		s := m.Role(download.RoleDataset)
		if s == nil {
			return nil, fmt.Errorf("%s holds no dataset: download it with `%s`", p, fix)
		}
		if !b.pinsDataset(s.Pin) {
			return nil, fmt.Errorf("%s holds the dataset %s (for %s), not %s's: download %s's into another folder with `mlperf-go dataset download -b %s --out DIR`",
				p, s.Pin.Source(), strings.Join(s.For, ", "), b.Name, b.Name, b.Name)
		}
		if err := s.Missing(p); err != nil {
			return nil, fmt.Errorf("%s: the download is incomplete (%v): run `%s` again", p, err, fix)
		}
		out = append(out, s.OpenPaths(p, accuracy)...)
	}
	return out, nil
}

// pinsDataset reports whether p is b's dataset pin in some round.
func (b Benchmark) pinsDataset(p download.Pin) bool {
	key := p.Key()
	for _, pins := range b.Data.Downloads {
		for _, q := range pins {
			if q.Role == download.RoleDataset && q.Key() == key {
				return true
			}
		}
	}
	return false
}
