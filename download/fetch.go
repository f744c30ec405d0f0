package download

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mlperf-go/mlperf-go/internal/dirwalk"
)

// Options configure Fetch. The zero value fetches from the official hub and
// storage with 4 parallel files and the default Retry.
type Options struct {
	// Client makes the requests (nil: one with a transport bounded by
	// Retry.Stall). Its CheckRedirect is replaced by the hub's policy.
	Client *http.Client
	// HF is the hub's endpoint and token (ReadHFEnv(os.Getenv) in the
	// command; the zero value is the official hub without a token).
	HF HFEnv
	// StorageURL, when set, replaces each R2 pin's Base (the bucket URL,
	// https://inference.mlcommons-storage.org) in the metadata URLs and in
	// the folder URL the .uri names: a mirror laid out as the bucket.
	StorageURL string
	// PyPIURL is the package index PyPI pins are fetched from: its base
	// URL, under which <PyPIURL>/pypi/<project>/<version>/json is PyPI's
	// JSON API (default DefaultPyPIURL, https://pypi.org). A simple index
	// (pip's index-url, PIP_INDEX_URL) is not that API and is refused.
	PyPIURL string
	// Jobs is the number of files fetched at once (default 4).
	Jobs int
	// Retry says how failures are retried.
	Retry Retry
	// Offline forbids the network: Fetch succeeds only when the folder
	// already holds every pinned set.
	Offline bool
	// Progress, when set, is updated as bytes arrive.
	Progress *Progress
	// UserAgent is sent with every request (default "mlperf-go").
	UserAgent string
	// Sleep waits between retries (default: a timer; tests record waits).
	Sleep func(ctx context.Context, d time.Duration) error
	// FreeSpace reports the bytes free in dir's file system (ok false when
	// unknown); default: statfs where available.
	FreeSpace func(dir string) (free int64, ok bool)
	// OnRetry, when set, is told of each failure about to be retried (what
	// failed, why, and the wait before the next try), so a person sees why
	// nothing moves.
	OnRetry func(what string, err error, wait time.Duration)
}

// Request is what to fetch: the pins of a benchmark (or an extra set) and
// who asks, recorded in the manifest.
type Request struct {
	// For names the asker, e.g. "llama3_1-8b v6.1".
	For string
	// Pins are the sets to put in the folder.
	Pins []Pin
}

// Result says what Fetch did.
type Result struct {
	// Manifest is the folder's manifest after the run.
	Manifest *Manifest
	// Reused are the roles already complete in the folder (no request
	// made); Fetched the roles fetched (or completed) in this run.
	Reused, Fetched []string
	// Files and Bytes count the files and bytes received in this run;
	// Kept the files found complete and verified in place.
	Files, Kept int
	Bytes       int64
	// Unverified lists files the source publishes no checksum for.
	Unverified []string
}

// downloader is one Fetch's state.
type downloader struct {
	dir       string
	client    *http.Client
	hf        HFEnv
	storage   string
	pypi      string
	jobs      int
	retry     Retry
	progress  *Progress
	userAgent string
	sleep     func(context.Context, time.Duration) error
	freeSpace func(string) (int64, bool)
	onRetry   func(string, error, time.Duration)
}

func newDownloader(dir string, o Options) *downloader {
	d := &downloader{dir: dir, hf: o.HF, storage: strings.TrimRight(o.StorageURL, "/"), pypi: o.PyPIURL, jobs: o.Jobs,
		retry: o.Retry.withDefaults(), progress: o.Progress, userAgent: o.UserAgent, sleep: o.Sleep, freeSpace: o.FreeSpace, onRetry: o.OnRetry}
	if d.hf.Endpoint == "" {
		d.hf.Endpoint = DefaultHFEndpoint
	}
	d.hf.Endpoint = strings.TrimRight(d.hf.Endpoint, "/")
	if d.jobs <= 0 {
		d.jobs = 4
	}
	if d.progress == nil {
		d.progress = &Progress{}
	}
	if d.userAgent == "" {
		d.userAgent = "mlperf-go"
	}
	if d.sleep == nil {
		d.sleep = sleepCtx
	}
	if d.freeSpace == nil {
		d.freeSpace = freeSpace
	}
	c := http.Client{Transport: newTransport(d.retry.Stall)}
	if o.Client != nil {
		c = *o.Client
	}
	c.CheckRedirect = checkRedirect
	d.client = &c
	return d
}

