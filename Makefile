# declone: `make demo` and `make test` are all a fresh Debian 12 machine needs.
BUILD ?= build
CMAKE_FLAGS ?=
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

# Everything the project builds, tests and benchmarks with, from Debian.
DEBIAN_PACKAGES := \
	g++-12 cmake ninja-build make \
	googletest libgtest-dev libgmock-dev libbenchmark-dev \
	libtorch-dev python3-torch python3-torchvision python3-pytest python3-dev pybind11-dev \
	llvm-14-tools clang-14 libclang-rt-14-dev clang-format \
	nlohmann-json3-dev libfmt-dev graphviz python3-matplotlib

.PHONY: all deps configure build test demo bench fuzz format clean audit

all: build

deps:
	@missing=$$(for p in $(DEBIAN_PACKAGES); do \
	  dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed' || echo $$p; \
	done); \
	if [ -n "$$missing" ]; then \
	  echo "installing:" $$missing; \
	  $(SUDO) apt-get update && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y --no-install-recommends $$missing; \
	fi

$(BUILD)/build.ninja:
	cmake -S . -B $(BUILD) -G Ninja $(CMAKE_FLAGS)

configure: deps $(BUILD)/build.ninja

build: configure
	cmake --build $(BUILD)

test: build
	ctest --test-dir $(BUILD) --output-on-failure -j2

demo: build
	@echo '$$ declone opt examples/mamba_slice.fx --remarks --stats'
	@$(BUILD)/bin/declone opt examples/mamba_slice.fx --remarks --stats

# Runs every benchmark (about 10 minutes) and rewrites docs/PERFORMANCE.md and its plot.
bench: build
	/usr/bin/python3 bench/performance_report.py --build $(BUILD) --out docs/PERFORMANCE.md

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
	rm -rf $(BUILD)
