package mmlu

import (
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/mlperf-go/mlperf-go/quality/ask"
	"github.com/mlperf-go/mlperf-go/record"
	"github.com/mlperf-go/mlperf-go/run"
	"github.com/mlperf-go/mlperf-go/sut"
)

// Request is `eval mmlu`'s command line in its own words; Options checks
// it all before any request, each error naming its flag and the fix.
type Request struct {
	Dataset, Dev string
	Shots        int
	// Subset is asked for when SubsetGiven (0 then is refused).
	Subset      int
	SubsetGiven bool
	Seed        uint64
	Subjects    []string
	// API is chat or completions (ask.ParseAPI).
	API         string
	Endpoints   []string
	Model       string
	Concurrency int
	Timeout     time.Duration
	// MaxTokens is nil when not given (none sent).
	MaxTokens   *int
	Temperature float64
	// APIKeyFile and APIKeyEnv are where the key is read (sut.ReadAPIKey).
	APIKeyFile, APIKeyEnv string
	// Resilience and Given are checked by run's rules
	// (run.Options.SetResilience): the endpoint flags are run's.
	Resilience run.Resilience
	Given      func(name string) bool
	// Progress gets a progress line every ProgressEvery (0: none).
	Progress      io.Writer
	ProgressEvery time.Duration
	// OutputDir is --output-dir (record.ChooseRunDir): "" is a new
	// folder under RunsDir/eval/mmlu.
	OutputDir string
	Overwrite bool
	RunsDir   string
}

// Options checks r and resolves it into Options (all but the logger).
func (r Request) Options() (Options, error) {
	o := Options{Dataset: r.Dataset, Dev: r.Dev, Shots: r.Shots, Subset: r.Subset, Seed: r.Seed, Subjects: r.Subjects}
	if o.Shots < 0 || o.Shots > MaxShots {
		return o, fmt.Errorf("--shots %d: use 0 to %d (cais/mmlu's dev split has %d examples per subject)", o.Shots, MaxShots, MaxShots)
	}
	if r.SubsetGiven && o.Subset <= 0 {
		return o, fmt.Errorf("--subset %d: use a positive number of questions (leave the flag out for all of them)", o.Subset)
	}
	api, err := ask.ParseAPI(r.API)
	if err != nil {
		return o, fmt.Errorf("--api %w", err)
	}
	o.Ask = ask.Config{API: api, Endpoints: r.Endpoints, Model: r.Model, Concurrency: r.Concurrency, Timeout: r.Timeout}
	if r.MaxTokens != nil {
		if n := *r.MaxTokens; n <= 0 {
			return o, fmt.Errorf("--max-tokens %d: use a positive number of tokens (leave the flag out to send none)", n)
		}
		o.Ask.MaxTokens = r.MaxTokens
	}
	if r.Temperature < 0 {
		return o, fmt.Errorf("--temperature %v: use 0 (greedy) or more", r.Temperature)
	}
	o.Ask.Temperature = &r.Temperature
	if o.Ask.APIKey, err = sut.ReadAPIKey(r.APIKeyFile, r.APIKeyEnv); err != nil {
		return o, err
	}
	ro := run.Options{Endpoints: o.Ask.Endpoints, Concurrency: o.Ask.Concurrency, Timeout: o.Ask.Timeout, APIKey: o.Ask.APIKey}
	if err := ro.SetResilience(r.Resilience, r.Given); err != nil {
		return o, err
	}
	o.Ask.Retries, o.Ask.MaxResponseBytes, o.Ask.MaxFailures = ro.Retries, ro.MaxResponseBytes, ro.MaxFailures
	if r.ProgressEvery > 0 {
		o.Ask.Progress, o.Ask.ProgressEvery = r.Progress, r.ProgressEvery
	}
	o.OutputDir, o.Reservation, err = record.ChooseRunDir(r.OutputDir, r.Overwrite, filepath.Join(r.RunsDir, "eval", "mmlu"))
	return o, err
}
