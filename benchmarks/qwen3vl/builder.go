package qwen3vl

import (
	"cmp"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"
	"unsafe"

	"github.com/openai/openai-go"
	"github.com/parquet-go/parquet-go"

	"github.com/mlperf-go/mlperf-go/qsl"
)

// EncodeFunc appends the request body for sample i's chat messages to
// dst (scratch space the builder reuses once the body is emitted) and
// returns the result. It is called concurrently from several goroutines.
// The messages (and the image data URL inside them) are only valid during
// the call: the body must not alias them.
type EncodeFunc func(dst []byte, i int, messages []openai.ChatCompletionMessageParamUnion) ([]byte, error)

// Builder returns a Builder for a Library of d's samples: for each batch it
// reads each needed row group's images once (row groups in file order, one
// at a time), builds each sample's messages (Messages) on up to
// Options.Workers goroutines, and emits encode's body. Neither the image
// bytes nor the messages are kept; only the bodies are. emit is called from
// one goroutine at a time.
//
// The harness uses Builder with sut.EncodeChat, whose direct encoder walks
// these messages without openai-go's marshalling (which re-compacts the
// 64 KiB data URL at each nesting level, ~30x slower) and writes bytes
// identical to it.
func (d *Dataset) Builder(encode EncodeFunc) qsl.Builder {
	return &sampleBuilder{d: d, encode: encode}
}

type sampleBuilder struct {
	d      *Dataset
	encode EncodeFunc
}

type loadJob struct {
	index int
	img   []byte       // aliases page memory
	page  parquet.Page // retained for the job
	group *sync.WaitGroup
}

// Build implements Builder.
func (b *sampleBuilder) Build(indices []int, emit func(index int, body []byte)) error {
	var emitMu sync.Mutex
	// Bodies are encoded into scratch buffers that go back to the pool
	// once emitted (the library copies them): one allocation a worker,
	// not one a sample.
	scratch := sync.Pool{New: func() any { return new([]byte) }}
	return b.d.load(indices, func(index int, img []byte) error {
		sp := scratch.Get().(*[]byte)
		defer scratch.Put(sp)
		body, err := b.encode((*sp)[:0], index, b.d.messages(index, img))
		if err != nil {
			return fmt.Errorf("qsl q3vl: sample %d (%s): encoding the request: %w", index, b.d.where(index), err)
		}
		*sp = body
		emitMu.Lock()
		defer emitMu.Unlock()
		emit(index, body)
		return nil
	})
}

// messages builds sample i's chat messages around its image bytes img, as
// the reference does (task.py formulate_loaded_sample): a system message
// with SystemPrompt, then a user message whose content is the user text
// then the image as a base64 data URL.
//
// openai-go's marshalled form of these messages equals the reference's
// messages as JSON (checked against its vectors in the tests), so the
// openai-go types are used rather than local structs.
func (d *Dataset) messages(i int, img []byte) []openai.ChatCompletionMessageParamUnion {
	return []openai.ChatCompletionMessageParamUnion{
		openai.SystemMessage(systemPrompt),
		openai.UserMessage([]openai.ChatCompletionContentPartUnionParam{
			openai.TextContentPart(d.UserText(i)),
			openai.ImageContentPart(openai.ChatCompletionContentPartImageImageURLParam{
				URL: dataURL(d.rows[i].format, img),
			}),
		}),
	}
}

// Messages returns sample i's chat messages, reading its image from the
// shard. Loading many samples should go through Builder, which reads each
// row group once for a whole batch; this is for tools and tests.
func (d *Dataset) Messages(i int) ([]openai.ChatCompletionMessageParamUnion, error) {
	if i < 0 || i >= len(d.rows) {
		return nil, fmt.Errorf("qsl q3vl: sample index %d out of range [0,%d)", i, len(d.rows))
	}
	var msgs []openai.ChatCompletionMessageParamUnion
	err := d.load([]int{i}, func(index int, img []byte) error {
		msgs = d.messages(index, img)
		return nil
	})
	return msgs, err
}

// dataURL returns "data:image/<Pillow format>;base64,<img>" built in one
// allocation of exactly its size.
func dataURL(f imageFormat, img []byte) string {
	name := f.String()
	const pre, mid = "data:image/", ";base64,"
	n := len(pre) + len(name) + len(mid)
	buf := make([]byte, n+base64.StdEncoding.EncodedLen(len(img)))
	copy(buf[copy(buf, pre):], name)
	copy(buf[len(pre)+len(name):], mid)
	base64.StdEncoding.Encode(buf[n:], img)
	return unsafe.String(unsafe.SliceData(buf), len(buf))
}

func (d *Dataset) where(i int) string {
	r := &d.rows[i]
	return d.files[r.file].where(int(r.rowGroup), int(r.row))
}

