package tokenizer

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// decoder is one step of a tokenizers decoder chain: decode_chain in the Rust library
// (tokenizers 0.20.3, src/decoders), which maps a list of token strings to a list of strings;
// the final text is their concatenation.
type decoder interface {
	decodeChain(tokens []string) []string
}

// rawDecoder is the JSON of a decoder, a normalizer or a pre-tokenizer: a "type" and its fields.
type rawDecoder struct {
	Type string `json:"type"`
	// Sequence
	Decoders      []json.RawMessage `json:"decoders"`
	Normalizers   []json.RawMessage `json:"normalizers"`
	Pretokenizers []json.RawMessage `json:"pretokenizers"`
	// Replace, Split
	Pattern *struct {
		String *string `json:"String"`
		Regex  *string `json:"Regex"`
	} `json:"pattern"`
	Content *string `json:"content"` // Replace, Strip (a one-character string)
	// Strip
	Start int `json:"start"`
	Stop  int `json:"stop"`
	// Metaspace
	Replacement    *string `json:"replacement"`
	StrRep         *string `json:"str_rep"`
	PrependScheme  *string `json:"prepend_scheme"`
	AddPrefixSpace *bool   `json:"add_prefix_space"`
	Split          *bool   `json:"split"`
	// ByteLevel
	UseRegex *bool `json:"use_regex"`
	// Split
	Behavior string `json:"behavior"`
	Invert   bool   `json:"invert"`
	// Prepend
	Prepend *string `json:"prepend"`
}

// parseDecoder builds the decoder chain of a tokenizer.json. Types the real tokenizers of the
// MLPerf LLMs do not use are refused by name rather than decoded wrongly.
func parseDecoder(raw json.RawMessage) (decoder, error) {
	var d rawDecoder
	if err := json.Unmarshal(raw, &d); err != nil {
		return nil, fmt.Errorf("decoder: %w", err)
	}
	switch d.Type {
	case "ByteLevel":
		return byteLevelDecoder{}, nil
	case "Metaspace":
		return parseMetaspace(d)
	case "Replace":
		if d.Pattern == nil || d.Pattern.String == nil || d.Content == nil {
			return nil, fmt.Errorf("decoder Replace: only a String pattern with a content is supported (a Regex pattern would need the Oniguruma engine)")
		}
		return replaceDecoder{from: *d.Pattern.String, to: *d.Content}, nil
	case "ByteFallback":
		return byteFallbackDecoder{}, nil
	case "Fuse":
		return fuseDecoder{}, nil
	case "Strip":
		if d.Content == nil || utf8.RuneCountInString(*d.Content) != 1 || d.Start < 0 || d.Stop < 0 {
			return nil, fmt.Errorf("decoder Strip: want a one-character content and non-negative start, stop")
		}
		r, _ := utf8.DecodeRuneInString(*d.Content)
		return stripDecoder{content: r, start: d.Start, stop: d.Stop}, nil
	case "Sequence":
		seq := make(sequenceDecoder, 0, len(d.Decoders))
		for i, sub := range d.Decoders {
			dec, err := parseDecoder(sub)
			if err != nil {
				return nil, fmt.Errorf("Sequence[%d]: %w", i, err)
			}
			seq = append(seq, dec)
		}
		return seq, nil
	case "":
		return nil, fmt.Errorf("decoder has no \"type\" (a legacy tokenizer.json; re-save it with a recent transformers)")
	}
	return nil, fmt.Errorf("decoder type %q is not supported (supported: ByteLevel, Metaspace, Replace, ByteFallback, Fuse, Strip, Sequence)", d.Type)
}

// sequenceDecoder applies its decoders one after the other (decoders/sequence.rs).
type sequenceDecoder []decoder

func (s sequenceDecoder) decodeChain(tokens []string) []string {
	for _, d := range s {
		tokens = d.decodeChain(tokens)
	}
	return tokens
}

// byteLevelDecoder maps each token's characters back to bytes through GPT-2's byte-to-unicode
// table; a token with a character outside the table keeps its own UTF-8 bytes whole. The bytes of
// all tokens are joined and made valid UTF-8 as String::from_utf8_lossy does
// (pre_tokenizers/byte_level.rs).
type byteLevelDecoder struct{}

func (byteLevelDecoder) decodeChain(tokens []string) []string {
	var buf []byte
	for _, t := range tokens {
		buf = appendByteLevel(buf, t)
	}
	return []string{string(AppendLossyUTF8(nil, buf))}
}

// appendByteLevel appends the bytes one token stands for under the ByteLevel decoder.
func appendByteLevel(dst []byte, tok string) []byte {
	start := len(dst)
	for _, r := range tok {
		b, ok := charToByte(r)
		if !ok {
			return append(dst[:start], tok...)
		}
		dst = append(dst, b)
	}
	return dst
}

