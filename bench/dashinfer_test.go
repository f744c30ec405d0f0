package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mlperf-go/mlperf-go/fake"
)

// goldenLens are the first output lengths DashInfer's script draws with
// its defaults (random.seed(0xCADE); randint(88, 152)), from
// internal/pyrandom's golden file written by CPython.
func goldenLens(t *testing.T) []int {
	t.Helper()
	b, err := os.ReadFile("internal/pyrandom/testdata/golden.json")
	if err != nil {
		t.Fatal(err)
	}
	var g struct {
		Cases []struct {
			Seed  uint64
			Draws []struct {
				A, B   int
				Values []int
			}
		}
	}
	if err := json.Unmarshal(b, &g); err != nil {
		t.Fatal(err)
	}
	c := g.Cases[0]
	if c.Seed != DashInferSeed || c.Draws[0].A != 88 || c.Draws[0].B != 152 {
		t.Fatalf("golden case 0 is not DashInfer's draw: %+v", c.Draws[0])
	}
	return c.Draws[0].Values
}

// TestDashInferExample drives DashInfer-VLM's README example against the
// fake (100 requests, --image-nums-mean 3 --image-nums-range 1,
// --response-mean 120 --response-len-range 64, --batch-size 1 and 32,
// --multi-turn 0 and 2) and checks what arrived: every request's images
// and exact output length as the script draws them, each later turn
// carrying the earlier user turns and the model's own replies (the fake's
// prefix cache finds them, which it does only for the exact answer text),
// one turn in flight per conversation, and the table.
func TestDashInferExample(t *testing.T) {
	t.Parallel()
	prompts, images := dashInferData(t, 300, 40)
	want := goldenLens(t)
	var all []*Results
	for _, mt := range []int{0, 2} {
		o := DashInferDefaults()
		o.PromptFile, o.ImageFolder, o.MultiTurn = prompts, images, mt
		w, err := LoadDashInfer(o)
		if err != nil {
			t.Fatal(err)
		}
		if got := w.Facts["images_found"]; got != 40 {
			t.Errorf("found %v images, want the 40 small PNGs (not the huge one or the text file)", got)
		}
		for _, conc := range []int{1, 32} {
			var s seen
			url := startFake(t, fake.Config{PrefixCache: true}, &s)
			res, recs, err := Run(context.Background(), w, Options{Targets: []Target{{Name: "fake", URLs: []string{url}}},
				Stream: true, ExactOutput: true, Loads: []Load{{Concurrency: conc}}})
			if err != nil {
				t.Fatal(err)
			}
			run := res.Runs[0]
			if run.Completed != 100*(mt+1) || run.Failed != 0 {
				t.Fatalf("mt %d c %d: %d completed, %d failed", mt, conc, run.Completed, run.Failed)
			}
			if run.MaxConcurrent > conc {
				t.Errorf("mt %d c %d: %d requests in flight at once", mt, conc, run.MaxConcurrent)
			}
			checkArrived(t, &s, w, mt, want)
			for _, r := range recs[0] {
				if r.OutputTokens != int64(r.MaxTokens) || r.MaxTokens < 88 || r.MaxTokens > 152 {
					t.Fatalf("%s turn %d: %d output tokens, asked %d, want 120 ± 32", r.Conversation, r.Turn, r.OutputTokens, r.MaxTokens)
				}
			}
			all = append(all, res)
		}
	}
	var table bytes.Buffer
	WriteComparison(&table, all)
	lines := strings.Split(strings.TrimSpace(table.String()), "\n")
	if len(lines) != 6 {
		t.Fatalf("table has %d lines, want a head, a rule and 4 rows:\n%s", len(lines), table.String())
	}
	for i, prefix := range []string{" 0 | 1 | c1 |", " 0 | 32 | c32 |", " 2 | 1 | c1 |", " 2 | 32 | c32 |"} {
		if !strings.Contains(lines[i+2], prefix) {
			t.Errorf("row %d %q lacks %q", i, lines[i+2], prefix)
		}
	}
	t.Logf("\n%s", table.String())
}

