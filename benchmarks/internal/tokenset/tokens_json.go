package tokenset

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/mlperf-go/mlperf-go/internal/pyfloat"
)

// readTokenJSON reads a token dataset written as JSON in any of the layouts
// the reference's tooling produces or reads back with pandas.read_json:
//
//   - a list of records, [{"input": …, "tok_input": [...], "output": …}, …]:
//     what language/llama3.1-8b/download_cnndm.py writes (json.dump of the
//     records) and DataFrame.to_json(orient="records");
//   - orient="columns", {"tok_input": {"0": [...], …}, "output": {"0": …}}:
//     DataFrame.to_json's default;
//   - orient="index", {"0": {"tok_input": [...], …}, …};
//   - orient="split", {"columns": [...], "index": [...], "data": [[...], …]}.
//
// Records are read in file order, which is the order pandas gives them
// (.tolist() in the reference); orient="columns" follows the order of the
// token column's index labels.
func readTokenJSON(r io.Reader, path string, spec *tokenSpec) (*Dataset, error) {
	dec := json.NewDecoder(bufio.NewReaderSize(r, 1<<20))
	tok, err := dec.Token()
	if err != nil {
		return nil, fmt.Errorf("%s: not valid JSON: %w", path, err)
	}
	a := newAssembler(spec, path, "json")
	switch tok {
	case json.Delim('['):
		err = readJSONRecords(dec, a)
	case json.Delim('{'):
		err = readJSONObject(dec, a)
	default:
		err = fmt.Errorf("%s: want a JSON list of records or an object, got %v", path, tok)
	}
	if err != nil {
		return nil, err
	}
	// Nothing but white space may follow the top-level value.
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%s: unexpected data after the JSON value at byte %d", path, dec.InputOffset())
	}
	return a.finish()
}

// readJSONRecords reads the records of a top-level list; the '[' is consumed.
func readJSONRecords(dec *json.Decoder, a *tokenAssembler) error {
	for i := 0; dec.More(); i++ {
		where := fmt.Sprintf("record %d", i)
		var rec map[string]json.RawMessage
		if err := dec.Decode(&rec); err != nil {
			var ute *json.UnmarshalTypeError
			if errors.As(err, &ute) && ute.Value == "array" {
				return fmt.Errorf("%s: %s is a list, not an object: a file written with orient=\"values\" has no column names; export it with orient=\"records\"", a.path, where)
			}
			return fmt.Errorf("%s: %s: %w", a.path, where, err)
		}
		if err := a.addRecord(where, rec); err != nil {
			return err
		}
	}
	if _, err := dec.Token(); err != nil { // the closing ']'
		return fmt.Errorf("%s: after record %d: %w", a.path, a.d.Len()-1, err)
	}
	return nil
}

// addRecord adds one sample given as a field → raw JSON map.
func (a *tokenAssembler) addRecord(where string, rec map[string]json.RawMessage) error {
	if rec == nil {
		return fmt.Errorf("%s: %s is null, not a record", a.path, where)
	}
	if a.d.column == "" {
		for _, c := range a.spec.tokenCols {
			if _, ok := rec[c]; ok {
				a.d.column = c
				break
			}
		}
	}
	raw, ok := rec[a.d.column]
	if !ok || a.d.column == "" {
		want := a.spec.tokenColsText()
		if a.d.column != "" {
			want = strconv.Quote(a.d.column)
		}
		return fmt.Errorf("%s: %s has no %s field with the prompt token IDs (its fields: %s)%s",
			a.path, where, want, fieldList(rec), a.spec.noTokensHelp())
	}
	if err := a.addTokenJSON(where, raw); err != nil {
		return err
	}
	if err := a.endTokens(where); err != nil {
		return err
	}
	has := func(c string) bool { _, ok := rec[c]; return ok }
	var ref, ds string
	refType := RefNone
	if c := a.refField(has); c != "" {
		ref, refType = scalar(rec[c])
	}
	if c := a.metaField(has); c != "" {
		ds, _ = scalar(rec[c])
	}
	a.addMeta(ref, refType, ds)
	return nil
}

func fieldList(rec map[string]json.RawMessage) string {
	if len(rec) == 0 {
		return "none"
	}
	names := make([]string, 0, len(rec))
	for k := range rec {
		names = append(names, strconv.Quote(k))
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

// readJSONObject reads a top-level object: pandas' "columns", "index" or
// "split" orient. The '{' is consumed. Members are sorted by the orient
// they can belong to; which orient the file has is decided once all are
// read. (The collections are local so that small ones stay on the stack.)
func readJSONObject(dec *json.Decoder, a *tokenAssembler) error {
	var (
		split     = map[string]json.RawMessage{}
		columns   = map[string]*jsonColumn{} // orient="columns": known fields only
		indexRecs []map[string]json.RawMessage
		indexLbls []string
		keys      []string
	)
	for dec.More() {
		key, raw, err := readJSONMember(dec, a.path)
		if err != nil {
			return err
		}
		keys = append(keys, key)
		switch {
		case raw[0] == '[' && (key == "columns" || key == "index" || key == "data"):
			split[key] = raw
		case raw[0] == '{' && a.spec.knownField(key):
			col, err := readJSONColumn(raw)
			if err != nil {
				return fmt.Errorf("%s: column %q: %w", a.path, key, err)
			}
			columns[key] = col
		case raw[0] == '{':
			rec, err := indexRecord(a.spec, raw)
			if err != nil {
				return fmt.Errorf("%s: top-level key %q: %w", a.path, key, err)
			}
			// Without a token field: an orient="columns" column this
			// reader does not use ("input", "instruction", …).
			if rec != nil {
				indexRecs = append(indexRecs, rec)
				indexLbls = append(indexLbls, key)
			}
		}
	}
	if _, err := dec.Token(); err != nil { // the closing '}'
		return fmt.Errorf("%s: reading the top-level object: %w", a.path, err)
	}

	switch {
	case split["data"] != nil:
		return readJSONSplit(a, split)
	case len(indexRecs) > 0 && len(columns) > 0:
		return fmt.Errorf("%s: mixes orient=\"index\" records with orient=\"columns\" columns; export with orient=\"records\"", a.path)
	case len(indexRecs) > 0:
		for i, rec := range indexRecs {
			if err := a.addRecord(fmt.Sprintf("record %d (index %q)", i, indexLbls[i]), rec); err != nil {
				return err
			}
		}
		return nil
	}
	return readJSONColumns(a, columns, keys)
}

// readJSONMember reads the next member of the top-level object.
func readJSONMember(dec *json.Decoder, path string) (string, json.RawMessage, error) {
	t, err := dec.Token()
	if err != nil {
		return "", nil, fmt.Errorf("%s: reading the top-level object: %w", path, err)
	}
	key, _ := t.(string)
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		return "", nil, fmt.Errorf("%s: top-level key %q: %w", path, key, err)
	}
	return key, raw, nil
}

// jsonColumn is one orient="columns" column: its index labels and values,
// in file order.
type jsonColumn struct {
	labels []string
	raws   []json.RawMessage
}

// readJSONColumn reads an orient="columns" column, keeping its order.
func readJSONColumn(raw json.RawMessage) (*jsonColumn, error) {
	col := &jsonColumn{}
	if err := orderedObject(raw, func(label string, v json.RawMessage) error {
		col.labels = append(col.labels, label)
		col.raws = append(col.raws, v)
		return nil
	}); err != nil {
		return nil, err
	}
	return col, nil
}

// indexRecord is the object raw as an orient="index" record, or nil if it
// has no token field.
func indexRecord(spec *tokenSpec, raw json.RawMessage) (map[string]json.RawMessage, error) {
	var rec map[string]json.RawMessage
	if err := json.Unmarshal(raw, &rec); err != nil {
		return nil, err
	}
	for _, c := range spec.tokenCols {
		if _, ok := rec[c]; ok {
			return rec, nil
		}
	}
	return nil, nil
}

// readJSONColumns reads orient="columns": the samples follow the token
// column's index labels, and the reference and dataset columns are looked
// up by label.
func readJSONColumns(a *tokenAssembler, columns map[string]*jsonColumn, keys []string) error {
	var tokCol *jsonColumn
	for _, c := range a.spec.tokenCols {
		if col, ok := columns[c]; ok {
			tokCol, a.d.column = col, c
			break
		}
	}
	if tokCol == nil {
		return fmt.Errorf("%s: no %s column with the prompt token IDs (top-level keys: %s)%s",
			a.path, a.spec.tokenColsText(), quoteList(keys), a.spec.noTokensHelp())
	}
	lookup := func(name string) map[string]json.RawMessage {
		col := columns[name]
		if col == nil {
			return nil
		}
		m := make(map[string]json.RawMessage, len(col.labels))
		for i, l := range col.labels {
			m[l] = col.raws[i]
		}
		return m
	}
	has := func(c string) bool { _, ok := columns[c]; return ok }
	refs := lookup(a.refField(has))
	metas := lookup(a.metaField(has))
	for i, label := range tokCol.labels {
		where := fmt.Sprintf("record %d (index %q)", i, label)
		if err := a.addTokenJSON(where, tokCol.raws[i]); err != nil {
			return err
		}
		if err := a.endTokens(where); err != nil {
			return err
		}
		ref, refType := scalar(refs[label])
		ds, _ := scalar(metas[label])
		a.addMeta(ref, refType, ds)
	}
	return nil
}

// readJSONSplit reads orient="split": {"columns": [...], "data": [[...]]}.
func readJSONSplit(a *tokenAssembler, split map[string]json.RawMessage) error {
	var cols []string
	if err := json.Unmarshal(split["columns"], &cols); err != nil || cols == nil {
		return fmt.Errorf("%s: orient=\"split\" needs a \"columns\" list of names", a.path)
	}
	pos := map[string]int{}
	for i, c := range cols {
		pos[c] = i
	}
	tokPos := -1
	for _, c := range a.spec.tokenCols {
		if p, ok := pos[c]; ok {
			tokPos, a.d.column = p, c
			break
		}
	}
	if tokPos < 0 {
		return fmt.Errorf("%s: no %s column with the prompt token IDs (columns: %s)%s", a.path, a.spec.tokenColsText(), quoteList(cols), a.spec.noTokensHelp())
	}
	has := func(c string) bool { _, ok := pos[c]; return ok }
	refPos, metaPos := -1, -1
	if p, ok := pos[a.refField(has)]; ok {
		refPos = p
	}
	if p, ok := pos[a.metaField(has)]; ok {
		metaPos = p
	}
	var rows []json.RawMessage
	if err := json.Unmarshal(split["data"], &rows); err != nil {
		return fmt.Errorf("%s: orient=\"split\" \"data\": %w", a.path, err)
	}
	at := func(row []json.RawMessage, p int) json.RawMessage {
		if p < 0 || p >= len(row) {
			return nil
		}
		return row[p]
	}
	for i, rawRow := range rows {
		where := fmt.Sprintf("record %d", i)
		var row []json.RawMessage
		if err := json.Unmarshal(rawRow, &row); err != nil {
			return fmt.Errorf("%s: %s: want a list of %d values: %w", a.path, where, len(cols), err)
		}
		if len(row) != len(cols) {
			return fmt.Errorf("%s: %s has %d values for %d columns", a.path, where, len(row), len(cols))
		}
		if err := a.addTokenJSON(where, row[tokPos]); err != nil {
			return err
		}
		if err := a.endTokens(where); err != nil {
			return err
		}
		ref, refType := scalar(at(row, refPos))
		ds, _ := scalar(at(row, metaPos))
		a.addMeta(ref, refType, ds)
	}
	return nil
}

// orderedObject calls fn for each member of the JSON object raw, in order.
func orderedObject(raw json.RawMessage, fn func(key string, v json.RawMessage) error) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if _, err := dec.Token(); err != nil {
		return err
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return err
		}
		key, _ := t.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return fmt.Errorf("index %q: %w", key, err)
		}
		if err := fn(key, v); err != nil {
			return err
		}
	}
	return nil
}

