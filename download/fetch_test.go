package download

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

const rev = "d5c517c509f5aca99053897ef1de797d6d7e5aa5"

// quick is a retry policy for tests: no real waiting.
func quick(s *sleeps) Options {
	return Options{Retry: Retry{Attempts: 4, BaseDelay: time.Millisecond, MaxDelay: time.Millisecond, Stall: 5 * time.Second}, Sleep: s.sleep, Jobs: 3}
}

func catalogue() map[string]repoFile {
	return map[string]repoFile{
		"data/train-00000-of-00002.parquet": {data: payload(300_000, 1), lfs: true},
		"data/train-00001-of-00002.parquet": {data: payload(250_000, 2), lfs: true},
		"data/test-00000-of-00001.parquet":  {data: payload(120_000, 3), lfs: true},
		"README.md":                         {data: []byte("# Shopify product catalogue\n")},
		"images/extra.bin":                  {data: payload(1000, 4), lfs: true},
	}
}

// checkFiles fails unless dir holds exactly want (path → bytes) besides the
// manifest, and no .part file.
func checkFiles(t *testing.T, dir string, want map[string][]byte) {
	t.Helper()
	got := map[string][]byte{}
	filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if rel == ManifestFile {
			return nil
		}
		b, _ := os.ReadFile(p)
		got[filepath.ToSlash(rel)] = b
		return nil
	})
	for p, w := range want {
		if !bytes.Equal(got[p], w) {
			t.Errorf("%s: got %d bytes, want %d (equal: %v)", p, len(got[p]), len(w), bytes.Equal(got[p], w))
		}
	}
	for p := range got {
		if _, ok := want[p]; !ok {
			t.Errorf("unexpected file %s", p)
		}
	}
}

func wantUnder(dir string, files map[string]repoFile, paths ...string) map[string][]byte {
	w := map[string][]byte{}
	for _, p := range paths {
		w[dir+"/"+p] = files[p].data
	}
	return w
}

// TestHFDataset: the tree API is read at the pinned revision across pages;
// LFS files come through the resolve URL's 302 to the CDN host, small files
// from the hub; each is verified (LFS sha256, git blob sha1) and recorded.
// The token goes to the hub and never to the CDN.
func TestHFDataset(t *testing.T) {
	t.Parallel()
	files := catalogue()
	h := newFakeHub(t, "Shopify/product-catalogue", Dataset, rev, files)
	h.pageSize = 2
	h.token = "hf_good"
	var s sleeps
	o := quick(&s)
	o.HF = h.env("hf_good")
	dir := t.TempDir()
	pin := h.pin(RoleDataset, "data/train-*.parquet", "data/test-*.parquet")
	pin.HF.Optional = []string{"README.md", "LICENSE*"}
	res, err := Fetch(context.Background(), dir, Request{For: "qwen3-vl v6.1", Pins: []Pin{pin}}, o)
	if err != nil {
		t.Fatal(err)
	}
	checkFiles(t, dir, wantUnder("dataset", files, "data/train-00000-of-00002.parquet", "data/train-00001-of-00002.parquet", "data/test-00000-of-00001.parquet", "README.md"))
	if res.Files != 4 || res.Kept != 0 || len(res.Unverified) != 0 {
		t.Errorf("result %+v: want 4 files fetched, none kept or unverified", res)
	}
	if len(h.cdnFiles.auth) != 0 {
		t.Errorf("the CDN received Authorization %q: the token must stay with the hub", h.cdnFiles.auth)
	}
	for _, a := range h.auth {
		if a != "Bearer hf_good" {
			t.Errorf("a hub request carried Authorization %q", a)
		}
	}
	m, err := ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	set := m.Role(RoleDataset)
	if set == nil || len(set.Files) != 4 || set.For[0] != "qwen3-vl v6.1" {
		t.Fatalf("manifest set %+v", set)
	}
	for _, f := range set.Files {
		rel := strings.TrimPrefix(f.Path, "dataset/")
		if f.SHA256 != sha256Hex(files[rel].data) || f.Size != int64(len(files[rel].data)) {
			t.Errorf("manifest %s: size %d sha256 %s", f.Path, f.Size, f.SHA256)
		}
		wantAlgo := "sha256 "
		if !files[rel].lfs {
			wantAlgo = "git-sha1 " + gitBlob(files[rel].data)
		}
		if !strings.HasPrefix(f.Verified, wantAlgo) {
			t.Errorf("%s verified by %q, want %q…", f.Path, f.Verified, wantAlgo)
		}
	}
	if err := set.Verify(dir, nil); err != nil {
		t.Error(err)
	}
}

