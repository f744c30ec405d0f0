package tokenset

import (
	"bytes"
	"fmt"
	"io"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
	"github.com/pierrec/lz4/v4"
)

// checkPages walks the page headers of the given leaf columns before
// parquet-go decodes them, and rejects a file whose pages do not fit their
// column chunk. parquet-go v0.32 trusts page headers: it allocates the
// uncompressed size a header claims (up to 2 GiB), and its LZ4_RAW decoder
// doubles its buffer without bound on a corrupt block until the process dies
// of memory exhaustion (found by FuzzTokenParquet). A corrupt dataset must be
// an error, so LZ4_RAW pages are also trial-decoded here into a buffer of
// exactly their declared size.
func checkPages(r io.ReaderAt, size int64, f *parquet.File, path string, cols ...int) error {
	md := f.Metadata()
	for g, rg := range md.RowGroups {
		for _, c := range cols {
			if c < 0 || c >= len(rg.Columns) {
				return fmt.Errorf("%s: row group %d has %d columns, want column %d", path, g, len(rg.Columns), c)
			}
			cm := rg.Columns[c].MetaData
			if err := checkChunk(r, size, &cm); err != nil {
				return fmt.Errorf("%s: corrupt parquet file: row group %d, column %q: %w", path, g, joinPath(cm.PathInSchema), err)
			}
		}
	}
	return nil
}

func joinPath(p []string) string {
	var b bytes.Buffer
	for i, s := range p {
		if i > 0 {
			b.WriteByte('.')
		}
		b.WriteString(s)
	}
	return b.String()
}

func checkChunk(r io.ReaderAt, size int64, cm *format.ColumnMetaData) error {
	start := cm.DataPageOffset
	if cm.DictionaryPageOffset > 0 && cm.DictionaryPageOffset < start {
		start = cm.DictionaryPageOffset
	}
	end := start + cm.TotalCompressedSize
	if start < 4 || cm.TotalCompressedSize < 0 || end > size || end < start {
		return fmt.Errorf("chunk [%d,%d) lies outside the file's %d bytes", start, end, size)
	}
	if cm.TotalUncompressedSize < 0 {
		return fmt.Errorf("negative uncompressed size %d", cm.TotalUncompressedSize)
	}
	chunk := make([]byte, end-start)
	if _, err := r.ReadAt(chunk, start); err != nil {
		return err
	}
	var proto thrift.CompactProtocol
	br := bytes.NewReader(chunk)
	for br.Len() > 0 {
		at := len(chunk) - br.Len()
		var h format.PageHeader
		if err := thrift.NewDecoder(proto.NewReader(br)).Decode(&h); err != nil {
			return fmt.Errorf("page header at chunk offset %d: %w", at, err)
		}
		data := len(chunk) - br.Len()
		if h.CompressedPageSize < 0 || h.UncompressedPageSize < 0 ||
			int64(h.CompressedPageSize) > int64(br.Len()) ||
			int64(h.UncompressedPageSize) > cm.TotalUncompressedSize {
			return fmt.Errorf("page at chunk offset %d claims %d compressed / %d uncompressed bytes; the chunk has %d / %d",
				at, h.CompressedPageSize, h.UncompressedPageSize, br.Len(), cm.TotalUncompressedSize)
		}
		page := chunk[data : data+int(h.CompressedPageSize)]
		br.Seek(int64(h.CompressedPageSize), io.SeekCurrent)
		if cm.Codec != format.Lz4Raw {
			continue
		}
		src, dstLen := page, int(h.UncompressedPageSize)
		if v2, ok := h.DataPageHeaderV2.Get(); ok {
			levels := int(v2.RepetitionLevelsByteLength) + int(v2.DefinitionLevelsByteLength)
			if levels < 0 || levels > len(page) || levels > dstLen {
				return fmt.Errorf("page at chunk offset %d: level bytes %d exceed the page", at, levels)
			}
			if c, set := v2.IsCompressed.Get(); set && !c {
				continue
			}
			src, dstLen = page[levels:], dstLen-levels
		}
		if _, err := lz4.UncompressBlock(src, make([]byte, dstLen)); err != nil {
			return fmt.Errorf("page at chunk offset %d: LZ4_RAW data does not decode to its declared %d bytes: %w", at, dstLen, err)
		}
	}
	return nil
}
