package download

import (
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// The seeds are lines of the real metadata (mlcommons/r2-infra @ 5d77ea6,
// inference/metadata and automotive/metadata), including the blank md5s of
// multipart objects and paths with spaces.
var listingSeeds = []string{
	"c41c613c17794d117899fdcdeeadbe3c  cnn_eval.json\n",
	"                                  data/train-00000-of-00004.parquet\n                                  data/train-00001-of-00004.parquet\n1d689ad80ddc054366a256c57de4e2d3  data/train-00002-of-00004.parquet\n21e7bacd278cc45b5bbc29b9008270a6  README.md\n",
	"21189ce4da99eb606d096d9d078b9584  bfcl_v4_single_turn.parquet\nb3c0e1d7237b12da8ee241c46745315c  Berkeley Function Calling Leaderboard LICENSE.txt\n",
	"040cc2d13e77efedb9b76053ac45b9dc  perf/input_lens_perf_eval.npy\r\n29d35424fc8d31461e73a7766446480e *acc/acc_eval_ref.parquet\r\n",
	"0004a096f794d9b19c5f71cc26f15a41  ./dev-all/6841/88294/6841-88294-0029.wav\n",
}

func TestParseListing(t *testing.T) {
	t.Parallel()
	got, err := ParseListing([]byte(listingSeeds[1] + "\n" + listingSeeds[2] + listingSeeds[4]))
	if err != nil {
		t.Fatal(err)
	}
	want := []Listed{
		{"data/train-00000-of-00004.parquet", ""},
		{"data/train-00001-of-00004.parquet", ""},
		{"data/train-00002-of-00004.parquet", "1d689ad80ddc054366a256c57de4e2d3"},
		{"README.md", "21e7bacd278cc45b5bbc29b9008270a6"},
		{"bfcl_v4_single_turn.parquet", "21189ce4da99eb606d096d9d078b9584"},
		{"Berkeley Function Calling Leaderboard LICENSE.txt", "b3c0e1d7237b12da8ee241c46745315c"},
		{"dev-all/6841/88294/6841-88294-0029.wav", "0004a096f794d9b19c5f71cc26f15a41"},
	}
	if !slices.Equal(got, want) {
		t.Errorf("got %v\nwant %v", got, want)
	}
	for _, bad := range []struct{ in, says string }{
		{"", "lists no file"},
		{"c41c613c17794d117899fdcdeeadbe3c cnn_eval.json\n", "line 1"},
		{"c41c613c17794d117899fdcdeeadbeXX  a\n", "not an md5"},
		{"c41c613c17794d117899fdcdeeadbe3c  ../etc/passwd\n", "not a relative path"},
		{"c41c613c17794d117899fdcdeeadbe3c  /abs\n", "not a relative path"},
		{"c41c613c17794d117899fdcdeeadbe3c  a\n\nc41c613c17794d117899fdcdeeadbe3c  a\n", "line 3: a is listed again (first on line 1)"},
		{"\xff\xfe", "not UTF-8"},
	} {
		if _, err := ParseListing([]byte(bad.in)); err == nil || !strings.Contains(err.Error(), bad.says) {
			t.Errorf("ParseListing(%q) = %v, want an error saying %q", bad.in, err, bad.says)
		}
	}
}

func FuzzParseListing(f *testing.F) {
	for _, s := range listingSeeds {
		f.Add([]byte(s))
	}
	f.Add([]byte("  \n\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		got, err := ParseListing(b)
		if err != nil {
			return
		}
		seen := map[string]bool{}
		var again strings.Builder
		for _, l := range got {
			if !localPath(l.Path) || seen[l.Path] || (l.MD5 != "" && !md5Re.MatchString(l.MD5)) {
				t.Fatalf("accepted %+v", l)
			}
			seen[l.Path] = true
			sum := l.MD5
			if sum == "" {
				sum = strings.Repeat(" ", 32)
			}
			again.WriteString(sum + "  " + l.Path + "\n")
		}
		round, err := ParseListing([]byte(again.String()))
		if err != nil || !slices.Equal(round, got) {
			t.Fatalf("re-parsing the written listing: %v %v", round, err)
		}
	})
}

func TestParseURI(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"https://inference.mlcommons-storage.org/llama3.1_8b/datasets\n": "https://inference.mlcommons-storage.org/llama3.1_8b/datasets",
		"https://inference.mlcommons-storage.org/gpt-oss_data/":          "https://inference.mlcommons-storage.org/gpt-oss_data",
		"  http://127.0.0.1:8080/x \r\n":                                 "http://127.0.0.1:8080/x",
	} {
		if got, err := ParseURI([]byte(in)); err != nil || got != want {
			t.Errorf("ParseURI(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "\n\n", "ftp://x/y", "https://a\nhttps://b", "https:///path", "https://u:p@h/x", "https://h/x?q=1", "/relative", "https://h/x#f"} {
		if got, err := ParseURI([]byte(bad)); err == nil {
			t.Errorf("ParseURI(%q) = %q, want an error", bad, got)
		}
	}
}

func FuzzParseURI(f *testing.F) {
	f.Add([]byte("https://inference.mlcommons-storage.org/llama3.1_8b/datasets\n"))
	f.Add([]byte("https://automotive.mlcommons-storage.org/llama_31_8b_dataset_mmlu"))
	f.Add([]byte("http://[::1]:80/a%20b/"))
	f.Fuzz(func(t *testing.T, b []byte) {
		got, err := ParseURI(b)
		if err != nil {
			return
		}
		u, perr := url.Parse(got)
		if perr != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || strings.HasSuffix(got, "/") {
			t.Fatalf("ParseURI(%q) accepted %q", b, got)
		}
		if again, err := ParseURI([]byte(got)); err != nil || again != got {
			t.Fatalf("ParseURI is not idempotent on %q: %q %v", got, again, err)
		}
	})
}

func TestParseTree(t *testing.T) {
	t.Parallel()
	page := `[{"type":"directory","oid":"x","size":0,"path":"data"},
	{"type":"file","oid":"` + strings.Repeat("a", 40) + `","size":12,"path":"README.md"},
	{"type":"file","oid":"` + strings.Repeat("b", 40) + `","size":134,"path":"data/t.parquet","lfs":{"oid":"` + strings.Repeat("C", 64) + `","size":999,"pointerSize":134},"xetHash":"zz"}]`
	got, err := parseTree([]byte(page))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[1].Size != 999 || got[1].LFS.OID != strings.Repeat("c", 64) || got[0].OID != strings.Repeat("a", 40) {
		t.Errorf("got %+v", got)
	}
	for _, bad := range []string{`{}`, `[{"type":"file","path":"../x","oid":"` + strings.Repeat("a", 40) + `","size":1}]`, `[{"type":"file","path":"x","oid":"short","size":1}]`, `[{"type":"file","path":"x","oid":"` + strings.Repeat("a", 40) + `","size":1,"lfs":{"oid":"nope","size":1}}]`} {
		if _, err := parseTree([]byte(bad)); err == nil {
			t.Errorf("parseTree(%s) accepted it", bad)
		}
	}
}

func FuzzParseTree(f *testing.F) {
	f.Add([]byte(`[{"type":"file","oid":"` + strings.Repeat("a", 40) + `","size":12,"path":"README.md"}]`))
	f.Add([]byte(`[{"type":"file","oid":"x","size":1,"path":"a/b","lfs":{"oid":"` + strings.Repeat("c", 64) + `","size":5,"pointerSize":134}}]`))
	f.Fuzz(func(t *testing.T, b []byte) {
		got, err := parseTree(b)
		if err != nil {
			return
		}
		for _, e := range got {
			if !localPath(e.Path) || e.Size < 0 || (e.LFS == nil && !hex40Re.MatchString(e.OID)) || (e.LFS != nil && !sha256Re.MatchString(e.LFS.OID)) {
				t.Fatalf("accepted %+v", e)
			}
		}
	})
}

func TestMatch(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		pat, name string
		want      bool
	}{
		{"data/train-*.parquet", "data/train-00000-of-00015.parquet", true},
		{"data/train-*.parquet", "data/test-00000-of-00005.parquet", false},
		{"data/*.parquet", "data/sub/x.parquet", false},
		{"**/*.parquet", "x.parquet", true},
		{"**/*.parquet", "a/b/c.parquet", true},
		{"mmlu/**", "mmlu/all/test.parquet", true},
		{"mmlu/**", "other/x", false},
		{"LICENSE*", "LICENSE.txt", true},
		{"tokenizer.json", "tokenizer.json", true},
		{"tokenizer.json", "original/tokenizer.json", false},
	} {
		if got := Match(tc.pat, tc.name); got != tc.want {
			t.Errorf("Match(%q, %q) = %v", tc.pat, tc.name, got)
		}
	}
}

func TestContentRange(t *testing.T) {
	t.Parallel()
	for in, want := range map[string][3]int64{
		"bytes 100-199/200": {100, 200, 1},
		"bytes 0-0/*":       {0, -1, 1},
		"bytes */200":       {0, 0, 0},
		"items 1-2/3":       {0, 0, 0},
		"bytes -1-2/3":      {0, 0, 0},
	} {
		s, tot, ok := contentRange(in)
		if ok != (want[2] == 1) || (ok && (s != want[0] || tot != want[1])) {
			t.Errorf("contentRange(%q) = %d %d %v", in, s, tot, ok)
		}
	}
}

func TestRetryAfterHeader(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 8, 1, 12, 0, 0, 0, time.UTC)
	for in, want := range map[string]time.Duration{
		"":                              0,
		"120":                           2 * time.Minute,
		"-5":                            0,
		"soon":                          0,
		"Sat, 01 Aug 2026 12:00:30 GMT": 30 * time.Second,
		"Sat, 01 Aug 2026 11:00:00 GMT": 0,
	} {
		if got := retryAfter(in, now); got != want {
			t.Errorf("retryAfter(%q) = %v, want %v", in, got, want)
		}
	}
}

