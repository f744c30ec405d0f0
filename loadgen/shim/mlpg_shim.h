/*
 * mlpg_shim.h: the plain-C face of mlperf-go's bridge to the official MLPerf
 * LoadGen (C++). Only C types cross this header, so cgo never sees C++.
 *
 * Every entry point catches all C++ exceptions and reports them through its
 * return status and an error string (malloc'd; the caller frees it), because
 * an exception unwinding into Go frames is undefined behaviour.
 *
 * LoadGen calls back into Go through the mlpgGo* functions declared at the
 * end; Go implements them with //export. C++ holds only opaque uintptr_t
 * handles (runtime/cgo.Handle values), never Go pointers.
 */
#ifndef MLPG_SHIM_H
#define MLPG_SHIM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Status codes returned by the shim. */
enum {
  MLPG_OK = 0,
  MLPG_ERR_EXCEPTION = 1, /* a C++ exception was caught; see *err */
  MLPG_ERR_CONFIG = 2,    /* TestSettings::FromConfig returned non-zero */
  MLPG_ERR_BUSY = 3       /* a test is already running in this process */
};

/* mlpg_test_settings mirrors mlperf::TestSettings field by field (LoadGen
 * 6.0). Booleans are 0/1 ints, enums are their integer values, durations
 * keep LoadGen's units (named in each field). */
typedef struct {
  int32_t scenario; /* mlperf::TestScenario */
  int32_t mode;     /* mlperf::TestMode */

  double single_stream_expected_latency_ns;
  double single_stream_target_latency_percentile;

  double multi_stream_expected_latency_ns;
  double multi_stream_target_latency_percentile;
  uint64_t multi_stream_samples_per_query;

  double server_target_qps;
  uint64_t server_target_latency_ns;
  double server_target_latency_percentile;
  int32_t server_coalesce_queries;
  int32_t server_find_peak_qps_decimals_of_precision;
  double server_find_peak_qps_boundary_step_size;
  uint64_t server_max_async_queries;
  uint64_t server_num_issue_query_threads;

  double offline_expected_qps;
  int32_t sample_concatenate_permutation;

  uint64_t min_duration_ms;
  uint64_t max_duration_ms;
  uint64_t min_query_count;
  uint64_t max_query_count;

  uint64_t qsl_rng_seed;
  uint64_t sample_index_rng_seed;
  uint64_t schedule_rng_seed;
  uint64_t accuracy_log_rng_seed;
  double accuracy_log_probability;
  uint64_t accuracy_log_sampling_target;
  int32_t test05;
  uint64_t test05_qsl_rng_seed;
  uint64_t test05_sample_index_rng_seed;
  uint64_t test05_schedule_rng_seed;

  int32_t print_timestamps;
  int32_t performance_issue_unique;
  int32_t performance_issue_same;
  uint64_t performance_issue_same_index;
  uint64_t performance_sample_count_override;
  uint64_t accuracy_sample_count_override;
  int32_t use_token_latencies;
  uint64_t server_ttft_latency; /* ns */
  uint64_t server_tpot_latency; /* ns */
  int32_t infer_token_latencies;
  uint64_t token_latency_scaling_factor;
} mlpg_test_settings;

/* mlpg_log_settings mirrors mlperf::LogSettings and its LogOutputSettings.
 * The strings are borrowed for the duration of the call. */
typedef struct {
  const char* outdir;
  const char* prefix;
  const char* suffix;
  int32_t prefix_with_datetime;
  int32_t copy_detail_to_stdout;
  int32_t copy_summary_to_stdout;
  int32_t log_mode; /* mlperf::LoggingMode */
  uint64_t log_mode_async_poll_interval_ms;
  int32_t enable_trace;
} mlpg_log_settings;

/* mlpg_query_sample has mlperf::QuerySample's layout (checked by
 * static_assert in the shim), so a batch is handed over without copying. */
typedef struct {
  uint64_t id;
  uint64_t index;
} mlpg_query_sample;

/* mlpg_settings_default fills *s with mlperf::TestSettings' defaults. */
int mlpg_settings_default(mlpg_test_settings* s, char** err);

