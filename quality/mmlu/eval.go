package mmlu

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/mlperf-go/mlperf-go/internal/dirwalk"
	"github.com/mlperf-go/mlperf-go/internal/redact"
	"github.com/mlperf-go/mlperf-go/quality/ask"
	"github.com/mlperf-go/mlperf-go/record"
)

// The files Run writes into Options.OutputDir.
const (
	SamplesFile = "mmlu_samples.csv"
	ResultsFile = "mmlu_results.json"
	ReportFile  = "mmlu_report.html"
)

// Schema names the layout of ResultsFile.
const Schema = "mlperf-go/mmlu-results/v1"

// Options say what to evaluate and where.
type Options struct {
	// Dataset is the cais/mmlu copy (see Open); Dev, if set, the dev
	// split's folder or shard.
	Dataset, Dev string
	// Subjects, if not empty, limits the questions to these subjects.
	Subjects []string
	// Subset, if positive, asks that many questions, stratified by subject
	// (Subset); Seed picks them.
	Subset int
	Seed   uint64
	// Shots is the number of few-shot examples per prompt, 0 to MaxShots.
	Shots int
	// Ask says where and how to ask (its Model is recorded as given);
	// Run uses it, Plan.Ask takes its own.
	Ask ask.Config
	// OutputDir receives SamplesFile, ResultsFile and ReportFile.
	OutputDir string
	// Reservation releases OutputDir if the command ends with nothing
	// written into it (record.ChooseRunDir).
	Reservation record.Reservation
}

// Results is what ResultsFile holds: the accuracies, how they were
// measured, and the samples that went wrong.
type Results struct {
	Schema string `json:"schema"`
	// Accuracy is Overall.Accuracy, repeated at the top for scripts.
	Accuracy   float64 `json:"accuracy"`
	Overall    Tally   `json:"overall"`
	Categories []Tally `json:"categories"`
	Subjects   []Tally `json:"subjects"`

	Model     string   `json:"model"`
	API       ask.API  `json:"api"`
	Endpoints []string `json:"endpoints"`
	MaxTokens *int     `json:"max_tokens,omitempty"`
	// Temperature is what was sent (nil: the server's default).
	Temperature *float64 `json:"temperature,omitempty"`

	Shots        int    `json:"shots"`
	PromptFormat string `json:"prompt_format"`
	Extraction   string `json:"extraction"`
	// CategorySource names the subject → category table.
	CategorySource string `json:"category_source"`

	DatasetFiles   []string `json:"dataset_files"`
	DevFiles       []string `json:"dev_files,omitempty"`
	TestQuestions  int      `json:"test_questions"`
	SubjectsFilter []string `json:"subjects_filter,omitempty"`
	Subset         int      `json:"subset,omitempty"`
	Seed           uint64   `json:"seed"`

	Started    time.Time        `json:"started"`
	ElapsedS   float64          `json:"elapsed_s"`
	Latency    LatencySummary   `json:"latency_ms"`
	Retries    int64            `json:"retries"`
	FailedBy   map[string]int64 `json:"failures_by_reason,omitempty"`
	Stopped    string           `json:"stopped,omitempty"`
	Unparsed   []SampleRef      `json:"unparseable_samples"`
	FailedRefs []SampleRef      `json:"failed_samples"`

	// Samples are every question and answer (in SamplesFile, not here).
	Samples []Sample `json:"-"`
}

// LatencySummary is the answered requests' latency, in milliseconds.
type LatencySummary struct {
	Mean float64 `json:"mean"`
	P50  float64 `json:"p50"`
	P90  float64 `json:"p90"`
	P99  float64 `json:"p99"`
	Max  float64 `json:"max"`
}

// SampleRef names a sample that went wrong and what it said.
type SampleRef struct {
	Subject      string `json:"subject"`
	Index        int    `json:"index"`
	SubjectIndex int    `json:"subject_index"`
	// Answer is the answer, clipped (unparseable samples); Error why no
	// answer came (failed samples).
	Answer string `json:"answer,omitempty"`
	Error  string `json:"error,omitempty"`
}

// ExtractionRule is how Extract reads answers, in a line, for the results.
const ExtractionRule = "text after the last </think>; then the first upper-case A-D standing alone after leading white space/markup and an optional \"Answer:\"; else after the first \"answer is\"; else after the last \"answer:\"; none: unparseable, counted wrong"

// CategorySource names where the subject → category table comes from.
const CategorySource = "hendrycks/test categories.py (4450500f): subcategories mapped to STEM, humanities, social sciences, other (business, health, misc.)"

// Run evaluates a model on MMLU: Prepare, then Plan.Ask with o.Ask.
func Run(ctx context.Context, o Options) (*Results, error) {
	p, err := Prepare(o)
	if err != nil {
		return nil, err
	}
	return p.Ask(ctx, o.Ask)
}

// Plan is the questions of an evaluation and their prompts, ready to ask.
type Plan struct {
	opts      Options
	d         *Dataset
	questions []Question
	prompts   []string
}

