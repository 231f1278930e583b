// The vllm modes: vLLM's UnsafeCloneEliminationPass of a named release, minus its assertions.
//
// vLLM removes `c = clone(a)` unless a direct user of c writes it through a positional argument
// (per the op schema; auto_functionalized and the output do not count) and then either a user
// of `a` comes after that write, or `a` is a placeholder that is not donated. Layouts are
// compared only when both nodes carry metadata. 0.33.0 adds `would_alias_graph_io`: a clone
// nobody writes stays when its storage is a graph output's and `a`'s is a graph input's or an
// output's (a node without a tensor value counts as sharing). Where vLLM would fail an assertion
// (a user without an OpOverload target, more than one write, more arguments than the schema, a
// clone whose input is not a node), these modes keep the clone with the code `unsupported` and
// say which assertion. Every remark names the release it reproduces.
#include "CloneEliminationImpl.h"
#include "declone/analysis/AliasAnalysis.h"

#include <algorithm>

namespace declone::detail {
namespace {

/// Whether `user` writes `clone` in vLLM's eyes. Otherwise why it cannot tell: vLLM would
/// assert (`unsupported`), or the op has no schema here (`unknown-effects`), as `reason` says.
struct WriteCheck {
  bool writes = false;
  std::string why;
  KeepReason reason = KeepReason::Unsupported;
};

WriteCheck userWritesNode(const Node* user, const Node* clone, const SchemaRegistry& schemas) {
  if (user->isOutput())
    return {};
  const Target* target = user->target();
  if (target && target->isHigherOrder()) {
    if (isFunctionalHigherOrder(*target))
      return {};
    return {true, {}}; // other higher-order ops are assumed to write
  }
  if (!user->isCall() || target->kind != Target::Kind::Op)
    return {false, "vLLM asserts that " + describe(user) + " has an OpOverload target, not " +
                       (user->isCall() ? std::string(target->qualifiedName) : "none")};
  const OpSchema* schema = schemas.lookup(target->opNamespace, target->opName, target->overload);
  if (!schema)
    return {false,
            "no schema for " + std::string(target->qualifiedName) +
                ", which vLLM reads from the live op",
            KeepReason::UnknownEffects};
  if (user->args().size() > schema->arguments.size())
    return {false, "vLLM asserts that " + describe(user) +
                       " has no more positional arguments than its schema, but it has " +
                       std::to_string(user->args().size()) + " for " +
                       std::to_string(schema->arguments.size())};
  // Only positional arguments that are the clone itself: the holes `out=` and views fall into.
  for (size_t i = 0; i < user->args().size(); ++i) {
    const Arg& arg = user->args()[i];
    if (arg.isNode() && arg.node() == clone && schema->arguments[i].alias &&
        schema->arguments[i].alias->isWrite)
      return {true, {}};
  }
  return {};
}

/// vLLM 0.33's would_alias_graph_io, with FakeTensor storages read as the alias analysis's: a
/// value has one when its annotation is a tensor's (vLLM reads meta["val"]), and the outputs
/// are those of the graph as rewritten so far.
class GraphIoStorages {
public:
  GraphIoStorages(const Graph& graph, const AliasAnalysis& alias) : graph_(graph), alias_(alias) {
    for (const Node* placeholder : graph.placeholders())
      if (std::optional<AliasAnalysis::StorageId> storage = storageOf(placeholder))
        inputs_.push_back(*storage);
  }

  [[nodiscard]] bool wouldAlias(const Node* clone, const Node* source) const {
    std::optional<AliasAnalysis::StorageId> cloneStorage = storageOf(clone);
    std::optional<AliasAnalysis::StorageId> sourceStorage = storageOf(source);
    if (!cloneStorage || !sourceStorage)
      return true;
    bool cloneReturned = false, sourceShared = contains(inputs_, *sourceStorage);
    graph_.output()->forEachInput([&](const Node* value) {
      std::optional<AliasAnalysis::StorageId> storage = storageOf(value);
      cloneReturned = cloneReturned || storage == cloneStorage;
      sourceShared = sourceShared || storage == sourceStorage;
    });
    return cloneReturned && sourceShared;
  }

  /// Why wouldAlias() holds, for the remark.
  [[nodiscard]] std::string detail(const Node* clone, const Node* source) const {
    for (const Node* node : {clone, source})
      if (!storageOf(node))
        return "vLLM cannot tell the storage of " + std::string(node->name()) +
               " (no tensor value) and takes it as shared with a graph input or output";
    return std::string(clone->name()) + " is returned, and " + std::string(source->name()) +
           " shares storage with a graph input or another output";
  }

private:
  [[nodiscard]] std::optional<AliasAnalysis::StorageId> storageOf(const Node* node) const {
    if (node->type().kind != TypeAnnotation::Kind::Tensor)
      return std::nullopt;
    AliasAnalysis::StorageId storage = alias_.storageOf(node);
    if (storage == AliasAnalysis::kNoStorage)
      return std::nullopt;
    return storage;
  }
  static bool contains(const std::vector<AliasAnalysis::StorageId>& set,
                       AliasAnalysis::StorageId storage) {
    return std::find(set.begin(), set.end(), storage) != set.end();
  }

