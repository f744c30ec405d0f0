package tokenset

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/mlperf-go/mlperf-go/internal/pyfloat"
	"github.com/parquet-go/parquet-go"
)

// readTokenParquet reads a token dataset from a parquet file as pandas/pyarrow
// write it (language/gpt-oss-120b/utils/tokenization.py reads it back with
// pandas.read_parquet): the token column is a list of int32 or int64
// (list<int64> from Python ints, list<int32> from int32 numpy arrays), the
// text columns are strings. Only the needed columns are read, page by page,
// straight into the dataset's token storage.
func readTokenParquet(r io.ReaderAt, size int64, path string, spec *tokenSpec) (d *Dataset, err error) {
	// parquet-go trusts a file's metadata in places; a corrupt file must be
	// an error for the user, never a crash of the harness.
	defer func() {
		if p := recover(); p != nil {
			d, err = nil, fmt.Errorf("%s: corrupt parquet file: %v", path, p)
		}
	}()
	if err := checkParquetFooter(r, size, path); err != nil {
		return nil, err
	}
	f, err := parquet.OpenFile(r, size, parquet.SkipBloomFilters(true), parquet.SkipPageIndex(true))
	if err != nil {
		return nil, fmt.Errorf("%s: not a readable parquet file: %w", path, err)
	}
	a := newAssembler(spec, path, "parquet")
	// The map stays on the stack when it is made here.
	leaves := map[string][]parquet.LeafColumn{}
	top := groupLeaves(f.Schema(), leaves)
	tok, err := tokenLeaf(a, leaves, top)
	if err != nil {
		return nil, err
	}
	if err := checkReadPages(r, size, f, a, leaves, tok); err != nil {
		return nil, err
	}
	rows, err := readTokenColumn(f, a, tok)
	if err != nil {
		return nil, err
	}
	if int64(rows) != f.NumRows() {
		return nil, fmt.Errorf("%s: column %q has %d rows, the file says %d", path, a.d.column, rows, f.NumRows())
	}
	if err := readMetaColumns(f, a, leaves, rows); err != nil {
		return nil, err
	}
	return a.finish()
}

// checkParquetFooter checks the file's last 8 bytes (footer length and the
// "PAR1" magic) before parquet-go sees them: parquet-go allocates the
// footer length the file claims before checking it against the file size,
// so a corrupt length would cost up to 4 GiB.
func checkParquetFooter(r io.ReaderAt, size int64, path string) error {
	var tail [8]byte
	if size < 12 {
		return fmt.Errorf("%s: not a readable parquet file: only %d bytes", path, size)
	}
	if _, err := r.ReadAt(tail[:], size-8); err != nil {
		return fmt.Errorf("%s: not a readable parquet file: %w", path, err)
	}
	if string(tail[4:]) != "PAR1" {
		return fmt.Errorf("%s: not a readable parquet file: it does not end with the \"PAR1\" magic (truncated or encrypted?)", path)
	}
	if n := int64(binary.LittleEndian.Uint32(tail[:4])); n > size-12 {
		return fmt.Errorf("%s: not a readable parquet file: footer length %d exceeds the file's %d bytes (truncated?)", path, n, size)
	}
	return nil
}

// groupLeaves adds the schema's leaf columns to leaves by their top-level
// column, and returns the top-level names in schema order (for messages).
func groupLeaves(schema *parquet.Schema, leaves map[string][]parquet.LeafColumn) (top []string) {
	for _, p := range schema.Columns() {
		leaf, ok := schema.Lookup(p...)
		if !ok || len(p) == 0 {
			continue
		}
		if _, seen := leaves[p[0]]; !seen {
			top = append(top, p[0])
		}
		leaf.Path = p
		leaves[p[0]] = append(leaves[p[0]], leaf)
	}
	return top
}