// TestHFRedirects: a renamed repository answers with a relative 307 to its
// new path, and the LFS redirect may be relative too; both are followed.
func TestHFRedirects(t *testing.T) {
	t.Parallel()
	files := catalogue()
	h := newFakeHub(t, "nvidia/Shopify-product-catalogue-8k", Dataset, rev, files)
	h.renamedFrom = "datasets/nvidia/old-name"
	h.relativeCDN = true
	var s sleeps
	o := quick(&s)
	o.HF = h.env("")
	dir := t.TempDir()
	pin := h.pin(RoleDataset, "data/train-*.parquet")
	// The tree API is asked under the new name (the hub's API does not
	// redirect); resolve URLs under the old one.
	h.apiPath = "/api/datasets/nvidia/old-name"
	if _, err := Fetch(context.Background(), dir, Request{Pins: []Pin{pin}}, o); err != nil {
		t.Fatal(err)
	}
	checkFiles(t, dir, wantUnder("dataset", files, "data/train-00000-of-00002.parquet", "data/train-00001-of-00002.parquet"))
	if h.cdnFiles.requests != 0 || h.hubFiles.seen["/cdn/blobs/"+sha256Hex(files["data/train-00000-of-00002.parquet"].data)] != 1 {
		t.Errorf("the relative LFS redirect was not followed on the hub host (cdn %d requests)", h.cdnFiles.requests)
	}
}

// TestResumeAfterCut: connections cut mid-file are resumed with a Range
// request from the last byte written, and the file completes.
func TestResumeAfterCut(t *testing.T) {
	t.Parallel()
	files := catalogue()
	h := newFakeHub(t, "o/r", Model, rev, files)
	big := "data/train-00000-of-00002.parquet"
	h.cdnFiles.faults["/blobs/"+sha256Hex(files[big].data)] = &fault{cutAfter: 70_000, cutTimes: 3}
	var s sleeps
	o := quick(&s)
	o.HF = h.env("")
	dir := t.TempDir()
	if _, err := Fetch(context.Background(), dir, Request{Pins: []Pin{h.pin(RoleTokenizer, big)}}, o); err != nil {
		t.Fatal(err)
	}
	checkFiles(t, dir, wantUnder("tokenizer", files, big))
	want := []string{"bytes=70000-", "bytes=140000-", "bytes=210000-"}
	if !slices.Equal(h.cdnFiles.ranges, want) {
		t.Errorf("Range headers %q, want %q", h.cdnFiles.ranges, want)
	}
}

// TestResumePartFile: a .part left by an interrupted run is resumed: only
// the rest is fetched.
func TestResumePartFile(t *testing.T) {
	t.Parallel()
	files := catalogue()
	h := newFakeHub(t, "o/r", Model, rev, files)
	big := "data/train-00001-of-00002.parquet"
	dir := t.TempDir()
	part := filepath.Join(dir, "tokenizer", filepath.FromSlash(big)) + ".part"
	os.MkdirAll(filepath.Dir(part), 0o755)
	os.WriteFile(part, files[big].data[:100_000], 0o644)
	var s sleeps
	o := quick(&s)
	o.HF = h.env("")
	res, err := Fetch(context.Background(), dir, Request{Pins: []Pin{h.pin(RoleTokenizer, big)}}, o)
	if err != nil {
		t.Fatal(err)
	}
	checkFiles(t, dir, wantUnder("tokenizer", files, big))
	if !slices.Equal(h.cdnFiles.ranges, []string{"bytes=100000-"}) || res.Bytes != int64(len(files[big].data)-100_000) {
		t.Errorf("ranges %q, %d bytes fetched: want one request from byte 100000 and the rest only", h.cdnFiles.ranges, res.Bytes)
	}
}

