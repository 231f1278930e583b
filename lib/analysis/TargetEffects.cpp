// Effects of one op: its schema's alias annotations, the rules of metadata, the audited
// override table, higher-order ops and auto_functionalized; what EffectAnalysis looks up per
// target.
#include "declone/analysis/EffectOverrides.h"
#include "declone/analysis/Effects.h"
#include "declone/analysis/OpModel.h"
#include "declone/analysis/Overloads.h"

#include <algorithm>
#include <unordered_map>
#include <utility>

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

/// Without a schema the op's effects are unknown; the reason says how to give one.
std::string noSchemaReason(const Target& target) {
  return "no schema for " + schemaName(target) +
         " (give its schema with --schemas FILE; `python -m declone schemas MODULE` writes one "
         "from the module that registers the op)";
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

/// The argument only lends its storage to a return, as the input of a view op does.
bool isViewArgument(const OpSchema& schema, size_t index) {
  const SchemaArgument& argument = schema.arguments[index];
  return std::any_of(schema.returns.begin(), schema.returns.end(),
                     [&](const SchemaArgument& ret) { return ret.sharesAliasSetWith(argument); });
}

/// The override table by overload, built once (empty when the table does not parse).
std::span<const EffectOverride* const> effectOverridesOf(std::string_view op) {
  static const auto index = [] {
    std::unordered_map<std::string_view, std::vector<const EffectOverride*>> out;
    if (const auto& table = builtinEffectOverrides(); table.ok())
      for (const EffectOverride& entry : *table)
        out[entry.op].push_back(&entry);
    return out;
  }();
  auto found = index.find(op);
  if (found == index.end())
    return {};
  return found->second;
}

/// Corrects `plan` by one table entry; false when the entry names what the schema lacks (a
/// newer or older schema of the op), which leaves the effects unknown.
bool applyOverride(const EffectOverride& entry, TargetEffects& plan) {
  using Return = TargetEffects::Return;
  const OpSchema& schema = *plan.schema;
  std::optional<size_t> argument = schema.argumentIndex(entry.argument);
  if (!argument)
    return false;
  uint8_t& flags = plan.argumentFlags[*argument];
  switch (entry.kind) {
  case EffectOverride::Kind::ReturnAliases: {
    if (plan.shape != TargetEffects::Shape::Tuple ? entry.returnIndex != 0
                                                  : entry.returnIndex >= plan.returns.size())
      return false;
    Return& ret = plan.returns[entry.returnIndex];
    if (ret.kind == Return::Kind::NotTensor)
      return false;
    // The result may be the argument itself, so consumers must treat it as a view of it. A
    // return that may alias two arguments is beyond one relation: it may alias any.
    if (ret.kind == Return::Kind::AliasesArgument && ret.argument != *argument)
      ret = {Return::Kind::Unknown};
    else if (ret.kind != Return::Kind::Unknown)
      ret = {Return::Kind::AliasesArgument, static_cast<uint32_t>(*argument)};
    plan.bindsArguments = true;
    // The kernel reads the argument when it computes a new result.
    flags &= static_cast<uint8_t>(~TargetEffects::kView);
    return true;
  }
  case EffectOverride::Kind::Writes: {
    std::optional<size_t> condition;
    if (!entry.condition.empty() && !(condition = schema.argumentIndex(entry.condition)))
      return false;
    // A write that is declared, or unconditional by an earlier entry, stays unconditional.
    bool alreadyAlways =
        (flags & TargetEffects::kWrite) && !(flags & TargetEffects::kConditionalWrite);
    // A written argument is read too, not only viewed; what else its flags say stays.
    flags =
        static_cast<uint8_t>((flags & ~(TargetEffects::kView | TargetEffects::kConditionalWrite |
                                        TargetEffects::kReadsMetadataOnly)) |
                             TargetEffects::kWrite);
    // One condition per op: a write under another condition than the op's is unconditional.
    if (alreadyAlways || !condition || (plan.writeCondition && *plan.writeCondition != *condition))
      return true;
    plan.writeCondition = static_cast<uint32_t>(*condition);
    flags |= TargetEffects::kConditionalWrite;
    return true;
  }
  }
  return false;
}

/// Ops that read a tensor's metadata (sizes, strides, offset), never its data.
constexpr std::string_view kMetadataQueries[] = {
    "sym_size", "sym_stride", "sym_numel", "sym_storage_offset", "size",
    "stride",   "numel",      "dim",       "storage_offset",
};

bool named(const OpSchema& schema, std::string_view opNamespace, std::string_view name) {
  return schema.opNamespace == opNamespace && schema.name == name;
}

/// The rules of metadata: which arguments an op may give a new layout in place and which it
/// only reads the metadata of (set_ making `self` a view of its source is in the override
/// table, found by the audit). They go by the
/// schema's name, so that a call spelled any way (overload, method) gets them.
void applyMetadataRules(const OpSchema& schema, TargetEffects& plan) {
  std::span<const OpName> changers = inPlaceLayoutChangers();
  bool changesSelf = std::any_of(changers.begin(), changers.end(), [&](const OpName& op) {
    return named(schema, op.opNamespace, op.name);
  });
  bool readsMetadata = schema.opNamespace == "aten" &&
                       std::find(std::begin(kMetadataQueries), std::end(kMetadataQueries),
                                 schema.name) != std::end(kMetadataQueries);
  for (size_t i = 0; i < schema.arguments.size(); ++i) {
    uint8_t& flags = plan.argumentFlags[i];
    if (flags & TargetEffects::kWrite) {
      // out= overloads (PyTorch's convention: the written arguments are keyword-only) resize
      // their out arguments to the result's sizes (at::native::resize_output).
      if (changesSelf && i == 0)
        flags |= TargetEffects::kChangesLayout;
      else if (schema.arguments[i].kwargOnly && schema.isTensorLike(i))
        flags |= TargetEffects::kResizesOut;
    } else if (readsMetadata && schema.isTensorLike(i)) {
      flags = TargetEffects::kReadsMetadataOnly;
    }
  }
}

/// The effects the schema of one overload declares, with the rules of metadata (no overrides).
TargetEffects declaredSchemaEffects(const OpSchema& op);
/// The effects of calls of a packet or a Tensor method (Action::Overloaded), or unknown.
TargetEffects overloadedEffects(const Target& target, const SchemaRegistry& schemas);

} // namespace