// tokenLeaf picks the token column (the spec's first name the file has),
// records it as the dataset's column, and checks it is a list of integers.
func tokenLeaf(a *tokenAssembler, leaves map[string][]parquet.LeafColumn, top []string) (parquet.LeafColumn, error) {
	for _, c := range a.spec.tokenCols {
		if _, ok := leaves[c]; ok {
			a.d.column = c
			break
		}
	}
	if a.d.column == "" {
		return parquet.LeafColumn{}, fmt.Errorf("%s: no %s column with the prompt token IDs (columns: %s)%s", a.path, a.spec.tokenColsText(), quoteList(top), a.spec.noTokensHelp())
	}
	tl := leaves[a.d.column]
	if len(tl) != 1 || tl[0].MaxRepetitionLevel != 1 {
		return parquet.LeafColumn{}, fmt.Errorf("%s: column %q must be a list of integer token IDs, found %s", a.path, a.d.column, describeLeaves(tl))
	}
	switch k := tl[0].Node.Type().Kind(); k {
	case parquet.Int32, parquet.Int64:
	default:
		return parquet.LeafColumn{}, fmt.Errorf("%s: column %q holds %s values, not integer token IDs", a.path, a.d.column, k)
	}
	return tl[0], nil
}

// checkReadPages vets (checkPages) the pages of the leaf columns the
// reader decodes: the token column, the reference and the dataset columns.
func checkReadPages(r io.ReaderAt, size int64, f *parquet.File, a *tokenAssembler, leaves map[string][]parquet.LeafColumn, tok parquet.LeafColumn) error {
	has := func(c string) bool { _, ok := leaves[c]; return ok }
	cols := []int{tok.ColumnIndex}
	for _, name := range []string{a.refField(has), a.metaField(has)} {
		if ls, ok := leaves[name]; ok && name != "" {
			for _, l := range ls {
				cols = append(cols, l.ColumnIndex)
			}
		}
	}
	return checkPages(r, size, f, a.path, cols...)
}

// readTokenColumn appends every row's token IDs to the dataset's token
// storage, closing a prompt at each row boundary, and returns the number
// of rows.
func readTokenColumn(f *parquet.File, a *tokenAssembler, tok parquet.LeafColumn) (int, error) {
	path, spec := a.path, a.spec
	// A value whose definition level is one below the maximum, in a leaf that
	// is itself optional, is a null element; anything lower is a null or
	// empty list.
	nullElemDef := -1
	if tok.Node.Optional() {
		nullElemDef = tok.MaxDefinitionLevel - 1
	}
	rows := 0
	var pos int
	err := forEachValue(f, path, a.d.column, tok.ColumnIndex, func(v parquet.Value) error {
		if v.RepetitionLevel() == 0 { // a new row starts
			if rows > 0 {
				if err := a.endTokens("row " + strconv.Itoa(rows-1)); err != nil {
					return err
				}
			}
			rows++
			pos = 0
		}
		where := func() string { return "row " + strconv.Itoa(rows-1) }
		if v.DefinitionLevel() < tok.MaxDefinitionLevel {
			if v.DefinitionLevel() == nullElemDef {
				return fmt.Errorf("%s: %s: %s[%d] is null, not a token ID", path, where(), a.d.column, pos)
			}
			return fmt.Errorf("%s: %s: empty prompt: %q is null or empty", path, where(), a.d.column)
		}
		var x int64
		if v.Kind() == parquet.Int32 {
			x = int64(v.Int32())
		} else {
			x = v.Int64()
		}
		if x < 0 || x >= int64(spec.vocab) {
			_, err := a.checkToken(where(), pos, x)
			return err
		}
		a.addToken(int32(x))
		pos++
		return nil
	})
	if err != nil {
		return 0, err
	}
	if rows > 0 {
		if err := a.endTokens("row " + strconv.Itoa(rows-1)); err != nil {
			return 0, err
		}
	}
	return rows, nil
}

// readMetaColumns adds each row's reference text and dataset name ("" for
// a column the file lacks).
func readMetaColumns(f *parquet.File, a *tokenAssembler, leaves map[string][]parquet.LeafColumn, rows int) error {
	has := func(c string) bool { _, ok := leaves[c]; return ok }
	refs, refTypes, err := stringColumn(f, a.path, leaves, a.refField(has), rows)
	if err != nil {
		return err
	}
	metas, _, err := stringColumn(f, a.path, leaves, a.metaField(has), rows)
	if err != nil {
		return err
	}
	for i := 0; i < rows; i++ {
		var ref, ds string
		refType := RefNone
		if refs != nil {
			ref, refType = refs[i], refTypes[i]
		}
		if metas != nil {
			ds = metas[i]
		}
		a.addMeta(ref, refType, ds)
	}
	return nil
}

