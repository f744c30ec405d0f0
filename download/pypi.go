package download

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/mlperf-go/mlperf-go/internal/redact"
)

// DefaultPyPIURL is the Python Package Index's URL when Options.PyPIURL is
// empty.
const DefaultPyPIURL = "https://pypi.org"

// pypiFile is one file of a release as PyPI's JSON API lists it (urls[] of
// /pypi/<project>/<version>/json, releases[<version>] of
// /pypi/<project>/json).
type pypiFile struct {
	Filename string `json:"filename"`
	URL      string `json:"url"`
	Size     int64  `json:"size"`
	Digests  struct {
		SHA256 string `json:"sha256"`
	} `json:"digests"`
}

// pypiRelease is the part of /pypi/<project>/<version>/json read here.
type pypiRelease struct {
	URLs []pypiFile `json:"urls"`
}

// pypiProject is the part of /pypi/<project>/json read here.
type pypiProject struct {
	Info struct {
		Version string `json:"version"`
	} `json:"info"`
	Releases map[string][]pypiFile `json:"releases"`
}

// pypiIndex is the index's base URL: flag (Options.PyPIURL) without its
// trailing slash, or DefaultPyPIURL. A simple index (pip's index-url,
// ending in /simple) is refused: it is not the JSON API, and a mirror's
// JSON API is not always beside it.
func pypiIndex(flag string) (string, error) {
	base := strings.TrimRight(strings.TrimSpace(flag), "/")
	if base == "" {
		return DefaultPyPIURL, nil
	}
	u, err := url.Parse(base)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		return "", fmt.Errorf("--pypi-url %q is not an http(s) URL of a package index like %s", redact.URL(flag), DefaultPyPIURL)
	}
	if strings.HasSuffix(u.Path, "/simple") || strings.HasSuffix(u.Path, "/+simple") {
		return "", fmt.Errorf("--pypi-url %s is a simple index (pip's --index-url), not PyPI's JSON API: give the index's base URL, under which <URL>/pypi/<project>/<version>/json answers (for PyPI, %s)", redact.URL(flag), DefaultPyPIURL)
	}
	return base, nil
}

// planPyPI finds p's file in the index's JSON API and checks that the
// index lists the pinned sha256 for it, before any byte of it is asked for.
func (d *downloader) planPyPI(ctx context.Context, p Pin) (*plannedSet, error) {
	y := p.PyPI
	index, err := pypiIndex(d.pypi)
	if err != nil {
		return nil, err
	}
	files, listURL, err := d.listPyPI(ctx, index, y)
	if err != nil {
		return nil, err
	}
	f, err := pickPyPIFile(files, y, redact.URL(listURL))
	if err != nil {
		return nil, err
	}
	base, _ := url.Parse(listURL) // listURL was requested: it parses
	fu, err := base.Parse(f.URL)
	if err != nil || (fu.Scheme != "https" && fu.Scheme != "http") || fu.Host == "" {
		return nil, fmt.Errorf("%s lists %s at %q, which is not an http(s) URL", redact.URL(listURL), y.File, f.URL)
	}
	size := f.Size
	if size <= 0 {
		size = -1 // not listed: asked for with HEAD
	}
	return &plannedSet{pin: p, source: redact.URL(fu.String()), jobs: []*job{{
		rel: joinRel(p.Dir, y.File), url: fu.String(), size: size,
		check: checksum{Algo: "sha256", Want: y.SHA256, Source: "the pin of " + y.Project + "==" + y.Version + ", which PyPI's JSON API lists too"},
		rq:    request{what: y.File + " of " + y.Project + "==" + y.Version, pypi: y},
	}}}, nil
}

// listPyPI returns the files of y's release and the URL that listed them:
// the release's JSON (/pypi/<project>/<version>/json). That answers 404
// alike for an unknown project and an unknown version, so on a 404 the
// project's JSON (/pypi/<project>/json) tells them apart; when it lists
// the release, its files are used (a proxy may forward the project's
// endpoint only: one in front of pypi.org answered 404 for every
// versioned URL while serving the project's).
func (d *downloader) listPyPI(ctx context.Context, index string, y *PyPI) ([]pypiFile, string, error) {
	project := index + "/pypi/" + url.PathEscape(y.Project)
	release := project + "/" + url.PathEscape(y.Version) + "/json"
	b, err := d.small(ctx, release, request{what: "PyPI's file list of " + y.Project + "==" + y.Version, pypi: y})
	if err == nil {
		var r pypiRelease
		if err := json.Unmarshal(b, &r); err != nil {
			return nil, "", fmt.Errorf("%s is not PyPI's JSON API (%v): check --pypi-url", redact.URL(release), err)
		}
		return r.URLs, release, nil
	}
	if !isNotFound(err) {
		return nil, "", err
	}
	b, err = d.small(ctx, project+"/json", request{what: "PyPI's release list of " + y.Project, pypi: y})
	if isNotFound(err) {
		return nil, "", fmt.Errorf("%s has no project %s (HTTP 404 from %s and %s): check the pin's project name, and that --pypi-url (default %s) serves PyPI's JSON API",
			redact.URL(index), y.Project, redact.URL(release), redact.URL(project+"/json"), DefaultPyPIURL)
	}
	if err != nil {
		return nil, "", err
	}
	var pr pypiProject
	if err := json.Unmarshal(b, &pr); err != nil {
		return nil, "", fmt.Errorf("%s is not PyPI's JSON API (%v): check --pypi-url", redact.URL(project+"/json"), err)
	}
	files, ok := pr.Releases[y.Version]
	if !ok {
		return nil, "", fmt.Errorf("%s has no release %s of %s (HTTP 404 from %s; its latest is %q): check the pin's version",
			redact.URL(index), y.Version, y.Project, redact.URL(release), pr.Info.Version)
	}
	return files, project + "/json", nil
}

// pickPyPIFile returns the file of the release named y.File, after
// checking that the index lists the pinned sha256 for it (an index that
// lists none leaves the pin to check the bytes).
func pickPyPIFile(files []pypiFile, y *PyPI, where string) (pypiFile, error) {
	var names []string
	for _, f := range files {
		if f.Filename != y.File {
			names = append(names, f.Filename)
			continue
		}
		got := strings.ToLower(f.Digests.SHA256)
		if got != "" && got != y.SHA256 {
			return f, fmt.Errorf("%s: %s lists sha256 %s, the pin says %s: the index serves other bytes under the pinned name (a mirror out of step, or a changed release); nothing was downloaded: check the index before changing the pin",
				y.File, where, got, y.SHA256)
		}
		if f.URL == "" {
			return f, fmt.Errorf("%s lists %s without a URL", where, y.File)
		}
		return f, nil
	}
	listed := "no file"
	if len(names) > 0 {
		listed = strings.Join(names, ", ")
	}
	return pypiFile{}, fmt.Errorf("%s lists no file %s for %s==%s (it lists %s): the pin's file name is wrong for this release",
		where, y.File, y.Project, y.Version, listed)
}

// isNotFound reports whether err is a 404 answer.
func isNotFound(err error) bool {
	var se *statusError
	return errors.As(err, &se) && se.Status == http.StatusNotFound
}
