package mmlu

import (
	"bufio"
	"encoding/json"
	"os"
	"testing"
	"unicode/utf8"

	"github.com/mlperf-go/mlperf-go/internal/pystr"
)

// goldenPrompt is one line of testdata/prompts.jsonl, which
// testdata/gen_golden.py wrote with lm-evaluation-harness 0.4.13's own
// ConfigurableTask over testdata/mmlu.
type goldenPrompt struct {
	Subject      string `json:"subject"`
	SubjectIndex int    `json:"subject_index"`
	Shots        int    `json:"shots"`
	Prompt       string `json:"prompt"`
	Target       string `json:"target"`
}

// TestPromptsMatchLMEval: every prompt (0-, 1- and 5-shot) is byte for
// byte lm-evaluation-harness's, over questions with surrounding and
// unusual white space, unicode, NULs, HTML and Jinja-looking text. The
// data set is pyarrow's, with both list layouts (test: "element", dev:
// "item"), so this also proves the reader on what pyarrow writes.
func TestPromptsMatchLMEval(t *testing.T) {
	t.Parallel()
	d, err := Open("testdata/mmlu", "")
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Test) != 31 || len(d.Dev) != 6 {
		t.Fatalf("read %d test questions and dev questions of %d subjects, want 31 and 6", len(d.Test), len(d.Dev))
	}
	for s, dev := range d.Dev {
		if len(dev) != 5 || dev[0].Choices[0] != "opt 0" {
			t.Fatalf("dev split of %s: %+v (the legacy list layout read wrong?)", s, dev)
		}
	}
	bySubject := map[string][]Question{}
	for _, q := range d.Test {
		bySubject[q.Subject] = append(bySubject[q.Subject], q)
	}
	f, err := os.Open("testdata/prompts.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	n := 0
	for sc.Scan() {
		var g goldenPrompt
		if err := json.Unmarshal(sc.Bytes(), &g); err != nil {
			t.Fatal(err)
		}
		q := bySubject[g.Subject][g.SubjectIndex]
		if q.SubjectIndex != g.SubjectIndex {
			t.Fatalf("%s #%d has SubjectIndex %d", g.Subject, g.SubjectIndex, q.SubjectIndex)
		}
		ps, err := Prompts(d, []Question{q}, g.Shots)
		if err != nil {
			t.Fatal(err)
		}
		if ps[0] != g.Prompt {
			t.Errorf("%s #%d, %d-shot:\n got %q\nwant %q", g.Subject, g.SubjectIndex, g.Shots, ps[0], g.Prompt)
		}
		if string(Letters[q.Answer]) != g.Target {
			t.Errorf("%s #%d: target %c, lm-eval's %s", g.Subject, g.SubjectIndex, Letters[q.Answer], g.Target)
		}
		n++
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if n != 93 {
		t.Errorf("%d golden prompts, want 93", n)
	}
}

// TestPyStripMatchesPython: pystr.Strip removes exactly what Python's
// str.isspace() calls space (testdata/pyspace.json, from Python itself),
// over every code point: the template's question.strip() quirk.
func TestPyStripMatchesPython(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile("testdata/pyspace.json")
	if err != nil {
		t.Fatal(err)
	}
	var cps []rune
	if err := json.Unmarshal(b, &cps); err != nil {
		t.Fatal(err)
	}
	py := map[rune]bool{}
	for _, c := range cps {
		py[c] = true
	}
	for r := rune(0); r <= utf8.MaxRune; r++ {
		if pystr.IsSpace(r) != py[r] {
			t.Errorf("U+%04X: pystr.IsSpace %v, Python's isspace %v", r, pystr.IsSpace(r), py[r])
		}
	}
	if got := pystr.Strip("\x1c\u3000 x \u200b\x1f"); got != "x \u200b" {
		t.Errorf("pystr.Strip = %q", got)
	}
}

func readCategories(t *testing.T, path string) map[string]string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]string
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// TestSubjectsAreHendrycks: the subject table is the original MMLU code's
// (categories.py, mapped by testdata/gen_golden.py), all 57 subjects.
func TestSubjectsAreHendrycks(t *testing.T) {
	t.Parallel()
	want := readCategories(t, "testdata/categories_hendrycks.json")
	names := map[string]Category{"STEM": STEM, "humanities": Humanities, "social sciences": SocialSciences, "other (business, health, misc.)": Other}
	if len(want) != 57 || len(subjects) != 57 || len(Subjects()) != 57 {
		t.Fatalf("%d subjects in the golden file, %d here", len(want), len(subjects))
	}
	for s, c := range want {
		if got, ok := CategoryOf(s); !ok || got != names[c] {
			t.Errorf("%s: %q, the original puts it in %q", s, got, c)
		}
	}
}

// TestSubjectsVersusLMEval pins the one subject lm-evaluation-harness
// groups differently: anatomy (its STEM, the original's other).
func TestSubjectsVersusLMEval(t *testing.T) {
	t.Parallel()
	lm := readCategories(t, "testdata/categories_lmeval.json")
	names := map[string]Category{"stem": STEM, "humanities": Humanities, "social_sciences": SocialSciences, "other": Other}
	var differ []string
	for s, c := range lm {
		if subjects[s] != names[c] {
			differ = append(differ, s)
		}
	}
	if len(lm) != 57 || len(differ) != 1 || differ[0] != "anatomy" {
		t.Errorf("subjects grouped unlike lm-evaluation-harness: %v (want only anatomy)", differ)
	}
}
