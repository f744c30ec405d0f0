package mmlu

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/mlperf-go/mlperf-go/fake"
	"github.com/mlperf-go/mlperf-go/fake/faketest"
	"github.com/mlperf-go/mlperf-go/quality/ask"
	"github.com/mlperf-go/mlperf-go/sut"
)

// script is what the test server answers to each question: a reply, or
// an HTTP status (always, or once before replying).
type script struct {
	reply      string
	status     int
	statusOnce bool
}

// evalQuestions are the test split: id, subject, right answer, and what
// the server says. By category: STEM (abstract_algebra) 2 of 4 right, one
// unparseable; other (anatomy) 2 of 3, one failed request; social
// sciences (sociology) 2 of 3, one after a 503; humanities (philosophy)
// 1 of 2. Overall 7 of 12.
var evalQuestions = []struct {
	id, subject string
	answer      int64
	script
}{
	{"Q-aa0", "abstract_algebra", 0, script{reply: "A"}},
	{"Q-aa1", "abstract_algebra", 1, script{reply: "The answer is B."}},
	{"Q-aa2", "abstract_algebra", 2, script{reply: "D"}},
	{"Q-aa3", "abstract_algebra", 3, script{reply: "I am not sure."}},
	{"Q-an0", "anatomy", 1, script{reply: "B"}},
	{"Q-an1", "anatomy", 1, script{status: http.StatusInternalServerError}},
	{"Q-an2", "anatomy", 1, script{reply: "**B**"}},
	{"Q-ph0", "philosophy", 0, script{reply: "<think>maybe B</think>A"}},
	{"Q-ph1", "philosophy", 0, script{reply: "C"}},
	{"Q-so0", "sociology", 3, script{reply: "D. zzz"}},
	{"Q-so1", "sociology", 0, script{reply: "A", status: http.StatusServiceUnavailable, statusOnce: true}},
	{"Q-so2", "sociology", 2, script{reply: "B"}},
}

// evalData writes the test split above and five dev questions per subject.
func evalData(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "all")
	var rows []pqRow
	for _, q := range evalQuestions {
		rows = append(rows, row(q.subject, q.id, q.answer))
	}
	writeShard(t, dir, "test-00000-of-00001.parquet", rows)
	writeShard(t, dir, "dev-00000-of-00001.parquet", devRows(5, "abstract_algebra", "anatomy", "philosophy", "sociology"))
	return filepath.Dir(dir)
}

// scriptServer answers chat and text completions by evalQuestions, wants
// the bearer key, and keeps every prompt it was sent.
type scriptServer struct {
	t       *testing.T
	key     string
	mu      sync.Mutex
	prompts map[string]string // question id → prompt
	bodies  []map[string]any
	failed  map[string]bool // statusOnce already sent
}

func (s *scriptServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Header.Get("Authorization") != "Bearer "+s.key {
		http.Error(w, "no key", http.StatusUnauthorized)
		return
	}
	var body map[string]any
	raw, _ := io.ReadAll(r.Body)
	if err := json.Unmarshal(raw, &body); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	var prompt string
	switch r.URL.Path {
	case "/v1/chat/completions":
		prompt = body["messages"].([]any)[0].(map[string]any)["content"].(string)
	case "/v1/completions":
		prompt = body["prompt"].(string)
	default:
		http.NotFound(w, r)
		return
	}
	for _, q := range evalQuestions {
		if !strings.Contains(prompt, q.id+"\n") {
			continue
		}
		s.mu.Lock()
		s.prompts[q.id], s.bodies = prompt, append(s.bodies, body)
		once := q.statusOnce && !s.failed[q.id]
		s.failed[q.id] = s.failed[q.id] || once
		s.mu.Unlock()
		if q.status != 0 && (!q.statusOnce || once) {
			w.Header().Set("Retry-After", "0")
			http.Error(w, "scripted failure", q.status)
			return
		}
		reply, _ := json.Marshal(q.reply)
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Path == "/v1/completions" {
			fmt.Fprintf(w, `{"choices":[{"text":%s,"finish_reason":"stop"}]}`, reply)
		} else {
			fmt.Fprintf(w, `{"choices":[{"message":{"role":"assistant","content":%s},"finish_reason":"stop"}],"usage":{"completion_tokens":3}}`, reply)
		}
		return
	}
	http.Error(w, "unknown question", http.StatusBadRequest)
}

func startScript(t *testing.T, key string) (*scriptServer, string) {
	s := &scriptServer{t: t, key: key, prompts: map[string]string{}, failed: map[string]bool{}}
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	return s, srv.URL
}

