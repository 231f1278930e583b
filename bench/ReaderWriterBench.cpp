// Benchmarks of the FX text reader and writer on generated graphs of 10k to 1M statements.
#include "BenchSupport.h"
#include "GraphGenerator.h"
#include "declone/io/Reader.h"
#include "declone/io/Writer.h"

#include <benchmark/benchmark.h>
#include <memory>
#include <string>

namespace {

using declone::bench::LazyGraphText;
using declone::bench::prepare;
using declone::bench::reportThroughput;

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
  // One buffer for every iteration, as the CLI's streaming writer reuses its chunk: a fresh
  // 135 MB string per iteration would time the kernel's page faults, not the writer.
  std::string text;
  for (auto _ : state) {
    text.clear();
    declone::writeGraphFile(**file, text);
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
  for (size_t nodes : declone::bench::kBenchSizes) {
    auto input = declone::bench::sharedInput(nodes);
    auto add = [&](const char* name, void (*body)(benchmark::State&, LazyGraphText&)) {
      benchmark::RegisterBenchmark(name,
                                   [input, body](benchmark::State& state) { body(state, *input); })
          ->Arg(static_cast<int64_t>(nodes))
          ->Unit(benchmark::kMillisecond);
    };
    add("BM_Read", benchRead);
    add("BM_Write", benchWrite);
    add("BM_RoundTrip", benchRoundTrip);
  }
  return true;
}

[[maybe_unused]] const bool kRegistered = registerBenchmarks();

} // namespace
