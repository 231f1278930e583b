// Helpers every benchmark shares: preparing a generated input and reporting throughput.
#pragma once

#include "GraphGenerator.h"

#include <benchmark/benchmark.h>

namespace declone::bench {

/// Generates (once, outside any timing) and checks the input; false if the run must be skipped.
inline bool prepare(benchmark::State& state, LazyGraphText& input) {
  Status status = input.prepare();
  if (!status.ok()) {
    state.SkipWithError(status.error().format("<generated>").c_str());
    return false;
  }
  return true;
}

/// Throughput counters: bytes/s of the input text (MB/s in the report), nodes/s, and time/node
/// (the inverted node rate, printed with an SI prefix, e.g. `850ns`; the console reporter would
/// print a plain ns count as `1.2ks`).
inline void reportThroughput(benchmark::State& state, const LazyGraphText& input) {
  auto iterations = static_cast<double>(state.iterations());
  auto nodes = static_cast<double>(input.graphNodes());
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(input.text().size()));
  state.counters["nodes/s"] = benchmark::Counter(iterations * nodes, benchmark::Counter::kIsRate);
  state.counters["time/node"] = benchmark::Counter(
      iterations * nodes, benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.counters["nodes"] = nodes;
}

} // namespace declone::bench