std::optional<FunctionalizedOutputs> functionalizedOutputs(const Node* node,
                                                           const SchemaRegistry& schemas) {
  if (!node->isCall() || node->args().empty() || node->args()[0].kind != ArgKind::OpRef)
    return std::nullopt;
  std::string_view name = node->target()->opName;
  bool v2 = name == "auto_functionalized_v2";
  if (!node->target()->isHigherOrder() || (!v2 && name != "auto_functionalized"))
    return std::nullopt;
  const Target& op = *node->args()[0].op;
  const OpSchema* schema = schemas.lookup(op.opNamespace, op.opName, op.overload);
  if (!schema)
    return std::nullopt;
  FunctionalizedOutputs out;
  out.results = std::max<size_t>(schema->returns.size(), 1);
  for (size_t i = 0; i < schema->returns.size(); ++i)
    if (schema->returns[i].isTensorLike() && !schema->returnIsFresh(i))
      out.resultsMayAliasCopies = true;
  if (v2) {
    const Arg* bases = node->kwarg("_all_bases");
    if (!bases || (bases->kind != ArgKind::List && bases->kind != ArgKind::Tuple))
      return std::nullopt;
    for (const Arg& base : bases->children())
      out.copies.push_back({&base, false});
  } else {
    for (size_t i = 0; i < schema->arguments.size(); ++i)
      if (schema->writesArgument(i))
        out.copies.push_back({node->kwarg(schema->arguments[i].name), false});
  }
  // Inductor's reinplacing names what still needs a copy; the rest is written in place.
  const Arg* only = node->kwarg(v2 ? "_only_clone_these_bases" : "_only_clone_these_tensors");
  if (!only || only->kind == ArgKind::None)
    return out;
  if (only->kind != ArgKind::List && only->kind != ArgKind::Tuple)
    return std::nullopt;
  size_t mutated = 0;
  for (size_t i = 0; i < out.copies.size(); ++i) {
    bool listed = false;
    if (v2) {
      for (const Arg& index : only->children())
        listed = listed || (index.kind == ArgKind::Int && index.integer == static_cast<int64_t>(i));
    } else {
      while (!schema->writesArgument(mutated))
        ++mutated;
      std::string_view argument = schema->arguments[mutated++].name;
      for (const Arg& quoted : only->children()) {
        std::string_view text = quoted.text();
        listed = listed || (quoted.kind == ArgKind::String && text.size() >= 2 &&
                            text.substr(1, text.size() - 2) == argument);
      }
    }
    out.copies[i].inPlace = !listed;
  }
  return out;
}

