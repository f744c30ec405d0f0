package qwen3vl

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/openai/openai-go"
	"github.com/parquet-go/parquet-go"

	"github.com/mlperf-go/mlperf-go/benchmarks/qwen3vl/synth"
)

func tinyPNG(t testing.TB) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 3, 2))
	img.Set(1, 1, color.RGBA{200, 10, 10, 255})
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func writeShard(t testing.TB, dir, name string, rows []synth.Row) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := synth.WriteShard(p, rows, synth.ShardOptions{RowGroupSize: 2}); err != nil {
		t.Fatal(err)
	}
	return p
}

func rowsNamed(t testing.TB, titles ...string) []synth.Row {
	img := tinyPNG(t)
	var rows []synth.Row
	for _, s := range titles {
		rows = append(rows, synth.Row{Title: s, Image: img, Categories: []string{"A > B"}, Category: "A > B"})
	}
	return rows
}

func sampleTitles(d *Dataset) []string {
	var out []string
	for i := range d.Len() {
		out = append(out, d.Sample(i).Title)
	}
	return out
}

// TestSplits checks split discovery from hub shard names and ordering.
func TestSplits(t *testing.T) {
	dir := t.TempDir()
	writeShard(t, dir, "data/train-00001-of-00002.parquet", rowsNamed(t, "tr1a", "tr1b", "tr1c"))
	writeShard(t, dir, "data/train-00000-of-00002.parquet", rowsNamed(t, "tr0a"))
	writeShard(t, dir, "data/test-00000-of-00001.parquet", rowsNamed(t, "te0a", "te0b"))
	writeShard(t, dir, "data/validation-00000-of-00001.parquet", rowsNamed(t, "va"))
	for _, tc := range []struct {
		paths  []string
		splits []string
		want   []string
	}{
		{[]string{dir}, nil, []string{"tr0a", "tr1a", "tr1b", "tr1c", "te0a", "te0b"}},
		{[]string{dir}, []string{"test", "train"}, []string{"te0a", "te0b", "tr0a", "tr1a", "tr1b", "tr1c"}},
		{[]string{dir}, []string{"validation"}, []string{"va"}},
		{[]string{filepath.Join(dir, "data", "test-00000-of-00001.parquet"), filepath.Join(dir, "data")}, []string{"test"}, []string{"te0a", "te0b"}},
	} {
		d, err := Open(tc.paths, Options{Splits: tc.splits, Workers: 3})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tc.want, sampleTitles(d)); diff != "" {
			t.Errorf("splits %v (-want +got):\n%s", tc.splits, diff)
		}
		d.Close()
	}

	// The hub's converted layout names the split by directory.
	conv := t.TempDir()
	writeShard(t, conv, "default/test/0000.parquet", rowsNamed(t, "c"))
	d, err := Open([]string{conv}, Options{Splits: []string{"test"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := sampleTitles(d); !cmp.Equal(got, []string{"c"}) {
		t.Errorf("converted layout: %q", got)
	}
	d.Close()

	for _, tc := range []struct {
		paths  []string
		splits []string
		want   string
	}{
		{[]string{dir}, []string{"dev"}, `no parquet shards for split "dev"`},
		// One shard alone: the split to pass is named.
		{[]string{filepath.Join(dir, "data", "train-00000-of-00002.parquet")}, nil, `no parquet shards for split "test" under ` + filepath.Join(dir, "data", "train-00000-of-00002.parquet") + ` (found splits [train]): the splits read are train, test; pass --dataset-split train to read only what is there`},
		{[]string{dir}, []string{"train", "train"}, "requested twice"},
		{nil, nil, "no dataset path"},
		{[]string{filepath.Join(dir, "nope")}, nil, "nope"},
	} {
		_, err := Open(tc.paths, Options{Splits: tc.splits})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Open(%v, %v) error = %v, want it to mention %q", tc.paths, tc.splits, err, tc.want)
		}
	}
	odd := t.TempDir()
	writeShard(t, odd, "products.parquet", rowsNamed(t, "x"))
	if _, err := Open([]string{odd}, Options{}); err == nil || !strings.Contains(err.Error(), "products.parquet") {
		t.Errorf("unnamed shard: error = %v", err)
	}
}

// Rows written with schemas other than the hub's.
type noImageRow struct {
	ProductTitle string `parquet:"product_title"`
}

type wrongTypes struct {
	ProductTitle               string            `parquet:"product_title"`
	ProductDescription         int64             `parquet:"product_description"`
	ProductImage               []byte            `parquet:"product_image"`
	PotentialProductCategories string            `parquet:"potential_product_categories"`
	GroundTruthCategory        string            `parquet:"ground_truth_category"`
	GroundTruthBrand           string            `parquet:"ground_truth_brand"`
	GroundTruthIsSecondhand    string            `parquet:"ground_truth_is_secondhand"`
	Extra                      map[string]string `parquet:"extra"`
}

func writeRows[T any](t *testing.T, path string, rows []T) {
	t.Helper()
	var b bytes.Buffer
	w := parquet.NewGenericWriter[T](&b)
	if _, err := w.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestSchemaAndCorruptionErrors(t *testing.T) {
	good := t.TempDir()
	goodPath := writeShard(t, good, "train-00000-of-00001.parquet", rowsNamed(t, "a", "b", "c", "d", "e"))
	goodBytes, err := os.ReadFile(goodPath)
	if err != nil {
		t.Fatal(err)
	}

	for _, tc := range []struct {
		name  string
		write func(path string)
		want  []string
	}{
		{"missing columns", func(p string) { writeRows(t, p, []noImageRow{{"x"}}) },
			[]string{`missing column "product_image"`, `missing column "ground_truth_brand"`}},
		{"wrong types", func(p string) { writeRows(t, p, []wrongTypes{{ProductTitle: "x"}}) },
			[]string{`column "product_description"`, "want a string", `column "product_image"`, `column "potential_product_categories"`, "want a list of strings", `"ground_truth_is_secondhand"`, "want a boolean"}},
		{"not parquet", func(p string) { os.WriteFile(p, []byte("hello, this is not parquet"), 0o644) },
			[]string{"not a readable parquet file"}},
		{"truncated", func(p string) { os.WriteFile(p, goodBytes[:len(goodBytes)/2], 0o644) },
			[]string{"not a readable parquet file"}},
		{"corrupt pages", func(p string) {
			b := bytes.Clone(goodBytes)
			for i := 4; i < len(b)/2; i += 7 {
				b[i] ^= 0x5a
			}
			os.WriteFile(p, b, 0o644)
		}, []string{"row group"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "train-00000-of-00001.parquet")
			tc.write(path)
			_, err := Open([]string{dir}, Options{Splits: []string{"train"}})
			if err == nil {
				t.Fatal("Open succeeded")
			}
			t.Logf("error: %v", err)
			for _, w := range append(tc.want, path) {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q\ndoes not mention %q", err, w)
				}
			}
		})
	}
}

