package mmlu

import (
	"fmt"
	"strings"

	"github.com/mlperf-go/mlperf-go/internal/pystr"
)

// PromptFormat names the prompt format Prompt writes: the one
// lm-evaluation-harness builds for its mmlu tasks (tasks/mmlu/default,
// the same in its generative variant), itself the original MMLU paper's
// format (hendrycks/test evaluate.py) but for one space: the original's
// description reads "about  abstract algebra." (format_subject prefixes
// every word with a space), lm-evaluation-harness's "about abstract
// algebra.".
const PromptFormat = "lm-evaluation-harness 0.4.13 mmlu (tasks/mmlu/default)"

// MaxShots is the most few-shot examples Prompt can take: cais/mmlu's dev
// split has five per subject.
const MaxShots = 5

// Prompt returns the prompt for q after the given few-shot examples (the
// first k of q's subject's dev questions, lm-evaluation-harness's first_n
// sampler), exactly as lm-evaluation-harness 0.4.13 writes it (proven by
// testdata/prompts.jsonl, which its own ConfigurableTask wrote):
//
//	The following are multiple choice questions (with answers) about {subject words}.
//
//	{example question, stripped}
//	A. {choice}
//	B. {choice}
//	C. {choice}
//	D. {choice}
//	Answer: {letter}
//
//	… (one block per example) …
//	{question, stripped}
//	A. {choice}
//	…
//	D. {choice}
//	Answer:
//
// The question is stripped of surrounding whitespace as Python's
// str.strip() does (the reference's Jinja template writes
// {{question.strip()}}, which also strips U+001C..U+001F: pystr.Strip,
// pinned by TestPyStripMatchesPython); choices are kept as they are.
func Prompt(q Question, examples []Question) string {
	var b strings.Builder
	b.WriteString("The following are multiple choice questions (with answers) about ")
	b.WriteString(subjectWords(q.Subject))
	b.WriteString(".\n\n")
	for _, e := range examples {
		writeQuestion(&b, e)
		b.WriteByte(' ')
		b.WriteByte(Letters[e.Answer])
		b.WriteString("\n\n")
	}
	writeQuestion(&b, q)
	return b.String()
}

// writeQuestion writes lm-evaluation-harness's doc_to_text:
// "{{question.strip()}}\nA. {{choices[0]}}\nB. …\nD. {{choices[3]}}\nAnswer:".
func writeQuestion(b *strings.Builder, q Question) {
	b.WriteString(pystr.Strip(q.Question))
	for i, c := range q.Choices {
		b.WriteByte('\n')
		b.WriteByte(Letters[i])
		b.WriteString(". ")
		b.WriteString(c)
	}
	b.WriteString("\nAnswer:")
}

// Prompts returns the prompt of each question in qs with shots few-shot
// examples from d's dev split. A subject with fewer than shots dev
// questions is an error naming it.
func Prompts(d *Dataset, qs []Question, shots int) ([]string, error) {
	if shots < 0 || shots > MaxShots {
		return nil, fmt.Errorf("%d few-shot examples: use 0 to %d (cais/mmlu's dev split has %d per subject)", shots, MaxShots, MaxShots)
	}
	out := make([]string, len(qs))
	for i, q := range qs {
		dev := d.Dev[q.Subject]
		if len(dev) < shots {
			where := "no dev split was found"
			if len(d.DevFiles) > 0 {
				where = fmt.Sprintf("the dev split (%s) has %d", strings.Join(d.DevFiles, ", "), len(dev))
			}
			return nil, fmt.Errorf("%d-shot prompts need %d dev questions of %s, but %s: ask for fewer shots, or give the dev split (cais/mmlu's all/dev-*.parquet)", shots, shots, q.Subject, where)
		}
		out[i] = Prompt(q, dev[:shots])
	}
	return out, nil
}
