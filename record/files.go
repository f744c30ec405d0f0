package record

import (
	"slices"

	"github.com/mlperf-go/mlperf-go/engine/metrics"
	"github.com/mlperf-go/mlperf-go/internal/breakdown"
	"github.com/mlperf-go/mlperf-go/internal/timeline"
)

// The files the harness writes in a run's output folder beside LoadGen's
// logs (which loadgen/mllog names), named here, once, for every package
// that writes, reads, files, lists or leaves them out. The series the report
// draws are named by their writers, below this package: timeline.File,
// metrics.File and breakdown.File.
const (
	// File is the run record. Filing a run copies it with the logs;
	// packaging turns it into the scenario's README.md and leaves it out
	// of the submission.
	File = "mlperf_go_run.json"
	// ResultsFile is results.json (package results).
	ResultsFile = "results.json"
	// FailuresFile lists every failed sample, one JSON object (sut.Failure)
	// per line (package run). Filing does not copy it.
	FailuresFile = "failures.jsonl"
	// ReportHTMLFile and ReportMarkdownFile are a run's report;
	// IndexHTMLFile and IndexMarkdownFile the index over a tree of runs
	// (package report).
	ReportHTMLFile     = "report.html"
	ReportMarkdownFile = "report.md"
	IndexHTMLFile      = "index.html"
	IndexMarkdownFile  = "index.md"
	// UserConfFile is the user.conf the run gave LoadGen (package run),
	// and a results tree's per scenario, which the checker requires.
	UserConfFile = "user.conf"
	// AccuracyTxtFile is an accuracy run's evaluation (accuracy.txt), the
	// evaluators' output beside the accuracy log, filed with it.
	AccuracyTxtFile = "accuracy.txt"
	// EngineLogFile is a launched engine's output, appended to (package
	// run's Launch, by default in the output folder). An engine that
	// never came up leaves it there for the diagnosis; a retry into the
	// same folder appends to it (RefuseNonEmpty).
	EngineLogFile = "engine.log"
)

// HarnessFiles are the files mlperf-go writes beside LoadGen's logs for
// people rather than for the submission, and which filing may copy: the
// run record, the series the report draws and the report itself, with
// the index over a tree. Packaging leaves them out.
var HarnessFiles = []string{
	File, timeline.File, metrics.File, breakdown.File,
	ResultsFile, ReportHTMLFile, ReportMarkdownFile, IndexHTMLFile, IndexMarkdownFile,
}

// IsHarnessFile reports whether name is one of HarnessFiles.
func IsHarnessFile(name string) bool {
	return slices.Contains(HarnessFiles, name)
}
