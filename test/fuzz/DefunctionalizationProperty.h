// The defunctionalization property (declone_property_test --defunctionalize): on random graphs
// full of functionalized calls, the pass alone and in both orders with safe clone elimination
// must give graphs that compute what the original does, print and re-parse to themselves, and
// have nothing more to rewrite.
#pragma once

#include "RandomGraph.h"

#include <csignal>
#include <cstdint>
#include <string>

namespace declone::fuzz {

/// The options both properties take (the clone-elimination one adds its own to these).
struct PropertyRun {
  uint64_t first = 1;
  uint64_t count = 300;
  bool unlimited = false;
  /// Where failures are written, minimised.
  std::string keepDir;
  bool minimize = true;
  unsigned trials = 2;
  bool keepGoing = false; ///< count failures instead of stopping at the first
  RandomGraphOptions graph;
};

/// Runs the property over the seeds; prints failures as they come and the counts at the end.
/// Returns the exit status: 0 when every rewrite held, 1 on a failure, 2 on a generator bug.
/// Failures go to run.keepDir (with keepGoing every one, else the first).
[[nodiscard]] int runDefunctionalizationProperty(const PropertyRun& run,
                                                 const volatile std::sig_atomic_t& interrupted);

} // namespace declone::fuzz
