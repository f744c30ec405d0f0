package tokenizer

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"
)

// encoder holds what Encode needs. err, when set, says why this tokenizer cannot encode (a
// normalizer or pre-tokenizer type this package does not implement); decoding is unaffected.
type encoder struct {
	vocab map[string]int // model vocabulary (byte-level spelling for byte-level models)
	added map[string]int // added token content -> id
	err   error

	rawAdded  []string // added tokens matched on the raw text (normalized=false), longest first
	normAdded []string // added tokens matched after normalization (normalized=true)

	normalize   func(string) string // nil: none
	preTok      preTokenizer
	byteLevel   bool     // words are bytes mapped through the byte-level alphabet
	byteID      [256]int // byte-level: id of each single byte (-1 when missing)
	merges      map[uint64]merge
	byteFallbck bool
	unk         int // -1: none
	fuseUnk     bool
	ignoreMerge bool
}

// merge is the result of merging a pair: its priority (lower first) and the new token's id.
type merge struct{ rank, id int }

func pairKey(a, b int) uint64 { return uint64(uint32(a))<<32 | uint64(uint32(b)) }

// Encode turns text into token IDs as the tokenizers library's encode(text,
// add_special_tokens=False).ids does: added tokens in the text are matched first (leftmost,
// longest), the rest is normalized, pre-tokenized and split by BPE. It supports the Llama 3
// pre-tokenizer (a hand-written form of its regex, whose lookahead Go's regexp lacks),
// Metaspace, ByteLevel without its regex, and the Prepend/Replace normalizers of Llama 2; for
// other types it returns an error naming them. text should be valid UTF-8, as Python strings are;
// an invalid byte counts as a punctuation character.
func (t *Tokenizer) Encode(text string) ([]int, error) {
	e := t.enc
	if e == nil || e.err != nil {
		err := fmt.Errorf("cannot encode")
		if e != nil {
			err = e.err
		}
		return nil, fmt.Errorf("tokenizer: %s: %w", t.path, err)
	}
	var ids []int
	for _, seg := range splitAdded(text, 0, e.rawAdded) {
		if seg.added {
			ids = append(ids, e.added[seg.text])
			continue
		}
		norm := seg.text
		if e.normalize != nil {
			norm = e.normalize(norm)
		}
		for _, sub := range splitAdded(norm, seg.start, e.normAdded) {
			if sub.added {
				ids = append(ids, e.added[sub.text])
				continue
			}
			for _, w := range e.preTok.split(sub.text, seg.start == 0 && sub.start == seg.start) {
				ids = e.tokenizeWord(ids, w)
			}
		}
	}
	return ids, nil
}

// segment is a piece of text: an added token or text between them; start is its byte offset in
// the original text (for Metaspace's "first" scheme).
type segment struct {
	text  string
	start int
	added bool
}

// splitAdded cuts s around the added tokens, leftmost and longest first (tokenizers uses
// Aho-Corasick with MatchKind::LeftmostLongest). tokens is sorted longest first.
func splitAdded(s string, base int, tokens []string) []segment {
	if len(tokens) == 0 || s == "" {
		if s == "" {
			return nil
		}
		return []segment{{text: s, start: base}}
	}
	var out []segment
	last := 0
	var first [256]bool // first bytes of the tokens: most positions are skipped on one lookup
	for _, tok := range tokens {
		first[tok[0]] = true
	}
	for i := 0; i < len(s); {
		m := ""
		if first[s[i]] {
			for _, tok := range tokens {
				if strings.HasPrefix(s[i:], tok) {
					m = tok
					break
				}
			}
		}
		if m == "" {
			i++
			continue
		}
		if i > last {
			out = append(out, segment{text: s[last:i], start: base + last})
		}
		out = append(out, segment{text: m, start: base + i, added: true})
		i += len(m)
		last = i
	}
	if last < len(s) {
		out = append(out, segment{text: s[last:], start: base + last})
	}
	return out
}