bool isFunctionalHigherOrder(const Target& target) {
  return target.isHigherOrder() &&
         std::find(std::begin(kFunctionalHigherOrderOps), std::end(kFunctionalHigherOrderOps),
                   target.opName) != std::end(kFunctionalHigherOrderOps);
}

TargetEffects declaredEffects(const Target& target, const SchemaRegistry& schemas) {
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
      plan.reason = noSchemaReason(target);
      return plan;
    }
    return declaredSchemaEffects(*schema);
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

TargetEffects declaredSchemaEffects(const OpSchema& op) {
  using Action = TargetEffects::Action;
  using Return = TargetEffects::Return;
  TargetEffects plan;
  const OpSchema* schema = &op;
  plan.schema = schema; // kept with unknown effects too, for binding an overload's arguments
  if (named(*schema, "aten", "set_data")) {
    // self takes new_data's storage and layout, and nothing is returned to tie them by.
    plan.reason = "set_data gives its self another tensor's storage";
    return plan;
  }
  if (schema->hasWildcard() && !wildcardsAreOnlyListViews(*schema)) {
    plan.reason = "wildcard alias annotation in " + schema->fullName();
    return plan;
  }
  plan.action = Action::Schema;
  plan.argumentFlags.resize(schema->arguments.size());
  for (size_t i = 0; i < schema->arguments.size(); ++i) {
    if (schema->writesArgument(i)) {
      plan.argumentFlags[i] = TargetEffects::kWrite;
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
  applyMetadataRules(*schema, plan);
  return plan;
}

TargetEffects overloadedEffects(const Target& target, const SchemaRegistry& schemas) {
  TargetEffects plan;
  bool method = target.kind == Target::Kind::Method;
  std::string_view name = method ? target.qualifiedName : target.opName;
  std::vector<const OpSchema*> overloads = overloadsOf(target, schemas);
  if (overloads.empty()) {
    plan.reason = method ? "method call ." + std::string(name) + "() is no aten op's method"
                         : noSchemaReason(target);
    return plan;
  }
  for (const OpSchema* schema : overloads)
    plan.overloads.push_back(declaredSchemaEffects(*schema));
  plan.action = TargetEffects::Action::Overloaded;
  return plan;
}

/// `plan` corrected by the override table. An entry that does not fit the schema (a newer or
/// older schema of the op) leaves the effects unknown.
TargetEffects withOverrides(TargetEffects plan) {
  if (plan.action == TargetEffects::Action::Overloaded) {
    for (TargetEffects& overload : plan.overloads)
      overload = withOverrides(std::move(overload));
    return plan;
  }
  if (plan.action != TargetEffects::Action::Schema)
    return plan;
  if (const auto& table = builtinEffectOverrides(); !table.ok()) {
    TargetEffects unknown; // the table's corrections may be this op's
    unknown.schema = plan.schema;
    unknown.reason = table.error().message;
    return unknown;
  }
  // The table is keyed by the overload as the schema names it; the schema, not the target,
  // settles the name ("default" and "" are the same overload).
  std::string name = plan.schema->fullName();
  for (const EffectOverride* entry : effectOverridesOf(name))
    if (!applyOverride(*entry, plan)) {
      TargetEffects unknown;
      unknown.schema = plan.schema;
      unknown.reason = "the effect override '" + entry->correction() + "' does not fit " +
                       plan.schema->toString();
      return unknown;
    }
  return plan;
}

} // namespace

TargetEffects targetEffects(const Target& target, const SchemaRegistry& schemas) {
  return withOverrides(declaredEffects(target, schemas));
}

} // namespace declone