// TestServerIgnoresRange: a server that answers a Range request with the
// whole file (200) restarts the .part rather than appending to it.
func TestServerIgnoresRange(t *testing.T) {
	t.Parallel()
	st := newFakeStorage(t)
	data := payload(200_000, 9)
	st.addSet("cnn", "https://inference.mlcommons-storage.org", "llama/datasets", map[string][]byte{"cnn_eval.json": data})
	st.files.faults["/llama/datasets/cnn_eval.json"] = &fault{ignoreRange: true}
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "dataset"), 0o755)
	os.WriteFile(filepath.Join(dir, "dataset", "cnn_eval.json.part"), data[:50_000], 0o644)
	var s sleeps
	o := quick(&s)
	o.StorageURL = st.srv.URL
	pin := Pin{Role: RoleDataset, Dir: "dataset", Ref: "test", R2: &R2{Set: "cnn", Base: "https://inference.mlcommons-storage.org", Files: map[string]string{"cnn_eval.json": md5Hex(data)}}}
	if _, err := Fetch(context.Background(), dir, Request{Pins: []Pin{pin}}, o); err != nil {
		t.Fatal(err)
	}
	checkFiles(t, dir, map[string][]byte{"dataset/cnn_eval.json": data})
	if !slices.Contains(st.files.ranges, "bytes=50000-") {
		t.Errorf("no Range request was made: %q", st.files.ranges)
	}
}

// TestChecksumMismatch: wrong bytes are an error naming the file, the
// expected and the received digest; the partial file is removed and no file
// is left at the final name. A stale .part with wrong bytes ends the same
// way, and the next run then succeeds.
func TestChecksumMismatch(t *testing.T) {
	t.Parallel()
	files := catalogue()
	h := newFakeHub(t, "o/r", Dataset, rev, files)
	big := "data/test-00000-of-00001.parquet"
	blob := "/blobs/" + sha256Hex(files[big].data)
	h.cdnFiles.faults[blob] = &fault{corrupt: true}
	var s sleeps
	o := quick(&s)
	o.HF = h.env("")
	dir := t.TempDir()
	req := Request{Pins: []Pin{h.pin(RoleDataset, big)}}
	_, err := Fetch(context.Background(), dir, req, o)
	var ce *ChecksumError
	if !errors.As(err, &ce) {
		t.Fatalf("err = %v, want a ChecksumError", err)
	}
	bad := bytes.Clone(files[big].data)
	bad[len(bad)/2] ^= 0xff
	if ce.File != "dataset/"+big || ce.Algo != "sha256" || ce.Want != sha256Hex(files[big].data) || ce.Got != sha256Hex(bad) || !ce.Removed {
		t.Errorf("ChecksumError %+v", ce)
	}
	for _, want := range []string{"dataset/" + big, ce.Want, ce.Got, "partial file was removed"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	checkFiles(t, dir, nil)

	// A stale .part of other bytes, resumed honestly, fails the check too.
	delete(h.cdnFiles.faults, blob)
	part := filepath.Join(dir, "dataset", filepath.FromSlash(big)) + ".part"
	os.MkdirAll(filepath.Dir(part), 0o755)
	os.WriteFile(part, bad[:len(bad)-10], 0o644)
	if _, err := Fetch(context.Background(), dir, req, o); !errors.As(err, &ce) {
		t.Fatalf("stale .part: err = %v, want a ChecksumError", err)
	}
	checkFiles(t, dir, nil)
	if _, err := Fetch(context.Background(), dir, req, o); err != nil {
		t.Fatalf("third run: %v", err)
	}
	checkFiles(t, dir, wantUnder("dataset", files, big))
}

// TestGated: a gated repository without a token is a 401 saying to accept
// the licence and set HF_TOKEN; a token without access is a 403 naming where
// the token came from. Nothing is retried, and the folder the download made
// is not left behind empty.
func TestGated(t *testing.T) {
	t.Parallel()
	files := catalogue()
	h := newFakeHub(t, "meta-llama/Llama-3.1-8B-Instruct", Model, rev, files)
	h.token = "hf_good"
	var s sleeps
	for _, tc := range []struct {
		token  string
		status int
		says   []string
	}{
		{"", 401, []string{"needs a Hugging Face token", "accept its licence at https://huggingface.co/meta-llama/Llama-3.1-8B-Instruct", "set HF_TOKEN", "Please log in"}},
		{"hf_other", 403, []string{"access denied with the token from HF_TOKEN", "accept the licence at https://huggingface.co/meta-llama/Llama-3.1-8B-Instruct", "not in the authorized list"}},
	} {
		o := quick(&s)
		o.HF = h.env(tc.token)
		before := h.requests
		out := filepath.Join(t.TempDir(), "llama")
		_, err := Fetch(context.Background(), out, Request{Pins: []Pin{h.pin(RoleTokenizer, "README.md")}}, o)
		if _, serr := os.Stat(out); !os.IsNotExist(serr) {
			t.Errorf("token %q: the failed download left its folder %s (%v)", tc.token, out, serr)
		}
		var ae *AccessError
		if !errors.As(err, &ae) || ae.Status != tc.status {
			t.Fatalf("token %q: err = %v, want an AccessError %d", tc.token, err, tc.status)
		}
		for _, w := range tc.says {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("token %q: %q does not say %q", tc.token, err, w)
			}
		}
		if n := h.requests - before; n != 1 {
			t.Errorf("token %q: %d requests, want 1 (no retry of a 401/403)", tc.token, n)
		}
	}
	if len(s.waits()) != 0 {
		t.Errorf("waited %v", s.waits())
	}
}

