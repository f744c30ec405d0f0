package mmlu

import (
	"slices"
	"time"

	"github.com/mlperf-go/mlperf-go/quality/ask"
)

// Sample is one question asked and how it was answered.
type Sample struct {
	Question
	// Expected is the right letter; Got the letter Extract read (0 when
	// none: unparseable or failed) and How the rule that read it.
	Expected, Got byte
	How           How
	// Correct is Got == Expected.
	Correct bool
	// Latency is the request's, retries included.
	Latency time.Duration
	// Answer is the endpoint's answer as it came.
	Answer string
	// Failed is set when no answer came (the request failed, or the run
	// stopped before asking); Error says why.
	Failed bool
	Error  string
}

// Unparseable reports an answer that came but chose no letter.
func (s *Sample) Unparseable() bool { return !s.Failed && s.How == HowNone }

// Tally is the accuracy of a group of questions: a subject, a category,
// or all of them. Accuracy is Correct / Total, where Total counts every
// question asked: unparseable answers and failed requests are wrong.
type Tally struct {
	Name string `json:"name"`
	// Category is a subject's category ("" for a category or the whole).
	Category    Category `json:"category,omitempty"`
	Correct     int      `json:"correct"`
	Total       int      `json:"total"`
	Unparseable int      `json:"unparseable"`
	Failed      int      `json:"failed"`
	Accuracy    float64  `json:"accuracy"`
}

// NoneParsed reports whether answers came and not one of them chose a
// letter: the endpoint does not answer MMLU's prompts at all (a wrong
// model or template, an error page), which a 0% accuracy would hide.
func (t Tally) NoneParsed() bool { return t.Unparseable > 0 && t.Unparseable == t.Total-t.Failed }

func (t *Tally) add(s *Sample) {
	t.Total++
	switch {
	case s.Correct:
		t.Correct++
	case s.Failed:
		t.Failed++
	case s.How == HowNone:
		t.Unparseable++
	}
}

func (t *Tally) finish() {
	if t.Total > 0 {
		t.Accuracy = float64(t.Correct) / float64(t.Total)
	}
}

// Score judges each answer against its question (qs[i] was answered by
// answers[i]) and tallies the accuracy per subject, per category and over
// all questions. Categories and the whole are micro averages (every
// question weighs the same), as the original MMLU code (hendrycks/test
// evaluate_flan.py: np.mean over the concatenated answers) and
// lm-evaluation-harness (weight_by_size) compute them. Subjects come in
// Categories order, then by name; categories without questions are left
// out.
func Score(qs []Question, answers []ask.Answer) (samples []Sample, overall Tally, cats, subs []Tally) {
	samples = make([]Sample, len(qs))
	bySubject := map[string]*Tally{}
	byCat := map[Category]*Tally{}
	overall.Name = "all"
	for i, q := range qs {
		a := answers[i]
		s := &samples[i]
		*s = Sample{Question: q, Expected: Letters[q.Answer], Latency: a.Latency, Answer: a.Text}
		if a.Failed || a.NotAsked {
			s.Failed, s.Error = true, a.Error
			if a.Reason != "" {
				s.Error = a.Reason + ": " + a.Error
			}
		} else {
			s.Got, s.How = Extract(a.Text)
			s.Correct = s.Got == s.Expected
		}
		cat := subjects[q.Subject]
		if bySubject[q.Subject] == nil {
			bySubject[q.Subject] = &Tally{Name: q.Subject, Category: cat}
		}
		if byCat[cat] == nil {
			byCat[cat] = &Tally{Name: string(cat)}
		}
		bySubject[q.Subject].add(s)
		byCat[cat].add(s)
		overall.add(s)
	}
	overall.finish()
	for _, c := range Categories {
		if t := byCat[c]; t != nil {
			t.finish()
			cats = append(cats, *t)
		}
	}
	for _, t := range bySubject {
		t.finish()
		subs = append(subs, *t)
	}
	rank := map[Category]int{}
	for i, c := range Categories {
		rank[c] = i
	}
	slices.SortFunc(subs, func(a, b Tally) int {
		if d := rank[a.Category] - rank[b.Category]; d != 0 {
			return d
		}
		if a.Name < b.Name {
			return -1
		}
		return 1
	})
	return samples, overall, cats, subs
}