// Fetch puts every set of req into dir and records it in dir's manifest.
// A set the manifest already holds complete (same pin, every file present
// with its size) is reused without any request; a set held under the same
// role with another pin is an error (one folder, one dataset). Files of the
// other sets are listed, fetched in parallel (resuming .part files), and
// verified; the manifest is written once every set is in place.
func Fetch(ctx context.Context, dir string, req Request, o Options) (Result, error) {
	var res Result
	if err := checkPins(req.Pins); err != nil {
		return res, err
	}
	m, err := ReadManifest(dir)
	if errors.Is(err, os.ErrNotExist) {
		m, err = &Manifest{Format: manifestFormat}, nil
	}
	if err != nil {
		return res, err
	}
	todo, err := m.plan(dir, req, &res)
	if err != nil {
		return res, err
	}
	res.Manifest = m
	if len(todo) == 0 {
		return res, nil
	}
	if o.Offline || o.HF.Offline {
		return res, offlineError(dir, todo)
	}
	_, statErr := os.Stat(dir)
	made := errors.Is(statErr, fs.ErrNotExist)
	if err := dirwalk.MkdirAll(dir, 0o755); err != nil {
		return res, err
	}
	d := newDownloader(dir, o)
	sets, err := d.run(ctx, todo, &res)
	if err != nil {
		if made {
			removeIfNoFiles(dir)
		}
		return res, err
	}
	for _, s := range sets {
		s.For = mergeFor(m.Role(s.Pin.Role), req.For)
		m.put(s)
		res.Fetched = append(res.Fetched, s.Pin.Role)
	}
	return res, m.write(dir)
}

// removeIfNoFiles removes dir, a download folder this run made, when it
// holds no file (only the empty folders of a download that failed before
// its first byte), so a failure leaves nothing behind; partial files are
// kept for the next run to resume.
func removeIfNoFiles(dir string) {
	hasFile := false
	filepath.WalkDir(dir, func(_ string, e fs.DirEntry, err error) error {
		if err != nil || !e.IsDir() {
			hasFile = true
			return filepath.SkipAll
		}
		return nil
	})
	if !hasFile {
		os.RemoveAll(dir)
	}
}

func checkPins(pins []Pin) error {
	if len(pins) == 0 {
		return errors.New("nothing to download: no pin given")
	}
	roles, dirs := map[string]bool{}, map[string]bool{}
	for _, p := range pins {
		if err := p.Validate(); err != nil {
			return err
		}
		if roles[p.Role] || dirs[p.Dir] {
			return fmt.Errorf("two pins for the role %s or the folder %q", p.Role, p.Dir)
		}
		roles[p.Role], dirs[p.Dir] = true, true
	}
	return nil
}

// plan sorts req's pins into those the folder holds complete (recorded as
// reused, with req.For added) and those to fetch.
func (m *Manifest) plan(dir string, req Request, res *Result) ([]Pin, error) {
	var todo []Pin
	for _, p := range req.Pins {
		s := m.Role(p.Role)
		if s == nil {
			todo = append(todo, p)
			continue
		}
		if s.Pin.Key() != p.Key() {
			return nil, fmt.Errorf("%s already holds another %s (%s, for %s); %s needs %s: choose another --out",
				dir, p.Role, s.Pin.Source(), strings.Join(s.For, ", "), req.For, p.Source())
		}
		if s.Missing(dir) != nil {
			todo = append(todo, p)
			continue
		}
		if !slices.Contains(s.For, req.For) && req.For != "" {
			s.For = append(s.For, req.For)
		}
		res.Reused = append(res.Reused, p.Role)
	}
	return todo, nil
}