// TestRetryAfter: 429 answers are retried after the Retry-After the server
// sends, then the file arrives.
func TestRetryAfter(t *testing.T) {
	t.Parallel()
	st := newFakeStorage(t)
	data := payload(5000, 1)
	st.addSet("set", "https://inference.mlcommons-storage.org", "d", map[string][]byte{"a.json": data})
	st.files.faults["/d/a.json"] = &fault{status: 429, times: 2, retryAfter: "7"}
	st.files.faults["/metadata/set.md5"] = &fault{status: 503, times: 1, retryAfter: "Wed, 21 Oct 2015 07:28:00 GMT"}
	var s sleeps
	o := quick(&s)
	o.StorageURL = st.srv.URL
	dir := t.TempDir()
	pin := Pin{Role: RoleDataset, Ref: "t", R2: &R2{Set: "set", Base: "https://inference.mlcommons-storage.org", Files: map[string]string{"a.json": md5Hex(data)}}}
	if _, err := Fetch(context.Background(), dir, Request{Pins: []Pin{pin}}, o); err != nil {
		t.Fatal(err)
	}
	checkFiles(t, dir, map[string][]byte{"a.json": data})
	w := s.waits()
	// The 503's Retry-After date is in the past: the backoff applies. The
	// HEAD for the size hits the 429 fault twice, then the GET succeeds.
	if len(w) != 3 || w[0] > time.Millisecond || w[1] != 7*time.Second || w[2] != 7*time.Second {
		t.Errorf("waits %v, want [backoff 7s 7s]", w)
	}
}

// TestGiveUp: a server answering 503 forever is a clear stop after the
// retry budget, saying what failed and that the download resumes.
func TestGiveUp(t *testing.T) {
	t.Parallel()
	st := newFakeStorage(t)
	data := payload(5000, 1)
	st.addSet("set", "https://inference.mlcommons-storage.org", "d", map[string][]byte{"a.json": data})
	st.files.faults["/metadata/set.uri"] = &fault{status: 503, times: -1}
	var s sleeps
	o := quick(&s)
	o.StorageURL = st.srv.URL
	pin := Pin{Role: RoleDataset, Ref: "t", R2: &R2{Set: "set", Base: "https://inference.mlcommons-storage.org", Files: map[string]string{"a.json": md5Hex(data)}}}
	_, err := Fetch(context.Background(), t.TempDir(), Request{Pins: []Pin{pin}}, o)
	var ge *GaveUpError
	if !errors.As(err, &ge) || ge.Attempts != 4 {
		t.Fatalf("err = %v, want a GaveUpError after 4 attempts", err)
	}
	for _, w := range []string{"set.uri", "4 attempts", "HTTP 503", "try again later", "resumes"} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("%q does not say %q", err, w)
		}
	}
	if n := st.files.seen["/metadata/set.uri"]; n != 4 {
		t.Errorf("%d requests, want 4", n)
	}
}

// TestRetryAfterTooLong: a Retry-After beyond MaxRetryAfter stops at once,
// saying when to come back.
func TestRetryAfterTooLong(t *testing.T) {
	t.Parallel()
	st := newFakeStorage(t)
	st.addSet("set", "https://x.mlcommons-storage.org", "d", map[string][]byte{"a": {1}})
	st.files.faults["/metadata/set.uri"] = &fault{status: 429, times: -1, retryAfter: "86400"}
	var s sleeps
	o := quick(&s)
	o.StorageURL = st.srv.URL
	pin := Pin{Role: RoleDataset, Ref: "t", R2: &R2{Set: "set", Base: "https://x.mlcommons-storage.org", Files: map[string]string{"a": md5Hex([]byte{1})}}}
	_, err := Fetch(context.Background(), t.TempDir(), Request{Pins: []Pin{pin}}, o)
	if err == nil || !strings.Contains(err.Error(), "asks to wait 24h0m0s") || len(s.waits()) != 0 {
		t.Fatalf("err = %v (waits %v), want a stop naming the 24h wait", err, s.waits())
	}
}

// TestSecondRunOffline: a finished download is reused without a single
// request, with or without Offline; a file deleted since is fetched again
// (and Offline refuses to).
func TestSecondRunOffline(t *testing.T) {
	t.Parallel()
	files := catalogue()
	h := newFakeHub(t, "o/r", Dataset, rev, files)
	st := newFakeStorage(t)
	tok := []byte(`{"tokenizer": true}`)
	st.addSet("tok", "https://inference.mlcommons-storage.org", "t", map[string][]byte{"tokenizer.json": tok})
	var s sleeps
	o := quick(&s)
	o.HF = h.env("")
	o.StorageURL = st.srv.URL
	dir := t.TempDir()
	req := Request{For: "b v6.1", Pins: []Pin{
		h.pin(RoleDataset, "data/*.parquet"),
		{Role: RoleTokenizer, Dir: "tok", Ref: "t", R2: &R2{Set: "tok", Base: "https://inference.mlcommons-storage.org", Files: map[string]string{"tokenizer.json": md5Hex(tok)}}},
	}}
	if _, err := Fetch(context.Background(), dir, req, o); err != nil {
		t.Fatal(err)
	}
	hubReqs, stReqs := h.requests+h.cdnFiles.requests, st.files.requests
	for _, offline := range []bool{false, true} {
		o.Offline = offline
		res, err := Fetch(context.Background(), dir, req, o)
		if err != nil {
			t.Fatalf("offline=%v: %v", offline, err)
		}
		if got := h.requests + h.cdnFiles.requests + st.files.requests - hubReqs - stReqs; got != 0 {
			t.Errorf("offline=%v: %d requests, want none", offline, got)
		}
		if !slices.Equal(res.Reused, []string{RoleDataset, RoleTokenizer}) || len(res.Fetched) != 0 {
			t.Errorf("offline=%v: reused %v fetched %v", offline, res.Reused, res.Fetched)
		}
	}
	gone := filepath.Join(dir, "dataset", "data", "test-00000-of-00001.parquet")
	os.Remove(gone)
	if _, err := Fetch(context.Background(), dir, req, o); err == nil || !strings.Contains(err.Error(), "offline") {
		t.Errorf("offline with a file missing: err = %v", err)
	}
	o.Offline = false
	res, err := Fetch(context.Background(), dir, req, o)
	if err != nil {
		t.Fatal(err)
	}
	if res.Files != 1 || res.Kept != 2 || !slices.Equal(res.Fetched, []string{RoleDataset}) {
		t.Errorf("refetch: %+v, want the one missing file fetched and the other two kept", res)
	}
	if _, err := os.Stat(gone); err != nil {
		t.Error(err)
	}
}

// TestR2Set: the .uri (naming the official bucket, mapped to the mirror) and
// the .md5 listing (paths with spaces, a blank md5 for a multipart object)
// are read as mlc-r2-downloader.sh reads them; a pinned md5 covers a file
// the listing has none for; a listing that disagrees with the pin is an
// error.
func TestR2Set(t *testing.T) {
	t.Parallel()
	st := newFakeStorage(t)
	files := map[string][]byte{
		"data/train-00000-of-00004.parquet": payload(90_000, 1),
		"data/train-00001-of-00004.parquet": payload(80_000, 2),
		"LICENSE notes.txt":                 []byte("licence\n"),
		"README.md":                         []byte("# 8k\n"),
	}
	st.addSet("Shopify-product-catalogue-8k", "https://inference.mlcommons-storage.org", "Shopify-product-catalogue-8k", files, "data/train-00000-of-00004.parquet")
	base := "https://inference.mlcommons-storage.org"
	pinned := map[string]string{}
	for p, b := range files {
		pinned[p] = md5Hex(b)
	}
	var s sleeps
	o := quick(&s)
	o.StorageURL = st.srv.URL
	dir := t.TempDir()
	pin := Pin{Role: RoleDataset, Dir: "dataset", Ref: "t", R2: &R2{Set: "Shopify-product-catalogue-8k", Base: base, Files: pinned}}
	res, err := Fetch(context.Background(), dir, Request{Pins: []Pin{pin}}, o)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]byte{}
	for p, b := range files {
		want["dataset/"+p] = b
	}
	checkFiles(t, dir, want)
	if len(res.Unverified) != 0 {
		t.Errorf("unverified %v: the pin's md5 covers the blank listing entry", res.Unverified)
	}

	bad := maps(pinned)
	bad["README.md"] = strings.Repeat("0", 32)
	pin.R2.Files = bad
	_, err = Fetch(context.Background(), t.TempDir(), Request{Pins: []Pin{pin}}, o)
	if err == nil || !strings.Contains(err.Error(), "lists md5 "+md5Hex(files["README.md"])+" for README.md, the pin says 0000") {
		t.Errorf("listing vs pin: err = %v", err)
	}
}

