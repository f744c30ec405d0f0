# mlperf-go build.
#   make                 fetch + verify LoadGen, build it with CMake, build build/bin/mlperf-go
#   make test            go vet ./... and go test -race ./... against the built LoadGen
#   make demo            the embedded default: synthetic data, fake endpoint, LoadGen runs
#   make bench           harness benchmarks (CPU per sample/token, memory, load rate) + bench-loadgen
#   make bench-loadgen   Go vs C++ null-SUT Server benchmark through the same LoadGen
#   make clean           remove build/ (keeps the downloaded sdist)
#
# LoadGen sources: LOADGEN_SRC=<dir> uses a checkout (e.g. inference/loadgen);
# otherwise the pip sdist mlcommons-loadgen==$(LOADGEN_VERSION) is downloaded
# into third_party/ and checked against third_party/<sdist>.tar.gz.sha256.

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := all
.DELETE_ON_ERROR:

LOADGEN_VERSION ?= 6.0.17
LOADGEN_SRC ?=
GO ?= go
PYTHON ?= python3
PIP ?= $(PYTHON) -m pip
CMAKE ?= cmake
CXX ?= g++
JOBS ?= 2

ROOT := $(CURDIR)
BUILD := build
TP := third_party
MODULE := github.com/mlperf-go/mlperf-go
LIBS := $(BUILD)/libmlperf_loadgen.a $(BUILD)/libmlperf_go_shim.a

ifeq ($(strip $(LOADGEN_SRC)),)
LG_SDIST := mlcommons_loadgen-$(LOADGEN_VERSION)
LG_ARCHIVE := $(TP)/$(LG_SDIST).tar.gz
LG_PIN := $(TP)/$(LG_SDIST).tar.gz.sha256
LG_DIR := $(ROOT)/$(TP)/$(LG_SDIST)
LG_READY := $(TP)/$(LG_SDIST)/.mlperf-go-verified
LG_ORIGIN = pip sdist mlcommons-loadgen==$(LOADGEN_VERSION) sha256:$(shell cut -d' ' -f1 $(LG_PIN))
else
LG_DIR := $(abspath $(LOADGEN_SRC))
LG_READY := $(LG_DIR)/VERSION.txt
LG_ORIGIN = LOADGEN_SRC $(LG_DIR)
endif

HARNESS_VERSION = $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
BI := $(MODULE)/internal/buildinfo
# Evaluated in recipes, after the library exists.
GO_LDFLAGS = -X '$(BI).Version=$(HARNESS_VERSION)' \
	-X '$(BI).LoadGenVersion=$(shell tr -d '[:space:]' < $(LG_DIR)/VERSION.txt)' \
	-X '$(BI).LoadGenSource=$(LG_ORIGIN)' \
	-X '$(BI).LibrarySHA256=$(shell cat $(LIBS) | sha256sum | cut -d' ' -f1)'

.PHONY: all native tools test vet bench-loadgen bench demo clean FORCE

all: $(BUILD)/bin/mlperf-go mlperf.conf

# ---- tools ---------------------------------------------------------------
tools:
	@missing=0; \
	need() { if ! command -v "$$1" >/dev/null 2>&1; then echo "error: '$$1' not found: $$2" >&2; missing=1; fi; }; \
	need $(GO) "install Go 1.26+ from go.dev and put it on PATH (e.g. /usr/local/go/bin)"; \
	need $(CMAKE) "apt-get install cmake"; \
	need $(CXX) "apt-get install g++"; \
	need $(PYTHON) "apt-get install python3"; \
	if [ -z "$(strip $(LOADGEN_SRC))" ] && ! $(PIP) --version >/dev/null 2>&1; then \
	  echo "error: '$(PIP)' does not work: apt-get install python3-pip (or set LOADGEN_SRC=<inference>/loadgen)" >&2; missing=1; fi; \
	exit $$missing

# ---- LoadGen sources -----------------------------------------------------
ifeq ($(strip $(LOADGEN_SRC)),)
$(LG_PIN):
	@echo "error: LoadGen $(LOADGEN_VERSION) is not pinned: $(LG_PIN) does not exist." >&2; \
	echo "       Pinned releases: $$(ls $(TP)/*.tar.gz.sha256 2>/dev/null | sed 's|.*/mlcommons_loadgen-||; s|.tar.gz.sha256||' | tr '\n' ' ')" >&2; \
	echo "       Use one of those, or download the sdist, verify it, and commit its sha256 as $(LG_PIN)." >&2; \
	exit 1

# pip prints progress; the archive is checked against the pin before use.
$(LG_ARCHIVE): | $(LG_PIN) tools
	@echo "Downloading mlcommons-loadgen==$(LOADGEN_VERSION) (sdist) with pip"
	@tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	$(PIP) download --no-deps --no-binary=:all: --disable-pip-version-check -q \
	  -d "$$tmp" "mlcommons-loadgen==$(LOADGEN_VERSION)"; \
	f="$$tmp/$(LG_SDIST).tar.gz"; \
	if [ ! -f "$$f" ]; then echo "error: pip did not produce $(LG_SDIST).tar.gz (got: $$(ls $$tmp))" >&2; exit 1; fi; \
	mv "$$f" $@

