// Helpers every benchmark shares: preparing a generated input and reporting throughput.
#pragma once

#include "GraphGenerator.h"
#include "declone/io/Reader.h"

#include <benchmark/benchmark.h>
#include <initializer_list>
#include <memory>

namespace declone::bench {

/// The graph sizes every benchmark runs at.
inline constexpr size_t kBenchSizes[] = {1'000, 10'000, 100'000, 1'000'000};

/// The generated input of `nodes` statements (seed 1), shared by the benchmarks that register
/// closures over it and made on first use, so that a filtered-out size costs nothing.
inline std::shared_ptr<LazyGraphText> sharedInput(size_t nodes) {
  GeneratorOptions options;
  options.nodes = nodes;
  options.seed = 1;
  return std::make_shared<LazyGraphText>(options);
}

/// Generates (once, outside any timing) and checks the input; false if the run must be skipped.
inline bool prepare(benchmark::State& state, LazyGraphText& input) {
  Status status = input.prepare();
  if (!status.ok()) {
    state.SkipWithError(status.error().format("<generated>").c_str());
    return false;
  }
  return true;
}

/// prepare(), then the input parsed once outside any timing; nullptr if the run must be skipped.
inline std::unique_ptr<GraphFile> prepareParsed(benchmark::State& state, LazyGraphText& input) {
  if (!prepare(state, input))
    return nullptr;
  Result<std::unique_ptr<GraphFile>> file = readGraphFile(input.text());
  if (!file.ok()) {
    state.SkipWithError(file.error().format("<generated>").c_str());
    return nullptr;
  }
  return std::move(file).value();
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

/// A benchmark body run on the generated input of one size.
using BenchBody = void (*)(benchmark::State&, LazyGraphText&);
struct NamedBench {
  const char* name;
  BenchBody body;
};

/// Registers NAME/N (in milliseconds) for every body and every size in kBenchSizes. The bodies of
/// one size share its input, generated on first use, so a filtered-out size costs nothing.
/// Returns true, for a namespace-scope `const bool kRegistered = registerForEachSize(...)`.
inline bool registerForEachSize(std::initializer_list<NamedBench> benches) {
  for (size_t nodes : kBenchSizes) {
    std::shared_ptr<LazyGraphText> input = sharedInput(nodes);
    for (const NamedBench& bench : benches)
      benchmark::RegisterBenchmark(
          bench.name, [input, body = bench.body](benchmark::State& state) { body(state, *input); })
          ->Arg(static_cast<int64_t>(nodes))
          ->Unit(benchmark::kMillisecond);
  }
  return true;
}

} // namespace declone::bench
