package benchmark

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
)

// SampleVerdict is what a scorer made of one sample's answer: one line of
// the file EvalOptions.Verdicts names, so a score can be audited against
// the reference's sample by sample.
type SampleVerdict struct {
	// Index is the sample's qsl_idx.
	Index int `json:"index"`
	// Subset is the sub-dataset the sample belongs to ("" when the
	// benchmark has none).
	Subset string `json:"subset,omitempty"`
	// Extracted is what the scorer read from the answer: the letter, the
	// boxed expression, the integer, the code, the tool calls as JSON, the
	// normalized transcript, the decoded text; null when nothing was found.
	Extracted *string `json:"extracted"`
	// Correct is the verdict of benchmarks that grade right or wrong.
	Correct *bool `json:"correct,omitempty"`
	// Metrics are the per-sample numbers of benchmarks that score a
	// number per answer (ROUGE F-measures, word errors, F1).
	Metrics map[string]float64 `json:"metrics,omitempty"`
	// Why says what decided the verdict, in the reference's words where it
	// has them.
	Why string `json:"why,omitempty"`
}

// Extracted returns s as a SampleVerdict.Extracted, or nil when found is
// false.
func Extracted(s string, found bool) *string {
	if !found {
		return nil
	}
	return &s
}

// Verdict returns ok as a SampleVerdict.Correct.
func Verdict(ok bool) *bool { return &ok }

// WriteVerdicts writes vs to path as JSON lines, one sample a line in the
// order given. An empty path writes nothing.
func WriteVerdicts(path string, vs []SampleVerdict) error {
	if path == "" {
		return nil
	}
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("per-sample verdicts: %w", err)
	}
	w := bufio.NewWriter(f)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for _, v := range vs {
		if err := enc.Encode(v); err != nil {
			f.Close()
			return fmt.Errorf("per-sample verdicts: sample %d: %w", v.Index, err)
		}
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return fmt.Errorf("per-sample verdicts %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("per-sample verdicts %s: %w", path, err)
	}
	return nil
}

// ReadVerdicts reads a file WriteVerdicts wrote.
func ReadVerdicts(path string) ([]SampleVerdict, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("per-sample verdicts: %w", err)
	}
	defer f.Close()
	var vs []SampleVerdict
	dec := json.NewDecoder(f)
	for dec.More() {
		var v SampleVerdict
		if err := dec.Decode(&v); err != nil {
			return nil, fmt.Errorf("per-sample verdicts %s: line %d: %w", path, len(vs)+1, err)
		}
		vs = append(vs, v)
	}
	return vs, nil
}
