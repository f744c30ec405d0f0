// Package results turns one run's output directory into results.json: the
// outcome and why, throughput, latency, TTFT and TPOT as LoadGen measured
// them, failures by class, the settings LoadGen used, versions, endpoints
// (without secrets) and what the engine's metrics said.
//
// Every LoadGen figure is read from LoadGen's own mlperf_log_detail.txt,
// never recomputed; the summary file's "Result is" line is checked against
// it. The harness's run record (mlperf_go_run.json) adds failures,
// endpoints and versions, and engine_metrics.jsonl the engine facts.
//
// The schema is versioned (Schema) and documented in docs/results-schema.md.
package results

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/mlperf-go/mlperf-go/engine/metrics"
	"github.com/mlperf-go/mlperf-go/internal/atomicfile"
	"github.com/mlperf-go/mlperf-go/internal/redact"
	"github.com/mlperf-go/mlperf-go/loadgen"
	"github.com/mlperf-go/mlperf-go/loadgen/mllog"
	"github.com/mlperf-go/mlperf-go/record"
)

// Schema identifies the format of results.json. A change that removes or
// redefines a field gets a new version; adding a field does not.
const Schema = "mlperf-go/results/v1"

// Outcome statuses, worst first.
const (
	// StatusAborted: the run record says the test was stopped before its
	// end (a signal, --max-failures, a dead engine).
	StatusAborted = "aborted"
	// StatusFailed: samples failed; the run exited non-zero whatever
	// LoadGen concluded.
	StatusFailed = "failed"
	// StatusIncomplete: the detail log has no result (LoadGen did not
	// finish the test).
	StatusIncomplete = "incomplete"
	// StatusInvalid and StatusValid are LoadGen's verdict on a
	// performance run (mllog.ResultInvalid, mllog.ResultValid), in the
	// lower case of results.json's statuses.
	StatusInvalid = "invalid"
	StatusValid   = "valid"
	// StatusAccuracy: an accuracy run, which has no performance verdict.
	StatusAccuracy = "accuracy"
	// StatusPass, StatusFail and StatusUnverified are a compliance run's
	// verdict: its test's verification passed, failed, or could not run
	// (decideCompliance).
	StatusPass       = "pass"
	StatusFail       = "fail"
	StatusUnverified = "unverified"
)

// Results is the content of results.json.
type Results struct {
	// Schema is always the Schema constant.
	Schema string `json:"schema"`
	// Run says which run this is.
	Run Run `json:"run"`
	// Outcome is the verdict and the reasons for it.
	Outcome Outcome `json:"outcome"`
	// Metrics are LoadGen's measurements (empty in accuracy runs).
	Metrics Metrics `json:"metrics"`
	// Samples are the harness's counters: failures by class.
	Samples *record.SampleCounts `json:"samples,omitempty"`
	// Settings are LoadGen's effective settings ("effective_*" keys,
	// without the prefix), the ones it actually used.
	Settings map[string]any `json:"settings"`
	// Versions of the harness, LoadGen and the round.
	Versions Versions `json:"versions"`
	// Endpoints are the servers requests went to, without user
	// information.
	Endpoints []string `json:"endpoints,omitempty"`
	// API and Model are the request API and the model name sent.
	API   string `json:"api,omitempty"`
	Model string `json:"model,omitempty"`
	// Engine is what is known of the serving engine.
	Engine Engine `json:"engine"`
	// Accuracy is an accuracy run's verdict, once evaluated: each metric
	// against the round's bounds, PASS or FAIL (the run record's).
	Accuracy *record.Accuracy `json:"accuracy,omitempty"`
	// PairedAccuracy is, for the performance run of --mode both, the
	// accuracy run made with it and whether it passed.
	PairedAccuracy *record.PairedAccuracy `json:"paired_accuracy,omitempty"`
	// HarnessLatency is where the samples' time went in the harness
	// (latency.go).
	HarnessLatency *HarnessLatency `json:"harness_latency,omitempty"`
	// Compliance is a compliance run's verdict (the run record's), which
	// decides its status (decideCompliance).
	Compliance *record.Compliance `json:"compliance,omitempty"`
	// Sources are the files read, relative to the run directory.
	Sources []string `json:"sources"`
}

