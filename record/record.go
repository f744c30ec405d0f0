// Package record is the run record: what one LoadGen run of the harness
// was (command, versions, round, benchmark, scenario, endpoints, sampling),
// what became of its samples and its outcome, kept as mlperf_go_run.json
// beside LoadGen's logs, and the names of the other files the harness
// writes there. Every part that judges, reports or files a run reads this
// record rather than asking the part that wrote it, so none of them needs
// another's package for a struct.
package record

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/mlperf-go/mlperf-go/internal/atomicfile"
	"github.com/mlperf-go/mlperf-go/loadgen/mllog"
)

// Run records how one LoadGen run was made, so the submission README can
// state it exactly. Zero fields are omitted from the JSON.
type Run struct {
	// Command is the full argv of the mlperf-go invocation.
	Command []string `json:"command"`
	// HarnessVersion is mlperf-go's version (module version or VCS revision).
	HarnessVersion string `json:"harness_version"`
	// LoadGenVersion is the LoadGen release linked in (e.g. "6.0.17").
	LoadGenVersion string `json:"loadgen_version"`
	// Round is the MLPerf round the run was made for ("v6.1").
	Round string `json:"round,omitempty"`
	// Benchmark, Scenario and Kind (performance, accuracy, TEST06, …) say
	// which run this was.
	Benchmark string `json:"benchmark,omitempty"`
	Scenario  string `json:"scenario,omitempty"`
	Kind      string `json:"kind,omitempty"`
	// LoadGenModel is the model name LoadGen ran under, where it is not
	// Benchmark (qwen3-vl's Interactive variant runs as qwen3-vl-235b-a22b).
	LoadGenModel string `json:"loadgen_model,omitempty"`
	// SubmissionScenario is the scenario as people name it and the
	// submission files it, where it is not Scenario: Interactive, which
	// LoadGen runs as its Server scenario.
	SubmissionScenario string `json:"submission_scenario,omitempty"`
	// RoundSettings are the user.conf lines mlperf-go wrote because the
	// round requires them and LoadGen's built-in mlperf.conf lacks them,
	// each followed by why ("qwen3-vl-235b-a22b.Server.target_latency =
	// 1500 (…)").
	RoundSettings []string `json:"round_settings,omitempty"`
	// Endpoints are the inference server URLs requests went to.
	Endpoints []string `json:"endpoints,omitempty"`
	// API is the request API ("chat/completions", "completions", "generate").
	API string `json:"api,omitempty"`
	// Requests names the reference whose requests the run sent, where the
	// round decides it (the benchmark says: benchmark.Serving.Requests).
	Requests string `json:"requests,omitempty"`
	// Model is the model name sent to the endpoint.
	Model string `json:"model,omitempty"`
	// Engine and EngineFlags describe the serving engine (e.g. "vLLM 0.11.0"
	// and its command-line flags) as the user declared them, or as
	// launched (the engine's kind and its command line).
	Engine      string   `json:"engine,omitempty"`
	EngineFlags []string `json:"engine_flags,omitempty"`
	// EngineServed is what the endpoints said they are, engine and
	// version ("vLLM 0.32.0+cpu": vLLM's /version, SGLang's
	// /get_server_info), one entry per distinct answer; empty when none
	// said.
	EngineServed []string `json:"engine_served,omitempty"`
	// Quick is true for a --quick smoke run, whose figures are not the
	// system's (seconds of load on a tiny sample library).
	Quick bool `json:"quick,omitempty"`
	// Sampling holds the sampling parameters sent with every request
	// (temperature, top_p, max_tokens, …) as sent.
	Sampling map[string]any `json:"sampling,omitempty"`
	// Start and End bound the LoadGen test.
	Start time.Time `json:"start"`
	End   time.Time `json:"end"`
	// Samples is what the worker pool did with the samples LoadGen
	// issued, failures by class (nil if not recorded).
	Samples *SampleCounts `json:"samples,omitempty"`
	// Outcome is the run's verdict as the harness told the user: one of
	// Valid, Invalid, Aborted ("" in records written
	// before outcomes were recorded), and OutcomeReason why it is not
	// valid.
	Outcome       string `json:"outcome,omitempty"`
	OutcomeReason string `json:"outcome_reason,omitempty"`
	// RenamedLogs maps LoadGen log names to what they were renamed to,
	// and RemovedLogs lists LoadGen logs deleted, when an aborted run left
	// logs that would otherwise claim a result (or not parse).
	RenamedLogs map[string]string `json:"renamed_logs,omitempty"`
	RemovedLogs []string          `json:"removed_logs,omitempty"`
	// Accuracy is an accuracy run's verdict, once it was evaluated.
	Accuracy *Accuracy `json:"accuracy,omitempty"`
	// PairedAccuracy is, for the performance run of a command that ran the
	// accuracy test first (--mode both), where that run is and whether it
	// passed: a performance result is submittable only beside a passing
	// accuracy run.
	PairedAccuracy *PairedAccuracy `json:"paired_accuracy,omitempty"`
	// Compliance is a compliance run's verdict: what its test's
	// verification found. It, not LoadGen's performance verdict, decides
	// the run's Outcome.
	Compliance *Compliance `json:"compliance,omitempty"`
}

