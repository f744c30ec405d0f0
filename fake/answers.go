package fake

import (
	"encoding/binary"
	"strings"
)

// Answer is one sample whose chat answer the fake is told, by the
// benchmark it belongs to (benchmark.FakeAnswer has the same fields, so
// one converts to the other). Keys are the exact request texts that
// identify the sample: the text of the last user message as the harness
// sends it, once per way the rounds' requests write it; every key gets
// the same answer. The hash of Keys[0] with Config.Seed decides whether
// the sample is answered Right (IsCorrectAnswer) and, when it is not,
// which of Wrongs it is answered with (the fake's DefaultAnswer when
// there are none).
type Answer struct {
	Keys   []string
	Right  string
	Wrongs []string
}

// FallbackAnswer is what the fake answers a chat whose key no Answer has
// when Config.DefaultAnswer is empty: a plain sentence, since the fake
// knows no benchmark's answer format. A benchmark gives its own through
// Config.DefaultAnswer.
const FallbackAnswer = "The fake endpoint has no answer for this request."

// textAnswer is a precomputed chat answer: the content text, its pieces
// (the fake's tokens) and the content escaped for a JSON string.
type textAnswer struct {
	text string
	// escaped is appendJSONStringBody(text); escEnds[i] is where piece i
	// ends in it. Escaping works rune by rune and pieces end on rune
	// boundaries, so escaped[escEnds[i-1]:escEnds[i]] is piece i escaped
	// on its own: streamed deltas and capped answers are slices of it.
	escaped []byte
	escEnds []int
	// ends[i] is where piece i ends in text.
	ends    []int
	correct bool
}

func newTextAnswer(text string, correct bool) *textAnswer {
	a := &textAnswer{text: text, correct: correct}
	ends := splitPieces(text)
	a.ends = ends
	a.escEnds = make([]int, len(ends))
	start := 0
	for i, e := range ends {
		a.escaped = appendJSONStringBody(a.escaped, text[start:e])
		a.escEnds[i] = len(a.escaped)
		start = e
	}
	return a
}

// pieces is the answer's length in the fake's tokens.
func (a *textAnswer) pieces() int { return len(a.escEnds) }

// appendEscaped appends pieces [from, to) escaped.
func (a *textAnswer) appendEscaped(dst []byte, from, to int) []byte {
	if from >= to {
		return dst
	}
	start := 0
	if from > 0 {
		start = a.escEnds[from-1]
	}
	return append(dst, a.escaped[start:a.escEnds[to-1]]...)
}

// buildAnswers precomputes every sample's answer, under each of its keys. A
// sample gets its right answer when the hash of its first key (mixed with
// seed) falls below accuracy, so which samples are right depends on
// neither request order nor timing; otherwise the same hash picks one of
// its wrong answers, or def when it has none.
func buildAnswers(answers []Answer, def *textAnswer, accuracy float64, seed int64) map[string]*textAnswer {
	m := make(map[string]*textAnswer, len(answers))
	for _, a := range answers {
		h := hashString(uint64(seed), a.Keys[0])
		t := def
		switch {
		case unitFloat(h) < accuracy:
			t = newTextAnswer(a.Right, true)
		case len(a.Wrongs) > 0:
			t = newTextAnswer(a.Wrongs[splitmix64(h)%uint64(len(a.Wrongs))], false)
		}
		for _, k := range a.Keys {
			m[k] = t
		}
	}
	return m
}

// IsCorrectAnswer reports whether the fake answers the sample whose first
// key is key with its right answer under accuracy and seed, without
// building a server. Tests use it to predict the accuracy a run should
// score.
func IsCorrectAnswer(key string, accuracy float64, seed int64) bool {
	return unitFloat(hashString(uint64(seed), key)) < accuracy
}

// TokenAnswer is one sample of a token-ID benchmark whose answer the fake
// is told (benchmark.FakeTokenAnswerer gives the texts; the caller encodes
// them with the model's tokenizer). Prompt, the prompt's token IDs as the
// harness sends them, identifies the sample; PromptKey(Prompt) plays the
// part of an Answer's first key in deciding whether it is answered Right
// and, if not, with which of Wrongs (with none, the tokens the fake
// derives from the prompt, as for an unknown prompt).
type TokenAnswer struct {
	Prompt []int32
	Right  []int32
	Wrongs [][]int32
}

// PromptKey is the key a token prompt is known by: its IDs' bytes. Tests
// give it to IsCorrectAnswer to predict which samples are answered right.
func PromptKey(p []int32) string {
	b := make([]byte, 4*len(p))
	for i, v := range p {
		binary.LittleEndian.PutUint32(b[4*i:], uint32(v))
	}
	return string(b)
}

// buildTokenAnswers picks every token sample's answer as buildAnswers
// does, keyed on PromptKey; a sample answered wrong with no Wrongs is
// left out, so it gets the derived tokens.
func buildTokenAnswers(answers []TokenAnswer, accuracy float64, seed int64) map[string][]int32 {
	m := make(map[string][]int32, len(answers))
	for _, a := range answers {
		k := PromptKey(a.Prompt)
		h := hashString(uint64(seed), k)
		switch {
		case unitFloat(h) < accuracy:
			m[k] = a.Right
		case len(a.Wrongs) > 0:
			m[k] = a.Wrongs[splitmix64(h)%uint64(len(a.Wrongs))]
		}
	}
	return m
}

// cycleTokens returns the first n tokens of ans repeated: an answer asked
// to run past its end (min_tokens, ignore_eos, a stream that never ends)
// goes on with itself again, as a chat's text does.
func cycleTokens(ans []int32, n int) []int32 {
	out := make([]int32, n)
	if len(ans) == 0 {
		return out
	}
	for i := range out {
		out[i] = ans[i%len(ans)]
	}
	return out
}

// choiceLetters are the letters a multiple-choice question may offer.
const choiceLetters = "ABCDEFGHIJ"

// choiceAnswers are the answers to multiple-choice questions, one a
// letter.
var choiceAnswers = func() [len(choiceLetters)]*textAnswer {
	var a [len(choiceLetters)]*textAnswer
	for i := range a {
		a[i] = newTextAnswer(choiceLetters[i:i+1], false)
	}
	return a
}()

// choiceAnswer answers a multiple-choice question that no Answer keys,
// written as MMLU's prompts are (lm-evaluation-harness: the choices on
// lines of their own, "A. …", and "Answer:" last), with one of its letters
// picked by the question's hash and seed, so a quality check such as
// `mlperf-go eval mmlu` against the fake parses every answer and scores
// about chance. Anything else gets nil.
func choiceAnswer(q string, seed int64) *textAnswer {
	if !strings.HasSuffix(strings.TrimRight(q, " \n"), "\nAnswer:") {
		return nil
	}
	n := 0
	for n < len(choiceLetters) && strings.Contains(q, "\n"+choiceLetters[n:n+1]+". ") {
		n++
	}
	if n < 2 {
		return nil
	}
	return choiceAnswers[splitmix64(hashString(uint64(seed), q))%uint64(n)]
}
