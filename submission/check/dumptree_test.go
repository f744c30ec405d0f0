package check

import (
	"os"
	"os/exec"
	"testing"

	"github.com/mlperf-go/mlperf-go/submission/internal/treetest"
)

// TestDumpTree copies the valid tree buildTree makes to $DUMP_TREE (round
// $DUMP_ROUND) so it can be fed to the official checker by hand:
//
//	DUMP_TREE=/tmp/tree DUMP_ROUND=v6.1 go test -run TestDumpTree ./submission/check/
//	cd inference/tools/submission && python3 -m submission_checker.main --input /tmp/tree --version v6.1
//
// It is skipped unless DUMP_TREE is set.
func TestDumpTree(t *testing.T) {
	dst := os.Getenv("DUMP_TREE")
	if dst == "" {
		t.Skip()
	}
	out := treetest.BuildTree(t, os.Getenv("DUMP_ROUND"))
	if b, err := exec.Command("cp", "-r", out, dst).CombinedOutput(); err != nil {
		t.Fatal(string(b))
	}
}
