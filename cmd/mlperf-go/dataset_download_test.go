package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mlperf-go/mlperf-go/benchmark"
)

// miniHub serves one Hugging Face repository at one revision from files
// (path → bytes): the tree API, and resolve URLs that redirect each file to
// /cdn/<sha256> on the same host, as the hub sends LFS files to its CDN. A
// non-empty token gates it (401 without).
type miniHub struct {
	srv      *httptest.Server
	requests atomic.Int64
	ranges   atomic.Int64 // requests for part of a file (resumed downloads)
}

func newMiniHub(t *testing.T, repoPath, revision, token string, files map[string][]byte) *miniHub {
	h := &miniHub{}
	blobs := map[string][]byte{}
	var tree []map[string]any
	for p, b := range files {
		sum := sha256.Sum256(b)
		blobs[hex.EncodeToString(sum[:])] = b
		tree = append(tree, map[string]any{"type": "file", "path": p, "size": len(b), "oid": strings.Repeat("0", 40),
			"lfs": map[string]any{"oid": hex.EncodeToString(sum[:]), "size": len(b), "pointerSize": 134}})
	}
	api := "/api/" + repoPath // "/api/datasets/owner/name"
	if !strings.HasPrefix(repoPath, "datasets/") {
		api = "/api/models/" + repoPath
	}
	h.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.requests.Add(1)
		if blob, ok := strings.CutPrefix(r.URL.Path, "/cdn/"); ok {
			if r.Header.Get("Range") != "" {
				h.ranges.Add(1)
			}
			http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(blobs[blob]))
			return
		}
		if token != "" && r.Header.Get("Authorization") != "Bearer "+token {
			w.Header().Set("X-Error-Code", "GatedRepo")
			http.Error(w, "gated", http.StatusUnauthorized)
			return
		}
		switch {
		case r.URL.Path == api+"/tree/"+revision:
			json.NewEncoder(w).Encode(tree)
		case strings.HasPrefix(r.URL.Path, "/"+repoPath+"/resolve/"+revision+"/"):
			b := files[strings.TrimPrefix(r.URL.Path, "/"+repoPath+"/resolve/"+revision+"/")]
			sum := sha256.Sum256(b)
			w.Header().Set("X-Repo-Commit", revision)
			http.Redirect(w, r, "/cdn/"+hex.EncodeToString(sum[:]), http.StatusFound)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(h.srv.Close)
	return h
}

// catalogueHub serves qwen3-vl's catalogue, 12 synthetic samples, from a
// miniHub at the pinned commit, and points the hub client at it (so the
// test cannot be parallel); it returns the benchmark and the files by path.
func catalogueHub(t *testing.T) (benchmark.Benchmark, map[string][]byte, *miniHub) {
	t.Helper()
	b := mustLookup(t, "qwen3-vl-235b-a22b")
	synthDir := t.TempDir()
	paths, err := b.Data.Synth(synthDir, 12, 7)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{"README.md": []byte("# catalogue\n")}
	for _, p := range paths {
		rel, _ := filepath.Rel(synthDir, p)
		files[filepath.ToSlash(rel)], _ = os.ReadFile(p)
	}
	hub := newMiniHub(t, "datasets/Shopify/product-catalogue", "d5c517c509f5aca99053897ef1de797d6d7e5aa5", "", files)
	t.Setenv("HF_ENDPOINT", hub.srv.URL)
	t.Setenv("HF_TOKEN", "")
	t.Setenv("HF_HOME", t.TempDir())
	return b, files, hub
}

