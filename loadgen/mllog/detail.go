package mllog

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
)

// Prefix starts every line of LoadGen's detail log
// (logging.cc, AsyncLog::LogDetail).
const Prefix = ":::MLLOG"

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

// ParseLine parses one detail-log line. It must start with Prefix and hold
// a JSON object with a non-empty "key" and a "value".
func ParseLine(line []byte) (Entry, error) {
	line = bytes.TrimRight(line, " \t\r\n\v\f")
	rest, ok := bytes.CutPrefix(line, []byte(Prefix))
	if !ok {
		return Entry{}, fmt.Errorf("does not start with %q", Prefix)
	}
	var e Entry
	dec := json.NewDecoder(bytes.NewReader(rest))
	if err := dec.Decode(&e); err != nil {
		return Entry{}, fmt.Errorf("invalid %s JSON: %w", Prefix, err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return Entry{}, fmt.Errorf("text after the %s JSON object", Prefix)
	}
	if e.Key == "" {
		return Entry{}, fmt.Errorf("%s object has no \"key\"", Prefix)
	}
	if len(e.Value) == 0 {
		return Entry{}, fmt.Errorf("%s object %q has no \"value\"", Prefix, e.Key)
	}
	return e, nil
}

// Detail is a parsed mlperf_log_detail.txt. A key logged more than once
// yields its first value, as the official checker reads it.
type Detail struct {
	// Path is the file read.
	Path string
	// Entries are the MLLOG lines in order.
	Entries []Entry
	// first indexes the first entry of each key.
	first map[string]int
}

// Strictness says which lines a detail log may hold besides MLLOG lines.
type Strictness int

const (
	// Strict: every non-blank line must be an MLLOG line, as LoadGen writes
	// them (what the harness reads back from its own runs).
	Strict Strictness = iota
	// AsChecker reads the log as the official submission checker's
	// LoadgenParser does (tools/submission/submission_checker/parsers/
	// loadgen_parser.py): the first line must be an MLLOG line and other
	// lines that are not are ignored.
	AsChecker
)

// ReadDetail reads and parses the detail log at path; errors name the file
// and the line (from 1).
func ReadDetail(path string, s Strictness) (*Detail, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ParseDetail(f, path, s)
}

// ParseDetail parses a detail log read from r; name is used in errors.
func ParseDetail(r io.Reader, name string, s Strictness) (*Detail, error) {
	d := &Detail{Path: name, first: map[string]int{}}
	sc := bufio.NewScanner(r)
	// loaded_qsl_set lists every sample index on one line.
	sc.Buffer(make([]byte, 64<<10), 256<<20)
	n := 0
	for sc.Scan() {
		n++
		line := sc.Bytes()
		if !bytes.HasPrefix(line, []byte(Prefix)) {
			switch {
			case s == AsChecker && n == 1:
				return nil, fmt.Errorf("%s, line 1 does not start with %q: not a LoadGen detail log in the new logging format", name, Prefix)
			case s == AsChecker || len(bytes.TrimSpace(line)) == 0:
				continue
			}
		}
		e, err := ParseLine(line)
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
		return nil, fmt.Errorf("%s: no %s lines: not a LoadGen detail log", name, Prefix)
	}
	return d, nil
}

// Has reports whether key was logged.
func (d *Detail) Has(key string) bool {
	_, ok := d.first[key]
	return ok
}

// Keys are the keys logged, each once, in the order first logged.
func (d *Detail) Keys() []string {
	var keys []string
	for i, e := range d.Entries {
		if d.first[e.Key] == i {
			keys = append(keys, e.Key)
		}
	}
	return keys
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

// Text is key's first value as the checker turns it into text: a JSON
// string unquoted, anything else as written; false when not logged.
func (d *Detail) Text(key string) (string, bool) {
	raw, ok := d.Raw(key)
	if !ok {
		return "", false
	}
	return rawText(raw), true
}

// Number is key's first value as the checker compares numbers: kept as
// decimal text, so uint64 seeds above 2^53 compare exactly; true and false
// read as 1 and 0, as in Python. A missing key is an error.
func (d *Detail) Number(key string) (json.Number, error) {
	raw, ok := d.Raw(key)
	if !ok {
		return "", fmt.Errorf("key %q is missing", key)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var x any
	if err := dec.Decode(&x); err != nil {
		return "", fmt.Errorf("key %q: %v", key, err)
	}
	switch t := x.(type) {
	case json.Number:
		return t, nil
	case bool:
		if t {
			return "1", nil
		}
		return "0", nil
	}
	return "", fmt.Errorf("key %q is %s, not a number", key, string(raw))
}

// NumberFloat is Number as a float64.
func (d *Detail) NumberFloat(key string) (float64, error) {
	n, err := d.Number(key)
	if err != nil {
		return 0, err
	}
	f, err := strconv.ParseFloat(string(n), 64)
	if err != nil {
		return 0, fmt.Errorf("key %q: %v", key, err)
	}
	return f, nil
}

// Uint is Number as a uint64; negative or fractional values are errors.
func (d *Detail) Uint(key string) (uint64, error) {
	n, err := d.Number(key)
	if err != nil {
		return 0, err
	}
	u, err := strconv.ParseUint(string(n), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("key %q = %s is not an unsigned integer", key, n)
	}
	return u, nil
}

// Truth is key's first value as the checker tests it: JSON true/false, or a
// number other than 0. A missing key is an error.
func (d *Detail) Truth(key string) (bool, error) {
	raw, ok := d.Raw(key)
	if !ok {
		return false, fmt.Errorf("key %q is missing", key)
	}
	var b bool
	if json.Unmarshal(raw, &b) == nil {
		return b, nil
	}
	f, err := d.NumberFloat(key)
	if err != nil {
		return false, err
	}
	return f != 0, nil
}

// Errors lists the messages LoadGen flagged as errors ("key: value").
func (d *Detail) Errors() []string { return d.flagged(func(m EntryMetadata) bool { return m.IsError }) }

// Warnings lists the messages LoadGen flagged as warnings.
func (d *Detail) Warnings() []string {
	return d.flagged(func(m EntryMetadata) bool { return m.IsWarning })
}

func (d *Detail) flagged(is func(EntryMetadata) bool) []string {
	var out []string
	for _, e := range d.Entries {
		if is(e.Metadata) {
			out = append(out, fmt.Sprintf("%s: %s", e.Key, rawText(e.Value)))
		}
	}
	return out
}

func (d *Detail) typeError(key, want string) error {
	e := d.Entries[d.first[key]]
	return fmt.Errorf("%s, line %d: %q is %s, want %s", d.Path, e.Line, key, truncate(string(e.Value), 60), want)
}

// rawText renders a JSON value for a message: strings unquoted.
func rawText(v json.RawMessage) string {
	var s string
	if json.Unmarshal(v, &s) == nil {
		return s
	}
	return string(v)
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
