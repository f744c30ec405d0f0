package tokencheck

import (
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckLog: a log that fails a hard check still gives its entries (the
// evaluators score it) with Failure ErrChecksFailed; a clean log has no
// failure; a log that cannot be read is the error.
func TestCheckLog(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name string, idx ...int) string {
		var b strings.Builder
		b.WriteString("[\n")
		for i, q := range idx {
			if i > 0 {
				b.WriteString(",\n")
			}
			fmt.Fprintf(&b, `{"seq_id": %d, "qsl_idx": %d, "data": %q, "token_count": 1}`, i, q, strings.ToUpper(hex.EncodeToString([]byte{7, 0, 0, 0})))
		}
		b.WriteString("\n]\n")
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	info := DatasetInfo{Benchmark: "x", Samples: 2, Vocab: 10}
	entries, ev, err := CheckLog(write("dup.json", 0, 1, 1), info)
	if err != nil || len(entries) != 3 || !errors.Is(ev.Failure, ErrChecksFailed) || !strings.Contains(ev.Report, "duplicate") {
		t.Errorf("duplicated index: %d entries, failure %v, error %v\n%s", len(entries), ev.Failure, err, ev.Report)
	}
	entries, ev, err = CheckLog(write("ok.json", 1, 0), info)
	if err != nil || len(entries) != 2 || ev.Failure != nil || ev.Report == "" {
		t.Errorf("clean log: %d entries, failure %v, error %v\n%s", len(entries), ev.Failure, err, ev.Report)
	}
	if _, _, err := CheckLog(filepath.Join(dir, "none.json"), info); err == nil {
		t.Error("a missing log was read")
	}
}
