package mmlu

import (
	"strings"
	"testing"
)

func TestExtract(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		answer string
		letter byte
		how    How
	}{
		{"B", 'B', HowLead},
		{" B", 'B', HowLead},
		{" B. 4\n\nThe following are", 'B', HowLead},
		{"(C)", 'C', HowLead},
		{"**D**", 'D', HowLead},
		{"`A`", 'A', HowLead},
		{"> C", 'C', HowLead},
		{"Answer: A", 'A', HowLead},
		{"answer:B", 'B', HowLead},
		{"ANSWER: (d)", 0, HowNone}, // lower-case letters never count
		{"A, because the group is cyclic.", 'A', HowLead},
		{"B\nBecause it is.", 'B', HowLead},
		{"D'oh", 'D', HowLead},
		{"All of the above", 0, HowNone},
		{"Based on the options, the answer is C.", 'C', HowAnswerIs},
		{"A triangle has three sides, so the answer is (B).", 'B', HowAnswerIs},
		{"The answer is: **D**", 'D', HowAnswerIs},
		{"The answer is unclear; the answer is C", 'C', HowAnswerIs},
		{"the answer is Because", 0, HowNone},
		{"Let me think.\nAnswer: C\nWait, no.\nAnswer: D", 'D', HowAnswerColon},
		{"Final answer: B12 no; final answer: A", 'A', HowAnswerColon},
		{"<think>The answer is A? No.</think>\n\nC", 'C', HowLead},
		{"<think>B</think>I cannot tell.", 0, HowNone},
		{"", 0, HowNone},
		{"I think it's B", 0, HowNone},
		{"E", 0, HowNone},
		{"a", 0, HowNone},
		{"Bé", 0, HowNone},
		{"İstanbul: the answer is B", 'B', HowAnswerIs}, // offsets survive non-ASCII text
	} {
		l, how := Extract(c.answer)
		if l != c.letter || how != c.how {
			t.Errorf("Extract(%q) = %q, %q; want %q, %q", c.answer, l, how, c.letter, c.how)
		}
	}
}

// FuzzExtract: Extract never panics, returns A-D with a rule or nothing
// without one, ignores leading white space, and reads a letter that opens
// an answer whatever follows it.
func FuzzExtract(f *testing.F) {
	for _, s := range []string{"B", " (C) x", "the answer is D", "Answer: A", "<think>x</think>B", "All", "answer is answer is B", "\xff\xfeA", "answer:", "A\u00a0b"} {
		f.Add(s, byte(1))
	}
	f.Fuzz(func(t *testing.T, s string, pick byte) {
		l, how := Extract(s)
		if (l == 0) != (how == HowNone) || (l != 0 && !strings.ContainsRune(Letters, rune(l))) {
			t.Fatalf("Extract(%q) = %q, %q", s, l, how)
		}
		if l2, how2 := Extract(" \n\t" + s); l2 != l || how2 != how {
			t.Fatalf("Extract(%q) = %q, %q but with leading space %q, %q", s, l, how, l2, how2)
		}
		letter := Letters[int(pick)%4]
		if !strings.Contains(s, thinkEnd) {
			if got, how := Extract(string(letter) + ". " + s); got != letter || how != HowLead {
				t.Fatalf("Extract(%q) = %q, %q; want %q first", string(letter)+". "+s, got, how, letter)
			}
		}
	})
}
