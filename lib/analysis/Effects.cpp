// EffectAnalysis: the effects of every node of a graph, from its target's, getitem and subgraphs.
#include "declone/analysis/Effects.h"

#include "declone/analysis/Overloads.h"
#include "declone/analysis/SubgraphEffects.h"

#include <algorithm>
#include <unordered_map>
#include <utility>

namespace declone {

size_t EffectAnalysis::countReferences(const Graph& graph) {
  size_t references = 0;
  for (const Node* node : graph)
    node->forEachInput([&](const Node*) { ++references; });
  return references;
}

/// Analyzes every node of a graph into an EffectAnalysis; holds what only that needs.
class EffectAnalysis::Builder {
public:
  explicit Builder(EffectAnalysis& result) : result_(result) {}
  void build(const Graph& graph, size_t references);

private:
  /// The effects of the node being analyzed; its buffers are reused from node to node.
  /// A node's accesses, each value once. Found by a scan while few, through a hash index once
  /// many (a cat of 200k tensors), so that a node costs linear time in its arguments.
  class AccessList {
  public:
    void clear() {
      items_.clear();
      if (!index_.empty())
        index_ = {}; // clear() would wipe every bucket of a big table for each later node
    }
    void add(const Node* value, bool write) {
      if (NodeEffects::Access* found = find(value)) {
        if (write)
          found->markWritten();
        return;
      }
      items_.push_back({value, write});
      if (!index_.empty())
        index_.emplace(value, static_cast<uint32_t>(items_.size() - 1));
    }
    [[nodiscard]] auto begin() const { return items_.begin(); }
    [[nodiscard]] auto end() const { return items_.end(); }

  private:
    static constexpr size_t kScanned = 16;
    NodeEffects::Access* find(const Node* value) {
      if (index_.empty() && items_.size() < kScanned) {
        for (NodeEffects::Access& access : items_)
          if (access.value() == value)
            return &access;
        return nullptr;
      }
      if (index_.empty())
        for (uint32_t i = 0; i < items_.size(); ++i)
          index_.emplace(items_[i].value(), i);
      auto found = index_.find(value);
      return found == index_.end() ? nullptr : &items_[found->second];
    }
    std::vector<NodeEffects::Access> items_;
    std::unordered_map<const Node*, uint32_t> index_;
  };

  struct Scratch {
    bool known = true;
    /// Why not known: a view of a plan's reason (most reasons depend only on the target), or of
    /// `ownedReason` when `ownsReason`.
    std::string_view unknownReason;
    std::string ownedReason;
    bool ownsReason = false;
    AccessList accesses;
    OutputAlias result;
    std::vector<OutputAlias> outputs;
    bool listOutput = false;
  };

  void analyzeCall(const Node* node, Scratch& effects);
  void analyzeOpCall(const Node* node, const TargetEffects& plan, Scratch& effects) {
    analyzeOpCall(node, plan, node->args(), node->kwargs(), effects);
  }
  /// As above, with the call's arguments as the plan's overload takes them.
  void analyzeOpCall(const Node* node, const TargetEffects& plan, std::span<const Arg> args,
                     std::span<const KwArg> kwargs, Scratch& effects);
  /// Action::Overloaded: the union of the effects of the overloads that can take the call.
  void analyzeOverloadedCall(const Node* node, const TargetEffects& plan, Scratch& effects);
  void analyzeFunctionalHigherOrder(const Node* node, Scratch& effects);
  /// A call of a nested subgraph whose summary is known; false when it is not such a call.
  bool analyzeSubgraphCall(const Node* node, Scratch& effects);
  void analyzeGetItem(const Node* node, Scratch& effects);
  /// `reason` must outlive the analysis (a plan's); makeUnknownOwned copies it.
  void makeUnknown(const Node* node, Scratch& effects, std::string_view reason);
  void makeUnknownOwned(const Node* node, Scratch& effects, std::string reason);
  void addAccess(Scratch& effects, const Node* value, bool write);
  void store(const Node* node, Scratch& effects);
  /// The effects of a target, worked out once: a graph has a few dozen targets and calls them
  /// over and over. Targets are interned, so a pointer identifies one.
  const TargetEffects& plan(const Target& target);

