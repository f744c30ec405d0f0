/*
 * mlpg_settings.h: the one list of mlperf::TestSettings fields (LoadGen 6.0,
 * test_settings.h), in LoadGen's declaration order. Every copy of the fields
 * comes from it:
 *   - the C struct mlpg_test_settings (mlpg_shim.h expands the list),
 *   - the C++ conversions to and from mlperf::TestSettings and a layout check
 *     against it (mlpg_shim.cc expands the list),
 *   - the Go struct TestSettings, DefaultTestSettings and the Go<->C
 *     conversions (loadgen/settings_gen.go and loadgen/settings_cgo_gen.go,
 *     written by `go generate ./loadgen` from this file; a test fails when
 *     they are stale).
 * Adding a field means adding one X line here and running go generate.
 *
 * X(kind, name, GoName, default, doc...):
 *   kind     one of the MLPG_KIND_* rows below: the C, C++ and Go types.
 *   name     the mlperf::TestSettings member, also the C field name.
 *   GoName   the Go field name.
 *   default  LoadGen's default as a Go expression (a cgo test compares
 *            DefaultTestSettings with the linked library).
 *   doc      the Go field comment after "GoName " (C string literals,
 *            concatenated); the generator appends "Default <default>.".
 * Units are LoadGen's own: latencies in nanoseconds, durations in
 * milliseconds, percentiles and probabilities as fractions.
 */
#ifndef MLPG_SETTINGS_H
#define MLPG_SETTINGS_H

#include <stdint.h>

/* Kinds: C type (the shim's struct; booleans are 0/1 ints, enums their
 * integer values). The C++ type of each kind is in mlpg_shim.cc, the Go type
 * in loadgen/internal/gensettings. */
#define MLPG_CTYPE_SCENARIO int32_t /* mlperf::TestScenario, Go Scenario */
#define MLPG_CTYPE_MODE int32_t     /* mlperf::TestMode, Go Mode */
#define MLPG_CTYPE_F64 double       /* double, Go float64 */
#define MLPG_CTYPE_U64 uint64_t     /* uint64_t, Go uint64 */
#define MLPG_CTYPE_INT int32_t      /* int, Go int */
#define MLPG_CTYPE_BOOL int32_t     /* bool, Go bool */

