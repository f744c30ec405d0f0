package run

import (
	"time"

	"github.com/mlperf-go/mlperf-go/internal/buildinfo"
	"github.com/mlperf-go/mlperf-go/internal/redact"
	"github.com/mlperf-go/mlperf-go/loadgen"
	"github.com/mlperf-go/mlperf-go/record"
	"github.com/mlperf-go/mlperf-go/sut"
)

// Record is what the run record says beyond Options and Report: how the
// harness was invoked and what the user declared about the server.
type Record struct {
	// Command is the mlperf-go argv.
	Command []string
	// Compliance is the compliance test the run was for ("" for none).
	Compliance string
	// Engine and EngineFlags describe the serving engine, as declared.
	Engine      string
	EngineFlags []string
	// Quick marks a --quick smoke run: its figures describe seconds of
	// load on a tiny sample library, so nothing may take them for the
	// system's throughput (--target-qps auto skips it).
	Quick bool
	// PairedAccuracy, for a performance test run after an accuracy test
	// of the same command, is that test's folder and verdict.
	PairedAccuracy *record.PairedAccuracy
}

// Kind is what the run was for: a compliance test, or else the mode LoadGen
// ran (user.conf may have changed it).
func (rep *Report) Kind(compliance string) record.Kind {
	switch {
	case compliance != "":
		return record.Kind(compliance)
	case rep.Settings.Mode == loadgen.AccuracyOnly:
		return record.KindAccuracy
	}
	return record.KindPerformance
}

// WriteRunInfo writes RunInfo next to LoadGen's logs (record.File).
func WriteRunInfo(o Options, rep *Report, rec Record) error {
	return record.Write(rep.LogDir, RunInfo(o, rep, rec))
}

// RunInfo is the run record of the test o made, for the submission
// README: the command, the harness and LoadGen versions, the round
// followed (Options.Round, else the linked LoadGen's) and whose requests
// were sent, the benchmark, scenario and kind, the endpoints, API, model
// and sampling sent, when the run started and ended, and the samples'
// counts and first failures. A caller that judges the run further (its
// accuracy, its compliance verdict) adds that before writing it once.
func RunInfo(o Options, rep *Report, rec Record) record.Run {
	round := o.Round
	if round == "" {
		round, _ = buildinfo.Round()
	}
	info := record.Run{
		Command:        redact.Args(rec.Command),
		HarnessVersion: buildinfo.Version,
		LoadGenVersion: buildinfo.LoadGenVersion,
		Round:          round,
		Requests:       o.RequestReference(),
		Benchmark:      o.Benchmark.Name,
		Scenario:       o.Scenario.String(),
		Kind:           string(rep.Kind(rec.Compliance)),
		Endpoints:      redact.URLs(o.Endpoints),
		API:            o.EndpointAPI().Name(),
		Model:          o.ModelName(),
		Engine:         rec.Engine,
		EngineFlags:    redact.Args(rec.EngineFlags),
		EngineServed:   rep.EngineServed,
		Quick:          rec.Quick,
		PairedAccuracy: rec.PairedAccuracy,
		Sampling:       o.SamplingRecord(),
		Start:          rep.Start.UTC(),
		End:            rep.End.UTC(),
		Samples: &record.SampleCounts{
			Issued: rep.Stats.Issued, Completed: rep.Stats.Completed, Failed: rep.Stats.Failed,
			FailuresByReason: rep.Stats.FailuresByReason, OutputTokens: rep.Stats.OutputTokens,
		},
	}
	if s := o.SubmissionScenario(); s != info.Scenario {
		info.SubmissionScenario = s
	}
	if m := o.Benchmark.LoadGenModel(); m != o.Benchmark.Name {
		info.LoadGenModel = m
	}
	for _, st := range o.Benchmark.LoadGen.Settings {
		info.RoundSettings = append(info.RoundSettings, confLine(o.Benchmark.LoadGenModel(), o.Scenario.String(), st.Key, st.Value)+" ("+st.Why+")")
	}
	info.Outcome, info.OutcomeReason = rep.Outcome, redact.Text(rep.OutcomeReason)
	info.RenamedLogs, info.RemovedLogs = rep.RenamedLogs, rep.RemovedLogs
	for _, f := range rep.Stats.FirstFailures {
		info.Samples.FirstFailures = append(info.Samples.FirstFailures, record.SampleFailure{Index: f.Index, Reason: f.Reason, Message: f.Message})
	}
	info.Samples.EndpointDrops = EndpointDrops(rep.Stats.EndpointDrops, rep.Start)
	return info
}

// EndpointDrops are the pool's endpoint drops as the run record keeps
// them, timed from the test's start.
func EndpointDrops(drops []sut.EndpointDrop, start time.Time) []record.EndpointDrop {
	var out []record.EndpointDrop
	for _, d := range drops {
		r := record.EndpointDrop{Endpoint: d.Endpoint, At: d.At.UTC(), AfterStart: record.SecondsOf(d.At.Sub(start)), Error: d.Error}
		if !d.Back.IsZero() {
			back := d.Back.UTC()
			r.Back = &back
		}
		out = append(out, r)
	}
	return out
}
