package fake

import "strings"

// Q3VLTruth is one Qwen3-VL (Shopify catalogue) sample the fake can answer.
// UserText is the exact text part of the user message the harness sends for
// the sample (the rendered user prompt of the reference's task.py
// ShopifyGlobalCatalogue.formulate_loaded_sample); answers are keyed on it.
// Category, Brand and IsSecondhand are the ground truth; Categories are the
// sample's potential product categories, from which wrong answers pick.
// AltUserTexts are the same sample's user text as other rounds' requests
// write it (round v6.1's, mlcommons/endpoints'); they get the same answer.
type Q3VLTruth struct {
	UserText     string
	AltUserTexts []string
	Category     string
	Brand        string
	IsSecondhand bool
	Categories   []string
}

// answer is a precomputed chat answer: the content text, its pieces (the
// fake's tokens) and the content pre-escaped for a JSON string.
type answer struct {
	text    string
	ends    []int  // piece end offsets in text
	escaped []byte // appendJSONStringBody(text)
	// pieceEsc[i] is piece i escaped; streaming deltas are written from it.
	pieceEsc [][]byte
	correct  bool
}

func newAnswer(text string, correct bool) *answer {
	a := &answer{text: text, ends: splitPieces(text), correct: correct}
	a.escaped = appendJSONStringBody(nil, text)
	start := 0
	a.pieceEsc = make([][]byte, len(a.ends))
	for i, e := range a.ends {
		a.pieceEsc[i] = appendJSONStringBody(nil, text[start:e])
		start = e
	}
	return a
}

// prefixEscaped returns the escaped content of the first n pieces.
func (a *answer) prefixEscaped(n int) []byte {
	if n >= len(a.ends) {
		return a.escaped
	}
	if n <= 0 {
		return nil
	}
	return appendJSONStringBody(nil, a.text[:a.ends[n-1]])
}

// productJSON renders an answer the way a guided-decoding Qwen3-VL run
// prints ProductMetadata: one line, Python json.dumps separators.
func productJSON(category, brand string, secondhand bool) string {
	var b []byte
	b = append(b, `{"category": `...)
	b = appendJSONString(b, category)
	b = append(b, `, "brand": `...)
	b = appendJSONString(b, brand)
	b = append(b, `, "is_secondhand": `...)
	if secondhand {
		b = append(b, "true"...)
	} else {
		b = append(b, "false"...)
	}
	return string(append(b, '}'))
}

// genericAnswer is what the fake says to a user text it has no truth for:
// valid ProductMetadata JSON that matches no real sample.
var genericAnswer = newAnswer(productJSON("Uncategorized", "unbranded", false), false)

// buildQ3VL precomputes every sample's answer. A sample gets the truth when
// the hash of its UserText (mixed with seed) falls below accuracy, so which
// samples are right depends on neither request order nor timing.
func buildQ3VL(truths []Q3VLTruth, accuracy float64, seed int64) map[string]*answer {
	m := make(map[string]*answer, len(truths))
	for _, t := range truths {
		h := hashString(uint64(seed), t.UserText)
		a := newAnswer(productJSON(wrongCategory(t, h), wrongBrand(t.Brand), !t.IsSecondhand), false)
		if unitFloat(h) < accuracy {
			a = newAnswer(productJSON(t.Category, t.Brand, t.IsSecondhand), true)
		}
		m[t.UserText] = a
		for _, alt := range t.AltUserTexts {
			m[alt] = a
		}
	}
	return m
}

// wrongCategory picks another of the sample's potential categories, or, when
// there is none, a deeper level of the true one.
func wrongCategory(t Q3VLTruth, h uint64) string {
	var others []string
	for _, c := range t.Categories {
		if c != t.Category {
			others = append(others, c)
		}
	}
	if len(others) == 0 {
		return t.Category + " > Other"
	}
	return others[splitmix64(h)%uint64(len(others))]
}

// wrongBrand alters a brand so no exact or case-insensitive match survives.
func wrongBrand(b string) string {
	if strings.TrimSpace(b) == "" {
		return "unbranded"
	}
	return b + " outlet"
}

// IsCorrectAnswer reports whether the fake answers the sample with user text
// userText correctly under accuracy and seed, without building a server.
// Tests use it to predict the accuracy a run should score.
func IsCorrectAnswer(userText string, accuracy float64, seed int64) bool {
	return unitFloat(hashString(uint64(seed), userText)) < accuracy
}
