package tokenizer

import (
	"bytes"
	"fmt"
	"os"
)

// Load reads a tokenizer file of either format: a Hugging Face tokenizer.json (JSON) or a
// tiktoken-format tokenizer.model. A tiktoken file of Llama3BaseTokens tokens gets Llama 3's
// special tokens as llama-models 0.3.0 names them ([Llama3SpecialTokens]); for another tiktoken
// vocabulary call [LoadTiktoken] with its special tokens. A sentencepiece (protobuf)
// tokenizer.model is refused with a message pointing at the tokenizer.json beside it.
func Load(path string) (*Tokenizer, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("tokenizer: %w", err)
	}
	head := make([]byte, 512)
	n, _ := f.Read(head)
	f.Close()
	head = bytes.TrimLeft(head[:n], " \t\r\n\ufeff")
	switch {
	case len(head) > 0 && head[0] == '{':
		return LoadJSON(path)
	case looksTiktoken(head):
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, fmt.Errorf("tokenizer: %w", err)
		}
		if c := bytes.Count(data, []byte("\n")); c != Llama3BaseTokens && c != Llama3BaseTokens-1 {
			return nil, fmt.Errorf("tokenizer: %s: a tiktoken file of %d lines is not Llama 3's (%d tokens), whose special tokens Load knows; call LoadTiktoken with its special tokens",
				path, c, Llama3BaseTokens)
		}
		return LoadTiktoken(path, Llama3SpecialTokens())
	}
	return nil, fmt.Errorf("tokenizer: %s is neither a tokenizer.json nor a tiktoken BPE file (a sentencepiece tokenizer.model, as Llama 2 ships, is not read: use the tokenizer.json beside it): %w", path, errNoTokenizer)
}

// looksTiktoken reports whether a file starts like "base64 rank\n".
func looksTiktoken(head []byte) bool {
	line, _, _ := bytes.Cut(head, []byte("\n"))
	f := bytes.Fields(line)
	if len(f) != 2 {
		return false
	}
	for _, c := range f[1] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// Open finds the tokenizer as [Find] does and loads it with [Load].
func Open(opt FindOptions) (*Tokenizer, error) {
	p, err := Find(opt)
	if err != nil {
		return nil, err
	}
	return Load(p)
}