#define MLPG_TEST_SETTINGS(X)                                                  \
  X(SCENARIO, scenario, Scenario, SingleStream, "is the LoadGen scenario.")    \
  X(MODE, mode, Mode, PerformanceOnly, "is the LoadGen mode.")                 \
  X(F64, single_stream_expected_latency_ns, SingleStreamExpectedLatencyNs,     \
    1000000,                                                                   \
    "is the expected latency of one query in nanoseconds; LoadGen uses it "    \
    "to pre-generate enough queries.")                                         \
  X(F64, single_stream_target_latency_percentile,                              \
    SingleStreamTargetLatencyPercentile, 0.90,                                 \
    "is the reported percentile as a fraction.")                               \
  X(F64, multi_stream_expected_latency_ns, MultiStreamExpectedLatencyNs,       \
    8000000, "is the expected latency of one query in nanoseconds.")           \
  X(F64, multi_stream_target_latency_percentile,                               \
    MultiStreamTargetLatencyPercentile, 0.99, "is a fraction.")                \
  X(U64, multi_stream_samples_per_query, MultiStreamSamplesPerQuery, 8,        \
    "is the samples in each query.")                                           \
  X(F64, server_target_qps, ServerTargetQPS, 1,                                \
    "is the Poisson arrival rate in queries per second.")                      \
  X(U64, server_target_latency_ns, ServerTargetLatencyNs, 100000000,           \
    "is the latency bound in nanoseconds that the "                            \
    "ServerTargetLatencyPercentile of queries must meet.")                     \
  X(F64, server_target_latency_percentile, ServerTargetLatencyPercentile,      \
    0.99, "is a fraction.")                                                    \
  X(BOOL, server_coalesce_queries, ServerCoalesceQueries, false,               \
    "merges queries whose scheduled time has passed into one IssueQuery "     \
    "call.")                                                                   \
  X(INT, server_find_peak_qps_decimals_of_precision,                           \
    ServerFindPeakQPSDecimalsOfPrecision, 1,                                   \
    "is used by FindPeakPerformance.")                                         \
  X(F64, server_find_peak_qps_boundary_step_size,                              \
    ServerFindPeakQPSBoundaryStepSize, 1, "is used by FindPeakPerformance.")   \
  X(U64, server_max_async_queries, ServerMaxAsyncQueries, 0,                   \
    "ends the test early when this many queries are outstanding; 0 means "    \
    "no limit.")                                                               \
  X(U64, server_num_issue_query_threads, ServerNumIssueQueryThreads, 0,        \
    "is the number of threads that must call RegisterIssueQueryThread; 0 "    \
    "issues from LoadGen's own thread.")                                       \
  X(F64, offline_expected_qps, OfflineExpectedQPS, 1,                          \
    "sizes the single Offline query.")                                         \
  X(BOOL, sample_concatenate_permutation, SampleConcatenatePermutation, false, \
    "pads the issued samples to whole permutations of the loaded set (equal " \
    "issue).")                                                                 \
  X(U64, min_duration_ms, MinDurationMs, 10000,                                \
    "is the minimum test duration in milliseconds.")                           \
  X(U64, max_duration_ms, MaxDurationMs, 0,                                    \
    "ends the test early, in milliseconds; 0 means no limit.")                 \
  X(U64, min_query_count, MinQueryCount, 100,                                  \
    "is the minimum number of queries.")                                       \
  X(U64, max_query_count, MaxQueryCount, 0,                                    \
    "ends the test early; 0 means no limit.")                                  \
  X(U64, qsl_rng_seed, QSLRNGSeed, 0,                                          \
    "seeds the choice of loaded samples; the official value comes from "      \
    "mlperf.conf and decides the round.")                                      \
  X(U64, sample_index_rng_seed, SampleIndexRNGSeed, 0,                         \
    "seeds the choice of issued samples.")                                     \
  X(U64, schedule_rng_seed, ScheduleRNGSeed, 0,                                \
    "seeds the Server arrival times.")                                         \
  X(U64, accuracy_log_rng_seed, AccuracyLogRNGSeed, 0,                         \
    "seeds which performance-mode samples are also written to the accuracy "  \
    "log.")                                                                    \
  X(F64, accuracy_log_probability, AccuracyLogProbability, 0,                  \
    "is the fraction of performance-mode samples written to the accuracy "    \
    "log.")                                                                    \
  X(U64, accuracy_log_sampling_target, AccuracyLogSamplingTarget, 0,           \
    "sets, when non-zero, the probability so that about this many samples "   \
    "are logged.")                                                             \
  X(BOOL, test05, Test05, false,                                               \
    "replaces the three seeds with the Test05 ones.")                          \
  X(U64, test05_qsl_rng_seed, Test05QSLRNGSeed, 0,                             \
    "is the QSL seed used when Test05 is set.")                                \
  X(U64, test05_sample_index_rng_seed, Test05SampleIndexRNGSeed, 0,            \
    "is the sample seed used when Test05 is set.")                             \
  X(U64, test05_schedule_rng_seed, Test05ScheduleRNGSeed, 0,                   \
    "is the schedule seed used when Test05 is set.")                           \
  X(BOOL, print_timestamps, PrintTimestamps, false,                            \
    "makes LoadGen log issue and completion timestamps.")                      \
  X(BOOL, performance_issue_unique, PerformanceIssueUnique, false,             \
    "issues each loaded sample once.")                                         \
  X(BOOL, performance_issue_same, PerformanceIssueSame, false,                 \
    "issues PerformanceIssueSameIndex every time.")                            \
  X(U64, performance_issue_same_index, PerformanceIssueSameIndex, 0,           \
    "is the sample PerformanceIssueSame repeats.")                             \
  X(U64, performance_sample_count_override, PerformanceSampleCountOverride, 0, \
    "replaces the QSL's performance sample count when non-zero.")              \
  X(U64, accuracy_sample_count_override, AccuracySampleCountOverride, 0,       \
    "limits accuracy mode to this many samples when non-zero.")                \
  X(BOOL, use_token_latencies, UseTokenLatencies, false,                       \
    "makes LoadGen measure TTFT, TPOT and token throughput; the SUT must "    \
    "report n_tokens and, outside Offline, the first token "                  \
    "(FirstTokenComplete).")                                                   \
  X(U64, server_ttft_latency, ServerTTFTLatencyNs, 100000000,                  \
    "is the Server p99 time-to-first-token bound in nanoseconds (user.conf's " \
    "ttft_latency is in ms).")                                                 \
  X(U64, server_tpot_latency, ServerTPOTLatencyNs, 100000000,                  \
    "is the Server p99 time-per-output-token bound in nanoseconds "           \
    "(user.conf's tpot_latency is in ms).")                                    \
  X(BOOL, infer_token_latencies, InferTokenLatencies, false,                   \
    "makes LoadGen infer token metrics from sample latencies and "            \
    "TokenLatencyScalingFactor.")                                              \
  X(U64, token_latency_scaling_factor, TokenLatencyScalingFactor, 0,           \
    "is the tokens per sample assumed by InferTokenLatencies (LoadGen leaves " \
    "it uninitialised; the shim sets 0).")

#endif /* MLPG_SETTINGS_H */
