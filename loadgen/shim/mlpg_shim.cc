// mlpg_shim.cc: mlperf-go's C shim over the official LoadGen C++ API.
// See mlpg_shim.h for the contract. Every extern "C" entry point catches all
// exceptions: none may unwind into Go.

#include "mlpg_shim.h"

#include <atomic>
#include <cstddef>
#include <condition_variable>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <unordered_set>
#include <vector>

#include "loadgen.h"
#include "query_sample.h"
#include "query_sample_library.h"
#include "system_under_test.h"
#include "test_settings.h"
#include "version.h"

// Defined by the generated mlperf_conf.h inside LoadGen's
// test_settings_internal.cc (a namespace-scope const char*, so it has external
// linkage).
extern const char* mlperf_conf;

namespace {

static_assert(sizeof(mlpg_query_sample) == sizeof(mlperf::QuerySample),
              "mlpg_query_sample must match mlperf::QuerySample");
static_assert(offsetof(mlpg_query_sample, id) ==
                  offsetof(mlperf::QuerySample, id),
              "QuerySample.id offset");
static_assert(offsetof(mlpg_query_sample, index) ==
                  offsetof(mlperf::QuerySample, index),
              "QuerySample.index offset");
static_assert(sizeof(uint64_t) == sizeof(mlperf::QuerySampleIndex),
              "QuerySampleIndex must be 64-bit");

std::atomic<bool> g_running{false};

void set_err(char** err, const char* msg) {
  if (err == nullptr) return;
  size_t n = std::strlen(msg);
  char* s = static_cast<char*>(std::malloc(n + 1));
  if (s == nullptr) return;
  std::memcpy(s, msg, n + 1);
  *err = s;
}

// caught reports the exception being handled; call it only in a catch block.
int caught(char** err) {
  try {
    throw;
  } catch (const std::exception& e) {
    set_err(err, e.what());
  } catch (...) {
    set_err(err, "unknown C++ exception");
  }
  return MLPG_ERR_EXCEPTION;
}

// Queue hands issued samples from LoadGen's issue thread(s) to the Go
// goroutine that serves the test, and wakes it when Go queued completions
// for it (Nudge). One test runs at a time, so one queue suffices.
struct Queue {
  std::mutex mu;
  std::condition_variable cv;
  std::vector<mlperf::QuerySample> pending;
  uint64_t flushes = 0;
  bool nudged = false;   // Go queued completions while the server slept
  bool stopped = false;  // the test ended: Take returns at once

  void Reset() {
    std::lock_guard<std::mutex> lock(mu);
    pending.clear();
    flushes = 0;
    nudged = false;
    stopped = false;
  }

  void Push(const std::vector<mlperf::QuerySample>& samples) {
    {
      std::lock_guard<std::mutex> lock(mu);
      pending.insert(pending.end(), samples.begin(), samples.end());
    }
    cv.notify_one();
  }

  void Flush() {
    {
      std::lock_guard<std::mutex> lock(mu);
      flushes++;
    }
    cv.notify_one();
  }

  void Nudge() {
    {
      std::lock_guard<std::mutex> lock(mu);
      nudged = true;
    }
    cv.notify_one();
  }

  void Stop() {
    {
      std::lock_guard<std::mutex> lock(mu);
      stopped = true;
    }
    cv.notify_one();
  }

  int64_t Take(mlpg_query_sample* buf, size_t cap, uint64_t* flushes_out,
               bool block, int* stopped_out) {
    std::unique_lock<std::mutex> lock(mu);
    if (block) {
      cv.wait(lock, [this] {
        return !pending.empty() || flushes > 0 || nudged || stopped;
      });
    }
    nudged = false;
    *flushes_out = 0;
    *stopped_out = stopped;
    size_t n = pending.size();
    if (n > cap) return -static_cast<int64_t>(n);
    if (n > 0) {
      std::memcpy(buf, pending.data(), n * sizeof(mlpg_query_sample));
      pending.clear();
    }
    *flushes_out = flushes;
    flushes = 0;
    return static_cast<int64_t>(n);
  }
};

Queue g_queue;

// Test hooks of mlpg_complete (see mlpg_shim.h).
std::atomic<uint64_t> g_fail_after{0};
std::atomic<bool> g_trace_on{false};
std::mutex g_trace_mu;
std::vector<uint64_t> g_trace;
std::unordered_set<std::thread::id> g_trace_threads;

// Deliver makes one LoadGen call for a run of same-kind responses.
void Deliver(uint64_t kind, std::vector<mlperf::QuerySampleResponse>* batch) {
  if (g_trace_on.load(std::memory_order_relaxed)) {
    std::lock_guard<std::mutex> lock(g_trace_mu);
    g_trace_threads.insert(std::this_thread::get_id());
    for (const auto& r : *batch) {
      g_trace.push_back(r.id | (kind == MLPG_FIRST_TOKEN ? uint64_t(1) << 63 : 0));
    }
  }
  if (kind == MLPG_FIRST_TOKEN) {
    mlperf::FirstTokenComplete(batch->data(), batch->size());
  } else {
    mlperf::QuerySamplesComplete(batch->data(), batch->size());
  }
  uint64_t n = g_fail_after.load(std::memory_order_relaxed);
  if (n > 0) {
    g_fail_after.store(n - 1, std::memory_order_relaxed);
    if (n == 1) throw std::runtime_error("injected completion failure (test hook)");
  }
}

class Sut : public mlperf::SystemUnderTest {
 public:
  explicit Sut(std::string name) : name_(std::move(name)) {}
  const std::string& Name() override { return name_; }
  void IssueQuery(const std::vector<mlperf::QuerySample>& samples) override {
    g_queue.Push(samples);
  }
  void FlushQueries() override { g_queue.Flush(); }

