package submission

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// The audit.config files are byte-for-byte copies of the reference's
// configuration data (mlcommons/inference at b66003e1):
//
//	auditconfig/TEST06.audit.config              compliance/TEST06/audit.config (git blob 090ec03b)
//	auditconfig/TEST07-gpt-oss-120b.audit.config compliance/TEST07/gpt-oss-120b/audit.config (blob dc0b9fd1)
//	auditconfig/TEST09-gpt-oss-120b.audit.config compliance/TEST09/gpt-oss-120b/audit.config (blob 8f9d7a4e)
//
// TEST06 has one generic file (no benchmark variant); TEST07 and TEST09 exist
// only per benchmark. The TEST06 file has no trailing newline, as upstream.
//
//go:embed auditconfig/*.audit.config
var auditConfigs embed.FS

// auditConfigFile maps (test, benchmark) to the embedded file.
var auditConfigFile = map[[2]string]string{
	{TEST06, BenchmarkLlama8B}: "auditconfig/TEST06.audit.config",
	{TEST07, BenchmarkGPTOSS}:  "auditconfig/TEST07-gpt-oss-120b.audit.config",
	{TEST09, BenchmarkGPTOSS}:  "auditconfig/TEST09-gpt-oss-120b.audit.config",
}

// AuditConfig returns the official audit.config content for a compliance test
// and benchmark, or an error if the benchmark does not take that test
// (qwen3-vl-235b-a22b takes none; llama3.1-8b takes TEST06; gpt-oss-120b takes
// TEST07 and TEST09).
func AuditConfig(test, benchmark string) ([]byte, error) {
	b, err := CanonicalBenchmark(benchmark)
	if err != nil {
		return nil, err
	}
	name, ok := auditConfigFile[[2]string{test, b}]
	if !ok {
		return nil, fmt.Errorf("submission: %s has no compliance test %q (compliance tests: %s TEST06; %s TEST07, TEST09; %s none)",
			b, test, BenchmarkLlama8B, BenchmarkGPTOSS, BenchmarkQwen3VL)
	}
	return auditConfigs.ReadFile(name)
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
	path := filepath.Join(dir, "audit.config")
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