/* mlpg_settings_from_config applies TestSettings::FromConfig(path, model,
 * scenario, conf_type) to *s. *ret receives FromConfig's return value
 * (0, -ENOENT, -EINVAL). Returns MLPG_ERR_CONFIG when *ret != 0. */
int mlpg_settings_from_config(mlpg_test_settings* s, const char* path,
                              const char* model, const char* scenario,
                              int conf_type, int* ret, char** err);

/* mlpg_mlperf_conf returns the official mlperf.conf text compiled into
 * LoadGen (mlperf_conf.h), which FromConfig reads with conf_type 0. */
const char* mlpg_mlperf_conf(void);

/* mlpg_loadgen_version returns mlperf::LoadgenVersion() (VERSION.txt), or
 * "unknown" if that threw. */
const char* mlpg_loadgen_version(void);

/* mlpg_start_test runs mlperf::StartTest and blocks until the test ends.
 * qsl is an opaque handle handed back to the mlpgGo* QSL callbacks.
 * audit_config is the path LoadGen looks for (it uses it only if the file
 * exists).
 *
 * The SUT does not call into Go: LoadGen's IssueQuery and FlushQueries only
 * queue their work (see mlpg_queue_reset) and return. A callback per query
 * would make the Go runtime reacquire a P and wake threads on every query. */
int mlpg_start_test(const char* sut_name, uintptr_t qsl,
                    const char* qsl_name, uint64_t total_sample_count,
                    uint64_t performance_sample_count,
                    const mlpg_test_settings* settings,
                    const mlpg_log_settings* log, const char* audit_config,
                    char** err);

/* mlpg_queue_reset empties the issue queue before a test, before the Go
 * consumer starts. IssueQuery and FlushQueries write one byte to wake_fd
 * when the consumer said it is waiting (mlpg_take). needs_first_token tells
 * a drain (mlpg_set_draining) to report first tokens before completing. */
int mlpg_queue_reset(int wake_fd, int needs_first_token, char** err);

/* mlpg_take moves up to cap queued samples into buf and returns how many.
 * If more than cap are queued it copies nothing and returns minus the number
 * queued, so the caller can grow buf. *flushes receives the number of
 * FlushQueries calls queued behind the returned samples (only when all were
 * taken). When nothing is queued it returns 0 and marks the consumer as
 * waiting: the next IssueQuery or FlushQueries writes to wake_fd. It
 * returns INT64_MIN if the queue's lock failed. */
int64_t mlpg_take(mlpg_query_sample* buf, size_t cap, uint64_t* flushes);

/* ---- Completion ring ----------------------------------------------------
 *
 * Completions reach LoadGen from one native thread per test, in the order Go
 * made the Completer calls. LoadGen's AsyncLog buffers log records per OS
 * thread, so a first token and a completion of one sample handed over on two
 * threads can be logged in the wrong order (LogAccuracy before CacheToken:
 * wrong token_data, or a read past LoadGen's token record array).
 *
 * Go is the producer: under a Go mutex it writes records (and their response
 * bytes, into the arena) straight into this C memory, publishes them with an
 * atomic store of head, and wakes the thread (a raw futex or write system
 * call) only when it sleeps. No cgo call on the hot path. The thread delivers each run of
 * same-kind records with one FirstTokenComplete or QuerySamplesComplete
 * call, then releases the records and their bytes (tail, data_tail). */

/* Record kinds. */
enum {
  MLPG_FIRST_TOKEN = 1, /* mlperf::FirstTokenComplete */
  MLPG_COMPLETE = 2,    /* mlperf::QuerySamplesComplete */
  MLPG_MALLOCED = 4     /* or'ed in: data is a malloc'd address the thread
                           frees after delivery (bytes larger than the
                           arena allows) */
};

