package redact

import (
	"slices"
	"strings"
	"testing"
)

func TestArgs(t *testing.T) {
	got := Args([]string{"--api-key", "sk", "--token=t", "--port", "8000", "--password", "--next", "http://u:p@h:1/x", "--secret-file /etc/s"})
	want := []string{"--api-key", "REDACTED", "--token=REDACTED", "--port", "8000", "--password", "--next", "http://h:1/x", "--secret-file REDACTED"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("Args = %q, want %q", got, want)
	}
}

// TestQueryValuesAndUserinfo: a key in a query string or in the user
// information never survives, in a URL or in text that repeats one.
func TestQueryValuesAndUserinfo(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"http://host/v1?api_key=S3cret":     "http://host/v1?api_key=REDACTED",
		"http://TOKEN@host:8000/v1":         "http://host:8000/v1",
		"https://u:p@h/x?a=1&b=S3cret&flag": "https://h/x?a=REDACTED&b=REDACTED&flag",
		"http://127.0.0.1:8000":             "http://127.0.0.1:8000",
		"http://h/?key=%53ecret#frag":       "http://h/?key=REDACTED#frag",
	} {
		if got := URL(in); got != want {
			t.Errorf("URL(%q) = %q, want %q", in, got, want)
		}
	}
	msg := `Post "http://TOKEN@host/v1/completions?api_key=S3cret": dial tcp 10.0.0.1:80: connect: connection refused`
	got := Text(msg)
	if strings.Contains(got, "S3cret") || strings.Contains(got, "TOKEN") || !strings.Contains(got, "connection refused") || !strings.Contains(got, "api_key=REDACTED") {
		t.Errorf("Text(%q) = %q", msg, got)
	}
	if got := Args([]string{"-e", "http://h/v1?api_key=S3cret"}); !slices.Equal(got, []string{"-e", "http://h/v1?api_key=REDACTED"}) {
		t.Errorf("Args kept a query secret: %q", got)
	}
}

func FuzzText(f *testing.F) {
	f.Add("see http://a:b@h/x?k=v and https://h2?q=s")
	f.Fuzz(func(t *testing.T, s string) {
		out := Text(s)
		if Text(out) != out {
			t.Fatalf("Text is not idempotent: %q -> %q -> %q", s, out, Text(out))
		}
	})
}

// TestSecretFlagNames: the values of key, token and password flags go;
// counts and paths whose flag names merely contain such a word stay, since
// the run record is how a reader reproduces a run.
func TestSecretFlagNames(t *testing.T) {
	t.Parallel()
	got := Args([]string{"run", "--tokenizer", "/p/tok.json", "--max-tokens", "12", "--hf-token", "hf_x", "--apikey=k", "--auth", "a"})
	want := []string{"run", "--tokenizer", "/p/tok.json", "--max-tokens", "12", "--hf-token", Mark, "--apikey=" + Mark, "--auth", Mark}
	if !slices.Equal(got, want) {
		t.Errorf("Args = %q, want %q", got, want)
	}
}

// TestShellStringSecrets: a command given as one string (--launch "vllm
// serve M --api-key S") loses its secrets as separate arguments do, quoted
// or not, and nothing else in it changes.
func TestShellStringSecrets(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"vllm serve m --api-key S3cret --port 8000":              "vllm serve m --api-key REDACTED --port 8000",
		"sglang --api-key=S3cret --tp 8":                         "sglang --api-key=REDACTED --tp 8",
		`python -m x --hf-token 'S3 cret' --max-tokens 128`:      `python -m x --hf-token REDACTED --max-tokens 128`,
		`engine failed: "serve --token S3cret": exit 1`:          `engine failed: "serve --token REDACTED": exit 1`,
		"vllm serve m --tokenizer /t --max-num-batched-tokens 8": "vllm serve m --tokenizer /t --max-num-batched-tokens 8",
	} {
		if got := Text(in); got != want {
			t.Errorf("Text(%q) = %q, want %q", in, got, want)
		}
	}
	got := Args([]string{"run", "--launch", "vllm serve m --api-key S3cret"})
	if strings.Contains(strings.Join(got, " "), "S3cret") {
		t.Errorf("Args kept the key inside --launch: %q", got)
	}
}
