package submission

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mlperf-go/mlperf-go/submission/internal/logtest"
)

func TestIngestEvaluatorOutput(t *testing.T) {
	tests := []struct {
		name, bench, round, in, want, err string
	}{
		{name: "llama numpy 2 repr repaired", bench: "llama3_1-8b",
			in:   "\nResults\n\n{'rouge1': '38.9', 'rouge2': '16.1', 'rougeL': '24.6', 'rougeLsum': '35.9', 'gen_len': np.int64(8167644), 'gen_num': 13368}",
			want: "\nResults\n\n{'rouge1': '38.9', 'rouge2': '16.1', 'rougeL': '24.6', 'rougeLsum': '35.9', 'gen_len': 8167644, 'gen_num': 13368}\n"},
		{name: "gpt-oss", bench: "gpt-oss-120b", in: "Total samples evaluated: 4395\n\nPrinting for submission_checker:\n\n'exact_match': 83.500\n",
			want: "Total samples evaluated: 4395\n\nPrinting for submission_checker:\n\n'exact_match': 83.500\n"},
		{name: "qwen", bench: "qwen3-vl-235b-a22b", in: "{\"f1\": 0.7912}\n", want: "{\"f1\": 0.7912}\n"},
		{name: "llama without gen_len", bench: "llama3.1-8b", in: "{'rouge1': '38.9', 'rouge2': '16.1', 'rougeL': '24.6', 'rougeLsum': '35.9'}\n", err: "GEN_LEN"},
		{name: "gpt-oss with double quotes", bench: "gpt-oss-120b", in: "{\"exact_match\": 83.5}\n", err: "exact_match"},
		{name: "qwen with single quotes", bench: "qwen3-vl-235b-a22b", in: "{'f1': 0.79}\n", err: "F1_HIERARCHICAL"},
		{name: "hash already there", bench: "gpt-oss-120b", in: "'exact_match': 83.5\nhash=abc\n", err: "hash="},
		{name: "empty", bench: "gpt-oss-120b", in: "\n", err: "empty"},
		{name: "not a number", bench: "gpt-oss-120b", in: "'exact_match': 8.3.5\n", err: "not a number"},
		{name: "unknown benchmark", bench: "resnet", in: "x", err: "unknown benchmark"},
		{name: "v6.0's llama2-70b-99", bench: "llama2-70b-99", round: "v6.0",
			in:   "\nResults\n\n{'rouge1': 44.4, 'rouge2': 22.0, 'rougeL': 28.6, 'rougeLsum': 42.0, 'gen_len': 821945, 'gen_num': 24576, 'gen_tok_len': 7236700, 'tokens_per_sample': 294.5}\n",
			want: "\nResults\n\n{'rouge1': 44.4, 'rouge2': 22.0, 'rougeL': 28.6, 'rougeLsum': 42.0, 'gen_len': 821945, 'gen_num': 24576, 'gen_tok_len': 7236700, 'tokens_per_sample': 294.5}\n"},
		{name: "llama2-70b-99 is not in v6.1", bench: "llama2-70b-99", in: "{'rouge1': 44.4}\n", err: "not a benchmark of round v6.1"},
		{name: "unknown round", bench: "gpt-oss-120b", round: "v5.0", in: "'exact_match': 83.5\n", err: "unknown round"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := IngestEvaluatorOutput(tc.bench, tc.round, []byte(tc.in))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestSystemTemplate(t *testing.T) {
	dir := t.TempDir()
	logtest.MustWrite(t, filepath.Join(dir, "cpuinfo"), "processor\t: 0\nmodel name\t: AMD EPYC 9654 96-Core Processor\nphysical id\t: 0\ncpu cores\t: 96\ncache size\t: 1024 KB\n\nprocessor\t: 1\nmodel name\t: AMD EPYC 9654 96-Core Processor\nphysical id\t: 1\ncpu cores\t: 96\n")
	logtest.MustWrite(t, filepath.Join(dir, "meminfo"), "MemTotal:       1584876544 kB\nMemFree: 1 kB\n")
	logtest.MustWrite(t, filepath.Join(dir, "os-release"), "NAME=\"Ubuntu\"\nPRETTY_NAME=\"Ubuntu 24.04.1 LTS\"\n")
	b, err := systemTemplate(readHostFacts(filepath.Join(dir, "cpuinfo"), filepath.Join(dir, "meminfo"), filepath.Join(dir, "os-release")))
	if err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("template is not JSON: %v\n%s", err, b)
	}
	if len(v) != 35 {
		t.Errorf("template has %d fields, want 35", len(v))
	}
	for k, want := range map[string]any{
		"host_processor_model_name": "AMD EPYC 9654 96-Core Processor", "host_processors_per_node": "2",
		"host_processor_core_count": "96", "host_memory_capacity": "1511 GB", // 1584876544 kB / 2^20 = 1511.46
		"operating_system": "Ubuntu 24.04.1 LTS", "number_of_nodes": 1.0, "system_type": "datacenter",
		"host_processor_caches": "1024 KB",
	} {
		if v[k] != want {
			t.Errorf("%s = %v, want %v", k, v[k], want)
		}
	}
	// Keys in the checker's order.
	if !bytes.HasPrefix(b, []byte("{\n    \"division\": ")) || !bytes.HasSuffix(b, []byte("    \"system_type_detail\": \"\"\n}\n")) {
		t.Errorf("template layout:\n%s", b)
	}
	// Unfilled, it fails validation; every placeholder is named.
	bad := ValidateSystem(b, "closed", "Org")
	placeholders := 0
	for _, msg := range bad {
		if strings.Contains(msg, "template placeholder") {
			placeholders++
		}
	}
	if placeholders == 0 || placeholders != strings.Count(string(b), `"TODO`) {
		t.Errorf("%d placeholder problems for %d placeholders:\n%s", placeholders, strings.Count(string(b), `"TODO`), strings.Join(bad, "\n"))
	}
	// Filled in, it passes.
	for k, val := range v {
		if s, ok := val.(string); ok && strings.HasPrefix(s, "TODO") {
			v[k] = "filled"
		}
	}
	v["division"], v["submitter"], v["status"], v["accelerators_per_node"] = "closed", "Org", "available", 8
	filled, _ := json.Marshal(v)
	if bad := ValidateSystem(filled, "closed", "Org"); len(bad) != 0 {
		t.Errorf("filled template invalid: %v", bad)
	}
	// The real machine's template is at least well-formed and unfilled.
	real, err := SystemTemplate()
	if err != nil || !json.Valid(real) || len(ValidateSystem(real, "", "")) == 0 {
		t.Errorf("SystemTemplate: err=%v valid=%v", err, json.Valid(real))
	}
}

func TestMeasurementsTemplate(t *testing.T) {
	for _, bench := range []string{"llama3_1-8b", "gpt-oss-120b", "qwen3-vl-235b-a22b"} {
		b, err := MeasurementsTemplate(bench)
		if err != nil {
			t.Fatal(err)
		}
		bad := ValidateMeasurements(b)
		if len(bad) != 3 {
			t.Errorf("%s: unfilled template gives %d problems, want 3 placeholders: %v", bench, len(bad), bad)
		}
	}
	if _, err := MeasurementsTemplate("resnet"); err == nil {
		t.Error("unknown benchmark accepted")
	}
}