$(LG_READY): $(LG_ARCHIVE) $(LG_PIN)
	@want=$$(cut -d' ' -f1 $(LG_PIN)); got=$$(sha256sum $(LG_ARCHIVE) | cut -d' ' -f1); \
	if [ "$$want" != "$$got" ]; then \
	  echo "error: checksum mismatch for $(LG_ARCHIVE):" >&2; \
	  echo "       pinned   $$want ($(LG_PIN))" >&2; \
	  echo "       download $$got" >&2; \
	  echo "       The file is not the pinned release; it has been removed. Run make again to re-download;" >&2; \
	  echo "       if it still differs, do not change the pin without verifying the new archive." >&2; \
	  rm -f $(LG_ARCHIVE); exit 1; fi
	@rm -rf $(TP)/$(LG_SDIST)
	@tar -xzf $(LG_ARCHIVE) -C $(TP)
	@v=$$(tr -d '[:space:]' < $(TP)/$(LG_SDIST)/VERSION.txt); if [ "$$v" != "$(LOADGEN_VERSION)" ]; then \
	  echo "error: $(LG_ARCHIVE) unpacks to VERSION.txt $$v, not $(LOADGEN_VERSION)" >&2; exit 1; fi
	@cut -d' ' -f1 $(LG_PIN) > $@
	@echo "LoadGen $(LOADGEN_VERSION) sources verified and unpacked in $(TP)/$(LG_SDIST)"
else
$(LG_READY):
	@echo "error: LOADGEN_SRC=$(LOADGEN_SRC) is not a LoadGen directory (no VERSION.txt); point it at inference/loadgen" >&2; exit 1
endif

# ---- native build (CMake) ------------------------------------------------
# Reconfigure when the LoadGen source directory changes.
$(BUILD)/loadgen-src.txt: FORCE
	@mkdir -p $(BUILD)
	@if [ "$$(cat $@ 2>/dev/null)" != "$(LG_DIR)" ]; then echo "$(LG_DIR)" > $@; fi

$(BUILD)/cmake/CMakeCache.txt: CMakeLists.txt $(BUILD)/loadgen-src.txt $(LG_READY) | tools
	@test -f $(LG_DIR)/loadgen.h || { echo "error: $(LG_DIR) has no loadgen.h" >&2; exit 1; }
	$(CMAKE) -S . -B $(BUILD)/cmake -G "Unix Makefiles" -DCMAKE_BUILD_TYPE=Release -DLOADGEN_SRC_DIR=$(LG_DIR) >/dev/null
	@touch $@

native: tools $(BUILD)/cmake/CMakeCache.txt
	@$(CMAKE) --build $(BUILD)/cmake -j $(JOBS) --target mlperf_go_shim mlperf_loadgen -- --no-print-directory | { grep -v -e '^\[.*\] Built target' || true; }

mlperf.conf: $(LG_READY) $(BUILD)/loadgen-src.txt
	cp $(LG_DIR)/mlperf.conf $@

# ---- Go --------------------------------------------------------------------
# Always handed to go build: Go's own cache makes it a no-op when nothing
# changed, and LibrarySHA256 in the ldflags makes it relink when the
# libraries changed (the Go build cache does not notice a new .a by itself).
$(BUILD)/bin/mlperf-go: native FORCE
	@mkdir -p $(BUILD)/bin
	CGO_ENABLED=1 $(GO) build -ldflags "$(GO_LDFLAGS)" -o $@ ./cmd/mlperf-go

vet: native
	CGO_ENABLED=1 $(GO) vet ./...

test: native mlperf.conf vet
	CGO_ENABLED=1 $(GO) test -race -ldflags "$(GO_LDFLAGS)" ./...
	# jscan's portable string search, which arm64 and other CPUs run.
	CGO_ENABLED=1 $(GO) test -race -tags purego ./internal/jscan

bench-loadgen: native
	@$(CMAKE) --build $(BUILD)/cmake -j $(JOBS) --target loadgen_null_sut_cpp -- --no-print-directory | { grep -v -e '^\[.*\] Built target' || true; }
	CGO_ENABLED=1 $(GO) build -ldflags "$(GO_LDFLAGS)" -o $(BUILD)/bin/bench-loadgen ./bench/loadgen
	$(BUILD)/bin/bench-loadgen -cpp $(BUILD)/bin/loadgen_null_sut_cpp $(BENCH_FLAGS)

# The embedded default end to end: synthetic Qwen3-VL data, the fake
# endpoint, Offline accuracy (evaluated) and performance through LoadGen.
demo: $(BUILD)/bin/mlperf-go
	BIN=$(BUILD)/bin/mlperf-go DEMO_DIR=$(BUILD)/demo ./scripts/demo.sh

# Harness benchmarks, side by side in one run: hot-path CPU per sample and
# per streamed token against the fake endpoint in its own process, memory
# per raw dataset byte, load rate; then the LoadGen bridge (Go vs C++).
BENCH_TIME ?= 1x
bench: native
	CGO_ENABLED=1 $(GO) test -run '^$$' -bench . -benchtime $(BENCH_TIME) -ldflags "$(GO_LDFLAGS)" ./internal/runner ./sut ./qsl
	$(MAKE) --no-print-directory bench-loadgen

clean:
	rm -rf $(BUILD)

FORCE:

# ---- Slurm -------------------------------------------------------------------
# scripts/slurm/ on a real single-node Slurm (slurm-wlm + munge, root on
# Debian; installed when missing): benchmark then evaluate, SIGTERM mid-run.
.PHONY: test-slurm
test-slurm: $(BUILD)/bin/mlperf-go
	BIN=$(BUILD)/bin/mlperf-go ./scripts/ci/slurm_test.sh
