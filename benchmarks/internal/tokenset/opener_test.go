package tokenset

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/mlperf-go/mlperf-go/benchmark"
)

// wrapped stands for a benchmark's dataset type with its evaluator.
type wrapped struct{ *Dataset }

func (wrapped) Evaluate(context.Context, string, benchmark.EvalOptions) (benchmark.Evaluation, error) {
	return benchmark.Evaluation{}, nil
}

// TestOpener: one path is opened and wrapped; more than one is an error
// naming them; the reader's error is returned as it is.
func TestOpener(t *testing.T) {
	t.Parallel()
	want := &Dataset{}
	var opened []string
	open := func(path string) (*Dataset, error) {
		opened = append(opened, path)
		if path == "bad" {
			return nil, errors.New("bad file")
		}
		return want, nil
	}
	o := Opener("bench", open, func(d *Dataset) benchmark.Dataset { return wrapped{d} })
	got, err := o([]string{"a.json"}, nil)
	if w, ok := got.(wrapped); err != nil || !ok || w.Dataset != want {
		t.Errorf("one path: %#v, %v", got, err)
	}
	if _, err := o([]string{"a", "b"}, nil); err == nil || !strings.Contains(err.Error(), "bench reads one dataset file, got 2: a, b") {
		t.Errorf("two paths: %v", err)
	}
	if got, err := o([]string{"bad"}, nil); err == nil || err.Error() != "bad file" || got != nil {
		t.Errorf("reader's error: %v, %v", got, err)
	}
	if strings.Join(opened, ",") != "a.json,bad" {
		t.Errorf("opened %q", opened)
	}
}
