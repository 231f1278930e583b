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

struct DefunctionalizationRun {
  uint64_t first = 1;
  uint64_t count = 300;
  bool unlimited = false;
  /// Where each failure is written, minimised (with --keep-going every one, else the first).
  std::string keepDir;
  bool minimize = true;
  unsigned trials = 2;
  bool keepGoing = false;
  RandomGraphOptions graph;
};

/// Runs the property over the seeds; prints failures as they come and the counts at the end.
/// Returns the exit status: 0 when every rewrite held, 1 on a failure, 2 on a generator bug.
[[nodiscard]] int runDefunctionalizationProperty(const DefunctionalizationRun& run,
                                                 const volatile std::sig_atomic_t& interrupted);

} // namespace declone::fuzz
