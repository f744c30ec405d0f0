package workflow

import (
	"context"
	"errors"
	"io"

	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/run"
)

// openSession sets up what a command's tests share, the same way for a
// run and a tune: it starts the engine launch asks for (none for nil),
// pointing o at it, opens o's dataset into o.Data (a launched engine
// loads its model meanwhile) and makes precheck's checks (if any; a
// refusal stops the engine) (run.Open), then waits until the engine
// serves (its progress to progress) and watches it. The context it
// returns is ctx, also ended (with the engine's *engine.ExitError as
// cause) if the engine dies: run.EngineDied tells. An interrupt while
// waiting is an error of Class Interrupted. Close the session when done.
func openSession(ctx context.Context, o *run.Options, launch *run.Launch, progress io.Writer, precheck func(benchmark.Dataset) error) (*run.Session, context.Context, error) {
	sess, err := run.Open(o, launch, precheck)
	if err != nil {
		return nil, nil, err
	}
	runCtx, err := sess.Ready(ctx, progress)
	if err != nil {
		sess.Close()
		if errors.Is(err, run.ErrInterrupted) {
			return nil, nil, failure{Interrupted, err}
		}
		return nil, nil, err
	}
	return sess, runCtx, nil
}
