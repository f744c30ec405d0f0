// Package browsertest renders the HTML pages the harness writes in Debian's
// headless Chromium for tests: the DOM after scripts ran, and screenshots
// kept for people to look at.
package browsertest

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// Find returns Debian's chromium, or skips the test.
func Find(tb testing.TB) string {
	tb.Helper()
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	tb.Skip("chromium is not installed (apt-get install -y chromium): the rendered-page checks did not run")
	return ""
}

// Run runs headless Chromium offline on a fresh profile and returns its
// standard output.
func Run(tb testing.TB, chrome string, args ...string) string {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	base := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--disable-dev-shm-usage", "--hide-scrollbars", "--user-data-dir=" + tb.TempDir()}
	cmd := exec.CommandContext(ctx, chrome, append(base, args...)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		tb.Fatalf("%s %v: %v\n%s", chrome, args, err, stderr.String())
	}
	return stdout.String()
}

// ArtifactDir is build/test-artifacts in the module's root (the folder
// above the test's package that holds go.mod, whatever the package's
// depth), where screenshots are kept for people to look at.
func ArtifactDir(tb testing.TB) string {
	tb.Helper()
	dir, err := os.Getwd()
	if err != nil {
		tb.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			tb.Fatal("no go.mod above the test's folder")
		}
		dir = parent
	}
	out := filepath.Join(dir, "build", "test-artifacts")
	if err := os.MkdirAll(out, 0o755); err != nil {
		tb.Fatal(err)
	}
	return out
}
