// Test-only switches of the reader: reading with the fast path for node statements turned off.
#pragma once

#include "declone/ir/Graph.h"
#include "declone/support/Result.h"

#include <memory>
#include <string_view>

namespace declone::io {

struct ReadOptions {
  /// Reads every node statement with the general (token) path. The fast path must build the
  /// same graph and report the same errors, so this only exists for the tests that check it.
  bool forceGeneralPath = false;
};

/// readGraphFile with `options`.
[[nodiscard]] Result<std::unique_ptr<GraphFile>> readGraphFile(std::string_view text,
                                                               const ReadOptions& options);

} // namespace declone::io