 private:
  std::string name_;
};

class Qsl : public mlperf::QuerySampleLibrary {
 public:
  Qsl(uintptr_t handle, std::string name, size_t total, size_t perf)
      : handle_(handle), name_(std::move(name)), total_(total), perf_(perf) {}
  const std::string& Name() override { return name_; }
  size_t TotalSampleCount() override { return total_; }
  size_t PerformanceSampleCount() override { return perf_; }
  void LoadSamplesToRam(
      const std::vector<mlperf::QuerySampleIndex>& samples) override {
    mlpgGoLoadSamples(handle_,
                      const_cast<uint64_t*>(
                          reinterpret_cast<const uint64_t*>(samples.data())),
                      samples.size());
  }
  void UnloadSamplesFromRam(
      const std::vector<mlperf::QuerySampleIndex>& samples) override {
    mlpgGoUnloadSamples(handle_,
                        const_cast<uint64_t*>(
                            reinterpret_cast<const uint64_t*>(samples.data())),
                        samples.size());
  }

 private:
  uintptr_t handle_;
  std::string name_;
  size_t total_;
  size_t perf_;
};

// The C++ type of each kind of mlpg_settings.h.
#define MLPG_CPPTYPE_SCENARIO mlperf::TestScenario
#define MLPG_CPPTYPE_MODE mlperf::TestMode
#define MLPG_CPPTYPE_F64 double
#define MLPG_CPPTYPE_U64 uint64_t
#define MLPG_CPPTYPE_INT int
#define MLPG_CPPTYPE_BOOL bool

// Mirror declares the listed fields with LoadGen's types in list order. Its
// layout matching mlperf::TestSettings proves the list is complete and in
// order (a LoadGen upgrade that adds, drops or retypes a field fails here).
struct Mirror {
#define MLPG_MIRROR_FIELD(kind, name, ...) MLPG_CPPTYPE_##kind name;
  MLPG_TEST_SETTINGS(MLPG_MIRROR_FIELD)
#undef MLPG_MIRROR_FIELD
};
static_assert(sizeof(Mirror) == sizeof(mlperf::TestSettings),
              "mlpg_settings.h does not list every mlperf::TestSettings field");
#define MLPG_CHECK_FIELD(kind, name, ...)                              \
  static_assert(offsetof(Mirror, name) ==                              \
                    offsetof(mlperf::TestSettings, name),              \
                "mlpg_settings.h: " #name " is out of LoadGen's order"); \
  static_assert(sizeof(Mirror::name) == sizeof(mlperf::TestSettings::name), \
                "mlpg_settings.h: " #name " has the wrong kind");
MLPG_TEST_SETTINGS(MLPG_CHECK_FIELD)
#undef MLPG_CHECK_FIELD

void ToC(const mlperf::TestSettings& t, mlpg_test_settings* s) {
#define MLPG_TO_C(kind, name, ...) \
  s->name = static_cast<MLPG_CTYPE_##kind>(t.name);
  MLPG_TEST_SETTINGS(MLPG_TO_C)
#undef MLPG_TO_C
}

void FromC(const mlpg_test_settings* s, mlperf::TestSettings* t) {
#define MLPG_FROM_C(kind, name, ...) \
  t->name = static_cast<MLPG_CPPTYPE_##kind>(s->name);
  MLPG_TEST_SETTINGS(MLPG_FROM_C)
#undef MLPG_FROM_C
}

}  // namespace

extern "C" {

int mlpg_settings_default(mlpg_test_settings* s, char** err) {
  try {
    mlperf::TestSettings t;
    // token_latency_scaling_factor has no default initialiser in LoadGen's
    // header (it is indeterminate); FromConfig only sets it when
    // infer_token_latencies is on. Give it a defined value.
    t.token_latency_scaling_factor = 0;
    ToC(t, s);
    return MLPG_OK;
  } catch (...) {
    return caught(err);
  }
}

const char* mlpg_mlperf_conf(void) { return mlperf_conf; }

const char* mlpg_loadgen_version(void) {
  try {
    // A function-local static std::string: the pointer stays valid.
    return mlperf::LoadgenVersion().c_str();
  } catch (...) {
    return "unknown";
  }
}

int mlpg_settings_from_config(mlpg_test_settings* s, const char* path,
                              const char* model, const char* scenario,
                              int conf_type, int* ret, char** err) {
  try {
    mlperf::TestSettings t;
    FromC(s, &t);
    *ret = t.FromConfig(path, model, scenario, conf_type);
    ToC(t, s);
    return *ret == 0 ? MLPG_OK : MLPG_ERR_CONFIG;
  } catch (...) {
    return caught(err);
  }
}

int mlpg_queue_reset(char** err) {
  try {
    g_queue.Reset();
    return MLPG_OK;
  } catch (...) {
    return caught(err);
  }
}

int mlpg_start_test(const char* sut_name, uintptr_t qsl,
                    const char* qsl_name, uint64_t total_sample_count,
                    uint64_t performance_sample_count,
                    const mlpg_test_settings* settings,
                    const mlpg_log_settings* log, const char* audit_config,
                    char** err) {
  bool expected = false;
  if (!g_running.compare_exchange_strong(expected, true)) {
    set_err(err, "a LoadGen test is already running in this process");
    return MLPG_ERR_BUSY;
  }
  int rc = MLPG_OK;
  try {
    // The queue was reset by mlpg_queue_reset before Go's server started:
    // resetting it here could lose a nudge.
    Sut s(sut_name);
    Qsl q(qsl, qsl_name, total_sample_count, performance_sample_count);
    mlperf::TestSettings t;
    FromC(settings, &t);
    mlperf::LogSettings ls;
    ls.log_output.outdir = log->outdir;
    ls.log_output.prefix = log->prefix;
    ls.log_output.suffix = log->suffix;
    ls.log_output.prefix_with_datetime = log->prefix_with_datetime != 0;
    ls.log_output.copy_detail_to_stdout = log->copy_detail_to_stdout != 0;
    ls.log_output.copy_summary_to_stdout = log->copy_summary_to_stdout != 0;
    ls.log_mode = static_cast<mlperf::LoggingMode>(log->log_mode);
    ls.log_mode_async_poll_interval_ms = log->log_mode_async_poll_interval_ms;
    ls.enable_trace = log->enable_trace != 0;
    mlperf::StartTest(&s, &q, t, ls, audit_config);
  } catch (...) {
    rc = caught(err);
  }
  g_running.store(false, std::memory_order_release);
  return rc;
}

uint64_t mlpg_complete(const mlpg_completion* recs, size_t n,
                       const uint8_t* data, char** err) {
  // One batch vector per delivering thread, reused across calls.
  thread_local std::vector<mlperf::QuerySampleResponse> batch;
  uint64_t failures = 0;
  size_t i = 0;
  while (i < n) {
    const uint64_t kind = recs[i].kind;
    size_t end = i;
    try {
      batch.clear();
      for (; end < n && recs[end].kind == kind; end++) {
        const mlpg_completion& c = recs[end];
        uintptr_t p = c.size > 0 ? reinterpret_cast<uintptr_t>(data + c.offset) : 0;
        batch.emplace_back(c.id, p, c.size, c.n_tokens);
      }
      Deliver(kind, &batch);
    } catch (...) {
      if (failures++ == 0) caught(err);
      // A throw while building the batch leaves end short: skip the run.
      for (; end < n && recs[end].kind == kind; end++) {
      }
    }
    i = end;
  }
  return failures;
}

void mlpg_complete_fail_after(uint64_t n) { g_fail_after.store(n); }

void mlpg_complete_trace(int on) {
  try {
    std::lock_guard<std::mutex> lock(g_trace_mu);
    if (on) {
      g_trace.clear();
      g_trace_threads.clear();
    }
    g_trace_on.store(on != 0);
  } catch (...) {
  }
}

size_t mlpg_complete_trace_take(uint64_t* buf, size_t cap, size_t* threads) {
  try {
    std::lock_guard<std::mutex> lock(g_trace_mu);
    size_t n = g_trace.size() < cap ? g_trace.size() : cap;
    if (n > 0) std::memcpy(buf, g_trace.data(), n * sizeof(uint64_t));
    *threads = g_trace_threads.size();
    return g_trace.size();
  } catch (...) {
    return 0;
  }
}

int64_t mlpg_take(mlpg_query_sample* buf, size_t cap, uint64_t* flushes,
                  int block, int* stopped) {
  try {
    return g_queue.Take(buf, cap, flushes, block != 0, stopped);
  } catch (...) {
    return INT64_MIN;  // only the mutex and the wait can throw here
  }
}

void mlpg_nudge(void) {
  try {
    g_queue.Nudge();
  } catch (...) {
  }
}

void mlpg_queue_stop(void) {
  try {
    g_queue.Stop();
  } catch (...) {
  }
}

int mlpg_register_issue_query_thread(char** err) {
  try {
    mlperf::RegisterIssueQueryThread();
    return MLPG_OK;
  } catch (...) {
    return caught(err);
  }
}

}  // extern "C"