func quoteList(s []string) string {
	if len(s) == 0 {
		return "none"
	}
	q := make([]string, len(s))
	for i, x := range s {
		q[i] = strconv.Quote(x)
	}
	return strings.Join(q, ", ")
}

// scalar renders a JSON value as the text the reference would see after
// str() and says its Python type: a string's contents, "" for null or
// absent, Python's repr of a number with a fraction or exponent (a float:
// 42.0, not pandas' 42.0 or 4.2e1), True and False, the literal otherwise.
func scalar(raw json.RawMessage) (string, RefType) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return "", RefNone
	}
	switch raw[0] {
	case '"':
		var s string
		if err := json.Unmarshal(raw, &s); err == nil {
			return s, RefStr
		}
	case 't', 'f':
		if v, err := strconv.ParseBool(string(raw)); err == nil {
			return map[bool]string{true: "True", false: "False"}[v], RefBool
		}
	}
	if raw[0] == '-' || (raw[0] >= '0' && raw[0] <= '9') {
		if !bytes.ContainsAny(raw, ".eE") {
			return string(raw), RefInt
		}
		if f, err := strconv.ParseFloat(string(raw), 64); err == nil {
			return pyfloat.Repr(f), RefFloat
		}
	}
	return string(raw), RefStr // a list or an object: its JSON text
}

