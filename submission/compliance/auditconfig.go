// Package compliance runs MLPerf Inference compliance tests as the official
// compliance/TEST0x scripts do: WriteAuditConfig puts a test's official
// audit.config where LoadGen reads it for one run, and Verify judges the
// run's accuracy log as the test's run_verification.py does (VerifyTEST06,
// VerifyTEST09, and TEST07 scored in Go by ScoreTEST07 or by the official
// accuracy script, RunTEST07): a Verification holds the verify_*.txt file
// with the reference's exact text, and the verdict, check by check, that
// the run record keeps.
package compliance

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/mlperf-go/mlperf-go/loadgen"
	"github.com/mlperf-go/mlperf-go/submission"
)

// AuditConfig returns the official audit.config content for a compliance test
// and benchmark, from the benchmark's registry entry (each benchmark embeds
// byte-for-byte copies of the reference's files), or an error if the
// benchmark does not take that test.
func AuditConfig(test, name string) ([]byte, error) {
	c, err := submission.LookupCompliance(test, name)
	if err != nil {
		return nil, err
	}
	return c.AuditConfig, nil
}

// WriteAuditConfig writes the official audit.config for test and benchmark
// into dir, the directory LoadGen will run in (LoadGen reads "audit.config"
// from its working directory). It refuses if dir already holds an
// audit.config, since that one would be silently replaced or, worse, left to
// turn a later performance run into a compliance run. cleanup removes the file
// again; call it when the run ends, whatever its outcome. cleanup is safe to
// call more than once and does not fail if the file is already gone.
func WriteAuditConfig(dir, test, benchmark string) (cleanup func() error, err error) {
	content, err := AuditConfig(test, benchmark)
	if err != nil {
		return nil, err
	}
	path := filepath.Join(dir, loadgen.AuditConfigFile)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		if errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("submission: %s already exists: remove it (a leftover from an earlier compliance run?) before starting the %s run", path, test)
		}
		return nil, fmt.Errorf("submission: writing audit.config: %w", err)
	}
	if _, err := f.Write(content); err != nil {
		f.Close()
		os.Remove(path)
		return nil, fmt.Errorf("submission: writing %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		os.Remove(path)
		return nil, fmt.Errorf("submission: writing %s: %w", path, err)
	}
	return func() error {
		if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("submission: removing %s: %w", path, err)
		}
		return nil
	}, nil
}

// auditSetting reads a "*.*.<name> = value" setting from an embedded
// audit.config, as the TEST07/TEST09 scripts' parse_audit_config do
// (ignoring comments, taking the last part of the dotted key).
func auditSetting(test, benchmark, name string) (float64, error) {
	content, err := AuditConfig(test, benchmark)
	if err != nil {
		return 0, err
	}
	sc := bufio.NewScanner(bytes.NewReader(content))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		parts := strings.Split(strings.TrimSpace(k), ".")
		if len(parts) < 3 || parts[len(parts)-1] != name {
			continue
		}
		v, _, _ = strings.Cut(v, "#")
		return strconv.ParseFloat(strings.TrimSpace(v), 64)
	}
	return 0, fmt.Errorf("submission: the %s audit.config for %s has no %s", test, benchmark, name)
}
