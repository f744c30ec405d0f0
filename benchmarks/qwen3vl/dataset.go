package qwen3vl

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/parquet-go/parquet-go"

	"github.com/mlperf-go/mlperf-go/benchmarks/qwen3vl/eval"
	"github.com/mlperf-go/mlperf-go/internal/dirwalk"
	"github.com/mlperf-go/mlperf-go/internal/pyrepr"
)

// Q3VL column names, as in the Hugging Face dataset Shopify/product-catalogue
// that the reference (multimodal/qwen3-vl) loads with datasets.load_dataset.
const (
	colTitle      = "product_title"
	colDesc       = "product_description"
	colImage      = "product_image"
	colCats       = "potential_product_categories"
	colCategory   = "ground_truth_category"
	colBrand      = "ground_truth_brand"
	colSecondhand = "ground_truth_is_secondhand"
)

// Options configures Open.
type Options struct {
	// Splits names the dataset splits to use and their order; the samples
	// are the concatenation of the splits' rows in this order, as with the
	// reference's load_dataset(split="train+test"). Default ["train", "test"]
	// (48,289 samples in the official dataset).
	Splits []string
	// Workers bounds the goroutines that read row groups at open and build
	// request bodies at load. Default runtime.GOMAXPROCS(0).
	Workers int
}

// Dataset is the Qwen3-VL benchmark dataset (the Shopify product catalogue) read
// from its parquet shards.
//
// Open reads every column except the images into memory and checks every
// image's header; the image bytes themselves are read again, a row group at a
// time, only when samples are loaded (Builder), and are not kept: only the
// finished request bodies are.
//
// The text and the messages are exactly the reference's. The image differs in
// one deliberate way: the reference decodes each image with Pillow and
// re-encodes it in the same format before base64 (task.py
// formulate_loaded_sample); Q3VL sends the original bytes, which decode to the
// same picture for lossless formats and to the source picture (one lossy
// generation fewer) for JPEG.
//
// A Dataset is safe for concurrent use once opened.
type Dataset struct {
	files   []*shardFile
	rows    []sampleRow
	workers int

	closed    atomic.Bool
	closeOnce sync.Once
	closeErr  error
}

type shardFile struct {
	path  string
	split string
	// r is the shard's bytes: osf once opened, or set beforehand (tests).
	r       io.ReaderAt
	size    int64
	osf     *os.File
	pf      *parquet.File
	cols    columnIndex
	rgStart []int64 // row number, within the file, of each row group's first row
}

// columnIndex locates the leaf columns used, by index into ColumnChunks.
type columnIndex struct {
	title, desc, cats, category, brand, secondhand, image int

	// Levels of the category list column: a definition level below catsNull
	// is a null list, below catsSlot an empty list, below catsMax a null
	// element, and catsMax an element.
	catsNull, catsSlot, catsMax int
}

// Bits of sampleRow.nulls: fields that were null in the parquet file, which the
// reference's f-string writes as "None".
const (
	nullTitle = 1 << iota
	nullDesc
	nullCats
)

type sampleRow struct {
	title, desc     string
	cats            []string
	catNulls        []int32 // indices of null elements in cats (rare; nil normally)
	category, brand string
	secondhand      bool
	nulls           uint8
	format          imageFormat
	file            uint16
	rowGroup        int32
	row             int32 // within the row group
	imageSize       int64
}

// Sample is one sample's metadata, without its image.
type Sample struct {
	// Title and Description are the product's; empty when null in the file
	// (the user text then says "None", as Python's f-string does).
	Title, Description string
	// Truth is the ground truth (Category, Brand and IsSecondhand, zero
	// when null) and the potential categories the model chooses from
	// (Categories): the dataset's one ground-truth type, which the
	// evaluator scores against.
	eval.Truth
	// Source is "file:row" (row 0-based within the file), for messages.
	Source string
}

var shardName = regexp.MustCompile(`^(\w+(?:\.\w+)*)-\d+-of-\d+(?:-.*)?\.parquet$`)

// splitOf names the split of a parquet shard from its file name as the
// Hugging Face hub writes it ("data/train-00000-of-00004.parquet"), or, for
// the hub's converted layout ("default/train/0000.parquet"), from its parent
// directory.
func splitOf(path string) (string, bool) {
	base := filepath.Base(path)
	if m := shardName.FindStringSubmatch(base); m != nil {
		return m[1], true
	}
	if regexp.MustCompile(`^\d+\.parquet$`).MatchString(base) {
		if dir := filepath.Base(filepath.Dir(path)); dir != "." && dir != string(filepath.Separator) {
			return dir, true
		}
	}
	return "", false
}

