package results

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
)

// MLLOGPrefix starts every line of LoadGen's detail log
// (logging.cc, AsyncLog::LogDetail).
const MLLOGPrefix = ":::MLLOG"

// Entry is one ":::MLLOG {json}" line of mlperf_log_detail.txt.
type Entry struct {
	// Key names what was logged ("result_validity", "effective_target_qps").
	Key string `json:"key"`
	// Value is the logged value as LoadGen wrote it.
	Value json.RawMessage `json:"value"`
	// TimeMs is when it was logged, in milliseconds since LoadGen started.
	TimeMs float64 `json:"time_ms"`
	// Namespace and EventType are LoadGen's ("mlperf::logging",
	// "POINT_IN_TIME").
	Namespace string `json:"namespace"`
	EventType string `json:"event_type"`
	// Metadata says whether the line is an error or a warning, and where
	// in LoadGen's source it was logged.
	Metadata EntryMetadata `json:"metadata"`
	// Line is the line of the file it was read from (from 1; 0 if parsed
	// alone).
	Line int `json:"-"`
}

// EntryMetadata is an Entry's "metadata" object.
type EntryMetadata struct {
	IsError   bool   `json:"is_error"`
	IsWarning bool   `json:"is_warning"`
	File      string `json:"file"`
	LineNo    int    `json:"line_no"`
}

// ParseLine parses one detail-log line. It must start with MLLOGPrefix and
// hold a JSON object with a non-empty "key" and a "value".
func ParseLine(line []byte) (Entry, error) {
	line = bytes.TrimRight(line, " \t\r\n")
	rest, ok := bytes.CutPrefix(line, []byte(MLLOGPrefix))
	if !ok {
		return Entry{}, fmt.Errorf("does not start with %q", MLLOGPrefix)
	}
	var e Entry
	dec := json.NewDecoder(bytes.NewReader(rest))
	if err := dec.Decode(&e); err != nil {
		return Entry{}, fmt.Errorf("invalid %s JSON: %w", MLLOGPrefix, err)
	}
	if dec.More() {
		return Entry{}, fmt.Errorf("text after the %s JSON object", MLLOGPrefix)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return Entry{}, fmt.Errorf("text after the %s JSON object", MLLOGPrefix)
	}
	if e.Key == "" {
		return Entry{}, fmt.Errorf("%s object has no \"key\"", MLLOGPrefix)
	}
	if len(e.Value) == 0 {
		return Entry{}, fmt.Errorf("%s object %q has no \"value\"", MLLOGPrefix, e.Key)
	}
	return e, nil
}

// Detail is a parsed mlperf_log_detail.txt.
type Detail struct {
	// Path is the file read.
	Path string
	// Entries are the lines in order.
	Entries []Entry
	// first indexes the first entry of each key.
	first map[string]int
}

// ReadDetail reads and parses a detail log. Every non-blank line must be an
// MLLOG line: errors name the file and the line (from 1).
func ReadDetail(path string) (*Detail, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ParseDetail(f, path)
}

// ParseDetail parses a detail log read from r; name is used in errors.
func ParseDetail(r io.Reader, name string) (*Detail, error) {
	d := &Detail{Path: name, first: map[string]int{}}
	sc := bufio.NewScanner(r)
	// loaded_qsl_set lists every sample index on one line.
	sc.Buffer(make([]byte, 64<<10), 256<<20)
	n := 0
	for sc.Scan() {
		n++
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		e, err := ParseLine(sc.Bytes())
		if err != nil {
			return nil, fmt.Errorf("%s, line %d: %w", name, n, err)
		}
		e.Line = n
		if _, seen := d.first[e.Key]; !seen {
			d.first[e.Key] = len(d.Entries)
		}
		d.Entries = append(d.Entries, e)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s, line %d: %w", name, n+1, err)
	}
	if len(d.Entries) == 0 {
		return nil, fmt.Errorf("%s: no %s lines: not a LoadGen detail log", name, MLLOGPrefix)
	}
	return d, nil
}

// Has reports whether key was logged.
func (d *Detail) Has(key string) bool {
	_, ok := d.first[key]
	return ok
}

// Raw is the first value logged under key.
func (d *Detail) Raw(key string) (json.RawMessage, bool) {
	i, ok := d.first[key]
	if !ok {
		return nil, false
	}
	return d.Entries[i].Value, true
}

// String is key's first value, which must be a JSON string.
func (d *Detail) String(key string) (string, bool, error) {
	raw, ok := d.Raw(key)
	if !ok {
		return "", false, nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", true, d.typeError(key, "a string")
	}
	return s, true, nil
}

// Float is key's first value, which must be a JSON number.
func (d *Detail) Float(key string) (float64, bool, error) {
	raw, ok := d.Raw(key)
	if !ok {
		return 0, false, nil
	}
	var f float64
	if err := json.Unmarshal(raw, &f); err != nil {
		return 0, true, d.typeError(key, "a number")
	}
	return f, true, nil
}

// Bool is key's first value, which must be a JSON boolean.
func (d *Detail) Bool(key string) (bool, bool, error) {
	raw, ok := d.Raw(key)
	if !ok {
		return false, false, nil
	}
	var b bool
	if err := json.Unmarshal(raw, &b); err != nil {
		return false, true, d.typeError(key, "true or false")
	}
	return b, true, nil
}

func (d *Detail) typeError(key, want string) error {
	e := d.Entries[d.first[key]]
	return fmt.Errorf("%s, line %d: %q is %s, want %s", d.Path, e.Line, key, truncate(string(e.Value), 60), want)
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
