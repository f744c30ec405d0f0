package download

import (
	"bytes"
	"context"
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// This file is a test double of the three sources: a Hugging Face hub
// (tree API, resolve URLs redirecting LFS files to a CDN host, gated
// repositories), MLCommons' R2 storage (.uri and .md5 metadata, files) and
// the Python Package Index (its JSON API on one host, the files on
// another), each file served by http.ServeContent (Range, 206, 416) unless
// a fault says otherwise.

// fault is how a file misbehaves on its first requests.
type fault struct {
	// status answers the first times requests with status (and
	// retryAfter); times < 0 answers every request so.
	status     int
	times      int
	retryAfter string
	// cutAfter cuts the connection after that many body bytes on the
	// first cutTimes requests.
	cutAfter int64
	cutTimes int
	// stallAfter sends that many bytes, then nothing, on the first request.
	stallAfter int64
	// ignoreRange answers every request with the whole file (200).
	ignoreRange bool
	// corrupt flips a byte in what is served.
	corrupt bool
}

// fileServer serves named blobs with faults, recording what it was asked.
type fileServer struct {
	mu       sync.Mutex
	blobs    map[string][]byte // URL path → bytes
	faults   map[string]*fault
	seen     map[string]int // URL path → requests
	ranges   []string       // Range headers received, in order
	auth     []string       // Authorization headers received
	requests int
}

func newFileServer() *fileServer {
	return &fileServer{blobs: map[string][]byte{}, faults: map[string]*fault{}, seen: map[string]int{}}
}

func (s *fileServer) count(r *http.Request) (n int, f *fault, body []byte, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests++
	s.seen[r.URL.Path]++
	if v := r.Header.Get("Range"); v != "" {
		s.ranges = append(s.ranges, v)
	}
	if v := r.Header.Get("Authorization"); v != "" {
		s.auth = append(s.auth, v)
	}
	body, ok = s.blobs[r.URL.Path]
	return s.seen[r.URL.Path], s.faults[r.URL.Path], body, ok
}

func (s *fileServer) serve(w http.ResponseWriter, r *http.Request) {
	n, f, body, ok := s.count(r)
	if !ok {
		http.NotFound(w, r)
		return
	}
	if f != nil && f.status != 0 && (f.times < 0 || n <= f.times) {
		if f.retryAfter != "" {
			w.Header().Set("Retry-After", f.retryAfter)
		}
		http.Error(w, "fault", f.status)
		return
	}
	if f != nil && f.corrupt {
		body = bytes.Clone(body)
		body[len(body)/2] ^= 0xff
	}
	switch {
	case f != nil && f.cutAfter > 0 && n <= f.cutTimes:
		partial(w, r, body, f.cutAfter, false)
	case f != nil && f.stallAfter > 0 && n == 1:
		partial(w, r, body, f.stallAfter, true)
	case f != nil && f.ignoreRange:
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		w.WriteHeader(http.StatusOK)
		if r.Method != http.MethodHead {
			w.Write(body)
		}
	default:
		http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(body))
	}
}

// partial answers the request (honouring a Range from its start) but sends
// only limit bytes of the body, then cuts the connection or stalls.
func partial(w http.ResponseWriter, r *http.Request, body []byte, limit int64, stall bool) {
	start := int64(0)
	if v := r.Header.Get("Range"); v != "" {
		fmt.Sscanf(v, "bytes=%d-", &start)
	}
	rest := body[start:]
	w.Header().Set("Content-Length", strconv.Itoa(len(rest)))
	if start > 0 {
		w.Header().Set("Content-Range", fmt.Sprintf("bytes %d-%d/%d", start, len(body)-1, len(body)))
		w.WriteHeader(http.StatusPartialContent)
	}
	w.Write(rest[:min(limit, int64(len(rest)))])
	w.(http.Flusher).Flush()
	if stall {
		<-r.Context().Done()
		return
	}
	panic(http.ErrAbortHandler) // the server drops the connection
}

// repoFile is one file of a fake hub repository.
type repoFile struct {
	data []byte
	lfs  bool
}

// fakeHub is a hub with one repository at one revision, its LFS files on a
// separate CDN server.
type fakeHub struct {
	t        testing.TB
	hub, cdn *httptest.Server
	hubFiles *fileServer // non-LFS files served by the hub itself
	cdnFiles *fileServer
	repoPath string // "datasets/owner/name"
	apiPath  string // "/api/datasets/owner/name"
	revision string
	files    map[string]repoFile
	// pageSize paginates the tree API (0: one page).
	pageSize int
	// token, when set, gates the repository: 401 without a token, 403
	// with another.
	token string
	// renamedFrom, when set, is an old repo path the hub redirects to
	// repoPath with a relative Location.
	renamedFrom string
	// relativeCDN makes the LFS redirect a relative Location on the hub
	// host (served by the hub from /cdn/...).
	relativeCDN bool
	// linkedEtag overrides X-Linked-Etag for every LFS file.
	linkedEtag string

	mu       sync.Mutex
	requests int
	auth     []string
}

func newFakeHub(t testing.TB, repo string, typ RepoType, revision string, files map[string]repoFile) *fakeHub {
	h := &fakeHub{t: t, hubFiles: newFileServer(), cdnFiles: newFileServer(), revision: revision, files: files}
	h.repoPath = repo
	if typ == Dataset {
		h.repoPath = "datasets/" + repo
	}
	h.apiPath = "/api/" + string(typ) + "s/" + repo
	for p, f := range files {
		if f.lfs {
			h.cdnFiles.blobs["/blobs/"+sha256Hex(f.data)] = f.data
			h.hubFiles.blobs["/cdn/blobs/"+sha256Hex(f.data)] = f.data
		} else {
			h.hubFiles.blobs["/"+h.repoPath+"/resolve/"+revision+"/"+p] = f.data
		}
	}
	h.cdn = httptest.NewServer(http.HandlerFunc(h.cdnFiles.serve))
	h.hub = httptest.NewServer(http.HandlerFunc(h.serveHub))
	t.Cleanup(h.cdn.Close)
	t.Cleanup(h.hub.Close)
	return h
}

func (h *fakeHub) pin(role string, include ...string) Pin {
	typ := Model
	repo := h.repoPath
	if r, ok := strings.CutPrefix(repo, "datasets/"); ok {
		typ, repo = Dataset, r
	}
	if h.renamedFrom != "" {
		repo = strings.TrimPrefix(h.renamedFrom, "datasets/")
	}
	return Pin{Role: role, Dir: role, Ref: "test", HF: &HF{Repo: repo, Type: typ, Revision: h.revision, Include: include}}
}

func (h *fakeHub) env(token string) HFEnv {
	e := HFEnv{Endpoint: h.hub.URL}
	if token != "" {
		e.Token, e.TokenFrom = token, "HF_TOKEN"
	}
	return e
}

func (h *fakeHub) allowed(w http.ResponseWriter, r *http.Request) bool {
	if h.token == "" {
		return true
	}
	switch r.Header.Get("Authorization") {
	case "Bearer " + h.token:
		return true
	case "":
		w.Header().Set("X-Error-Code", "GatedRepo")
		w.Header().Set("X-Error-Message", "Access to this repository is restricted. Please log in.")
		http.Error(w, "gated", http.StatusUnauthorized)
	default:
		w.Header().Set("X-Error-Code", "GatedRepo")
		w.Header().Set("X-Error-Message", "You are not in the authorized list.")
		http.Error(w, "gated", http.StatusForbidden)
	}
	return false
}

func (h *fakeHub) serveHub(w http.ResponseWriter, r *http.Request) {
	h.mu.Lock()
	h.requests++
	h.auth = append(h.auth, r.Header.Get("Authorization"))
	h.mu.Unlock()
	p := r.URL.Path
	if h.renamedFrom != "" && strings.HasPrefix(p, "/"+h.renamedFrom+"/") {
		w.Header().Set("Location", "/"+h.repoPath+strings.TrimPrefix(p, "/"+h.renamedFrom))
		w.WriteHeader(http.StatusTemporaryRedirect)
		return
	}
	if strings.HasPrefix(p, "/cdn/") {
		h.hubFiles.serve(w, r)
		return
	}
	if !h.allowed(w, r) {
		return
	}
	switch {
	case strings.HasPrefix(p, h.apiPath+"/tree/"):
		h.serveTree(w, r)
	case strings.HasPrefix(p, "/"+h.repoPath+"/resolve/"):
		h.serveResolve(w, r)
	default:
		w.Header().Set("X-Error-Code", "RepoNotFound")
		http.NotFound(w, r)
	}
}