// tokenizeWord appends the BPE ids of one pre-tokenized word (BPE::tokenize, tokenizers 0.20.3).
func (e *encoder) tokenizeWord(ids []int, w string) []int {
	if w == "" {
		return ids
	}
	key := w
	if e.byteLevel {
		key = byteLevelString([]byte(w))
	}
	if e.ignoreMerge {
		if id, ok := e.vocab[key]; ok {
			return append(ids, id)
		}
	}
	var syms []int
	if e.byteLevel {
		syms = make([]int, 0, len(w))
		for i := 0; i < len(w); i++ {
			if id := e.byteID[w[i]]; id >= 0 {
				syms = append(syms, id)
			}
		}
	} else {
		syms = e.initialSymbols(w)
	}
	return append(ids, e.mergeAll(syms)...)
}

// initialSymbols maps each character to its id, else (byte_fallback) to "<0xXX>" ids, else to
// the unknown token, fused when fuse_unk (BPE::merge_word). Like the Rust code, an unknown
// token waiting to be fused is only written when the next known character comes.
func (e *encoder) initialSymbols(w string) []int {
	syms := make([]int, 0, len(w))
	pendingUnk := false
	for _, r := range w {
		c := string(r)
		if id, ok := e.vocab[c]; ok {
			if pendingUnk {
				syms, pendingUnk = append(syms, e.unk), false
			}
			syms = append(syms, id)
			continue
		}
		if e.byteFallbck {
			bs := make([]int, 0, 4)
			for i := 0; i < len(c); i++ {
				id, ok := e.vocab[fmt.Sprintf("<0x%02X>", c[i])]
				if !ok {
					bs = nil
					break
				}
				bs = append(bs, id)
			}
			if bs != nil {
				syms = append(syms, bs...)
				continue
			}
		}
		if e.unk >= 0 {
			if pendingUnk && !e.fuseUnk {
				syms = append(syms, e.unk)
			}
			pendingUnk = true
		}
	}
	if pendingUnk {
		syms = append(syms, e.unk)
	}
	return syms
}

// mergeAll applies merges lowest rank first, leftmost first among equal ranks - Word::merge_all's
// priority queue of (rank, position), with stale entries skipped.
func (e *encoder) mergeAll(syms []int) []int {
	n := len(syms)
	if n < 2 {
		return syms
	}
	prev := make([]int, n)
	next := make([]int, n)
	alive := make([]bool, n)
	for i := range syms {
		prev[i], next[i], alive[i] = i-1, i+1, true
	}
	next[n-1] = -1
	var h mergeHeap
	for i := 0; i+1 < n; i++ {
		if m, ok := e.merges[pairKey(syms[i], syms[i+1])]; ok {
			h.push(mergeItem{m.rank, i, m.id})
		}
	}
	for len(h) > 0 {
		top := h.pop()
		p := top.pos
		if !alive[p] || next[p] < 0 {
			continue
		}
		q := next[p]
		if m, ok := e.merges[pairKey(syms[p], syms[q])]; !ok || m.id != top.id {
			continue // stale: a neighbour changed since this pair was queued
		}
		syms[p] = top.id
		alive[q] = false
		next[p] = next[q]
		if next[q] >= 0 {
			prev[next[q]] = p
		}
		if prev[p] >= 0 {
			if m, ok := e.merges[pairKey(syms[prev[p]], syms[p])]; ok {
				h.push(mergeItem{m.rank, prev[p], m.id})
			}
		}
		if next[p] >= 0 {
			if m, ok := e.merges[pairKey(syms[p], syms[next[p]])]; ok {
				h.push(mergeItem{m.rank, p, m.id})
			}
		}
	}
	out := syms[:0]
	for i := 0; i >= 0; i = next[i] {
		out = append(out, syms[i])
	}
	return out
}

type mergeItem struct{ rank, pos, id int }

