package check

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mlperf-go/mlperf-go/submission/internal/logtest"
	"github.com/mlperf-go/mlperf-go/submission/internal/treetest"
)

// TestCheckThroughLinks: a tree reached through a symbolic link, its
// system folder linked to where it is kept in the tree, and a folder that
// links to another (Server's TEST06, the same files as Offline's), are
// read through as the official checker
// reads them; a link out of the submitter's tree, one to nowhere and a
// loop are each a problem naming the link, and the loop ends the check.
func TestCheckThroughLinks(t *testing.T) {
	t.Parallel()
	out := treetest.BuildTree(t, "v6.1")
	offline := treetest.ScenDir(out, logtest.BenchmarkLlama8B, "Offline")
	server := treetest.ScenDir(out, logtest.BenchmarkLlama8B, "Server")
	if err := os.RemoveAll(filepath.Join(server, "TEST06")); err != nil {
		t.Fatal(err)
	}
	mustLink(t, filepath.Join("..", "Offline", "TEST06"), filepath.Join(server, "TEST06"))
	// The system's results kept in another folder of the submitter's tree.
	results := filepath.Join(out, "closed", "Org", "results")
	if err := os.Rename(filepath.Join(results, "sys1"), filepath.Join(out, "closed", "Org", "sys1-results")); err != nil {
		t.Fatal(err)
	}
	mustLink(t, filepath.Join("..", "sys1-results"), filepath.Join(results, "sys1"))
	root := filepath.Join(t.TempDir(), "submission")
	mustLink(t, out, root)
	if ps := Check(root, "v6.1"); len(ps) != 0 {
		t.Errorf("a valid tree through links has problems:\n%s", logtest.ProblemsText(ps))
	}

	// Offline's accuracy run moved out of the tree, a link left in its place.
	elsewhere := filepath.Join(t.TempDir(), "accuracy")
	if err := os.Rename(filepath.Join(offline, "accuracy"), elsewhere); err != nil {
		t.Fatal(err)
	}
	mustLink(t, elsewhere, filepath.Join(offline, "accuracy"))
	mustLink(t, "/nonexistent/run_2", filepath.Join(offline, "performance", "run_2"))
	mustLink(t, "..", filepath.Join(server, "performance", "again"))
	got := logtest.ProblemsText(Check(root, "v6.1"))
	rootOffline := treetest.ScenDir(root, logtest.BenchmarkLlama8B, "Offline")
	rootServer := treetest.ScenDir(root, logtest.BenchmarkLlama8B, "Server")
	for _, want := range []string{
		filepath.Join(rootOffline, "accuracy") + " is a symbolic link to " + elsewhere + ", outside the tree",
		filepath.Join(rootOffline, "performance", "run_2") + " is a symbolic link to /nonexistent/run_2, which does not exist",
		filepath.Join(rootServer, "performance", "again") + " is a symbolic link to .., which leads back to " + rootServer,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("problems lack %q:\n%s", want, got)
		}
	}
}

func mustLink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}