// checkArrived checks the requests the fake saw against the workload.
func checkArrived(t *testing.T, s *seen, w *Workload, mt int, lens []int) {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.reqs) != 100*(mt+1) {
		t.Fatalf("the fake saw %d requests, want %d", len(s.reqs), 100*(mt+1))
	}
	byConv := map[string][]seenReq{}
	for _, r := range s.reqs {
		byConv[r.session] = append(byConv[r.session], r)
	}
	for i, c := range w.Conversations {
		got := byConv[c.ID]
		if len(got) != mt+1 {
			t.Fatalf("%s: %d requests, want %d", c.ID, len(got), mt+1)
		}
		for k, r := range got {
			if r.max != lens[i] || r.min != lens[i] || !r.ignoreEOS || r.tokens != lens[i] {
				t.Fatalf("%s turn %d: max %d min %d ignore_eos %v answered %d; want %d exactly (CPython's draw)", c.ID, k, r.max, r.min, r.ignoreEOS, r.tokens, lens[i])
			}
			if len(r.msgs) != 2*k+1 {
				t.Fatalf("%s turn %d: %d messages, want %d", c.ID, k, len(r.msgs), 2*k+1)
			}
			for j, m := range r.msgs {
				wantRole := "user"
				if j%2 == 1 {
					wantRole = "assistant"
				}
				wantImgs := 0
				if j == 0 {
					wantImgs = 3
				}
				if m.Role != wantRole || m.Images != wantImgs {
					t.Fatalf("%s turn %d message %d: %s with %d images, want %s with %d", c.ID, k, j, m.Role, m.Images, wantRole, wantImgs)
				}
				if j%2 == 0 && (!strings.HasPrefix(m.Text, "What does line ") || strings.Contains(m.Text, "<image>")) {
					t.Fatalf("%s turn %d message %d: user text %q", c.ID, k, j, m.Text)
				}
			}
			if k > 0 {
				if r.msgs[0].Text != got[0].msgs[0].Text || r.msgs[0].ImageHash != got[0].msgs[0].ImageHash {
					t.Fatalf("%s turn %d does not carry the first turn", c.ID, k)
				}
				if r.cached <= got[k-1].pTk {
					t.Fatalf("%s turn %d: %d tokens cached, not more than the previous prompt's %d: the model's reply was not carried as given", c.ID, k, r.cached, got[k-1].pTk)
				}
			}
		}
	}
}

// TestDashInferRangesNative: the same knobs with a range of 2 give every
// count in [mean-1, mean+1], the extremes included.
func TestDashInferRangesNative(t *testing.T) {
	t.Parallel()
	prompts, images := dashInferData(t, 100, 10)
	o := DashInferDefaults()
	o.PromptFile, o.ImageFolder, o.ImagesRange, o.ResponseRange = prompts, images, 2, 64
	w, err := LoadDashInfer(o)
	if err != nil {
		t.Fatal(err)
	}
	count := map[int]int{}
	for _, c := range w.Conversations {
		count[c.Turns[0].Images]++
	}
	if len(count) != 3 || count[2] == 0 || count[3] == 0 || count[4] == 0 {
		t.Errorf("image counts %v, want 2, 3 and 4 each", count)
	}
	if w.Facts["images_reused"] != true {
		t.Errorf("300 images from 10 files should be reused, facts %v", w.Facts)
	}
}

// TestDashInferImagesThroughLinks: --image-folder reached through a
// symbolic link finds its images (Go's WalkDir alone found none), a linked
// image file counts, and a linked subfolder is not gone into, as the
// script's os.walk (followlinks=False) does.
func TestDashInferImagesThroughLinks(t *testing.T) {
	t.Parallel()
	_, images := dashInferData(t, 1, 4)
	other := t.TempDir()
	writePNG(t, filepath.Join(other, "linked-dir-img.png"), 10, 10)
	writePNG(t, filepath.Join(other, "linked-file.png"), 10, 10)
	for target, link := range map[string]string{
		other:                                   filepath.Join(images, "more"),
		filepath.Join(other, "linked-file.png"): filepath.Join(images, "one.png"),
	} {
		if err := os.Symlink(target, link); err != nil {
			t.Fatal(err)
		}
	}
	root := filepath.Join(t.TempDir(), "share_textvqa")
	if err := os.Symlink(images, root); err != nil {
		t.Fatal(err)
	}
	got, err := listImages(root, DashInferMaxImagePixels)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{filepath.Join(root, "one.png")}
	for i := range 4 {
		want = append(want, filepath.Join(root, "sub", fmt.Sprintf("img%03d.png", i)))
	}
	if !slices.Equal(got, want) {
		t.Errorf("listImages = %q, want %q", got, want)
	}
}