// mergeHeap is a binary min-heap on (rank, pos).
type mergeHeap []mergeItem

func (h mergeItem) less(o mergeItem) bool {
	return h.rank < o.rank || h.rank == o.rank && h.pos < o.pos
}

func (h *mergeHeap) push(x mergeItem) {
	*h = append(*h, x)
	s := *h
	for i := len(s) - 1; i > 0; {
		p := (i - 1) / 2
		if !s[i].less(s[p]) {
			break
		}
		s[i], s[p] = s[p], s[i]
		i = p
	}
}

func (h *mergeHeap) pop() mergeItem {
	s := *h
	top := s[0]
	last := len(s) - 1
	s[0] = s[last]
	s = s[:last]
	for i := 0; ; {
		l, r, m := 2*i+1, 2*i+2, i
		if l < len(s) && s[l].less(s[m]) {
			m = l
		}
		if r < len(s) && s[r].less(s[m]) {
			m = r
		}
		if m == i {
			break
		}
		s[i], s[m] = s[m], s[i]
		i = m
	}
	*h = s
	return top
}

// newTiktokenEncoder builds a byte-level BPE from tiktoken ranks: the pair (a, b) merges into the
// token a+b with a+b's rank as priority - tiktoken's byte_pair_merge.
func newTiktokenEncoder(ranks [][]byte, added map[string]int) *encoder {
	e := &encoder{vocab: make(map[string]int, len(ranks)), added: added, byteLevel: true, unk: -1,
		ignoreMerge: true, merges: make(map[uint64]merge, 2*len(ranks)), preTok: llama3PreTokenizer{}}
	byRaw := make(map[string]int, len(ranks))
	for id, b := range ranks {
		byRaw[string(b)] = id
		e.vocab[byteLevelString(b)] = id
	}
	for i := range e.byteID {
		e.byteID[i] = -1
		if id, ok := byRaw[string([]byte{byte(i)})]; ok {
			e.byteID[i] = id
		}
	}
	for id, b := range ranks {
		for k := 1; k < len(b); k++ {
			l, lok := byRaw[string(b[:k])]
			r, rok := byRaw[string(b[k:])]
			if lok && rok {
				e.merges[pairKey(l, r)] = merge{id, id}
			}
		}
	}
	e.setAdded(added, nil)
	return e
}

// setAdded sorts the added tokens for matching, longest first.
func (e *encoder) setAdded(raw map[string]int, norm []string) {
	for s := range raw {
		if s != "" { // an empty token would match everywhere; tokenizers ignores it too
			e.rawAdded = append(e.rawAdded, s)
		}
	}
	for _, s := range norm {
		if s != "" {
			e.normAdded = append(e.normAdded, s)
		}
	}
	for _, l := range [][]string{e.rawAdded, e.normAdded} {
		sort.Slice(l, func(i, j int) bool {
			if len(l[i]) != len(l[j]) {
				return len(l[i]) > len(l[j])
			}
			return l[i] < l[j]
		})
	}
}

// newJSONEncoder builds the encoder of a tokenizer.json. What it cannot encode is recorded in
// err, so such a tokenizer still loads and decodes.
func newJSONEncoder(f *hfFile, m hfModel, av *addedVocab) *encoder {
	e := &encoder{vocab: m.Vocab, added: map[string]int{}, unk: -1, byteFallbck: m.ByteFallback,
		fuseUnk: m.FuseUnk, ignoreMerge: m.IgnoreMerges}
	raw := map[string]int{}
	var norm []string
	for _, a := range av.sortedAdded() {
		e.added[a.Content] = a.ID
		if a.LStrip || a.RStrip || a.SingleWord {
			e.err = fmt.Errorf("added token %q has lstrip/rstrip/single_word, which Encode does not implement", a.Content)
		}
		if a.Normalized {
			norm = append(norm, a.Content)
		} else {
			raw[a.Content] = a.ID
		}
	}
	e.setAdded(raw, norm)
	if err := e.setModel(m); err != nil {
		e.err = err
		return e
	}
	var err error
	if e.normalize, err = parseNormalizer(f.Normalizer); err != nil {
		e.err = err
		return e
	}
	if e.preTok, e.byteLevel, err = parsePreTokenizer(f.PreTokenizer); err != nil {
		e.err = err
		return e
	}
	if e.byteLevel {
		for i := range e.byteID {
			e.byteID[i] = -1
			if id, ok := e.vocab[string(byteToChar[i])]; ok {
				e.byteID[i] = id
			}
		}
	}
	return e
}