func maps(m map[string]string) map[string]string {
	c := map[string]string{}
	for k, v := range m {
		c[k] = v
	}
	return c
}

// TestR2Include: a large set is pinned by its listing's sha256 and picked
// by patterns; a changed listing is refused, and a blank md5 leaves the
// file unverified and says so.
func TestR2Include(t *testing.T) {
	t.Parallel()
	st := newFakeStorage(t)
	files := map[string][]byte{
		"mmlu/anatomy/test-00000-of-00001.parquet":    payload(3000, 1),
		"mmlu/anatomy/dev-00000-of-00001.parquet":     payload(500, 2),
		"mmlu/astronomy/test-00000-of-00001.parquet":  payload(4000, 3),
		"mmlu/auxiliary_train/train-00000-of-00001.x": payload(9000, 4),
	}
	listing := st.addSet("mmlu", "https://automotive.mlcommons-storage.org", "llama_31_8b_dataset_mmlu", files, "mmlu/astronomy/test-00000-of-00001.parquet")
	var s sleeps
	o := quick(&s)
	o.StorageURL = st.srv.URL
	pin := Pin{Role: RoleMMLU, Ref: "t", R2: &R2{Set: "mmlu", Base: "https://automotive.mlcommons-storage.org",
		Include: []string{"mmlu/*/test-*.parquet", "mmlu/*/dev-*.parquet"}, ListingSHA256: sha256Hex(listing)}}
	dir := t.TempDir()
	res, err := Fetch(context.Background(), dir, Request{Pins: []Pin{pin}}, o)
	if err != nil {
		t.Fatal(err)
	}
	checkFiles(t, dir, map[string][]byte{
		"mmlu/anatomy/test-00000-of-00001.parquet":   files["mmlu/anatomy/test-00000-of-00001.parquet"],
		"mmlu/anatomy/dev-00000-of-00001.parquet":    files["mmlu/anatomy/dev-00000-of-00001.parquet"],
		"mmlu/astronomy/test-00000-of-00001.parquet": files["mmlu/astronomy/test-00000-of-00001.parquet"],
	})
	if !slices.Equal(res.Unverified, []string{"mmlu/astronomy/test-00000-of-00001.parquet"}) {
		t.Errorf("unverified %v", res.Unverified)
	}
	pin.R2.ListingSHA256 = strings.Repeat("a", 64)
	_, err = Fetch(context.Background(), t.TempDir(), Request{Pins: []Pin{pin}}, o)
	if err == nil || !strings.Contains(err.Error(), "checksum list changed since the round was pinned") {
		t.Errorf("changed listing: err = %v", err)
	}
}

// TestDiskSpace: a download larger than the free space stops before any
// file is requested, saying how much is needed and free.
func TestDiskSpace(t *testing.T) {
	t.Parallel()
	files := catalogue()
	h := newFakeHub(t, "o/r", Dataset, rev, files)
	var s sleeps
	o := quick(&s)
	o.HF = h.env("")
	o.FreeSpace = func(string) (int64, bool) { return 100_000, true }
	_, err := Fetch(context.Background(), t.TempDir(), Request{Pins: []Pin{h.pin(RoleDataset, "data/*.parquet")}}, o)
	var de *DiskFullError
	if !errors.As(err, &de) || de.Need != 670_000 || de.Free != 100_000 {
		t.Fatalf("err = %v, want a DiskFullError needing 670000 with 100000 free", err)
	}
	if !strings.Contains(err.Error(), "needs 654.3 KiB more, 97.7 KiB are free") {
		t.Errorf("message %q", err)
	}
	if h.cdnFiles.requests != 0 {
		t.Errorf("%d file requests before the space check", h.cdnFiles.requests)
	}
}

