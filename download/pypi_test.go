package download

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const (
	wheelName = "bfcl_eval-2026.3.23-py3-none-any.whl"
	sdistName = "bfcl_eval-2026.3.23.tar.gz"
)

// wheelIndex is a fake PyPI with bfcl-eval 2026.3.23 (a wheel and an
// sdist) and an older release; it returns the wheel's bytes.
func wheelIndex(t *testing.T) (*fakePyPI, []byte) {
	y := newFakePyPI(t)
	wheel := payload(900_000, 11)
	y.add("bfcl-eval", "2026.3.23", wheelName, wheel)
	y.add("bfcl-eval", "2026.3.23", sdistName, payload(800_000, 12))
	y.add("bfcl-eval", "2026.3.11", "bfcl_eval-2026.3.11-py3-none-any.whl", payload(1000, 13))
	return y, wheel
}

func wheelPin(sum string) Pin {
	return Pin{Role: RoleDataset, Dir: "dataset", Ref: "test",
		PyPI: &PyPI{Project: "bfcl-eval", Version: "2026.3.23", File: wheelName, SHA256: sum}, Open: []string{wheelName}}
}

// TestPyPIWheel: the wheel is found in the release's JSON (not the sdist
// beside it), fetched from the files host, verified against the pin and
// recorded; a second run, offline, reuses it without a request.
func TestPyPIWheel(t *testing.T) {
	t.Parallel()
	y, wheel := wheelIndex(t)
	var s sleeps
	o := quick(&s)
	o.PyPIURL = y.api.URL + "/"
	dir := t.TempDir()
	req := Request{For: "qwen3.6-27b v6.1", Pins: []Pin{wheelPin(sha256Hex(wheel))}}
	res, err := Fetch(context.Background(), dir, req, o)
	if err != nil {
		t.Fatal(err)
	}
	checkFiles(t, dir, map[string][]byte{"dataset/" + wheelName: wheel})
	if !slices.Equal(y.apiPaths, []string{"/pypi/bfcl-eval/2026.3.23/json"}) || y.files.requests != 1 {
		t.Errorf("API asked %v, files host %d times: want the release's JSON once and one file request", y.apiPaths, y.files.requests)
	}
	set := res.Manifest.Role(RoleDataset)
	if set == nil || len(set.Files) != 1 || res.Files != 1 || len(res.Unverified) != 0 {
		t.Fatalf("result %+v", res)
	}
	f := set.Files[0]
	if f.Path != "dataset/"+wheelName || f.Size != int64(len(wheel)) || f.SHA256 != sha256Hex(wheel) ||
		!strings.HasPrefix(f.Verified, "sha256 "+sha256Hex(wheel)+" (the pin") {
		t.Errorf("manifest file %+v", f)
	}
	if !strings.HasPrefix(set.Source, y.filesSrv.URL+"/packages/") {
		t.Errorf("manifest source %q, want the file's URL on the files host", set.Source)
	}
	if got := set.OpenPaths(dir, false); !slices.Equal(got, []string{filepath.Join(dir, "dataset", wheelName)}) {
		t.Errorf("OpenPaths %v", got)
	}
	api, files := len(y.apiPaths), y.files.requests
	o.Offline = true
	if res, err := Fetch(context.Background(), dir, req, o); err != nil || !slices.Equal(res.Reused, []string{RoleDataset}) {
		t.Fatalf("offline second run: %v %+v", err, res)
	}
	if len(y.apiPaths) != api || y.files.requests != files {
		t.Errorf("the offline run made requests")
	}
}

// TestPyPIListedDigest: an index listing another sha256 for the pinned
// file stops before the file is asked for, naming the file and both
// digests.
func TestPyPIListedDigest(t *testing.T) {
	t.Parallel()
	y, wheel := wheelIndex(t)
	y.listedSHA256 = strings.Repeat("e", 64)
	var s sleeps
	o := quick(&s)
	o.PyPIURL = y.api.URL
	dir := t.TempDir()
	_, err := Fetch(context.Background(), dir, Request{Pins: []Pin{wheelPin(sha256Hex(wheel))}}, o)
	if err == nil {
		t.Fatal("a listed sha256 unlike the pin was accepted")
	}
	for _, w := range []string{wheelName, "lists sha256 " + y.listedSHA256, "the pin says " + sha256Hex(wheel), "nothing was downloaded"} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("%q does not say %q", err, w)
		}
	}
	if y.files.requests != 0 {
		t.Errorf("%d requests to the files host", y.files.requests)
	}
	checkFiles(t, dir, nil)
}

