// Clone elimination: replace `c = aten.clone(a)` by `a` where DESIGN.md section 4 proves it safe.
#pragma once

#include "declone/analysis/LayoutAnalysis.h"
#include "declone/ir/Graph.h"
#include "declone/schema/SchemaRegistry.h"
#include "declone/support/Remark.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace declone {

/// Why a clone is kept: the rules of DESIGN.md section 4, in the order they are checked, then
/// the vllm mode's own code.
enum class KeepReason : uint8_t {
  LayoutChanged,
  LayoutUnknown,
  UnknownEffects,
  InputMutation,
  SourceReadAfterWrite,
  CloneReadAfterSourceWrite,
  OutputAlias,
  /// vllm mode only: vLLM's pass asserts here (it would crash; the clone is kept).
  Unsupported,
};
inline constexpr size_t kNumKeepReasons = 8;
/// The reason code printed in remarks: "layout-changed", ...
[[nodiscard]] std::string_view reasonCode(KeepReason reason);

enum class CloneEliminationMode : uint8_t {
  /// Every rule of DESIGN.md section 4.
  Safe,
  /// vLLM 0.33.0's UnsafeCloneEliminationPass, decision for decision, minus the assertions:
  /// where vLLM would crash the clone is kept and the remark says why.
  Vllm,
  /// vLLM 0.32.0's pass: 0.33.0's without `would_alias_graph_io` (the seed's version).
  Vllm032,
};

/// The mode's name on the command line and in Python: "safe", "vllm", "vllm-0.32".
[[nodiscard]] std::string_view modeName(CloneEliminationMode mode);
/// The mode a name (or "vllm-0.33", vllm's other name) stands for.
[[nodiscard]] std::optional<CloneEliminationMode> parseMode(std::string_view name);
/// The names parseMode() takes, for messages and help texts.
inline constexpr std::string_view kModeNames = "'safe', 'vllm' (vLLM 0.33.0) or 'vllm-0.32'";
/// The vLLM release a vLLM mode reproduces ("0.33.0"); empty for the safe mode.
[[nodiscard]] std::string_view vllmVersion(CloneEliminationMode mode);

struct CloneEliminationOptions {
  CloneEliminationMode mode = CloneEliminationMode::Safe;
  /// donated[i]: placeholder i (signature order, Sym placeholders included) is donated.
  std::vector<bool> donated;
  /// Schemas to resolve ops with; the built-in registry when null.
  const SchemaRegistry* schemas = nullptr;
  /// Fill CloneEliminationResult::remarks. Off when only statistics are wanted.
  bool collectRemarks = true;
  /// Also fill CloneEliminationResult::facts (`declone analyze`): the layouts and storages each
  /// decision rested on. Storages are then numbered over the whole graph.
  bool collectFacts = false;
  /// The module overload also runs on the module's nested subgraphs (after summarising them);
  /// off for a caller that walks the modules itself, graph by graph.
  bool includeSubgraphs = true;
  /// How layouts no annotation prints are found: graph inputs taken as contiguous (the remarks
  /// of decisions that rest on it say so), an oracle for ops no rule covers.
  LayoutOptions layout;
};

struct CloneEliminationStats {
  size_t clones = 0;  ///< clones seen
  size_t removed = 0; ///< including dead ones
  size_t dead = 0;    ///< removed because nothing used them
  std::array<size_t, kNumKeepReasons> kept{};
  /// Bytes no longer copied, over removed clones whose sizes are static.
  uint64_t bytesRemoved = 0;
  /// Removed clones whose size is symbolic (not in bytesRemoved).
  size_t removedSymbolic = 0;

  CloneEliminationStats& operator+=(const CloneEliminationStats& other);
};

/// The facts one decision rested on, as the pass saw them when it decided: the layouts it
/// compared, and the two storages (merged with those of the clones removed before) with their
/// accesses after the clone. Rendered by `declone analyze`; nothing recomputes them.
struct DecisionFacts {
  std::string source; ///< the clone's input: `name (line N)`, or why there is none
  std::string cloneLayout, sourceLayout;                  ///< formatLayout(), or why there is none
  std::string cloneStorage, sourceStorage;                ///< `#ID, created by NODE, ...`
  std::vector<std::string> cloneAccesses, sourceAccesses; ///< after the clone, in program order
};

struct CloneEliminationResult {
  bool changed = false;
  std::vector<Remark> remarks; ///< one per clone, in program order (if collectRemarks)
  /// facts[i] is what remarks[i] rested on (if collectFacts; empty otherwise).
  std::vector<DecisionFacts> facts;
  CloneEliminationStats stats;
};

/// Runs the pass on one graph. Idempotent: a second run removes nothing more.
[[nodiscard]] CloneEliminationResult eliminateClones(Graph& graph,
                                                     const CloneEliminationOptions& options);

/// Runs the pass on a module's graph and on its nested subgraphs, whose inputs belong to their
/// caller and so are never donated.
[[nodiscard]] CloneEliminationResult eliminateClones(GraphModule& module,
                                                     const CloneEliminationOptions& options);

} // namespace declone