func (h *fakeHub) serveTree(w http.ResponseWriter, r *http.Request) {
	rev, _ := url.PathUnescape(strings.TrimPrefix(r.URL.Path, h.apiPath+"/tree/"))
	if rev != h.revision || r.URL.Query().Get("recursive") != "True" {
		w.Header().Set("X-Error-Code", "RevisionNotFound")
		http.NotFound(w, r)
		return
	}
	var paths []string
	for p := range h.files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	var entries []map[string]any
	dirs := map[string]bool{}
	for _, p := range paths {
		if i := strings.LastIndex(p, "/"); i > 0 && !dirs[p[:i]] {
			dirs[p[:i]] = true
			entries = append(entries, map[string]any{"type": "directory", "oid": strings.Repeat("d", 40), "size": 0, "path": p[:i]})
		}
		f := h.files[p]
		e := map[string]any{"type": "file", "path": p, "size": len(f.data), "oid": gitBlob(f.data)}
		if f.lfs {
			e["size"] = len(f.data)
			e["lfs"] = map[string]any{"oid": sha256Hex(f.data), "size": len(f.data), "pointerSize": 134}
		}
		entries = append(entries, e)
	}
	from, _ := strconv.Atoi(r.URL.Query().Get("cursor"))
	to := len(entries)
	if h.pageSize > 0 && from+h.pageSize < to {
		to = from + h.pageSize
		next := *r.URL
		q := next.Query()
		q.Set("cursor", strconv.Itoa(to))
		next.RawQuery = q.Encode()
		w.Header().Set("Link", fmt.Sprintf(`<%s%s>; rel="next"`, h.hub.URL, next.RequestURI()))
	}
	json.NewEncoder(w).Encode(entries[from:to])
}

func (h *fakeHub) serveResolve(w http.ResponseWriter, r *http.Request) {
	rest := strings.TrimPrefix(r.URL.Path, "/"+h.repoPath+"/resolve/")
	rev, file, _ := strings.Cut(rest, "/")
	f, ok := h.files[file]
	if rev != h.revision || !ok {
		w.Header().Set("X-Error-Code", "EntryNotFound")
		http.NotFound(w, r)
		return
	}
	w.Header().Set("X-Repo-Commit", h.revision)
	if !f.lfs {
		w.Header().Set("ETag", `"`+gitBlob(f.data)+`"`)
		h.hubFiles.serve(w, r)
		return
	}
	etag := sha256Hex(f.data)
	if h.linkedEtag != "" {
		etag = h.linkedEtag
	}
	w.Header().Set("X-Linked-Etag", `"`+etag+`"`)
	w.Header().Set("X-Linked-Size", strconv.Itoa(len(f.data)))
	loc := h.cdn.URL + "/blobs/" + sha256Hex(f.data) + "?X-Amz-Signature=abc"
	if h.relativeCDN {
		loc = "/cdn/blobs/" + sha256Hex(f.data)
	}
	w.Header().Set("Location", loc)
	w.WriteHeader(http.StatusFound)
}

// fakeStorage is MLCommons' R2 storage: a bucket with metadata and sets.
type fakeStorage struct {
	srv   *httptest.Server
	files *fileServer
}

func newFakeStorage(t testing.TB) *fakeStorage {
	s := &fakeStorage{files: newFileServer()}
	s.srv = httptest.NewServer(http.HandlerFunc(s.files.serve))
	t.Cleanup(s.srv.Close)
	return s
}

// addSet publishes a set: its .uri names folder under uriBase (the official
// bucket URL the pin uses, which StorageURL maps here), its .md5 lists the
// files (blank md5 for the paths in blank), sorted as `LC_ALL=C sort` does.
func (s *fakeStorage) addSet(name, uriBase, folder string, files map[string][]byte, blank ...string) []byte {
	s.files.blobs["/metadata/"+name+".uri"] = []byte(uriBase + "/" + folder + "\n")
	var lines []string
	for p, b := range files {
		sum := md5Hex(b)
		for _, bl := range blank {
			if bl == p {
				sum = strings.Repeat(" ", 32)
			}
		}
		lines = append(lines, sum+"  "+p)
		s.files.blobs["/"+folder+"/"+p] = b
	}
	sort.Strings(lines)
	listing := []byte(strings.Join(lines, "\n") + "\n")
	s.files.blobs["/metadata/"+name+".md5"] = listing
	return listing
}

func sha256Hex(b []byte) string { s := sha256.Sum256(b); return hex.EncodeToString(s[:]) }
func md5Hex(b []byte) string    { s := md5.Sum(b); return hex.EncodeToString(s[:]) }

// gitBlob is git's blob id: sha1 of "blob <len>\x00" and the bytes.
func gitBlob(b []byte) string {
	h := sha1.New()
	fmt.Fprintf(h, "blob %d\x00", len(b))
	h.Write(b)
	return hex.EncodeToString(h.Sum(nil))
}