// Run identifies the run.
type Run struct {
	Benchmark string `json:"benchmark,omitempty"`
	// Scenario and Mode are LoadGen's effective ones.
	Scenario string `json:"scenario"`
	// ScenarioName is the scenario as people name it: Interactive for
	// LoadGen's Server scenario of a benchmark's Interactive variant, else
	// Scenario.
	ScenarioName string `json:"scenario_name,omitempty"`
	Mode         string `json:"mode"`
	// Kind is performance, accuracy or a compliance test (TEST06, …).
	Kind string `json:"kind,omitempty"`
	// Outcome and OutcomeReason are the harness's verdict from the run
	// record (VALID, INVALID, ABORTED; record.Valid, Invalid, Aborted).
	Outcome       string `json:"outcome,omitempty"`
	OutcomeReason string `json:"outcome_reason,omitempty"`
	// TestDatetime is LoadGen's test_datetime.
	TestDatetime string `json:"test_datetime,omitempty"`
	// Start and End bound the LoadGen test (from the run record);
	// DurationSeconds is End - Start.
	Start           *time.Time `json:"start,omitempty"`
	End             *time.Time `json:"end,omitempty"`
	DurationSeconds float64    `json:"duration_s,omitempty"`
	// Command is the mlperf-go command line.
	Command []string `json:"command,omitempty"`
	// Quick is true for a --quick smoke run (from the run record): its
	// figures come from seconds of load on a tiny sample library and do
	// not describe the system.
	Quick bool `json:"quick,omitempty"`
	// QSLTotal and QSLPerformance are the sample counts the QSL reported.
	QSLTotal       int64 `json:"qsl_total_count,omitempty"`
	QSLPerformance int64 `json:"qsl_performance_count,omitempty"`
}

// Outcome is the run's verdict.
type Outcome struct {
	// Status is one of the Status* constants.
	Status string `json:"status"`
	// Reasons say why the status is not valid, one finding each.
	Reasons []string `json:"reasons,omitempty"`
	// Warnings are findings that do not change the status but put the
	// run in doubt: LoadGen errors, prefix-cache hits, preemptions.
	Warnings []string `json:"warnings,omitempty"`
	// LoadGenValidity is LoadGen's result_validity (mllog.ResultValid,
	// mllog.ResultInvalid).
	LoadGenValidity string `json:"loadgen_validity,omitempty"`
	// LoadGenReasons are LoadGen's reasons for its INVALID where that
	// verdict does not decide the status (a compliance run): information.
	LoadGenReasons []string `json:"loadgen_reasons,omitempty"`
	// The constraints LoadGen checked (nil: not logged).
	PerfConstraintsMet *bool `json:"perf_constraints_met,omitempty"`
	MinDurationMet     *bool `json:"min_duration_met,omitempty"`
	MinQueriesMet      *bool `json:"min_queries_met,omitempty"`
	EarlyStoppingMet   *bool `json:"early_stopping_met,omitempty"`
	// EarlyStopping holds LoadGen's early-stopping texts by key
	// ("early_stopping_result", "early_stopping_ttft_result", …).
	EarlyStopping map[string]string `json:"early_stopping,omitempty"`
	// LoadGenErrors and LoadGenWarnings count the detail log's error and
	// warning lines; Messages are their distinct texts with counts.
	LoadGenErrors   int       `json:"loadgen_errors"`
	LoadGenWarnings int       `json:"loadgen_warnings"`
	Messages        []Message `json:"messages,omitempty"`
}

// Message is a distinct error or warning LoadGen logged.
type Message struct {
	Key   string `json:"key"`
	Text  string `json:"text"`
	Count int    `json:"count"`
	Error bool   `json:"error"`
}