// load calls use with each index's image bytes (valid during the call only)
// on up to d.workers goroutines at once. Row groups are read one at a time,
// in (file, row group) order, each once per call. The first error stops the
// load and is returned.
func (d *Dataset) load(indices []int, use func(index int, img []byte) error) error {
	if d.closed.Load() {
		return errClosed
	}
	for _, i := range indices {
		if i < 0 || i >= len(d.rows) {
			return fmt.Errorf("qsl q3vl: sample index %d out of range [0,%d)", i, len(d.rows))
		}
	}
	order := slices.Clone(indices)
	slices.SortFunc(order, func(a, b int) int {
		ra, rb := &d.rows[a], &d.rows[b]
		return cmp.Or(cmp.Compare(ra.file, rb.file), cmp.Compare(ra.rowGroup, rb.rowGroup), cmp.Compare(ra.row, rb.row), cmp.Compare(a, b))
	})

	var (
		mu      sync.Mutex
		first   error
		workers sync.WaitGroup
		closers sync.WaitGroup
		jobs    = make(chan loadJob, d.workers)
	)
	fail := func(err error) {
		mu.Lock()
		if first == nil {
			first = err
		}
		mu.Unlock()
	}
	failed := func() bool {
		mu.Lock()
		defer mu.Unlock()
		return first != nil
	}
	for range min(d.workers, len(order)) {
		workers.Go(func() {
			for j := range jobs {
				if !failed() {
					if r := d.rows[j.index]; sniffImageFormat(j.img) != r.format || int64(len(j.img)) != r.imageSize {
						fail(fmt.Errorf("qsl q3vl: sample %d (%s): the image changed since the dataset was opened", j.index, d.where(j.index)))
					} else if err := d.safeUse(use, j.index, j.img); err != nil {
						fail(err)
					}
				}
				if err := noPanic(func() { parquet.Release(j.page) }); err != nil {
					fail(fmt.Errorf("qsl q3vl: %s: releasing a page: %w", d.where(j.index), err))
				}
				j.group.Done()
			}
		})
	}

	for start := 0; start < len(order) && !failed(); {
		r0 := &d.rows[order[start]]
		end := start + 1
		for end < len(order) && d.rows[order[end]].file == r0.file && d.rows[order[end]].rowGroup == r0.rowGroup {
			end++
		}
		if err := d.dispatchRowGroup(order[start:end], jobs, &closers, failed); err != nil {
			fail(err)
		}
		start = end
	}
	close(jobs)
	workers.Wait()
	closers.Wait()
	return first
}

// safeUse runs use, turning a panic into an error.
func (d *Dataset) safeUse(use func(int, []byte) error, index int, img []byte) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("qsl q3vl: sample %d (%s): panic while building the request: %v", index, d.where(index), p)
		}
	}()
	return use(index, img)
}

// dispatchRowGroup reads the image column of one row group and sends a job
// for each of want (indices of rows in this row group, sorted by row). The
// pages are closed once every job has finished with them.
func (d *Dataset) dispatchRowGroup(want []int, jobs chan<- loadJob, closers *sync.WaitGroup, failed func() bool) (err error) {
	r0 := &d.rows[want[0]]
	f := d.files[r0.file]
	chunk := f.pf.RowGroups()[r0.rowGroup].ColumnChunks()[f.cols.image]
	pages := chunk.Pages()
	group := new(sync.WaitGroup)
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("qsl q3vl: %s row group %d: corrupt parquet data (parquet reader panicked: %v)", f.path, r0.rowGroup, p)
		}
		closers.Go(func() {
			group.Wait()
			noPanic(func() { pages.Close() })
		})
	}()

	buf := make([]parquet.Value, 16)
	row, next := int32(0), 0
	for next < len(want) && !failed() {
		page, err := pages.ReadPage()
		if err == io.EOF {
			break
		}
		if err != nil {
			return fmt.Errorf("qsl q3vl: %s row group %d: reading %s: %w", f.path, r0.rowGroup, colImage, err)
		}
		if row+int32(page.NumRows()) <= d.rows[want[next]].row {
			row += int32(page.NumRows()) // no wanted row here: skip the values
			parquet.Release(page)
			continue
		}
		vr := page.Values()
		for next < len(want) {
			n, err := vr.ReadValues(buf)
			for _, v := range buf[:n] {
				for next < len(want) && d.rows[want[next]].row == row {
					if v.IsNull() {
						parquet.Release(page)
						return fmt.Errorf("qsl q3vl: %s: %s has no bytes (null image)", f.where(int(r0.rowGroup), int(row)), colImage)
					}
					parquet.Retain(page)
					group.Add(1)
					jobs <- loadJob{index: want[next], img: v.ByteArray(), page: page, group: group}
					next++
				}
				row++
			}
			if err == io.EOF {
				break
			}
			if err != nil {
				parquet.Release(page)
				return fmt.Errorf("qsl q3vl: %s row group %d: reading %s: %w", f.path, r0.rowGroup, colImage, err)
			}
		}
		parquet.Release(page)
	}
	if next < len(want) && !failed() {
		return fmt.Errorf("qsl q3vl: %s: row missing from %s column (file changed since open?)", f.where(int(r0.rowGroup), int(d.rows[want[next]].row)), colImage)
	}
	return nil
}

var errClosed = errors.New("qsl q3vl: the dataset is closed; samples cannot be loaded after Close")

// noPanic runs fn, turning a panic (parquet-go panics on some corrupt
// data) into an error, for goroutines where a panic would end the process.
func noPanic(fn func()) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v", p)
		}
	}()
	fn()
	return nil
}
