package pack

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mlperf-go/mlperf-go/submission/check"
	"github.com/mlperf-go/mlperf-go/submission/internal/logtest"
)

// TestPackageThroughLinks: a results tree reached through a symbolic link,
// whose system folder links to a folder kept elsewhere in the tree, and
// --out and --systems reached through links, package to the same files
// as the plain tree, holding no link (the files are copied, as the
// official tools' shutil.copytree copies them); a link out of the tree,
// one to nowhere and a loop are each refused with a message naming the
// link, before anything is written.
func TestPackageThroughLinks(t *testing.T) {
	t.Parallel()
	results, systems := llamaResults(t)
	opts := PackageOptions{Division: "closed", Submitter: "Org", Round: "v6.1", SourceNote: "https://example.com/mlperf-go at abc123"}
	plainOut := t.TempDir()
	plain := opts
	plain.ResultsDir, plain.SystemsDir, plain.Out = results, systems, plainOut
	if err := Package(plain); err != nil {
		t.Fatal(err)
	}

	// The system folder moved to a hidden store inside the tree, linked
	// back; the whole tree, the systems and the output reached by links.
	store := filepath.Join(results, ".store", "sys1-2026")
	if err := os.MkdirAll(filepath.Dir(store), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(results, "sys1"), store); err != nil {
		t.Fatal(err)
	}
	mustLink(t, filepath.Join(".store", "sys1-2026"), filepath.Join(results, "sys1"))
	mustLink(t, "/nonexistent", filepath.Join(store, "llama3.1-8b", "Offline", ".stale")) // hidden: left out
	linked := opts
	linked.ResultsDir = filepath.Join(t.TempDir(), "results")
	linked.SystemsDir = filepath.Join(t.TempDir(), "systems")
	mustLink(t, results, linked.ResultsDir)
	mustLink(t, systems, linked.SystemsDir)
	realOut := t.TempDir()
	linked.Out = filepath.Join(t.TempDir(), "sub")
	mustLink(t, realOut, linked.Out)
	if err := Package(linked); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(logtest.ListTree(t, plainOut), logtest.ListTree(t, realOut)); diff != "" {
		t.Errorf("packaged through links (-plain +linked):\n%s", diff)
	}
	filepath.WalkDir(realOut, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type()&fs.ModeSymlink != 0 {
			t.Errorf("the package holds a link: %s", p)
		}
		return err
	})
	if ps := check.Check(linked.Out, "v6.1"); len(ps) != 0 {
		t.Errorf("the package through links has problems:\n%s", logtest.ProblemsText(ps))
	}

	// Links packaging must not follow.
	elsewhere := filepath.Join(t.TempDir(), "notes")
	logtest.MustWrite(t, filepath.Join(elsewhere, "secret.txt"), "not for the submission\n")
	scen := filepath.Join(linked.ResultsDir, "sys1", "llama3.1-8b", "Offline")
	mustLink(t, elsewhere, filepath.Join(scen, "notes"))
	mustLink(t, "/nonexistent/run_2", filepath.Join(scen, "performance", "run_2"))
	mustLink(t, "..", filepath.Join(scen, "accuracy", "again"))
	mustLink(t, elsewhere, filepath.Join(scen, ".old-notes")) // hidden: left out, so not refused
	refused := opts
	refused.ResultsDir, refused.SystemsDir, refused.Out = linked.ResultsDir, systems, t.TempDir()
	err := Package(refused)
	if err == nil {
		t.Fatal("Package followed links out of the tree")
	}
	for _, want := range []string{
		filepath.Join(scen, "notes") + " is a symbolic link to " + elsewhere + ", outside the tree " + linked.ResultsDir,
		filepath.Join(scen, "performance", "run_2") + " is a symbolic link to /nonexistent/run_2, which does not exist",
		filepath.Join(scen, "accuracy", "again") + " is a symbolic link to .., which leads back to " + scen,
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
	if strings.Contains(err.Error(), ".old-notes") {
		t.Errorf("a hidden link, left out of the package, is refused:\n%v", err)
	}
	if ents, _ := os.ReadDir(refused.Out); len(ents) != 0 {
		t.Errorf("the refused package left %d entries in Out", len(ents))
	}
}

func mustLink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}
