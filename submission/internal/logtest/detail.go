package logtest

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/internal/round"
	"github.com/mlperf-go/mlperf-go/loadgen/mllog"
)

// KV is one detail-log message; Value is any JSON-encodable Go value, or
// RawJSON for numbers that must keep all their digits (uint64 seeds).
type KV struct {
	Key   string
	Value any
}

// RawJSON is a detail-log value written as is (not JSON-encoded).
type RawJSON string

// MLLogLine renders one message the way LoadGen 6.0.17 does
// (loadgen/logging.h AsyncLog::LogDetail, new logging format).
func MLLogLine(key string, value any, isError, isWarning bool) string {
	var v string
	switch x := value.(type) {
	case RawJSON:
		v = string(x)
	default:
		b, err := json.Marshal(x)
		if err != nil {
			panic(err)
		}
		v = string(b)
	}
	return fmt.Sprintf(`:::MLLOG {"key": %q, "value": %s, "time_ms": 0.012345, "namespace": "mlperf::logging", "event_type": "POINT_IN_TIME", "metadata": {"is_error": %t, "is_warning": %t, "file": "test_settings_internal.cc", "line_no": 428, "pid": 100, "tid": 100}}`,
		key, v, isError, isWarning)
}

// DetailFixture holds the messages of a detail log, keyed for easy mutation.
type DetailFixture struct {
	// Values are the messages by key; Order is the order they are written in.
	Values map[string]any
	Order  []string
	// Errors are the values of error messages (written last).
	Errors []string
	// Warnings are the values of warning_generic_message messages (written
	// first).
	Warnings []string
}

// Set sets message key to v, appending it to the order if it is new.
func (d *DetailFixture) Set(key string, v any) {
	if _, ok := d.Values[key]; !ok {
		d.Order = append(d.Order, key)
	}
	d.Values[key] = v
}

// Del removes message key from the log.
func (d *DetailFixture) Del(key string) { delete(d.Values, key) }

// Render returns the detail log's text: LoadGen's version line, the
// warnings, the messages in order, the errors.
func (d *DetailFixture) Render() string {
	var b strings.Builder
	b.WriteString(MLLogLine("loadgen_version", "6.0.17 @ 8e1fa4b9d1", false, false) + "\n")
	for _, w := range d.Warnings {
		b.WriteString(MLLogLine("warning_generic_message", w, false, true) + "\n")
	}
	for _, k := range d.Order {
		v, ok := d.Values[k]
		if !ok {
			continue
		}
		b.WriteString(MLLogLine(k, v, false, false) + "\n")
	}
	for _, e := range d.Errors {
		b.WriteString(MLLogLine("error_runtime", e, true, false) + "\n")
	}
	return b.String()
}

// AuditWarning is the warning LoadGen logs when it finds an audit.config
// in its working directory (a compliance run).
const AuditWarning = "Found Audit Config file (audit.config). Overriding TestSettings from audit.config file."

// SeedsFor returns the effective seed messages LoadGen's mlperf.conf applies
// in a round (values from constants.py MODEL_CONFIG[round]["seeds"]).
func SeedsFor(name string) []KV {
	switch name {
	case round.V60:
		return []KV{{"effective_qsl_rng_seed", RawJSON("2465351861681999779")}, {"effective_sample_index_rng_seed", RawJSON("14276810075590677512")}, {"effective_schedule_rng_seed", RawJSON("3936089224930324775")}}
	default:
		return []KV{{"effective_qsl_rng_seed", RawJSON("2085463073848966840")}, {"effective_sample_index_rng_seed", RawJSON("2747215439041700203")}, {"effective_schedule_rng_seed", RawJSON("16159082839903944936")}}
	}
}

// counts are a benchmark's sample counts as LoadGen logs them in a full
// run; llm marks the checker's LLMs (token latencies).
type counts struct {
	total, perf, acc int
	llm              bool
}