// Metrics are LoadGen's figures for the run.
type Metrics struct {
	// Headline is the scenario's official metric, as the summary shows it
	// (nil where LoadGen made no early-stopping estimate: a SingleStream
	// or MultiStream run too short for early stopping).
	Headline *Figure `json:"headline,omitempty"`
	// SamplesPerSecond and TokensPerSecond are the throughputs LoadGen
	// logged (Server: as completed; Offline: over the whole test).
	SamplesPerSecond          *Figure `json:"samples_per_second,omitempty"`
	ScheduledSamplesPerSecond *Figure `json:"scheduled_samples_per_second,omitempty"`
	TokensPerSecond           *Figure `json:"tokens_per_second,omitempty"`
	// QueryCount and OverLatencyQueryCount are LoadGen's query counts.
	QueryCount            *int64 `json:"query_count,omitempty"`
	OverLatencyQueryCount *int64 `json:"overlatency_query_count,omitempty"`
	// Latency is the per-sample latency; QueryLatency the per-query one
	// (MultiStream); TTFT the time to first token; TPOT the time per
	// output token. All in nanoseconds.
	Latency      *Distribution `json:"latency_ns,omitempty"`
	QueryLatency *Distribution `json:"query_latency_ns,omitempty"`
	TTFT         *Distribution `json:"ttft_ns,omitempty"`
	TPOT         *Distribution `json:"tpot_ns,omitempty"`
}

// Figure is one LoadGen number and the detail-log key it came from.
type Figure struct {
	Name  string  `json:"name"`
	Value float64 `json:"value"`
	Unit  string  `json:"unit"`
	Key   string  `json:"key"`
}

// Distribution is a latency distribution as LoadGen logged it.
type Distribution struct {
	Min  *float64 `json:"min,omitempty"`
	Max  *float64 `json:"max,omitempty"`
	Mean *float64 `json:"mean,omitempty"`
	// Percentiles are by LoadGen's label ("50.00", "99.90").
	Percentiles map[string]float64 `json:"percentiles,omitempty"`
}

// Versions are the software versions of the run.
type Versions struct {
	// Harness is mlperf-go's version; LoadGen the release linked in;
	// LoadGenDetail LoadGen's own loadgen_version line; Round the MLPerf
	// round its seeds belong to.
	Harness       string `json:"harness,omitempty"`
	LoadGen       string `json:"loadgen,omitempty"`
	LoadGenDetail string `json:"loadgen_detail,omitempty"`
	Round         string `json:"round,omitempty"`
}

// Engine is what is known of the serving engine.
type Engine struct {
	// Declared and Flags are what the user declared (--engine,
	// --engine-flag), secrets redacted.
	Declared string   `json:"declared,omitempty"`
	Flags    []string `json:"flags,omitempty"`
	// Served is what the endpoints said they are, engine and version
	// (record.Run.EngineServed).
	Served []string `json:"served,omitempty"`
	// Metrics summarise engine_metrics.jsonl per endpoint.
	Metrics []metrics.Summary `json:"metrics,omitempty"`
}

// distributions are the latency distributions and their detail-log keys
// (results.cc, PerformanceSummary::LogDetail).
var distributions = []struct {
	field          func(*Metrics) **Distribution
	min, max, mean string
	percentile     *regexp.Regexp
}{
	{func(m *Metrics) **Distribution { return &m.Latency }, "result_min_latency_ns", "result_max_latency_ns", "result_mean_latency_ns",
		regexp.MustCompile(`^result_([0-9.]+)_percentile_latency_ns$`)},
	{func(m *Metrics) **Distribution { return &m.QueryLatency }, "result_min_query_latency_ns", "result_max_query_latency_ns", "result_mean_query_latency_ns",
		regexp.MustCompile(`^result_([0-9.]+)_percentile_per_query_latency_ns$`)},
	{func(m *Metrics) **Distribution { return &m.TTFT }, "result_first_token_min_latency_ns", "result_first_token_max_latency_ns", "result_first_token_mean_latency_ns",
		regexp.MustCompile(`^result_first_token_([0-9.]+)_percentile_latency_ns$`)},
	{func(m *Metrics) **Distribution { return &m.TPOT }, "result_time_to_output_token_min", "result_time_to_output_token_max", "result_time_to_output_token_mean",
		regexp.MustCompile(`^result_time_per_output_token_([0-9.]+)_percentile_ns$`)},
}

