package synth_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"image"
	_ "image/jpeg"
	_ "image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/parquet-go/parquet-go"

	"github.com/mlperf-go/mlperf-go/benchmarks/qwen3vl"
	"github.com/mlperf-go/mlperf-go/benchmarks/qwen3vl/synth"
)

func TestRoundTrip(t *testing.T) {
	const n = 60
	opts := synth.Options{Seed: 7, TestFraction: 0.25, Shards: 2, RowGroupSize: 8}
	dir := t.TempDir()
	paths, err := synth.Write(dir, n, opts)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range paths {
		names = append(names, strings.TrimPrefix(p, dir+string(filepath.Separator)))
	}
	wantNames := []string{
		"data/train-00000-of-00002.parquet", "data/train-00001-of-00002.parquet",
		"data/test-00000-of-00002.parquet", "data/test-00001-of-00002.parquet",
	}
	if diff := cmp.Diff(wantNames, names); diff != "" {
		t.Fatalf("shards (-want +got):\n%s", diff)
	}
	rows, err := synth.Rows(n, opts)
	if err != nil {
		t.Fatal(err)
	}
	const nTest = 15 // 25% of 60

	for _, tc := range []struct {
		splits []string
		want   []synth.Row
	}{
		{nil, rows}, // default train then test
		{[]string{"test", "train"}, append(append([]synth.Row{}, rows[n-nTest:]...), rows[:n-nTest]...)},
		{[]string{"test"}, rows[n-nTest:]},
	} {
		d, err := qwen3vl.Open([]string{dir}, qwen3vl.Options{Splits: tc.splits})
		if err != nil {
			t.Fatal(err)
		}
		if d.Len() != len(tc.want) {
			t.Fatalf("splits %v: Len = %d, want %d", tc.splits, d.Len(), len(tc.want))
		}
		for i, r := range tc.want {
			s := d.Sample(i)
			got := synth.Row{Title: s.Title, Description: s.Description, Categories: s.Categories,
				Category: s.Category, Brand: s.Brand, IsSecondhand: s.IsSecondhand}
			want := r
			want.Image, want.ImagePath = nil, ""
			if diff := cmp.Diff(want, got); diff != "" {
				t.Fatalf("splits %v sample %d (-want +got):\n%s", tc.splits, i, diff)
			}
			if !strings.Contains(s.Source, "data/") {
				t.Errorf("Source %q does not name the shard", s.Source)
			}
		}
		// Every image comes back byte for byte in its data URL, and decodes.
		for _, i := range []int{0, len(tc.want) / 2, len(tc.want) - 1} {
			msgs, err := d.Messages(i)
			if err != nil {
				t.Fatal(err)
			}
			b, err := json.Marshal(msgs)
			if err != nil {
				t.Fatal(err)
			}
			var m []struct {
				Content json.RawMessage `json:"content"`
			}
			if err := json.Unmarshal(b, &m); err != nil {
				t.Fatal(err)
			}
			var parts []struct {
				Text     string               `json:"text"`
				ImageURL struct{ URL string } `json:"image_url"`
			}
			if err := json.Unmarshal(m[1].Content, &parts); err != nil {
				t.Fatal(err)
			}
			if parts[0].Text != d.UserText(i) {
				t.Errorf("user text differs from UserText")
			}
			format, b64, ok := strings.Cut(strings.TrimPrefix(parts[1].ImageURL.URL, "data:image/"), ";base64,")
			if !ok {
				t.Fatalf("bad URL %.60q", parts[1].ImageURL.URL)
			}
			img, err := base64.StdEncoding.DecodeString(b64)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(img, tc.want[i].Image) {
				t.Errorf("sample %d: image bytes differ from the ones written", i)
			}
			cfg, kind, err := image.DecodeConfig(bytes.NewReader(img))
			if err != nil {
				t.Fatal(err)
			}
			if strings.ToUpper(kind) != format {
				t.Errorf("sample %d: URL says %s, image is %s", i, format, kind)
			}
			if cfg.Width < 256 || cfg.Width > 512 || cfg.Height < 256 || cfg.Height > 512 {
				t.Errorf("sample %d: %dx%d image, want 256-512 px", i, cfg.Width, cfg.Height)
			}
		}
		d.Close()
	}
}

