package main

import (
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/fake"
	"github.com/mlperf-go/mlperf-go/fake/answers"
	"github.com/mlperf-go/mlperf-go/loadgen/loadgentest"
	"github.com/mlperf-go/mlperf-go/loadgen/mllog"
	"github.com/mlperf-go/mlperf-go/record"
)

// Folders reached through symbolic links (issue 37): on a cluster the
// dataset, the model and the results live on shared storage behind links,
// and the Hugging Face cache is made of links. Through a link the harness
// must do exactly what it does through the real path.

// symlinkTo makes a symbolic link named name, in a new folder, to target
// and returns its path.
func symlinkTo(t *testing.T, target, name string) string {
	t.Helper()
	link := filepath.Join(t.TempDir(), name)
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	return link
}

// hubMirror lays the files under dir out as the Hugging Face cache does:
// each file's bytes in blobs/<sha256>, and snapshots/<rev>/<its path> a
// relative link to them (folders stay folders). It returns the snapshot
// folder.
func hubMirror(t *testing.T, dir string) string {
	t.Helper()
	cache := t.TempDir()
	snap := filepath.Join(cache, "snapshots", "d5c517c509f5")
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(b)
		blob := filepath.Join(cache, "blobs", hex.EncodeToString(sum[:]))
		if err := os.MkdirAll(filepath.Dir(blob), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(blob, b, 0o644); err != nil {
			return err
		}
		link := filepath.Join(snap, rel)
		if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
			return err
		}
		target, _ := filepath.Rel(filepath.Dir(link), blob) // ../../blobs/<sha>, deeper for deeper files
		return os.Symlink(target, link)
	})
	if err != nil {
		t.Fatal(err)
	}
	return snap
}

// rebase replaces the folder from at the head of each path by to.
func rebase(paths []string, from, to string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = filepath.Join(to, strings.TrimPrefix(p, from))
	}
	return out
}

// opened describes what opening a dataset gave: its size, or its error
// with the folder it was given spelled as "DIR".
func opened(b benchmark.Benchmark, paths []string, dir string) string {
	d, err := b.OpenDataset(paths, nil)
	if err != nil {
		return "error: " + strings.ReplaceAll(err.Error(), dir, "DIR")
	}
	defer d.Close()
	return "samples: " + itoa(d.Len())
}

