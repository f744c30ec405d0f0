package run

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mlperf-go/mlperf-go/internal/breakdown"
	"github.com/mlperf-go/mlperf-go/loadgen"
	"github.com/mlperf-go/mlperf-go/sut"
)

// TestOfflineLogsNoHarnessLatency: in Offline, where every sample is
// issued at once, the harness's parts are the workers' start-up burst and
// the log does not call them what the harness added; in Server it does.
// The breakdown file is written in both.
func TestOfflineLogsNoHarnessLatency(t *testing.T) {
	t.Parallel()
	for _, sc := range []loadgen.Scenario{loadgen.Offline, loadgen.Server} {
		var logs syncBuffer
		dir := t.TempDir()
		recordLatency(dir, sc, false, sut.Breakdown{}, debugLogger(&logs))
		if said := strings.Contains(logs.String(), "latency the harness added"); said != (sc != loadgen.Offline) {
			t.Errorf("%s: log %q", sc, logs.String())
		}
		if _, err := os.Stat(filepath.Join(dir, breakdown.File)); err != nil {
			t.Errorf("%s: %v", sc, err)
		}
	}
}
