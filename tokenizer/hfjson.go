package tokenizer

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
)

// hfFile is the part of a Hugging Face tokenizer.json this package reads.
type hfFile struct {
	AddedTokens  []addedToken    `json:"added_tokens"`
	Normalizer   json.RawMessage `json:"normalizer"`
	PreTokenizer json.RawMessage `json:"pre_tokenizer"`
	Decoder      json.RawMessage `json:"decoder"`
	Model        hfModel         `json:"model"`
}

// addedToken is an entry of "added_tokens" (tokenizers' AddedToken with its id). Equality of two
// added tokens is equality of every field but the id, as in the Rust struct.
type addedToken struct {
	ID         int    `json:"id"`
	Content    string `json:"content"`
	SingleWord bool   `json:"single_word"`
	LStrip     bool   `json:"lstrip"`
	RStrip     bool   `json:"rstrip"`
	Normalized bool   `json:"normalized"`
	Special    bool   `json:"special"`
}

func (a addedToken) sameAs(b addedToken) bool {
	a.ID, b.ID = 0, 0
	return a == b
}

// hfModel is the "model" object. Only BPE is supported: every MLPerf LLM tokenizer is one.
type hfModel struct {
	Type                    string          `json:"type"`
	RawVocab                json.RawMessage `json:"vocab"`
	Vocab                   map[string]int  `json:"-"` // RawVocab read once the type is known
	Merges                  json.RawMessage `json:"merges"`
	UnkToken                *string         `json:"unk_token"`
	FuseUnk                 bool            `json:"fuse_unk"`
	ByteFallback            bool            `json:"byte_fallback"`
	IgnoreMerges            bool            `json:"ignore_merges"`
	Dropout                 *float64        `json:"dropout"`
	ContinuingSubwordPrefix *string         `json:"continuing_subword_prefix"`
	EndOfWordSuffix         *string         `json:"end_of_word_suffix"`
}

// LoadJSON reads a Hugging Face tokenizer.json and, when present beside it, tokenizer_config.json
// (clean_up_tokenization_spaces, added_tokens_decoder, bos/eos and other special tokens), as
// transformers' PreTrainedTokenizerFast.from_pretrained does. Without a config, clean-up is off:
// transformers' default since 4.45.
func LoadJSON(path string) (*Tokenizer, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("tokenizer: %w", err)
	}
	var cfg *tokenizerConfig
	cfgPath := filepath.Join(filepath.Dir(path), "tokenizer_config.json")
	if _, err := os.Stat(cfgPath); err == nil {
		if cfg, err = readConfig(cfgPath); err != nil {
			return nil, err
		}
	}
	t, err := parseJSON(data, cfg)
	if err != nil {
		return nil, fmt.Errorf("tokenizer: %s: %w", path, err)
	}
	t.path = path
	if cfg != nil {
		t.cleanUp, t.cleanUpSource = cfg.cleanUp(cfgPath)
	} else {
		t.cleanUpSource = "default false (no tokenizer_config.json beside " + path + "; transformers' default since 4.45)"
	}
	return t, nil
}

// parseJSON builds a Tokenizer from tokenizer.json bytes and an optional parsed config.
func parseJSON(data []byte, cfg *tokenizerConfig) (*Tokenizer, error) {
	var f hfFile
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("not a tokenizer.json: %w", err)
	}
	m := f.Model
	if m.Type == "" && m.Merges != nil {
		m.Type = "BPE" // files written before the "type" field existed
	}
	if m.Type != "BPE" {
		return nil, fmt.Errorf("model type %q is not supported (only BPE, which the Llama, DeepSeek and gpt-oss tokenizers use)", m.Type)
	}
	if err := json.Unmarshal(m.RawVocab, &m.Vocab); err != nil {
		return nil, fmt.Errorf("model vocab: %w", err)
	}
	for tok, id := range m.Vocab {
		if id < 0 || id >= maxTokenID {
			return nil, fmt.Errorf("model vocab: token %q has id %d, outside 0..%d", tok, id, maxTokenID-1)
		}
	}
	av := newAddedVocab(m.Vocab)
	for _, a := range f.AddedTokens {
		av.add(a)
	}
	if cfg != nil {
		cfg.addTokens(av)
	}
	t := &Tokenizer{format: "tokenizer.json", specialTokens: map[string]string{}}
	if cfg != nil {
		t.specialTokens = cfg.named
	}
	t.buildTables(m.Vocab, av)
	if len(f.Decoder) > 0 && !bytes.Equal(f.Decoder, []byte("null")) {
		d, err := parseDecoder(f.Decoder)
		if err != nil {
			return nil, err
		}
		if _, ok := d.(byteLevelDecoder); ok {
			t.pieces = make([][]byte, len(t.tokens))
			for id, s := range t.tokens {
				if t.known[id] {
					t.pieces[id] = appendByteLevel(nil, s)
				}
			}
		} else {
			t.decoder = d
		}
		if hasByteFallback(d) {
			t.slow = cfg.slowLlama()
			if cfg == nil {
				for s := range av.specialSet {
					t.slow.named[s] = true
				}
			}
		}
	}
	t.enc = newJSONEncoder(&f, m, av)
	return t, nil
}

