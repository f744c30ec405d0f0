// Package answers loads what the fake endpoint answers with from a
// benchmark's dataset: the ground truth of its samples (and plausible
// wrong answers), encoded with the model's tokenizer for a token-ID
// benchmark, and the benchmark's default answer. The fake itself stays
// below the benchmark registry; this package reads the registry for it.
package answers

import (
	"fmt"
	"strings"

	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/fake"
)

// Chat returns the chat answers and default answer Set sets for a benchmark whose answers need no tokenizer.
func Chat(name string, paths, splits []string) ([]fake.Answer, string, error) {
	var cfg fake.Config
	_, err := Set(&cfg, name, "", paths, splits)
	return cfg.Answers, cfg.DefaultAnswer, err
}

// Set sets what the fake answers with (cfg's Answers, TokenAnswers and
// DefaultAnswer): the answers of the dataset at paths (none without
// paths) and the default answer of its benchmark, and returns that
// benchmark (its Name "" when there is none). The benchmark is name; else,
// given paths, the one a synthetic set's or download's manifest among
// them names, else the one benchmark with text answers whose reader opens
// paths; else, without paths, the one benchmark with text answers, if
// there is one (no default answer otherwise: the fake's own). A token-ID
// benchmark's answers are texts, encoded with the tokenizer at tokPath
// (else the one a download folder among paths holds, else its model's).
func Set(cfg *fake.Config, name, tokPath string, paths, splits []string) (benchmark.Benchmark, error) {
	b, d, ok, err := chooseBenchmark(name, paths, splits)
	switch {
	case err != nil:
		return b, err
	case len(paths) == 0:
		cfg.DefaultAnswer = b.Fake.DefaultAnswer
		return b, nil
	case !ok:
		return b, fmt.Errorf("--dataset %s names no benchmark (it is no folder `dataset synth` or `dataset download` wrote) and no text benchmark's reader opens it: pass --benchmark, one of %s",
			strings.Join(paths, " "), strings.Join(baseNames(), ", "))
	}
	if d == nil {
		if d, err = b.OpenDataset(paths, splits); err != nil {
			return b, err
		}
	}
	defer d.Close()
	cfg.DefaultAnswer = b.Fake.DefaultAnswer
	switch fa := d.(type) {
	case benchmark.FakeAnswerer:
		for _, a := range fa.FakeAnswers() {
			cfg.Answers = append(cfg.Answers, fake.Answer(a))
		}
		return b, nil
	case benchmark.FakeTokenAnswerer:
		if tokPath == "" {
			tokPath = benchmark.DownloadedTokenizer(paths)
		}
		cfg.TokenAnswers, err = encodeTokenAnswers(fa.FakeTokenAnswers(), b, tokPath)
		return b, err
	}
	// A dataset with no answers to give: the fake derives its answers
	// from the prompt, and the --dataset given to run too is opened
	// (checked) and adds none.
	return b, nil
}

// chooseBenchmark picks Set's benchmark, with the dataset it opened to
// pick it (nil if none); ok is false when there is none.
func chooseBenchmark(name string, paths, splits []string) (benchmark.Benchmark, benchmark.Dataset, bool, error) {
	if name != "" {
		b, err := benchmark.Lookup(name)
		if err != nil {
			return b, nil, false, fmt.Errorf("--benchmark: %w", err)
		}
		return b, nil, true, nil
	}
	if len(paths) == 0 {
		if found := textBenchmarks(); len(found) == 1 {
			return found[0], nil, true, nil
		}
		return benchmark.Benchmark{}, nil, false, nil
	}
	if b, ok := benchmark.NamedByDataset(paths); ok {
		return b, nil, true, nil
	}
	b, d, ok := benchmarkOfDataset(paths, splits)
	return b, d, ok, nil
}

// encodeTokenAnswers encodes a token-ID benchmark's answer texts with the
// tokenizer at tokPath, or else b's model's, as the model would have
// generated them (no special tokens added), so the evaluator decodes
// them back.
func encodeTokenAnswers(answers []benchmark.FakeTokenAnswer, b benchmark.Benchmark, tokPath string) ([]fake.TokenAnswer, error) {
	tok, err := b.FindTokenizer(tokPath, "", "")
	if err != nil {
		return nil, fmt.Errorf("--tokenizer: the fake encodes %s's reference answers with %s's tokenizer: %w", b.Name, b.Serving.Model, err)
	}
	encode := func(text string) ([]int32, error) {
		ids, err := tok.Encode(text)
		out := make([]int32, len(ids))
		for i, id := range ids {
			out[i] = int32(id)
		}
		return out, err
	}
	// fit encodes text, brought to a's length (FakeTokenAnswer.Tokens):
	// cut, or preceded by its filler over and over.
	fit := func(a benchmark.FakeTokenAnswer, text string) ([]int32, error) {
		ids, err := encode(text)
		if err != nil || a.Tokens == 0 {
			return ids, err
		}
		if len(ids) >= a.Tokens {
			return ids[:a.Tokens], nil
		}
		filler := a.Filler
		if filler == "" {
			filler = text + " "
		}
		lead, err := encode(filler)
		if err != nil || len(lead) == 0 {
			return nil, fmt.Errorf("encoding the filler %q: %v", filler, err)
		}
		pad := make([]int32, 0, a.Tokens)
		for short := a.Tokens - len(ids); len(pad) < short; {
			pad = append(pad, lead[:min(len(lead), short-len(pad))]...)
		}
		return append(pad, ids...), nil
	}
	out := make([]fake.TokenAnswer, 0, len(answers))
	for i, a := range answers {
		t := fake.TokenAnswer{Prompt: a.Prompt}
		if t.Right, err = fit(a, a.Right); err != nil {
			return nil, fmt.Errorf("--dataset sample %d: encoding its answer with %s: %w", i, tok.Path(), err)
		}
		// Wrong answers are as long as right ones, so --accuracy moves
		// the score and not the checked output length.
		for _, w := range a.Wrongs {
			ids, err := fit(a, w)
			if err != nil {
				return nil, fmt.Errorf("--dataset sample %d: encoding a wrong answer with %s: %w", i, tok.Path(), err)
			}
			t.Wrongs = append(t.Wrongs, ids)
		}
		if len(t.Right) > 0 {
			out = append(out, t)
		}
	}
	return out, nil
}

// benchmarkOfDataset returns the one text benchmark whose dataset reader
// opens paths, with the dataset it opened (ok false, and nothing left
// open, when none or several do).
func benchmarkOfDataset(paths, splits []string) (benchmark.Benchmark, benchmark.Dataset, bool) {
	var (
		found  []benchmark.Benchmark
		opened []benchmark.Dataset
	)
	for _, x := range textBenchmarks() {
		if d, err := x.OpenDataset(paths, splits); err == nil {
			found, opened = append(found, x), append(opened, d)
		}
	}
	if len(found) != 1 {
		for _, d := range opened {
			d.Close()
		}
		return benchmark.Benchmark{}, nil, false
	}
	return found[0], opened[0], true
}

// textBenchmarks are the benchmarks whose answers are text: those whose
// datasets give the fake its answers.
func textBenchmarks() []benchmark.Benchmark {
	var found []benchmark.Benchmark
	for _, x := range benchmark.All() {
		if x.Serving.Output == benchmark.Text {
			found = append(found, x)
		}
	}
	return found
}

// baseNames are the registered benchmarks' names, without variants.
func baseNames() []string {
	var names []string
	for _, x := range benchmark.All() {
		names = append(names, x.Name)
	}
	return names
}
