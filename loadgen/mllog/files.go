package mllog

// The files LoadGen writes into its output folder, named with its default
// prefix (loadgen.DefaultLogSettings, which takes FilePrefix from here) and no
// suffix, as every run of mlperf-go names them.
const (
	// FilePrefix starts every log file name.
	FilePrefix = "mlperf_log_"
	// SummaryFile is the summary (ReadSummary).
	SummaryFile = FilePrefix + "summary.txt"
	// DetailFile is the detail log (ReadDetail).
	DetailFile = FilePrefix + "detail.txt"
	// AccuracyFile is the accuracy log (ReadAccuracy).
	AccuracyFile = FilePrefix + "accuracy.json"
	// TraceFile is the trace, written when LogSettings.EnableTrace is on.
	TraceFile = FilePrefix + "trace.json"
)

// LoadGen's verdict on a test, as the summary's "Result is" line and the
// detail log's result_validity say it.
const (
	ResultValid   = "VALID"
	ResultInvalid = "INVALID"
)
