package mllog

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"strings"
)

// Summary is what LoadGen's mlperf_log_summary.txt says, line by line.
type Summary struct {
	// Valid is true when LoadGen wrote "Result is : VALID".
	Valid bool
	// Result is the raw result word ("VALID", "INVALID"), empty if absent.
	Result string
	// Metrics are the "name : value" lines LoadGen prints between the
	// header and the result line (scenario, mode, the headline metric,
	// token rates), in order.
	Metrics [][2]string
	// Values holds every "name : value" line of the file, the detailed
	// statistics after the result line included (latency percentiles,
	// first-token latency, time per output token), by name.
	Values map[string]string
}

// ErrNoResult is wrapped by ReadSummary's error when the file has no
// "Result is" line: LoadGen did not finish the test.
var ErrNoResult = errors.New("LoadGen did not finish the test")

// ReadSummary parses the summary file LoadGen wrote (results.cc,
// PerformanceSummary::LogSummary): a "MLPerf Results Summary" banner,
// "key : value" lines with the headline metrics, then "Result is : …".
// A file without the verdict line returns what it holds and an error
// wrapping ErrNoResult.
func ReadSummary(path string) (Summary, error) {
	f, err := os.Open(path)
	if err != nil {
		return Summary{}, fmt.Errorf("reading LoadGen summary: %w", err)
	}
	defer f.Close()
	s := Summary{Values: map[string]string{}}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	header := false
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "MLPerf Results Summary") {
			header = true
			continue
		}
		k, v, ok := strings.Cut(line, ":")
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if ok && k != "" && v != "" {
			if _, dup := s.Values[k]; !dup {
				s.Values[k] = v
			}
		}
		if strings.HasPrefix(line, "Result is") {
			s.Result, s.Valid = v, v == ResultValid
			header = false
			continue
		}
		if header && ok && k != "" && !strings.HasPrefix(k, "SUT name") {
			s.Metrics = append(s.Metrics, [2]string{k, v})
		}
	}
	if err := sc.Err(); err != nil {
		return s, fmt.Errorf("reading %s: %w", path, err)
	}
	if s.Result == "" {
		return s, fmt.Errorf("%s has no \"Result is\" line: %w", path, ErrNoResult)
	}
	return s, nil
}
