package tokenizer

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// writeFile creates path (and its folders) with some content.
func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// fakeHub lays out a Hugging Face hub cache: refs/main -> snapshots/<rev>/ with the given files,
// and a second revision "v2" holding only a tiktoken tokenizer.model under original/.
func fakeHub(t *testing.T, files ...string) (hub, snap string) {
	t.Helper()
	hub = t.TempDir()
	repo := filepath.Join(hub, "models--meta-llama--Llama-3.1-8B-Instruct")
	writeFile(t, filepath.Join(repo, "refs", "main"), "0e9e39f249a16976918f6564b8830bc894c89659\n")
	writeFile(t, filepath.Join(repo, "refs", "v2"), "aaaa")
	snap = filepath.Join(repo, "snapshots", "0e9e39f249a16976918f6564b8830bc894c89659")
	for _, f := range files {
		writeFile(t, filepath.Join(snap, f), "{}")
	}
	writeFile(t, filepath.Join(repo, "snapshots", "aaaa", "original", "tokenizer.model"), "IQ== 0\n")
	return hub, snap
}

// move renames a folder to a new place, creating the parents.
func move(t *testing.T, from, to string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(from, to); err != nil {
		t.Fatal(err)
	}
}

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestFind(t *testing.T) {
	t.Parallel()
	const model = "meta-llama/Llama-3.1-8B-Instruct"
	hub, snap := fakeHub(t, "tokenizer.json", "tokenizer.model", "tokenizer_config.json")
	home := t.TempDir()
	homeHub := filepath.Join(home, ".cache", "huggingface", "hub")
	move(t, hub, homeHub)
	homeSnap := strings.Replace(snap, hub, homeHub, 1)
	hfHome := t.TempDir()
	hub2, snap2 := fakeHub(t, "tokenizer.model")
	move(t, hub2, filepath.Join(hfHome, "hub"))
	snap2 = strings.Replace(snap2, hub2, filepath.Join(hfHome, "hub"), 1)
	modelDir := t.TempDir()
	writeFile(t, filepath.Join(modelDir, "original", "tokenizer.model"), "IQ== 0\n")
	file := filepath.Join(t.TempDir(), "my.json")
	writeFile(t, file, "{}")

	for _, c := range []struct {
		name string
		opt  FindOptions
		want string
	}{
		{"file", FindOptions{Path: file}, file},
		{"dir prefers tokenizer.json", FindOptions{Path: homeSnap}, filepath.Join(homeSnap, "tokenizer.json")},
		{"model dir, original/", FindOptions{Model: modelDir}, filepath.Join(modelDir, "original", "tokenizer.model")},
		{"HOME default cache", FindOptions{Model: model, Getenv: env(map[string]string{"HOME": home})}, filepath.Join(homeSnap, "tokenizer.json")},
		{"HF_HOME/hub first", FindOptions{Model: model, Getenv: env(map[string]string{"HOME": home, "HF_HOME": hfHome})}, filepath.Join(snap2, "tokenizer.model")},
		{"HF_HUB_CACHE", FindOptions{Model: model, Getenv: env(map[string]string{"HF_HUB_CACHE": filepath.Join(hfHome, "hub")})}, filepath.Join(snap2, "tokenizer.model")},
		{"revision ref", FindOptions{Model: model, Revision: "v2", Getenv: env(map[string]string{"HOME": home})}, filepath.Join(homeHub, "models--meta-llama--Llama-3.1-8B-Instruct", "snapshots", "aaaa", "original", "tokenizer.model")},
		{"revision commit", FindOptions{Model: model, Revision: "0e9e39f249a16976918f6564b8830bc894c89659", Getenv: env(map[string]string{"HOME": home})}, filepath.Join(homeSnap, "tokenizer.json")},
	} {
		got, err := Find(c.opt)
		if err != nil || got != c.want {
			t.Errorf("%s: Find = %q, %v; want %q", c.name, got, err, c.want)
		}
	}
}

