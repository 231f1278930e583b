// Defunctionalization: rewrite functionalized mutating calls into the in-place calls they stand
// for where DESIGN.md section 4b proves the copies they imply are not needed.
#pragma once

#include "declone/analysis/LayoutAnalysis.h"
#include "declone/ir/Graph.h"
#include "declone/schema/SchemaRegistry.h"
#include "declone/support/Remark.h"
#include "declone/transforms/CloneElimination.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace declone {

/// Why a functionalized call keeps a copy: the rules of DESIGN.md section 4b in the order they
/// are checked. Codes shared with clone elimination mean the same thing there.
enum class CopyKeepReason : uint8_t {
  /// The call is not in a form the pass rewrites: a user other than getitem, a written list,
  /// an op without a schema, an element of the op's own results used where it returns none.
  NotRewritable,
  /// (v2) A written view is not described by its base index and view replay.
  ViewReplay,
  /// An op without a usable schema may touch the storage ("unknown-effects", as for clones).
  UnknownEffects,
  /// The storage is a graph input that is not donated, or module state, and the graph does not
  /// write it back with the call's result ("input-mutation", as for clones).
  InputMutation,
  /// The call passes the storage as another argument too: written in place, that argument
  /// would change under the op.
  ArgumentOverlap,
  /// The old contents are read, written or returned after the call other than through the
  /// call's results ("source-read-after-write", as for clones: the copy is what is written).
  SourceReadAfterWrite,
  /// A graph output would alias a graph input or another output ("output-alias").
  OutputAlias,
  /// This copy could go, but another copy of the same call must stay, and the call with it.
  CallKept,
};
inline constexpr size_t kNumCopyKeepReasons = 8;
/// The reason code printed in remarks: "view-replay", "input-mutation", ...
[[nodiscard]] std::string_view reasonCode(CopyKeepReason reason);

/// In which order a run of both passes applies them.
enum class PassOrder : uint8_t {
  /// Clone elimination, then defunctionalization: vLLM's PostGradPassManager order.
  ClonesFirst,
  /// Defunctionalization, then clone elimination.
  CopiesFirst,
};
/// "clones-first", "copies-first".
[[nodiscard]] std::string_view orderName(PassOrder order);
[[nodiscard]] std::optional<PassOrder> parseOrder(std::string_view name);

struct DefunctionalizationOptions {
  /// donated[i]: placeholder i (signature order, Sym placeholders included) is donated.
  std::vector<bool> donated;
  /// Schemas to resolve ops with; the built-in registry when null.
  const SchemaRegistry* schemas = nullptr;
  /// Fill DefunctionalizationResult::remarks.
  bool collectRemarks = true;
  /// The module overload also runs on the module's nested subgraphs.
  bool includeSubgraphs = true;
  /// How layouts no annotation prints are found (for the bytes of each copy, and for telling
  /// two views of one storage apart).
  LayoutOptions layout;
};

struct DefunctionalizationStats {
  size_t calls = 0;     ///< functionalized calls seen
  size_t rewritten = 0; ///< calls rewritten into the mutating call
  size_t copies = 0;    ///< copies they imply: written arguments (v1, triton), bases (v2)
  size_t avoided = 0;   ///< copies gone with the rewritten calls
  std::array<size_t, kNumCopyKeepReasons> kept{};
  /// Bytes no longer copied, over avoided copies whose sizes are static.
  uint64_t bytesAvoided = 0;
  /// Avoided copies whose size is symbolic (not in bytesAvoided).
  size_t avoidedSymbolic = 0;

  DefunctionalizationStats& operator+=(const DefunctionalizationStats& other);
};

struct DefunctionalizationResult {
  bool changed = false;
  /// One per copy, in program order (if collectRemarks); Remark::copy names the argument.
  std::vector<Remark> remarks;
  DefunctionalizationStats stats;
  /// The names of the calls rewritten, in program order: a caller that holds another copy of
  /// the graph (the binding's live torch.fx graph) replays the rewrite from them.
  std::vector<std::string> rewritten;
};

/// Runs the pass on one graph. Idempotent: a second run rewrites nothing more.
[[nodiscard]] DefunctionalizationResult defunctionalize(Graph& graph,
                                                        const DefunctionalizationOptions& options);
/// Runs the pass on a module's graph and on its nested subgraphs, whose inputs belong to their
/// caller and so are never donated.
[[nodiscard]] DefunctionalizationResult defunctionalize(GraphModule& module,
                                                        const DefunctionalizationOptions& options);

/// The options defunctionalization takes from clone elimination's: the same donation, schemas,
/// remarks, subgraphs and layouts.
[[nodiscard]] DefunctionalizationOptions
defunctionalizationOptions(const CloneEliminationOptions& options);

struct CopyEliminationResult {
  CloneEliminationResult clones;
  DefunctionalizationResult copies;
};
/// Both passes on a module, in `order` (the clone pass in safe mode, as `options` says).
[[nodiscard]] CopyEliminationResult
eliminateCopies(GraphModule& module, const CloneEliminationOptions& options, PassOrder order);

} // namespace declone
