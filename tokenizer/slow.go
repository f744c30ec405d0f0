package tokenizer

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// spieceUnderline is sentencepiece's whitespace symbol "▁" (U+2581).
const spieceUnderline = "\u2581"

// slowLlama holds what transformers' slow LlamaTokenizer needs beyond the vocabulary, read from
// tokenizer_config.json: "legacy" (absent or null means true, with transformers' warning) and
// "add_prefix_space" (default true).
type slowLlama struct {
	legacy         bool
	addPrefixSpace bool
	named          map[string]bool // all_special_tokens: the config's named special tokens
}

// decodeSlowLlama decodes as transformers' LlamaTokenizer (use_fast=False, over sentencepiece)
// does in 4.46.2 - what the llama2-70b reference evaluator runs. It differs from the fast
// tokenizer in two places: leading spaces (the slow one strips a "▁" of the first token and, with
// legacy=True, sentencepiece strips one more: "▁▁" first decodes to "" instead of " "), and
// broken byte-fallback runs (sentencepiece replaces only the bytes that are invalid, one U+FFFD
// each, and keeps the valid characters of the run; ByteFallback replaces every byte of the run).
func (t *Tokenizer) decodeSlowLlama(ids []int, opt DecodeOptions) (string, error) {
	s := t.slow
	if s == nil {
		return "", fmt.Errorf("tokenizer: %s has no sentencepiece byte-fallback vocabulary (a ByteFallback decoder): the slow Llama decode does not apply", t.path)
	}
	toks := make([]string, 0, len(ids))
	for _, id := range ids {
		if id < 0 || id >= len(t.tokens) || !t.known[id] {
			return "", fmt.Errorf("tokenizer: token ID %d is not in %s (vocabulary size %d); sentencepiece raises \"piece id is out of range\" for it", id, t.path, len(t.tokens))
		}
		tok := t.tokens[id]
		if opt.SkipSpecialTokens && s.named[tok] {
			continue
		}
		if _, added := t.enc.added[tok]; added && !s.named[tok] && !t.special[id] {
			return "", fmt.Errorf("tokenizer: token %q (ID %d) is a non-special added token; the slow Llama decode of those is not supported", tok, id)
		}
		toks = append(toks, tok)
	}
	if len(toks) == 0 {
		return "", nil
	}
	return s.tokensToString(toks, t.enc.vocab), nil
}

// tokensToString is LlamaTokenizer.convert_tokens_to_string: special tokens are written as they
// are, the pieces between them go through sentencepiece's decode.
func (s *slowLlama) tokensToString(toks []string, vocab map[string]int) string {
	if strings.HasPrefix(toks[0], spieceUnderline) && s.addPrefixSpace {
		toks[0] = toks[0][len(spieceUnderline):]
	}
	var out strings.Builder
	var cur []string
	prevSpecial := false
	for i, tok := range toks {
		if s.named[tok] {
			if !prevSpecial && i != 0 && s.legacy {
				out.WriteByte(' ')
			}
			out.WriteString(s.spDecode(cur, vocab))
			out.WriteString(tok)
			prevSpecial, cur = true, cur[:0]
			continue
		}
		if prevSpecial && i == 1 && s.addPrefixSpace && !strings.HasPrefix(tok, spieceUnderline) {
			out.WriteByte(' ')
		}
		cur = append(cur, tok)
		prevSpecial = false
	}
	out.WriteString(s.spDecode(cur, vocab))
	return out.String()
}

// spDecode is SentencePieceProcessor::Decode on pieces (sentencepiece 0.2.0,
// sentencepiece_processor.cc): byte pieces are gathered and decoded a character at a time, an
// invalid byte giving U+FFFD; other pieces turn "▁" into spaces, and while nothing has been written
// yet the first piece loses one leading "▁" when the model adds a dummy prefix - which it does
// for Llama 2 under legacy=True, and which transformers switches off for legacy=False. A piece
// that is not in the vocabulary (the first one after transformers stripped its "▁") is unknown
// and written as it is.
func (s *slowLlama) spDecode(pieces []string, vocab map[string]int) string {
	var text []byte
	var run []byte
	flush := func() {
		for len(run) > 0 {
			r, n := utf8.DecodeRune(run)
			if r == utf8.RuneError && n == 1 {
				text = append(text, "\uFFFD"...)
			} else {
				text = append(text, run[:n]...)
			}
			run = run[n:]
		}
	}
	isBosWS, bosWSSeen := true, false
	for _, p := range pieces {
		_, inVocab := vocab[p]
		if b, ok := byteToken(p); ok && inVocab {
			run = append(run, b)
			continue
		}
		flush()
		if bosWSSeen || len(text) > 0 {
			isBosWS = false
		}
		if !inVocab {
			text, bosWSSeen = append(text, p...), false
			continue
		}
		bosWSSeen = false
		if isBosWS && s.legacy && strings.HasPrefix(p, spieceUnderline) {
			p, bosWSSeen = p[len(spieceUnderline):], true
		}
		text = append(text, strings.ReplaceAll(p, spieceUnderline, " ")...)
	}
	flush()
	return string(text)
}
