package mmlu

import "testing"

// BenchmarkPrompts5Shot builds the 5-shot prompts of the golden data set
// (31 questions): a full MMLU run builds 14,042 before its first request.
func BenchmarkPrompts5Shot(b *testing.B) {
	d, err := Open("testdata/mmlu", "")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Prompts(d, d.Test, 5); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkExtract reads the letter of a rambling answer that needs the
// last rule.
func BenchmarkExtract(b *testing.B) {
	answer := "Let me think about each option in turn. Option A is wrong because of X; option B fails " +
		"for Y; the correct reasoning leads to the final Answer: C"
	b.ReportAllocs()
	for b.Loop() {
		if l, _ := Extract(answer); l != 'C' {
			b.Fatal(l)
		}
	}
}
