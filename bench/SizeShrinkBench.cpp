// Benchmarks of verify's size planner (SizeShrinker: relations, then a plan shrinking every size
// it can) on generated graphs of 10k to 1M nodes.
#include "BenchSupport.h"
#include "GraphGenerator.h"
#include "declone/analysis/SizeShrink.h"

#include <benchmark/benchmark.h>

namespace {

using declone::bench::LazyGraphText;

/// Builds the planner and plans to a budget of nothing (every size as far as the relations
/// allow): the most a verify of a graph this large spends before running it.
void benchPlan(benchmark::State& state, LazyGraphText& input) {
  std::unique_ptr<declone::GraphFile> file = declone::bench::prepareParsed(state, input);
  if (!file)
    return;
  std::vector<const declone::Graph*> graphs = declone::graphsOf(*file->modules.front());
  size_t changes = 0;
  for (auto _ : state) {
    declone::SizeShrinker shrinker(graphs);
    std::vector<declone::SizeChange> plan = shrinker.plan({0, 0, 2});
    changes = plan.size();
    benchmark::DoNotOptimize(plan);
  }
  declone::bench::reportThroughput(state, input);
  state.counters["sizes changed"] = static_cast<double>(changes);
}

[[maybe_unused]] const bool kRegistered = declone::bench::registerForEachSize({
    {"BM_ShrinkPlan", benchPlan},
});

} // namespace
