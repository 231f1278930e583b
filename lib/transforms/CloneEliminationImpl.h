// Pieces the safe and vLLM clone-elimination modes share: clone matching, layout comparison,
// and recording a decision (remark, statistics, rewrite).
#pragma once

#include "declone/analysis/LayoutAnalysis.h"
#include "declone/transforms/CloneElimination.h"

#include <string>

namespace declone::detail {

[[nodiscard]] inline bool isClone(const Node* node) {
  return node->isCall() && node->target()->isOp("aten", "clone") &&
         (node->target()->overload == "default" || node->target()->overload.empty());
}

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