/* mlpg_completion is one response in the ring. */
typedef struct {
  uint64_t id;       /* LoadGen response ID */
  uint64_t data;     /* arena offset of the bytes, or an address with
                        MLPG_MALLOCED */
  uint64_t size;     /* bytes */
  int64_t n_tokens;  /* QuerySampleResponse.n_tokens */
  uint64_t kind;     /* MLPG_FIRST_TOKEN or MLPG_COMPLETE, | MLPG_MALLOCED */
  uint64_t data_end; /* arena position (monotonic) released with it */
} mlpg_completion;

/* mlpg_cring is the shared state. Positions are monotonic counts; record i
 * lives at recs[i % cap], arena position p at data[p % data_cap]. The fields
 * of each group sit on their own cache line. */
typedef struct {
  /* Written by Go (one producer at a time), read by the thread. */
  uint64_t head; /* records published; atomic (release by Go) */
  uint8_t pad0[56];
  /* Written by the thread, read by Go. */
  uint64_t tail;      /* records delivered and released; atomic */
  uint64_t data_tail; /* arena bytes released; atomic */
  uint8_t pad1[48];
  /* Both: the thread sets sleeping to 1 before it blocks; Go swaps it to 0
   * and wakes it: FUTEX_WAKE on sleeping (Linux), or one byte written to
   * wake_fd (elsewhere). */
  uint32_t sleeping;
  uint32_t stop; /* set by mlpg_completer_stop */
  uint8_t pad2[56];
  /* Constant while the test runs. */
  uint64_t cap;      /* records, a power of two */
  uint64_t data_cap; /* arena bytes */
  mlpg_completion* recs;
  uint8_t* data;
  int32_t wake_fd; /* write end of the wake pipe, non-blocking (not Linux) */
  int32_t pad3;
} mlpg_cring;

/* mlpg_completer_start allocates the ring (cap records, rounded up to a
 * power of two; data_cap arena bytes) and starts the completion thread for
 * the next test. qsl is the test's handle, passed to mlpgGoCompletionFailed
 * if a LoadGen call on the thread throws. *ring receives the ring. */
int mlpg_completer_start(uintptr_t qsl, uint64_t cap, uint64_t data_cap,
                         mlpg_cring** ring, char** err);

/* mlpg_completer_stop lets the thread deliver every published record, joins
 * it and frees the ring. *failures receives how many LoadGen calls on the
 * thread threw during the test. */
int mlpg_completer_stop(uint64_t* failures, char** err);

/* Test hooks. mlpg_completer_fail_after makes the completion thread throw
 * after its n-th LoadGen call from now (0: never). mlpg_completer_trace(1)
 * clears and starts a record of every delivered response (its ID, with bit
 * 63 set for a first token), in delivery order; 0 stops it.
 * mlpg_completer_trace_take copies up to cap entries into buf and returns
 * how many were recorded. */
void mlpg_completer_fail_after(uint64_t n);
void mlpg_completer_trace(int on);
size_t mlpg_completer_trace_take(uint64_t* buf, size_t cap);

/* mlpg_set_draining makes the running test's SUT complete every queued and
 * every newly issued sample at once, with an empty response (after a first
 * token where LoadGen needs one), without Go. The bridge uses it after a
 * failure so that LoadGen can finish its schedule: LoadGen has no way to
 * stop a running test early. */
void mlpg_set_draining(void);

/* mlpg_register_issue_query_thread calls mlperf::RegisterIssueQueryThread,
 * which blocks the calling thread and issues queries on it until the test
 * ends (server_num_issue_query_threads). */
int mlpg_register_issue_query_thread(char** err);

/* Implemented in Go (loadgen/callbacks.go). LoadGen calls them on its main
 * thread and waits for them. */
extern void mlpgGoLoadSamples(uintptr_t qsl, uint64_t* indices, size_t n);
extern void mlpgGoUnloadSamples(uintptr_t qsl, uint64_t* indices, size_t n);
/* Called on the completion thread, at most once per test, when a LoadGen
 * call there threw; msg is borrowed for the call. It must return quickly. */
extern void mlpgGoCompletionFailed(uintptr_t qsl, char* msg);

#ifdef __cplusplus
}
#endif

#endif /* MLPG_SHIM_H */