// buildTables fills the id -> token tables: an added token wins over the model's token of the
// same id (tokenizers' id_to_token asks the added vocabulary first), and an id is special when its
// token string is in the special set (is_special_token compares strings).
func (t *Tokenizer) buildTables(vocab map[string]int, av *addedVocab) {
	size := 0
	for _, id := range vocab {
		size = max(size, id+1)
	}
	for id := range av.byID {
		size = max(size, id+1)
	}
	t.tokens = make([]string, size)
	t.known = make([]bool, size)
	t.special = make([]bool, size)
	for s, id := range vocab {
		if t.known[id] && t.tokens[id] < s {
			continue // two strings with one id: keep one deterministically
		}
		t.tokens[id], t.known[id] = s, true
	}
	for id, a := range av.byID {
		t.tokens[id], t.known[id] = a.Content, true
	}
	for id, s := range t.tokens {
		t.special[id] = t.known[id] && av.specialSet[s]
	}
}

// addedVocab mirrors tokenizers' AddedVocabulary bookkeeping (tokenizer/added_vocabulary.rs,
// add_tokens): an added token whose content is in the model vocabulary takes that id, a new one
// takes the next id after the vocabulary (or after the largest added id). The ids written in the
// file are not what decides: the Rust code only warns when they differ.
type addedVocab struct {
	vocab      map[string]int
	byContent  map[string]int
	byID       map[int]addedToken
	specialSet map[string]bool
}

func newAddedVocab(vocab map[string]int) *addedVocab {
	return &addedVocab{vocab: vocab, byContent: map[string]int{}, byID: map[int]addedToken{}, specialSet: map[string]bool{}}
}

func (av *addedVocab) add(a addedToken) {
	if a.Special && a.Content != "" {
		av.specialSet[a.Content] = true
	}
	if a.Content == "" {
		return
	}
	for _, old := range av.byID {
		if old.sameAs(a) {
			return
		}
	}
	id, ok := av.byContent[a.Content]
	if !ok {
		id, ok = av.vocab[a.Content]
	}
	if !ok {
		id = len(av.vocab)
		if maxID, any := av.maxID(); any && (maxID >= len(av.vocab) || len(av.vocab) == 0) {
			id = maxID + 1
		}
	}
	av.byContent[a.Content] = id
	a.ID = id
	av.byID[id] = a
}

func (av *addedVocab) maxID() (int, bool) {
	m, any := 0, false
	for _, id := range av.byContent {
		if !any || id > m {
			m, any = id, true
		}
	}
	return m, any
}

// sortedAdded returns the added tokens by id, for deterministic iteration.
func (av *addedVocab) sortedAdded() []addedToken {
	out := make([]addedToken, 0, len(av.byID))
	for _, a := range av.byID {
		out = append(out, a)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// maxTokenID bounds the ids a file may use (the tables are dense slices): 2^26, far above the
// largest real vocabulary (gpt-oss: about 201k).
const maxTokenID = 1 << 26

// errNoTokenizer is wrapped by Load when a path holds no tokenizer file it can read.
var errNoTokenizer = errors.New("no tokenizer")

// hasByteFallback reports whether a decoder chain has a ByteFallback step: the mark of a
// vocabulary converted from sentencepiece, whose slow tokenizer decodes differently.
func hasByteFallback(d decoder) bool {
	switch d := d.(type) {
	case byteFallbackDecoder:
		return true
	case sequenceDecoder:
		for _, s := range d {
			if hasByteFallback(s) {
				return true
			}
		}
	}
	return false
}