// TestNulls checks that null text is written as Python's f-string
// writes None.
func TestNulls(t *testing.T) {
	rows := rowsNamed(t, "t0", "t1", "t2")
	rows[0].Null = []string{synth.ColTitle, synth.ColDescription, synth.ColCategories, synth.ColBrand, synth.ColIsSecondhand}
	rows[1].Categories = nil // empty list
	rows[2].Categories = []string{"it's", "x"}
	dir := t.TempDir()
	writeShard(t, dir, "train-00000-of-00001.parquet", rows)
	d, err := Open([]string{dir}, Options{Splits: []string{"train"}})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	want := []string{
		formatUserText("None", "None", "None"),
		formatUserText("t1", "", "[]"),
		formatUserText("t2", "", `["it's", 'x']`),
	}
	for i, w := range want {
		if got := d.UserText(i); got != w {
			t.Errorf("UserText(%d) = %q, want %q", i, got, w)
		}
	}
	if s := d.Sample(0); s.Title != "" || s.Brand != "" || s.IsSecondhand || s.Categories != nil {
		t.Errorf("null sample = %+v", s)
	}
}

// TestNullCategoryElement checks a null inside the list is None.
func TestNullCategoryElement(t *testing.T) {
	type row struct {
		ProductTitle       *string `parquet:"product_title,optional"`
		ProductDescription *string `parquet:"product_description,optional"`
		ProductImage       *struct {
			Bytes []byte `parquet:"bytes,optional"`
		} `parquet:"product_image,optional"`
		PotentialProductCategories []*string `parquet:"potential_product_categories,optional,list"`
		GroundTruthCategory        *string   `parquet:"ground_truth_category,optional"`
		GroundTruthBrand           *string   `parquet:"ground_truth_brand,optional"`
		GroundTruthIsSecondhand    *bool     `parquet:"ground_truth_is_secondhand,optional"`
	}
	a, s := "a'", "t"
	r := row{ProductTitle: &s, ProductDescription: &s, PotentialProductCategories: []*string{&a, nil, &a}}
	r.ProductImage = &struct {
		Bytes []byte `parquet:"bytes,optional"`
	}{tinyPNG(t)}
	dir := t.TempDir()
	writeRows(t, filepath.Join(dir, "train-00000-of-00001.parquet"), []row{r})
	d, err := Open([]string{dir}, Options{Splits: []string{"train"}})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if got, want := d.UserText(0), formatUserText("t", "t", `["a'", None, "a'"]`); got != want {
		t.Errorf("UserText = %q, want %q", got, want)
	}
}

