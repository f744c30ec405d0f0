package porter

import (
	"bytes"
	"strings"
	"testing"

	"github.com/mlperf-go/mlperf-go/internal/golden"
)

// TestStemGolden compares Stem with nltk 3.9.4's PorterStemmer().stem on
// every word of the golden corpus, every entry of the English Punkt model,
// generated suffix combinations and random letter strings.
func TestStemGolden(t *testing.T) {
	t.Parallel()
	bad, n := 0, 0
	golden.Lines(t, "testdata/stems.tsv.gz", func(line int, b []byte) {
		word, want, ok := bytes.Cut(b, []byte("\t"))
		if !ok {
			t.Fatalf("stems.tsv.gz:%d: no tab", line)
		}
		n++
		if got := Stem(string(word)); got != string(want) {
			bad++
			if bad <= 20 {
				t.Errorf("Stem(%q) = %q, nltk %q", word, got, want)
			}
		}
	})
	if n < 20000 {
		t.Errorf("only %d golden words; want tens of thousands", n)
	}
	t.Logf("%d words, %d differ", n, bad)
}

// TestNLTKExtensions pins the NLTK_EXTENSIONS behaviours rouge_score relies
// on, each unlike ORIGINAL_ALGORITHM or MARTIN_EXTENSIONS (values from nltk
// 3.9.4; also in the golden file).
func TestNLTKExtensions(t *testing.T) {
	t.Parallel()
	for word, want := range map[string]string{
		"dying": "die", "skies": "sky", "news": "news", "innings": "inning", // irregular pool
		"ties": "tie", "died": "die", "cries": "cri", // four-letter -ies/-ied
		"enjoy": "enjoy", "happy": "happi", "by": "by", // y -> i only after a consonant
		"radicalli": "radic", "hopefulli": "hope", "analogi": "analog", // alli, fulli, logi
		"is": "is", "as": "as", // words of two letters are kept
		"Dying": "dy", // nltk < 3.10 looks the pool up before lowercasing
	} {
		if got := Stem(word); got != want {
			t.Errorf("Stem(%q) = %q, want %q", word, got, want)
		}
	}
}

// TestLongY checks that a run of thousands of y's neither recurses deeply
// nor takes quadratic time (nltk 3.9 recursed per y).
func TestLongY(t *testing.T) {
	t.Parallel()
	w := strings.Repeat("y", 100000)
	if got := Stem(w); !strings.HasPrefix(got, "yyy") {
		t.Errorf("Stem(100000 y) = %.10q...", got)
	}
}

func BenchmarkStem(b *testing.B) {
	words := []string{"relational", "generously", "hopefulness", "controlling", "communities", "the"}
	for i := 0; b.Loop(); i++ {
		Stem(words[i%len(words)])
	}
}