// Open opens the dataset's parquet shards. Each path is a shard or a
// directory searched recursively for *.parquet files. A shard's split comes
// from its name (train-00000-of-00004.parquet); shards of splits not in
// opts.Splits are skipped, and a requested split without shards is an error.
//
// Everything that could fail while loading samples is checked here, before
// any test starts: that each file is parquet with the expected columns and
// types, that text is UTF-8, and that every image has bytes whose header
// decodes as JPEG, PNG, GIF, BMP, WEBP or TIFF. Errors name the file and the
// row (0-based within the file).
func Open(paths []string, opts Options) (*Dataset, error) {
	splits := opts.Splits
	if len(splits) == 0 {
		splits = []string{"train", "test"}
	}
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	if len(paths) == 0 {
		return nil, errors.New("qsl q3vl: no dataset path given; pass the directory holding the parquet shards")
	}

	var shards []string
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			return nil, fmt.Errorf("qsl q3vl: dataset path: %w", err)
		}
		if !st.IsDir() {
			shards = append(shards, p)
			continue
		}
		// Through links: the dataset folder, or a shard folder in it, is
		// often a link to shared storage, and the hub cache's shards are
		// links to its blobs.
		err = dirwalk.Walk(p, func(path string, e fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !e.IsDir() && strings.HasSuffix(e.Name(), ".parquet") {
				shards = append(shards, path)
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("qsl q3vl: listing %s: %w", p, err)
		}
	}

	bySplit := map[string][]string{}
	for _, s := range shards {
		split, ok := splitOf(s)
		if !ok {
			return nil, fmt.Errorf("qsl q3vl: cannot tell the split of %s: name shards as the hub does, e.g. train-00000-of-00001.parquet", s)
		}
		if !slices.Contains(bySplit[split], s) {
			bySplit[split] = append(bySplit[split], s)
		}
	}
	var ordered []*shardFile
	for i, split := range splits {
		if slices.Contains(splits[:i], split) {
			return nil, fmt.Errorf("qsl q3vl: split %q requested twice", split)
		}
		files := bySplit[split]
		if len(files) == 0 {
			have := make([]string, 0, len(bySplit))
			for s := range bySplit {
				have = append(have, s)
			}
			slices.Sort(have)
			err := fmt.Errorf("qsl q3vl: no parquet shards for split %q under %s (found splits %v)", split, strings.Join(paths, ", "), have)
			if len(have) > 0 {
				// One shard given alone (train-00000-of-00001.parquet), or
				// a folder holding some splits: the files can be read as
				// the splits they are.
				err = fmt.Errorf("%w: the splits read are %s; pass --dataset-split %s to read only what is there, or give the folder holding every split",
					err, strings.Join(splits, ", "), strings.Join(have, ","))
			}
			return nil, err
		}
		slices.Sort(files)
		for _, f := range files {
			ordered = append(ordered, &shardFile{path: f, split: split})
		}
	}
	if len(ordered) > 1<<16 {
		return nil, fmt.Errorf("qsl q3vl: %d shards is more than the %d supported", len(ordered), 1<<16)
	}

	d := &Dataset{files: ordered, workers: workers}
	if err := d.open(); err != nil {
		d.Close()
		return nil, err
	}
	return d, nil
}

// open opens every file, then reads all row groups in parallel.
func (d *Dataset) open() error {
	type task struct {
		file, rg int
		base     int // index of the row group's first row in d.rows
	}
	var tasks []task
	total := 0
	for fi, f := range d.files {
		if err := f.open(); err != nil {
			return err
		}
		for rg, g := range f.pf.RowGroups() {
			tasks = append(tasks, task{file: fi, rg: rg, base: total})
			total += int(g.NumRows())
		}
	}
	if total == 0 {
		return fmt.Errorf("qsl q3vl: the dataset's %d shard(s) hold no rows", len(d.files))
	}
	d.rows = make([]sampleRow, total)
	names := &interner{m: map[string]string{}}

	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		first error
		next  = make(chan task)
	)
	fail := func(err error) {
		mu.Lock()
		if first == nil {
			first = err
		}
		mu.Unlock()
	}
	for range min(d.workers, len(tasks)) {
		wg.Go(func() {
			for t := range next {
				f := d.files[t.file]
				g := f.pf.RowGroups()[t.rg]
				if err := f.readRowGroup(t.file, t.rg, g, d.rows[t.base:t.base+int(g.NumRows())], names); err != nil {
					fail(err)
				}
			}
		})
	}
	for _, t := range tasks {
		mu.Lock()
		stop := first != nil
		mu.Unlock()
		if stop {
			break
		}
		next <- t
	}
	close(next)
	wg.Wait()
	return first
}

