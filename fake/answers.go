package fake

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