// TestDatasetsThroughLinks: every benchmark's synthetic dataset, in its
// real layout, opens through a linked folder, as the hub cache's links,
// through a link to that cache, and as files each linked alone, the same
// as from the real folder (`run -d`, the folder or its files), and the
// fake endpoint's --dataset gives the same answers; one quick run of each
// benchmark goes through the linked cache.
func TestDatasetsThroughLinks(t *testing.T) {
	loadgentest.Require(t)
	for _, b := range benchmark.All() {
		t.Run(b.Name, func(t *testing.T) {
			real := t.TempDir()
			files, err := b.Data.Synth(real, 24, 3)
			if err != nil {
				t.Fatal(err)
			}
			snap := hubMirror(t, real)
			layouts := map[string]string{
				"linked folder":         symlinkTo(t, real, "data"),
				"hub cache":             snap,
				"link to the hub cache": symlinkTo(t, snap, "shared"),
			}
			wantFolder, wantFiles := opened(b, []string{real}, real), opened(b, files, real)
			if !strings.HasPrefix(wantFiles, "samples") {
				t.Fatalf("the real files do not open: %s", wantFiles)
			}
			for name, root := range layouts {
				if got := opened(b, []string{root}, root); got != wantFolder {
					t.Errorf("%s, the folder: %s; from the real folder: %s", name, got, wantFolder)
				}
				if got := opened(b, rebase(files, real, root), root); got != wantFiles {
					t.Errorf("%s, its files: %s; from the real files: %s", name, got, wantFiles)
				}
			}
			// Each file linked alone (absolute links), as where a user links
			// only the dataset file, or only whisper's manifest.
			lone := t.TempDir()
			loneFiles := rebase(files, real, lone)
			for i, f := range files {
				if err := os.MkdirAll(filepath.Dir(loneFiles[i]), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.Symlink(f, loneFiles[i]); err != nil {
					t.Fatal(err)
				}
			}
			if got := opened(b, loneFiles, lone); got != wantFiles {
				t.Errorf("files linked alone: %s; from the real files: %s", got, wantFiles)
			}

			if b.Serving.Output == benchmark.Text {
				want, _, err := answers.Chat(b.Name, files, nil)
				if err != nil {
					t.Fatal(err)
				}
				got, _, err := answers.Chat(b.Name, []string{layouts["link to the hub cache"]}, nil)
				if err != nil || !reflect.DeepEqual(got, want) {
					t.Errorf("fake-endpoint --dataset through links: %d answers, %v; want %d", len(got), err, len(want))
				}
			}

			url := startFake(t, fake.Config{Model: b.Serving.Model, OutputTokens: 8, TTFT: time.Millisecond, TPOT: time.Millisecond})
			args := []string{"run", "-b", b.Name, "-s", "Offline", "-m", "accuracy", "-e", url, "-o", filepath.Join(t.TempDir(), "out"),
				"--quick", "--progress-interval", "0", "--engine-metrics-interval", "0"}
			for _, f := range rebase(files, real, layouts["link to the hub cache"]) {
				args = append(args, "-d", f)
			}
			out, err := runCLI(t, args...)
			if err != nil {
				t.Fatalf("run through links: %v\n%s", err, out)
			}
			if issued, completed, failed := issuedCompleted(t, out); issued == 0 || completed != issued || failed != 0 {
				t.Errorf("run through links: %d issued, %d completed, %d failed", issued, completed, failed)
			}
		})
	}
}

// TestRunFoldersThroughLinks: the folders a run writes, each reached
// through a symbolic link as on shared storage: --runs-dir (two runs, the
// index lists both and not the latest link), -o (an existing linked
// folder, and a new folder inside one), --results-dir (filed, then
// indexed by `report`), and `evaluate -l/-d` with --tokenizer a linked
// folder, all scoring as through the real paths.
func TestRunFoldersThroughLinks(t *testing.T) {
	loadgentest.Require(t)
	const name = "llama3_1-8b"
	realData := t.TempDir()
	files, err := mustLookup(t, name).Data.Synth(realData, 40, 5)
	if err != nil {
		t.Fatal(err)
	}
	data := rebase(files, realData, symlinkTo(t, realData, "data"))[0]
	url := startFake(t, fake.Config{Model: mustLookup(t, name).Serving.Model, OutputTokens: 8, TTFT: time.Millisecond, TPOT: time.Millisecond})
	base := []string{"run", "-b", name, "-s", "Offline", "-e", url, "-d", data, "--progress-interval", "0", "--engine-metrics-interval", "0"}
	run := func(args ...string) string {
		t.Helper()
		out, err := runCLI(t, append(append([]string{}, base...), args...)...)
		if c := exitCode(err); c != 0 && c != 3 { // 3: a short run is INVALID
			t.Fatalf("run %v: %v\n%s", args, err, out)
		}
		return out
	}

	realRuns := t.TempDir()
	runs := symlinkTo(t, realRuns, "runs")
	for range 2 {
		if out := run("--quick", "--runs-dir", runs); strings.Contains(out, "incomplete") {
			t.Errorf("the runs index through a link:\n%s", out)
		}
	}
	stamps, _ := filepath.Glob(filepath.Join(realRuns, name, "Offline-performance", "2*"))
	index, err := os.ReadFile(filepath.Join(realRuns, record.IndexMarkdownFile))
	if err != nil || len(stamps) != 2 {
		t.Fatalf("runs through a linked --runs-dir: %d run folders, index: %v", len(stamps), err)
	}
	for _, s := range stamps {
		if !strings.Contains(string(index), filepath.Base(s)) {
			t.Errorf("the index does not list run %s:\n%s", filepath.Base(s), index)
		}
	}
	if strings.Contains(string(index), record.LatestLink+"/") {
		t.Errorf("the index lists the latest link as a run of its own:\n%s", index)
	}

	realOut := t.TempDir()
	out := symlinkTo(t, realOut, "out")
	run("--quick", "-o", out)
	run("--quick", "-o", filepath.Join(out, "sub"))
	for _, f := range []string{mllog.DetailFile, filepath.Join("sub", mllog.DetailFile)} {
		if _, err := os.Stat(filepath.Join(realOut, f)); err != nil {
			t.Errorf("-o through a link: %v", err)
		}
	}

	realResults := t.TempDir()
	tree := symlinkTo(t, realResults, "results")
	filed := []string{"--results-dir", tree, "--system", "sys1", "--allow-unofficial-settings",
		"--setting", "min_duration=300", "--min-query-count", "40", "-o", filepath.Join(out, "filed")}
	run(filed...)
	run(append(filed, "-m", "accuracy", "-o", filepath.Join(out, "acc"))...)
	scen := filepath.Join(realResults, "sys1", "llama3.1-8b", "Offline")
	for _, f := range []string{"performance/run_1/" + mllog.DetailFile, "accuracy/mlperf_log_accuracy.json", "user.conf"} {
		if _, err := os.Stat(filepath.Join(scen, f)); err != nil {
			t.Errorf("--results-dir through a link: %v", err)
		}
	}
	if text, err := runCLI(t, "report", tree); err != nil {
		t.Errorf("report over a linked results tree: %v\n%s", err, text)
	}
	if _, err := os.Stat(filepath.Join(realResults, record.IndexHTMLFile)); err != nil {
		t.Errorf("report over a linked results tree wrote no index: %v", err)
	}

	tokDir, err := filepath.Abs(filepath.Join("..", "..", "tokenizer", "testdata", "bytelevel"))
	if err != nil {
		t.Fatal(err)
	}
	evaluate := func(log, dataset, tok string) string {
		t.Helper()
		text, err := runCLI(t, "evaluate", "-b", name, "-l", log, "-d", dataset, "--tokenizer", tok, "-o", filepath.Join(t.TempDir(), "accuracy.txt"))
		if exitCode(err) != 1 { // the fake's answers are no summaries: FAIL
			t.Fatalf("evaluate: %v, want exit 1\n%s", err, text)
		}
		return regexp.MustCompile(`(?m)^\s*ROUGE.*$`).FindString(text)
	}
	want := evaluate(filepath.Join(realOut, "acc", "mlperf_log_accuracy.json"), files[0], tokDir)
	got := evaluate(filepath.Join(out, "acc", "mlperf_log_accuracy.json"), data, symlinkTo(t, tokDir, "tok"))
	if want == "" || got != want {
		t.Errorf("evaluate through links: %q; through the real paths: %q", got, want)
	}

	// A link to storage that is not there is named, before any test runs.
	gone := symlinkTo(t, filepath.Join(t.TempDir(), "unmounted"), "shared")
	for _, args := range [][]string{
		{"--quick", "-o", gone},
		{"--quick", "--runs-dir", filepath.Join(gone, "runs")},
		append(append([]string{"--results-dir", gone}, filed[2:len(filed)-2]...), "-o", filepath.Join(out, "refused")),
	} {
		text, err := runCLI(t, append(append([]string{}, base...), args...)...)
		if err == nil || !strings.Contains(err.Error(), gone+" is a symbolic link to ") || !strings.Contains(err.Error(), "which does not exist") ||
			strings.Contains(text, "Outcome") {
			t.Errorf("%v under a dangling link: %v\n%s", args[:2], err, text)
		}
	}
}

// TestDatasetDownloadIntoLink: `dataset download --out` into an existing
// folder reached through a symbolic link writes into the folder (the link
// stays a link), resumes a partial file left there, and `run -d` opens it
// through the link.
func TestDatasetDownloadIntoLink(t *testing.T) {
	b, files, hub := catalogueHub(t)
	real := t.TempDir()
	dir := symlinkTo(t, real, "q3vl")
	// A download cut short: half of a shard in its .part file.
	shard := "data/train-00000-of-00001.parquet"
	part := filepath.Join(dir, "dataset", filepath.FromSlash(shard)) + ".part"
	if err := os.MkdirAll(filepath.Dir(part), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(part, files[shard][:len(files[shard])/2], 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := runCLI(t, "dataset", "download", "-b", b.Name, "--round", "v6.1", "--only", "dataset", "--out", dir, "--verify")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if hub.ranges.Load() == 0 {
		t.Error("the partial file was not resumed (no Range request)")
	}
	if st, err := os.Lstat(dir); err != nil || st.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("--out is no longer a link: %v", err)
	}
	for p, want := range files {
		if got, err := os.ReadFile(filepath.Join(real, "dataset", filepath.FromSlash(p))); err != nil || string(got) != string(want) {
			t.Errorf("%s in the linked folder: %d bytes, %v; want %d", p, len(got), err, len(want))
		}
	}
	if got := opened(b, []string{dir}, dir); got != "samples: 12" {
		t.Errorf("run -d through the link: %s", got)
	}
	before := hub.requests.Load()
	out, err = runCLI(t, "dataset", "download", "-b", b.Name, "--round", "v6.1", "--only", "dataset", "--out", dir)
	if err != nil || hub.requests.Load() != before || !strings.Contains(out, "no request made") {
		t.Errorf("again into the link: %v, %d requests\n%s", err, hub.requests.Load()-before, out)
	}
	gone := symlinkTo(t, filepath.Join(t.TempDir(), "unmounted"), "q3vl")
	if _, err := runCLI(t, "dataset", "download", "-b", b.Name, "--round", "v6.1", "--only", "dataset", "--out", gone); err == nil ||
		!strings.Contains(err.Error(), gone+" is a symbolic link to ") || !strings.Contains(err.Error(), "which does not exist") {
		t.Errorf("--out a dangling link: %v", err)
	}
}