func (f *shardFile) open() (err error) {
	if f.r == nil {
		if f.osf, err = os.Open(f.path); err != nil {
			return fmt.Errorf("qsl q3vl: %w", err)
		}
		st, err := f.osf.Stat()
		if err != nil {
			return fmt.Errorf("qsl q3vl: %w", err)
		}
		f.r, f.size = f.osf, st.Size()
	}
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("qsl q3vl: %s: not a readable parquet file (parquet reader panicked: %v)", f.path, p)
		}
	}()
	if err := checkFooter(f.r, f.size); err != nil {
		return fmt.Errorf("qsl q3vl: %s: not a readable parquet file: %w", f.path, err)
	}
	f.pf, err = parquet.OpenFile(f.r, f.size, parquet.SkipPageIndex(true), parquet.SkipBloomFilters(true))
	if err != nil {
		return fmt.Errorf("qsl q3vl: %s: not a readable parquet file: %w", f.path, err)
	}
	f.cols, err = resolveColumns(f.pf.Root())
	if err != nil {
		return fmt.Errorf("qsl q3vl: %s: %w", f.path, err)
	}
	var start int64
	for i, g := range f.pf.RowGroups() {
		if n := g.NumRows(); n < 0 || n > f.size {
			return fmt.Errorf("qsl q3vl: %s: row group %d claims %d rows in a %d-byte file (corrupt metadata)", f.path, i, n, f.size)
		}
		f.rgStart = append(f.rgStart, start)
		start += g.NumRows()
	}
	if start > 1<<31-1 {
		return fmt.Errorf("qsl q3vl: %s: %d rows is too many for one shard", f.path, start)
	}
	return nil
}

// checkFooter checks the footer length against the file size before
// parquet-go allocates a buffer of the length the file claims (up to 4 GiB
// for a corrupt file).
func checkFooter(r io.ReaderAt, size int64) error {
	if size < 12 {
		return fmt.Errorf("%d bytes is too short for parquet", size)
	}
	var tail [8]byte
	if _, err := r.ReadAt(tail[:], size-8); err != nil {
		return err
	}
	if n := int64(binary.LittleEndian.Uint32(tail[:4])); n > size-12 {
		return fmt.Errorf("footer length %d exceeds the file's %d bytes (truncated or corrupt file)", n, size)
	}
	return nil
}

