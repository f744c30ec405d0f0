package codetest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// LoadLCB reads LiveCodeBench problems as Hugging Face's
// livecodebench/code_generation_lite ships them: JSON-lines files, one
// question per line with question_id, public_test_cases, private_test_cases
// and metadata. path is one such file or a folder of them (test.jsonl …
// test6.jsonl: release_v6 is all six, release_v1 test.jsonl alone; every
// .jsonl file of the folder is read). Errors name the file and line.
func LoadLCB(path string) (map[string]Problem, error) {
	files := []string{path}
	if st, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("LiveCodeBench problems: %w", err)
	} else if st.IsDir() {
		files, _ = filepath.Glob(filepath.Join(path, "*.jsonl"))
		sort.Strings(files)
		if len(files) == 0 {
			return nil, fmt.Errorf("LiveCodeBench problems: %s holds no .jsonl file (code_generation_lite's test*.jsonl)", path)
		}
	}
	out := map[string]Problem{}
	for _, f := range files {
		if err := loadLCBFile(f, out); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func loadLCBFile(path string, out map[string]Problem) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("LiveCodeBench problems: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<30) // private tests run to hundreds of MB per line
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		var row struct {
			ID       string `json:"question_id"`
			Public   string `json:"public_test_cases"`
			Private  string `json:"private_test_cases"`
			Metadata string `json:"metadata"`
		}
		if err := json.Unmarshal([]byte(line), &row); err != nil {
			return fmt.Errorf("%s:%d: not a code_generation_lite row: %v", path, n, err)
		}
		if row.ID == "" {
			return fmt.Errorf("%s:%d: the row has no question_id", path, n)
		}
		p, err := DecodeLCB(row.ID, row.Public, row.Private, row.Metadata)
		if err != nil {
			return fmt.Errorf("%s:%d: %w", path, n, err)
		}
		out[row.ID] = p
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}
