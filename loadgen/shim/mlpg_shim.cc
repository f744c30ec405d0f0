// mlpg_shim.cc: mlperf-go's C shim over the official LoadGen C++ API.
// See mlpg_shim.h for the contract. Every extern "C" entry point catches all
// exceptions: none may unwind into Go.

#include "mlpg_shim.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#ifdef __linux__
#include <linux/futex.h>
#include <sys/syscall.h>
#endif

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
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

// CompleteEmpty completes samples with empty responses, without Go, after a
// first token where LoadGen needs one (it reads past its token-latency array
// otherwise). Used while draining a failed test.
void CompleteEmpty(const mlperf::QuerySample* samples, size_t n,
                   bool first_token) {
  if (n == 0) return;
  std::vector<mlperf::QuerySampleResponse> rs;
  rs.reserve(n);
  for (size_t i = 0; i < n; i++) rs.emplace_back(samples[i].id, 0, 0, 0);
  if (first_token) mlperf::FirstTokenComplete(rs.data(), rs.size());
  mlperf::QuerySamplesComplete(rs.data(), rs.size());
}

// Queue hands issued samples from LoadGen's issue thread(s) to the Go
// consumer. One test runs at a time, so one queue suffices.
struct Queue {
  std::mutex mu;
  std::vector<mlperf::QuerySample> pending;
  uint64_t flushes = 0;
  bool waiting = false;   // the consumer found nothing and sleeps on wake_fd
  bool draining = false;  // complete everything here, Go is done
  bool needs_first_token = false;
  int wake_fd = -1;

  void Reset(int fd, bool first_token) {
    std::lock_guard<std::mutex> lock(mu);
    pending.clear();
    flushes = 0;
    waiting = false;
    draining = false;
    needs_first_token = first_token;
    wake_fd = fd;
  }

  void Wake() {
    char b = 1;
    // One byte per sleep of the consumer; the pipe never fills.
    ssize_t r = write(wake_fd, &b, 1);
    (void)r;
  }

  void Push(const std::vector<mlperf::QuerySample>& samples) {
    bool wake;
    {
      std::unique_lock<std::mutex> lock(mu);
      if (draining) {
        bool ft = needs_first_token;
        lock.unlock();
        CompleteEmpty(samples.data(), samples.size(), ft);
        return;
      }
      pending.insert(pending.end(), samples.begin(), samples.end());
      wake = waiting;
      waiting = false;
    }
    if (wake) Wake();
  }

  void Flush() {
    bool wake;
    {
      std::lock_guard<std::mutex> lock(mu);
      if (draining) return;
      flushes++;
      wake = waiting;
      waiting = false;
    }
    if (wake) Wake();
  }

  int64_t Take(mlpg_query_sample* buf, size_t cap, uint64_t* flushes_out) {
    std::lock_guard<std::mutex> lock(mu);
    *flushes_out = 0;
    size_t n = pending.size();
    if (n > cap) return -static_cast<int64_t>(n);
    if (n == 0 && flushes == 0) {
      waiting = true;
      return 0;
    }
    if (n > 0) {
      std::memcpy(buf, pending.data(), n * sizeof(mlpg_query_sample));
      pending.clear();
    }
    *flushes_out = flushes;
    flushes = 0;
    return static_cast<int64_t>(n);
  }

  void Drain() {
    std::vector<mlperf::QuerySample> rest;
    bool ft;
    {
      std::lock_guard<std::mutex> lock(mu);
      draining = true;
      rest.swap(pending);
      ft = needs_first_token;
    }
    CompleteEmpty(rest.data(), rest.size(), ft);
  }
};

Queue g_queue;

// Atomic access to the plain fields of mlpg_cring, which Go also reads and
// writes with sync/atomic (sequentially consistent on both sides).
uint64_t LoadAcquire(const uint64_t* p) {
  return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}
void StoreRelease(uint64_t* p, uint64_t v) {
  __atomic_store_n(p, v, __ATOMIC_RELEASE);
}

// The delivery trace (test hook, see mlpg_completer_trace).
std::atomic<bool> g_trace_on{false};
std::mutex g_trace_mu;
std::vector<uint64_t> g_trace;

