package whisper

import (
	"os"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/protocol/openaiaudio"
)

var _ benchmark.FakeAnswerer = (*Dataset)(nil)

// FakeAnswers tells the fake endpoint each sample's transcript under the
// key its server side is asked (openaiaudio.AudioKey of the audio file's
// bytes): right, the reference transcript written as Whisper writes
// (capitalised, with a full stop), which the harness lowers and filters
// back to the reference; wrong, the same with one plausible error (a word
// dropped, a word changed, a word repeated; not two words run together,
// which the word error rate forgives). A sample whose file
// cannot be read gets no answer (the fake then answers its default).
func (d *Dataset) FakeAnswers() []benchmark.FakeAnswer {
	out := make([]benchmark.FakeAnswer, 0, len(d.samples))
	for _, s := range d.samples {
		audio, err := os.ReadFile(s.Audio)
		if err != nil {
			continue
		}
		out = append(out, benchmark.FakeAnswer{
			Keys:   []string{openaiaudio.AudioKey(audio)},
			Right:  whisperStyle(s.Transcript),
			Wrongs: wrongs(s.Transcript),
		})
	}
	return out
}

// whisperStyle writes a transcript as Whisper answers: a leading space,
// the first letter capitalised, a full stop.
func whisperStyle(t string) string {
	r, n := utf8.DecodeRuneInString(t)
	return " " + string(unicode.ToUpper(r)) + t[n:] + "."
}

// wrongs are the transcript with one error each.
func wrongs(t string) []string {
	w := strings.Fields(t)
	if len(w) < 2 {
		return []string{whisperStyle(t + " uh huh")}
	}
	drop := strings.Join(w[:len(w)-1], " ")
	changed := append([]string{}, w...)
	changed[len(w)/2] = "something"
	repeated := append([]string{w[0]}, w...)
	return []string{whisperStyle(drop), whisperStyle(strings.Join(changed, " ")), whisperStyle(strings.Join(repeated, " "))}
}
