package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mlperf-go/mlperf-go/fake"
	"github.com/mlperf-go/mlperf-go/loadgen/loadgentest"
)

// TestQuerySecretsNeverWritten: a key passed in the endpoint's query string
// reaches the server but none of the files a run writes, nor its console.
func TestQuerySecretsNeverWritten(t *testing.T) {
	loadgentest.Require(t)
	const name, secret = "llama3_1-8b", "S3cretQ"
	data := synthCLI(t, name, 20)
	url := startFake(t, fake.Config{Model: mustLookup(t, name).Serving.Model, OutputTokens: 4, TTFT: time.Millisecond})
	root := t.TempDir()
	runs, results := filepath.Join(root, "runs"), filepath.Join(root, "results")
	out, err := runCLI(t, append([]string{"run", "-b", name, "-s", "Offline", "-e", url + "/v1?api_key=" + secret, "--min-duration", "0", "--min-query-count", "20", "--setting", "performance_sample_count_override=20",
		"--progress-interval", "0", "--engine-metrics-interval", "50ms", "--runs-dir", runs,
		"--results-dir", results, "--system", "sys1", "--allow-unofficial-settings"}, data...)...)
	if err != nil {
		t.Fatalf("run: %v\n%s", err, out)
	}
	if strings.Contains(out, secret) {
		t.Errorf("the console shows the key:\n%s", out)
	}
	var files, marked int
	for _, dir := range []string{runs, results} {
		filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			files++
			b, err := os.ReadFile(p)
			if err == nil && strings.Contains(string(b), secret) {
				t.Errorf("%s holds the key", p)
			}
			if strings.Contains(string(b), "api_key=REDACTED") {
				marked++
			}
			return nil
		})
	}
	if files < 8 || marked < 3 {
		t.Errorf("%d files written, %d showing the redacted endpoint: the test saw too little", files, marked)
	}
	// The refusal of a key in the user information does not print it.
	out, err = runCLI(t, append([]string{"run", "-b", name, "-e", "http://TOKEN123@127.0.0.1:1/v1", "--quick"}, data...)...)
	if err == nil || strings.Contains(out+err.Error(), "TOKEN123") {
		t.Errorf("credentials in the URL: err %v, output %q: want a refusal that does not print them", err, out)
	}
}
