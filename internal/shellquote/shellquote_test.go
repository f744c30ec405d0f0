package shellquote

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestJoinRoundTrips: what Join writes, /bin/sh reads back as the same
// arguments, and plain words stay bare.
func TestJoinRoundTrips(t *testing.T) {
	args := []string{"mlperf-go", "run", "--system", "it's", "a b", "", "$HOME", "`x`", "runs/llama3_1-8b/x:y=z", "ü"}
	line := Join(args...)
	if !strings.HasPrefix(line, "mlperf-go run --system 'it'\\''s' 'a b' '' '$HOME'") {
		t.Errorf("Join: %s", line)
	}
	got, err := exec.Command("/bin/sh", "-c", "printf '%s\\0' "+line).Output()
	if err != nil {
		t.Fatal(err)
	}
	if back := strings.Split(strings.TrimSuffix(string(got), "\x00"), "\x00"); !slices.Equal(back, args) {
		t.Errorf("/bin/sh read back %q, want %q", back, args)
	}
}
