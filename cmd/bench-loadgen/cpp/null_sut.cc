// null_sut.cc: the C++ baseline for `make bench-loadgen`. A SUT that
// completes every sample inside IssueQuery with an empty response, run in
// LoadGen's Server scenario with the settings given on the command line.
// The Go driver (cmd/bench-loadgen) runs the same SUT through mlperf-go's cgo
// bridge against the same libmlperf_loadgen.a and compares the two.
//
// usage: loadgen_null_sut_cpp <outdir> <target_qps> <min_duration_ms>
//                             <target_latency_ns> <samples>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "loadgen.h"
#include "query_sample.h"
#include "query_sample_library.h"
#include "system_under_test.h"
#include "test_settings.h"

namespace {

class NullSut : public mlperf::SystemUnderTest {
 public:
  const std::string& Name() override { return name_; }
  void IssueQuery(const std::vector<mlperf::QuerySample>& samples) override {
    // One response per sample, completed in one call, as the Go null SUT.
    responses_.clear();
    for (const auto& s : samples) responses_.emplace_back(s.id, 0, 0);
    mlperf::QuerySamplesComplete(responses_.data(), responses_.size());
  }
  void FlushQueries() override {}

 private:
  std::string name_ = "NullSUT-cpp";
  std::vector<mlperf::QuerySampleResponse> responses_;
};

class NullQsl : public mlperf::QuerySampleLibrary {
 public:
  explicit NullQsl(size_t n) : n_(n) {}
  const std::string& Name() override { return name_; }
  size_t TotalSampleCount() override { return n_; }
  size_t PerformanceSampleCount() override { return n_; }
  void LoadSamplesToRam(const std::vector<mlperf::QuerySampleIndex>&) override {}
  void UnloadSamplesFromRam(
      const std::vector<mlperf::QuerySampleIndex>&) override {}

 private:
  std::string name_ = "NullQSL";
  size_t n_;
};

}  // namespace

int main(int argc, char** argv) {
  if (argc != 6) {
    std::fprintf(stderr,
                 "usage: %s <outdir> <target_qps> <min_duration_ms> "
                 "<target_latency_ns> <samples>\n",
                 argv[0]);
    return 2;
  }
  mlperf::TestSettings ts;
  ts.scenario = mlperf::TestScenario::Server;
  ts.mode = mlperf::TestMode::PerformanceOnly;
  ts.server_target_qps = std::strtod(argv[2], nullptr);
  ts.min_duration_ms = std::strtoull(argv[3], nullptr, 10);
  ts.server_target_latency_ns = std::strtoull(argv[4], nullptr, 10);
  ts.min_query_count = 1;

  mlperf::LogSettings ls;
  ls.log_output.outdir = argv[1];
  ls.enable_trace = false;

  NullSut sut;
  NullQsl qsl(std::strtoull(argv[5], nullptr, 10));
  mlperf::StartTest(&sut, &qsl, ts, ls);
  return 0;
}