// TestRealistic checks the generated data has what makes the real data
// hard: both image formats at realistic sizes and the awkward strings.
func TestRealistic(t *testing.T) {
	rows, err := synth.Rows(300, synth.Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	var jpegs, pngs, total, secondhand int
	var all strings.Builder
	for _, r := range rows {
		_, kind, err := image.DecodeConfig(bytes.NewReader(r.Image))
		if err != nil {
			t.Fatal(err)
		}
		switch kind {
		case "jpeg":
			jpegs++
		case "png":
			pngs++
		}
		total += len(r.Image)
		if r.IsSecondhand {
			secondhand++
		}
		if !containsString(r.Categories, r.Category) {
			t.Errorf("ground truth %q not among the potential categories %q", r.Category, r.Categories)
		}
		if !strings.Contains(r.Category, " > ") {
			t.Errorf("category %q is not a hierarchy", r.Category)
		}
		all.WriteString(r.Title + r.Description + strings.Join(r.Categories, "") + r.Brand)
	}
	if jpegs == 0 || pngs == 0 {
		t.Errorf("%d JPEG, %d PNG; want both", jpegs, pngs)
	}
	if avg := total / len(rows); avg < 10_000 || avg > 150_000 {
		t.Errorf("average image is %d bytes, want tens of KB", avg)
	}
	if secondhand == 0 || secondhand == len(rows) {
		t.Errorf("%d of %d second-hand", secondhand, len(rows))
	}
	for _, s := range []string{"'", `"`, `\`, "\n", "\t", "é", "🌞", "<script>", "&amp;"} {
		if !strings.Contains(all.String(), s) {
			t.Errorf("no sample contains %q", s)
		}
	}
}

func containsString(s []string, x string) bool {
	for _, v := range s {
		if v == x {
			return true
		}
	}
	return false
}

func TestDeterministic(t *testing.T) {
	digest := func(seed uint64) [32]byte {
		dir := t.TempDir()
		paths, err := synth.Write(dir, 12, synth.Options{Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		h := sha256.New()
		for _, p := range paths {
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			h.Write(b)
		}
		return [32]byte(h.Sum(nil))
	}
	if digest(3) != digest(3) {
		t.Error("same seed gave different files")
	}
	if digest(3) == digest(4) {
		t.Error("different seeds gave the same files")
	}
}

// TestErrorsNameFileAndRow checks that broken shards fail at open with
// the file and row named.
func TestErrorsNameFileAndRow(t *testing.T) {
	rows, err := synth.Rows(5, synth.Options{Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		mutate func(rows []synth.Row)
		want   []string
	}{
		{"undecodable image", func(r []synth.Row) { r[3].Image = []byte("not an image at all") }, []string{"row 3", "unrecognised image format"}},
		{"truncated header", func(r []synth.Row) { r[2].Image = r[2].Image[:20] }, []string{"row 2", "image header"}},
		{"null image", func(r []synth.Row) { r[4].Null = []string{synth.ColImage} }, []string{"row 4", "null image"}},
		{"bad utf-8", func(r []synth.Row) { r[1].Title = "caf\xe9" }, []string{"row 1", "UTF-8", "product_title"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rs := append([]synth.Row(nil), rows...)
			tc.mutate(rs)
			dir := t.TempDir()
			path := filepath.Join(dir, "train-00000-of-00001.parquet")
			if err := synth.WriteShard(path, rs, synth.ShardOptions{RowGroupSize: 2}); err != nil {
				t.Fatal(err)
			}
			_, err := qwen3vl.Open([]string{dir}, qwen3vl.Options{Splits: []string{"train"}})
			if err == nil {
				t.Fatal("OpenQ3VL succeeded")
			}
			t.Logf("error: %v", err)
			for _, w := range append(tc.want, path) {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
		})
	}
}

// BenchmarkWrite measures writing a synthetic dataset (images drawn and
// encoded, parquet written).
func BenchmarkWrite(b *testing.B) {
	const n = 200
	for b.Loop() {
		if _, err := synth.Write(b.TempDir(), n, synth.Options{Seed: 1}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "samples/s")
}

// TestFooterLikeHub: as in the hub's shards, written by pyarrow (which
// drops the min/max of values over its 4 KB max_statistics_size), the
// footer carries no image bounds, while short columns keep theirs: two
// whole images per row group there would make a reader keep 2% of the
// dataset in memory for as long as the file is open.
func TestFooterLikeHub(t *testing.T) {
	t.Parallel()
	paths, err := synth.Write(t.TempDir(), 20, synth.Options{Seed: 1, RowGroupSize: 5, TrainOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(paths[0])
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	pf, err := parquet.OpenFile(f, st.Size())
	if err != nil {
		t.Fatal(err)
	}
	for g, rg := range pf.Metadata().RowGroups {
		for _, c := range rg.Columns {
			s := c.MetaData.Statistics
			bounds := len(s.MinValue)+len(s.MaxValue)+len(s.Min)+len(s.Max) > 0
			switch path := strings.Join(c.MetaData.PathInSchema, "."); path {
			case "product_image.bytes":
				if bounds {
					t.Errorf("row group %d: %s has min/max in the footer (%d+%d bytes)", g, path, len(s.MinValue), len(s.MaxValue))
				}
			case "product_title":
				if !bounds {
					t.Errorf("row group %d: %s lost its min/max", g, path)
				}
			}
		}
	}
}