// figures are the throughput figures, each with the keys LoadGen logs it
// under, the first present winning.
var figures = []struct {
	field func(*Metrics) **Figure
	name  string
	unit  string
	keys  []string
}{
	{func(m *Metrics) **Figure { return &m.SamplesPerSecond }, "samples per second", "samples/s",
		[]string{"result_samples_per_second", "result_completed_samples_per_sec", "result_qps_without_loadgen_overhead"}},
	{func(m *Metrics) **Figure { return &m.ScheduledSamplesPerSecond }, "scheduled samples per second", "samples/s",
		[]string{"result_scheduled_samples_per_sec"}},
	{func(m *Metrics) **Figure { return &m.TokensPerSecond }, "tokens per second", "tokens/s",
		[]string{"result_tokens_per_second", "result_completed_tokens_per_second", "result_inferred_tokens_per_second", "result_inferred_completed_tokens_per_second"}},
}

// headlines are each scenario's official metric as the summary prints it
// (the value is at the scenario's loadgen.Scenario.ResultKey).
var headlines = map[loadgen.Scenario]struct{ name, unit string }{
	loadgen.Offline:      {"samples per second", "samples/s"},
	loadgen.Server:       {"completed samples per second", "samples/s"},
	loadgen.SingleStream: {"early-stopping 90th percentile latency", "ns"},
	loadgen.MultiStream:  {"early-stopping 99th percentile latency", "ns"},
}

// requestedOnly are the settings LoadGen logs only with the "requested_"
// prefix (test_settings_internal.cc, LogRequestedTestSettings).
var requestedOnly = []string{"use_token_latencies", "server_ttft_latency", "server_tpot_latency"}

