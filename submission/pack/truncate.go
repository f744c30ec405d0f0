package pack

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/mlperf-go/mlperf-go/loadgen/mllog"
	"github.com/mlperf-go/mlperf-go/record"
	"github.com/mlperf-go/mlperf-go/submission"
)

// viewableSize is how much of each end of an accuracy log the official
// truncation keeps (VIEWABLE_SIZE in tools/submission/truncate_accuracy_log.py).
const viewableSize = 4096

// TruncateAccuracyDir applies the official truncation
// (tools/submission/truncate_accuracy_log.py, truncate_results_dir and
// truncate_file) to dir/accuracy, where dir is a scenario directory
// (test "") or a compliance test directory (test "TEST07" or "TEST09"; the
// tool leaves TEST06's log alone, and so does this function). It reports
// whether it changed anything. Step by step, as the tool does:
//
//  1. For a scenario directory, accuracy/accuracy.txt must exist; its first
//     line matching ^hash=… is the recorded hash. TEST07/TEST09 never have one.
//  2. If a hash is recorded and mlperf_log_accuracy.json is under 10,240
//     bytes, the log counts as already truncated: nothing changes.
//  3. Otherwise the SHA-256 of the whole log is recorded: appended to
//     accuracy.txt as "\nhash=<hex>\n", or, for TEST07/TEST09, written as the
//     whole accuracy.txt "hash=<hex>\n".
//  4. The log is cut only if it has at least 4,096 bytes: to its first 4,096
//     bytes, "\n\n...\n\n", and its last 4,096 bytes. (A log of 4,096 to 8,191
//     bytes therefore grows, as with the tool.)
//
// The tool reads the log as text and slices characters; LoadGen's accuracy log
// is ASCII (JSON with hex data), where characters are bytes, so this function
// slices bytes.
func TruncateAccuracyDir(dir, test string) (changed bool, err error) {
	switch test {
	case "", submission.TEST07, submission.TEST09, "TEST01":
	default:
		return false, nil
	}
	accDir := filepath.Join(dir, "accuracy")
	logPath := filepath.Join(accDir, mllog.AccuracyFile)
	txtPath := filepath.Join(accDir, record.AccuracyTxtFile)
	st, err := os.Stat(logPath)
	if err != nil {
		return false, fmt.Errorf("submission: %s is missing: %w", logPath, err)
	}
	recorded := ""
	if test != submission.TEST07 && test != submission.TEST09 {
		h, err := recordedHash(txtPath)
		if err != nil {
			return false, fmt.Errorf("submission: %s missing, generate it (run the evaluator) before packaging: %w", txtPath, err)
		}
		recorded = h
	}
	if recorded != "" && st.Size() < submission.MaxAccuracyLogSize {
		return false, nil
	}
	orig, err := os.ReadFile(logPath)
	if err != nil {
		return false, fmt.Errorf("submission: %w", err)
	}
	sum := sha256.Sum256(orig)
	hashText := hex.EncodeToString(sum[:])
	if test == submission.TEST07 || test == submission.TEST09 {
		if err := os.WriteFile(txtPath, []byte("hash="+hashText+"\n"), 0o644); err != nil {
			return false, fmt.Errorf("submission: %w", err)
		}
	} else {
		f, err := os.OpenFile(txtPath, os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			return false, fmt.Errorf("submission: %w", err)
		}
		if _, err := f.WriteString("\nhash=" + hashText + "\n"); err != nil {
			f.Close()
			return false, fmt.Errorf("submission: appending hash to %s: %w", txtPath, err)
		}
		if err := f.Close(); err != nil {
			return false, fmt.Errorf("submission: %w", err)
		}
	}
	if cut, ok := truncatedLog(orig); ok {
		if err := os.WriteFile(logPath, cut, 0o644); err != nil {
			return false, fmt.Errorf("submission: %w", err)
		}
	}
	return true, nil
}

// truncatedLog is truncate_file: first and last viewableSize bytes joined by
// "\n\n...\n\n"; ok is false (leave the file alone) below viewableSize.
func truncatedLog(orig []byte) ([]byte, bool) {
	if len(orig) < viewableSize {
		return nil, false
	}
	var b bytes.Buffer
	b.Write(orig[:viewableSize])
	b.WriteString("\n\n...\n\n")
	b.Write(orig[len(orig)-viewableSize:])
	return b.Bytes(), true
}

// recordedHash returns the first hash= value in accuracy.txt ("" if none).
func recordedHash(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	r := bufio.NewReader(f)
	for {
		line, err := r.ReadString('\n')
		// Python reads text with universal newlines: "\r\n" arrives as "\n".
		if strings.HasSuffix(line, "\r\n") {
			line = line[:len(line)-2] + "\n"
		}
		if h, ok := submission.ParseHashLine(line); ok {
			return h, nil
		}
		if err != nil {
			return "", nil
		}
	}
}