// resolveColumns finds the columns the benchmark reads and checks their
// types against the hub's schema.
func resolveColumns(root *parquet.Column) (columnIndex, error) {
	var (
		c    columnIndex
		errs []error
	)
	have := func() string {
		var names []string
		for _, ch := range root.Columns() {
			names = append(names, ch.Name())
		}
		return strings.Join(names, ", ")
	}
	leaf := func(name string, kind parquet.Kind, want string) int {
		col := root.Column(name)
		switch {
		case col == nil:
			errs = append(errs, fmt.Errorf("missing column %q (columns: %s)", name, have()))
			return -1
		case !col.Leaf() || col.MaxRepetitionLevel() != 0 || col.Type().Kind() != kind:
			errs = append(errs, fmt.Errorf("column %q is %s, want %s", name, describeColumn(col), want))
			return -1
		}
		return col.Index()
	}
	c.title = leaf(colTitle, parquet.ByteArray, "a string")
	c.desc = leaf(colDesc, parquet.ByteArray, "a string")
	c.category = leaf(colCategory, parquet.ByteArray, "a string")
	c.brand = leaf(colBrand, parquet.ByteArray, "a string")
	c.secondhand = leaf(colSecondhand, parquet.Boolean, "a boolean")

	c.image = -1
	switch img := root.Column(colImage); {
	case img == nil:
		errs = append(errs, fmt.Errorf("missing column %q (columns: %s)", colImage, have()))
	case img.Leaf() || img.Column("bytes") == nil || !img.Column("bytes").Leaf() ||
		img.Column("bytes").Type().Kind() != parquet.ByteArray || img.Column("bytes").MaxRepetitionLevel() != 0:
		errs = append(errs, fmt.Errorf("column %q is %s, want a struct with binary field \"bytes\" (a datasets Image)", colImage, describeColumn(img)))
	default:
		c.image = img.Column("bytes").Index()
	}

	c.cats = -1
	switch top := root.Column(colCats); {
	case top == nil:
		errs = append(errs, fmt.Errorf("missing column %q (columns: %s)", colCats, have()))
	default:
		// Walk down the single-child chain (LIST group, repeated group,
		// element) to the leaf, noting the repeated node.
		node, slot := top, -1
		for {
			if node.Repeated() && slot < 0 {
				slot = node.MaxDefinitionLevel()
			}
			if node.Leaf() || len(node.Columns()) != 1 {
				break
			}
			node = node.Columns()[0]
		}
		if !node.Leaf() || slot < 0 || node.MaxRepetitionLevel() != 1 || node.Type().Kind() != parquet.ByteArray {
			errs = append(errs, fmt.Errorf("column %q is %s, want a list of strings", colCats, describeColumn(top)))
			break
		}
		c.cats = node.Index()
		c.catsSlot = slot
		c.catsMax = node.MaxDefinitionLevel()
		if top.Optional() {
			c.catsNull = top.MaxDefinitionLevel()
		}
	}
	return c, errors.Join(errs...)
}

func describeColumn(c *parquet.Column) string {
	s := strings.Join(strings.Fields(c.String()), " ")
	s = strings.TrimSuffix(s, ";")
	if len(s) > 200 {
		s = s[:200] + "..."
	}
	return s
}

func (f *shardFile) where(rg int, row int) string {
	return fmt.Sprintf("%s row %d", f.path, f.rgStart[rg]+int64(row))
}

// readRowGroup fills rows (the row group's rows) from every column but the
// image, whose headers it only checks.
func (f *shardFile) readRowGroup(fileIndex, rg int, g parquet.RowGroup, rows []sampleRow, names *interner) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("qsl q3vl: %s row group %d: corrupt parquet data (parquet reader panicked: %v)", f.path, rg, p)
		}
	}()
	chunks := g.ColumnChunks()
	for i := range rows {
		rows[i].file = uint16(fileIndex)
		rows[i].rowGroup = int32(rg)
		rows[i].row = int32(i)
	}
	r := &rowGroupReader{f: f, rg: rg, chunks: chunks, rows: rows, names: names}
	for _, step := range []func() error{r.titles, r.descriptions, r.groundTruthCategories, r.brands, r.secondhand, r.potentialCategories, r.imageHeaders} {
		if err := step(); err != nil {
			var ce *columnError
			if errors.As(err, &ce) {
				return fmt.Errorf("qsl q3vl: %s row group %d: %w", f.path, rg, err)
			}
			return fmt.Errorf("qsl q3vl: %w", err)
		}
	}
	return nil
}

// rowGroupReader reads one row group's columns into its rows, a column
// at a time.
type rowGroupReader struct {
	f      *shardFile
	rg     int
	chunks []parquet.ColumnChunk
	rows   []sampleRow
	names  *interner // for the columns whose values repeat across rows
}

// interner keeps one copy of each string of the columns whose values
// repeat: categories (a few thousand taxonomy paths, five or so a row) and
// brands. Held once, they are a few hundred KB instead of 15 MB of the
// 48,289 rows' 35 MB, memory the garbage collector also doubles as
// headroom. It is safe for concurrent use.
type interner struct {
	mu sync.Mutex
	m  map[string]string
}

// str returns b as a string, the same one for equal bytes.
func (in *interner) str(b []byte) string {
	in.mu.Lock()
	defer in.mu.Unlock()
	if s, ok := in.m[string(b)]; ok {
		return s
	}
	s := string(b)
	in.m[s] = s
	return s
}

