package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/mlperf-go/mlperf-go/quality/mmlu"
)

// mmluTestData is the small cais/mmlu-shaped data set quality/mmlu's
// golden files were made from (31 questions of 6 subjects, 5 dev each).
const mmluTestData = "../../quality/mmlu/testdata/mmlu"

// mmluServer serves one model and answers every chat question with reply,
// except that questions containing failOn get a 500; it keeps the models
// requests named.
type mmluServer struct {
	reply, failOn string
	mu            sync.Mutex
	models        map[string]int
}

func (s *mmluServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/health":
		return
	case "/v1/models":
		fmt.Fprint(w, `{"data":[{"id":"served-m"}]}`)
		return
	case "/v1/chat/completions":
	default:
		http.NotFound(w, r)
		return
	}
	var req struct {
		Model    string
		Messages []struct{ Content string }
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || len(req.Messages) != 1 {
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	s.models[req.Model]++
	s.mu.Unlock()
	if s.failOn != "" && strings.Contains(req.Messages[0].Content, s.failOn) {
		http.Error(w, "scripted", http.StatusInternalServerError)
		return
	}
	fmt.Fprintf(w, `{"choices":[{"message":{"content":%q}}],"usage":{"completion_tokens":1}}`, s.reply)
}

func startMMLUServer(t *testing.T, reply, failOn string) (*mmluServer, string) {
	t.Helper()
	s := &mmluServer{reply: reply, failOn: failOn, models: map[string]int{}}
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	return s, srv.URL
}

// TestEvalMMLU runs `eval mmlu` end to end: the model is the one the
// server lists, every question is asked 5-shot, the accuracy is the share
// of questions whose answer is A (the server always says A), and the
// three files are written.
func TestEvalMMLU(t *testing.T) {
	srv, url := startMMLUServer(t, "A", "")
	out := filepath.Join(t.TempDir(), "mmlu")
	const secret = "S3cretQ" // a gateway key in the query: sent, never written
	stdout, err := runCLI(t, "eval", "mmlu", "-d", mmluTestData, "-e", url+"/v1?api_key="+secret, "-o", out, "--progress-interval", "0")
	if err != nil {
		t.Fatalf("eval mmlu: %v\n%s", err, stdout)
	}
	d, err := mmlu.Open(mmluTestData, "")
	if err != nil {
		t.Fatal(err)
	}
	a := 0
	for _, q := range d.Test {
		if q.Answer == 0 {
			a++
		}
	}
	want := fmt.Sprintf("=== MMLU accuracy: %.2f%% (%d/%d) ===", 100*float64(a)/float64(len(d.Test)), a, len(d.Test))
	if !strings.Contains(stdout, want) || !strings.Contains(stdout, "5-shot, served-m via chat") {
		t.Errorf("output lacks %q:\n%s", want, stdout)
	}
	if srv.models["served-m"] != len(d.Test) || len(srv.models) != 1 {
		t.Errorf("requests named models %v, want served-m %d times", srv.models, len(d.Test))
	}
	for _, f := range []string{mmlu.SamplesFile, mmlu.ResultsFile, mmlu.ReportFile} {
		b, err := os.ReadFile(filepath.Join(out, f))
		if err != nil || len(b) == 0 || strings.Contains(string(b), secret) {
			t.Errorf("%s: %v, or it holds the key", f, err)
		}
	}
	if strings.Contains(stdout, secret) {
		t.Errorf("the console shows the key:\n%s", stdout)
	}
	// A subset of two subjects, and a failed request: exit 1, files written.
	_, url = startMMLUServer(t, "B", "about sociology")
	out2 := filepath.Join(t.TempDir(), "subset")
	stdout, err = runCLI(t, "eval", "mmlu", "-d", mmluTestData, "-e", url, "-o", out2, "--progress-interval", "0",
		"--subset", "6", "--seed", "3", "--subjects", "sociology,anatomy", "--shots", "0", "--model", "served-m", "--retries", "0")
	if exitCode(err) != 1 || !strings.Contains(err.Error(), "3 of 6 requests failed") {
		t.Errorf("a failed request: exit %d, %v\n%s", exitCode(err), err, stdout)
	}
	b, err := os.ReadFile(filepath.Join(out2, mmlu.ResultsFile))
	if err != nil {
		t.Fatal(err)
	}
	var res mmlu.Results
	if err := json.Unmarshal(b, &res); err != nil {
		t.Fatal(err)
	}
	if res.Overall.Total != 6 || len(res.Subjects) != 2 || res.Shots != 0 || len(res.FailedRefs) != 3 || res.FailedRefs[0].Subject != "sociology" || res.Subjects[0].Failed != 3 {
		t.Errorf("subset results: %+v", res)
	}
}

// TestEvalMMLUNoneParsed: an endpoint whose every answer chooses no letter
// (a sentence, as the fake gave before it knew MMLU) fails the run, exit 1,
// instead of reporting 0% as a score.
func TestEvalMMLUNoneParsed(t *testing.T) {
	_, url := startMMLUServer(t, "The fake endpoint has no answer for this request.", "")
	stdout, err := runCLI(t, "eval", "mmlu", "-d", mmluTestData, "-e", url, "-o", filepath.Join(t.TempDir(), "o"), "--progress-interval", "0", "--shots", "0")
	if exitCode(err) != 1 || !strings.Contains(err.Error(), "no answer chose a letter") {
		t.Errorf("every answer unparseable: exit %d, %v, want 1 and why\n%s", exitCode(err), err, stdout)
	}
}

// TestEvalMMLUFlagErrors: a bad flag is refused before any request, by an
// error naming the flag and what to do.
func TestEvalMMLUFlagErrors(t *testing.T) {
	full := t.TempDir()
	base := []string{"eval", "mmlu", "-d", mmluTestData, "-e", "http://127.0.0.1:9", "--progress-interval", "0", "-o", filepath.Join(t.TempDir(), "o")}
	for _, c := range []struct {
		args []string
		want []string
	}{
		// The checks themselves are mmlu.Request's (TestRequestErrors):
		// these show the flags reach them, and what needs the command.
		{[]string{"--shots", "6"}, []string{"--shots 6", "0 to 5"}},
		{[]string{"--subset", "0"}, []string{"--subset 0", "positive", "leave the flag out"}},
		{[]string{"-c", "0"}, []string{"--concurrency 0", "positive"}},
		{[]string{"--timeout", "0s"}, []string{"--timeout 0s", "positive duration"}},
		{[]string{"-e", "http://user:pw@host"}, []string{"--endpoint", "credentials"}},
		{[]string{"--skip-preflight"}, []string{"--model", "--skip-preflight"}},
		{[]string{"--model", "m", "-d", filepath.Join(full, "none")}, []string{"no such file", "cais/mmlu"}},
	} {
		out, err := runCLI(t, append(append([]string{}, base...), c.args...)...)
		if err == nil {
			t.Errorf("%v: accepted\n%s", c.args, out)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%v: %v\nwant it to say %q", c.args, err, w)
			}
		}
		if strings.Contains(err.Error(), "pw@") {
			t.Errorf("%v: the error repeats the credentials: %v", c.args, err)
		}
	}
}
