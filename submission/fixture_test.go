package submission

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// kv is one detail-log message; value is any JSON-encodable Go value, or
// rawJSON for numbers that must keep all their digits (uint64 seeds).
type kv struct {
	key   string
	value any
}

type rawJSON string

// mllogLine renders one message the way LoadGen 6.0.17 does
// (loadgen/logging.h AsyncLog::LogDetail, new logging format).
func mllogLine(key string, value any, isError, isWarning bool) string {
	var v string
	switch x := value.(type) {
	case rawJSON:
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

// detailFixture holds the messages of a detail log, keyed for easy mutation.
type detailFixture struct {
	values   map[string]any
	order    []string
	errors   []string // values of error messages
	warnings []string // values of warning_generic_message messages
}

func (d *detailFixture) set(key string, v any) {
	if _, ok := d.values[key]; !ok {
		d.order = append(d.order, key)
	}
	d.values[key] = v
}

func (d *detailFixture) del(key string) { delete(d.values, key) }

func (d *detailFixture) render() string {
	var b strings.Builder
	b.WriteString(mllogLine("loadgen_version", "6.0.17 @ 8e1fa4b9d1", false, false) + "\n")
	for _, w := range d.warnings {
		b.WriteString(mllogLine("warning_generic_message", w, false, true) + "\n")
	}
	for _, k := range d.order {
		v, ok := d.values[k]
		if !ok {
			continue
		}
		b.WriteString(mllogLine(k, v, false, false) + "\n")
	}
	for _, e := range d.errors {
		b.WriteString(mllogLine("error_runtime", e, true, false) + "\n")
	}
	return b.String()
}

// seedsFor returns the effective seed messages LoadGen's mlperf.conf applies
// in a round (values from constants.py MODEL_CONFIG[round]["seeds"]).
func seedsFor(round string) []kv {
	switch round {
	case "v6.0":
		return []kv{{"effective_qsl_rng_seed", rawJSON("2465351861681999779")}, {"effective_sample_index_rng_seed", rawJSON("14276810075590677512")}, {"effective_schedule_rng_seed", rawJSON("3936089224930324775")}}
	default:
		return []kv{{"effective_qsl_rng_seed", rawJSON("2085463073848966840")}, {"effective_sample_index_rng_seed", rawJSON("2747215439041700203")}, {"effective_schedule_rng_seed", rawJSON("16159082839903944936")}}
	}
}

// perfDetail builds a valid performance-run detail log for a benchmark and
// scenario directory, with the keys the checker's PerformanceCheck reads.
func perfDetail(round, bench, scen string, testMode string) *detailFixture {
	d := &detailFixture{values: map[string]any{}}
	logged := scen
	if scen == "Interactive" {
		logged = "Server"
	}
	d.set("sut_name", "mlperf-go")
	d.set("qsl_reported_total_count", map[string]int{"llama3.1-8b": 13368, "gpt-oss-120b": 6396, "qwen3-vl-235b-a22b": 48289}[bench])
	d.set("effective_scenario", logged)
	d.set("effective_test_mode", testMode)
	spq := 1
	if logged == "Offline" {
		spq = map[string]int{"llama3.1-8b": 13368, "gpt-oss-120b": 6396, "qwen3-vl-235b-a22b": 48289}[bench]
	}
	d.set("effective_samples_per_query", spq)
	d.set("effective_target_latency_ns", 0)
	if bench == "qwen3-vl-235b-a22b" && logged == "Server" {
		d.set("effective_target_latency_ns", int64(1000000000))
	}
	d.set("effective_min_duration_ms", 600000)
	d.set("effective_min_query_count", 100)
	d.set("effective_performance_sample_count", map[string]int{"llama3.1-8b": 13368, "gpt-oss-120b": 6396, "qwen3-vl-235b-a22b": 48289}[bench])
	d.set("effective_accuracy_sample_count", map[string]int{"llama3.1-8b": 13368, "gpt-oss-120b": 4395, "qwen3-vl-235b-a22b": 48289}[bench])
	for _, s := range seedsFor(round) {
		d.set(s.key, s.value)
	}
	d.set("effective_sample_concatenate_permutation", true)
	if bench != "qwen3-vl-235b-a22b" {
		d.set("requested_use_token_latencies", true)
	}
	d.set("result_validity", "VALID")
	d.set("early_stopping_met", true)
	d.set("result_99.00_percentile_latency_ns", int64(900000000))
	// LoadGen logs the sample rates for every benchmark (results.cc), the
	// token rates on top for LLMs.
	if logged == "Offline" {
		d.set("result_samples_per_second", 12.5)
	} else {
		d.set("result_completed_samples_per_sec", 11.5)
	}
	if bench != "qwen3-vl-235b-a22b" {
		d.set("result_tokens_per_second", 9000.5)
		d.set("result_completed_tokens_per_second", 8000.5)
		d.set("result_first_token_99.00_percentile_latency_ns", int64(100000000))
		d.set("result_time_per_output_token_99.00_percentile_ns", int64(10000000))
	}
	return d
}

const validSummary = "================================================\nMLPerf Results Summary\n================================================\nSUT name : mlperf-go\nScenario : Offline\nMode     : PerformanceOnly\nResult is : VALID\n"

// writeLogDir writes a LoadGen output directory: summary, detail, accuracy log.
func writeLogDir(t *testing.T, dir string, d *detailFixture, summary, accLog string) {
	t.Helper()
	mustWrite(t, filepath.Join(dir, "mlperf_log_detail.txt"), d.render())
	mustWrite(t, filepath.Join(dir, "mlperf_log_summary.txt"), summary)
	if accLog != "" {
		mustWrite(t, filepath.Join(dir, "mlperf_log_accuracy.json"), accLog)
	}
}

func mustWrite(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func mustRead(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// listTree returns every file under root, slash-separated and sorted.
func listTree(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	err := filepath.Walk(root, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		if !info.IsDir() {
			rel, _ := filepath.Rel(root, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	return out
}
