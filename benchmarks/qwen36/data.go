package qwen36

import (
	"archive/zip"
	"bufio"
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/mlperf-go/mlperf-go/score/bfcl"
	"github.com/mlperf-go/mlperf-go/score/bfcl/pyval"
)

// The accuracy set is read from the BFCL v4 data files the PyPI wheel
// bfcl-eval 2026.3.23 ships (bfcl_eval/data/BFCL_v4_<subset>.json and
// possible_answer/BFCL_v4_<subset>.json), which is where endpoints' dataset
// builder reads them (dataset_manager/predefined/bfcl_v4, _find_data_file).

// bfclPins are the sha256 of the wheel and of each data file, as
// testdata/gen_golden.py computed them from the wheel pip downloads from
// PyPI. BFCL data: Apache-2.0, the Berkeley Function Calling Leaderboard
// authors.
//
//go:embed bfcl_pins.json
var bfclPinsJSON []byte

type pinSet struct {
	Wheel       string            `json:"wheel"`
	WheelSHA256 string            `json:"wheel_sha256"`
	Files       map[string]string `json:"files"`
}

var bfclPins = func() pinSet {
	var p pinSet
	if err := json.Unmarshal(bfclPinsJSON, &p); err != nil {
		panic("qwen36: bfcl_pins.json: " + err.Error())
	}
	return p
}()

// dataPrefix is the data files' folder inside the wheel.
const dataPrefix = "bfcl_eval/data/"

// fileSource reads the data files of one wheel or folder.
type fileSource interface {
	// read returns the file at a path relative to bfcl_eval/data/, or an
	// error wrapping fs.ErrNotExist.
	read(rel string) ([]byte, error)
	where() string
}

type zipSource struct {
	path string
	z    *zip.ReadCloser
}

func (s *zipSource) read(rel string) ([]byte, error) {
	f, err := s.z.Open(dataPrefix + rel)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}

func (s *zipSource) where() string { return s.path }

type dirSource struct{ dir string }

func (s dirSource) read(rel string) ([]byte, error) {
	return os.ReadFile(filepath.Join(s.dir, filepath.FromSlash(rel)))
}

func (s dirSource) where() string { return s.dir }

// openSource finds the data files at path: a .whl file, the wheel's
// bfcl_eval/data folder, a folder holding it (bfcl_eval, an unpacked wheel
// or site-packages), or a folder `dataset synth` wrote.
func openSource(path string) (fileSource, io.Closer, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, nil, fmt.Errorf("qwen3.6-27b dataset: %w (pass the bfcl-eval %s wheel or its bfcl_eval/data folder: %s)", err, bfclVersion, fetchHint)
	}
	if !st.IsDir() {
		z, err := zip.OpenReader(path)
		if err != nil {
			return nil, nil, fmt.Errorf("qwen3.6-27b dataset: %s is not a wheel (a zip file): %v (%s)", path, err, fetchHint)
		}
		return &zipSource{path: path, z: z}, z, nil
	}
	for _, dir := range []string{path, filepath.Join(path, "data"), filepath.Join(path, "bfcl_eval", "data")} {
		if _, err := os.Stat(filepath.Join(dir, fileOf(bfcl.Categories[0].Subsets[0]))); err == nil {
			return dirSource{dir}, io.NopCloser(nil), nil
		}
	}
	return nil, nil, fmt.Errorf("qwen3.6-27b dataset: %s holds no %s (nor data/ or bfcl_eval/data/ below it): pass the bfcl-eval %s wheel or its bfcl_eval/data folder (%s)", path, fileOf("simple_python"), bfclVersion, fetchHint)
}

// bfclVersion is the bfcl-eval release endpoints pins (pyproject.toml's
// bfcl extra).
const bfclVersion = "2026.3.23"

// fetchHint says how to get the wheel.
const fetchHint = "get it with `mlperf-go dataset download -b qwen3.6-27b --out DIR` (then --dataset DIR), or `pip download --no-deps bfcl-eval==" + bfclVersion + "`"

func fileOf(subset string) string     { return "BFCL_v4_" + subset + ".json" }
func answersOf(subset string) string  { return "possible_answer/BFCL_v4_" + subset + ".json" }
func pinOf(rel string) (string, bool) { p, ok := bfclPins.Files[dataPrefix+rel]; return p, ok }
func digest(b []byte) string          { s := sha256.Sum256(b); return hex.EncodeToString(s[:]) }
func isMissing(err error) bool        { return errors.Is(err, fs.ErrNotExist) }

// bfclRecord is one BFCL sample as endpoints' _load_subset reads it: the
// question line's object with its ground_truth merged in.
type bfclRecord struct {
	subset string
	sample pyval.Value // a dict
}

// readSubset reads one subset's questions and possible answers, in file
// order, noting files that differ from the pins.
func readSubset(src fileSource, subset string, mismatch *[]string) ([]bfclRecord, error) {
	q, err := src.read(fileOf(subset))
	if err != nil {
		return nil, fmt.Errorf("qwen3.6-27b dataset: %s: %w", src.where(), err)
	}
	checkPin(fileOf(subset), q, mismatch)
	truths := map[string]pyval.Value{}
	a, err := src.read(answersOf(subset))
	switch {
	case err == nil:
		checkPin(answersOf(subset), a, mismatch)
		err = eachLine(a, func(v pyval.Value) error {
			id, _ := v.GetStr("id")
			if id.Truth() && id.Kind == pyval.StrKind {
				gt, ok := v.GetStr("ground_truth")
				if !ok {
					gt = pyval.List()
				}
				truths[id.Str] = gt
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("qwen3.6-27b dataset: %s: %s: %w", src.where(), answersOf(subset), err)
		}
	case !isMissing(err):
		return nil, fmt.Errorf("qwen3.6-27b dataset: %s: %w", src.where(), err)
	}
	var out []bfclRecord
	err = eachLine(q, func(v pyval.Value) error {
		if v.Kind != pyval.DictKind {
			return errors.New("a line is not a JSON object")
		}
		id, _ := v.GetStr("id")
		if gt, ok := truths[id.Str]; ok && id.Kind == pyval.StrKind {
			var d pyval.DictBuilder
			for i, k := range v.Keys {
				_ = d.Set(k, v.Vals[i])
			}
			_ = d.Set(pyval.Str("ground_truth"), gt)
			v = d.Dict()
		}
		out = append(out, bfclRecord{subset: subset, sample: v})
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("qwen3.6-27b dataset: %s: %s: %w", src.where(), fileOf(subset), err)
	}
	return out, nil
}

func checkPin(rel string, b []byte, mismatch *[]string) {
	if want, ok := pinOf(rel); !ok || want != digest(b) {
		*mismatch = append(*mismatch, rel)
	}
}

// eachLine calls fn with json.loads of each non-blank line (stripped),
// as endpoints reads the files.
func eachLine(b []byte, fn func(pyval.Value) error) error {
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 64<<20)
	n := 0
	for sc.Scan() {
		n++
		line := pyval.Strip(strings.TrimSuffix(sc.Text(), "\r"))
		if line == "" {
			continue
		}
		v, err := pyval.Loads(line)
		if err != nil {
			return fmt.Errorf("line %d: %v", n, err)
		}
		if err := fn(v); err != nil {
			return fmt.Errorf("line %d: %v", n, err)
		}
	}
	return sc.Err()
}