func TestFindNotFoundSaysWhereAndHow(t *testing.T) {
	t.Parallel()
	home, cache := t.TempDir(), t.TempDir()
	_, err := Find(FindOptions{Model: "meta-llama/Llama-3.1-8B-Instruct", Revision: "r1",
		Getenv: env(map[string]string{"HOME": home, "HF_HUB_CACHE": cache})})
	if err == nil {
		t.Fatal("Find succeeded in empty caches")
	}
	for _, want := range []string{
		filepath.Join(cache, "models--meta-llama--Llama-3.1-8B-Instruct", "refs", "r1"),
		filepath.Join(home, ".cache", "huggingface", "hub", "models--meta-llama--Llama-3.1-8B-Instruct", "snapshots", "r1", "tokenizer.json"),
		"--tokenizer PATH",
		"huggingface-cli download meta-llama/Llama-3.1-8B-Instruct tokenizer.json tokenizer_config.json --revision r1",
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
	dir := t.TempDir()
	_, err = Find(FindOptions{Path: dir})
	if err == nil || !strings.Contains(err.Error(), filepath.Join(dir, "tokenizer.json")) || !strings.Contains(err.Error(), filepath.Join(dir, "original", "tokenizer.model")) {
		t.Errorf("empty --tokenizer dir: %v", err)
	}
	if _, err := Find(FindOptions{}); err == nil || !strings.Contains(err.Error(), "--tokenizer") {
		t.Errorf("nothing given: %v", err)
	}
}

// TestFindAndLoadThroughLinks: a --tokenizer folder reached through a
// symbolic link, and the Hugging Face cache as huggingface_hub writes it
// (snapshots/<rev>/tokenizer.json -> ../../blobs/<sha>, the cache itself
// behind a link), give the tokenizer the real folder gives; its
// tokenizer_config.json is found beside the link, where the cache keeps
// it, not beside the blob (where there is none).
func TestFindAndLoadThroughLinks(t *testing.T) {
	t.Parallel()
	src := filepath.Join("testdata", "bytelevel")
	want, err := LoadJSON(filepath.Join(src, "tokenizer.json"))
	if err != nil {
		t.Fatal(err)
	}
	abs, err := filepath.Abs(src)
	if err != nil {
		t.Fatal(err)
	}
	linkedDir := filepath.Join(t.TempDir(), "tok")
	if err := os.Symlink(abs, linkedDir); err != nil {
		t.Fatal(err)
	}

	hub := t.TempDir()
	repo := filepath.Join(hub, "models--meta-llama--Llama-3.1-8B-Instruct")
	const rev = "0e9e39f249a16976918f6564b8830bc894c89659"
	writeFile(t, filepath.Join(repo, "refs", "main"), rev)
	for i, f := range []string{"tokenizer.json", "tokenizer_config.json", "special_tokens_map.json"} {
		b, err := os.ReadFile(filepath.Join(src, f))
		if err != nil {
			t.Fatal(err)
		}
		blob := filepath.Join(repo, "blobs", strings.Repeat(string(rune('a'+i)), 64))
		writeFile(t, blob, string(b))
		link := filepath.Join(repo, "snapshots", rev, f)
		if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(filepath.Join("..", "..", "blobs", filepath.Base(blob)), link); err != nil {
			t.Fatal(err)
		}
	}
	linkedHub := filepath.Join(t.TempDir(), "hub")
	if err := os.Symlink(hub, linkedHub); err != nil {
		t.Fatal(err)
	}
	snap := filepath.Join(linkedHub, "models--meta-llama--Llama-3.1-8B-Instruct", "snapshots", rev)

	for _, c := range []struct {
		name string
		opt  FindOptions
		path string // what Find must return
	}{
		{"--tokenizer a linked folder", FindOptions{Path: linkedDir}, filepath.Join(linkedDir, "tokenizer.json")},
		{"the hub cache's links", FindOptions{Model: "meta-llama/Llama-3.1-8B-Instruct", Getenv: env(map[string]string{"HF_HUB_CACHE": linkedHub})}, filepath.Join(snap, "tokenizer.json")},
		{"--tokenizer the snapshot", FindOptions{Path: snap}, filepath.Join(snap, "tokenizer.json")},
	} {
		p, err := Find(c.opt)
		if err != nil || p != c.path {
			t.Errorf("%s: Find = %q, %v; want %q", c.name, p, err, c.path)
			continue
		}
		tok, err := Load(p)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		_, source := tok.CleanUpSpaces()
		if !strings.Contains(source, filepath.Join(filepath.Dir(p), "tokenizer_config.json")) {
			t.Errorf("%s: clean-up from %q, want the tokenizer_config.json beside %s", c.name, source, p)
		}
		for _, text := range []string{"Hello, world!", " two  spaces\nand a line"} {
			got, err1 := tok.Encode(text)
			exp, err2 := want.Encode(text)
			if err1 != nil || err2 != nil || !slices.Equal(got, exp) {
				t.Errorf("%s: Encode(%q) = %v, %v; the real folder's %v, %v", c.name, text, got, err1, exp, err2)
			}
		}
	}
}