// Prepare reads the data set, picks the questions and builds their
// prompts, all before any request, so that a data set or option error is
// found at once.
func Prepare(o Options) (*Plan, error) {
	d, err := Open(o.Dataset, o.Dev)
	if err != nil {
		return nil, err
	}
	qs, err := Filter(d.Test, o.Subjects)
	if err != nil {
		return nil, err
	}
	qs = Subset(qs, o.Subset, o.Seed)
	prompts, err := Prompts(d, qs, o.Shots)
	if err != nil {
		return nil, err
	}
	return &Plan{opts: o, d: d, questions: qs, prompts: prompts}, nil
}

// Questions is how many questions the plan asks.
func (p *Plan) Questions() int { return len(p.questions) }

// Ask asks the plan's questions as cfg says (its Model is recorded as
// given), scores the answers and writes SamplesFile, ResultsFile and
// ReportFile into the plan's OutputDir. Failed requests are scored wrong
// and listed; the caller decides whether they fail the command. A run
// stopped early (the failure limit, ctx ended) is still scored and
// written, with Results.Stopped saying why.
func (p *Plan) Ask(ctx context.Context, cfg ask.Config) (*Results, error) {
	if err := dirwalk.MkdirAll(p.opts.OutputDir, 0o755); err != nil {
		return nil, fmt.Errorf("mmlu: output folder: %w", err)
	}
	started := time.Now()
	res, err := ask.Ask(ctx, cfg, p.prompts)
	if err != nil {
		return nil, err
	}
	o := p.opts
	o.Ask = cfg
	r := newResults(o, p.d, p.questions, res, started)
	return r, r.Write(o.OutputDir)
}

// newResults scores the answers and fills in how they were obtained.
func newResults(o Options, d *Dataset, qs []Question, res *ask.Result, started time.Time) *Results {
	samples, overall, cats, subs := Score(qs, res.Answers)
	api := o.Ask.API
	if api == "" {
		api = ask.Chat
	}
	r := &Results{
		Schema: Schema, Accuracy: overall.Accuracy, Overall: overall, Categories: cats, Subjects: subs,
		Model: o.Ask.Model, API: api, Endpoints: redact.URLs(o.Ask.Endpoints),
		MaxTokens: o.Ask.MaxTokens, Temperature: o.Ask.Temperature,
		Shots: o.Shots, PromptFormat: PromptFormat, Extraction: ExtractionRule, CategorySource: CategorySource,
		DatasetFiles: d.TestFiles, TestQuestions: len(d.Test), SubjectsFilter: o.Subjects, Subset: o.Subset, Seed: o.Seed,
		Started: started.UTC(), ElapsedS: res.Elapsed.Seconds(), Retries: res.Stats.Retries, FailedBy: res.Stats.FailuresByReason,
		Stopped: res.Stopped, Samples: samples, Unparsed: []SampleRef{}, FailedRefs: []SampleRef{},
	}
	if o.Shots > 0 {
		r.DevFiles = d.DevFiles
	}
	if len(r.FailedBy) == 0 {
		r.FailedBy = nil
	}
	r.Latency = latencySummary(samples)
	for i := range samples {
		s := &samples[i]
		ref := SampleRef{Subject: s.Subject, Index: s.Index, SubjectIndex: s.SubjectIndex}
		switch {
		case s.Failed:
			ref.Error = s.Error
			r.FailedRefs = append(r.FailedRefs, ref)
		case s.Unparseable():
			ref.Answer = clip(s.Answer, answerClip)
			r.Unparsed = append(r.Unparsed, ref)
		}
	}
	return r
}

// latencySummary summarises the answered samples' latencies (nearest-rank
// percentiles).
func latencySummary(samples []Sample) LatencySummary {
	var ls []float64
	sum := 0.0
	for i := range samples {
		if !samples[i].Failed {
			ms := float64(samples[i].Latency) / float64(time.Millisecond)
			ls = append(ls, ms)
			sum += ms
		}
	}
	if len(ls) == 0 {
		return LatencySummary{}
	}
	sort.Float64s(ls)
	pct := func(p float64) float64 {
		k := int(math.Ceil(float64(len(ls))*p/100)) - 1
		return ls[min(max(k, 0), len(ls)-1)]
	}
	return LatencySummary{Mean: sum / float64(len(ls)), P50: pct(50), P90: pct(90), P99: pct(99), Max: ls[len(ls)-1]}
}

// Write writes SamplesFile, ResultsFile and ReportFile into dir.
func (r *Results) Write(dir string) error {
	for name, write := range map[string]func(io.Writer) error{
		SamplesFile: func(w io.Writer) error { return WriteSamplesCSV(w, r.Samples) },
		ResultsFile: r.writeJSON,
		ReportFile:  r.WriteHTML,
	} {
		if err := writeFile(filepath.Join(dir, name), write); err != nil {
			return err
		}
	}
	return nil
}

func writeFile(path string, write func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("mmlu: %w", err)
	}
	if err := write(f); err != nil {
		f.Close()
		return fmt.Errorf("mmlu: writing %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("mmlu: writing %s: %w", path, err)
	}
	return nil
}