// PairedAccuracy points a performance run at the accuracy run made with it.
type PairedAccuracy struct {
	Dir  string `json:"dir"`
	Pass bool   `json:"pass"`
	// Partial: the accuracy run covered part of the dataset (Accuracy.Partial)
	// and passed there. The pair is not submittable (Pass is false), but a
	// rehearsal with unofficial settings, which make such runs, files it.
	Partial bool `json:"partial,omitempty"`
}

// The run outcomes a record can carry. Only Valid may be filed or
// submitted.
const (
	// Valid: LoadGen said VALID (or, in accuracy runs, finished; in
	// compliance runs, the test's verification passed, whatever LoadGen's
	// performance verdict) and no sample failed.
	Valid = mllog.ResultValid
	// Invalid: the test ran to its end but LoadGen said INVALID (a
	// compliance run: its verification failed or could not run) or
	// samples failed.
	Invalid = mllog.ResultInvalid
	// Aborted: the test was stopped early (a signal, --max-failures,
	// a dead engine).
	Aborted = "ABORTED"
)

// Submittable returns nil when the record allows the run into a
// submission: no failed sample and no abort. (A LoadGen INVALID shows in
// LoadGen's own logs, where filing lets it through, for inspection, and
// the submission check refuses it; so does an accuracy run of part of the
// dataset, Accuracy.Partial, and the performance run paired with it.)
// Records without an outcome (older harnesses) are judged by their counts
// alone.
func (info Run) Submittable() error {
	if info.Outcome == Aborted {
		return fmt.Errorf("the run was aborted (%s): run it again to its end", orUnknown(info.OutcomeReason))
	}
	if a := info.Accuracy; a != nil && !a.Pass {
		return fmt.Errorf("the accuracy run missed its targets (%s): fix the model or the serving and run it again", strings.Join(a.Problems, "; "))
	}
	if c := info.Compliance; c != nil && !c.Pass {
		return fmt.Errorf("the %s verification did not pass (%s): fix what it names and run the test again", c.Test, strings.Join(c.Problems(), "; "))
	}
	if p := info.PairedAccuracy; p != nil && !p.Pass && !p.Partial {
		return fmt.Errorf("the accuracy run made with it (%s) missed its targets: a performance result counts only beside a passing accuracy run", p.Dir)
	}
	if s := info.Samples; s != nil && s.Failed > 0 {
		return fmt.Errorf("%d of %d samples failed (%s): fix the endpoint and run again", s.Failed, s.Completed, Counts(s.FailuresByReason))
	}
	// LoadGen's own INVALID is left to its logs, which the submission check reads.
	return nil
}

func orUnknown(s string) string {
	if s == "" {
		return "no reason recorded"
	}
	return s
}

// SampleCounts are the worker pool's counters at the end of a run.
type SampleCounts struct {
	// Issued samples reached the pool; Completed were reported to LoadGen;
	// Failed is the subset of Completed that failed (empty response).
	Issued    int64 `json:"issued"`
	Completed int64 `json:"completed"`
	Failed    int64 `json:"failed"`
	// FailuresByReason counts failures per class (http_status, timeout, …).
	FailuresByReason map[string]int64 `json:"failures_by_reason,omitempty"`
	// FirstFailures are the first few failures, as logged.
	FirstFailures []SampleFailure `json:"first_failures,omitempty"`
	// EndpointDrops are the times an endpoint was taken out of rotation
	// (the first few of each), in time order.
	EndpointDrops []EndpointDrop `json:"endpoint_drops,omitempty"`
	// OutputTokens is the sum of output tokens over successful samples.
	OutputTokens int64 `json:"output_tokens,omitempty"`
}

// Counts renders counts by class for a person, largest first (ties by
// name): "transport: 18, http_503: 2".
func Counts(m map[string]int64) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if m[keys[i]] != m[keys[j]] {
			return m[keys[i]] > m[keys[j]]
		}
		return keys[i] < keys[j]
	})
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = count(k, m[k])
	}
	return strings.Join(parts, ", ")
}

// CountsByName renders counts by class as Counts does, sorted as text
// (by class name, unless one name begins another): "http_503: 2,
// transport: 18", the order results.json's reasons have always had.
func CountsByName(m map[string]int64) string {
	parts := make([]string, 0, len(m))
	for k, n := range m {
		parts = append(parts, count(k, n))
	}
	sort.Strings(parts)
	return strings.Join(parts, ", ")
}

// count renders one class's count.
func count(class string, n int64) string { return fmt.Sprintf("%s: %d", class, n) }

// EndpointDrop is one time an endpoint failed and was taken out of
// rotation: its requests went to the other endpoints, or failed.
type EndpointDrop struct {
	Endpoint string `json:"endpoint"`
	// At is when, and AfterStart how long into the test.
	At         time.Time `json:"at"`
	AfterStart Seconds   `json:"after_start_s"`
	Error      string    `json:"error"`
	// Back is when it answered again; nil: not before the test ended.
	Back *time.Time `json:"back,omitempty"`
}