// payload is n deterministic bytes.
func payload(n int, seed byte) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i*7+int(seed)) ^ byte(i>>8)
	}
	return b
}

// sleeps records the waits between retries instead of sleeping.
type sleeps struct {
	mu sync.Mutex
	d  []time.Duration
}

func (s *sleeps) sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	s.d = append(s.d, d)
	s.mu.Unlock()
	return ctx.Err()
}

func (s *sleeps) waits() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Duration(nil), s.d...)
}

// redirectAll answers every request with a 302 to target.
func redirectAll(target string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, target, http.StatusFound)
	})
}

// fakePyPI is the Python Package Index: the JSON API on one server (as
// pypi.org), the files on another (as files.pythonhosted.org), laid out as
// PyPI lays them out: /packages/<2 hex>/<2 hex>/<60 hex>/<filename>.
type fakePyPI struct {
	api      *httptest.Server
	filesSrv *httptest.Server
	files    *fileServer
	// releases are project → version → file name → bytes.
	releases map[string]map[string]map[string][]byte
	// onlyProject answers 404 to every /pypi/<project>/<version>/json, as
	// a proxy forwarding only the project's endpoint does.
	onlyProject bool
	// listedSHA256, when set, is the sha256 listed for every file.
	listedSHA256 string

	mu       sync.Mutex
	apiPaths []string
}

func newFakePyPI(t testing.TB) *fakePyPI {
	y := &fakePyPI{files: newFileServer(), releases: map[string]map[string]map[string][]byte{}}
	y.filesSrv = httptest.NewServer(http.HandlerFunc(y.files.serve))
	y.api = httptest.NewServer(http.HandlerFunc(y.serveAPI))
	t.Cleanup(y.filesSrv.Close)
	t.Cleanup(y.api.Close)
	return y
}

// add publishes a file of a release.
func (y *fakePyPI) add(project, version, name string, data []byte) {
	if y.releases[project] == nil {
		y.releases[project] = map[string]map[string][]byte{}
	}
	if y.releases[project][version] == nil {
		y.releases[project][version] = map[string][]byte{}
	}
	y.releases[project][version][name] = data
	y.files.blobs[y.filePath(name, data)] = data
}

func (y *fakePyPI) filePath(name string, data []byte) string {
	h := sha256Hex(data)
	return "/packages/" + h[:2] + "/" + h[2:4] + "/" + h[4:] + "/" + name
}

// entries lists a release's files as the JSON API does (urls[] and
// releases[v]), sorted by name.
func (y *fakePyPI) entries(project, version string) []map[string]any {
	var out []map[string]any
	rel := y.releases[project][version]
	for _, name := range sortedKeys(rel) {
		data := rel[name]
		sum := sha256Hex(data)
		if y.listedSHA256 != "" {
			sum = y.listedSHA256
		}
		out = append(out, map[string]any{
			"filename": name, "packagetype": "bdist_wheel", "size": len(data), "yanked": false,
			"url":     y.filesSrv.URL + y.filePath(name, data),
			"digests": map[string]any{"blake2b_256": strings.Repeat("b", 64), "md5": md5Hex(data), "sha256": sum},
		})
	}
	return out
}

func (y *fakePyPI) serveAPI(w http.ResponseWriter, r *http.Request) {
	y.mu.Lock()
	y.apiPaths = append(y.apiPaths, r.URL.Path)
	y.mu.Unlock()
	segs := strings.Split(strings.Trim(r.URL.Path, "/"), "/")
	if len(segs) < 3 || segs[0] != "pypi" || segs[len(segs)-1] != "json" || len(segs) > 4 {
		http.NotFound(w, r)
		return
	}
	project := y.releases[segs[1]]
	if project == nil {
		http.NotFound(w, r)
		return
	}
	latest := ""
	for v := range project {
		latest = max(latest, v)
	}
	info := map[string]any{"name": segs[1], "version": latest}
	if len(segs) == 3 { // /pypi/<project>/json
		releases := map[string]any{}
		for v := range project {
			releases[v] = y.entries(segs[1], v)
		}
		json.NewEncoder(w).Encode(map[string]any{"info": info, "releases": releases, "urls": y.entries(segs[1], latest)})
		return
	}
	if _, ok := project[segs[2]]; !ok || y.onlyProject {
		http.NotFound(w, r)
		return
	}
	info["version"] = segs[2]
	json.NewEncoder(w).Encode(map[string]any{"info": info, "urls": y.entries(segs[1], segs[2]), "vulnerabilities": []any{}})
}
