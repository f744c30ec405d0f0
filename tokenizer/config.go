package tokenizer

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strconv"
)

// tokenizerConfig is the part of tokenizer_config.json that changes decoding.
type tokenizerConfig struct {
	CleanUp        *bool                  `json:"clean_up_tokenization_spaces"`
	Legacy         *bool                  `json:"legacy"`
	AddPrefixSpace *bool                  `json:"add_prefix_space"`
	AddedDecoder   map[string]configAdded `json:"added_tokens_decoder"`
	Additional     []json.RawMessage      `json:"additional_special_tokens"`
	namedRaw       map[string]json.RawMessage
	named          map[string]string // bos_token etc. -> content
	namedSpecials  []addedToken      // the named and additional special tokens, as given
}

// configAdded is a value of added_tokens_decoder (AddedToken without its id).
type configAdded struct {
	Content    string `json:"content"`
	SingleWord bool   `json:"single_word"`
	LStrip     bool   `json:"lstrip"`
	RStrip     bool   `json:"rstrip"`
	Normalized bool   `json:"normalized"`
	Special    bool   `json:"special"`
}

// specialTokenKeys are transformers' SPECIAL_TOKENS_ATTRIBUTES but additional_special_tokens.
var specialTokenKeys = []string{"bos_token", "eos_token", "unk_token", "sep_token", "pad_token", "cls_token", "mask_token"}

func readConfig(path string) (*tokenizerConfig, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("tokenizer: %w", err)
	}
	c, err := parseConfig(data)
	if err != nil {
		return nil, fmt.Errorf("tokenizer: %s: %w", path, err)
	}
	return c, nil
}

func parseConfig(data []byte) (*tokenizerConfig, error) {
	var c tokenizerConfig
	if err := json.Unmarshal(data, &c); err != nil {
		return nil, fmt.Errorf("not a tokenizer_config.json: %w", err)
	}
	if err := json.Unmarshal(data, &c.namedRaw); err != nil {
		return nil, fmt.Errorf("not a tokenizer_config.json: %w", err)
	}
	c.named = map[string]string{}
	for _, k := range specialTokenKeys {
		raw, ok := c.namedRaw[k]
		if !ok {
			continue
		}
		tok, ok, err := configToken(raw)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", k, err)
		}
		if ok {
			c.named[k] = tok.Content
			c.namedSpecials = append(c.namedSpecials, tok)
		}
	}
	for i, raw := range c.Additional {
		tok, ok, err := configToken(raw)
		if err != nil {
			return nil, fmt.Errorf("additional_special_tokens[%d]: %w", i, err)
		}
		if ok {
			c.namedSpecials = append(c.namedSpecials, tok)
		}
	}
	return &c, nil
}

// configToken reads a special token given as a string, an AddedToken object, or null.
func configToken(raw json.RawMessage) (addedToken, bool, error) {
	var s *string
	if err := json.Unmarshal(raw, &s); err == nil {
		if s == nil {
			return addedToken{}, false, nil
		}
		// transformers makes AddedToken(s, special=True); the Python constructor leaves
		// normalized at its default for a non-special token, true.
		return addedToken{Content: *s, Normalized: true, Special: true, ID: -1}, true, nil
	}
	var a configAdded
	if err := json.Unmarshal(raw, &a); err != nil {
		return addedToken{}, false, fmt.Errorf("want a string, an AddedToken object or null: %w", err)
	}
	return addedToken{Content: a.Content, SingleWord: a.SingleWord, LStrip: a.LStrip, RStrip: a.RStrip,
		Normalized: a.Normalized, Special: true, ID: -1}, true, nil
}

// cleanUp returns clean_up_tokenization_spaces and a sentence naming where it came from.
func (c *tokenizerConfig) cleanUp(path string) (bool, string) {
	if c.CleanUp == nil {
		return false, "default false (" + path + " does not set clean_up_tokenization_spaces; transformers' default since 4.45)"
	}
	return *c.CleanUp, fmt.Sprintf("%s: clean_up_tokenization_spaces=%t", path, *c.CleanUp)
}

// addTokens does what PreTrainedTokenizerFast.__init__ (transformers 4.46.2) does with the config:
// tokens of added_tokens_decoder that the backend does not hold with the same flags, and named
// special tokens whose content it does not hold at all, are added; a token is special when the
// config says so or when it is one of the named special tokens.
func (c *tokenizerConfig) addTokens(av *addedVocab) {
	ids := make([]int, 0, len(c.AddedDecoder))
	for k := range c.AddedDecoder {
		if id, err := strconv.Atoi(k); err == nil {
			ids = append(ids, id)
		}
	}
	sort.Ints(ids)
	allSpecial := map[string]bool{}
	for _, s := range c.namedSpecials {
		allSpecial[s.Content] = true
	}
	present := map[string]bool{}
	for _, a := range av.byID {
		present[a.Content] = true
	}
	var toAdd []addedToken
	for _, id := range ids {
		ca := c.AddedDecoder[strconv.Itoa(id)]
		a := addedToken{Content: ca.Content, SingleWord: ca.SingleWord, LStrip: ca.LStrip, RStrip: ca.RStrip,
			Normalized: ca.Normalized, Special: ca.Special}
		held := false
		for _, old := range av.byID {
			if old.sameAs(a) {
				held = true
				break
			}
		}
		if !held {
			toAdd = append(toAdd, a)
			present[a.Content] = true
		}
	}
	for _, s := range c.namedSpecials {
		if !present[s.Content] {
			toAdd = append(toAdd, s)
			present[s.Content] = true
		}
	}
	for _, a := range toAdd {
		a.Special = a.Special || allSpecial[a.Content]
		av.add(a)
	}
}

// slowLlama returns the slow LlamaTokenizer's settings (transformers 4.46.2 defaults: legacy
// true when absent or null, add_prefix_space true).
func (c *tokenizerConfig) slowLlama() *slowLlama {
	s := &slowLlama{legacy: true, addPrefixSpace: true, named: map[string]bool{}}
	if c == nil {
		return s
	}
	if c.Legacy != nil {
		s.legacy = *c.Legacy
	}
	if c.AddPrefixSpace != nil {
		s.addPrefixSpace = *c.AddPrefixSpace
	}
	for _, a := range c.namedSpecials {
		s.named[a.Content] = true
	}
	return s
}
