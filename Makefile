# declone: `make demo` and `make test` are all a fresh Debian 12 or 13 machine needs.
BUILD ?= build
# `make demo` builds the CLI alone in a folder of its own: its configuration (no libtorch, no
# Python, no suites) never meets the full one in $(BUILD), so `make test` after it, or `make
# demo` after `make test`, reconfigures nothing.
DEMO_BUILD ?= build-demo
CMAKE_FLAGS ?=
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

# The LLVM behind FileCheck, lit and libFuzzer is versioned in Debian's package names: 14 in
# Debian 12 (bookworm), 19 in Debian 13 (trixie).
DEBIAN_VERSION := $(shell . /etc/os-release 2>/dev/null && echo $${VERSION_ID%%.*})
LLVM_VERSION ?= $(if $(filter 12,$(DEBIAN_VERSION)),14,19)

# What the CLI alone builds with (`make demo`): a compiler, CMake and Ninja, {fmt} and JSON for
# Modern C++. No PyTorch: the executable links no libtorch (verify's plugin does).
DEMO_PACKAGES := g++ cmake ninja-build make nlohmann-json3-dev libfmt-dev

# Everything the project builds, tests and benchmarks with, from Debian.
DEBIAN_PACKAGES := \
	$(DEMO_PACKAGES) \
	googletest libgtest-dev libgmock-dev libbenchmark-dev \
	python3-torch python3-torchvision python3-pytest python3-dev python3-venv \
	pybind11-dev \
	llvm-$(LLVM_VERSION)-tools clang-$(LLVM_VERSION) libclang-rt-$(LLVM_VERSION)-dev clang-format \
	graphviz python3-matplotlib

# The Python tests' second interpreter: a virtual environment with PyTorch 2.13 (its CPU wheel
# is built for the python3 on PATH, 3.11) and real model code (transformers, timm), pinned in
# requirements.txt. CPU wheels only: a plain `pip install torch` would fetch a CUDA build.
VENV ?= .venv
VENV_PYTHON := $(CURDIR)/$(VENV)/bin/python
# The vLLM tests' interpreter: the real vLLM 0.33.0 with torch 2.13 in a venv of its own (vLLM
# pins an older transformers than the model suite), everything installed --no-deps from
# requirements-vllm.txt, which pins each package.
VLLM_VENV ?= .venv-vllm
VLLM_PYTHON := $(CURDIR)/$(VLLM_VENV)/bin/python

.PHONY: all deps debian-packages demo-packages venv venv-vllm configure build test demo bench fuzz \
	format clean audit schemas

all: build

deps: debian-packages venv

# $(call install-missing,PACKAGES): apt-get installs those of PACKAGES that are not installed.
define install-missing
	@missing=$$(for p in $(1); do \
	  dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed' || echo $$p; \
	done); \
	if [ -n "$$missing" ]; then \
	  echo "installing:" $$missing; \
	  $(SUDO) apt-get update && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y --no-install-recommends $$missing; \
	fi
endef

debian-packages:
	$(call install-missing,$(DEBIAN_PACKAGES))

demo-packages:
	$(call install-missing,$(DEMO_PACKAGES))

venv: $(VENV)/.requirements

venv-vllm: $(VLLM_VENV)/.requirements

$(VENV)/.requirements: requirements.txt
	[ -x $(VENV_PYTHON) ] || python3 -m venv $(VENV)
	$(VENV_PYTHON) -m pip install --quiet --upgrade-strategy only-if-needed -r requirements.txt
	cp requirements.txt $@

$(VLLM_VENV)/.requirements: requirements-vllm.txt
	[ -x $(VLLM_PYTHON) ] || python3 -m venv $(VLLM_VENV)
	$(VLLM_PYTHON) -m pip install --quiet --no-deps -r requirements-vllm.txt
	cp requirements-vllm.txt $@

$(BUILD)/build.ninja:
	cmake -S . -B $(BUILD) -G Ninja -DDECLONE_VENV_PYTHON=$(VENV_PYTHON) \
	  -DDECLONE_VLLM_PYTHON=$(VLLM_PYTHON) $(CMAKE_FLAGS)

configure: deps $(BUILD)/build.ninja

build: configure
	cmake --build $(BUILD)

# On failure the failing tests' own summary lines (pytest's FAILED/ERROR, gtest's, lit's) are
# printed again at the end, where a reader of the log's tail sees them.
test: build venv-vllm
	ctest --test-dir $(BUILD) --output-on-failure -j2 || { \
	  echo '--- what the failing tests said:'; \
	  grep -a -E '^(FAILED|ERROR) |\[  FAILED  \]|^(FAIL|XPASS|UNRESOLVED): ' \
	    $(BUILD)/Testing/Temporary/LastTest.log | sort -u | tail -40; exit 1; }

# The first run: the CLI alone (under 3 minutes of a 2-core machine, where `make build` takes
# half an hour with the venv), without libtorch (so no verify), the Python package, the suites,
# the benchmarks or the fuzzers. -O2 without debug information: 140 s of CPU time where -O3
# (Release) took 185 s and printed pages of GCC 12's false -Wrestrict warnings.
$(DEMO_BUILD)/build.ninja:
	cmake -S . -B $(DEMO_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release \
	  -DCMAKE_CXX_FLAGS_RELEASE="-O2 -DNDEBUG" -DDECLONE_BUILD_TESTS=OFF \
	  -DDECLONE_BUILD_BENCH=OFF -DDECLONE_BUILD_FUZZERS=OFF -DDECLONE_BUILD_AUDIT=OFF \
	  -DDECLONE_BUILD_VERIFY=OFF -DDECLONE_BUILD_PYTHON=OFF $(CMAKE_FLAGS)

demo: demo-packages $(DEMO_BUILD)/build.ninja
	cmake --build $(DEMO_BUILD) --target declone
	@echo '$$ declone opt examples/mamba_slice.fx --remarks --stats'
	@$(DEMO_BUILD)/bin/declone opt examples/mamba_slice.fx --remarks --stats

# Runs every benchmark (about 10 minutes) and rewrites docs/PERFORMANCE.md and its plot.
bench: build
	/usr/bin/python3 bench/performance_report.py --build $(BUILD) --out docs/PERFORMANCE.md

# Rewrites lib/schema/torch.schemas, the built-in schema set, from the venv's PyTorch.
schemas: venv
	$(VENV_PYTHON) tools/gen-schemas/dump_schemas.py lib/schema/torch.schemas

# Runs every op of the schema registry with libtorch and regenerates the effect override table
# (lib/analysis/effect-overrides.txt, hand-written lines kept) and docs/EFFECT-AUDIT.md.
audit: configure
	cmake --build $(BUILD) --target declone-audit-effects
	$(BUILD)/bin/declone-audit-effects --write lib/analysis/effect-overrides.txt \
	  --summary docs/EFFECT-AUDIT.md

fuzz: build
	ctest --test-dir $(BUILD) --output-on-failure -R '^fuzz\.'

format:
	git ls-files '*.cpp' '*.h' | xargs clang-format -i

clean:
	rm -rf $(BUILD) $(DEMO_BUILD)
