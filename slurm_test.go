package mlperfgo_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestSubmitWithoutSlurm: scripts/slurm/submit.sh on a machine without
// Slurm's client tools says so, and how to see the commands it would run,
// before it creates anything, instead of bash's "sbatch: command not found".
// (make test-slurm runs the scripts on a real Slurm.)
func TestSubmitWithoutSlurm(t *testing.T) {
	t.Parallel()
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	// A PATH holding only the tools the script needs up to sbatch.
	bin := t.TempDir()
	for _, tool := range []string{"dirname", "mkdir"} {
		p, err := exec.LookPath(tool)
		if err != nil {
			t.Skipf("no %s", tool)
		}
		if err := os.Symlink(p, filepath.Join(bin, tool)); err != nil {
			t.Fatal(err)
		}
	}
	fakeBin := filepath.Join(t.TempDir(), "mlperf-go")
	if err := os.WriteFile(fakeBin, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	outRoot := filepath.Join(t.TempDir(), "out")
	cmd := exec.Command(bash, "scripts/slurm/submit.sh", "--bin", fakeBin, "--out-root", outRoot, "--", "-b", "llama3_1-8b")
	cmd.Env = []string{"PATH=" + bin}
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("submit.sh passed without sbatch:\n%s", out)
	}
	if s := string(out); strings.Contains(s, "command not found") || !strings.Contains(s, "sbatch") || !strings.Contains(s, "--dry-run") {
		t.Errorf("submit.sh without sbatch said:\n%s\nwant that Slurm's sbatch is missing and --dry-run", s)
	}
	if _, err := os.Stat(outRoot); !os.IsNotExist(err) {
		t.Errorf("--out-root was created: %v", err)
	}
}