func mergeFor(old *Set, who string) []string {
	var f []string
	if old != nil {
		f = append(f, old.For...)
	}
	if who != "" && !slices.Contains(f, who) {
		f = append(f, who)
	}
	return f
}

func offlineError(dir string, todo []Pin) error {
	var names []string
	for _, p := range todo {
		names = append(names, p.Role+" ("+p.Source()+")")
	}
	return fmt.Errorf("offline: %s does not hold %s complete; run without --offline (and without HF_HUB_OFFLINE) to download it", dir, strings.Join(names, ", "))
}

// plannedSet is a pin with its files resolved.
type plannedSet struct {
	pin    Pin
	source string
	jobs   []*job
}

// run lists the pins' files, checks the space they need, fetches them and
// returns the sets to record.
func (d *downloader) run(ctx context.Context, pins []Pin, res *Result) ([]Set, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var planned []*plannedSet
	var all []*job
	for _, p := range pins {
		ps, err := d.planPin(ctx, p)
		if err != nil {
			return nil, err
		}
		planned = append(planned, ps)
		all = append(all, ps.jobs...)
	}
	if err := d.sizeUnknown(ctx, all); err != nil {
		return nil, err
	}
	if err := d.checkSpace(all); err != nil {
		return nil, err
	}
	if err := d.placeAll(ctx, all); err != nil {
		return nil, err
	}
	var sets []Set
	for _, ps := range planned {
		s := Set{Pin: ps.pin, Source: ps.source, Fetched: time.Now().UTC().Truncate(time.Second)}
		for _, j := range ps.jobs {
			s.Files = append(s.Files, File{Path: j.rel, Size: j.size, SHA256: j.sha256, Verified: verifiedBy(j.check)})
			if j.check.Algo == "" {
				res.Unverified = append(res.Unverified, j.rel)
			}
			if j.fetched {
				res.Files++
			} else {
				res.Kept++
			}
		}
		sets = append(sets, s)
	}
	res.Bytes = d.progress.Snapshot().Fetched
	return sets, nil
}

func verifiedBy(c checksum) string {
	if c.Algo == "" {
		return "unverified: " + c.Source
	}
	return c.Algo + " " + c.Want + " (" + c.Source + ")"
}

// placeAll places the jobs, d.jobs at a time; the first error cancels the
// rest (their .part files stay for the next run).
func (d *downloader) placeAll(ctx context.Context, all []*job) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	work := make(chan *job)
	var wg sync.WaitGroup
	var once sync.Once
	var first error
	for range min(d.jobs, len(all)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range work {
				if err := d.place(ctx, j); err != nil {
					once.Do(func() { first = err; cancel() })
				}
			}
		}()
	}
	for _, j := range all {
		select {
		case work <- j:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
	}
	close(work)
	wg.Wait()
	if first != nil {
		return first
	}
	return ctx.Err()
}

// checkSpace stops a download that cannot fit before it starts: the bytes
// still to write (sizes known, less what .part files hold) against the free
// space.
func (d *downloader) checkSpace(all []*job) error {
	var need int64
	for _, j := range all {
		if j.size < 0 {
			continue
		}
		have := int64(0)
		final := filepath.Join(d.dir, filepath.FromSlash(j.rel))
		if st, err := os.Stat(final); err == nil && st.Size() == j.size {
			have = j.size // probably complete: verified when placed
		} else if st, err := os.Stat(final + ".part"); err == nil && st.Size() <= j.size {
			have = st.Size()
		}
		need += j.size - have
		d.progress.addTotal(j.size)
		d.progress.addFiles(1)
	}
	for _, j := range all {
		if j.size < 0 {
			d.progress.addFiles(1)
		}
	}
	if free, ok := d.freeSpace(d.dir); ok && need > free {
		return &DiskFullError{Dir: d.dir, Need: need, Free: free}
	}
	return nil
}

