package run

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"go.uber.org/zap"

	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/engine"
	"github.com/mlperf-go/mlperf-go/internal/redact"
	"github.com/mlperf-go/mlperf-go/loadgen"
	"github.com/mlperf-go/mlperf-go/record"
)

// Launch says how to start the engine a command's tests run against.
type Launch struct {
	// Spec is the engine to start; a Spec without Kind starts none.
	Spec engine.Spec
	// LogPath is the file the engine's output is appended to ("":
	// engine.log in the options' OutputDir).
	LogPath string
	// ReadyTimeout bounds the wait for the engine to serve the model (0:
	// none); StopGrace is how long it gets after SIGTERM before SIGKILL.
	ReadyTimeout, StopGrace time.Duration
}

// Session is what the tests of one command share: the dataset, opened and
// checked once, and the engine mlperf-go launched for them, if any, which
// loads its model while the dataset is read, is waited for once and is
// watched while tests run. Run and tune both set up their tests this way.
type Session struct {
	data    benchmark.Dataset
	proc    *engine.Process
	kind    engine.Kind
	model   string
	launch  Launch
	apiKey  string
	log     *zap.Logger
	unwatch context.CancelFunc
}

// ErrInterrupted is wrapped by Ready's error when ctx ended while waiting.
var ErrInterrupted = errors.New("interrupted while waiting for the engine")

// Open starts the engine launch asks for (none for a nil launch or one
// without Spec.Kind), pointing o at it (endpoint, and the served model
// unless o.Model names one), opens o's dataset into o.Data while the
// engine loads its model, and calls precheck (if not nil) with it open: a
// refused setting stops the engine seconds after its start, before it is
// waited for, while every run keeps the dataset's opening off its
// critical path. Close the session whatever happens.
func Open(o *Options, launch *Launch, precheck func(data benchmark.Dataset) error) (*Session, error) {
	s := &Session{log: o.logger(), apiKey: o.APIKey, unwatch: func() {}}
	if launch != nil && launch.Spec.Kind != "" {
		if err := s.start(o, *launch); err != nil {
			return nil, err
		}
	}
	open := o.Benchmark.OpenDataset
	if o.Mode == loadgen.AccuracyOnly {
		// A download folder may hold a separate accuracy set (gpt-oss).
		open = o.Benchmark.OpenAccuracyDataset
	}
	data, err := open(o.Dataset, o.Splits)
	if err != nil {
		s.Close()
		return nil, err
	}
	s.data, o.Data = data, data
	if precheck != nil {
		if err := precheck(data); err != nil {
			s.Close()
			return nil, err
		}
	}
	return s, nil
}

func (s *Session) start(o *Options, l Launch) error {
	spec := l.Spec
	if spec.Model == "" {
		spec.Model = o.ModelName()
	}
	if l.LogPath == "" {
		l.LogPath = filepath.Join(o.OutputDir, record.EngineLogFile)
	}
	if err := os.MkdirAll(filepath.Dir(l.LogPath), 0o755); err != nil {
		return fmt.Errorf("engine log %s: %w", l.LogPath, err)
	}
	p, err := engine.Start(spec, o.Benchmark.EngineRulesFor(spec.Kind), l.LogPath)
	if err != nil {
		return err
	}
	// Requests name the model the engine serves unless the options say
	// otherwise (WaitReady then checks the two agree).
	if o.Model == "" {
		o.Model = spec.ServedModel()
	}
	o.Endpoints = []string{p.URL}
	s.log.Info("engine started", zap.String("url", redact.URL(p.URL)), zap.String("log", p.LogPath), zap.Strings("argv", redact.Args(p.Argv)))
	s.proc, s.kind, s.model, s.launch = p, spec.Kind, o.ModelName(), l
	return nil
}

// Engine describes the launched engine for the run record: its kind and
// whole command line (ok false when none was launched).
func (s *Session) Engine() (kind engine.Kind, argv []string, ok bool) {
	if s.proc == nil {
		return "", nil, false
	}
	return s.kind, s.proc.Argv, true
}

// Describe completes rec with the launched engine: its kind where
// rec.Engine is empty and its whole command line where rec.EngineFlags is
// (what the user declared wins). Without a launched engine rec is returned
// as it is.
func (s *Session) Describe(rec Record) Record {
	if kind, argv, ok := s.Engine(); ok {
		if rec.Engine == "" {
			rec.Engine = string(kind)
		}
		if rec.EngineFlags == nil {
			rec.EngineFlags = argv
		}
	}
	return rec
}

// Ready waits until a launched engine serves the model, printing progress
// to progress, and returns the context tests run in: ctx, also ended (with
// the engine's *engine.ExitError as cause) if the engine dies. Without a
// launched engine it is ctx itself.
func (s *Session) Ready(ctx context.Context, progress io.Writer) (context.Context, error) {
	if s.proc == nil {
		return ctx, nil
	}
	if err := s.proc.WaitReady(ctx, s.model, engine.ReadyOptions{Timeout: s.launch.ReadyTimeout, Progress: progress, APIKey: s.apiKey}); err != nil {
		if ctx.Err() != nil {
			return nil, ErrInterrupted
		}
		return nil, err
	}
	runCtx, unwatch := s.proc.Watch(ctx)
	s.unwatch = unwatch
	return runCtx, nil
}

// Close stops watching and stopping the launched engine, logging how, and
// closes the dataset.
func (s *Session) Close() {
	s.unwatch()
	if s.proc != nil {
		if err := s.proc.Stop(s.launch.StopGrace); err != nil {
			s.log.Warn("stopping the engine", zap.Error(err))
		} else {
			s.log.Info("engine stopped", zap.String("log", s.proc.LogPath))
		}
	}
	if s.data != nil {
		s.data.Close()
	}
}

// EngineDied turns tests cancelled by a launched engine's death into the
// error to report (nil if the engine did not die); dir holds what was
// written so far.
func EngineDied(runCtx context.Context, dir string) error {
	var ee *engine.ExitError
	if cause := context.Cause(runCtx); errors.As(cause, &ee) {
		return fmt.Errorf("the test was aborted because the engine died (LoadGen's logs so far are in %s): %w", dir, ee)
	}
	return nil
}
