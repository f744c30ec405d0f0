package llmeval

import "strings"

// FakeAnswer is the fake endpoint's right and wrong answers to a sample of
// sub-dataset sub (the names score/exactmatch grades) whose ground truth
// is truth, after lead (the model's thinking, in its own markers): "ANSWER:
// X" for GPQA and MMLU-Pro, \boxed{} for AIME and MATH-500, and for
// LiveCodeBench a program that reads n and prints n+1, which passes only
// problems that test that (the fake knows no real problem's solution).
// Wrong answers: another letter, no boxed answer (a wrong number would
// need PRM800K's sympy grading to be told from a MATH-500 expression), a
// program that does nothing. ok is false for a sub-dataset it cannot
// answer or an empty ground truth.
func FakeAnswer(sub, truth, lead string) (right string, wrongs []string, ok bool) {
	sub = strings.ToLower(sub)
	switch {
	case strings.Contains(sub, "gpqa"), strings.Contains(sub, "mmlu"):
		wrong := "A"
		if truth == "A" {
			wrong = "B"
		}
		return lead + "ANSWER: " + truth, []string{lead + "ANSWER: " + wrong}, truth != ""
	case strings.Contains(sub, "aime"), strings.Contains(sub, "math"):
		return lead + "So \\boxed{" + truth + "}", []string{lead + "I could not finish the computation."}, truth != ""
	case strings.Contains(sub, "livecodebench"):
		return lead + "Read n, print n+1.\n```python\nprint(int(input()) + 1)\n```\n", []string{lead + "```python\npass\n```\n"}, true
	}
	return "", nil, false
}
