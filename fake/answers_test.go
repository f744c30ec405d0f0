package fake

import (
	"fmt"
	"math"
	"testing"
)

// TestKeysShareAnswer: every key of a sample (its text as each round's
// requests write it) gets the very answer its first key gets, right or
// wrong.
func TestKeysShareAnswer(t *testing.T) {
	answers := []Answer{
		{Keys: []string{"a60", "a61"}, Right: "A", Wrongs: []string{"not A"}},
		{Keys: []string{"b60", "b61"}, Right: "B", Wrongs: []string{"not B"}},
	}
	for _, acc := range []float64{0, 1} {
		m := buildAnswers(answers, newTextAnswer(FallbackAnswer, false), acc, 3)
		for _, k := range [][2]string{{"a60", "a61"}, {"b60", "b61"}} {
			if m[k[0]] == nil || m[k[0]] != m[k[1]] || m[k[0]].correct != (acc == 1) {
				t.Errorf("accuracy %v: answers for %q and %q differ or are wrong: %+v %+v", acc, k[0], k[1], m[k[0]], m[k[1]])
			}
		}
	}
}

// TestAccuracyFraction checks that over 1,000 distinct samples the share
// answered right is within four standard deviations of Accuracy, that the
// built server agrees with IsCorrectAnswer, and that wrong answers are
// drawn from every one of a sample's Wrongs.
func TestAccuracyFraction(t *testing.T) {
	const n, acc = 1000, 0.7
	answers := make([]Answer, n)
	for i := range answers {
		answers[i] = Answer{
			Keys:   []string{fmt.Sprintf("The title of the product is the following:\n```text\nitem %d\n```", i)},
			Right:  fmt.Sprintf("right %d", i),
			Wrongs: []string{fmt.Sprintf("wrong %d a", i), fmt.Sprintf("wrong %d b", i)},
		}
	}
	built := buildAnswers(answers, newTextAnswer(FallbackAnswer, false), acc, 42)
	correct := 0
	wrongs := map[byte]int{}
	for _, a := range answers {
		got := built[a.Keys[0]]
		if got.correct != IsCorrectAnswer(a.Keys[0], acc, 42) {
			t.Fatalf("server and IsCorrectAnswer disagree on %q", a.Keys[0])
		}
		switch {
		case got.correct && got.text == a.Right:
			correct++
		case !got.correct && (got.text == a.Wrongs[0] || got.text == a.Wrongs[1]):
			wrongs[got.text[len(got.text)-1]]++
		default:
			t.Fatalf("sample %q answered %q (correct=%v)", a.Keys[0], got.text, got.correct)
		}
	}
	sd := math.Sqrt(n * acc * (1 - acc))
	if d := math.Abs(float64(correct) - n*acc); d > 4*sd {
		t.Errorf("%d of %d correct; want %v ± %.0f", correct, n, n*acc, 4*sd)
	}
	if wrongs['a'] == 0 || wrongs['b'] == 0 {
		t.Errorf("wrong answers drawn %v: want both of each sample's Wrongs used", wrongs)
	}
	// A different seed picks a different subset.
	diff := 0
	for _, a := range answers {
		if IsCorrectAnswer(a.Keys[0], acc, 42) != IsCorrectAnswer(a.Keys[0], acc, 43) {
			diff++
		}
	}
	if diff == 0 {
		t.Error("seeds 42 and 43 mark exactly the same samples correct")
	}
}

// TestNoWrongsGetsDefault: a sample with no wrong answer that is to be
// answered wrong gets the default answer.
func TestNoWrongsGetsDefault(t *testing.T) {
	def := newTextAnswer("default", false)
	m := buildAnswers([]Answer{{Keys: []string{"k"}, Right: "right"}}, def, 0, 1)
	if m["k"] != def {
		t.Errorf("answer %+v, want the default", m["k"])
	}
}

// TestTextAnswerSlices: a range of pieces sliced out of the escaped text is
// those pieces escaped one by one, so streamed deltas and capped answers
// are what escaping each piece gives.
func TestTextAnswerSlices(t *testing.T) {
	for _, text := range []string{
		`{"category": "Clothing & Accessories > Polo \"Navy\" – Größe M", "brand": "a\tb\\c", "is_secondhand": false}`,
		"bad \xff\xfe utf-8 \x01\u2028 end", "", "x",
	} {
		a := newTextAnswer(text, false)
		ends := splitPieces(text)
		if a.pieces() != len(ends) {
			t.Fatalf("%q: %d pieces, want %d", text, a.pieces(), len(ends))
		}
		for from := 0; from <= len(ends); from++ {
			for to := from; to <= len(ends); to++ {
				var want []byte
				start := 0
				if from > 0 {
					start = ends[from-1]
				}
				for i := from; i < to; i++ {
					want = appendJSONStringBody(want, text[start:ends[i]])
					start = ends[i]
				}
				if got := a.appendEscaped(nil, from, to); string(got) != string(want) {
					t.Fatalf("%q pieces [%d, %d): %q, want %q", text, from, to, got, want)
				}
			}
		}
	}
}