// TestBuilderManyRowGroups loads random batches spanning many row groups
// and shards with several workers and checks every body against the
// per-sample messages (which read the image on their own), so a page reused
// too early would show.
func TestBuilderManyRowGroups(t *testing.T) {
	dir := t.TempDir()
	if _, err := synth.Write(dir, 90, synth.Options{Seed: 5, Shards: 2, RowGroupSize: 7}); err != nil {
		t.Fatal(err)
	}
	for _, dict := range []bool{false, true} {
		if dict {
			dir = t.TempDir()
			if _, err := synth.Write(dir, 40, synth.Options{Seed: 6, RowGroupSize: 5, DictionaryImages: true}); err != nil {
				t.Fatal(err)
			}
		}
		d, err := Open([]string{dir}, Options{Workers: 4})
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(1, 2))
		idx := rng.Perm(d.Len())[:d.Len()*2/3]
		var mu sync.Mutex
		bodies := map[int][]byte{}
		err = d.Builder(minimalEncode).Build(idx, func(i int, b []byte) {
			mu.Lock()
			defer mu.Unlock()
			if _, dup := bodies[i]; dup {
				t.Errorf("index %d emitted twice", i)
			}
			bodies[i] = bytes.Clone(b) // b is the builder's scratch space
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(bodies) != len(idx) {
			t.Fatalf("%d bodies for %d indices", len(bodies), len(idx))
		}
		for _, i := range idx {
			msgs, err := d.Messages(i)
			if err != nil {
				t.Fatal(err)
			}
			want, _ := minimalEncode(nil, i, msgs)
			if !bytes.Equal(bodies[i], want) {
				t.Fatalf("dict=%v sample %d: body differs from the sample's own messages", dict, i)
			}
		}
		if err := d.Builder(minimalEncode).Build([]int{d.Len()}, func(int, []byte) {}); err == nil {
			t.Error("out-of-range index accepted")
		}
		encErr := fmt.Errorf("boom")
		err = d.Builder(func([]byte, int, []openai.ChatCompletionMessageParamUnion) ([]byte, error) { return nil, encErr }).Build(idx, func(int, []byte) {})
		if err == nil || !strings.Contains(err.Error(), "boom") || !strings.Contains(err.Error(), "row") {
			t.Errorf("encode error = %v", err)
		}
		d.Close()
		if err := d.Builder(minimalEncode).Build(idx[:1], func(int, []byte) {}); err == nil {
			t.Error("load after Close succeeded")
		}
	}
}

// TestImageFormats checks the format names Pillow would give.
func TestImageFormats(t *testing.T) {
	var jb bytes.Buffer
	if err := jpeg.Encode(&jb, image.NewGray(image.Rect(0, 0, 4, 4)), nil); err != nil {
		t.Fatal(err)
	}
	j := jb.Bytes()
	mpo := withMPF(j, 2, binary.BigEndian)
	single := withMPF(j, 1, binary.LittleEndian)
	for _, tc := range []struct {
		name string
		b    []byte
		want imageFormat
		ok   bool
	}{
		{"jpeg", j, formatJPEG, true},
		{"mpo", mpo, formatMPO, true},
		{"mpf with one image", single, formatJPEG, true},
		{"png", tinyPNG(t), formatPNG, true},
		{"gif magic only", []byte("GIF89a\x00"), formatGIF, false},
		{"bmp magic only", []byte("BM\x00\x00"), formatBMP, false},
		{"webp magic only", []byte("RIFF\x00\x00\x00\x00WEBPVP8 "), formatWEBP, false},
		{"tiff magic only", []byte("II\x2a\x00\x08\x00\x00\x00"), formatTIFF, false},
		{"text", []byte("hello"), formatUnknown, false},
		{"empty", nil, formatUnknown, false},
	} {
		got, err := checkImage(tc.b)
		if got != tc.want || (err == nil) != tc.ok {
			t.Errorf("%s: checkImage = %v, %v; want %v, ok=%v", tc.name, got, err, tc.want, tc.ok)
		}
	}
}

// withMPF inserts an APP2 "MPF" segment with the given NumberOfImages
// after the JPEG's SOI marker.
func withMPF(j []byte, images uint32, order binary.ByteOrder) []byte {
	var tiff bytes.Buffer
	if order == binary.BigEndian {
		tiff.WriteString("MM\x00\x2a")
	} else {
		tiff.WriteString("II\x2a\x00")
	}
	binary.Write(&tiff, order, uint32(8)) // IFD offset
	binary.Write(&tiff, order, uint16(2)) // entries
	binary.Write(&tiff, order, []uint16{0xB000, 7})
	binary.Write(&tiff, order, uint32(4))
	tiff.WriteString("0100")
	binary.Write(&tiff, order, []uint16{0xB001, 4})
	binary.Write(&tiff, order, []uint32{1, images})
	binary.Write(&tiff, order, uint32(0))
	seg := append([]byte("MPF\x00"), tiff.Bytes()...)
	out := append([]byte{}, j[:2]...)
	out = append(out, 0xFF, 0xE2, byte((len(seg)+2)>>8), byte(len(seg)+2))
	out = append(out, seg...)
	return append(out, j[2:]...)
}

// FuzzOpen feeds arbitrary bytes as a shard (from memory, so that each
// run is cheap): opening must fail or succeed cleanly, never panic, and a
// dataset that opens must load without panicking.
func FuzzOpen(f *testing.F) {
	dir := f.TempDir()
	p := writeShard(f, dir, "train-00000-of-00001.parquet", rowsNamed(f, "a", "b", "c"))
	good, err := os.ReadFile(p)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add(good[:len(good)-10])
	f.Add([]byte("PAR1PAR1"))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, b []byte) {
		d := &Dataset{workers: 2, files: []*shardFile{{path: "fuzz.parquet", split: "train", r: bytes.NewReader(b), size: int64(len(b))}}}
		if err := d.open(); err != nil {
			if !strings.Contains(err.Error(), "fuzz.parquet") {
				t.Errorf("error does not name the file: %v", err)
			}
			return
		}
		idx := make([]int, d.Len())
		for i := range idx {
			idx[i] = i
			_ = d.UserText(i)
			_ = d.Sample(i)
		}
		_ = d.Builder(minimalEncode).Build(idx, func(int, []byte) {})
	})
}

