package download

import (
	"context"
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/mlperf-go/mlperf-go/internal/atomicfile"
)

// checksum is how a file is verified: its digest under Algo must be Want.
type checksum struct {
	// Algo is "sha256" (a hub LFS oid), "git-sha1" (a hub git blob id:
	// sha1 of "blob <size>\x00" and the bytes) or "md5" (the storage's
	// listing); "" when the source publishes nothing for the file.
	Algo, Want string
	// Source says who published Want, for the manifest and errors.
	Source string
}

// job is one file to put in place.
type job struct {
	// rel is the file's path in the download folder, slash-separated;
	// url where it is fetched from; size its length (-1 until known).
	rel, url string
	size     int64
	check    checksum
	rq       request
	// sha256 is filled in once the file is in place.
	sha256 string
	// fetched says the bytes came over the network in this run.
	fetched bool
}

// digests hash a file's bytes for its checksum and for the manifest's sha256.
type digests struct {
	check, sum hash.Hash
	w          io.Writer
	n          int64
}

func newDigests(c checksum, size int64) (*digests, error) {
	d := &digests{sum: sha256.New()}
	switch c.Algo {
	case "sha256":
		d.check = d.sum
	case "md5":
		d.check = md5.New()
	case "git-sha1":
		if size < 0 {
			return nil, errors.New("a git blob id needs the file's size")
		}
		d.check = sha1.New()
		fmt.Fprintf(d.check, "blob %d\x00", size)
	case "":
	default:
		return nil, fmt.Errorf("unknown checksum %q", c.Algo)
	}
	if d.check != nil && d.check != d.sum {
		d.w = io.MultiWriter(d.sum, d.check)
	} else {
		d.w = d.sum
	}
	return d, nil
}

func (d *digests) Write(p []byte) (int, error) {
	d.n += int64(len(p))
	return d.w.Write(p)
}

// verify compares the check digest with c; it returns the file's sha256.
func (d *digests) verify(rel string, c checksum) (string, error) {
	sum := hex.EncodeToString(d.sum.Sum(nil))
	if d.check == nil {
		return sum, nil
	}
	if got := hex.EncodeToString(d.check.Sum(nil)); got != c.Want {
		return sum, &ChecksumError{File: rel, Algo: c.Algo, Want: c.Want, Got: got, Source: c.Source}
	}
	return sum, nil
}