// TestPyPINotFound: the release's JSON answers 404 for an unknown project
// and an unknown version alike; the project's JSON tells them apart, and
// each error says which. Neither is retried. A proxy that serves only the
// project's JSON still gets the file from it.
func TestPyPINotFound(t *testing.T) {
	t.Parallel()
	y, wheel := wheelIndex(t)
	var s sleeps
	o := quick(&s)
	o.PyPIURL = y.api.URL
	for _, tc := range []struct {
		mutate func(*PyPI)
		says   []string
	}{
		{func(p *PyPI) { p.Version = "2026.9.9" }, []string{"has no release 2026.9.9 of bfcl-eval", "/pypi/bfcl-eval/2026.9.9/json", `its latest is "2026.3.23"`, "check the pin's version"}},
		{func(p *PyPI) { p.Project = "bfcl-evall" }, []string{"has no project bfcl-evall", "/pypi/bfcl-evall/json", "check the pin's project name", "--pypi-url"}},
		{func(p *PyPI) { p.File = "bfcl_eval-2026.3.23-py3-none-manylinux.whl" }, []string{"lists no file bfcl_eval-2026.3.23-py3-none-manylinux.whl", "it lists " + wheelName + ", " + sdistName}},
	} {
		pin := wheelPin(sha256Hex(wheel))
		p := *pin.PyPI
		tc.mutate(&p)
		pin.PyPI = &p
		dir := t.TempDir()
		_, err := Fetch(context.Background(), dir, Request{Pins: []Pin{pin}}, o)
		if err == nil {
			t.Fatalf("%+v: no error", p)
		}
		for _, w := range tc.says {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%q does not say %q", err, w)
			}
		}
		checkFiles(t, dir, nil)
	}
	if len(s.waits()) != 0 || y.files.requests != 0 {
		t.Errorf("waited %v, %d file requests: a 404 is final", s.waits(), y.files.requests)
	}

	y.onlyProject = true
	dir := t.TempDir()
	if _, err := Fetch(context.Background(), dir, Request{Pins: []Pin{wheelPin(sha256Hex(wheel))}}, o); err != nil {
		t.Fatalf("project-only index: %v", err)
	}
	checkFiles(t, dir, map[string][]byte{"dataset/" + wheelName: wheel})
}

