package openaiaudio

import (
	"encoding/binary"
	"fmt"
	"strings"

	"github.com/mlperf-go/mlperf-go/internal/pystr"
)

// Labels is the alphabet of MLPerf's speech-to-text answers
// (speech2text/reference_SUT.py and accuracy_eval.py's labels): space,
// a-z, apostrophe, 0-9, $ % + -. A character's answer value is its index
// here.
const Labels = " abcdefghijklmnopqrstuvwxyz'0123456789$%+-"

// labelIndex maps an ASCII character to its index in Labels, or -1.
var labelIndex = func() (m [128]int8) {
	for i := range m {
		m[i] = -1
	}
	for i := 0; i < len(Labels); i++ {
		m[Labels[i]] = int8(i)
	}
	return m
}()

// LabelSize is the size of one label in an answer: int64, as the
// reference SUT's array('q').
const LabelSize = 8

// AppendLabels appends text as the reference SUT reports a transcript to
// LoadGen: text.lower().strip() (Python's, package pystr), then each
// character's index in Labels as an int64 little-endian word, characters
// outside Labels dropped (uppercase letters count once lowered; "İ" and
// the Kelvin sign lower to "i" and "k").
func AppendLabels(dst []byte, text string) []byte {
	var l labeler
	return l.append(dst, text)
}

// labeler is AppendLabels over a text that arrives in pieces (a stream's
// deltas), so the answer grows as it comes: leading whitespace is skipped,
// and whitespace after a character is held back until another character
// follows (then its spaces are written) or the text ends (then it is
// dropped, as strip() drops it). Lowering goes character by character,
// which gives the same labels as lowering the whole text: the only
// context-dependent lowering, the final sigma, yields no label.
type labeler struct {
	started bool // a character other than whitespace was seen
	spaces  int  // spaces held back since the last other character
}

func (l *labeler) append(dst []byte, text string) []byte {
	for _, r := range text {
		if pystr.IsSpace(r) {
			if l.started && r == ' ' {
				l.spaces++
			}
			continue
		}
		for ; l.spaces > 0; l.spaces-- {
			dst = binary.LittleEndian.AppendUint64(dst, 0) // Labels[0] is the space
		}
		l.started = true
		if r >= 'A' && r <= 'Z' {
			r += 'a' - 'A'
		}
		if r < 128 {
			dst = appendLabel(dst, r)
			continue
		}
		for _, lr := range pystr.Lower(string(r)) {
			dst = appendLabel(dst, lr)
		}
	}
	return dst
}

// appendLabel appends r's index in Labels, if it has one.
func appendLabel(dst []byte, r rune) []byte {
	if r < 128 && labelIndex[r] >= 0 {
		dst = binary.LittleEndian.AppendUint64(dst, uint64(labelIndex[r]))
	}
	return dst
}

// LabelText decodes an answer back to its text, as accuracy_eval.py does
// (array('q', data), then __gather_predictions' labels lookup). A length
// that is not a multiple of 8 or an index outside Labels is an error, where
// the reference raises.
func LabelText(data []byte) (string, error) {
	if len(data)%LabelSize != 0 {
		return "", fmt.Errorf("%d bytes is not a whole number of int64 labels", len(data))
	}
	var b strings.Builder
	b.Grow(len(data) / LabelSize)
	for i := 0; i < len(data); i += LabelSize {
		v := int64(binary.LittleEndian.Uint64(data[i:]))
		if v < 0 || v >= int64(len(Labels)) {
			return "", fmt.Errorf("label %d at byte %d is outside the %d-character alphabet", v, i, len(Labels))
		}
		b.WriteByte(Labels[v])
	}
	return b.String(), nil
}

// TextLabels is the reference's Manifest.parse_transcript: each character
// of a (lowercased) reference transcript that is in Labels, others
// dropped, as text. Unlike AppendLabels it neither lowers nor strips.
func TextLabels(transcript string) string {
	var b strings.Builder
	b.Grow(len(transcript))
	for _, r := range transcript {
		if r < 128 && labelIndex[r] >= 0 {
			b.WriteRune(r)
		}
	}
	return b.String()
}