  const Graph& graph_;
  const AliasAnalysis& alias_;
  std::vector<AliasAnalysis::StorageId> inputs_;
};

} // namespace

CloneEliminationResult runVllm(Graph& graph, const CloneEliminationOptions& options,
                               const SchemaRegistry& schemas) {
  CloneEliminationResult result;
  CloneRewriter rewriter(graph, result, options.collectRemarks,
                         "vLLM " + std::string(vllmVersion(options.mode)));
  // vLLM numbers the nodes once, before it removes anything.
  EffectAnalysis effects(graph, schemas);
  LayoutAnalysis layouts(graph, effects, passLayoutOptions(options.layout));
  std::vector<Node*> clones;
  for (Node* node : graph)
    if (isClone(node))
      clones.push_back(node);
  std::optional<AliasAnalysis> alias;
  std::optional<GraphIoStorages> graphIo;
  if (options.mode == CloneEliminationMode::Vllm) {
    alias.emplace(graph, effects, options.donated, std::span<const Node* const>(clones));
    graphIo.emplace(graph, *alias);
  }
  // vLLM's donated_input_ids count every node before it: placeholder i is node i while the
  // placeholders come first, as in every graph FX makes.
  std::vector<int64_t> position(graph.orderBound(), -1);
  int64_t index = 0;
  for (const Node* node : graph)
    position[node->order()] = index++;
  // The last user of every node, kept current as clones are replaced by their sources, so that
  // "is the source used after the write" needs no scan of the source's users.
  std::vector<const Node*> lastUser(graph.orderBound(), nullptr);
  for (const Node* node : graph)
    node->forEachInput([&](Node* input) { lastUser[input->order()] = node; });
  auto byOrder = [](const Node* a, const Node* b) { return a->order() < b->order(); };
  rewriter.reserve(clones.size());
  // The facts of every decision, from the graph as given (vLLM decides without storages):
  // taken before removals rewrite the clones' inputs.
  std::vector<DecisionFacts> facts;
  if (options.collectFacts) {
    AliasAnalysis alias(graph, effects, options.donated);
    for (const Node* clone : clones)
      facts.push_back(unmergedFacts(graph.context().sym(), layouts, alias, clone));
  }

  for (size_t at = 0; at < clones.size(); ++at) {
    Node* clone = clones[at];
    if (!facts.empty())
      rewriter.recordFacts(std::move(facts[at]));
    if (clone->target()->overload.empty()) {
      rewriter.keep(clone, KeepReason::Unsupported,
                    "vLLM's pass matches aten.clone.default only, not the overload packet");
      continue;
    }
    if (clone->args().empty()) {
      rewriter.keep(clone, KeepReason::Unsupported,
                    "vLLM takes the clone's input from its positional arguments, and it has none");
      continue;
    }
    if (!clone->args()[0].isNode()) {
      rewriter.keep(clone, KeepReason::Unsupported,
                    "vLLM asserts that the clone's input is a node, and it is not one");
      continue;
    }
    Node* source = clone->args()[0].node();
    LayoutVerdict layout =
        compareLayouts(graph.context().sym(), clone, layouts.layout(clone), source,
                       layouts.layout(source), true, rewriter.collectsRemarks());
    if (layout.reason) {
      rewriter.keep(clone, *layout.reason, std::move(layout.detail));
      continue;
    }

    std::vector<const Node*> writers;
    WriteCheck failed;
    for (Node* user : clone->users()) {
      WriteCheck check = userWritesNode(user, clone, schemas);
      if (!check.why.empty()) {
        failed = std::move(check);
        break;
      }
      if (check.writes)
        writers.push_back(user);
    }
    if (!failed.why.empty()) {
      rewriter.keep(clone, failed.reason, std::move(failed.why));
      continue;
    }
    // Use lists are unordered; remarks name nodes in program order.
    std::sort(writers.begin(), writers.end(), byOrder);
    if (writers.size() > 1) {
      rewriter.keep(clone, KeepReason::Unsupported,
                    "vLLM asserts at most one write, but " + describe(writers[0]) + " and " +
                        describe(writers[1]) + " write " + std::string(clone->name()));
      continue;
    }
    if (!writers.empty()) {
      const Node* writer = writers.front();
      const Node* last = lastUser[source->order()];
      if (last && last->order() > writer->order()) {
        // Name the first use after the write (only kept clones pay for the scan).
        const Node* later = last;
        for (const Node* user : source->users())
          if (user->order() > writer->order() && byOrder(user, later))
            later = user;
        rewriter.keep(clone, KeepReason::SourceReadAfterWrite,
                      describe(writer) + " writes " + std::string(clone->name()) + ", then " +
                          describe(later) + " uses " + std::string(source->name()));
        continue;
      }
      if (source->isPlaceholder()) {
        int64_t at = position[source->order()];
        bool donated = at >= 0 && static_cast<size_t>(at) < options.donated.size() &&
                       options.donated[static_cast<size_t>(at)];
        if (!donated) {
          rewriter.keep(clone, KeepReason::InputMutation,
                        describe(writer) + " writes " + std::string(clone->name()) + "; " +
                            std::string(source->name()) + " is a graph input that is not donated");
          continue;
        }
      }
    } else if (graphIo && graphIo->wouldAlias(clone, source)) {
      rewriter.keep(clone, KeepReason::OutputAlias, graphIo->detail(clone, source));
      continue;
    }
    const Node* cloneLastUser = lastUser[clone->order()];
    if (cloneLastUser &&
        (!lastUser[source->order()] || byOrder(lastUser[source->order()], cloneLastUser)))
      lastUser[source->order()] = cloneLastUser;
    rewriter.remove(clone, source,
                    clone->hasUses() ? std::move(layout.detail) : std::string("no users"));
  }
  return result;
}

} // namespace declone::detail