// TestDatasetDownload: `dataset download` fetches qwen3-vl's catalogue from
// a hub at the pinned commit, prints the folder, and `run -d` opens that
// folder as it is (the registry resolves it through the manifest); a second
// run makes no request; the Interactive variant's other dataset is refused
// in the same folder, for download and for opening.
func TestDatasetDownload(t *testing.T) {
	b, files, hub := catalogueHub(t)
	dir := filepath.Join(t.TempDir(), "q3vl")
	out, err := runCLI(t, "dataset", "download", "-b", "qwen3-vl-235b-a22b", "--round", "v6.1", "--only", "dataset", "--out", dir, "--verify")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, want := range []string{"downloaded " + itoa(len(files)) + " files", "hf dataset Shopify/product-catalogue@d5c517c", "verified dataset", dir + "\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	d, err := b.OpenDataset([]string{dir}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if d.Len() != 12 {
		t.Errorf("opened %d samples, want 12", d.Len())
	}
	d.Close()

	before := hub.requests.Load()
	out, err = runCLI(t, "dataset", "download", "-b", "qwen3-vl-235b-a22b", "--round", "v6.1", "--only", "dataset", "--out", dir)
	if err != nil || hub.requests.Load() != before || !strings.Contains(out, "no request made") {
		t.Errorf("second run: %v, %d requests\n%s", err, hub.requests.Load()-before, out)
	}

	out, err = runCLI(t, "dataset", "download", "-b", "qwen3-vl-235b-a22b-interactive", "--only", "dataset", "--out", dir)
	if exitCode(err) != 1 || !strings.Contains(err.Error(), "choose another --out") {
		t.Errorf("interactive into the same folder: exit %d, %v\n%s", exitCode(err), err, out)
	}
	if _, err := mustLookup(t, "qwen3-vl-235b-a22b-interactive").OpenDataset([]string{dir}, nil); err == nil ||
		!strings.Contains(err.Error(), "not qwen3-vl-235b-a22b-interactive's") {
		t.Errorf("opening the catalogue as the 8k set: %v", err)
	}
}

// TestDatasetDownloadGated: a gated repository without a token exits 2 and
// says to accept the licence and set HF_TOKEN.
func TestDatasetDownloadGated(t *testing.T) {
	hub := newMiniHub(t, "meta-llama/Llama-3.1-8B-Instruct", "0e9e39f249a16976918f6564b8830bc894c89659", "hf_secret",
		map[string][]byte{"tokenizer.json": []byte("{}"), "tokenizer_config.json": []byte("{}")})
	t.Setenv("HF_ENDPOINT", hub.srv.URL)
	t.Setenv("HF_TOKEN", "")
	t.Setenv("HF_HOME", t.TempDir())
	dir := t.TempDir()
	_, err := runCLI(t, "dataset", "download", "-b", "llama3_1-8b", "--only", "tokenizer", "--out", dir)
	if exitCode(err) != 2 || !strings.Contains(err.Error(), "accept its licence at https://huggingface.co/meta-llama/Llama-3.1-8B-Instruct") ||
		!strings.Contains(err.Error(), "set HF_TOKEN") {
		t.Fatalf("exit %d: %v", exitCode(err), err)
	}
	t.Setenv("HF_TOKEN", "hf_secret")
	out, err := runCLI(t, "dataset", "download", "-b", "llama3_1-8b", "--only", "tokenizer", "--out", dir)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if _, err := os.Stat(filepath.Join(dir, "tokenizer", "tokenizer_config.json")); err != nil {
		t.Error(err)
	}
}

// TestDatasetDownloadFlags: the flags are checked before any request.
func TestDatasetDownloadFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		says string
	}{
		{[]string{"--out", "x"}, "give one of --benchmark and --extra"},
		{[]string{"-b", "llama3_1-8b", "--extra", "mmlu", "--out", "x"}, "give one of --benchmark and --extra"},
		{[]string{"--extra", "squad", "--out", "x"}, "use one of mmlu"},
		{[]string{"-b", "llama3_1-8b", "--only", "weights", "--out", "x"}, "llama3_1-8b pins dataset, tokenizer"},
		{[]string{"-b", "qwen3-vl-235b-a22b-interactive", "--round", "v6.0", "--out", "x"}, "pins no download for round v6.0: use --round v6.1"},
	} {
		_, err := runCLI(t, append([]string{"dataset", "download"}, tc.args...)...)
		if err == nil || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%v: %v, want an error saying %q", tc.args, err, tc.says)
		}
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }
