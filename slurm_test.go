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
	cmd := exec.Command(bash, "scripts/slurm/submit.sh", "--bin", fakeBin, "--out-root", outRoot, "--", "-b", "llama3_1-8b", "-d", "data")
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

// TestSubmitChecksBeforeSubmitting: scripts/slurm/submit.sh refuses, before
// anything is submitted (with --dry-run or not), a --time sbatch does not
// take, a --signal-lead past the time limit and run arguments the job would
// refuse (no --dataset; --output-dir, which benchmark.sh sets); without
// --evaluate-arg, the evaluate job gets the run's benchmark, dataset and
// tokenizer instead of nothing. (make test-slurm runs the scripts on a real
// Slurm.)
func TestSubmitChecksBeforeSubmitting(t *testing.T) {
	t.Parallel()
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	dir := t.TempDir()
	fakeBin := filepath.Join(dir, "mlperf-go")
	// sbatch records that it was called: nothing must reach it.
	calls := filepath.Join(dir, "sbatch-calls")
	bin := filepath.Join(dir, "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	for path, body := range map[string]string{
		fakeBin:                       "#!/bin/sh\n",
		filepath.Join(bin, "sbatch"): "#!/bin/sh\necho \"$@\" >>" + calls + "\necho 42\n",
	} {
		if err := os.WriteFile(path, []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	submit := func(args ...string) (string, error) {
		cmd := exec.Command(bash, append([]string{"scripts/slurm/submit.sh", "--bin", fakeBin, "--out-root", filepath.Join(dir, "out")}, args...)...)
		cmd.Env = append(os.Environ(), "PATH="+bin+":"+os.Getenv("PATH"))
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--time", "1h", "--", "-b", "llama3_1-8b", "-d", "data"}, "--time 1h: sbatch takes MINUTES, MINUTES:SECONDS, HOURS:MINUTES:SECONDS"},
		{[]string{"--time", "5", "--", "-b", "llama3_1-8b", "-d", "data"}, "--signal-lead 300 s is not less than --time 5 (300 s)"},
		{[]string{"--", "-b", "llama3_1-8b"}, "the mlperf-go run arguments lack --dataset (-d)"},
		{[]string{"--", "-d", "data"}, "the mlperf-go run arguments lack --benchmark (-b)"},
		{[]string{"--", "-b", "llama3_1-8b", "-d", "data", "-o", "mine"}, "-o: benchmark.sh sets the output directory"},
	} {
		for _, dry := range []bool{true, false} {
			args := tc.args
			if dry {
				args = append([]string{"--dry-run"}, args...)
			}
			out, err := submit(args...)
			if err == nil || !strings.Contains(out, tc.want) {
				t.Errorf("submit.sh %q: %v\n%s\nwant %q", args, err, out, tc.want)
			}
		}
	}
	if b, err := os.ReadFile(calls); err == nil {
		t.Errorf("sbatch was called for arguments that were refused:\n%s", b)
	}
	out, err := submit("--dry-run", "--time", "1-00:00:00", "--", "-b", "llama3_1-8b", "-m", "accuracy", "--dataset=data", "--tokenizer", "tok")
	if err != nil || !strings.Contains(out, "evaluate.sh --run-dir") || !strings.Contains(out, "-- --benchmark llama3_1-8b --dataset data --tokenizer tok") {
		t.Errorf("a valid --dry-run: %v\n%s\nwant the evaluate job given the run's benchmark, dataset and tokenizer", err, out)
	}
	if out, err := submit("--", "-b", "llama3_1-8b", "-d", "data"); err != nil || !strings.Contains(out, "jobs: 42 42") {
		t.Errorf("a valid submit: %v\n%s", err, out)
	}
}