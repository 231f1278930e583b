// The user's source lines a dump names in its `# File: model.py:68 in forward, code: ...` comments.
#pragma once

#include "declone/support/Remark.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace declone {

/// One `# File:` comment: `/srv/model.py:68` and the code it quotes.
struct UserSource {
  std::string location; ///< `PATH:LINE`
  std::string code;     ///< may be empty
};

/// Parses `# File: PATH:LINE in FUNC, code: CODE` (torch 2.x) and `# File: PATH:LINE, code: CODE`
/// (torch 1.13), also behind FX's annotations (`# ac_graph_id: 2 - PREFER_RECOMPUTE File: ...`);
/// `line` may be indented. nullopt for other lines.
[[nodiscard]] std::optional<UserSource> parseFileComment(std::string_view line);

/// Which source line each line of a graph text comes from. FX prints a `# File:` comment before
/// the nodes of each new source line and `# No stacktrace found for following nodes` where the
/// trace ends; a class or `def forward` starts a graph without one.
class SourceComments {
public:
  explicit SourceComments(std::string_view text);
  /// The source of the node on `line` (1-based), or nullptr.
  [[nodiscard]] const UserSource* at(uint32_t line) const;
  /// Sets each remark's source and code from its line.
  void annotate(std::span<Remark> remarks) const;

private:
  /// From this line on, `sources_[index]` (or none, for -1).
  struct Change {
    uint32_t line;
    int32_t index;
  };
  std::vector<UserSource> sources_;
  std::vector<Change> changes_;
};

} // namespace declone