  EffectAnalysis& result_;
  const Target* lastTarget_ = nullptr;
  const TargetEffects* lastPlan_ = nullptr;
  std::vector<const Arg*> bound_; ///< analyzeOpCall's argument binding, reused
  std::vector<Arg> overloadArgs_; ///< bindOverload's storage, reused
  Scratch overloadScratch_;       ///< one overload's effects, reused
};

void EffectAnalysis::Builder::build(const Graph& graph, size_t references) {
  graph.numberNodes();
  result_.packed_.resize(graph.orderBound() + 1);
  // A node accesses each tensor argument once, so its node references bound its accesses.
  // Reserving that bound once spares the pool's doublings, whose old and new arrays together
  // would otherwise be the pass's peak memory.
  result_.accessPool_.reserve(references);
  Scratch effects;
  uint32_t nextOrder = 0; // the first order whose access range has no start yet
  for (const Node* node : graph) {
    for (; nextOrder < node->order(); ++nextOrder) // a gap left by erased nodes: empty
      result_.packed_[nextOrder].accessBegin = static_cast<uint32_t>(result_.accessPool_.size());
    nextOrder = node->order() + 1;
    effects.known = true;
    effects.unknownReason = {};
    effects.ownsReason = false;
    effects.accesses.clear();
    effects.result = {};
    effects.outputs.clear();
    effects.listOutput = false;
    bool symbolic = node->type().kind == TypeAnnotation::Kind::Sym;
    switch (node->kind()) {
    case Node::Kind::Placeholder:
    case Node::Kind::GetAttr:
      effects.result.kind = symbolic ? OutputAlias::Kind::NotTensor : OutputAlias::Kind::Fresh;
      break;
    case Node::Kind::Output:
      node->forEachInput([&](Node* input) {
        if (result_.isTensor(input))
          addAccess(effects, input, false);
      });
      break;
    case Node::Kind::Call:
      analyzeCall(node, effects);
      // A symbolic int annotation settles what a result is, whatever produced it.
      if (symbolic && effects.known)
        effects.result.kind = OutputAlias::Kind::NotTensor;
      break;
    }
    store(node, effects);
  }
  for (; nextOrder < result_.packed_.size(); ++nextOrder)
    result_.packed_[nextOrder].accessBegin = static_cast<uint32_t>(result_.accessPool_.size());
  // The small pools grew by doubling; give back the slack. The access pool was reserved.
  result_.outputPool_.shrink_to_fit();
  result_.outputRanges_.shrink_to_fit();
  result_.reasons_.shrink_to_fit();
  bound_ = {};
}

EffectAnalysis::EffectAnalysis(const Graph& graph, const SchemaRegistry& schemas)
    : EffectAnalysis(graph, schemas, countReferences(graph)) {}

EffectAnalysis::EffectAnalysis(const Graph& graph, const SchemaRegistry& schemas, size_t references)
    : EffectAnalysis(graph, schemas, references, nullptr) {}

EffectAnalysis::EffectAnalysis(const Graph& graph, const SchemaRegistry& schemas, size_t references,
                               const SubgraphTable* subgraphs)
    : registry_(schemas), subgraphs_(subgraphs) {
  Builder(*this).build(graph, references);
}

void EffectAnalysis::Builder::store(const Node* node, Scratch& effects) {
  Packed& packed = result_.packed_[node->order()];
  packed.resultKind = effects.result.kind;
  packed.resultInput = effects.result.input;
  packed.listOutput = effects.listOutput;
  packed.accessBegin = static_cast<uint32_t>(result_.accessPool_.size());
  result_.accessPool_.insert(result_.accessPool_.end(), effects.accesses.begin(),
                             effects.accesses.end());
  if (!effects.outputs.empty()) {
    packed.multiOutput = true;
    result_.outputRanges_.push_back({node->order(),
                                     static_cast<uint32_t>(result_.outputPool_.size()),
                                     static_cast<uint32_t>(effects.outputs.size())});
    result_.outputPool_.insert(result_.outputPool_.end(), effects.outputs.begin(),
                               effects.outputs.end());
  }
  if (!effects.known) {
    packed.known = false;
    std::string_view reason = effects.unknownReason;
    if (effects.ownsReason)
      reason = result_.ownedReasons_.emplace_back(std::move(effects.ownedReason));
    result_.reasons_.emplace_back(node->order(), reason);
  }
}

const EffectAnalysis::OutputRange* EffectAnalysis::outputRange(const Node* node) const {
  if (!packed_[node->order()].multiOutput)
    return nullptr;
  auto found = std::lower_bound(
      outputRanges_.begin(), outputRanges_.end(), node->order(),
      [](const OutputRange& range, uint32_t order) { return range.order < order; });
  return &*found;
}

NodeEffects EffectAnalysis::effects(const Node* node) const {
  const Packed& packed = packed_[node->order()];
  NodeEffects out;
  out.known = packed.known;
  if (!out.known)
    out.unknownReason =
        std::lower_bound(reasons_.begin(), reasons_.end(), node->order(),
                         [](const auto& entry, uint32_t order) { return entry.first < order; })
            ->second;
  out.accesses = accesses(node);
  out.result = {packed.resultKind, packed.resultInput};
  if (const OutputRange* range = outputRange(node))
    out.outputs = {outputPool_.data() + range->begin, range->count};
  out.listOutput = packed.listOutput;
  return out;
}

const OpSchema* EffectAnalysis::schema(const Node* node) const {
  // Every call whose target's plan has a schema was analysed with it.
  if (!node->isCall())
    return nullptr;
  auto found = plans_.find(node->target());
  if (found == plans_.end() || found->second.action != TargetEffects::Action::Schema)
    return nullptr;
  return found->second.schema;
}

const TargetEffects& EffectAnalysis::Builder::plan(const Target& target) {
  // Calls of one target often come in runs (a chain of views, a block of adds).
  if (&target == lastTarget_)
    return *lastPlan_;
  auto found = result_.plans_.find(&target);
  if (found == result_.plans_.end())
    found = result_.plans_.emplace(&target, targetEffects(target, result_.registry_)).first;
  lastTarget_ = &target;
  lastPlan_ = &found->second;
  return found->second;
}

OutputAlias EffectAnalysis::output(const Node* node, size_t index) const {
  const OutputRange* range = outputRange(node);
  if (!range)
    return {OutputAlias::Kind::Unknown, nullptr};
  if (packed_[node->order()].listOutput)
    return outputPool_[range->begin];
  if (index < range->count)
    return outputPool_[range->begin + index];
  return {OutputAlias::Kind::Unknown, nullptr};
}

std::optional<size_t> EffectAnalysis::elementIndex(const Node* node, int64_t index) const {
  if (index >= 0)
    return static_cast<size_t>(index);
  const OutputRange* range = outputRange(node);
  if (!range || packed_[node->order()].listOutput)
    return std::nullopt;
  auto count = static_cast<int64_t>(range->count);
  return static_cast<size_t>(index >= -count ? index + count : count);
}

void EffectAnalysis::Builder::addAccess(Scratch& effects, const Node* value, bool write) {
  effects.accesses.add(value, write);
}

void EffectAnalysis::Builder::makeUnknown(const Node* node, Scratch& effects,
                                          std::string_view reason) {
  effects.known = false;
  effects.unknownReason = reason;
  effects.ownsReason = false;
  effects.accesses.clear();
  node->forEachInput([&](Node* input) {
    if (result_.isTensor(input))
      addAccess(effects, input, true);
  });
  effects.result = {OutputAlias::Kind::Unknown, nullptr};
  effects.outputs.assign(1, {OutputAlias::Kind::Unknown, nullptr});
  effects.listOutput = true;
}

void EffectAnalysis::Builder::makeUnknownOwned(const Node* node, Scratch& effects,
                                               std::string reason) {
  makeUnknown(node, effects, {});
  effects.ownedReason = std::move(reason);
  effects.unknownReason = effects.ownedReason;
  effects.ownsReason = true;
}

void EffectAnalysis::Builder::analyzeCall(const Node* node, Scratch& effects) {
  const TargetEffects& plan = this->plan(*node->target());
  switch (plan.action) {
  case TargetEffects::Action::FunctionalHigherOrder:
    return analyzeFunctionalHigherOrder(node, effects);
  case TargetEffects::Action::Unknown:
    if (result_.subgraphs_ && node->target()->isHigherOrder() && analyzeSubgraphCall(node, effects))
      return;
    return makeUnknown(node, effects, plan.reason);
  case TargetEffects::Action::Schema:
    return analyzeOpCall(node, plan, effects);
  case TargetEffects::Action::Overloaded:
    return analyzeOverloadedCall(node, plan, effects);
  case TargetEffects::Action::GetItem:
    return analyzeGetItem(node, effects);
  case TargetEffects::Action::Function: {
    bool tensorInput = false;
    node->forEachInput([&](Node* input) { tensorInput = tensorInput || result_.isTensor(input); });
    if (tensorInput)
      return makeUnknown(node, effects, plan.reason);
    // Symbolic-int arithmetic such as `s0 * 2` or torch.sym_min.
    effects.result.kind = node->type().kind == TypeAnnotation::Kind::Tensor
                              ? OutputAlias::Kind::Fresh
                              : OutputAlias::Kind::NotTensor;
    return;
  }
  }
}

void EffectAnalysis::Builder::analyzeOverloadedCall(const Node* node, const TargetEffects& plan,
                                                    Scratch& effects) {
  // PyTorch runs the first overload (in its registration order, which schemas do not keep)
  // that takes the arguments. Any of those that can take them may be it: the call reads and
  // writes what any of them does, and a result that they relate differently may alias any
  // argument.
  const Target& target = *node->target();
  bool first = true;
  for (const TargetEffects& overload : plan.overloads) {
    std::optional<BoundOverload> bound =
        bindOverload(*overload.schema, *node, overloadArgs_, [&](const Node* value) {
          // One tensor: a container of tensors (a multi-output node) may be a list.
          return result_.isTensor(value) && !result_.hasOutputs(value) &&
                 result_.result(value).kind != OutputAlias::Kind::Unknown;
        });
    if (!bound)
      continue;
    if (overload.action != TargetEffects::Action::Schema)
      return makeUnknown(node, effects, overload.reason);
    Scratch& one = first ? effects : overloadScratch_;
    if (!first) {
      one.known = true;
      one.accesses.clear();
      one.result = {};
      one.outputs.clear();
      one.listOutput = false;
    }
    analyzeOpCall(node, overload, bound->args, bound->kwargs, one);
    if (!one.known) {
      if (!first)
        effects = std::move(one);
      return;
    }
    if (first) {
      first = false;
      continue;
    }
    for (const NodeEffects::Access& access : one.accesses)
      addAccess(effects, access.value(), access.write());
    auto same = [](const OutputAlias& a, const OutputAlias& b) {
      return a.kind == b.kind && a.input == b.input;
    };
    if (!same(effects.result, one.result))
      effects.result = {OutputAlias::Kind::Unknown, nullptr};
    if (effects.listOutput != one.listOutput || effects.outputs.size() != one.outputs.size())
      return makeUnknownOwned(node, effects,
                              "the overloads of " + std::string(target.qualifiedName) +
                                  " that take these arguments return different structures");
    for (size_t i = 0; i < effects.outputs.size(); ++i)
      if (!same(effects.outputs[i], one.outputs[i]))
        effects.outputs[i] = {OutputAlias::Kind::Unknown, nullptr};
  }
  if (first)
    makeUnknownOwned(node, effects,
                     "no overload of " + plan.overloads.front().schema->qualifiedName() +
                         " takes these arguments");
}

void EffectAnalysis::Builder::analyzeFunctionalHigherOrder(const Node* node, Scratch& effects) {
  // auto_functionalized(op, **kwargs) reads its tensors and returns fresh copies of the
  // values op would have mutated; the tuple is taken apart with getitem.
  node->forEachInput([&](Node* input) {
    if (result_.isTensor(input))
      addAccess(effects, input, false);
  });
  if (node->target()->opName == "triton_kernel_wrapper_functional") {
    // The kernel gets copies of the tensors `tensors_to_clone` names and the others themselves,
    // which (after Inductor's reinplacing has shortened the list) it may write.
    const Arg* kwargs = node->kwarg("kwargs");
    const Arg* toClone = node->kwarg("tensors_to_clone");
    std::span<const Arg> entries = kwargs ? kwargs->children() : std::span<const Arg>();
    for (size_t i = 0; i + 1 < entries.size(); i += 2) {
      bool cloned =
          toClone && std::any_of(toClone->children().begin(), toClone->children().end(),
                                 [&](const Arg& name) { return name.text() == entries[i].text(); });
      if (!cloned)
        entries[i + 1].forEachNode([&](Node* input) {
          if (result_.isTensor(input))
            addAccess(effects, input, true);
        });
    }
    effects.outputs.assign(1, {OutputAlias::Kind::Fresh, nullptr});
    effects.listOutput = true;
    return;
  }
  std::optional<FunctionalizedOutputs> layout = functionalizedOutputs(node, result_.registry_);
  // An in-place op returns the copy it wrote: two elements share memory (unknown unites them
  // through the inputs every element then may alias).
  if (layout && layout->resultsMayAliasCopies)
    return makeUnknown(node, effects,
                       "the op's result aliases the copy it mutates (an in-place or out= op)");
  bool copiesOnly =
      !node->kwarg("_only_clone_these_tensors") && !node->kwarg("_only_clone_these_bases");
  if (copiesOnly) {
    effects.outputs.assign(1, {OutputAlias::Kind::Fresh, nullptr});
    effects.listOutput = true;
    return;
  }
  // Where reinplacing left an argument out of the copies, op writes it, and the element that
  // would have been its copy is the argument itself.
  if (!layout)
    return makeUnknown(node, effects,
                       "auto_functionalized with _only_clone_these_* whose op has no schema or "
                       "whose arguments are not understood");
  effects.outputs.assign(layout->results, {OutputAlias::Kind::Fresh, nullptr});
  for (const FunctionalizedOutputs::Copy& copy : layout->copies) {
    if (!copy.inPlace || !copy.argument) {
      effects.outputs.push_back({OutputAlias::Kind::Fresh, nullptr});
      continue;
    }
    copy.argument->forEachNode([&](Node* input) {
      if (result_.isTensor(input))
        addAccess(effects, input, true);
    });
    effects.outputs.push_back(copy.argument->isNode()
                                  ? OutputAlias{OutputAlias::Kind::Aliases, copy.argument->node()}
                                  : OutputAlias{OutputAlias::Kind::Unknown, nullptr});
  }
}

void EffectAnalysis::Builder::analyzeOpCall(const Node* node, const TargetEffects& plan,
                                            std::span<const Arg> args,
                                            std::span<const KwArg> kwargs, Scratch& effects) {
  const OpSchema& schema = *plan.schema;
  // Which node fills each schema argument, for resolving return aliases (only returns that
  // alias an argument ask, so most ops skip it).
  bool binds = plan.bindsArguments;
  if (binds)
    bound_.assign(schema.arguments.size(), nullptr);
  // Writes that happen only when a bool argument is true (the batch-norm family's running
  // statistics in training): a literal False, or a default False left out, means none.
  bool conditionFalse = false;
  if (plan.writeCondition) {
    const SchemaArgument& parameter = schema.arguments[*plan.writeCondition];
    const Arg* condition = nullptr;
    if (*plan.writeCondition < args.size())
      condition = &args[*plan.writeCondition];
    for (const KwArg& kwarg : kwargs)
      if (kwarg.name == parameter.name)
        condition = &kwarg.value;
    conditionFalse = condition ? condition->kind == ArgKind::Bool && !condition->boolean
                               : parameter.defaultValue == "False";
  }
  auto bind = [&](const Arg& value, std::optional<size_t> index) {
    uint8_t flags = index ? plan.argumentFlags[*index] : 0;
    bool write = (flags & TargetEffects::kWrite) != 0 &&
                 !(conditionFalse && (flags & TargetEffects::kConditionalWrite));
    if (index && binds)
      bound_[*index] = &value;
    // Making a view (`Tensor(a) self` -> `Tensor(a)`) reads no data; reads of the view count.
    // Nor does asking for sizes or strides: that a clone's metadata equals its source's is
    // rule 1's business, and whether it stays so LayoutAnalysis's (kChangesLayout).
    if (flags & (TargetEffects::kView | TargetEffects::kReadsMetadataOnly))
      return;
    bool changesLayout =
        write && (flags & (TargetEffects::kChangesLayout | TargetEffects::kResizesOut));
    value.forEachNode([&](Node* input) {
      if (!result_.isTensor(input))
        return;
      addAccess(effects, input, write);
      if (changesLayout)
        result_.layoutChanges_.push_back(
            {node, input, (flags & TargetEffects::kChangesLayout) == 0});
    });
  };
  // Known to be a tensor: annotated as one, or made by a call that returns one. A graph input
  // without an annotation may be an int (a size).
  auto knownTensor = [&](const Node* input) {
    TypeAnnotation::Kind kind = input->type().kind;
    return kind == TypeAnnotation::Kind::Tensor ||
           (input->isCall() && kind != TypeAnnotation::Kind::Sym && result_.isTensor(input));
  };
  for (size_t i = 0; i < args.size(); ++i) {
    if (i >= schema.arguments.size() && !schema.isVararg)
      return makeUnknownOwned(
          node, effects, "more arguments than the schema of " + schema.fullName() + " declares");
    if (i < schema.arguments.size())
      if (std::string why = tensorWhereNoneIsTaken(schema, i, args[i], knownTensor); !why.empty())
        return makeUnknownOwned(node, effects, std::move(why));
    bind(args[i], i < schema.arguments.size() ? std::optional<size_t>(i) : std::nullopt);
  }
  for (const KwArg& kwarg : kwargs) {
    std::optional<size_t> index = schema.argumentIndex(kwarg.name);
    if (!index)
      return makeUnknownOwned(node, effects,
                              "keyword '" + std::string(kwarg.name) + "' is not in the schema of " +
                                  schema.fullName());
    if (std::string why = tensorWhereNoneIsTaken(schema, *index, kwarg.value, knownTensor);
        !why.empty())
      return makeUnknownOwned(node, effects, std::move(why));
    bind(kwarg.value, index);
  }

  auto relation = [&](size_t returnIndex) -> OutputAlias {
    const TargetEffects::Return& ret = plan.returns[returnIndex];
    switch (ret.kind) {
    case TargetEffects::Return::Kind::NotTensor:
      return {OutputAlias::Kind::NotTensor, nullptr};
    case TargetEffects::Return::Kind::Fresh:
      return {OutputAlias::Kind::Fresh, nullptr};
    case TargetEffects::Return::Kind::Unknown:
      return {OutputAlias::Kind::Unknown, nullptr};
    case TargetEffects::Return::Kind::AliasesArgument:
      break;
    }
    const Arg* value = bound_[ret.argument];
    if (!value || value->kind == ArgKind::None)
      return {OutputAlias::Kind::Fresh, nullptr}; // the aliased argument was not passed
    if (value->isNode())
      return {OutputAlias::Kind::Aliases, value->node()};
    return {OutputAlias::Kind::Unknown, nullptr}; // e.g. one of a list of tensors
  };
  switch (plan.shape) {
  case TargetEffects::Shape::One:
    effects.result = relation(0);
    return;
  case TargetEffects::Shape::List:
    effects.outputs.assign(1, relation(0));
    effects.listOutput = true;
    return;
  case TargetEffects::Shape::Tuple:
    for (size_t i = 0; i < plan.returns.size(); ++i)
      effects.outputs.push_back(relation(i));
    return;
  }
}

bool EffectAnalysis::Builder::analyzeSubgraphCall(const Node* node, Scratch& effects) {
  // invoke_subgraph(body, identifier, *operands) and wrap(body, *operands) call the body on
  // the operands, which are its placeholders in order; cond(pred, true_body, false_body,
  // (operands...)) calls one of two bodies, so it does what either may.
  std::string_view name = node->target()->opName;
  std::span<const Arg> args = node->args();
  auto body = [&](size_t index) -> const SubgraphSummary* {
    if (index >= args.size() || !args[index].isNode() ||
        args[index].node()->kind() != Node::Kind::GetAttr)
      return nullptr;
    return result_.subgraphs_->find(args[index].node()->attribute());
  };
  if (!node->kwargs().empty())
    return false;
  const SubgraphSummary* summary = nullptr;
  SubgraphSummary either;
  std::span<const Arg> operands;
  if (name == "invoke_subgraph" || name == "wrap") {
    size_t first = name == "invoke_subgraph" ? 2 : 1;
    summary = body(0);
    if (args.size() >= first)
      operands = args.subspan(first);
  } else if (name == "cond" && args.size() == 4 && args[3].isSequence()) {
    const SubgraphSummary* whenTrue = body(1);
    const SubgraphSummary* whenFalse = body(2);
    if (whenTrue && whenFalse) {
      either = joinSummaries(*whenTrue, *whenFalse);
      summary = &either;
    }
    operands = args[3].children();
    args[0].forEachNode([&](Node* predicate) {
      if (result_.isTensor(predicate))
        addAccess(effects, predicate, false);
    });
  }
  if (!summary || operands.size() != summary->writesInput.size())
    return false;
  if (!summary->known) {
    makeUnknownOwned(node, effects, summary->unknownReason);
    return true;
  }
  for (size_t i = 0; i < operands.size(); ++i)
    operands[i].forEachNode([&](Node* input) {
      if (result_.isTensor(input))
        addAccess(effects, input, summary->writesInput[i]);
    });
  auto relation = [&](const SubgraphSummary::Output& output) -> OutputAlias {
    switch (output.kind) {
    case SubgraphSummary::Output::Kind::NotTensor:
      return {OutputAlias::Kind::NotTensor, nullptr};
    case SubgraphSummary::Output::Kind::Fresh:
      return {OutputAlias::Kind::Fresh, nullptr};
    case SubgraphSummary::Output::Kind::AliasesInput:
      if (operands[output.input].isNode())
        return {OutputAlias::Kind::Aliases, operands[output.input].node()};
      break;
    case SubgraphSummary::Output::Kind::Unknown:
      break;
    }
    return {OutputAlias::Kind::Unknown, nullptr};
  };
  if (!summary->tupleOutput) {
    effects.result = relation(summary->outputs[0]);
    return true;
  }
  for (const SubgraphSummary::Output& output : summary->outputs)
    effects.outputs.push_back(relation(output));
  if (effects.outputs.empty()) // an empty tuple: nothing to take apart, nothing to alias
    effects.outputs.push_back({OutputAlias::Kind::NotTensor, nullptr});
  return true;
}

void EffectAnalysis::Builder::analyzeGetItem(const Node* node, Scratch& effects) {
  std::span<const Arg> args = node->args();
  if (args.size() != 2 || !args[0].isNode())
    return makeUnknown(node, effects, "unexpected operator.getitem arguments");
  const Node* container = args[0].node();
  const Packed& source = result_.packed_[container->order()];
  // Tensor indices are read; the container itself is only taken apart.
  args[1].forEachNode([&](Node* input) {
    if (result_.isTensor(input))
      addAccess(effects, input, false);
  });
  if (source.multiOutput) {
    if (args[1].kind != ArgKind::Int)
      return makeUnknown(node, effects, "getitem with a non-constant index");
    // Every element of a list relates alike, so one whose position is unknown does too.
    effects.result =
        result_.output(container, result_.elementIndex(container, args[1].integer).value_or(0));
    return;
  }
  if (source.resultKind == OutputAlias::Kind::NotTensor) {
    effects.result.kind = OutputAlias::Kind::NotTensor;
    return;
  }
  // Python indexing of a tensor: basic indexing is a view, advanced indexing a copy. Treating
  // both as a view only adds aliasing, which is the safe direction.
  effects.result = {OutputAlias::Kind::Aliases, container};
}

} // namespace declone