// TestStall: a transfer that stops receiving is dropped after Stall and
// resumed.
func TestStall(t *testing.T) {
	t.Parallel()
	files := catalogue()
	h := newFakeHub(t, "o/r", Dataset, rev, files)
	big := "data/train-00000-of-00002.parquet"
	h.cdnFiles.faults["/blobs/"+sha256Hex(files[big].data)] = &fault{stallAfter: 100_000}
	var s sleeps
	o := quick(&s)
	o.Retry.Stall = 200 * time.Millisecond
	o.HF = h.env("")
	dir := t.TempDir()
	if _, err := Fetch(context.Background(), dir, Request{Pins: []Pin{h.pin(RoleDataset, big)}}, o); err != nil {
		t.Fatal(err)
	}
	checkFiles(t, dir, wantUnder("dataset", files, big))
	if !slices.Equal(h.cdnFiles.ranges, []string{"bytes=100000-"}) {
		t.Errorf("ranges %q", h.cdnFiles.ranges)
	}
}

// TestExpiredCDN: a 403 from the CDN (an expired signed URL) is not an
// access error: the file is resolved again.
func TestExpiredCDN(t *testing.T) {
	t.Parallel()
	files := catalogue()
	h := newFakeHub(t, "o/r", Dataset, rev, files)
	big := "data/train-00001-of-00002.parquet"
	h.cdnFiles.faults["/blobs/"+sha256Hex(files[big].data)] = &fault{status: 403, times: 1}
	var s sleeps
	o := quick(&s)
	o.HF = h.env("")
	dir := t.TempDir()
	if _, err := Fetch(context.Background(), dir, Request{Pins: []Pin{h.pin(RoleDataset, big)}}, o); err != nil {
		t.Fatal(err)
	}
	checkFiles(t, dir, wantUnder("dataset", files, big))
}

// TestHubHeaders: an X-Linked-Etag disagreeing with the tree API stops the
// file before its bytes are trusted.
func TestHubHeaders(t *testing.T) {
	t.Parallel()
	files := catalogue()
	h := newFakeHub(t, "o/r", Dataset, rev, files)
	h.linkedEtag = strings.Repeat("e", 64)
	var s sleeps
	o := quick(&s)
	o.HF = h.env("")
	_, err := Fetch(context.Background(), t.TempDir(), Request{Pins: []Pin{h.pin(RoleDataset, "data/test-*")}}, o)
	if err == nil || !strings.Contains(err.Error(), "X-Linked-Etag is eeee") {
		t.Fatalf("err = %v", err)
	}
}

// TestMembersOnly: storage that redirects to Cloudflare Access's login is a
// members-only AccessError; the login host is never contacted.
func TestMembersOnly(t *testing.T) {
	t.Parallel()
	st := newFakeStorage(t)
	st.addSet("llama", "https://llama3-1.mlcommons-storage.org", "d", map[string][]byte{"a": {1}})
	st.srv.Config.Handler = redirectAll("https://mlcommons.cloudflareaccess.com/cdn-cgi/access/login/x")
	var s sleeps
	o := quick(&s)
	o.StorageURL = st.srv.URL
	pin := Pin{Role: RoleTokenizer, Ref: "t", R2: &R2{Set: "llama", Base: "https://llama3-1.mlcommons-storage.org", Files: map[string]string{"a": md5Hex([]byte{1})}}}
	_, err := Fetch(context.Background(), t.TempDir(), Request{Pins: []Pin{pin}}, o)
	var ae *AccessError
	if !errors.As(err, &ae) || !ae.MembersOnly || !strings.Contains(err.Error(), "mlc-r2-downloader.sh") {
		t.Fatalf("err = %v", err)
	}
}

// TestKeepExisting: files already in place (a run cut before its manifest
// was written) are verified and kept; a wrong one is downloaded over.
func TestKeepExisting(t *testing.T) {
	t.Parallel()
	files := catalogue()
	h := newFakeHub(t, "o/r", Dataset, rev, files)
	dir := t.TempDir()
	a, b := "data/train-00000-of-00002.parquet", "data/train-00001-of-00002.parquet"
	os.MkdirAll(filepath.Join(dir, "dataset", "data"), 0o755)
	os.WriteFile(filepath.Join(dir, "dataset", a), files[a].data, 0o644)
	os.WriteFile(filepath.Join(dir, "dataset", b), payload(len(files[b].data), 99), 0o644)
	var s sleeps
	o := quick(&s)
	o.HF = h.env("")
	res, err := Fetch(context.Background(), dir, Request{Pins: []Pin{h.pin(RoleDataset, "data/train-*")}}, o)
	if err != nil {
		t.Fatal(err)
	}
	checkFiles(t, dir, wantUnder("dataset", files, a, b))
	if res.Kept != 1 || res.Files != 1 || h.cdnFiles.seen["/blobs/"+sha256Hex(files[a].data)] != 0 {
		t.Errorf("result %+v: want %s kept without a request and %s fetched", res, a, b)
	}
}

