package qwen3vl

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"unsafe"

	"github.com/google/go-cmp/cmp"
	"github.com/openai/openai-go"

	"github.com/mlperf-go/mlperf-go/benchmarks/qwen3vl/synth"
	"github.com/mlperf-go/mlperf-go/internal/q3vlvectors"
	"github.com/mlperf-go/mlperf-go/qsl"
)

// referenceVector is one of the reference's request vectors.
type referenceVector = q3vlvectors.Record

func referenceVectors(t testing.TB) []referenceVector { return q3vlvectors.Load(t) }

// vectorDataset writes the vectors' samples as a hub-style shard and
// opens it.
func vectorDataset(t testing.TB, vs []referenceVector, opts synth.ShardOptions) *Dataset {
	t.Helper()
	rows := make([]synth.Row, len(vs))
	for i, v := range vs {
		img, err := base64.StdEncoding.DecodeString(v.ImageBase64)
		if err != nil {
			t.Fatal(err)
		}
		rows[i] = synth.Row{
			Title: v.Sample.Title, Description: v.Sample.Description, Image: img,
			Categories: v.Sample.Categories, Category: v.Sample.Category,
			Brand: v.Sample.Brand, IsSecondhand: v.Sample.IsSecondhand,
		}
	}
	dir := t.TempDir()
	if err := synth.WriteShard(filepath.Join(dir, "train-00000-of-00001.parquet"), rows, opts); err != nil {
		t.Fatal(err)
	}
	d, err := Open([]string{dir}, Options{Splits: []string{"train"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

func parse(t testing.TB, b []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("invalid JSON %q: %v", b, err)
	}
	return v
}

// messageTexts pulls the system content, user text and image URL out of a
// messages array in the reference's shape.
func messageTexts(t testing.TB, messages []byte) (system, user, url string) {
	t.Helper()
	var m []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	}
	if err := json.Unmarshal(messages, &m); err != nil || len(m) != 2 {
		t.Fatalf("messages %s: %v", messages, err)
	}
	if err := json.Unmarshal(m[0].Content, &system); err != nil {
		t.Fatal(err)
	}
	var parts []struct {
		Type     string `json:"type"`
		Text     string `json:"text"`
		ImageURL struct {
			URL string `json:"url"`
		} `json:"image_url"`
	}
	if err := json.Unmarshal(m[1].Content, &parts); err != nil || len(parts) != 2 {
		t.Fatalf("user content %s: %v", m[1].Content, err)
	}
	return system, parts[0].Text, parts[1].ImageURL.URL
}

// TestMessagesMatchReference checks, for every reference vector, that
// the messages built from a parquet shard marshal to the reference's
// messages, and that each text is byte-identical.
func TestMessagesMatchReference(t *testing.T) {
	vs := referenceVectors(t)
	for _, dict := range []bool{false, true} {
		d := vectorDataset(t, vs, synth.ShardOptions{DictionaryImages: dict, RowGroupSize: 2})
		if d.Len() != len(vs) {
			t.Fatalf("Len = %d, want %d", d.Len(), len(vs))
		}
		for i, v := range vs {
			msgs, err := d.Messages(i)
			if err != nil {
				t.Fatal(err)
			}
			got, err := json.Marshal(msgs)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(parse(t, v.Messages), parse(t, got)); diff != "" {
				t.Errorf("vector %d (dict=%v): messages differ from the reference (-want +got):\n%s", i, dict, diff)
			}
			wantSys, wantUser, wantURL := messageTexts(t, v.Messages)
			gotSys, gotUser, gotURL := messageTexts(t, got)
			if gotSys != wantSys {
				t.Errorf("vector %d: system prompt differs:\n got %q\nwant %q", i, gotSys, wantSys)
			}
			if gotUser != wantUser {
				t.Errorf("vector %d: user text differs:\n got %q\nwant %q", i, gotUser, wantUser)
			}
			if d.UserText(i) != wantUser {
				t.Errorf("vector %d: UserText differs:\n got %q\nwant %q", i, d.UserText(i), wantUser)
			}
			if gotURL != wantURL {
				t.Errorf("vector %d: image URL differs:\n got %.80q\nwant %.80q", i, gotURL, wantURL)
			}
			if want := "data:image/" + v.ImageFormat + ";base64,"; !strings.HasPrefix(gotURL, want) {
				t.Errorf("vector %d: image URL starts %.40q, want %q", i, gotURL, want)
			}
			s := d.Sample(i)
			if s.Title != v.Sample.Title || s.Description != v.Sample.Description || s.Category != v.Sample.Category ||
				s.Brand != v.Sample.Brand || s.IsSecondhand != v.Sample.IsSecondhand || !cmp.Equal(s.Categories, v.Sample.Categories) {
				t.Errorf("vector %d: Sample = %+v, want %+v", i, s, v.Sample)
			}
		}
	}
}

func TestSystemPromptAndResponseFormat(t *testing.T) {
	for i, v := range referenceVectors(t) {
		sys, _, _ := messageTexts(t, v.Messages)
		if SystemPrompt() != sys {
			t.Errorf("vector %d: SystemPrompt differs:\n got %q\nwant %q", i, SystemPrompt(), sys)
		}
		if diff := cmp.Diff(parse(t, v.ResponseFormat), parse(t, ResponseFormat())); diff != "" {
			t.Errorf("vector %d: response_format differs (-want +got):\n%s", i, diff)
		}
	}
	b := ResponseFormat()
	b[0] = 'x'
	if ResponseFormat()[0] != '{' {
		t.Error("ResponseFormat returned shared memory")
	}
}

// TestBuilderBodies loads the vectors through a Library and checks that
// the bodies carry the reference's messages.
func TestBuilderBodies(t *testing.T) {
	vs := referenceVectors(t)
	d := vectorDataset(t, vs, synth.ShardOptions{RowGroupSize: 1})
	lib, err := qsl.NewLibrary("q3vl", d.Len(), 0, d.Builder(minimalEncode))
	if err != nil {
		t.Fatal(err)
	}
	idx := []int{2, 0, 1, 0}
	if err := lib.LoadSamplesToRam(idx); err != nil {
		t.Fatal(err)
	}
	for i, v := range vs {
		var body struct {
			Model    string          `json:"model"`
			Messages json.RawMessage `json:"messages"`
		}
		if err := json.Unmarshal(lib.Body(i), &body); err != nil {
			t.Fatalf("sample %d body: %v", i, err)
		}
		if diff := cmp.Diff(parse(t, v.Messages), parse(t, body.Messages)); diff != "" {
			t.Errorf("sample %d body messages differ (-want +got):\n%s", i, diff)
		}
	}
	if n, _ := lib.Loaded(); n != len(vs) {
		t.Errorf("loaded %d, want %d", n, len(vs))
	}
}

// minimalEncode is the smallest request an encoder would make.
func minimalEncode(dst []byte, _ int, messages []openai.ChatCompletionMessageParamUnion) ([]byte, error) {
	b, err := json.Marshal(openai.ChatCompletionNewParams{Model: "m", Messages: messages})
	return append(dst, b...), err
}

func TestDataURL(t *testing.T) {
	img := []byte{0xff, 0xd8, 0xff, 0xe0, 1, 2, 3}
	got := dataURL(formatJPEG, img)
	want := "data:image/JPEG;base64," + base64.StdEncoding.EncodeToString(img)
	if got != want {
		t.Errorf("dataURL = %q, want %q", got, want)
	}
	if !bytes.Equal([]byte(dataURL(formatPNG, nil)), []byte("data:image/PNG;base64,")) {
		t.Error("empty image URL wrong")
	}
}

// TestSharesRepeatedStrings: categories and brands, which repeat
// across rows, are held once however many rows and row groups name them.
func TestSharesRepeatedStrings(t *testing.T) {
	t.Parallel()
	rows, err := synth.Rows(40, synth.Options{Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	for i := range rows {
		rows[i].Categories = []string{"Home & Garden > Decor", "Apparel > Shoes"}
		rows[i].Category = "Apparel > Shoes"
		rows[i].Brand = "acme"
	}
	dir := t.TempDir()
	if err := synth.WriteShard(filepath.Join(dir, "train-00000-of-00001.parquet"), rows, synth.ShardOptions{RowGroupSize: 3}); err != nil {
		t.Fatal(err)
	}
	d, err := Open([]string{dir}, Options{Splits: []string{"train"}, Workers: 3})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	first := &d.rows[0]
	if unsafe.StringData(first.cats[1]) != unsafe.StringData(first.category) {
		t.Error("a row's category and the same potential category are two copies")
	}
	for i := 1; i < d.Len(); i++ {
		r := &d.rows[i]
		for k := range r.cats {
			if r.cats[k] != first.cats[k] || unsafe.StringData(r.cats[k]) != unsafe.StringData(first.cats[k]) {
				t.Fatalf("row %d: category %q is not row 0's string", i, r.cats[k])
			}
		}
		if unsafe.StringData(r.category) != unsafe.StringData(first.category) || unsafe.StringData(r.brand) != unsafe.StringData(first.brand) {
			t.Fatalf("row %d: ground-truth category or brand is a copy of its own", i)
		}
	}
}
