// Package mllog reads the logs LoadGen writes: the detail log
// (mlperf_log_detail.txt, one ":::MLLOG {json}" line per logged value), the
// summary (mlperf_log_summary.txt, "key : value" lines and the verdict) and
// the accuracy log (mlperf_log_accuracy.json, one object per completed
// sample), and writes the accuracy log in LoadGen's exact layout.
//
// Every part of mlperf-go that reads LoadGen's output (the run's own
// checks, results.json, the evaluators, filing and the submission check)
// reads it through this package, so the files are parsed one way.
//
// The accuracy log: LoadGen (loadgen/logging.cc, AsyncLog::LogAccuracy and
// WriteAccuracy{Header,Footer}Locked, release 6.0.17) writes a JSON array
// with one object per completed sample:
//
//	[
//	{ "seq_id" : 0, "qsl_idx" : 12, "data" : "48656C6C6F", "token_count" : 5 },
//	{ "seq_id" : 1, "qsl_idx" : 3, "data" : "" }
//	]
//
// "data" is the response bytes as upper-case hex. "token_count" is present
// only when the test uses token latencies, and "token_data" (the first
// token, hex) only when it also needs the first token; unknown fields are
// ignored. The footer "\n]\n" is written only when LoadGen closes the log,
// so a run that crashed leaves a log without it; ParseAccuracy reports such
// a log as truncated instead of returning a partial list.
package mllog
