package tokenizer

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// FindOptions says where to look for a tokenizer. Find tries, in order: Path, Model as a
// directory, Model as a Hugging Face model name in the local hub cache.
type FindOptions struct {
	// Path is a --tokenizer value: a tokenizer file, or a directory holding one. Default: unset.
	Path string
	// Model is a model directory or a Hugging Face model name such as
	// "meta-llama/Llama-3.1-8B-Instruct". Default: unset.
	Model string
	// Revision is a branch or tag (a file under refs/) or a commit hash (a snapshots/ folder) of
	// the cached model. Default "main".
	Revision string
	// Download, when set, is how the caller's tool fetches the tokenizer
	// (a command and the --tokenizer to pass then), suggested first when
	// none is found: it pins the revision the evaluator expects, where
	// huggingface-cli fetches whatever the hub holds. Default: unset.
	Download string
	// Getenv reads environment variables (HF_HUB_CACHE, HF_HOME, XDG_CACHE_HOME, HOME).
	// Default os.Getenv; tests pass their own.
	Getenv func(string) string
}

// tokenizerFiles are the files a directory may hold, best first: transformers reads
// tokenizer.json; Meta's tiktoken file sits at the top of its own downloads and under original/
// in the Hub's Llama 3 repositories.
var tokenizerFiles = []string{"tokenizer.json", "tokenizer.model", filepath.Join("original", "tokenizer.model")}

// Find returns the path of the tokenizer file to load. When there is none, the error lists every
// place looked at and how to get one.
func Find(opt FindOptions) (string, error) {
	if opt.Getenv == nil {
		opt.Getenv = os.Getenv
	}
	var looked []string
	if opt.Path != "" {
		st, err := os.Stat(opt.Path)
		if err != nil {
			return "", fmt.Errorf("tokenizer: --tokenizer %s: %w", opt.Path, err)
		}
		if !st.IsDir() {
			return opt.Path, nil
		}
		if p, ok := findInDir(opt.Path, &looked); ok {
			return p, nil
		}
		return "", notFound(opt, looked)
	}
	if opt.Model == "" {
		return "", fmt.Errorf("tokenizer: no tokenizer given: pass --tokenizer PATH (a tokenizer.json, a tokenizer.model or a model directory) or a model name")
	}
	if st, err := os.Stat(opt.Model); err == nil && st.IsDir() {
		if p, ok := findInDir(opt.Model, &looked); ok {
			return p, nil
		}
	}
	if org, name, ok := strings.Cut(opt.Model, "/"); ok && !strings.Contains(name, "/") && org != "" && name != "" {
		for _, hub := range hubCaches(opt.Getenv) {
			if p, ok := findInCache(hub, org, name, opt.Revision, &looked); ok {
				return p, nil
			}
		}
	}
	return "", notFound(opt, looked)
}

// findInDir looks for the tokenizer files in dir, noting each path it tried.
func findInDir(dir string, looked *[]string) (string, bool) {
	for _, f := range tokenizerFiles {
		p := filepath.Join(dir, f)
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			return p, true
		}
		*looked = append(*looked, p)
	}
	return "", false
}

// hubCaches lists the Hugging Face hub cache folders as huggingface_hub resolves them: HF_HUB_CACHE
// (or its old name HUGGINGFACE_HUB_CACHE), else HF_HOME/hub, else $XDG_CACHE_HOME/huggingface/hub,
// else ~/.cache/huggingface/hub. The default is also tried after an explicit one, so a cache left
// in the usual place is still found.
func hubCaches(getenv func(string) string) []string {
	var dirs []string
	add := func(d string) {
		for _, x := range dirs {
			if x == d {
				return
			}
		}
		dirs = append(dirs, d)
	}
	for _, k := range []string{"HF_HUB_CACHE", "HUGGINGFACE_HUB_CACHE"} {
		if v := getenv(k); v != "" {
			add(v)
		}
	}
	if v := getenv("HF_HOME"); v != "" {
		add(filepath.Join(v, "hub"))
	}
	if v := getenv("XDG_CACHE_HOME"); v != "" {
		add(filepath.Join(v, "huggingface", "hub"))
	}
	if home := getenv("HOME"); home != "" {
		add(filepath.Join(home, ".cache", "huggingface", "hub"))
	}
	return dirs
}

// findInCache resolves models--org--name/refs/<revision> to snapshots/<commit>/ (or takes a
// commit hash given as the revision) and looks there.
func findInCache(hub, org, name, revision string, looked *[]string) (string, bool) {
	if revision == "" {
		revision = "main"
	}
	repo := filepath.Join(hub, "models--"+org+"--"+name)
	ref := filepath.Join(repo, "refs", revision)
	commit := revision
	if b, err := os.ReadFile(ref); err == nil {
		commit = strings.TrimSpace(string(b))
	} else {
		*looked = append(*looked, ref)
	}
	if commit == "" || strings.ContainsAny(commit, `/\`) || commit == "." || commit == ".." {
		return "", false
	}
	return findInDir(filepath.Join(repo, "snapshots", commit), looked)
}

// notFound is the error of a failed Find: every place tried, and the two ways to fix it.
func notFound(opt FindOptions, looked []string) error {
	var b strings.Builder
	b.WriteString("tokenizer: no tokenizer found")
	if opt.Model != "" {
		fmt.Fprintf(&b, " for %s", opt.Model)
		if opt.Revision != "" {
			fmt.Fprintf(&b, " (revision %s)", opt.Revision)
		}
	}
	b.WriteString("; looked at:")
	for _, p := range looked {
		b.WriteString("\n  " + p)
	}
	if opt.Download != "" {
		b.WriteString("\nGet it with: " + opt.Download + ";\nor pass --tokenizer PATH")
	} else {
		b.WriteString("\nPass --tokenizer PATH")
	}
	b.WriteString(" (a tokenizer.json, a tokenizer.model or a directory holding one)")
	if org, name, ok := strings.Cut(opt.Model, "/"); ok && org != "" && name != "" {
		fmt.Fprintf(&b, ", or download it into the Hugging Face cache: huggingface-cli download %s tokenizer.json tokenizer_config.json", opt.Model)
		if opt.Revision != "" {
			fmt.Fprintf(&b, " --revision %s", opt.Revision)
		}
		b.WriteString(" (set HF_HUB_CACHE or HF_HOME if the cache is elsewhere)")
	}
	return fmt.Errorf("%s", b.String())
}