// Completer is the per-test completion thread: it drains the ring Go fills
// and calls LoadGen from this one thread, in ring order (see mlpg_shim.h).
class Completer {
 public:
  Completer(uintptr_t handle, uint64_t cap, uint64_t data_cap)
      : handle_(handle) {
    uint64_t c = 1;
    while (c < cap) c <<= 1;
    ring_ = static_cast<mlpg_cring*>(std::calloc(1, sizeof(mlpg_cring)));
    if (ring_ == nullptr) throw std::bad_alloc();
    ring_->cap = c;
    ring_->data_cap = data_cap;
    ring_->wake_fd = -1;
    ring_->recs = static_cast<mlpg_completion*>(
        std::calloc(c, sizeof(mlpg_completion)));
    ring_->data = static_cast<uint8_t*>(std::malloc(data_cap > 0 ? data_cap : 1));
    if (ring_->recs == nullptr || ring_->data == nullptr) {
      Free();
      throw std::bad_alloc();
    }
    int fds[2];
    if (pipe(fds) != 0) {
      Free();
      throw std::runtime_error(std::string("completion wake pipe: ") +
                               std::strerror(errno));
    }
    read_fd_ = fds[0];
    ring_->wake_fd = fds[1];
    fcntl(fds[0], F_SETFD, FD_CLOEXEC);
    fcntl(fds[1], F_SETFD, FD_CLOEXEC);
    // Go writes with a raw write(2) that must never block.
    fcntl(fds[1], F_SETFL, fcntl(fds[1], F_GETFL) | O_NONBLOCK);
    batch_.reserve(1024);
    try {
      thread_ = std::thread([this] { Run(); });
    } catch (...) {
      Free();
      throw;
    }
  }

  ~Completer() { Free(); }

  mlpg_cring* ring() { return ring_; }
  uint64_t failures() const { return failures_.load(); }

  // Stop delivers what is published, then joins the thread.
  void Stop() {
    __atomic_store_n(&ring_->stop, 1, __ATOMIC_SEQ_CST);
    Wake();
    thread_.join();
  }

  void FailAfter(uint64_t n) { fail_after_.store(n); }

 private:
  void Free() {
    if (ring_ != nullptr) {
      if (ring_->wake_fd >= 0) close(ring_->wake_fd);
      std::free(ring_->recs);
      std::free(ring_->data);
      std::free(ring_);
      ring_ = nullptr;
    }
    if (read_fd_ >= 0) close(read_fd_);
    read_fd_ = -1;
  }

  // Wake and Sleep mirror ring_wake_*.go. On Linux the thread waits on a
  // futex on ring_->sleeping (a wake costs one futex syscall, no file);
  // elsewhere it reads the wake pipe.
#ifdef __linux__
  void Wake() {
    __atomic_store_n(&ring_->sleeping, 0, __ATOMIC_SEQ_CST);
    syscall(SYS_futex, &ring_->sleeping, FUTEX_WAKE_PRIVATE, 1, nullptr, nullptr, 0);
  }

  // Sleep returns at once if Go has already reset sleeping to 0.
  void Sleep() {
    syscall(SYS_futex, &ring_->sleeping, FUTEX_WAIT_PRIVATE, 1, nullptr, nullptr, 0);
  }
#else
  void Wake() {
    char b = 1;
    ssize_t r = write(ring_->wake_fd, &b, 1);  // EAGAIN: a wake is pending
    (void)r;
  }

  void Sleep() {
    char buf[64];
    for (;;) {
      ssize_t r = read(read_fd_, buf, sizeof buf);
      if (r >= 0 || errno != EINTR) return;
    }
  }
#endif