// Seconds is a duration written as seconds, to the millisecond.
type Seconds float64

// SecondsOf is d as Seconds.
func SecondsOf(d time.Duration) Seconds { return Seconds(d.Round(time.Millisecond).Seconds()) }

// SampleFailure is one failed sample.
type SampleFailure struct {
	Index   int    `json:"index"`
	Reason  string `json:"reason"`
	Message string `json:"message"`
}

// Write writes info as indented JSON to dir/File, replacing any earlier
// one atomically (the record is rewritten as a run goes on).
func Write(dir string, info Run) error {
	b, err := json.MarshalIndent(info, "", "  ")
	if err != nil {
		return fmt.Errorf("run record: encoding: %w", err)
	}
	path := filepath.Join(dir, File)
	if err := atomicfile.Write(path, append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("run record: writing: %w", err)
	}
	return nil
}

// Read reads dir/File.
func Read(dir string) (Run, error) {
	path := filepath.Join(dir, File)
	b, err := os.ReadFile(path)
	if err != nil {
		return Run{}, fmt.Errorf("run record: reading: %w", err)
	}
	var info Run
	if err := json.Unmarshal(b, &info); err != nil {
		return Run{}, fmt.Errorf("run record: %s is not valid run-info JSON: %w", path, err)
	}
	return info, nil
}

// Kind says what a LoadGen run was for: a performance or accuracy run, or
// the name of a compliance test ("TEST06"). It decides where a run is
// filed.
type Kind string

// The kinds of run besides compliance tests, whose Kind is the test's name.
const (
	KindPerformance Kind = "performance"
	KindAccuracy    Kind = "accuracy"
)

// IsCompliance reports whether k is a compliance test's run.
func (k Kind) IsCompliance() bool { return k != KindPerformance && k != KindAccuracy }

// Accuracy is the verdict on an accuracy run: each metric the submission
// checker reads from its accuracy.txt, against the round's bounds.
type Accuracy struct {
	// Round and Scenario are the rules the verdict applied (the scenario
	// directory's: Interactive has its own targets for some benchmarks).
	Round    string `json:"round"`
	Scenario string `json:"scenario"`
	// Pass is true when every metric judged met its bounds.
	Pass bool `json:"pass"`
	// Partial, when set, says the log covers fewer samples than the
	// round's accuracy run must ("20 of 13368 samples"): the verdict is on
	// those samples, a metric that is a total over the whole set is not
	// judged (AccuracyMetric.NotJudged), and the run is not submittable.
	Partial string           `json:"partial,omitempty"`
	Metrics []AccuracyMetric `json:"metrics"`
	// Problems are what the checker would say, one line each.
	Problems []string `json:"problems,omitempty"`
	// Scorer says what computed the numbers and with which choices (the
	// tokenizer and its clean-up setting, the sentence splitter's version).
	Scorer string `json:"scorer,omitempty"`
}

// AccuracyMetric is one metric of an Accuracy verdict, its numbers as the
// checker reads and prints them.
type AccuracyMetric struct {
	// Name is the checker's metric name ("ROUGE1", "exact_match").
	Name string `json:"name"`
	// Value is what accuracy.txt says ("" when no line matched).
	Value string `json:"value"`
	// Bound is the lowest passing value and Upper, where set, the highest.
	Bound string `json:"bound"`
	Upper string `json:"upper,omitempty"`
	Pass  bool   `json:"pass"`
	// NotJudged: the metric is a total over the whole set (llama3.1-8b's
	// gen_len, the characters of every summary), which a partial log
	// cannot reach, so its bounds were not applied.
	NotJudged bool `json:"not_judged,omitempty"`
}

// Range is the metric's passing range as the tables print it: ">= 38.39",
// ">= 7350879.6, <= 8984408.4".
func (m AccuracyMetric) Range() string {
	if m.Upper != "" {
		return ">= " + m.Bound + ", <= " + m.Upper
	}
	return ">= " + m.Bound
}

// Verdict is "PASS", "FAIL" or "NOT JUDGED".
func (m AccuracyMetric) Verdict() string {
	switch {
	case m.NotJudged:
		return "NOT JUDGED"
	case m.Pass:
		return "PASS"
	}
	return "FAIL"
}

// Verdict is "PASS" or "FAIL".
func (a *Accuracy) Verdict() string {
	if a.Pass {
		return "PASS"
	}
	return "FAIL"
}

// EngineName is the serving engine as a README names it: what the user
// declared, unless that is only a launched engine's kind ("vllm") and
// the endpoints said more (their name and version).
func (r Run) EngineName() string {
	served := strings.Join(r.EngineServed, ", ")
	if served == "" {
		return r.Engine
	}
	if r.Engine == "" || strings.EqualFold(r.Engine, strings.Fields(served)[0]) {
		return served
	}
	return r.Engine
}
