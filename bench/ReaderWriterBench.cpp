// Benchmarks of the FX text reader and writer on generated graphs of 10k to 1M statements.
#include "GraphGenerator.h"

#include "declone/io/Reader.h"
#include "declone/io/Writer.h"

#include <benchmark/benchmark.h>

#include <memory>
#include <string>

namespace {

using declone::bench::GeneratorOptions;
using declone::bench::LazyGraphText;

constexpr size_t kSizes[] = {10'000, 100'000, 1'000'000};

/// Throughput counters shared by the three benchmarks: bytes/s (MB/s in the report), nodes/s,
/// and ns/node (the inverted rate of nodes * 1e-9, i.e. seconds * 1e9 / nodes).
void reportThroughput(benchmark::State& state, const LazyGraphText& input) {
  auto iterations = static_cast<double>(state.iterations());
  auto nodes = static_cast<double>(input.graphNodes());
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(input.text().size()));
  state.counters["nodes/s"] = benchmark::Counter(iterations * nodes, benchmark::Counter::kIsRate);
  state.counters["ns/node"] = benchmark::Counter(
      iterations * nodes * 1e-9, benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.counters["nodes"] = nodes;
}

/// Generates (once, outside any timing) and checks the input; false if the run must be skipped.
bool prepare(benchmark::State& state, LazyGraphText& input) {
  declone::Status status = input.prepare();
  if (!status.ok()) {
    state.SkipWithError(status.error().format("<generated>").c_str());
    return false;
  }
  return true;
}

void benchRead(benchmark::State& state, LazyGraphText& input) {
  if (!prepare(state, input))
    return;
  for (auto _ : state) {
    {
      auto file = declone::readGraphFile(input.text());
      benchmark::DoNotOptimize(file);
      // Freeing the arena is not reading: the file is destroyed with the timer paused.
      state.PauseTiming();
    }
    state.ResumeTiming();
  }
  reportThroughput(state, input);
}

void benchWrite(benchmark::State& state, LazyGraphText& input) {
  if (!prepare(state, input))
    return;
  auto file = declone::readGraphFile(input.text());
  if (!file.ok()) {
    state.SkipWithError(file.error().format("<generated>").c_str());
    return;
  }
  for (auto _ : state) {
    std::string text = declone::writeGraphFile(**file);
    benchmark::DoNotOptimize(text.data());
    benchmark::ClobberMemory();
  }
  reportThroughput(state, input);
}

void benchRoundTrip(benchmark::State& state, LazyGraphText& input) {
  if (!prepare(state, input))
    return;
  for (auto _ : state) {
    auto file = declone::readGraphFile(input.text());
    std::string text = declone::writeGraphFile(**file);
    benchmark::DoNotOptimize(text.data());
    benchmark::ClobberMemory();
  }
  reportThroughput(state, input);
}

/// Registers BM_Read/N, BM_Write/N and BM_RoundTrip/N. Each size's text is owned by the three
/// closures that share it and generated on first use, so a filtered-out size costs nothing.
bool registerBenchmarks() {
  for (size_t nodes : kSizes) {
    GeneratorOptions options;
    options.nodes = nodes;
    options.seed = 1;
    auto input = std::make_shared<LazyGraphText>(options);
    auto add = [&](const char* name, void (*body)(benchmark::State&, LazyGraphText&)) {
      benchmark::RegisterBenchmark(name, [input, body](benchmark::State& state) {
        body(state, *input);
      })
          ->Arg(static_cast<int64_t>(nodes))
          ->Unit(benchmark::kMillisecond)
          ->UseRealTime();
    };
    add("BM_Read", benchRead);
    add("BM_Write", benchWrite);
    add("BM_RoundTrip", benchRoundTrip);
  }
  return true;
}

[[maybe_unused]] const bool kRegistered = registerBenchmarks();

} // namespace