// TestConflict: a folder holds one set per role; another benchmark's
// dataset is refused, the same pin asked again is shared.
func TestConflict(t *testing.T) {
	t.Parallel()
	files := catalogue()
	h := newFakeHub(t, "o/r", Dataset, rev, files)
	var s sleeps
	o := quick(&s)
	o.HF = h.env("")
	dir := t.TempDir()
	p := h.pin(RoleDataset, "data/test-*")
	if _, err := Fetch(context.Background(), dir, Request{For: "a v6.1", Pins: []Pin{p}}, o); err != nil {
		t.Fatal(err)
	}
	res, err := Fetch(context.Background(), dir, Request{For: "a-interactive v6.1", Pins: []Pin{p}}, o)
	if err != nil || len(res.Reused) != 1 || !slices.Equal(res.Manifest.Role(RoleDataset).For, []string{"a v6.1", "a-interactive v6.1"}) {
		t.Fatalf("same pin: %v %+v", err, res)
	}
	other := h.pin(RoleDataset, "data/train-*")
	if _, err := Fetch(context.Background(), dir, Request{For: "b v6.1", Pins: []Pin{other}}, o); err == nil || !strings.Contains(err.Error(), "choose another --out") {
		t.Errorf("other pin: err = %v", err)
	}
}

// TestCancel: cancelling stops the transfers and keeps the .part files.
func TestCancel(t *testing.T) {
	t.Parallel()
	files := catalogue()
	h := newFakeHub(t, "o/r", Dataset, rev, files)
	big := "data/train-00000-of-00002.parquet"
	h.cdnFiles.faults["/blobs/"+sha256Hex(files[big].data)] = &fault{stallAfter: 64_000}
	var s sleeps
	o := quick(&s)
	o.HF = h.env("")
	p := &Progress{}
	o.Progress = p
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() {
		_, err := Fetch(ctx, dir, Request{Pins: []Pin{h.pin(RoleDataset, big)}}, o)
		done <- err
	}()
	for p.Snapshot().Done < 64_000 {
		time.Sleep(5 * time.Millisecond)
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	st, err := os.Stat(filepath.Join(dir, "dataset", filepath.FromSlash(big)) + ".part")
	if err != nil || st.Size() != 64_000 {
		t.Fatalf(".part: %v %v", st, err)
	}
	if _, err := os.Stat(filepath.Join(dir, ManifestFile)); err == nil {
		t.Error("a manifest was written for an unfinished download")
	}
}

// TestDiskFullMidWrite: a write that fails with ENOSPC (the .part file is
// /dev/full here) stops the download with how much it still needs.
func TestDiskFullMidWrite(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full to fill")
	}
	files := catalogue()
	h := newFakeHub(t, "o/r", Dataset, rev, files)
	big := "data/train-00000-of-00002.parquet"
	dir := t.TempDir()
	part := filepath.Join(dir, "dataset", filepath.FromSlash(big)) + ".part"
	os.MkdirAll(filepath.Dir(part), 0o755)
	if err := os.Symlink("/dev/full", part); err != nil {
		t.Fatal(err)
	}
	var s sleeps
	o := quick(&s)
	o.HF = h.env("")
	o.FreeSpace = func(string) (int64, bool) { return 1 << 40, true }
	_, err := Fetch(context.Background(), dir, Request{Pins: []Pin{h.pin(RoleDataset, big)}}, o)
	var de *DiskFullError
	if !errors.As(err, &de) || de.File != "dataset/"+big || de.Need != 300_000 {
		t.Fatalf("err = %v, want a DiskFullError for %s needing 300000 bytes", err, big)
	}
	for _, w := range []string{"not enough disk space", "while writing dataset/" + big, "needs 293.0 KiB more", "re-run"} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("%q does not say %q", err, w)
		}
	}
	if len(s.waits()) != 0 {
		t.Errorf("a full disk was retried: %v", s.waits())
	}
}