func TestBackoff(t *testing.T) {
	t.Parallel()
	r := Retry{}.withDefaults()
	for n, max := range []time.Duration{time.Second, 2 * time.Second, 4 * time.Second} {
		for range 50 {
			if d := r.backoff(n); d < max/2 || d > max {
				t.Fatalf("backoff(%d) = %v, want within [%v, %v]", n, d, max/2, max)
			}
		}
	}
	if d := r.backoff(100); d > time.Minute || d < 30*time.Second {
		t.Errorf("backoff(100) = %v, want capped at 1m", d)
	}
}

// TestReadHFEnv: the endpoint, token and offline mode are read as
// huggingface_hub reads them.
func TestReadHFEnv(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	os.MkdirAll(filepath.Join(home, ".cache", "huggingface"), 0o755)
	os.WriteFile(filepath.Join(home, ".cache", "huggingface", "token"), []byte("hf_file\n"), 0o600)
	env := func(kv ...string) func(string) string {
		m := map[string]string{"HOME": home}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return func(k string) string { return m[k] }
	}
	for _, tc := range []struct {
		env                func(string) string
		endpoint, tok, src string
		offline            bool
	}{
		{env(), DefaultHFEndpoint, "hf_file", filepath.Join(home, ".cache", "huggingface", "token"), false},
		{env("HF_ENDPOINT", "https://hf-mirror.com/", "HF_TOKEN", " hf_a\r\n", "HUGGING_FACE_HUB_TOKEN", "hf_b"), "https://hf-mirror.com", "hf_a", "HF_TOKEN", false},
		{env("HUGGING_FACE_HUB_TOKEN", "hf_b", "HUGGINGFACE_HUB_TOKEN", "hf_c"), DefaultHFEndpoint, "hf_b", "HUGGING_FACE_HUB_TOKEN", false},
		{env("HUGGINGFACE_HUB_TOKEN", "hf_c", "HF_HUB_OFFLINE", "1"), DefaultHFEndpoint, "hf_c", "HUGGINGFACE_HUB_TOKEN", true},
		{env("HF_HOME", filepath.Join(home, "none")), DefaultHFEndpoint, "", "", false},
		{env("HF_TOKEN_PATH", filepath.Join(home, ".cache", "huggingface", "token"), "HF_HOME", "/nowhere"), DefaultHFEndpoint, "hf_file", filepath.Join(home, ".cache", "huggingface", "token"), false},
	} {
		got := ReadHFEnv(tc.env)
		if got.Endpoint != tc.endpoint || got.Token != tc.tok || got.TokenFrom != tc.src || got.Offline != tc.offline {
			t.Errorf("ReadHFEnv = %+v, want endpoint %q token %q from %q offline %v", got, tc.endpoint, tc.tok, tc.src, tc.offline)
		}
	}
}