// setModel reads the BPE merges ("a b" strings or [a, b] pairs) into the pair map; a later
// duplicate of a pair wins, as the Rust HashMap collect does.
func (e *encoder) setModel(m hfModel) error {
	if m.Dropout != nil && *m.Dropout > 0 {
		return fmt.Errorf("BPE dropout %v makes encoding random; not supported", *m.Dropout)
	}
	if (m.ContinuingSubwordPrefix != nil && *m.ContinuingSubwordPrefix != "") || (m.EndOfWordSuffix != nil && *m.EndOfWordSuffix != "") {
		return fmt.Errorf("BPE continuing_subword_prefix/end_of_word_suffix are not supported")
	}
	if m.UnkToken != nil {
		id, ok := m.Vocab[*m.UnkToken]
		if !ok {
			return fmt.Errorf("unk_token %q is not in the vocabulary", *m.UnkToken)
		}
		e.unk = id
	}
	var pairs [][2]string
	var strs []string
	if len(m.Merges) > 0 {
		if err := json.Unmarshal(m.Merges, &strs); err == nil {
			pairs = make([][2]string, len(strs))
			for i, s := range strs {
				a, b, ok := strings.Cut(s, " ")
				if !ok {
					return fmt.Errorf("merge %d %q is not \"a b\"", i, s)
				}
				pairs[i] = [2]string{a, b}
			}
		} else if err := json.Unmarshal(m.Merges, &pairs); err != nil {
			return fmt.Errorf("model merges: %w", err)
		}
	}
	e.merges = make(map[uint64]merge, len(pairs))
	for i, p := range pairs {
		a, aok := m.Vocab[p[0]]
		b, bok := m.Vocab[p[1]]
		id, ok := m.Vocab[p[0]+p[1]]
		if !aok || !bok || !ok {
			return fmt.Errorf("merge %d (%q, %q) uses a token missing from the vocabulary", i, p[0], p[1])
		}
		e.merges[pairKey(a, b)] = merge{i, id}
	}
	return nil
}

// normalizers and pre-tokenizers ------------------------------------------------------------

// parseNormalizer supports what Llama 2's converted tokenizer uses: Prepend, Replace with a
// String pattern, and Sequence.
func parseNormalizer(raw json.RawMessage) (func(string) string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var d rawDecoder
	if err := json.Unmarshal(raw, &d); err != nil {
		return nil, fmt.Errorf("normalizer: %w", err)
	}
	switch d.Type {
	case "Prepend":
		if d.Prepend == nil {
			return nil, fmt.Errorf("normalizer Prepend has no prepend")
		}
		p := *d.Prepend
		return func(s string) string {
			if s == "" {
				return s
			}
			return p + s
		}, nil
	case "Replace":
		if d.Pattern == nil || d.Pattern.String == nil || d.Content == nil {
			return nil, fmt.Errorf("normalizer Replace: only a String pattern is supported")
		}
		from, to := *d.Pattern.String, *d.Content
		return func(s string) string {
			if from == "" {
				return s
			}
			return strings.ReplaceAll(s, from, to)
		}, nil
	case "Sequence":
		var fs []func(string) string
		for i, sub := range d.Normalizers {
			f, err := parseNormalizer(sub)
			if err != nil {
				return nil, fmt.Errorf("normalizer Sequence[%d]: %w", i, err)
			}
			if f != nil {
				fs = append(fs, f)
			}
		}
		return func(s string) string {
			for _, f := range fs {
				s = f(s)
			}
			return s
		}, nil
	}
	return nil, fmt.Errorf("normalizer type %q is not supported by Encode (supported: Prepend, Replace, Sequence)", d.Type)
}

