// Seeded random FX graphs whose clones exercise every clone-elimination rule, annotated with the
// layouts libtorch actually produces, for property tests that execute before and after a pass.
#pragma once

#include "declone/support/Random.h"
#include "declone/support/Result.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace declone::runtime {
class MissingKernels;
} // namespace declone::runtime

namespace declone::fuzz {

struct RandomGraphOptions {
  /// Statements in the body of `forward` (placeholders and the return not counted); a split
  /// and its getitems count as several.
  size_t minStatements = 4;
  size_t maxStatements = 18;
  /// Tensor placeholders, at least one.
  size_t maxInputs = 3;
  /// Share of graphs in which some call nodes lose their layout metadata after annotation (the
  /// annotation shrinks to `f32[4, 5]` or disappears), as in dumps of nodes that a custom pass
  /// inserted without `meta["val"]`. 0 keeps every annotation.
  double strippedGraphChance = 0.0;
  /// In such a graph, the chance that one call node loses its metadata.
  double stripNodeChance = 0.3;
  /// Share of graphs whose call nodes are printed as PyTorch prints them, without the `@OFFSET`
  /// suffix, so that the storage offsets of views must be inferred.
  double inferredOffsetChance = 0.0;
  /// Share of graphs annotated with each tensor's final layout, as make_fx graphs print (their
  /// meta["val"] is the live tensor, which later t_, resize_ or set_ change), instead of the
  /// layout its node made.
  double liveAnnotationChance = 0.0;
  /// Weight of the defunctionalization family (RandomFunctional.cpp: auto_functionalized and
  /// auto_functionalized_v2 calls whose copies the pass may or may not remove, their results
  /// chained, returned and written back to inputs) beside the others' 99. 0, the default, leaves
  /// the draws of every other family, and so the graphs of each seed, as they were.
  unsigned functionalWeight = 0;
};

using Random = DeterministicRandom;

/// The graph as the generator writes it: `class GraphModule(torch.nn.Module):`, placeholders
/// annotated with constant sizes, strides and `@OFFSET`, call nodes without annotations, and
/// `return (...)`. Every op is valid for PyTorch (shapes broadcast, in-place destinations do not
/// overlap themselves or their operands, `copy_` and `out=` shapes match).
[[nodiscard]] std::string randomGraphSkeleton(uint64_t seed, const RandomGraphOptions& options);

/// The skeleton parsed, annotated by executing it (runtime::annotateFromExecution), optionally
/// stripped of some metadata, and written back in canonical print_readable form. An error means
/// a generator bug: the skeleton does not parse or cannot run.
[[nodiscard]] Result<std::string> tryRandomGraphText(uint64_t seed,
                                                     const RandomGraphOptions& options);

/// tryRandomGraphText, aborting with the error and the skeleton on failure. Deterministic per
/// seed and options.
[[nodiscard]] std::string randomGraphText(uint64_t seed, const RandomGraphOptions& options);

/// The kernels generated graphs call that libtorch lacks (vLLM's custom ops, prims), registered
/// on first use for the rest of the process: runtime::verify needs them too.
[[nodiscard]] const runtime::MissingKernels& generatedGraphKernels();

} // namespace declone::fuzz
