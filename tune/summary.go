package tune

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/mlperf-go/mlperf-go/internal/atomicfile"
)

// SummaryFile is the name of the record a tune writes in its folder,
// rewritten after every trial so an interrupted tune keeps what it found.
const SummaryFile = "tune.json"

// SummarySchema identifies the format of tune.json.
const SummarySchema = "mlperf-go/tune/v1"

// Summary is the content of tune.json.
type Summary struct {
	// Schema is always SummarySchema.
	Schema string `json:"schema"`
	// Search is "server-qps" or "offline-concurrency".
	Search string `json:"search"`
	// Benchmark is LoadGen's model name (an -interactive variant's for
	// Interactive); Scenario the scenario tuned (Server, Interactive,
	// Offline).
	Benchmark string `json:"benchmark"`
	Scenario  string `json:"scenario"`
	// Start is when the tune began.
	Start time.Time `json:"start"`
	// Trials are the trials run, in order.
	Trials []Trial `json:"trials"`
	// QPS and Concurrency are the result of the search that ran, once it
	// ended (nil while it runs).
	QPS         *QPSResult   `json:"qps,omitempty"`
	Concurrency *SweepResult `json:"concurrency,omitempty"`
}

// write rewrites tune.json atomically, so that a reader never sees half
// of it.
func (ts *Trials) write() error {
	b, err := json.MarshalIndent(ts.summary, "", "  ")
	if err != nil {
		return err
	}
	if err := atomicfile.Write(filepath.Join(ts.Dir, SummaryFile), append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("writing %s: %w", SummaryFile, err)
	}
	return nil
}

// begin starts a search's record.
func (ts *Trials) begin(search, scenario string) error {
	if err := ts.mkdir(); err != nil {
		return err
	}
	ts.summary = Summary{Schema: SummarySchema, Search: search, Benchmark: ts.Base.Benchmark.Name,
		Scenario: scenario, Start: time.Now().UTC(), Trials: []Trial{}}
	return ts.write()
}

// ReadSummary reads the tune.json in dir.
func ReadSummary(dir string) (*Summary, error) {
	b, err := os.ReadFile(filepath.Join(dir, SummaryFile))
	if err != nil {
		return nil, err
	}
	var s Summary
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, SummaryFile), err)
	}
	return &s, nil
}
