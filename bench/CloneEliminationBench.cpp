// Benchmarks of clone elimination alone (both modes) on generated graphs of 10k to 1M nodes.
#include "BenchSupport.h"
#include "GraphGenerator.h"
#include "declone/io/Reader.h"
#include "declone/transforms/CloneElimination.h"

#include <benchmark/benchmark.h>
#include <memory>

namespace {

using declone::CloneEliminationMode;
using declone::bench::LazyGraphText;

/// Times the pass only: every iteration parses a fresh copy (the pass rewrites it) with the
/// timer paused.
void benchEliminate(benchmark::State& state, LazyGraphText& input, CloneEliminationMode mode) {
  if (!declone::bench::prepare(state, input))
    return;
  declone::CloneEliminationOptions options;
  options.mode = mode;
  size_t removed = 0, clones = 0;
  for (auto _ : state) {
    state.PauseTiming();
    auto file = declone::readGraphFile(input.text());
    if (!file.ok()) {
      state.SkipWithError(file.error().format("<generated>").c_str());
      return;
    }
    state.ResumeTiming();
    for (auto& module : (*file)->modules) {
      declone::CloneEliminationResult result = declone::eliminateClones(*module, options);
      removed = result.stats.removed;
      clones = result.stats.clones;
      benchmark::DoNotOptimize(result);
    }
    state.PauseTiming();
    file->reset(); // free the graph outside the timing
    state.ResumeTiming();
  }
  declone::bench::reportThroughput(state, input);
  state.counters["clones"] = static_cast<double>(clones);
  state.counters["removed"] = static_cast<double>(removed);
}

void benchSafe(benchmark::State& state, LazyGraphText& input) {
  benchEliminate(state, input, CloneEliminationMode::Safe);
}

void benchVllm(benchmark::State& state, LazyGraphText& input) {
  benchEliminate(state, input, CloneEliminationMode::Vllm);
}

[[maybe_unused]] const bool kRegistered = declone::bench::registerForEachSize({
    {"BM_EliminateClones/safe", benchSafe},
    {"BM_EliminateClones/vllm", benchVllm},
});

} // namespace
