// Package codetest runs LiveCodeBench answers against their tests and says
// whether each passes, as the MLPerf gpt-oss-120b and deepseek-r1 evaluators
// do through LiveCodeBench's lcb_runner (testing_util.run_test under
// compute_code_generation_metrics.check_correctness).
//
// Each answer runs in its own process, forked (as the reference forks) from a
// warm python3 harness server (harness.py, embedded; one per worker), which
// reproduces the reference's test semantics: stdin/stdout tests call the
// answer wrapped in a function with a mocked sys.stdin and compare stripped
// lines as text or Decimals; functional tests call the named method (of
// class Solution when the code has one) with JSON arguments and compare with
// ==. A per-test alarm of Options.TimeoutSeconds (reference: 60) and a
// process deadline of (timeout+1)×tests+5 seconds apply, as in the reference.
//
// Isolation: the server runs under `unshare -rn` (a new user and network
// namespace with no interfaces up), so answers cannot reach the network;
// New refuses to start when that does not work unless Options.Isolation is
// NoIsolation. Destructive os/shutil/subprocess functions are disabled as the
// reference's reliability_guard does. Neither is a security boundary against
// hostile code; it is the reference's level of care plus no network.
//
// A harness failure (python3 missing or too old, a job file it cannot read)
// is an error, never a failed test.
package codetest
