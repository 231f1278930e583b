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
  std::unique_ptr<declone::GraphFile> file = declone::bench::prepareParsed(state, input);
  if (!file)
    return;
  // One buffer for every iteration, as the CLI's streaming writer reuses its chunk: a fresh
  // 135 MB string per iteration would time the kernel's page faults, not the writer.
  std::string text;
  for (auto _ : state) {
    text.clear();
    declone::writeGraphFile(*file, text);
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

[[maybe_unused]] const bool kRegistered = declone::bench::registerForEachSize({
    {"BM_Read", benchRead},
    {"BM_Write", benchWrite},
    {"BM_RoundTrip", benchRoundTrip},
});

} // namespace