// TestThroughLinks: the dataset folder reached through a symbolic link,
// a shard folder that is one, and the hub cache's layout (snapshots/<rev>/
// files linking to ../../blobs/<sha>) open as the real folder does; a link
// loop is an error naming the link.
func TestThroughLinks(t *testing.T) {
	shared := t.TempDir()
	writeShard(t, shared, "data/train-00000-of-00001.parquet", rowsNamed(t, "tr"))
	writeShard(t, shared, "data/test-00000-of-00001.parquet", rowsNamed(t, "te"))
	cache := t.TempDir()
	snap := filepath.Join(cache, "snapshots", "d5c517c")
	for _, split := range []string{"train", "test"} {
		blob := filepath.Join(cache, "blobs", split+"sha")
		writeShard(t, filepath.Dir(blob), filepath.Base(blob), rowsNamed(t, "hub-"+split))
		mustSymlink(t, filepath.Join("..", "..", "..", "blobs", split+"sha"), filepath.Join(snap, "data", split+"-00000-of-00001.parquet"))
	}
	links := t.TempDir()
	mustSymlink(t, shared, filepath.Join(links, "q3link"))
	mustSymlink(t, filepath.Join(shared, "data"), filepath.Join(links, "own", "data"))
	mustSymlink(t, snap, filepath.Join(links, "hub"))
	for _, tc := range []struct {
		path string
		want []string
	}{
		{filepath.Join(links, "q3link"), []string{"tr", "te"}},
		{filepath.Join(links, "own"), []string{"tr", "te"}},
		{filepath.Join(links, "hub"), []string{"hub-train", "hub-test"}},
	} {
		d, err := Open([]string{tc.path}, Options{})
		if err != nil {
			t.Fatalf("%s: %v", tc.path, err)
		}
		if got := sampleTitles(d); !cmp.Equal(got, tc.want) {
			t.Errorf("%s: %q, want %q", tc.path, got, tc.want)
		}
		d.Close()
	}
	loop := filepath.Join(shared, "data", "again")
	mustSymlink(t, "..", loop)
	_, err := Open([]string{filepath.Join(links, "q3link")}, Options{})
	if err == nil || !strings.Contains(err.Error(), filepath.Join(links, "q3link", "data", "again")+" is a symbolic link to ..") {
		t.Errorf("a loop: error = %v, want it to name the link", err)
	}
}

func mustSymlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}