// planPin lists the files of p to fetch.
func (d *downloader) planPin(ctx context.Context, p Pin) (*plannedSet, error) {
	switch {
	case p.HF != nil:
		return d.planHF(ctx, p)
	case p.PyPI != nil:
		return d.planPyPI(ctx, p)
	default:
		return d.planR2(ctx, p)
	}
}

func (d *downloader) planHF(ctx context.Context, p Pin) (*plannedSet, error) {
	h := p.HF
	entries, err := d.listHF(ctx, h)
	if err != nil {
		return nil, err
	}
	byPath := map[string]treeEntry{}
	var paths []string
	for _, e := range entries {
		byPath[e.Path] = e
		paths = append(paths, e.Path)
	}
	chosen, err := choose(paths, h.Include, h.Optional, fmt.Sprintf("%s %s@%s", h.Type, h.Repo, h.Revision))
	if err != nil {
		return nil, err
	}
	ps := &plannedSet{pin: p, source: d.hf.Endpoint + "/" + hfRepoPath(h) + "@" + h.Revision}
	hubHost := hostOf(d.hf.Endpoint)
	for _, path := range chosen {
		e := byPath[path]
		c := checksum{Algo: "git-sha1", Want: e.OID, Source: "the hub's tree API at " + h.Revision[:7] + " (git blob id)"}
		if e.LFS != nil {
			c = checksum{Algo: "sha256", Want: e.LFS.OID, Source: "the hub's tree API at " + h.Revision[:7] + " (LFS oid)"}
		}
		ps.jobs = append(ps.jobs, &job{
			rel: joinRel(p.Dir, path), url: hfResolveURL(d.hf.Endpoint, h, path), size: e.Size, check: c,
			rq: request{what: path + " of " + h.Repo, hub: true, hf: h, capture: &hubHeaders{hubHost: hubHost}},
		})
	}
	return ps, nil
}

