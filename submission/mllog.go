package submission

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// mllogMarker starts every line of LoadGen's detail log in the new logging
// format (loadgen/logging.h, AsyncLog::LogDetail).
const mllogMarker = ":::MLLOG"

// mllogMessage is one detail-log line.
type mllogMessage struct {
	Key      string          `json:"key"`
	Value    json.RawMessage `json:"value"`
	Metadata struct {
		IsError   bool `json:"is_error"`
		IsWarning bool `json:"is_warning"`
	} `json:"metadata"`
}

// DetailLog is a parsed mlperf_log_detail.txt, read as the checker's
// LoadgenParser reads it (parsers/loadgen_parser.py): the first line must
// start with ":::MLLOG", every line that starts with it must hold a JSON
// object with "key" and "value", other lines are ignored, and a key logged
// more than once yields its first value.
type DetailLog struct {
	first    map[string]json.RawMessage
	errors   []string
	warnings []string
}

// ReadDetailLog parses the detail log at path.
func ReadDetailLog(path string) (*DetailLog, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	d, err := ParseDetailLog(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return d, nil
}

// ParseDetailLog parses a detail log. Errors name the offending line (from 1).
func ParseDetailLog(r io.Reader) (*DetailLog, error) {
	d := &DetailLog{first: map[string]json.RawMessage{}}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 64*1024*1024)
	n := 0
	for sc.Scan() {
		n++
		// Python's rstrip() removes all trailing whitespace.
		line := strings.TrimRight(sc.Text(), " \t\r\n\v\f")
		if !strings.HasPrefix(line, mllogMarker) {
			if n == 1 {
				return nil, fmt.Errorf("line 1 does not start with %q: not a LoadGen detail log in the new logging format", mllogMarker)
			}
			continue
		}
		var m mllogMessage
		if err := json.Unmarshal([]byte(line[len(mllogMarker):]), &m); err != nil {
			return nil, fmt.Errorf("line %d: invalid %s JSON: %v", n, mllogMarker, err)
		}
		if _, ok := d.first[m.Key]; !ok {
			d.first[m.Key] = m.Value
		}
		if m.Metadata.IsError {
			d.errors = append(d.errors, fmt.Sprintf("%s: %s", m.Key, rawString(m.Value)))
		}
		if m.Metadata.IsWarning {
			d.warnings = append(d.warnings, fmt.Sprintf("%s: %s", m.Key, rawString(m.Value)))
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, fmt.Errorf("empty detail log")
	}
	return d, nil
}

// rawString renders a JSON value for a message: strings unquoted.
func rawString(v json.RawMessage) string {
	var s string
	if json.Unmarshal(v, &s) == nil {
		return s
	}
	return string(v)
}

// Has reports whether key was logged.
func (d *DetailLog) Has(key string) bool {
	_, ok := d.first[key]
	return ok
}

// String returns key's value as a string (JSON strings unquoted) and whether
// the key was logged.
func (d *DetailLog) String(key string) (string, bool) {
	v, ok := d.first[key]
	if !ok {
		return "", false
	}
	return rawString(v), true
}

// Number returns key's numeric value. Values are kept as decimal text, so
// uint64 seeds above 2^53 compare exactly.
func (d *DetailLog) Number(key string) (json.Number, error) {
	v, ok := d.first[key]
	if !ok {
		return "", fmt.Errorf("key %q is missing", key)
	}
	dec := json.NewDecoder(bytes.NewReader(v))
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
	return "", fmt.Errorf("key %q is %s, not a number", key, string(v))
}

// Float returns key's value as float64.
func (d *DetailLog) Float(key string) (float64, error) {
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

// Uint returns key's value as uint64; it fails for negative or fractional
// values.
func (d *DetailLog) Uint(key string) (uint64, error) {
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

// Bool returns key's value as a bool (JSON true/false, or a number ≠ 0).
func (d *DetailLog) Bool(key string) (bool, error) {
	v, ok := d.first[key]
	if !ok {
		return false, fmt.Errorf("key %q is missing", key)
	}
	var b bool
	if json.Unmarshal(v, &b) == nil {
		return b, nil
	}
	f, err := d.Float(key)
	if err != nil {
		return false, err
	}
	return f != 0, nil
}

// Errors lists the messages LoadGen flagged as errors ("key: value").
func (d *DetailLog) Errors() []string { return d.errors }

// Warnings lists the messages LoadGen flagged as warnings.
func (d *DetailLog) Warnings() []string { return d.warnings }

// SummaryResult reads mlperf_log_summary.txt and returns what follows
// "Result is : " ("VALID" or "INVALID"), or an error if the line is missing.
func SummaryResult(path string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	for _, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		if v, ok := strings.CutPrefix(line, "Result is :"); ok {
			return strings.TrimSpace(v), nil
		}
	}
	return "", fmt.Errorf("%s has no \"Result is :\" line: not a complete LoadGen summary", path)
}

func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }
