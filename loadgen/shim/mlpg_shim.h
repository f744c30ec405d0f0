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

#include "mlpg_settings.h"

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

/* mlpg_test_settings mirrors mlperf::TestSettings field by field, expanded
 * from the one list in mlpg_settings.h. */
#define MLPG_C_FIELD(kind, name, ...) MLPG_CTYPE_##kind name;
typedef struct {
  MLPG_TEST_SETTINGS(MLPG_C_FIELD)
} mlpg_test_settings;
#undef MLPG_C_FIELD

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
 * queue their work (see mlpg_take) and return. A callback per query
 * would make the Go runtime reacquire a P and wake threads on every query. */
int mlpg_start_test(const char* sut_name, uintptr_t qsl,
                    const char* qsl_name, uint64_t total_sample_count,
                    uint64_t performance_sample_count,
                    const mlpg_test_settings* settings,
                    const mlpg_log_settings* log, const char* audit_config,
                    char** err);

/* mlpg_queue_reset empties the issue queue before a test, before the Go
 * server starts. */
int mlpg_queue_reset(char** err);

/* mlpg_take moves up to cap queued samples into buf and returns how many.
 * If more than cap are queued it copies nothing and returns minus the number
 * queued, so the caller can grow buf. *flushes receives the number of
 * FlushQueries calls queued (only when all samples were taken). With block
 * set it first waits until something is queued, mlpg_nudge or
 * mlpg_queue_stop was called. *stopped receives whether mlpg_queue_stop was
 * called. It returns INT64_MIN if the queue's lock failed. */
int64_t mlpg_take(mlpg_query_sample* buf, size_t cap, uint64_t* flushes,
                  int block, int* stopped);

/* mlpg_nudge makes a blocked (or the next blocking) mlpg_take return: Go
 * queued completions for the thread that calls it. */
void mlpg_nudge(void);

/* mlpg_queue_stop makes every mlpg_take until the next mlpg_queue_reset
 * return at once and report stopped: the test ended. */
void mlpg_queue_stop(void);

/* ---- Completions -------------------------------------------------------
 *
 * Every completion reaches LoadGen from one OS thread per test, in the order
 * Go made the Completer calls: a goroutine locked to its thread calls
 * mlpg_complete with batches. LoadGen's AsyncLog buffers log records per OS
 * thread, so a first token and a completion of one sample handed over on two
 * threads can be logged in the wrong order (LogAccuracy before CacheToken:
 * wrong token_data, or a read past LoadGen's token record array). */

/* Record kinds. */
enum {
  MLPG_FIRST_TOKEN = 1, /* mlperf::FirstTokenComplete */
  MLPG_COMPLETE = 2     /* mlperf::QuerySamplesComplete */
};

/* mlpg_completion is one response of a batch. */
typedef struct {
  uint64_t id;      /* LoadGen response ID */
  uint64_t offset;  /* where its bytes start in the batch's data */
  uint64_t size;    /* bytes */
  int64_t n_tokens; /* QuerySampleResponse.n_tokens */
  uint64_t kind;    /* MLPG_FIRST_TOKEN or MLPG_COMPLETE */
} mlpg_completion;

/* mlpg_complete hands recs[0..n) to LoadGen in order, one
 * FirstTokenComplete or QuerySamplesComplete call per run of same-kind
 * records; each response's bytes are data[offset, offset+size). Both arrays
 * are borrowed for the call (LoadGen copies what it keeps). A call that
 * throws does not stop the rest: the return value counts the calls that
 * threw, and *err receives the first one's message (malloc'd; the caller
 * frees it). */
uint64_t mlpg_complete(const mlpg_completion* recs, size_t n,
                       const uint8_t* data, char** err);

/* Test hooks. mlpg_complete_fail_after makes mlpg_complete throw after its
 * n-th LoadGen call from now (0: never). mlpg_complete_trace(1) clears and
 * starts a record of every response mlpg_complete delivers (its ID, with bit
 * 63 set for a first token), in delivery order, and of the OS threads that
 * delivered them; 0 stops it. mlpg_complete_trace_take copies up to cap
 * entries into buf, stores the number of distinct delivering threads in
 * *threads and returns how many entries were recorded. */
void mlpg_complete_fail_after(uint64_t n);
void mlpg_complete_trace(int on);
size_t mlpg_complete_trace_take(uint64_t* buf, size_t cap, size_t* threads);

/* mlpg_register_issue_query_thread calls mlperf::RegisterIssueQueryThread,
 * which blocks the calling thread and issues queries on it until the test
 * ends (server_num_issue_query_threads). */
int mlpg_register_issue_query_thread(char** err);

/* Implemented in Go (loadgen/callbacks.go). LoadGen calls them on its main
 * thread and waits for them. */
extern void mlpgGoLoadSamples(uintptr_t qsl, uint64_t* indices, size_t n);
extern void mlpgGoUnloadSamples(uintptr_t qsl, uint64_t* indices, size_t n);

#ifdef __cplusplus
}
#endif

#endif /* MLPG_SHIM_H */