// metaspaceDecoder turns the replacement character back into spaces; in the first token (when a
// prefix is prepended) every replacement character is dropped, not only a leading one - the Rust
// code's behaviour, kept (pre_tokenizers/metaspace.rs).
type metaspaceDecoder struct {
	replacement rune
	prepend     bool // prepend_scheme != "never"
}

func parseMetaspace(d rawDecoder) (metaspaceDecoder, error) {
	rep := "\u2581"
	if d.Replacement != nil {
		rep = *d.Replacement
	} else if d.StrRep != nil {
		rep = *d.StrRep
	}
	if utf8.RuneCountInString(rep) != 1 {
		return metaspaceDecoder{}, fmt.Errorf("Metaspace: replacement %q is not one character", rep)
	}
	r, _ := utf8.DecodeRuneInString(rep)
	scheme := "always" // the Rust default when the field is absent
	if d.PrependScheme != nil {
		scheme = *d.PrependScheme
	}
	if d.AddPrefixSpace != nil && !*d.AddPrefixSpace {
		scheme = "never"
	}
	switch scheme {
	case "always", "first", "never":
	default:
		return metaspaceDecoder{}, fmt.Errorf("Metaspace: prepend_scheme %q is not always, first or never", scheme)
	}
	return metaspaceDecoder{replacement: r, prepend: scheme != "never"}, nil
}

func (m metaspaceDecoder) decodeChain(tokens []string) []string {
	out := make([]string, len(tokens))
	for i, t := range tokens {
		if i == 0 && m.prepend {
			out[i] = strings.ReplaceAll(t, string(m.replacement), "")
		} else {
			out[i] = strings.ReplaceAll(t, string(m.replacement), " ")
		}
	}
	return out
}

// replaceDecoder replaces a literal string in each token (normalizers/replace.rs, String pattern).
type replaceDecoder struct{ from, to string }

func (r replaceDecoder) decodeChain(tokens []string) []string {
	out := make([]string, len(tokens))
	for i, t := range tokens {
		if r.from == "" {
			out[i] = t
			continue
		}
		out[i] = strings.ReplaceAll(t, r.from, r.to)
	}
	return out
}

// byteFallbackDecoder turns runs of "<0xXX>" tokens into the bytes they name: a run that is valid
// UTF-8 becomes its text, an invalid run becomes one U+FFFD PER BYTE - unlike the ByteLevel
// decoder's maximal-subpart rule (decoders/byte_fallback.rs).
type byteFallbackDecoder struct{}

func (byteFallbackDecoder) decodeChain(tokens []string) []string {
	out := make([]string, 0, len(tokens))
	var run []byte
	flush := func() {
		if len(run) == 0 {
			return
		}
		if utf8.Valid(run) {
			out = append(out, string(run))
		} else {
			for range run {
				out = append(out, "\uFFFD")
			}
		}
		run = run[:0]
	}
	for _, t := range tokens {
		if b, ok := byteToken(t); ok {
			run = append(run, b)
			continue
		}
		flush()
		out = append(out, t)
	}
	flush()
	return out
}

// byteToken parses a byte-fallback token "<0xXX>" (six bytes, hex digits in either case, as
// u8::from_str_radix accepts; a "+" sign is accepted there too and so here).
func byteToken(t string) (byte, bool) {
	if len(t) != 6 || !strings.HasPrefix(t, "<0x") || t[5] != '>' {
		return 0, false
	}
	v, err := strconv.ParseUint(t[3:5], 16, 8)
	if err != nil {
		if t[3] == '+' {
			v, err = strconv.ParseUint(t[4:5], 16, 8)
			return byte(v), err == nil
		}
		return 0, false
	}
	return byte(v), true
}

// fuseDecoder joins all tokens into one (decoders/fuse.rs).
type fuseDecoder struct{}

func (fuseDecoder) decodeChain(tokens []string) []string {
	return []string{strings.Join(tokens, "")}
}

// stripDecoder removes up to start leading and stop trailing occurrences of content from each
// token (decoders/strip.rs).
type stripDecoder struct {
	content     rune
	start, stop int
}

func (s stripDecoder) decodeChain(tokens []string) []string {
	out := make([]string, len(tokens))
	for i, t := range tokens {
		rs := []rune(t)
		lo := 0
		for lo < s.start && lo < len(rs) && rs[lo] == s.content {
			lo++
		}
		hi := len(rs)
		for k := 0; k < s.stop && hi > lo && rs[hi-1] == s.content; k++ {
			hi--
		}
		out[i] = string(rs[lo:hi])
	}
	return out
}