// hashFile hashes the first n bytes of f (all of it for n < 0) into a fresh
// digests for c.
func hashFile(f *os.File, n int64, c checksum, size int64) (*digests, error) {
	d, err := newDigests(c, size)
	if err != nil {
		return nil, err
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	var r io.Reader = f
	if n >= 0 {
		r = io.LimitReader(f, n)
	}
	if _, err := io.Copy(d, r); err != nil {
		return nil, err
	}
	return d, nil
}

// place puts j's file in place: a complete file already there is verified
// and kept; otherwise it is downloaded into <file>.part, resumed from what
// the .part holds, verified, and renamed over the file.
func (d *downloader) place(ctx context.Context, j *job) error {
	final := filepath.Join(d.dir, filepath.FromSlash(j.rel))
	if ok, err := d.keepExisting(j, final); err != nil || ok {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(final), 0o755); err != nil {
		return err
	}
	t := &transfer{d: d, j: j, part: final + ".part"}
	defer t.close()
	err := d.retrying(ctx, "downloading "+j.rel, j.url, func() (bool, error) { return t.attempt(ctx) })
	if err != nil {
		return err
	}
	sum, err := t.dg.verify(j.rel, j.check)
	if err != nil {
		t.close()
		rmErr := os.Remove(t.part)
		var ce *ChecksumError
		if errors.As(err, &ce) {
			ce.Removed = rmErr == nil
		}
		d.progress.addDone(-t.dg.n)
		return err
	}
	if err := t.finish(); err != nil {
		return err
	}
	if err := os.Rename(t.part, final); err != nil {
		return err
	}
	if err := atomicfile.SyncDir(filepath.Dir(final)); err != nil {
		return err
	}
	j.sha256, j.fetched = sum, true
	d.progress.fileDone()
	return nil
}

// keepExisting verifies a file already at final (a run interrupted before
// its manifest was written, or files put there by hand) and keeps it when
// it checks out; a file that does not is replaced by the download.
func (d *downloader) keepExisting(j *job, final string) (bool, error) {
	f, err := os.Open(final)
	if err != nil {
		return false, nil
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() || (j.size >= 0 && st.Size() != j.size) || j.check.Algo == "" {
		return false, nil
	}
	dg, err := hashFile(f, -1, j.check, st.Size())
	if err != nil {
		return false, fmt.Errorf("reading %s: %w", final, err)
	}
	sum, err := dg.verify(j.rel, j.check)
	if err != nil {
		return false, nil // not the pinned bytes: download them over it
	}
	if j.size < 0 {
		j.size = st.Size()
		d.progress.addTotal(j.size)
	}
	j.sha256 = sum
	d.progress.addDone(st.Size())
	d.progress.fileDone()
	return true, nil
}

// transfer is one file's download across its attempts.
type transfer struct {
	d    *downloader
	j    *job
	part string
	f    *os.File
	// dg holds the digests of the first dg.n bytes of the .part file.
	dg *digests
}

func (t *transfer) close() {
	if t.f != nil {
		t.f.Close()
		t.f = nil
	}
}

// open opens the .part file and brings the digests up to its length, which
// it returns.
func (t *transfer) open() (int64, error) {
	if t.f == nil {
		f, err := os.OpenFile(t.part, os.O_RDWR|os.O_CREATE, 0o644)
		if err != nil {
			return 0, err
		}
		t.f = f
	}
	st, err := t.f.Stat()
	if err != nil {
		return 0, err
	}
	off := st.Size()
	if t.j.size >= 0 && off > t.j.size {
		if err := t.restart(); err != nil {
			return 0, err
		}
		off = 0
	}
	if t.dg == nil || t.dg.n != off {
		if t.dg != nil {
			t.d.progress.addDone(-t.dg.n)
		}
		if t.dg, err = hashFile(t.f, off, t.j.check, t.j.size); err != nil {
			return 0, fmt.Errorf("reading %s: %w", t.part, err)
		}
		t.d.progress.addDone(off)
	}
	return off, nil
}

// restart empties the .part file: the server sends the file from its start.
func (t *transfer) restart() error {
	if err := t.f.Truncate(0); err != nil {
		return err
	}
	if t.dg != nil {
		t.d.progress.addDone(-t.dg.n)
	}
	dg, err := newDigests(t.j.check, t.j.size)
	if err != nil {
		return err
	}
	t.dg = dg
	return nil
}

// attempt asks for the rest of the file and appends what arrives.
func (t *transfer) attempt(ctx context.Context) (progressed bool, err error) {
	off, err := t.open()
	if err != nil {
		return false, err
	}
	if t.j.size >= 0 && off == t.j.size {
		return false, nil // complete: an earlier run was cut after the last byte
	}
	actx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	rq := t.j.rq
	if off > 0 {
		rq.header = http.Header{"Range": {"bytes=" + strconv.FormatInt(off, 10) + "-"}}
	}
	resp, err := t.d.do(actx, t.j.url, rq)
	if err != nil {
		return false, err
	}
	defer resp.Body.Close()
	if err := t.j.checkHub(rq.capture); err != nil {
		return false, err
	}
	if off, err = t.position(resp, off); err != nil {
		return false, err
	}
	if _, err := t.f.Seek(off, io.SeekStart); err != nil {
		return false, err
	}
	body := &stallReader{r: resp.Body, stall: t.d.retry.Stall, cancel: cancel}
	defer body.stop()
	n, err := t.copy(body)
	switch {
	case err != nil && ctx.Err() != nil:
		return n > 0, ctx.Err() // the whole download was cancelled
	case err != nil && isNoSpace(err):
		// What every unfinished file still needs, at least this one's rest.
		s := t.d.progress.Snapshot()
		need := max(s.Total-s.Done, t.j.size-off-n, 0)
		free, ok := t.d.freeSpace(t.d.dir)
		if !ok {
			free = -1
		}
		return n > 0, &DiskFullError{Dir: t.d.dir, File: t.j.rel, Need: need, Free: free, Err: err}
	case err != nil && context.Cause(actx) == errStalled:
		return n > 0, retriable(fmt.Errorf("no data for %s after %s of %s", t.d.retry.Stall, FormatBytes(off+n), t.j.rel))
	case err != nil && errors.Is(err, errWrite):
		return n > 0, err
	case err != nil:
		return n > 0, retriable(fmt.Errorf("the connection broke after %s of %s: %w", FormatBytes(off+n), t.j.rel, err))
	case t.j.size >= 0 && off+n < t.j.size:
		return n > 0, retriable(fmt.Errorf("the connection closed after %s of %s's %s", FormatBytes(off+n), t.j.rel, FormatBytes(t.j.size)))
	case t.j.size >= 0 && off+n > t.j.size:
		return true, fmt.Errorf("%s: the server sent %d bytes, more than the %d the source lists", t.j.rel, off+n, t.j.size)
	}
	if t.j.size < 0 {
		t.j.size = off + n
	}
	return n > 0, nil
}

// position reads where resp's body starts: at off for a 206 that answers
// the Range; at 0 for a 200 (a server that ignores Range resends the whole
// file, so the .part restarts). It learns the file's size when unknown.
func (t *transfer) position(resp *http.Response, off int64) (int64, error) {
	switch resp.StatusCode {
	case http.StatusPartialContent:
		start, total, ok := contentRange(resp.Header.Get("Content-Range"))
		if !ok || start != off {
			if err := t.restart(); err != nil {
				return 0, err
			}
			return 0, retriable(fmt.Errorf("%s: asked for bytes from %d, the server answered Content-Range %q", t.j.rel, off, resp.Header.Get("Content-Range")))
		}
		t.learnSize(total)
		return off, nil
	case http.StatusRequestedRangeNotSatisfiable:
		// The .part holds more than the file, or the file changed: start
		// over.
		if err := t.restart(); err != nil {
			return 0, err
		}
		return 0, retriable(fmt.Errorf("%s: the server refused the range from byte %d (HTTP 416)", t.j.rel, off))
	default:
		if off > 0 {
			if err := t.restart(); err != nil {
				return 0, err
			}
		}
		if resp.ContentLength >= 0 {
			t.learnSize(resp.ContentLength)
		}
		return 0, nil
	}
}

func (t *transfer) learnSize(total int64) {
	if total >= 0 && t.j.size < 0 {
		t.j.size = total
		t.d.progress.addTotal(total)
	}
}

// contentRange parses "bytes START-END/TOTAL" (TOTAL may be "*": -1).
func contentRange(v string) (start, total int64, ok bool) {
	rest, found := strings.CutPrefix(strings.TrimSpace(v), "bytes ")
	if !found {
		return 0, 0, false
	}
	rng, tot, found := strings.Cut(rest, "/")
	if !found {
		return 0, 0, false
	}
	s, _, found := strings.Cut(rng, "-")
	if !found {
		return 0, 0, false
	}
	start, err := strconv.ParseInt(s, 10, 64)
	if err != nil || start < 0 {
		return 0, 0, false
	}
	total = -1
	if tot != "*" {
		if total, err = strconv.ParseInt(tot, 10, 64); err != nil {
			return 0, 0, false
		}
	}
	return start, total, true
}

// errWrite marks a failed write to the .part file (not retried).
var errWrite = errors.New("write failed")

// copy appends body to the .part file, hashing and counting as it goes.
func (t *transfer) copy(body io.Reader) (int64, error) {
	buf := make([]byte, 1<<20)
	var n int64
	for {
		m, rerr := body.Read(buf)
		if m > 0 {
			if _, err := t.f.Write(buf[:m]); err != nil {
				if isNoSpace(err) {
					return n, err
				}
				return n, fmt.Errorf("%w: %s: %w", errWrite, t.part, err)
			}
			t.dg.Write(buf[:m])
			n += int64(m)
			t.d.progress.addDone(int64(m))
			t.d.progress.addFetched(int64(m))
		}
		if rerr == io.EOF {
			return n, nil
		}
		if rerr != nil {
			return n, rerr
		}
	}
}

// finish makes the .part file's bytes durable before the rename.
func (t *transfer) finish() error {
	if t.f == nil {
		return nil
	}
	if err := t.f.Sync(); err != nil {
		if isNoSpace(err) {
			return &DiskFullError{Dir: t.d.dir, File: t.j.rel, Free: -1, Err: err}
		}
		return err
	}
	err := t.f.Close()
	t.f = nil
	return err
}

// checkHub compares what the hub said about the file on the way (the
// commit its revision resolved to, the LFS sha256 or git blob id) with the
// pin and the tree API.
func (j *job) checkHub(h *hubHeaders) error {
	if h == nil || !h.seen || j.rq.hf == nil {
		return nil
	}
	if h.repoCommit != "" && h.repoCommit != j.rq.hf.Revision {
		return fmt.Errorf("%s: the hub served commit %s for the pinned revision %s", j.rel, h.repoCommit, j.rq.hf.Revision)
	}
	switch {
	case j.check.Algo == "sha256" && sha256Re.MatchString(h.linkedEtag) && h.linkedEtag != j.check.Want:
		return fmt.Errorf("%s: the hub's X-Linked-Etag is %s, its tree API lists sha256 %s", j.rel, h.linkedEtag, j.check.Want)
	case j.check.Algo == "git-sha1" && h.linkedEtag == "" && hex40Re.MatchString(h.etag) && h.etag != j.check.Want:
		return fmt.Errorf("%s: the hub's ETag is %s, its tree API lists git blob %s", j.rel, h.etag, j.check.Want)
	}
	return nil
}

// errStalled is the cause of a transfer dropped for receiving nothing.
var errStalled = errors.New("stalled")

// stallReader cancels the transfer when no byte arrives for stall.
type stallReader struct {
	r      io.Reader
	stall  time.Duration
	cancel context.CancelCauseFunc
	timer  *time.Timer
}

func (s *stallReader) Read(p []byte) (int, error) {
	if s.timer == nil {
		s.timer = time.AfterFunc(s.stall, func() { s.cancel(errStalled) })
	} else {
		s.timer.Reset(s.stall)
	}
	return s.r.Read(p)
}

func (s *stallReader) stop() {
	if s.timer != nil {
		s.timer.Stop()
	}
}
