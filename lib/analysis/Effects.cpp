// Effects of nodes: schema alias annotations, higher-order ops, getitem, conservative fallback.
#include "declone/analysis/Effects.h"

#include "declone/analysis/Overloads.h"

#include <algorithm>

namespace declone {
namespace {

/// Higher-order ops that only read their tensor arguments and return fresh tensors.
constexpr std::string_view kFunctionalHigherOrderOps[] = {
    "auto_functionalized", "auto_functionalized_v2", "triton_kernel_wrapper_functional"};

std::string schemaName(const Target& target) {
  std::string name = std::string(target.opNamespace) + "::" + std::string(target.opName);
  if (!target.overload.empty())
    name += "." + std::string(target.overload);
  return name;
}

/// `split(Tensor(a -> *) self, ...) -> Tensor(a)[]` and its kin: the `-> *` only says that the
/// views end up inside a list, which getitem takes apart again. Such a schema is precise enough:
/// every element is a view of the argument. Any other use of `*` is treated as unknown.
bool wildcardsAreOnlyListViews(const OpSchema& schema) {
  for (const SchemaArgument& ret : schema.returns)
    if (ret.hasWildcard())
      return false;
  for (const SchemaArgument& argument : schema.arguments) {
    if (!argument.hasWildcard())
      continue;
    if (argument.elementAlias || !argument.alias || argument.alias->isWrite ||
        argument.alias->isWildcardBefore())
      return false;
    bool feedsListReturn =
        std::any_of(schema.returns.begin(), schema.returns.end(), [&](const SchemaArgument& ret) {
          return ret.type.isList() && ret.sharesAliasSetWith(argument);
        });
    if (!feedsListReturn)
      return false;
  }
  return true;
}

/// Ops that write arguments their schema does not mark as written (PyTorch's batch-norm
/// kernels update the running statistics; rrelu_with_noise fills `noise`), and only in
/// training: a call whose `training` argument is False does not write them. The schema cannot
/// be trusted for these, whichever registry or live op it came from.
struct UndeclaredWrite {
  std::string_view op; ///< aten op name, any overload
  std::string_view arguments[2];
};
constexpr UndeclaredWrite kUndeclaredWrites[] = {
    {"native_batch_norm", {"running_mean", "running_var"}},
    {"_native_batch_norm_legit", {"running_mean", "running_var"}},
    {"_batch_norm_impl_index", {"running_mean", "running_var"}},
    {"cudnn_batch_norm", {"running_mean", "running_var"}},
    {"miopen_batch_norm", {"running_mean", "running_var"}},
    {"batch_norm", {"running_mean", "running_var"}},
    {"rrelu_with_noise", {"noise", {}}},
};

bool writesUndeclared(std::string_view ns, std::string_view name, std::string_view argument) {
  if (ns != "aten")
    return false;
  for (const UndeclaredWrite& entry : kUndeclaredWrites)
    if (entry.op == name)
      for (std::string_view name : entry.arguments)
        if (!name.empty() && name == argument)
          return true;
  return false;
}

/// The argument only lends its storage to a return, as the input of a view op does.
bool isViewArgument(const OpSchema& schema, size_t index) {
  const SchemaArgument& argument = schema.arguments[index];
  return std::any_of(schema.returns.begin(), schema.returns.end(),
                     [&](const SchemaArgument& ret) { return ret.sharesAliasSetWith(argument); });
}

/// The effects of calls of one overload, `op` (of `ns::name`).
TargetEffects schemaEffects(std::string_view ns, std::string_view name, const OpSchema& op);
/// The effects of calls of a packet or a Tensor method (Action::Overloaded), or unknown.
TargetEffects overloadedEffects(const Target& target, const SchemaRegistry& schemas);

} // namespace

bool isFunctionalHigherOrder(const Target& target) {
  return target.isHigherOrder() &&
         std::find(std::begin(kFunctionalHigherOrderOps), std::end(kFunctionalHigherOrderOps),
                   target.opName) != std::end(kFunctionalHigherOrderOps);
}

TargetEffects targetEffects(const Target& target, const SchemaRegistry& schemas) {
  using Action = TargetEffects::Action;
  TargetEffects plan;
  switch (target.kind) {
  case Target::Kind::Op: {
    if (isFunctionalHigherOrder(target)) {
      plan.action = Action::FunctionalHigherOrder;
      return plan;
    }
    if (target.isHigherOrder()) {
      plan.reason = "higher-order op " + std::string(target.opName) + " has no effect model";
      return plan;
    }
    if (target.overload.empty()) // a packet: `torch.ops.aten.add_(x, y)`
      return overloadedEffects(target, schemas);
    const OpSchema* schema = schemas.lookup(target.opNamespace, target.opName, target.overload);
    if (!schema) {
      plan.reason = "no schema for " + schemaName(target);
      return plan;
    }
    return schemaEffects(target.opNamespace, target.opName, *schema);
  }
  case Target::Kind::Function:
    if (target.isOperator("getitem")) {
      plan.action = Action::GetItem;
      return plan;
    }
    plan.action = Action::Function;
    plan.reason = "Python function " + std::string(target.qualifiedName) + " with tensor arguments";
    return plan;
  case Target::Kind::Method:
    return overloadedEffects(target, schemas);
  case Target::Kind::Module:
    plan.reason = "submodule call self." + std::string(target.qualifiedName) + "()";
    return plan;
  }
  return plan;
}

namespace {

TargetEffects schemaEffects(std::string_view ns, std::string_view name, const OpSchema& op) {
  using Action = TargetEffects::Action;
  using Return = TargetEffects::Return;
  TargetEffects plan;
  const OpSchema* schema = &op;
  plan.schema = schema; // kept with unknown effects too, for binding an overload's arguments
  if (schema->hasWildcard() && !wildcardsAreOnlyListViews(*schema)) {
    plan.reason = "wildcard alias annotation in " + schema->fullName();
    return plan;
  }
  plan.action = Action::Schema;
  plan.argumentFlags.resize(schema->arguments.size());
  std::optional<size_t> training = schema->argumentIndex("training");
  for (size_t i = 0; i < schema->arguments.size(); ++i) {
    if (schema->writesArgument(i)) {
      plan.argumentFlags[i] = TargetEffects::kWrite;
    } else if (writesUndeclared(ns, name, schema->arguments[i].name)) {
      plan.argumentFlags[i] = TargetEffects::kWrite;
      if (training) {
        plan.argumentFlags[i] |= TargetEffects::kWriteInTraining;
        plan.trainingArgument = static_cast<uint32_t>(*training);
      }
    } else if (isViewArgument(*schema, i)) {
      plan.argumentFlags[i] = TargetEffects::kView;
    }
  }
  if (schema->isVarret) { // any number of values, each of which may alias any argument
    plan.shape = TargetEffects::Shape::List;
    plan.returns.assign(1, Return{Return::Kind::Unknown});
    return plan;
  }
  if (schema->returns.size() == 1)
    plan.shape =
        schema->returns[0].type.isList() ? TargetEffects::Shape::List : TargetEffects::Shape::One;
  else
    plan.shape = TargetEffects::Shape::Tuple;
  plan.returns.resize(schema->returns.size());
  for (size_t i = 0; i < schema->returns.size(); ++i) {
    Return& ret = plan.returns[i];
    if (!schema->returns[i].isTensorLike()) {
      ret.kind = Return::Kind::NotTensor;
    } else if (schema->returnIsFresh(i)) {
      ret.kind = Return::Kind::Fresh;
    } else if (std::optional<size_t> argument = schema->returnAliasesArgument(i)) {
      ret.kind = Return::Kind::AliasesArgument;
      ret.argument = static_cast<uint32_t>(*argument);
      plan.bindsArguments = true;
    }
  }
  // wait_tensor's schema declares a fresh result, but it returns its input once the
  // collective has finished writing it.
  if (ns == "_c10d_functional" && name == "wait_tensor" &&
      plan.shape == TargetEffects::Shape::One && !schema->arguments.empty()) {
    plan.returns[0] = {Return::Kind::AliasesArgument, 0};
    plan.bindsArguments = true;
  }
  return plan;
}

TargetEffects overloadedEffects(const Target& target, const SchemaRegistry& schemas) {
  TargetEffects plan;
  bool method = target.kind == Target::Kind::Method;
  std::string_view ns = method ? std::string_view("aten") : target.opNamespace;
  std::string_view name = method ? target.qualifiedName : target.opName;
  std::vector<const OpSchema*> overloads = overloadsOf(target, schemas);
  if (overloads.empty()) {
    plan.reason = method ? "method call ." + std::string(name) + "() is no aten op's method"
                         : "no schema for " + schemaName(target);
    return plan;
  }
  for (const OpSchema* schema : overloads)
    plan.overloads.push_back(schemaEffects(ns, name, *schema));
  plan.action = TargetEffects::Action::Overloaded;
  return plan;
}

} // namespace

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
  struct Scratch {
    bool known = true;
    /// Why not known: a view of a plan's reason (most reasons depend only on the target), or of
    /// `ownedReason` when `ownsReason`.
    std::string_view unknownReason;
    std::string ownedReason;
    bool ownsReason = false;
    std::vector<NodeEffects::Access> accesses;
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
    : registry_(schemas) {
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
  for (NodeEffects::Access& access : effects.accesses) {
    if (access.value() == value) {
      if (write)
        access.markWritten();
      return;
    }
  }
  effects.accesses.push_back({value, write});
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
    // auto_functionalized(op, **kwargs) reads its tensors and returns fresh copies of the
    // values op would have mutated; the tuple is taken apart with getitem.
    node->forEachInput([&](Node* input) {
      if (result_.isTensor(input))
        addAccess(effects, input, false);
    });
    effects.outputs.assign(1, {OutputAlias::Kind::Fresh, nullptr});
    effects.listOutput = true;
    return;
  case TargetEffects::Action::Unknown:
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

void EffectAnalysis::Builder::analyzeOpCall(const Node* node, const TargetEffects& plan,
                                            std::span<const Arg> args,
                                            std::span<const KwArg> kwargs, Scratch& effects) {
  const OpSchema& schema = *plan.schema;
  // Which node fills each schema argument, for resolving return aliases (only returns that
  // alias an argument ask, so most ops skip it).
  bool binds = plan.bindsArguments;
  if (binds)
    bound_.assign(schema.arguments.size(), nullptr);
  // The batch-norm family writes its running statistics only in training.
  bool notTraining = false;
  if (plan.trainingArgument) {
    const Arg* training = nullptr;
    if (*plan.trainingArgument < args.size())
      training = &args[*plan.trainingArgument];
    for (const KwArg& kwarg : kwargs)
      if (kwarg.name == schema.arguments[*plan.trainingArgument].name)
        training = &kwarg.value;
    notTraining = training && training->kind == ArgKind::Bool && !training->boolean;
  }
  auto bind = [&](const Arg& value, std::optional<size_t> index) {
    uint8_t flags = index ? plan.argumentFlags[*index] : 0;
    bool write = (flags & TargetEffects::kWrite) != 0 &&
                 !(notTraining && (flags & TargetEffects::kWriteInTraining));
    if (index && binds)
      bound_[*index] = &value;
    // Making a view (`Tensor(a) self` -> `Tensor(a)`) reads no data; reads of the view count.
    if (flags & TargetEffects::kView)
      return;
    value.forEachNode([&](Node* input) {
      if (result_.isTensor(input))
        addAccess(effects, input, write);
    });
  };
  for (size_t i = 0; i < args.size(); ++i) {
    if (i >= schema.arguments.size() && !schema.isVararg)
      return makeUnknownOwned(
          node, effects, "more arguments than the schema of " + schema.fullName() + " declares");
    bind(args[i], i < schema.arguments.size() ? std::optional<size_t>(i) : std::nullopt);
  }
  for (const KwArg& kwarg : kwargs) {
    std::optional<size_t> index = schema.argumentIndex(kwarg.name);
    if (!index)
      return makeUnknownOwned(node, effects,
                              "keyword '" + std::string(kwarg.name) + "' is not in the schema of " +
                                  schema.fullName());
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