// addTokenJSON parses a JSON list of integers and appends it to the
// dataset's token storage, validating each ID. It parses the bytes directly
// so errors can name the position and the offending value, which
// encoding/json's do not, and tokens go straight into the shared int32
// storage (BenchmarkOpenLlamaJSON vs BenchmarkEncodingJSONLlama: same speed,
// less than half the retained heap).
func (a *tokenAssembler) addTokenJSON(where string, raw json.RawMessage) error {
	col := a.d.column
	b := bytes.TrimSpace(raw)
	if len(b) == 0 || string(b) == "null" {
		return fmt.Errorf("%s: %s: empty prompt: %q is null", a.path, where, col)
	}
	if b[0] != '[' {
		return fmt.Errorf("%s: %s: %q is not a list of token IDs (it starts %q)", a.path, where, col, trimPreview(b))
	}
	i := 1
	skip := func() {
		for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
			i++
		}
	}
	skip()
	if i < len(b) && b[i] == ']' {
		return nil // empty list: endTokens reports it
	}
	for pos := 0; ; pos++ {
		skip()
		start := i
		if i < len(b) && b[i] == '-' {
			i++
		}
		digits := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		// The element ends at the next ',' or ']' at this nesting depth; for
		// messages, take everything up to there.
		end := i
		for end < len(b) && b[end] != ',' && b[end] != ']' && b[end] != ' ' && b[end] != '\n' && b[end] != '\t' && b[end] != '\r' {
			end++
		}
		if i == digits || end != i {
			lit := b[start:end]
			if len(lit) > 24 {
				lit = lit[:24]
			}
			if len(lit) == 0 && start < len(b) {
				lit = b[start : start+1]
			}
			return fmt.Errorf("%s: %s: %s[%d] is %s, not an integer token ID", a.path, where, col, pos, lit)
		}
		lit := b[start:i]
		v, err := strconv.ParseInt(string(lit), 10, 64)
		if err != nil { // more digits than int64 holds
			return fmt.Errorf("%s: %s: %s[%d] = %s is outside the %s vocabulary [0,%d)", a.path, where, col, pos, lit, a.spec.vocabName, a.spec.vocab)
		}
		t, err := a.checkToken(where, pos, v)
		if err != nil {
			return err
		}
		a.addToken(t)
		skip()
		if i >= len(b) {
			return fmt.Errorf("%s: %s: %q list is not closed", a.path, where, col)
		}
		if b[i] == ']' {
			return nil
		}
		if b[i] != ',' {
			return fmt.Errorf("%s: %s: %s[%d]: want ',' or ']' after the value, got %q", a.path, where, col, pos, b[i])
		}
		i++
	}
}