  void Run() {
    uint64_t tail = ring_->tail;
    for (;;) {
      uint64_t head = LoadAcquire(&ring_->head);
      if (head == tail) {
        if (__atomic_load_n(&ring_->stop, __ATOMIC_SEQ_CST) != 0) {
          if (LoadAcquire(&ring_->head) == tail) return;
          continue;
        }
        // Announce the sleep, then look again: Go publishes head before it
        // reads sleeping, so one of the two sees the other (both seq_cst).
        __atomic_store_n(&ring_->sleeping, 1, __ATOMIC_SEQ_CST);
        if (__atomic_load_n(&ring_->head, __ATOMIC_SEQ_CST) == tail &&
            __atomic_load_n(&ring_->stop, __ATOMIC_SEQ_CST) == 0) {
          Sleep();
        }
        __atomic_store_n(&ring_->sleeping, 0, __ATOMIC_SEQ_CST);
        continue;
      }
      tail = Deliver(tail, head);
    }
  }

  // Deliver hands records [tail, head) to LoadGen, one call per run of
  // same-kind records, releasing each run after its call. It returns head.
  uint64_t Deliver(uint64_t tail, uint64_t head) {
    const uint64_t mask = ring_->cap - 1;
    while (tail != head) {
      const uint64_t kind = ring_->recs[tail & mask].kind & ~uint64_t(MLPG_MALLOCED);
      batch_.clear();
      uint64_t data_end = 0;
      uint64_t end = tail;
      for (; end != head; end++) {
        const mlpg_completion& c = ring_->recs[end & mask];
        if ((c.kind & ~uint64_t(MLPG_MALLOCED)) != kind) break;
        uintptr_t data = 0;
        if (c.size > 0) {
          data = (c.kind & MLPG_MALLOCED)
                     ? static_cast<uintptr_t>(c.data)
                     : reinterpret_cast<uintptr_t>(ring_->data + c.data % ring_->data_cap);
        }
        batch_.emplace_back(c.id, data, c.size, c.n_tokens);
        data_end = c.data_end;
      }
      if (g_trace_on.load(std::memory_order_relaxed)) {
        std::lock_guard<std::mutex> lock(g_trace_mu);
        for (const auto& r : batch_) {
          g_trace.push_back(r.id | (kind == MLPG_FIRST_TOKEN ? uint64_t(1) << 63 : 0));
        }
      }
      try {
        if (kind == MLPG_FIRST_TOKEN) {
          mlperf::FirstTokenComplete(batch_.data(), batch_.size());
        } else {
          mlperf::QuerySamplesComplete(batch_.data(), batch_.size());
        }
        uint64_t n = fail_after_.load(std::memory_order_relaxed);
        if (n > 0) {
          fail_after_.store(n - 1, std::memory_order_relaxed);
          if (n == 1) throw std::runtime_error("injected completion failure (test hook)");
        }
      } catch (...) {
        Failed();
      }
      for (uint64_t i = tail; i != end; i++) {
        const mlpg_completion& c = ring_->recs[i & mask];
        if (c.kind & MLPG_MALLOCED) std::free(reinterpret_cast<void*>(c.data));
      }
      // Release the bytes before the records: Go reuses arena space only
      // for records it can place, so the order is not needed for safety,
      // but it lets a waiting producer see both at once.
      StoreRelease(&ring_->data_tail, data_end);
      StoreRelease(&ring_->tail, end);
      tail = end;
    }
    return tail;
  }

  // Failed reports the exception being handled to Go, once per test.
  void Failed() {
    char* msg = nullptr;
    caught(&msg);
    if (failures_.fetch_add(1) == 0) {
      mlpgGoCompletionFailed(handle_, msg != nullptr ? msg : const_cast<char*>("LoadGen threw"));
    }
    std::free(msg);
  }

  uintptr_t handle_;
  mlpg_cring* ring_ = nullptr;
  int read_fd_ = -1;
  std::thread thread_;
  std::vector<mlperf::QuerySampleResponse> batch_;
  std::atomic<uint64_t> failures_{0};
  std::atomic<uint64_t> fail_after_{0};
};

// The running test's completer; set and cleared by Go around each test.
Completer* g_completer = nullptr;

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