// sampleCounts reads bench's counts (a submission directory name) in a
// round and scenario directory from the registry: the QSL's total is the dataset's size, the
// performance and accuracy sample counts are the round's rules (the
// checker's), and the LLMs are the benchmarks answered in token IDs.
func sampleCounts(round, bench, scen string) counts {
	b, err := benchmark.Lookup(bench)
	if err != nil {
		panic(err)
	}
	rules := b.Submission.Rounds[round]
	if rules == nil {
		for _, r := range b.Submission.Rounds {
			rules = r
		}
	}
	acc, ok := rules.AccuracySampleCount[scen]
	if !ok {
		acc = rules.AccuracySampleCount[""]
	}
	return counts{total: b.Data.Size, perf: int(rules.PerformanceSampleCount), acc: int(acc), llm: b.Serving.Output == benchmark.TokenIDs}
}

// PerfDetail builds a valid performance-run detail log for a benchmark and
// scenario directory, with the keys the checker's PerformanceCheck reads;
// testMode is its effective_test_mode (PerformanceOnly or AccuracyOnly).
func PerfDetail(round, bench, scen string, testMode string) *DetailFixture {
	d := &DetailFixture{Values: map[string]any{}}
	logged := scen
	if scen == "Interactive" {
		logged = "Server"
	}
	n := sampleCounts(round, bench, scen)
	d.Set("sut_name", "mlperf-go")
	d.Set("qsl_reported_total_count", n.total)
	d.Set("effective_scenario", logged)
	d.Set("effective_test_mode", testMode)
	spq := 1
	if logged == "Offline" {
		spq = n.perf
	}
	d.Set("effective_samples_per_query", spq)
	d.Set("effective_target_latency_ns", 0)
	if bench == "qwen3-vl-235b-a22b" && logged == "Server" {
		d.Set("effective_target_latency_ns", int64(1000000000))
	}
	d.Set("effective_min_duration_ms", 600000)
	d.Set("effective_min_query_count", 100)
	d.Set("effective_performance_sample_count", n.perf)
	d.Set("effective_accuracy_sample_count", n.acc)
	for _, s := range SeedsFor(round) {
		d.Set(s.Key, s.Value)
	}
	d.Set("effective_sample_concatenate_permutation", true)
	if n.llm {
		d.Set("requested_use_token_latencies", true)
	}
	d.Set("result_validity", mllog.ResultValid)
	d.Set("early_stopping_met", true)
	d.Set("result_99.00_percentile_latency_ns", int64(900000000))
	// LoadGen logs the sample rates for every benchmark (results.cc), the
	// token rates on top for LLMs.
	if logged == "Offline" {
		d.Set("result_samples_per_second", 12.5)
	} else {
		d.Set("result_completed_samples_per_sec", 11.5)
	}
	if n.llm {
		d.Set("result_tokens_per_second", 9000.5)
		d.Set("result_completed_tokens_per_second", 8000.5)
		d.Set("result_first_token_99.00_percentile_latency_ns", int64(100000000))
		d.Set("result_time_per_output_token_99.00_percentile_ns", int64(10000000))
	}
	// The last key LoadGen logs once a performance test is over
	// (results.cc); a log without it was cut.
	d.Set("num_errors", 0)
	return d
}

// ValidSummary is a performance summary saying "Result is : VALID".
const ValidSummary = "================================================\nMLPerf Results Summary\n================================================\nSUT name : mlperf-go\nScenario : Offline\nMode     : PerformanceOnly\nResult is : VALID\n"

// WriteLogDir writes a LoadGen output directory: summary, detail and, when
// accLog is not empty, the accuracy log.
func WriteLogDir(t testing.TB, dir string, d *DetailFixture, summary, accLog string) {
	t.Helper()
	MustWrite(t, filepath.Join(dir, mllog.DetailFile), d.Render())
	MustWrite(t, filepath.Join(dir, mllog.SummaryFile), summary)
	if accLog != "" {
		MustWrite(t, filepath.Join(dir, mllog.AccuracyFile), accLog)
	}
}