// TestRunScoresAndWrites runs MMLU against a scripted server over both
// APIs and checks the numbers per subject and category, the CSV, the
// results JSON and the report.
func TestRunScoresAndWrites(t *testing.T) {
	t.Parallel()
	data := evalData(t)
	for _, api := range []ask.API{ask.Chat, ask.Completions} {
		t.Run(string(api), func(t *testing.T) {
			t.Parallel()
			const key = "sekret-key"
			srv, url := startScript(t, key)
			out := t.TempDir()
			maxTok, temp := 8, 0.0
			res, err := Run(context.Background(), Options{Dataset: data, Shots: 1, OutputDir: out, Ask: ask.Config{
				Endpoints: []string{url + "/v1"}, API: api, Model: "m", APIKey: key, MaxTokens: &maxTok, Temperature: &temp,
				Concurrency: 3, Retries: 2,
			}})
			if err != nil {
				t.Fatal(err)
			}
			checkTallies(t, res)
			checkPrompts(t, srv, api, data)
			checkCSV(t, filepath.Join(out, SamplesFile))
			checkResultsJSON(t, filepath.Join(out, ResultsFile))
			checkReport(t, filepath.Join(out, ReportFile))
			for _, f := range []string{SamplesFile, ResultsFile, ReportFile} {
				b, _ := os.ReadFile(filepath.Join(out, f))
				if strings.Contains(string(b), key) {
					t.Errorf("%s holds the API key", f)
				}
			}
		})
	}
}

func checkTallies(t *testing.T, res *Results) {
	t.Helper()
	want := map[string][4]int{ // correct, total, unparseable, failed
		"abstract_algebra": {2, 4, 1, 0}, "anatomy": {2, 3, 0, 1}, "philosophy": {1, 2, 0, 0}, "sociology": {2, 3, 0, 0},
		"STEM": {2, 4, 1, 0}, "other": {2, 3, 0, 1}, "humanities": {1, 2, 0, 0}, "social sciences": {2, 3, 0, 0},
		"all": {7, 12, 1, 1},
	}
	tallies := append(append(append([]Tally{}, res.Subjects...), res.Categories...), res.Overall)
	if len(tallies) != len(want) {
		t.Errorf("%d tallies, want %d: %+v", len(tallies), len(want), tallies)
	}
	for _, tl := range tallies {
		w := want[tl.Name]
		if got := [4]int{tl.Correct, tl.Total, tl.Unparseable, tl.Failed}; got != w {
			t.Errorf("%s: correct/total/unparseable/failed %v, want %v", tl.Name, got, w)
		}
		if acc := float64(w[0]) / float64(w[1]); tl.Accuracy != acc {
			t.Errorf("%s: accuracy %v, want %v", tl.Name, tl.Accuracy, acc)
		}
	}
	if res.Accuracy != 7.0/12 || res.Retries != 1 || res.Stopped != "" {
		t.Errorf("accuracy %v, %d retries, stopped %q; want 7/12, 1 retry (the 503), not stopped", res.Accuracy, res.Retries, res.Stopped)
	}
	if names := []string{res.Categories[0].Name, res.Categories[3].Name}; names[0] != "STEM" || names[1] != "other" {
		t.Errorf("categories in order %v", names)
	}
}