// choose returns the paths matching include (each pattern must match one)
// or optional, sorted.
func choose(paths, include, optional []string, where string) ([]string, error) {
	var out []string
	for _, pat := range include {
		if !slices.ContainsFunc(paths, func(p string) bool { return Match(pat, p) }) {
			return nil, fmt.Errorf("%s has no file matching %q: the pin is wrong for this source", where, pat)
		}
	}
	for _, p := range paths {
		if slices.ContainsFunc(include, func(pat string) bool { return Match(pat, p) }) ||
			slices.ContainsFunc(optional, func(pat string) bool { return Match(pat, p) }) {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out, nil
}

func joinRel(dir, p string) string {
	if dir == "" {
		return p
	}
	return dir + "/" + p
}

// storageURL maps an official bucket URL to the mirror when StorageURL is
// set.
func (d *downloader) storageURL(r *R2, u string) string {
	if d.storage == "" {
		return u
	}
	if rest, ok := strings.CutPrefix(u, r.Base); ok && (rest == "" || strings.HasPrefix(rest, "/")) {
		return d.storage + rest
	}
	return u
}

func (d *downloader) planR2(ctx context.Context, p Pin) (*plannedSet, error) {
	r := p.R2
	meta := d.storageURL(r, r.Base) + "/metadata/" + r.Set
	uriBytes, err := d.small(ctx, meta+".uri", request{what: "the storage's " + r.Set + ".uri", r2: r})
	if err != nil {
		return nil, err
	}
	folder, err := ParseURI(uriBytes)
	if err != nil {
		return nil, fmt.Errorf("%s.uri: %w", meta, err)
	}
	folder = d.storageURL(r, folder)
	listing, err := d.small(ctx, meta+".md5", request{what: "the storage's " + r.Set + ".md5", r2: r})
	if err != nil {
		return nil, err
	}
	if r.ListingSHA256 != "" {
		sum := sha256.Sum256(listing)
		if got := hex.EncodeToString(sum[:]); got != r.ListingSHA256 {
			return nil, fmt.Errorf("%s.md5 has sha256 %s, the pin says %s: the storage's checksum list changed since the round was pinned, so its files may differ from the round's; update the pin only after checking what changed", meta, got, r.ListingSHA256)
		}
	}
	listed, err := ParseListing(listing)
	if err != nil {
		return nil, fmt.Errorf("%s.md5: %w", meta, err)
	}
	checks, err := r2Checks(r, listed, meta+".md5")
	if err != nil {
		return nil, err
	}
	ps := &plannedSet{pin: p, source: folder}
	for _, path := range sortedKeys(checks) {
		ps.jobs = append(ps.jobs, &job{rel: joinRel(p.Dir, path), url: folder + "/" + escapePath(path), size: -1, check: checks[path],
			rq: request{what: path + " of " + r.Set, r2: r}})
	}
	return ps, nil
}

// r2Checks picks the set's files and how each is verified: a pinned md5 the
// listing must agree with (a blank in the listing defers to the pin), or the
// listing's md5 under a pinned listing.
func r2Checks(r *R2, listed []Listed, where string) (map[string]checksum, error) {
	out := map[string]checksum{}
	if len(r.Files) > 0 {
		byPath := map[string]string{}
		for _, l := range listed {
			byPath[l.Path] = l.MD5
		}
		for path, pinned := range r.Files {
			got, ok := byPath[path]
			if !ok {
				return nil, fmt.Errorf("%s does not list %s, which the pin names: the set changed on the storage", where, path)
			}
			if got != "" && got != pinned {
				return nil, fmt.Errorf("%s lists md5 %s for %s, the pin says %s: the file changed on the storage since the round was pinned", where, got, path, pinned)
			}
			out[path] = checksum{Algo: "md5", Want: pinned, Source: "the pin, from the round's " + r.Set + ".md5"}
		}
		return out, nil
	}
	var paths []string
	md5s := map[string]string{}
	for _, l := range listed {
		paths = append(paths, l.Path)
		md5s[l.Path] = l.MD5
	}
	chosen, err := choose(paths, r.Include, nil, where)
	if err != nil {
		return nil, err
	}
	for _, path := range chosen {
		if md5s[path] == "" {
			out[path] = checksum{Source: where + " lists no md5 for it (uploaded in parts)"}
			continue
		}
		out[path] = checksum{Algo: "md5", Want: md5s[path], Source: where + ", pinned by its sha256"}
	}
	return out, nil
}

func sortedKeys[V any](m map[string]V) []string {
	k := make([]string, 0, len(m))
	for s := range m {
		k = append(k, s)
	}
	slices.Sort(k)
	return k
}

// small fetches a small metadata file whole.
func (d *downloader) small(ctx context.Context, u string, rq request) ([]byte, error) {
	resp, err := d.get(ctx, u, rq)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, maxMetadata+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", rq.what, err)
	}
	if len(b) > maxMetadata {
		return nil, fmt.Errorf("%s is larger than %s: not a metadata file", u, FormatBytes(maxMetadata))
	}
	return b, nil
}

// sizeUnknown asks the storage for the sizes its listing does not give
// (HEAD), for the progress total and the space check; a size it will not
// tell stays unknown.
func (d *downloader) sizeUnknown(ctx context.Context, all []*job) error {
	var unknown []*job
	for _, j := range all {
		if j.size < 0 {
			unknown = append(unknown, j)
		}
	}
	sem := make(chan struct{}, d.jobs)
	errs := make([]error, len(unknown))
	// A storage that will not answer HEAD leaves the size unknown; one
	// that denies access or is down stops here, before any byte.
	fatal := func(err error) bool {
		var ae *AccessError
		var ge *GaveUpError
		return errors.As(err, &ae) || errors.As(err, &ge) || ctx.Err() != nil
	}
	var wg sync.WaitGroup
	for i, j := range unknown {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			rq := j.rq
			rq.method = http.MethodHead
			rq.what = "the size of " + rq.what
			resp, err := d.get(ctx, j.url, rq)
			if err != nil {
				if fatal(err) {
					errs[i] = err
				}
				return
			}
			resp.Body.Close()
			if resp.ContentLength >= 0 {
				j.size = resp.ContentLength
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
