package download

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
)

// DefaultHFEndpoint is the Hugging Face hub's URL when HF_ENDPOINT is unset.
const DefaultHFEndpoint = "https://huggingface.co"

// HFEnv is what huggingface_hub reads from the environment: the endpoint
// (HF_ENDPOINT, default DefaultHFEndpoint, trailing slash dropped), the
// token (HF_TOKEN, else HUGGING_FACE_HUB_TOKEN — huggingface_hub's legacy
// name — else HUGGINGFACE_HUB_TOKEN, else the file HF_TOKEN_PATH or
// $HF_HOME/token, HF_HOME defaulting to $XDG_CACHE_HOME/huggingface or
// ~/.cache/huggingface, where `huggingface-cli login` writes it), and
// offline mode (HF_HUB_OFFLINE=1). getenv is os.Getenv outside tests.
type HFEnv struct {
	Endpoint string
	Token    string
	// TokenFrom names where Token came from, for messages ("HF_TOKEN").
	TokenFrom string
	Offline   bool
}

// ReadHFEnv reads HFEnv through getenv.
func ReadHFEnv(getenv func(string) string) HFEnv {
	e := HFEnv{Endpoint: strings.TrimRight(getenv("HF_ENDPOINT"), "/")}
	if e.Endpoint == "" {
		e.Endpoint = DefaultHFEndpoint
	}
	switch strings.ToUpper(strings.TrimSpace(getenv("HF_HUB_OFFLINE"))) {
	case "1", "ON", "YES", "TRUE":
		e.Offline = true
	}
	for _, name := range []string{"HF_TOKEN", "HUGGING_FACE_HUB_TOKEN", "HUGGINGFACE_HUB_TOKEN"} {
		if t := cleanToken(getenv(name)); t != "" {
			e.Token, e.TokenFrom = t, name
			return e
		}
	}
	path := getenv("HF_TOKEN_PATH")
	if path == "" {
		home := getenv("HF_HOME")
		if home == "" {
			cache := getenv("XDG_CACHE_HOME")
			if cache == "" {
				if h := getenv("HOME"); h != "" {
					cache = filepath.Join(h, ".cache")
				}
			}
			if cache != "" {
				home = filepath.Join(cache, "huggingface")
			}
		}
		if home != "" {
			path = filepath.Join(home, "token")
		}
	}
	if path != "" {
		if b, err := os.ReadFile(path); err == nil {
			if t := cleanToken(string(b)); t != "" {
				e.Token, e.TokenFrom = t, path
			}
		}
	}
	return e
}

// cleanToken trims a token as huggingface_hub's _clean_token does.
func cleanToken(t string) string {
	return strings.TrimSpace(strings.NewReplacer("\r", "", "\n", "").Replace(t))
}

// hfRepoPath is the repository's path on the hub: "datasets/<repo>" for a
// dataset, "<repo>" for a model (huggingface_hub REPO_TYPES_URL_PREFIXES).
func hfRepoPath(h *HF) string {
	if h.Type == Dataset {
		return "datasets/" + h.Repo
	}
	return h.Repo
}

// hfPageURL is the repository's page on huggingface.co, where a gated
// repository's licence is accepted (always the real hub: a mirror has no
// licence to accept).
func hfPageURL(h *HF) string { return DefaultHFEndpoint + "/" + hfRepoPath(h) }

// hfResolveURL is the file's download URL at the pinned revision
// (huggingface_hub hf_hub_url: the revision quoted with no safe character,
// the path quoted keeping "/").
func hfResolveURL(endpoint string, h *HF, file string) string {
	return endpoint + "/" + hfRepoPath(h) + "/resolve/" + url.PathEscape(h.Revision) + "/" + escapePath(file)
}

// hfTreeURL is the tree API's URL listing every file at the revision, with
// the query huggingface_hub's list_repo_tree(recursive=True) sends
// (requests writes Python's booleans as "True" and "False").
func hfTreeURL(endpoint string, h *HF) string {
	return endpoint + "/api/" + string(h.Type) + "s/" + h.Repo + "/tree/" + url.PathEscape(h.Revision) + "?recursive=True&expand=False"
}