// Build reads a run's output directory and returns its Results. The
// detail log is required; the summary, the run record and the engine
// metrics are used when present.
func Build(dir string) (*Results, error) {
	d, err := mllog.ReadDetail(filepath.Join(dir, mllog.DetailFile), mllog.Strict)
	if err != nil {
		return nil, fmt.Errorf("results: %w", err)
	}
	r := &Results{Schema: Schema, Sources: []string{mllog.DetailFile}, Settings: map[string]any{}}
	if err := r.fromDetail(d); err != nil {
		return nil, fmt.Errorf("results: %w", err)
	}
	summaryPath := filepath.Join(dir, mllog.SummaryFile)
	if sum, err := mllog.ReadSummary(summaryPath); err == nil || errors.Is(err, mllog.ErrNoResult) {
		verdict := sum.Result
		r.Sources = append(r.Sources, mllog.SummaryFile)
		if verdict != "" && r.Outcome.LoadGenValidity != "" && verdict != r.Outcome.LoadGenValidity {
			return nil, fmt.Errorf("results: %s says %q but %s says %q: the two files are not from the same run", summaryPath, verdict, mllog.DetailFile, r.Outcome.LoadGenValidity)
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("results: %w", err)
	}
	if info, err := record.Read(dir); err == nil {
		r.Sources = append(r.Sources, record.File)
		r.fromRunInfo(info)
	} else if _, statErr := os.Stat(filepath.Join(dir, record.File)); statErr == nil {
		return nil, fmt.Errorf("results: %w", err)
	}
	emPath := filepath.Join(dir, metrics.File)
	if scrapes, err := metrics.Read(emPath); err == nil {
		r.Sources = append(r.Sources, metrics.File)
		r.Engine.Metrics = metrics.Summarize(scrapes)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("results: %w", err)
	}
	if r.Run.ScenarioName == "" {
		r.Run.ScenarioName = r.Run.Scenario
	}
	r.decide()
	if err := r.addHarnessLatency(dir); err != nil {
		return nil, err
	}
	r.decideCompliance()
	return r, nil
}

// fromDetail fills what the detail log says. Every value that does not
// parse is an error, all of them joined in the order they are read.
func (r *Results) fromDetail(d *mllog.Detail) error {
	x := &detailReader{d: d}
	r.runFromDetail(x)
	r.Outcome.fromDetail(x)
	r.Metrics.fromDetail(x, r.Run.Scenario)
	r.settingsFromDetail(x)
	if r.Run.Scenario == "" {
		x.errs = append(x.errs, fmt.Errorf("%s has no effective_scenario line: LoadGen did not start the test", d.Path))
	}
	return errors.Join(x.errs...)
}

// detailReader reads typed values from a detail log, collecting the
// errors (nil included, which errors.Join drops) so that fromDetail can
// report every bad line at once.
type detailReader struct {
	d    *mllog.Detail
	errs []error
}

func (x *detailReader) str(key string) string {
	s, _, err := x.d.String(key)
	x.errs = append(x.errs, err)
	return s
}

// boolp is the key's value; nil if absent or bad.
func (x *detailReader) boolp(key string) *bool {
	b, ok, err := x.d.Bool(key)
	x.errs = append(x.errs, err)
	if !ok || err != nil {
		return nil
	}
	return &b
}

// intp is the key's value, truncated to an integer; nil if absent or bad.
func (x *detailReader) intp(key string) *int64 {
	f, ok, err := x.d.Float(key)
	x.errs = append(x.errs, err)
	if !ok || err != nil {
		return nil
	}
	n := int64(f)
	return &n
}

// float is the key's value; ok is false if it is absent or bad.
func (x *detailReader) float(key string) (float64, bool) {
	v, ok, err := x.d.Float(key)
	x.errs = append(x.errs, err)
	return v, ok && err == nil
}

// runFromDetail fills which run this is and the LoadGen version.
func (r *Results) runFromDetail(x *detailReader) {
	r.Run.Scenario = x.str("effective_scenario")
	r.Run.Mode = x.str("effective_test_mode")
	r.Run.TestDatetime = x.str("test_datetime")
	if p := x.intp("qsl_reported_total_count"); p != nil {
		r.Run.QSLTotal = *p
	}
	if p := x.intp("qsl_reported_performance_count"); p != nil {
		r.Run.QSLPerformance = *p
	}
	r.Versions.LoadGenDetail = x.str("loadgen_version")
}

// fromDetail fills LoadGen's verdict, the constraints it checked, its
// early-stopping texts and its error and warning lines.
func (o *Outcome) fromDetail(x *detailReader) {
	o.LoadGenValidity = x.str("result_validity")
	o.PerfConstraintsMet = x.boolp("result_perf_constraints_met")
	o.MinDurationMet = x.boolp("result_min_duration_met")
	o.MinQueriesMet = x.boolp("result_min_queries_met")
	o.EarlyStoppingMet = x.boolp("early_stopping_met")
	for _, k := range []string{"result_invalid_reason", "early_stopping_result", "early_stopping_ttft_result", "early_stopping_tpot_result"} {
		if s := strings.TrimSpace(x.str(k)); s != "" {
			if o.EarlyStopping == nil {
				o.EarlyStopping = map[string]string{}
			}
			o.EarlyStopping[k] = collapseSpaces(s)
		}
	}
	o.countMessages(x.d.Entries)
}

// countMessages counts the error and warning lines and lists their
// distinct texts, in order of first appearance.
func (o *Outcome) countMessages(entries []mllog.Entry) {
	msgs := map[[2]string]int{}
	var order [][2]string
	for _, e := range entries {
		if !e.Metadata.IsError && !e.Metadata.IsWarning {
			continue
		}
		if e.Metadata.IsError {
			o.LoadGenErrors++
		} else {
			o.LoadGenWarnings++
		}
		k := [2]string{e.Key, rawText(e.Value)}
		if _, ok := msgs[k]; !ok {
			order = append(order, k)
		}
		msgs[k]++
	}
	for _, k := range order {
		o.Messages = append(o.Messages, Message{Key: k[0], Text: k[1], Count: msgs[k], Error: strings.HasPrefix(k[0], "error")})
	}
}

// fromDetail fills the throughputs, the scenario's headline, the query
// counts and the latency distributions.
func (m *Metrics) fromDetail(x *detailReader, scenario string) {
	for _, f := range figures {
		for _, key := range f.keys {
			if v, ok := x.float(key); ok {
				*f.field(m) = &Figure{Name: f.name, Value: v, Unit: f.unit, Key: key}
				break
			}
		}
	}
	if sc, err := loadgen.ParseScenario(scenario); err == nil {
		h, key := headlines[sc], sc.ResultKey()
		// A latency of 0 is LoadGen's early-stopping estimate never made
		// (results.cc leaves it 0 when too few queries ran): no metric.
		if v, ok := x.float(key); ok && !(h.unit == "ns" && v == 0) {
			m.Headline = &Figure{Name: h.name, Value: v, Unit: h.unit, Key: key}
		}
	}
	m.QueryCount = x.intp("result_query_count")
	m.OverLatencyQueryCount = x.intp("result_overlatency_query_count")
	for _, spec := range distributions {
		if dist := x.distribution(spec.min, spec.max, spec.mean, spec.percentile); dist != nil {
			*spec.field(m) = dist
		}
	}
}

// distribution reads one latency distribution: its min, max and mean
// keys, and every key percentile matches; nil if none is logged.
func (x *detailReader) distribution(minKey, maxKey, meanKey string, percentile *regexp.Regexp) *Distribution {
	dist := &Distribution{}
	found := false
	for key, dst := range map[string]**float64{minKey: &dist.Min, maxKey: &dist.Max, meanKey: &dist.Mean} {
		if v, ok := x.float(key); ok {
			*dst, found = &v, true
		}
	}
	for _, e := range x.d.Entries {
		sub := percentile.FindStringSubmatch(e.Key)
		if sub == nil {
			continue
		}
		v, _, err := x.d.Float(e.Key)
		if err != nil {
			x.errs = append(x.errs, err)
			continue
		}
		if dist.Percentiles == nil {
			dist.Percentiles = map[string]float64{}
		}
		dist.Percentiles[sub[1]], found = v, true
	}
	if !found {
		return nil
	}
	return dist
}

// settingsFromDetail fills Settings from the effective_* lines, and from
// the requested_* lines of the settings LoadGen logs only as requested.
func (r *Results) settingsFromDetail(x *detailReader) {
	d := x.d
	for _, e := range d.Entries {
		name, ok := strings.CutPrefix(e.Key, "effective_")
		if !ok {
			continue
		}
		if _, dup := r.Settings[name]; dup {
			continue
		}
		var v any
		dec := json.NewDecoder(bytes.NewReader(e.Value))
		dec.UseNumber() // seeds above 2^53 stay exact
		if err := dec.Decode(&v); err != nil {
			x.errs = append(x.errs, fmt.Errorf("%s, line %d: %q: %w", d.Path, e.Line, e.Key, err))
			continue
		}
		r.Settings[name] = v
	}
	// LoadGen logs these settings only as requested, not as effective,
	// though they are used as requested.
	for _, name := range requestedOnly {
		if _, dup := r.Settings[name]; dup {
			continue
		}
		if raw, ok := d.Raw("requested_" + name); ok {
			var v any
			dec := json.NewDecoder(bytes.NewReader(raw))
			dec.UseNumber()
			if dec.Decode(&v) == nil {
				r.Settings[name] = v
			}
		}
	}
}

// fromRunInfo fills what the harness's run record says.
func (r *Results) fromRunInfo(info record.Run) {
	r.Run.Benchmark = info.Benchmark
	r.Run.Kind = info.Kind
	r.Run.ScenarioName = info.SubmissionScenario
	r.Accuracy, r.PairedAccuracy = info.Accuracy, info.PairedAccuracy
	r.Compliance = info.Compliance
	r.Run.Outcome, r.Run.OutcomeReason = info.Outcome, redact.Text(info.OutcomeReason)
	r.Run.Command = redact.Args(info.Command)
	r.Run.Quick = info.Quick
	if !info.Start.IsZero() && !info.End.IsZero() {
		s, e := info.Start, info.End
		r.Run.Start, r.Run.End = &s, &e
		r.Run.DurationSeconds = e.Sub(s).Seconds()
	}
	r.Versions.Harness = info.HarnessVersion
	r.Versions.LoadGen = info.LoadGenVersion
	r.Versions.Round = info.Round
	for _, e := range info.Endpoints {
		r.Endpoints = append(r.Endpoints, redact.URL(e))
	}
	r.API, r.Model = info.API, info.Model
	r.Engine.Declared = info.Engine
	r.Engine.Served = info.EngineServed
	r.Engine.Flags = redact.Args(info.EngineFlags)
	if info.Samples != nil {
		s := *info.Samples
		s.FirstFailures = nil
		for _, f := range info.Samples.FirstFailures {
			f.Message = redact.Text(f.Message)
			s.FirstFailures = append(s.FirstFailures, f)
		}
		r.Samples = &s
	}
}

// accuracyRun reports whether LoadGen ran the test in accuracy mode
// (effective_test_mode), which has no performance verdict.
func (r *Results) accuracyRun() bool { return r.Run.Mode == loadgen.AccuracyOnly.String() }

// decide sets the status and its reasons.
func (r *Results) decide() {
	o := &r.Outcome
	switch {
	case r.accuracyRun():
		o.Status = StatusAccuracy
	case o.LoadGenValidity == "":
		o.Status = StatusIncomplete
		o.Reasons = append(o.Reasons, "the detail log has no result_validity: LoadGen did not finish the test")
	case o.LoadGenValidity == mllog.ResultValid:
		o.Status = StatusValid
	case r.Run.Outcome == record.Aborted:
		// LoadGen calls a run cut short INVALID (min_duration, too few
		// queries) and advises on target QPS: that is what the abort
		// did, not why the run failed, and the abort is said below.
		o.Status = StatusInvalid
	default:
		o.Status = StatusInvalid
		for _, c := range []struct {
			met  *bool
			what string
		}{
			{o.PerfConstraintsMet, "performance constraints (latency bounds) not met"},
			{o.MinDurationMet, "min_duration not met"},
			{o.MinQueriesMet, "min_query_count not met: the test ended before enough queries were issued"},
			{o.EarlyStoppingMet, "early stopping criterion not met"},
		} {
			if c.met != nil && !*c.met {
				o.Reasons = append(o.Reasons, c.what)
			}
		}
		for _, k := range []string{"result_invalid_reason", "early_stopping_result", "early_stopping_ttft_result", "early_stopping_tpot_result"} {
			if s := o.EarlyStopping[k]; s != "" && (k == "result_invalid_reason" || strings.Contains(s, "unsuccessful")) {
				o.Reasons = append(o.Reasons, k+": "+s)
			}
		}
	}
	if s := r.Samples; s != nil && s.Failed > 0 {
		o.Status = StatusFailed
		o.Reasons = append([]string{fmt.Sprintf("%d of %d samples failed (%s)", s.Failed, s.Completed, record.CountsByName(s.FailuresByReason))}, o.Reasons...)
	}
	if a := r.Accuracy; a != nil && !a.Pass {
		o.Reasons = append(o.Reasons, "accuracy FAIL: "+strings.Join(a.Problems, "; "))
	}
	if a := r.Accuracy; a != nil && a.Partial != "" {
		o.Warnings = append(o.Warnings, "not submittable: the accuracy run covers "+a.Partial+", not the whole dataset")
	}
	if p := r.PairedAccuracy; p != nil && p.Partial {
		o.Warnings = append(o.Warnings, "not submittable: the accuracy run made with it ("+p.Dir+") covers part of the dataset")
	} else if p != nil && !p.Pass {
		o.Warnings = append(o.Warnings, "not submittable: the accuracy run made with it ("+p.Dir+") missed its targets")
	}
	if r.Run.Outcome == record.Aborted {
		o.Status = StatusAborted
		o.Reasons = append([]string{"the test was aborted: " + r.Run.OutcomeReason}, o.Reasons...)
	}
	if o.LoadGenErrors > 0 {
		o.Warnings = append(o.Warnings, fmt.Sprintf("LoadGen logged %d error(s) in %s", o.LoadGenErrors, mllog.DetailFile))
	}
	for _, e := range r.Engine.Metrics {
		for _, w := range e.Warnings {
			o.Warnings = append(o.Warnings, e.Endpoint+": "+w)
		}
	}
}

// Write writes r as indented JSON to dir/record.ResultsFile.
func Write(dir string, r *Results) error {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return fmt.Errorf("results: encoding: %w", err)
	}
	if err := atomicfile.Write(filepath.Join(dir, record.ResultsFile), append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("results: %w", err)
	}
	return nil
}

// Read reads dir/record.ResultsFile, checking its schema.
func Read(dir string) (*Results, error) {
	path := filepath.Join(dir, record.ResultsFile)
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var r Results
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("results: %s: %w", path, err)
	}
	if r.Schema != Schema {
		return nil, fmt.Errorf("results: %s has schema %q, want %q: rebuild it with `mlperf-go report %s`", path, r.Schema, Schema, dir)
	}
	return &r, nil
}

func rawText(v json.RawMessage) string {
	var s string
	if json.Unmarshal(v, &s) == nil {
		return s
	}
	return string(v)
}

func collapseSpaces(s string) string { return strings.Join(strings.Fields(s), " ") }