// stringColumn reads a string column, checking it is UTF-8, and gives each
// row's value (or "" and null) to set. Values of a column whose values
// repeat (shared) are interned.
func (r *rowGroupReader) stringColumn(col int, name string, shared bool, set func(row *sampleRow, s string, null bool)) error {
	return readFlat(r.chunks[col], name, len(r.rows), func(row int, v parquet.Value) error {
		if v.IsNull() {
			set(&r.rows[row], "", true)
			return nil
		}
		b := v.ByteArray()
		if !utf8.Valid(b) {
			return fmt.Errorf("%s: column %q is not valid UTF-8", r.f.where(r.rg, row), name)
		}
		if shared {
			set(&r.rows[row], r.names.str(b), false)
		} else {
			set(&r.rows[row], string(b), false)
		}
		return nil
	})
}

func (r *rowGroupReader) titles() error {
	return r.stringColumn(r.f.cols.title, colTitle, false, func(row *sampleRow, s string, null bool) {
		row.title = s
		if null {
			row.nulls |= nullTitle
		}
	})
}

func (r *rowGroupReader) descriptions() error {
	return r.stringColumn(r.f.cols.desc, colDesc, false, func(row *sampleRow, s string, null bool) {
		row.desc = s
		if null {
			row.nulls |= nullDesc
		}
	})
}

func (r *rowGroupReader) groundTruthCategories() error {
	return r.stringColumn(r.f.cols.category, colCategory, true, func(row *sampleRow, s string, _ bool) { row.category = s })
}

func (r *rowGroupReader) brands() error {
	return r.stringColumn(r.f.cols.brand, colBrand, true, func(row *sampleRow, s string, _ bool) { row.brand = s })
}

// secondhand reads is_secondhand; a null is false.
func (r *rowGroupReader) secondhand() error {
	return readFlat(r.chunks[r.f.cols.secondhand], colSecondhand, len(r.rows), func(row int, v parquet.Value) error {
		r.rows[row].secondhand = !v.IsNull() && v.Boolean()
		return nil
	})
}

func (r *rowGroupReader) potentialCategories() error {
	return r.f.readCategories(r.chunks[r.f.cols.cats], r.rg, r.rows, r.names)
}

// imageHeaders checks each image's header and notes its format and size;
// the rows keep no image bytes.
func (r *rowGroupReader) imageHeaders() error {
	return readFlat(r.chunks[r.f.cols.image], colImage, len(r.rows), func(row int, v parquet.Value) error {
		if v.IsNull() {
			return fmt.Errorf("%s: %s has no bytes (null image)", r.f.where(r.rg, row), colImage)
		}
		b := v.ByteArray()
		format, err := checkImage(b)
		if err != nil {
			return fmt.Errorf("%s: %s: %w", r.f.where(r.rg, row), colImage, err)
		}
		r.rows[row].format = format
		r.rows[row].imageSize = int64(len(b))
		return nil
	})
}

// readCategories reads the list column, one list per row, its strings
// interned.
func (f *shardFile) readCategories(chunk parquet.ColumnChunk, rg int, rows []sampleRow, names *interner) error {
	row := -1
	return readValues(chunk, colCats, func(v parquet.Value) error {
		if v.RepetitionLevel() == 0 {
			row++
			if row >= len(rows) {
				return &columnError{fmt.Errorf("column %q has more rows than the row group's %d", colCats, len(rows))}
			}
			rows[row].cats = []string{} // an empty list, not a missing one
		}
		if row < 0 {
			return &columnError{fmt.Errorf("column %q starts inside a list", colCats)}
		}
		r := &rows[row]
		switch def := v.DefinitionLevel(); {
		case def < f.cols.catsNull:
			r.cats = nil
			r.nulls |= nullCats
		case def < f.cols.catsSlot:
			// empty list
		case def < f.cols.catsMax:
			r.catNulls = append(r.catNulls, int32(len(r.cats)))
			r.cats = append(r.cats, "")
		default:
			b := v.ByteArray()
			if !utf8.Valid(b) {
				return fmt.Errorf("%s: column %q is not valid UTF-8", f.where(rg, row), colCats)
			}
			r.cats = append(r.cats, names.str(b))
		}
		return nil
	}, func() error {
		if row+1 != len(rows) {
			return &columnError{fmt.Errorf("column %q has %d rows, the row group %d", colCats, row+1, len(rows))}
		}
		return nil
	})
}

// columnError is a structural problem of a column chunk (no single row to
// blame).
type columnError struct{ err error }

