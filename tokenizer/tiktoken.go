package tokenizer

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
)

// Llama3BaseTokens is the number of byte-level BPE tokens in Meta's Llama 3 tokenizer.model; the
// 256 special tokens follow them.
const Llama3BaseTokens = 128000

// Llama3SpecialTokens returns the 256 special tokens of Llama 3 as llama-models 0.3.0 names them
// (llama_models/llama3/tokenizer.py): IDs 128000.. in this order.
func Llama3SpecialTokens() []string {
	named := []string{
		"<|begin_of_text|>", "<|end_of_text|>", "<|reserved_special_token_0|>", "<|reserved_special_token_1|>",
		"<|finetune_right_pad_id|>", "<|step_id|>", "<|start_header_id|>", "<|end_header_id|>",
		"<|eom_id|>", "<|eot_id|>", "<|python_tag|>", "<|image|>",
	}
	return appendReserved(named, 2)
}

// Llama31HFSpecialTokens returns the 256 special tokens as the Hub's Llama 3.1 tokenizer.json names
// them (transformers' convert_llama_weights_to_hf.py, DEFAULT_LLAMA_SPECIAL_TOKENS["3.1"]): the
// same IDs, but 128005 and 128011 are reserved tokens there, and the reserved numbering differs.
// The names matter only when special tokens are kept in the decoded text.
func Llama31HFSpecialTokens() []string {
	named := []string{
		"<|begin_of_text|>", "<|end_of_text|>", "<|reserved_special_token_0|>", "<|reserved_special_token_1|>",
		"<|finetune_right_pad_id|>", "<|reserved_special_token_2|>", "<|start_header_id|>", "<|end_header_id|>",
		"<|eom_id|>", "<|eot_id|>", "<|python_tag|>",
	}
	return appendReserved(named, 3)
}

func appendReserved(named []string, first int) []string {
	out := append([]string(nil), named...)
	for i := 0; len(out) < 256; i++ {
		out = append(out, "<|reserved_special_token_"+strconv.Itoa(first+i)+"|>")
	}
	return out
}

// LoadTiktoken reads a tiktoken-format BPE file (lines of "base64(token) rank", as Meta ships
// Llama 3's tokenizer.model) and adds specials as special tokens with IDs following the base
// tokens, as llama-models' Tokenizer does. Ranks must be 0..n-1, each once: the rank is the ID.
//
// Decoding equals transformers' decode of the tokenizer.json that transformers' TikTokenConverter
// makes from the same file. Clean-up defaults to on (see [Load]) unless a tokenizer_config.json
// beside the file says otherwise.
func LoadTiktoken(path string, specials []string) (*Tokenizer, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("tokenizer: %w", err)
	}
	ranks, err := parseTiktoken(data)
	if err != nil {
		return nil, fmt.Errorf("tokenizer: %s: %w", path, err)
	}
	t := newTiktoken(ranks, specials)
	t.path = path
	t.cleanUp = true
	t.cleanUpSource = "default true for a tiktoken tokenizer.model: the meta-llama Llama 3/3.1 tokenizer_config.json " +
		"had clean_up_tokenization_spaces=true when the round's targets were computed (transformers PR #44914 later made it false)"
	cfgPath := filepath.Join(filepath.Dir(path), "tokenizer_config.json")
	if _, err := os.Stat(cfgPath); err == nil {
		cfg, err := readConfig(cfgPath)
		if err != nil {
			return nil, err
		}
		if cfg.CleanUp != nil {
			t.cleanUp, t.cleanUpSource = cfg.cleanUp(cfgPath)
		}
	}
	return t, nil
}

// parseTiktoken parses the file into token bytes by rank. Unlike llama-models' loader, which logs
// and skips a line it cannot parse, a malformed line is an error: a skipped token shifts no IDs in
// tiktoken but would leave a hole this reader cannot explain.
func parseTiktoken(data []byte) ([][]byte, error) {
	var ranks [][]byte
	seen := map[string]int{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for line := 1; sc.Scan(); line++ {
		f := bytes.Fields(sc.Bytes())
		if len(f) == 0 {
			continue
		}
		if len(f) != 2 {
			return nil, fmt.Errorf("line %d: want \"base64-token rank\", got %d fields", line, len(f))
		}
		tok, err := base64.StdEncoding.DecodeString(string(f[0]))
		if err != nil {
			return nil, fmt.Errorf("line %d: token %q is not base64: %w", line, f[0], err)
		}
		rank, err := strconv.Atoi(string(f[1]))
		if err != nil || rank != len(ranks) {
			return nil, fmt.Errorf("line %d: rank %q: want %d (ranks must be 0, 1, 2, ... in order)", line, f[1], len(ranks))
		}
		if prev, dup := seen[string(tok)]; dup {
			return nil, fmt.Errorf("line %d: token %q repeats rank %d", line, tok, prev)
		}
		seen[string(tok)] = rank
		ranks = append(ranks, tok)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("reading: %w", err)
	}
	if len(ranks) == 0 {
		return nil, fmt.Errorf("no tokens: not a tiktoken BPE file")
	}
	return ranks, nil
}

// newTiktoken builds the tables: ID = rank, then the specials.
func newTiktoken(ranks [][]byte, specials []string) *Tokenizer {
	n := len(ranks) + len(specials)
	t := &Tokenizer{
		format:  "tiktoken",
		tokens:  make([]string, n),
		known:   make([]bool, n),
		special: make([]bool, n),
		pieces:  make([][]byte, n),
	}
	for id, b := range ranks {
		t.tokens[id], t.known[id], t.pieces[id] = byteLevelString(b), true, b
	}
	added := map[string]int{}
	for i, s := range specials {
		id := len(ranks) + i
		t.tokens[id], t.known[id], t.special[id], t.pieces[id] = s, true, true, []byte(s)
		added[s] = id
	}
	if len(specials) > 1 {
		t.specialTokens = map[string]string{"bos_token": specials[0], "eos_token": specials[1]}
	}
	t.enc = newTiktokenEncoder(ranks, added)
	return t
}