// preTokenizer splits normalized text into words; first says the text starts the input.
type preTokenizer interface {
	split(s string, first bool) []string
}

type wholePreTokenizer struct{}

func (wholePreTokenizer) split(s string, _ bool) []string { return []string{s} }

// parsePreTokenizer recognises Llama 3's Sequence[Split(its regex, isolated), ByteLevel(no
// regex)], ByteLevel without regex, and Metaspace. byteLevel says words are then byte-level BPE.
func parsePreTokenizer(raw json.RawMessage) (preTokenizer, bool, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return wholePreTokenizer{}, false, nil
	}
	var d rawDecoder
	if err := json.Unmarshal(raw, &d); err != nil {
		return nil, false, fmt.Errorf("pre_tokenizer: %w", err)
	}
	switch d.Type {
	case "ByteLevel":
		if d.UseRegex == nil || *d.UseRegex || (d.AddPrefixSpace != nil && *d.AddPrefixSpace) {
			return nil, false, fmt.Errorf("pre_tokenizer ByteLevel with use_regex or add_prefix_space is not supported by Encode")
		}
		return wholePreTokenizer{}, true, nil
	case "Metaspace":
		md, err := parseMetaspace(d)
		if err != nil {
			return nil, false, err
		}
		scheme := "always"
		if d.PrependScheme != nil {
			scheme = *d.PrependScheme
		}
		if !md.prepend {
			scheme = "never"
		}
		return metaspacePreTokenizer{rep: string(md.replacement), scheme: scheme, splits: d.Split == nil || *d.Split}, false, nil
	case "Sequence":
		if len(d.Pretokenizers) == 2 {
			var split, bl rawDecoder
			_ = json.Unmarshal(d.Pretokenizers[0], &split)
			_ = json.Unmarshal(d.Pretokenizers[1], &bl)
			if split.Type == "Split" && split.Pattern != nil && split.Pattern.Regex != nil &&
				*split.Pattern.Regex == llama3Pattern && split.Behavior == "Isolated" && !split.Invert &&
				bl.Type == "ByteLevel" && bl.UseRegex != nil && !*bl.UseRegex && (bl.AddPrefixSpace == nil || !*bl.AddPrefixSpace) {
				return llama3PreTokenizer{}, true, nil
			}
		}
		return nil, false, fmt.Errorf("pre_tokenizer Sequence: only Llama 3's Split(regex)+ByteLevel is supported by Encode")
	}
	return nil, false, fmt.Errorf("pre_tokenizer type %q is not supported by Encode (supported: Llama 3's Sequence, ByteLevel, Metaspace)", d.Type)
}

// metaspacePreTokenizer replaces spaces with the replacement, prepends one (always, or only at
// the start of the input for "first") unless the text starts with it, and with split cuts before
// each replacement (pre_tokenizers/metaspace.rs, MergedWithNext).
type metaspacePreTokenizer struct {
	rep, scheme string
	splits      bool
}

func (m metaspacePreTokenizer) split(s string, first bool) []string {
	s = strings.ReplaceAll(s, " ", m.rep)
	if (m.scheme == "always" || m.scheme == "first" && first) && !strings.HasPrefix(s, m.rep) {
		s = m.rep + s
	}
	if !m.splits {
		return []string{s}
	}
	var out []string
	last := 0
	for i := 0; i < len(s); {
		if strings.HasPrefix(s[i:], m.rep) && i > last {
			out = append(out, s[last:i])
			last = i
		}
		_, n := utf8.DecodeRuneInString(s[i:])
		i += n
	}
	return append(out, s[last:])
}
