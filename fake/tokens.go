package fake

import (
	"strconv"
	"unicode"
	"unicode/utf8"
)

// VocabMin and VocabMax bound the token IDs Tokens generates: every ID is in
// [VocabMin, VocabMax). The range holds only ordinary tokens of every
// benchmark's tokenizer: Llama 2's 32,000-token vocabulary (specials 0-2),
// Llama 3.1 (specials from 128000), DeepSeek-R1 (specials 0-1 and from
// 128000) and gpt-oss's o200k_harmony (specials from 199998). So no
// generated ID is a special or EOS token, and every answer decodes.
const (
	VocabMin = 1000
	VocabMax = 30000
)

// StopTokenID is the token SGLang's finish_reason reports as "matched" when a
// request ends before its max_new_tokens: gpt-oss's <|return|> (200002), its
// end-of-generation token. The fake never puts it in output_ids, so the token
// count a client sees is exactly the number of generated ordinary tokens.
const StopTokenID = 200002

// splitmix64 is the SplitMix64 output function: a fast bijective mixer with
// good avalanche, used for every deterministic choice in the fake.
func splitmix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// promptSeed hashes a token prompt. It is independent of Config.Seed so other
// packages can predict outputs with Tokens alone.
func promptSeed(prompt []int32) uint64 {
	h := uint64(len(prompt))
	for _, v := range prompt {
		h = splitmix64(h ^ uint64(uint32(v)))
	}
	return h
}

// hashString is FNV-1a over s, finished with splitmix64 and mixed with seed.
func hashString(seed uint64, s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return splitmix64(h ^ splitmix64(seed))
}

// unitFloat maps a hash to [0, 1) using its top 53 bits.
func unitFloat(h uint64) float64 { return float64(h>>11) / (1 << 53) }

// Tokens returns the n output token IDs the fake generates for prompt. They
// depend only on the prompt's IDs (not on Config.Seed or the endpoint), lie in
// [VocabMin, VocabMax), and Tokens(p, k) is a prefix of Tokens(p, n) for k < n,
// so a request capped by max tokens gets a prefix of the uncapped answer.
// Tests use it to predict accuracy-log contents exactly.
func Tokens(prompt []int32, n int) []int32 {
	if n <= 0 {
		return []int32{}
	}
	return appendTokens(make([]int32, 0, n), promptSeed(prompt), n)
}

func appendTokens(dst []int32, seed uint64, n int) []int32 {
	state := seed
	for i := 0; i < n; i++ {
		state += 0x9e3779b97f4a7c15
		r := splitmix64(state)
		dst = append(dst, int32(VocabMin+(r>>32)%(VocabMax-VocabMin)))
	}
	return dst
}

// words is the fake detokenizer's vocabulary: token ID t decodes to
// " " + words[t % len(words)]. Plain ASCII, so text needs no JSON escaping.
var words = [...]string{
	"the", "of", "and", "to", "in", "is", "that", "for", "it", "as",
	"was", "with", "be", "by", "on", "not", "he", "this", "are", "or",
	"his", "from", "at", "which", "but", "have", "an", "had", "they", "you",
	"were", "their", "one", "all", "we", "can", "her", "has", "there", "been",
	"if", "more", "when", "will", "would", "who", "so", "no", "model", "token",
	"story", "report", "city", "people", "year", "said", "new", "time", "first", "last",
	"after", "over", "state", "world",
}

// TokenText returns the text the fake decodes token ID t to: a space and a
// word. Completions and SGLang text are the concatenation over output tokens.
func TokenText(t int32) string { return " " + words[uint32(t)%uint32(len(words))] }

func appendTokenText(dst []byte, t int32) []byte {
	dst = append(dst, ' ')
	return append(dst, words[uint32(t)%uint32(len(words))]...)
}

// splitPieces cuts s into the fake chat tokenizer's pieces and returns their
// end offsets. A piece is an optional single space followed by a run of
// letters/digits (like BPE's " word"), or any other single rune. Cuts fall on
// rune boundaries, so every piece is valid UTF-8 on its own and can be
// streamed as one delta; the pieces concatenate back to s.
func splitPieces(s string) []int {
	var ends []int
	i := 0
	for i < len(s) {
		j := i
		if s[j] == ' ' {
			if r, _ := utf8.DecodeRuneInString(s[j+1:]); j+1 < len(s) && isWordRune(r) {
				j++
			}
		}
		r, size := utf8.DecodeRuneInString(s[j:])
		if isWordRune(r) {
			for j < len(s) {
				r, size = utf8.DecodeRuneInString(s[j:])
				if !isWordRune(r) {
					break
				}
				j += size
			}
		} else {
			j += size
		}
		ends = append(ends, j)
		i = j
	}
	return ends
}

func isWordRune(r rune) bool {
	return r != utf8.RuneError && (unicode.IsLetter(r) || unicode.IsDigit(r))
}

// approxTextTokens estimates how many tokens a text prompt takes (about four
// bytes a token, the usual rule of thumb for BPE on English).
func approxTextTokens(s string) int { return (len(s) + 3) / 4 }

// textPromptIDs turns a text prompt into pseudo token IDs (one per four bytes)
// so text prompts feed Tokens like token prompts do.
func textPromptIDs(s string) []int32 {
	ids := make([]int32, 0, approxTextTokens(s))
	for i := 0; i < len(s); i += 4 {
		var v uint32
		for j := i; j < i+4 && j < len(s); j++ {
			v = v<<8 | uint32(s[j])
		}
		ids = append(ids, int32(v&0x7fffffff))
	}
	return ids
}

// encodedTokens holds a request's output tokens pre-encoded once, so every
// stream event, however many tokens it repeats (SGLang's cumulative events
// repeat all of them), is a copy rather than a re-encoding.
type encodedTokens struct {
	ids     []byte // ",id0,id1,…": each ID preceded by a comma
	idOff   []int  // idOff[i] is where token i starts in ids; idOff[n] = len(ids)
	text    []byte // the decoded text
	textOff []int  // likewise for text
}

func encodeTokens(toks []int32) *encodedTokens {
	e := &encodedTokens{
		ids:     make([]byte, 0, 7*len(toks)),
		idOff:   make([]int, len(toks)+1),
		text:    make([]byte, 0, 8*len(toks)),
		textOff: make([]int, len(toks)+1),
	}
	for i, t := range toks {
		e.idOff[i], e.textOff[i] = len(e.ids), len(e.text)
		e.ids = append(e.ids, ',')
		e.ids = strconv.AppendInt(e.ids, int64(t), 10)
		e.text = appendTokenText(e.text, t)
	}
	e.idOff[len(toks)], e.textOff[len(toks)] = len(e.ids), len(e.text)
	return e
}

// len is the number of tokens held.
func (e *encodedTokens) len() int { return len(e.idOff) - 1 }

// appendIDs appends tokens [from, to) as a JSON array.
func (e *encodedTokens) appendIDs(dst []byte, from, to int) []byte {
	dst = append(dst, '[')
	if from < to {
		dst = append(dst, e.ids[e.idOff[from]+1:e.idOff[to]]...)
	}
	return append(dst, ']')
}

// appendText appends the text of tokens [from, to), unquoted (it is ASCII
// words and needs no escaping).
func (e *encodedTokens) appendText(dst []byte, from, to int) []byte {
	return append(dst, e.text[e.textOff[from]:e.textOff[to]]...)
}