func describeLeaves(ls []parquet.LeafColumn) string {
	var parts []string
	for _, l := range ls {
		kind := "group"
		if l.Node.Leaf() {
			kind = l.Node.Type().Kind().String()
		}
		parts = append(parts, fmt.Sprintf("%s (%s, nesting depth %d)", strings.Join(l.Path, "."), kind, l.MaxRepetitionLevel))
	}
	return strings.Join(parts, "; ")
}

// stringColumn reads a scalar column as text (Python's str() of each
// value) and type, one entry per row; nil if the file has no such column.
func stringColumn(f *parquet.File, path string, leaves map[string][]parquet.LeafColumn, name string, rows int) ([]string, []RefType, error) {
	ls, ok := leaves[name]
	if !ok {
		return nil, nil, nil
	}
	if len(ls) != 1 || ls[0].MaxRepetitionLevel != 0 {
		return nil, nil, fmt.Errorf("%s: column %q must be a plain (non-list) value, found %s", path, name, describeLeaves(ls))
	}
	leaf := ls[0]
	out := make([]string, 0, rows)
	types := make([]RefType, 0, rows)
	err := forEachValue(f, path, name, leaf.ColumnIndex, func(v parquet.Value) error {
		if len(out) == rows {
			return fmt.Errorf("%s: column %q has more than the file's %d rows", path, name, rows)
		}
		text, typ := valueScalar(v)
		out, types = append(out, text), append(types, typ)
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	if len(out) != rows {
		return nil, nil, fmt.Errorf("%s: column %q has %d rows, the token column %d", path, name, len(out), rows)
	}
	return out, types, nil
}

// valueScalar is Python's str() of a parquet value as pandas reads it, and
// its type: null and NaN are missing, a float is written as Python's repr.
func valueScalar(v parquet.Value) (string, RefType) {
	if v.IsNull() {
		return "", RefNone
	}
	switch v.Kind() {
	case parquet.ByteArray, parquet.FixedLenByteArray:
		return string(v.ByteArray()), RefStr
	case parquet.Boolean:
		return map[bool]string{true: "True", false: "False"}[v.Boolean()], RefBool
	case parquet.Int32:
		return strconv.FormatInt(int64(v.Int32()), 10), RefInt
	case parquet.Int64:
		return strconv.FormatInt(v.Int64(), 10), RefInt
	case parquet.Float, parquet.Double:
		f := v.Double()
		if v.Kind() == parquet.Float {
			f = float64(v.Float())
		}
		if math.IsNaN(f) {
			return "", RefNone
		}
		return pyfloat.Repr(f), RefFloat
	default:
		return v.String(), RefStr
	}
}

// forEachValue calls fn for every value of leaf column col, row group by row
// group, page by page, in file order.
// Errors of the file itself are wrapped with path and column name; fn's own
// errors pass through unchanged.
func forEachValue(f *parquet.File, path, name string, col int, fn func(parquet.Value) error) error {
	fail := func(err error) error {
		return fmt.Errorf("%s: reading column %q: %w", path, name, err)
	}
	buf := make([]parquet.Value, 1024)
	for _, rg := range f.RowGroups() {
		chunks := rg.ColumnChunks()
		if col >= len(chunks) {
			return fail(fmt.Errorf("row group has %d columns, want column %d", len(chunks), col))
		}
		pages := chunks[col].Pages()
		err := func() error {
			defer pages.Close()
			for {
				page, err := pages.ReadPage()
				if errors.Is(err, io.EOF) {
					return nil
				}
				if err != nil {
					return fail(err)
				}
				err = func() error {
					defer parquet.Release(page)
					vr := page.Values()
					for {
						n, err := vr.ReadValues(buf)
						for _, v := range buf[:n] {
							if e := fn(v); e != nil {
								return e
							}
						}
						if errors.Is(err, io.EOF) {
							return nil
						}
						if err != nil {
							return fail(err)
						}
						if n == 0 {
							return fail(io.ErrNoProgress)
						}
					}
				}()
				if err != nil {
					return err
				}
			}
		}()
		if err != nil {
			return err
		}
	}
	return nil
}
