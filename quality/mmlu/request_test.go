package mmlu

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mlperf-go/mlperf-go/quality/ask"
	"github.com/mlperf-go/mlperf-go/run"
	"github.com/mlperf-go/mlperf-go/sut"
)

// TestRequestErrors: a bad setting is refused before any request, by an
// error naming the flag and what to do (and never repeating an endpoint's
// credentials).
func TestRequestErrors(t *testing.T) {
	t.Parallel()
	full := t.TempDir()
	os.WriteFile(filepath.Join(full, "x"), nil, 0o644)
	base := func() Request {
		return Request{Dataset: "testdata/mmlu", Shots: 5, API: string(ask.Chat), Endpoints: []string{"http://127.0.0.1:9"},
			Concurrency: ask.DefaultConcurrency, OutputDir: filepath.Join(t.TempDir(), "o"),
			Resilience: run.Resilience{Retries: sut.DefaultRetries, MaxResponseBytes: sut.DefaultMaxResponseBytes,
				MaxBufferedBytes: sut.DefaultMaxBufferedBytes, MaxFailures: sut.DefaultMaxFailures}}
	}
	given := func(name string) func(string) bool { return func(f string) bool { return f == name } }
	zero, big := 0, 1000000000
	for _, c := range []struct {
		edit func(*Request)
		want []string
	}{
		{func(r *Request) { r.Shots = 6 }, []string{"--shots 6", "0 to 5"}},
		{func(r *Request) { r.Shots = -1 }, []string{"--shots -1", "0 to 5"}},
		{func(r *Request) { r.SubsetGiven = true }, []string{"--subset 0", "positive", "leave the flag out"}},
		{func(r *Request) { r.API = "grpc" }, []string{"--api", `"grpc"`, "use chat", "completions"}},
		{func(r *Request) { r.MaxTokens = &zero }, []string{"--max-tokens 0", "positive"}},
		{func(r *Request) { r.Temperature = -1 }, []string{"--temperature -1", "0 (greedy) or more"}},
		{func(r *Request) { r.Concurrency, r.Given = 0, given("concurrency") }, []string{"--concurrency 0", "positive"}},
		{func(r *Request) { r.Concurrency = big }, []string{"--concurrency", "out of range"}},
		{func(r *Request) { r.Given = given("timeout") }, []string{"--timeout 0s", "positive duration"}},
		{func(r *Request) { r.Resilience.Retries = -1 }, []string{"--retries -1", "0 (no retries) or more"}},
		{func(r *Request) { r.Resilience.MaxFailures = "200%" }, []string{"--max-failures", "percentage"}},
		{func(r *Request) { r.Endpoints = []string{"ftp://host"} }, []string{"--endpoint", "http:// or https://"}},
		{func(r *Request) { r.Endpoints = []string{"http://user:pw@host"} }, []string{"--endpoint", "credentials"}},
		{func(r *Request) { r.OutputDir = full }, []string{"--output-dir", "already holds files", "--overwrite"}},
		{func(r *Request) { r.APIKeyFile = filepath.Join(full, "x") }, []string{"--api-key-file", "is empty"}},
	} {
		r := base()
		c.edit(&r)
		_, err := r.Options()
		if err == nil {
			t.Errorf("%+v: accepted", r)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%v\nwant it to say %q", err, w)
			}
		}
		if strings.Contains(err.Error(), "pw@") {
			t.Errorf("the error repeats the credentials: %v", err)
		}
	}
	r := base()
	r.OutputDir, r.RunsDir = "", t.TempDir()
	if o, err := r.Options(); err != nil || filepath.Dir(o.OutputDir) != filepath.Join(r.RunsDir, "eval", "mmlu") || *o.Ask.Temperature != 0 {
		t.Errorf("defaults: output %s, %v", o.OutputDir, err)
	}
}
