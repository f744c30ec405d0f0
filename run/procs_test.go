package run

import (
	"runtime"
	"testing"

	"go.uber.org/zap"
)

// TestEnsureProcs: one P becomes minProcs for the test and is restored; an
// explicit GOMAXPROCS in the environment is left alone. (Not parallel:
// GOMAXPROCS is the process's.)
func TestEnsureProcs(t *testing.T) {
	prev := runtime.GOMAXPROCS(1)
	defer runtime.GOMAXPROCS(prev)
	t.Setenv("GOMAXPROCS", "")
	restore := ensureProcs(zap.NewNop())
	if got := runtime.GOMAXPROCS(0); got != minProcs {
		t.Errorf("GOMAXPROCS %d during the test, want %d", got, minProcs)
	}
	restore()
	if got := runtime.GOMAXPROCS(0); got != 1 {
		t.Errorf("GOMAXPROCS %d after, want 1 back", got)
	}
	t.Setenv("GOMAXPROCS", "1")
	ensureProcs(zap.NewNop())()
	if got := runtime.GOMAXPROCS(0); got != 1 {
		t.Errorf("with GOMAXPROCS=1 set by the user: %d, want 1", got)
	}
}