// checkPrompts: the server got lm-evaluation-harness's 1-shot prompts,
// with the sampling parameters and model asked for.
func checkPrompts(t *testing.T, srv *scriptServer, api ask.API, data string) {
	t.Helper()
	d, err := Open(data, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range d.Test {
		if want := Prompt(q, d.Dev[q.Subject][:1]); srv.prompts[q.Question] != want {
			t.Errorf("%s: sent %q, want %q", q.Question, srv.prompts[q.Question], want)
		}
	}
	for _, b := range srv.bodies {
		if b["model"] != "m" || b["max_tokens"] != 8.0 || b["temperature"] != 0.0 || b["stream"] != nil {
			t.Errorf("%s request %v: want model m, max_tokens 8, temperature 0, no stream", api, b)
			break
		}
	}
}

func checkCSV(t *testing.T, path string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(rows[0], ",") != "subject,index,subject_index,expected,got,correct,how,latency_ms,error,answer" || len(rows) != 13 {
		t.Fatalf("CSV header %v and %d rows", rows[0], len(rows))
	}
	byQ := map[string][]string{}
	for i, r := range rows[1:] {
		byQ[evalQuestions[i].id] = r
		if r[1] != fmt.Sprint(i) {
			t.Errorf("row %d has index %s", i, r[1])
		}
	}
	for id, want := range map[string]string{
		"Q-aa1": "abstract_algebra,1,1,B,B,true,answer is,*,,The answer is B.",
		"Q-aa2": "abstract_algebra,2,2,C,D,false,lead,*,,D",
		"Q-aa3": "abstract_algebra,3,3,D,,false,,*,,I am not sure.",
		"Q-an1": "anatomy,5,1,B,,false,,*,http_status: *500*,",
		"Q-ph0": "philosophy,7,0,A,A,true,lead,*,,<think>maybe B</think>A",
	} {
		got := byQ[id]
		for i, w := range strings.Split(want, ",") {
			if w == "*" {
				continue
			}
			if strings.HasPrefix(w, "http_status: ") {
				if !strings.HasPrefix(got[i], "http_status: ") || !strings.Contains(got[i], "500") {
					t.Errorf("%s: error %q", id, got[i])
				}
				continue
			}
			if got[i] != w {
				t.Errorf("%s: column %s is %q, want %q (row %v)", id, rows[0][i], got[i], w, got)
			}
		}
	}
	if byQ["Q-aa0"][7] == "0.000" {
		t.Errorf("an answered question has no latency: %v", byQ["Q-aa0"])
	}
}

func checkResultsJSON(t *testing.T, path string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var r Results
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	if r.Schema != Schema || r.Accuracy != 7.0/12 || r.Shots != 1 || r.Model != "m" || len(r.Subjects) != 4 || r.TestQuestions != 12 {
		t.Errorf("results JSON: %s", b)
	}
	if len(r.Unparsed) != 1 || r.Unparsed[0].Answer != "I am not sure." || len(r.FailedRefs) != 1 || r.FailedRefs[0].SubjectIndex != 1 {
		t.Errorf("unparseable %+v, failed %+v", r.Unparsed, r.FailedRefs)
	}
	if r.Latency.P50 <= 0 || r.Latency.Max < r.Latency.P99 || r.FailedBy[sut.ReasonHTTPStatus] != 1 {
		t.Errorf("latency %+v, failures %v", r.Latency, r.FailedBy)
	}
}

func checkReport(t *testing.T, path string) {
	t.Helper()
	if b, _ := os.ReadFile(path); !strings.Contains(string(b), "max_tokens 8, temperature 0<") {
		t.Errorf("the report does not show the sampling sent (max_tokens 8, temperature 0)")
	}
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	page := string(b)
	for chart, bars := range map[string]int{"categories": 4, "subjects": 4} {
		if n := strings.Count(chartSVG(page, chart), `class="bar"`); n != bars {
			t.Errorf("chart %s has %d bars, want %d", chart, n, bars)
		}
	}
	for _, want := range []string{"MMLU: 58.33%", "I am not sure.", "http_status", "66.67%", `id="unparseable"`} {
		if !strings.Contains(page, want) {
			t.Errorf("report lacks %q", want)
		}
	}
}

// chartSVG is the SVG of the chart named name in page.
func chartSVG(page, name string) string {
	i := strings.Index(page, `data-chart="`+name+`"`)
	if i < 0 {
		return ""
	}
	j := strings.Index(page[i:], "</svg>")
	if j < 0 {
		return ""
	}
	return page[i : i+j]
}

// TestAgainstTheFake: the fake endpoint answers MMLU's prompts with one of
// their letters, so `eval mmlu` against the embedded default parses every
// answer (over both APIs' chat form, 5-shot and 0-shot) and scores what
// the letters it picked are worth, not 0%.
func TestAgainstTheFake(t *testing.T) {
	t.Parallel()
	data := evalData(t)
	_, url := faketest.Start(t, fake.Config{Model: "m"})
	for _, shots := range []int{0, 1} {
		res, err := Run(context.Background(), Options{Dataset: data, Shots: shots, OutputDir: t.TempDir(), Ask: ask.Config{
			Endpoints: []string{url}, API: ask.Chat, Model: "m", Concurrency: 2,
		}})
		if err != nil {
			t.Fatal(err)
		}
		if o := res.Overall; o.Total != 12 || o.Unparseable != 0 || o.Failed != 0 {
			t.Errorf("%d-shot: %d asked, %d unparseable, %d failed; want 12 asked, every answer a letter", shots, o.Total, o.Unparseable, o.Failed)
		}
		letters := map[byte]bool{}
		for _, s := range res.Samples {
			letters[s.Got] = true
			if s.Answer != string(s.Got) {
				t.Errorf("%d-shot: the fake answered %q, read as %q; want one letter", shots, s.Answer, s.Got)
			}
		}
		if len(letters) < 2 {
			t.Errorf("%d-shot: every answer is %v; the fake picks among the choices", shots, letters)
		}
	}
}
