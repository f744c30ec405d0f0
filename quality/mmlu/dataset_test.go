package mmlu

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOpenLayouts: the data set is found from its folder, its all/ folder,
// one shard, and the hub's converted layout (test/0000.parquet), also
// through symbolic links; shards are read in name order and numbered
// across them.
func TestOpenLayouts(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	all := filepath.Join(root, "all")
	writeShard(t, all, "test-00001-of-00002.parquet", []pqRow{row("virology", "v0", 1), row("virology", "v1", 2)})
	first := writeShard(t, all, "test-00000-of-00002.parquet", []pqRow{row("anatomy", "a0", 0), row("virology", "vz", 3)})
	writeShard(t, all, "dev-00000-of-00001.parquet", devRows(5, "anatomy", "virology"))
	conv := filepath.Join(t.TempDir(), "all")
	writeShard(t, filepath.Join(conv, "test"), "0000.parquet", []pqRow{row("anatomy", "c0", 0)})
	writeShard(t, filepath.Join(conv, "dev"), "0000.parquet", devRows(2, "anatomy"))
	// Through symbolic links: the folder on shared storage, and the hub
	// cache's snapshot whose shards link to its blobs.
	links := t.TempDir()
	linked, hub := filepath.Join(links, "mmlu"), filepath.Join(links, "snapshot", "all")
	if err := os.Symlink(root, linked); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(hub, 0o755); err != nil {
		t.Fatal(err)
	}
	shards, _ := filepath.Glob(filepath.Join(all, "*.parquet"))
	for _, f := range shards {
		if err := os.Symlink(f, filepath.Join(hub, filepath.Base(f))); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		path      string
		questions []string
		devs      int
	}{
		{root, []string{"a0", "vz", "v0", "v1"}, 10},
		{all, []string{"a0", "vz", "v0", "v1"}, 10},
		{first, []string{"a0", "vz"}, 10},
		{conv, []string{"c0"}, 2},
		{linked, []string{"a0", "vz", "v0", "v1"}, 10},
		{hub, []string{"a0", "vz", "v0", "v1"}, 10},
	} {
		d, err := Open(c.path, "")
		if err != nil {
			t.Fatalf("Open(%s): %v", c.path, err)
		}
		var got []string
		for i, q := range d.Test {
			got = append(got, q.Question)
			if q.Index != i {
				t.Errorf("%s: question %d has Index %d", c.path, i, q.Index)
			}
		}
		if strings.Join(got, ",") != strings.Join(c.questions, ",") {
			t.Errorf("Open(%s) read %v, want %v", c.path, got, c.questions)
		}
		n := 0
		for _, qs := range d.Dev {
			n += len(qs)
		}
		if n != c.devs {
			t.Errorf("Open(%s): %d dev questions, want %d", c.path, n, c.devs)
		}
	}
	d, _ := Open(root, "")
	if v := d.Test[3]; v.Subject != "virology" || v.SubjectIndex != 2 || v.Answer != 2 || v.Choices != [4]string{"w", "x", "y", "z"} {
		t.Errorf("last question: %+v", v)
	}
}

// TestOpenErrors: what cannot be read is an error naming the file, the
// row and what to do.
func TestOpenErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bad := func(name string, rows []pqRow) string {
		return writeShard(t, filepath.Join(dir, name), "test-00000-of-00001.parquet", rows)
	}
	three := row("anatomy", "q", 0)
	three.Choices = three.Choices[:3]
	notParquet := filepath.Join(dir, "junk", "test-00000-of-00001.parquet")
	os.MkdirAll(filepath.Dir(notParquet), 0o755)
	os.WriteFile(notParquet, []byte("PAR1 not really"), 0o644)
	type noChoices struct {
		Question string `parquet:"question"`
		Subject  string `parquet:"subject"`
		Answer   int64  `parquet:"answer"`
	}
	missing := filepath.Join(dir, "missing", "test-00000-of-00001.parquet")
	os.MkdirAll(filepath.Dir(missing), 0o755)
	if err := writeParquet(missing, []noChoices{{"q", "anatomy", 0}}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path string
		want []string
	}{
		{bad("answer", []pqRow{row("anatomy", "q", 0), row("anatomy", "q", 4)}), []string{"row 1", "answer 4, want 0 to 3"}},
		{bad("choices", []pqRow{three}), []string{"row 0", "3 choices, want 4"}},
		{bad("subject", []pqRow{row("astrology", "q", 0)}), []string{"row 0", `subject "astrology" is not one of MMLU's 57`}},
		{notParquet, []string{"junk", "not a readable parquet file"}},
		{missing, []string{"no column choices", "want cais/mmlu's columns"}},
		{filepath.Join(dir, "nowhere"), []string{"no such file", "cais/mmlu"}},
		{t.TempDir(), []string{"no test split", "all/test-*.parquet"}},
	} {
		_, err := Open(c.path, "")
		if err == nil {
			t.Errorf("Open(%s) read it", c.path)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("Open(%s): %v\nwant it to say %q", c.path, err, w)
			}
		}
	}
}

// TestPromptsNeedTheDevSplit: k-shot prompts without enough dev questions
// are an error naming the subject and the fix.
func TestPromptsNeedTheDevSplit(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeShard(t, dir, "test-00000-of-00001.parquet", []pqRow{row("anatomy", "q", 0)})
	d, err := Open(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Prompts(d, d.Test, 0); err != nil {
		t.Errorf("0-shot without a dev split: %v", err)
	}
	if _, err := Prompts(d, d.Test, 1); err == nil || !strings.Contains(err.Error(), "anatomy") || !strings.Contains(err.Error(), "no dev split") {
		t.Errorf("1-shot without a dev split: %v", err)
	}
	if _, err := Prompts(d, d.Test, 6); err == nil || !strings.Contains(err.Error(), "0 to 5") {
		t.Errorf("6-shot: %v", err)
	}
	dev := writeShard(t, t.TempDir(), "elsewhere.parquet", devRows(2, "anatomy"))
	if d, err = Open(dir, dev); err != nil {
		t.Fatal(err)
	}
	if ps, err := Prompts(d, d.Test, 2); err != nil || !strings.Contains(ps[0], "dev anatomy 1\n") {
		t.Errorf("2-shot from a dev shard elsewhere: %v %q", err, ps)
	}
	if _, err := Prompts(d, d.Test, 3); err == nil || !strings.Contains(err.Error(), "has 2") {
		t.Errorf("3-shot from 2 dev questions: %v", err)
	}
}

// FuzzReadShard: a damaged parquet file is an error naming it, never a
// panic or a runaway allocation; what reads passes the row checks.
func FuzzReadShard(f *testing.F) {
	for _, p := range []string{"testdata/mmlu/all/test-00000-of-00001.parquet", "testdata/mmlu/all/dev-00000-of-00001.parquet"} {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
		f.Add(b[:len(b)/2])
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		qs, err := readShardFrom(bytes.NewReader(b), int64(len(b)), "fuzz.parquet")
		if err != nil {
			if !strings.Contains(err.Error(), "fuzz.parquet") {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		for _, q := range qs {
			if _, ok := subjects[q.Subject]; !ok || q.Answer < 0 || q.Answer > 3 {
				t.Fatalf("read an invalid question: %+v", q)
			}
		}
	})
}