void ToC(const mlperf::TestSettings& t, mlpg_test_settings* s) {
  s->scenario = static_cast<int32_t>(t.scenario);
  s->mode = static_cast<int32_t>(t.mode);
  s->single_stream_expected_latency_ns = t.single_stream_expected_latency_ns;
  s->single_stream_target_latency_percentile =
      t.single_stream_target_latency_percentile;
  s->multi_stream_expected_latency_ns = t.multi_stream_expected_latency_ns;
  s->multi_stream_target_latency_percentile =
      t.multi_stream_target_latency_percentile;
  s->multi_stream_samples_per_query = t.multi_stream_samples_per_query;
  s->server_target_qps = t.server_target_qps;
  s->server_target_latency_ns = t.server_target_latency_ns;
  s->server_target_latency_percentile = t.server_target_latency_percentile;
  s->server_coalesce_queries = t.server_coalesce_queries;
  s->server_find_peak_qps_decimals_of_precision =
      t.server_find_peak_qps_decimals_of_precision;
  s->server_find_peak_qps_boundary_step_size =
      t.server_find_peak_qps_boundary_step_size;
  s->server_max_async_queries = t.server_max_async_queries;
  s->server_num_issue_query_threads = t.server_num_issue_query_threads;
  s->offline_expected_qps = t.offline_expected_qps;
  s->sample_concatenate_permutation = t.sample_concatenate_permutation;
  s->min_duration_ms = t.min_duration_ms;
  s->max_duration_ms = t.max_duration_ms;
  s->min_query_count = t.min_query_count;
  s->max_query_count = t.max_query_count;
  s->qsl_rng_seed = t.qsl_rng_seed;
  s->sample_index_rng_seed = t.sample_index_rng_seed;
  s->schedule_rng_seed = t.schedule_rng_seed;
  s->accuracy_log_rng_seed = t.accuracy_log_rng_seed;
  s->accuracy_log_probability = t.accuracy_log_probability;
  s->accuracy_log_sampling_target = t.accuracy_log_sampling_target;
  s->test05 = t.test05;
  s->test05_qsl_rng_seed = t.test05_qsl_rng_seed;
  s->test05_sample_index_rng_seed = t.test05_sample_index_rng_seed;
  s->test05_schedule_rng_seed = t.test05_schedule_rng_seed;
  s->print_timestamps = t.print_timestamps;
  s->performance_issue_unique = t.performance_issue_unique;
  s->performance_issue_same = t.performance_issue_same;
  s->performance_issue_same_index = t.performance_issue_same_index;
  s->performance_sample_count_override = t.performance_sample_count_override;
  s->accuracy_sample_count_override = t.accuracy_sample_count_override;
  s->use_token_latencies = t.use_token_latencies;
  s->server_ttft_latency = t.server_ttft_latency;
  s->server_tpot_latency = t.server_tpot_latency;
  s->infer_token_latencies = t.infer_token_latencies;
  s->token_latency_scaling_factor = t.token_latency_scaling_factor;
}