func (e *columnError) Error() string { return e.err.Error() }
func (e *columnError) Unwrap() error { return e.err }

// readFlat calls fn with each value of a non-repeated column and its row
// number within the row group, and checks the column has n rows.
func readFlat(chunk parquet.ColumnChunk, name string, n int, fn func(row int, v parquet.Value) error) error {
	row := 0
	return readValues(chunk, name, func(v parquet.Value) error {
		if row >= n {
			return &columnError{fmt.Errorf("column %q has more values than the row group's %d rows", name, n)}
		}
		err := fn(row, v)
		row++
		return err
	}, func() error {
		if row != n {
			return &columnError{fmt.Errorf("column %q has %d values, the row group %d rows", name, row, n)}
		}
		return nil
	})
}

// readValues calls fn with every value of a column chunk, in order, then
// done. Values are only valid during fn.
func readValues(chunk parquet.ColumnChunk, name string, fn func(parquet.Value) error, done func() error) error {
	pages := chunk.Pages()
	defer pages.Close()
	buf := make([]parquet.Value, 64)
	for {
		page, err := pages.ReadPage()
		if err == io.EOF {
			return done()
		}
		if err != nil {
			return &columnError{fmt.Errorf("reading column %q: %w", name, err)}
		}
		err = eachPageValue(page, name, buf, fn)
		parquet.Release(page)
		if err != nil {
			return err
		}
	}
}

func eachPageValue(page parquet.Page, name string, buf []parquet.Value, fn func(parquet.Value) error) error {
	vr := page.Values()
	for {
		n, err := vr.ReadValues(buf)
		for _, v := range buf[:n] {
			if e := fn(v); e != nil {
				return e
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return &columnError{fmt.Errorf("reading column %q: %w", name, err)}
		}
	}
}

// Len returns the number of samples.
func (d *Dataset) Len() int { return len(d.rows) }

// Sample returns sample i's metadata (no image). It panics if i is out of
// range, like a slice index.
func (d *Dataset) Sample(i int) Sample {
	r := &d.rows[i]
	f := d.files[r.file]
	return Sample{
		Title:       r.title,
		Description: r.desc,
		Truth: eval.Truth{
			Category:     r.category,
			Brand:        r.brand,
			IsSecondhand: r.secondhand,
			Categories:   slices.Clone(r.cats),
		},
		Source: fmt.Sprintf("%s:%d", f.path, f.rgStart[r.rowGroup]+int64(r.row)),
	}
}

// RawSize returns the bytes sample i occupies in the dataset: its image plus
// its title, description and categories. Load-memory targets are ratios to
// this.
func (d *Dataset) RawSize(i int) int64 {
	r := &d.rows[i]
	n := r.imageSize + int64(len(r.title)+len(r.desc))
	for _, c := range r.cats {
		n += int64(len(c))
	}
	return n
}

// UserText returns the text part of sample i's user message exactly as the
// reference writes it (task.py formulate_loaded_sample): the title, the
// description and Python's repr of the category list in its template. A
// null title, description, list or list element appears as None, as
// Python's f-string writes it.
func (d *Dataset) UserText(i int) string {
	r := &d.rows[i]
	title, desc := r.title, r.desc
	if r.nulls&nullTitle != 0 {
		title = "None"
	}
	if r.nulls&nullDesc != 0 {
		desc = "None"
	}
	return formatUserText(title, desc, r.catsRepr())
}

func (r *sampleRow) catsRepr() string {
	if r.nulls&nullCats != 0 {
		return "None"
	}
	if len(r.catNulls) == 0 {
		return pyrepr.StrList(r.cats)
	}
	b := []byte{'['}
	for i, c := range r.cats {
		if i > 0 {
			b = append(b, ", "...)
		}
		if slices.Contains(r.catNulls, int32(i)) {
			b = append(b, "None"...)
			continue
		}
		b = pyrepr.AppendStr(b, c)
	}
	return string(append(b, ']'))
}

// Close closes the shards. It is safe to call more than once; loading
// samples after Close fails.
func (d *Dataset) Close() error {
	d.closeOnce.Do(func() {
		d.closed.Store(true)
		var errs []error
		for _, f := range d.files {
			if f.osf != nil {
				errs = append(errs, f.osf.Close())
			}
		}
		d.closeErr = errors.Join(errs...)
	})
	return d.closeErr
}