// escapePath escapes each segment of a slash-separated path.
func escapePath(p string) string {
	segs := strings.Split(p, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	return strings.Join(segs, "/")
}

// treeEntry is one entry of the hub's tree API.
type treeEntry struct {
	Type string `json:"type"`
	Path string `json:"path"`
	Size int64  `json:"size"`
	OID  string `json:"oid"`
	LFS  *struct {
		OID  string `json:"oid"`
		Size int64  `json:"size"`
	} `json:"lfs"`
}

// maxTreePage bounds one page of the tree API's JSON.
const maxTreePage = 256 << 20

// parseTree decodes one page of the tree API and checks each file entry: a
// local path, a size, and a checksum (an LFS sha256, else a git blob sha1).
func parseTree(b []byte) ([]treeEntry, error) {
	var page []treeEntry
	if err := json.Unmarshal(b, &page); err != nil {
		return nil, fmt.Errorf("the hub's file list is not the tree API's JSON array: %v", err)
	}
	files := page[:0]
	for _, e := range page {
		if e.Type != "file" {
			continue
		}
		if !localPath(e.Path) {
			return nil, fmt.Errorf("the hub lists a file at %q, which is not a relative path", e.Path)
		}
		if e.LFS != nil {
			e.LFS.OID = strings.ToLower(e.LFS.OID)
			if !sha256Re.MatchString(e.LFS.OID) || e.LFS.Size < 0 {
				return nil, fmt.Errorf("the hub lists %s as an LFS file without a sha256 and size", e.Path)
			}
			e.Size = e.LFS.Size
		} else if e.OID = strings.ToLower(e.OID); !hex40Re.MatchString(e.OID) || e.Size < 0 {
			return nil, fmt.Errorf("the hub lists %s without a git blob id and size", e.Path)
		}
		files = append(files, e)
	}
	return files, nil
}

// listHF lists every file of h's repository at the pinned revision,
// following the tree API's Link pagination.
func (d *downloader) listHF(ctx context.Context, h *HF) ([]treeEntry, error) {
	var all []treeEntry
	next := hfTreeURL(d.hf.Endpoint, h)
	for pages := 0; next != ""; pages++ {
		if pages > 10000 {
			return nil, fmt.Errorf("the hub's file list of %s has more than 10000 pages", h.Repo)
		}
		resp, err := d.get(ctx, next, request{hub: true, what: "the file list of " + h.Repo + "@" + h.Revision, hf: h})
		if err != nil {
			return nil, err
		}
		b, err := io.ReadAll(io.LimitReader(resp.Body, maxTreePage))
		resp.Body.Close()
		if err != nil {
			return nil, fmt.Errorf("reading the file list of %s: %w", h.Repo, err)
		}
		page, err := parseTree(b)
		if err != nil {
			return nil, fmt.Errorf("%s@%s: %w", h.Repo, h.Revision, err)
		}
		all = append(all, page...)
		next, err = nextLink(resp, next)
		if err != nil {
			return nil, err
		}
	}
	return all, nil
}

// nextLink returns the rel="next" URL of a Link header (as GitHub and the hub
// paginate), resolved against the page's URL; "" on the last page.
func nextLink(resp *http.Response, base string) (string, error) {
	for _, v := range resp.Header.Values("Link") {
		for _, part := range strings.Split(v, ",") {
			segs := strings.Split(part, ";")
			target := strings.TrimSpace(segs[0])
			if !strings.HasPrefix(target, "<") || !strings.HasSuffix(target, ">") {
				continue
			}
			for _, s := range segs[1:] {
				if k, v, ok := strings.Cut(strings.TrimSpace(s), "="); ok && k == "rel" && strings.Trim(v, `"`) == "next" {
					b, err := url.Parse(base)
					if err != nil {
						return "", err
					}
					u, err := b.Parse(target[1 : len(target)-1])
					if err != nil {
						return "", fmt.Errorf("the hub's next-page link %q: %v", target, err)
					}
					return u.String(), nil
				}
			}
		}
	}
	return "", nil
}