func TestValidate(t *testing.T) {
	t.Parallel()
	good := Pin{Role: RoleDataset, Dir: "dataset", Ref: "r", HF: &HF{Repo: "a/b", Type: Dataset, Revision: rev, Include: []string{"data/*"}}}
	if err := good.Validate(); err != nil {
		t.Fatal(err)
	}
	wheel := Pin{Role: RoleDataset, Dir: "dataset", Ref: "r", PyPI: &PyPI{Project: "bfcl-eval", Version: "1!2026.3.23+local", File: "bfcl_eval-2026.3.23-py3-none-any.whl", SHA256: strings.Repeat("0", 64)}}
	if err := wheel.Validate(); err != nil {
		t.Fatal(err)
	}
	for says, mutate := range map[string]func(p *Pin){
		"Role is empty":       func(p *Pin) { p.Role = "" },
		"not a relative path": func(p *Pin) { p.Dir = "../x" },
		"exactly one of HF":   func(p *Pin) { p.R2 = &R2{} },
		"40-digit commit SHA": func(p *Pin) { p.HF.Revision = "main" },
		"not owner/name":      func(p *Pin) { p.HF.Repo = "x" },
		"HF.Include is empty": func(p *Pin) { p.HF.Include = nil },
		"malformed":           func(p *Pin) { p.HF.Include = []string{"[a"} },
		"Open path":           func(p *Pin) { p.Open = []string{"/abs"} },
		"R2.Base": func(p *Pin) {
			p.HF = nil
			p.R2 = &R2{Set: "s", Base: "https://x/y", Files: map[string]string{"a": strings.Repeat("0", 32)}}
		},
		"not an md5":             func(p *Pin) { p.HF = nil; p.R2 = &R2{Set: "s", Base: "https://x", Files: map[string]string{"a": "00"}} },
		"needs R2.ListingSHA256": func(p *Pin) { p.HF = nil; p.R2 = &R2{Set: "s", Base: "https://x", Include: []string{"*"}} },
		"exactly one of HF, R2 and PyPI": func(p *Pin) {
			p.PyPI = &PyPI{Project: "a", Version: "1", File: "a-1.whl", SHA256: strings.Repeat("0", 64)}
		},
		"PyPI.Project": func(p *Pin) {
			p.HF = nil
			p.PyPI = &PyPI{Project: "a/b", Version: "1", File: "f", SHA256: strings.Repeat("0", 64)}
		},
		"PyPI.Version": func(p *Pin) {
			p.HF = nil
			p.PyPI = &PyPI{Project: "a", Version: "../1", File: "f", SHA256: strings.Repeat("0", 64)}
		},
		"PyPI.File": func(p *Pin) {
			p.HF = nil
			p.PyPI = &PyPI{Project: "a", Version: "1", File: "d/f.whl", SHA256: strings.Repeat("0", 64)}
		},
		"PyPI.SHA256": func(p *Pin) {
			p.HF = nil
			p.PyPI = &PyPI{Project: "a", Version: "1", File: "f", SHA256: strings.Repeat("A", 64)}
		},
	} {
		p := good
		h := *good.HF
		p.HF = &h
		mutate(&p)
		if err := p.Validate(); err == nil || !strings.Contains(err.Error(), says) {
			t.Errorf("%s: Validate() = %v", says, err)
		}
	}
}