// TestPyPIURL: --pypi-url takes an index's base URL; pip's simple index
// URL is refused with what to give instead.
func TestPyPIURL(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{"": DefaultPyPIURL, "https://pypi.org/": DefaultPyPIURL, " http://mirror:8080/pypi-proxy// ": "http://mirror:8080/pypi-proxy"} {
		if got, err := pypiIndex(in); err != nil || got != want {
			t.Errorf("pypiIndex(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for in, says := range map[string]string{
		"https://pypi.org/simple/":                   "is a simple index",
		"https://user:secret@m.example/root/+simple": "https://m.example/root/+simple is a simple index",
		"ftp://pypi.org":                             "not an http(s) URL",
		"https://pypi.org/?x=1":                      "not an http(s) URL",
	} {
		if _, err := pypiIndex(in); err == nil || !strings.Contains(err.Error(), says) || strings.Contains(err.Error(), "secret") {
			t.Errorf("pypiIndex(%q) = %v, want an error saying %q (and no secret)", in, err, says)
		}
	}
}

// TestPyPIResume: a connection cut mid-file is resumed with a Range
// request from the last byte written.
func TestPyPIResume(t *testing.T) {
	t.Parallel()
	y, wheel := wheelIndex(t)
	y.files.faults[y.filePath(wheelName, wheel)] = &fault{cutAfter: 400_000, cutTimes: 2}
	var s sleeps
	o := quick(&s)
	o.PyPIURL = y.api.URL
	dir := t.TempDir()
	res, err := Fetch(context.Background(), dir, Request{Pins: []Pin{wheelPin(sha256Hex(wheel))}}, o)
	if err != nil {
		t.Fatal(err)
	}
	checkFiles(t, dir, map[string][]byte{"dataset/" + wheelName: wheel})
	if want := []string{"bytes=400000-", "bytes=800000-"}; !slices.Equal(y.files.ranges, want) {
		t.Errorf("Range headers %q, want %q", y.files.ranges, want)
	}
	if res.Bytes != int64(len(wheel)) {
		t.Errorf("%d bytes fetched, want %d (each byte once)", res.Bytes, len(wheel))
	}
}

// TestPyPIWrongBytes: bytes unlike the pin are a ChecksumError naming the
// file and both digests; the partial file is removed and nothing is left
// under the wheel's name.
func TestPyPIWrongBytes(t *testing.T) {
	t.Parallel()
	y, wheel := wheelIndex(t)
	y.files.faults[y.filePath(wheelName, wheel)] = &fault{corrupt: true}
	var s sleeps
	o := quick(&s)
	o.PyPIURL = y.api.URL
	dir := t.TempDir()
	_, err := Fetch(context.Background(), dir, Request{Pins: []Pin{wheelPin(sha256Hex(wheel))}}, o)
	var ce *ChecksumError
	if !errors.As(err, &ce) {
		t.Fatalf("err = %v, want a ChecksumError", err)
	}
	bad := bytes.Clone(wheel)
	bad[len(bad)/2] ^= 0xff
	if ce.File != "dataset/"+wheelName || ce.Algo != "sha256" || ce.Want != sha256Hex(wheel) || ce.Got != sha256Hex(bad) || !ce.Removed {
		t.Errorf("ChecksumError %+v", ce)
	}
	for _, w := range []string{wheelName, ce.Want, ce.Got, "partial file was removed"} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("%q does not say %q", err, w)
		}
	}
	checkFiles(t, dir, nil)
	if _, err := os.Stat(filepath.Join(dir, ManifestFile)); err == nil {
		t.Error("a manifest was written for a failed download")
	}
}

// TestPyPIForbidden: a 403 from the index is said to be the mirror's (PyPI
// needs no login), without the URL's credentials, and not retried.
func TestPyPIForbidden(t *testing.T) {
	t.Parallel()
	y, wheel := wheelIndex(t)
	y.api.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { http.Error(w, "login first", http.StatusForbidden) })
	var s sleeps
	o := quick(&s)
	o.PyPIURL = strings.Replace(y.api.URL, "http://", "http://user:s3cret@", 1)
	_, err := Fetch(context.Background(), t.TempDir(), Request{Pins: []Pin{wheelPin(sha256Hex(wheel))}}, o)
	var ae *AccessError
	if err == nil || errors.As(err, &ae) || !strings.Contains(err.Error(), "HTTP 403") || !strings.Contains(err.Error(), "--pypi-url") ||
		strings.Contains(err.Error(), "s3cret") || strings.Contains(err.Error(), "Hugging Face") {
		t.Errorf("err = %v", err)
	}
	if len(s.waits()) != 0 {
		t.Errorf("waited %v", s.waits())
	}
}

func FuzzPyPIIndex(f *testing.F) {
	for _, s := range []string{"", "https://pypi.org", "https://pypi.org/simple/", "http://u:p@[::1]:8080/a//", "https://h/x?q#f"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		got, err := pypiIndex(in)
		if err != nil {
			return
		}
		u, perr := url.Parse(got)
		if perr != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || strings.HasSuffix(got, "/") || strings.HasSuffix(u.Path, "/simple") {
			t.Fatalf("pypiIndex(%q) accepted %q", in, got)
		}
		if again, err := pypiIndex(got); err != nil || again != got {
			t.Fatalf("pypiIndex is not idempotent on %q: %q %v", got, again, err)
		}
	})
}
