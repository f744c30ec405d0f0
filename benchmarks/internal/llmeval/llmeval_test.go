package llmeval

import (
	"path/filepath"
	"testing"

	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/tokenizer"
)

// TestCleanUp: without --clean-up-spaces the decode keeps the tokenizer's
// own setting and the description says where it comes from; with it, the
// flag's value decides both.
func TestCleanUp(t *testing.T) {
	t.Parallel()
	tok, err := tokenizer.Open(tokenizer.FindOptions{Path: filepath.Join("..", "..", "..", "tokenizer", "testdata", "bytelevel")})
	if err != nil {
		t.Fatal(err)
	}
	fileOn, fileFrom := tok.CleanUpSpaces()
	yes, no := true, false
	for _, tc := range []struct {
		flag     *bool
		opt      tokenizer.CleanUp
		on       bool
		fromFile bool
	}{
		{nil, tokenizer.CleanUpDefault, fileOn, true},
		{&yes, tokenizer.CleanUpOn, true, false},
		{&no, tokenizer.CleanUpOff, false, false},
	} {
		opt, on, from := CleanUp(benchmark.EvalOptions{CleanUpSpaces: tc.flag}, tok)
		wantFrom := "--clean-up-spaces"
		if tc.fromFile {
			wantFrom = fileFrom
		}
		if opt != tc.opt || on != tc.on || from != wantFrom {
			t.Errorf("flag %v: %v, %v, %q; want %v, %v, %q", tc.flag, opt, on, from, tc.opt, tc.on, wantFrom)
		}
	}
}