void FromC(const mlpg_test_settings* s, mlperf::TestSettings* t) {
  t->scenario = static_cast<mlperf::TestScenario>(s->scenario);
  t->mode = static_cast<mlperf::TestMode>(s->mode);
  t->single_stream_expected_latency_ns = s->single_stream_expected_latency_ns;
  t->single_stream_target_latency_percentile =
      s->single_stream_target_latency_percentile;
  t->multi_stream_expected_latency_ns = s->multi_stream_expected_latency_ns;
  t->multi_stream_target_latency_percentile =
      s->multi_stream_target_latency_percentile;
  t->multi_stream_samples_per_query = s->multi_stream_samples_per_query;
  t->server_target_qps = s->server_target_qps;
  t->server_target_latency_ns = s->server_target_latency_ns;
  t->server_target_latency_percentile = s->server_target_latency_percentile;
  t->server_coalesce_queries = s->server_coalesce_queries != 0;
  t->server_find_peak_qps_decimals_of_precision =
      s->server_find_peak_qps_decimals_of_precision;
  t->server_find_peak_qps_boundary_step_size =
      s->server_find_peak_qps_boundary_step_size;
  t->server_max_async_queries = s->server_max_async_queries;
  t->server_num_issue_query_threads = s->server_num_issue_query_threads;
  t->offline_expected_qps = s->offline_expected_qps;
  t->sample_concatenate_permutation = s->sample_concatenate_permutation != 0;
  t->min_duration_ms = s->min_duration_ms;
  t->max_duration_ms = s->max_duration_ms;
  t->min_query_count = s->min_query_count;
  t->max_query_count = s->max_query_count;
  t->qsl_rng_seed = s->qsl_rng_seed;
  t->sample_index_rng_seed = s->sample_index_rng_seed;
  t->schedule_rng_seed = s->schedule_rng_seed;
  t->accuracy_log_rng_seed = s->accuracy_log_rng_seed;
  t->accuracy_log_probability = s->accuracy_log_probability;
  t->accuracy_log_sampling_target = s->accuracy_log_sampling_target;
  t->test05 = s->test05 != 0;
  t->test05_qsl_rng_seed = s->test05_qsl_rng_seed;
  t->test05_sample_index_rng_seed = s->test05_sample_index_rng_seed;
  t->test05_schedule_rng_seed = s->test05_schedule_rng_seed;
  t->print_timestamps = s->print_timestamps != 0;
  t->performance_issue_unique = s->performance_issue_unique != 0;
  t->performance_issue_same = s->performance_issue_same != 0;
  t->performance_issue_same_index = s->performance_issue_same_index;
  t->performance_sample_count_override = s->performance_sample_count_override;
  t->accuracy_sample_count_override = s->accuracy_sample_count_override;
  t->use_token_latencies = s->use_token_latencies != 0;
  t->server_ttft_latency = s->server_ttft_latency;
  t->server_tpot_latency = s->server_tpot_latency;
  t->infer_token_latencies = s->infer_token_latencies != 0;
  t->token_latency_scaling_factor = s->token_latency_scaling_factor;
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

int mlpg_queue_reset(int wake_fd, int needs_first_token, char** err) {
  try {
    g_queue.Reset(wake_fd, needs_first_token != 0);
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
    // The queue was reset by mlpg_queue_reset before Go's consumer started:
    // resetting it here could lose the consumer's "waiting" mark.
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

int mlpg_completer_start(uintptr_t qsl, uint64_t cap, uint64_t data_cap,
                         mlpg_cring** ring, char** err) {
  try {
    if (g_completer != nullptr) {
      set_err(err, "a completion thread is already running");
      return MLPG_ERR_BUSY;
    }
    if (cap == 0 || data_cap == 0) {
      set_err(err, "completion ring and arena need a non-zero size");
      return MLPG_ERR_CONFIG;
    }
    g_completer = new Completer(qsl, cap, data_cap);
    *ring = g_completer->ring();
    return MLPG_OK;
  } catch (...) {
    return caught(err);
  }
}

int mlpg_completer_stop(uint64_t* failures, char** err) {
  *failures = 0;
  if (g_completer == nullptr) return MLPG_OK;
  try {
    g_completer->Stop();
    *failures = g_completer->failures();
    delete g_completer;
    g_completer = nullptr;
    return MLPG_OK;
  } catch (...) {
    return caught(err);
  }
}

void mlpg_completer_fail_after(uint64_t n) {
  if (g_completer != nullptr) g_completer->FailAfter(n);
}

void mlpg_completer_trace(int on) {
  try {
    std::lock_guard<std::mutex> lock(g_trace_mu);
    if (on) g_trace.clear();
    g_trace_on.store(on != 0);
  } catch (...) {
  }
}

size_t mlpg_completer_trace_take(uint64_t* buf, size_t cap) {
  try {
    std::lock_guard<std::mutex> lock(g_trace_mu);
    size_t n = g_trace.size() < cap ? g_trace.size() : cap;
    if (n > 0) std::memcpy(buf, g_trace.data(), n * sizeof(uint64_t));
    return g_trace.size();
  } catch (...) {
    return 0;
  }
}

int64_t mlpg_take(mlpg_query_sample* buf, size_t cap, uint64_t* flushes) {
  try {
    return g_queue.Take(buf, cap, flushes);
  } catch (...) {
    return INT64_MIN;  // only std::mutex can throw here
  }
}

void mlpg_set_draining(void) {
  try {
    g_queue.Drain();
  } catch (...) {
    // Completing with empty responses does not throw in LoadGen 6.0; if it
    // ever did, the test would hang rather than unwind into Go.
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
