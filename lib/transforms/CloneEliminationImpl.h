// Pieces the safe and vLLM clone-elimination modes share: clone matching, layout comparison,
// and recording a decision (remark, statistics, rewrite).
#pragma once

#include "declone/analysis/AliasAnalysis.h"
#include "declone/analysis/LayoutAnalysis.h"
#include "declone/analysis/OpModel.h"
#include "declone/transforms/CloneElimination.h"

#include <functional>
#include <string>

namespace declone::detail {

/// `name (line N)`, or just the name for nodes a pass created.
[[nodiscard]] std::string describe(const Node* node);

struct LayoutVerdict {
  std::optional<KeepReason> reason;
  /// Why the clone is kept; for equal layouts, what they rest on ("strides inferred") or empty.
  std::string detail;
};

/// Rule 1: the clone's layout must equal its source's, exactly. With `comparePresentOnly`
/// (vLLM's behaviour) missing metadata is not a reason to keep. Without `wantDetail` the
/// verdict's detail is left empty (remarks are not being collected).
[[nodiscard]] LayoutVerdict compareLayouts(const SymContext& sym, const Node* clone,
                                           const Layout* cloneLayout, const Node* source,
                                           const Layout* sourceLayout, bool comparePresentOnly,
                                           bool wantDetail);

/// What the rules know of who owns a storage, as the passes merge storages (removing a clone,
/// writing a copy in place): one statement of how two storages' flags combine.
struct StorageFlags {
  const Node* unknownToucher = nullptr;
  bool graphInput = false;
  bool donated = false;   ///< every graph input in it is donated
  bool attribute = false; ///< module state
  bool returned = false;

  [[nodiscard]] static StorageFlags of(const AliasAnalysis::StorageInfo& info) {
    return {info.unknownToucher, info.graphInput, info.donated, info.attribute, info.returned};
  }
  /// The caller sees the final contents (AliasAnalysis::isObservedByCaller, after merges).
  [[nodiscard]] bool observedByCaller() const { return (graphInput && !donated) || attribute; }
  /// Takes in the flags of a storage merged into this one.
  void absorb(const StorageFlags& from) {
    if (!unknownToucher)
      unknownToucher = from.unknownToucher;
    donated = graphInput && from.graphInput ? donated && from.donated
              : graphInput                  ? donated
                                            : from.donated;
    graphInput = graphInput || from.graphInput;
    attribute = attribute || from.attribute;
    returned = returned || from.returned;
  }
};

/// What DecisionFacts says of one storage: the analysis's, or one merged by removals.
struct StorageFacts {
  AliasAnalysis::StorageId id = AliasAnalysis::kNoStorage;
  const Node* root = nullptr;
  bool graphInput = false;
  bool donated = false;
  bool attribute = false;
  bool returned = false;
  const Node* unknownToucher = nullptr;
};
/// The storage as the analysis records it (`id` must be recorded, or kNoStorage).
[[nodiscard]] StorageFacts storageFacts(const AliasAnalysis& alias, AliasAnalysis::StorageId id);
/// `#3, created by arg0_1, a graph input (not donated)`, or `none (not a tensor)`.
[[nodiscard]] std::string storageText(const StorageFacts& storage);
/// `written by add_ (line 7) (as clone)`.
[[nodiscard]] std::string accessText(const AliasAnalysis::Event& event);
/// The layout of `value` as `formatLayout` prints it; printed strides that inference from the
/// inputs would not give are followed by what it gives (a stale annotation shows up there).
[[nodiscard]] std::string layoutText(const SymContext& sym, const LayoutAnalysis& layouts,
                                     const Node* value);

/// Visits the accesses of a storage in program order.
using EventVisitor = std::function<void(const AliasAnalysis::Event&)>;
/// A value's storage, its accesses given to the visitor.
using StorageOf = std::function<StorageFacts(const Node* value, const EventVisitor& visit)>;
/// The facts of a decision about `clone`: its source, both layouts, and both storages with
/// their accesses after the clone, as `storageOf` gives them.
[[nodiscard]] DecisionFacts decisionFacts(const SymContext& sym, const LayoutAnalysis& layouts,
                                          const Node* clone, const StorageOf& storageOf);
/// The facts of a decision about `clone` from analyses of the graph as it was given (the vllm
/// modes decide without storages; these show what the safe mode would see).
[[nodiscard]] DecisionFacts unmergedFacts(const SymContext& sym, const LayoutAnalysis& layouts,
                                          const AliasAnalysis& alias, const Node* clone);

/// The layout options a pass computes layouts with: the caller's, with the oracle asked only
/// about what the clones rest on.
[[nodiscard]] inline LayoutOptions passLayoutOptions(LayoutOptions options) {
  options.oracleOnlyForClones = true;
  return options;
}

/// Carries out the pass's decisions: removes clones from the graph, and records a remark and
/// the statistics for every decision, kept or removed.
class CloneRewriter {
public:
  /// `reproduces`: the pass whose decisions these are ("vLLM 0.33.0"), named in every remark;
  /// empty for declone's own.
  CloneRewriter(Graph& graph, CloneEliminationResult& result, bool collectRemarks,
                std::string reproduces = {})
      : graph_(graph), result_(result), collectRemarks_(collectRemarks),
        reproduces_(std::move(reproduces)) {}

  /// Makes room for the remarks of `clones` clones at once: growing by doubling would, at the
  /// last step, hold up to three times their size (remarks are 112 bytes each).
  void reserve(size_t clones) {
    if (collectRemarks_)
      result_.remarks.reserve(result_.remarks.size() + clones);
  }
  /// Whether remarks, and so the details of decisions, are wanted.
  [[nodiscard]] bool collectsRemarks() const { return collectRemarks_; }
  void keep(const Node* clone, KeepReason reason, std::string detail);
  /// As keep(), with the detail made by `detail()` only when remarks are collected: without
  /// them the text would be built and thrown away.
  template <class Detail> void keepLazily(const Node* clone, KeepReason reason, Detail&& detail) {
    keep(clone, reason, collectRemarks_ ? std::string(detail()) : std::string());
  }
  /// Replaces the clone by its source everywhere and erases it.
  void remove(Node* clone, Node* source, std::string detail = {});
  /// Records the facts of the decision about to be made (keep() or remove() follows).
  void recordFacts(DecisionFacts facts) { result_.facts.push_back(std::move(facts)); }

private:
  [[nodiscard]] std::string withSource(std::string detail) const;

  Graph& graph_;
  CloneEliminationResult& result_;
  bool collectRemarks_;
  std::string reproduces_;
};

/// `subgraphs`: the summaries of the nested subgraphs the graph calls, or nullptr.
CloneEliminationResult runSafe(Graph& graph, const CloneEliminationOptions& options,
                               const SchemaRegistry& schemas, const SubgraphTable* subgraphs);
CloneEliminationResult runVllm(Graph& graph, const CloneEliminationOptions& options,
                               const SchemaRegistry& schemas);

} // namespace declone::detail
