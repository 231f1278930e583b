// Chooses the nodes clone elimination decides by: an alias closure over op schemas from the clones.
#include "declone/transforms/CloneNeighbourhood.h"

#include "declone/analysis/Effects.h"

#include <cassert>
#include <optional>
#include <unordered_map>

namespace declone {
namespace {

using Argument = NeighbourhoodSource::Argument;
using Arguments = NeighbourhoodSource::Arguments;

/// Which arguments of a call its value may share storage with, as far as the target decides.
/// Errs towards `all`: a node taken in needlessly costs time, one left out changes decisions.
struct AliasPlan {
  /// The value may share storage with any node in the arguments: ops without a usable schema
  /// (their results may alias every argument), Python functions, getitem (whose element may be
  /// a view of any argument of the container), and ops returning several values (the
  /// analysis may tie an element it cannot place to every argument of the op).
  bool all = false;
  /// For the remaining ops: the schema, whose parameters `aliased` marks those a return is a
  /// view of. Without a schema and without `all`, the value is fresh (functional higher-order
  /// ops) or not a value (placeholders, get_attr, the output).
  const OpSchema* schema = nullptr;
  std::vector<bool> aliased;
};

AliasPlan makePlan(const Target* target, const SchemaRegistry& schemas) {
  AliasPlan plan;
  if (!target)
    return plan;
  if (target->kind != Target::Kind::Op) {
    plan.all = true;
    return plan;
  }
  if (isFunctionalHigherOrder(*target))
    return plan;
  const OpSchema* schema =
      target->isHigherOrder()
          ? nullptr
          : schemas.lookup(target->opNamespace, target->opName, target->overload);
  // wait_tensor's schema declares a fresh result, but EffectAnalysis takes it for its input.
  if (!schema || schema->hasWildcard() || schema->isVararg || schema->isVarret ||
      schema->returns.size() > 1 ||
      (schema->returns.size() == 1 && schema->returns[0].type.isList()) ||
      target->isOp("_c10d_functional", "wait_tensor")) {
    plan.all = true;
    return plan;
  }
  plan.schema = schema;
  plan.aliased.assign(schema->arguments.size(), false);
  for (size_t i = 0; i < schema->returns.size(); ++i) {
    if (!schema->returns[i].isTensorLike() || schema->returnIsFresh(i))
      continue;
    std::optional<size_t> argument = schema->returnAliasesArgument(i);
    if (!argument) {
      plan.all = true;
      return plan;
    }
    plan.aliased[*argument] = true;
  }
  return plan;
}

class Selection {
public:
  Selection(NeighbourhoodSource& source, const SchemaRegistry& schemas)
      : source_(source), schemas_(schemas), roles_(source.size(), NeighbourhoodRole::Absent),
        member_(source.size(), false) {}

  std::vector<NeighbourhoodRole> run() {
    uint32_t size = source_.size();
    for (uint32_t node = 0; node < size; ++node) {
      switch (source_.kind(node)) {
      case Node::Kind::Placeholder:
        roles_[node] = NeighbourhoodRole::StandIn;
        break;
      case Node::Kind::Output:
        roles_[node] = NeighbourhoodRole::Imported;
        break;
      case Node::Kind::Call:
        // Every aten.clone, whatever its overload: LayoutAnalysis looks at all of them.
        if (source_.target(node)->isOp("aten", "clone")) {
          join(node);
          for (const Argument& argument : argumentsOf(node).arguments)
            if (argument.position == 0 && argument.value == Argument::Value::Node)
              join(argument.node);
        }
        break;
      case Node::Kind::GetAttr:
        break;
      }
    }
    // Close over the storages of the clones and sources: up to what a member may be a view of,
    // down to what may be a view of a member. Every user of a member is taken in: it reads,
    // writes or returns the member's storage.
    std::vector<uint32_t> users;
    while (!worklist_.empty()) {
      uint32_t member = worklist_.back();
      worklist_.pop_back();
      forEachAliasedArgument(member, [&](uint32_t argument) { join(argument); });
      source_.users(member, users);
      for (uint32_t user : users) {
        if (member_[user])
          continue;
        roles_[user] = NeighbourhoodRole::Imported;
        bool aliases = false;
        forEachAliasedArgument(user, [&](uint32_t argument) { aliases |= argument == member; });
        if (aliases)
          join(user);
      }
    }
    // What the imported nodes refer to must exist; what is not imported stands in.
    for (uint32_t node = 0; node < size; ++node) {
      if (roles_[node] != NeighbourhoodRole::Imported ||
          source_.kind(node) == Node::Kind::Placeholder ||
          source_.kind(node) == Node::Kind::GetAttr)
        continue;
      argumentsOf(node).forEachNode([&](uint32_t argument) {
        if (roles_[argument] == NeighbourhoodRole::Absent)
          roles_[argument] = NeighbourhoodRole::StandIn;
      });
    }
    return std::move(roles_);
  }

private:
  void join(uint32_t node) {
    if (member_[node])
      return;
    member_[node] = true;
    roles_[node] = NeighbourhoodRole::Imported;
    worklist_.push_back(node);
  }

  const Arguments& argumentsOf(uint32_t node) {
    auto [entry, added] = arguments_.try_emplace(node);
    if (added)
      source_.arguments(node, entry->second);
    return entry->second;
  }

  const AliasPlan& planOf(const Target* target) {
    auto [entry, added] = plans_.try_emplace(target);
    if (added)
      entry->second = makePlan(target, schemas_);
    return entry->second;
  }

  static std::optional<size_t> parameterOf(const OpSchema& schema, const Argument& argument) {
    if (argument.position != Argument::kKeyword)
      return argument.position < schema.arguments.size() ? std::optional<size_t>(argument.position)
                                                         : std::nullopt;
    return schema.argumentIndex(argument.keyword);
  }

  /// Calls fn(argument) for each node in a call's arguments whose storage its value may
  /// share: a superset of what EffectAnalysis and AliasAnalysis relate the value to.
  template <class Fn> void forEachAliasedArgument(uint32_t node, Fn&& fn) {
    if (source_.kind(node) != Node::Kind::Call)
      return;
    const AliasPlan& plan = planOf(source_.target(node));
    if (!plan.all && !plan.schema)
      return;
    const Arguments& arguments = argumentsOf(node);
    bool all = plan.all;
    // An argument the schema lacks makes the op unknown. An aliased parameter filled by neither
    // a node nor None (a list of tensors, a constant) ties the result to every argument.
    for (size_t i = 0; !all && i < arguments.arguments.size(); ++i) {
      const Argument& argument = arguments.arguments[i];
      std::optional<size_t> index = parameterOf(*plan.schema, argument);
      all = !index || (plan.aliased[*index] && argument.value == Argument::Value::Other);
    }
    if (all) {
      arguments.forEachNode(fn);
      return;
    }
    for (const Argument& argument : arguments.arguments)
      if (argument.value == Argument::Value::Node &&
          plan.aliased[*parameterOf(*plan.schema, argument)])
        fn(argument.node);
  }

  NeighbourhoodSource& source_;
  const SchemaRegistry& schemas_;
  std::vector<NeighbourhoodRole> roles_;
  std::vector<bool> member_; ///< may share storage with a clone or a clone's source
  std::vector<uint32_t> worklist_;
  std::unordered_map<uint32_t, Arguments> arguments_;
  std::unordered_map<const Target*, AliasPlan> plans_;
};

} // namespace

std::vector<NeighbourhoodRole> selectCloneNeighbourhood(NeighbourhoodSource& source,
                                                        const SchemaRegistry& schemas) {
  return Selection(source, schemas).run();
}

bool cloneLayoutsAreStated(const Graph& graph) {
  auto stated = [](const Node* node) {
    return node->type().kind != TypeAnnotation::Kind::Tensor ||
           node->type().tensor->storageOffset.has_value();
  };
  for (const Node* node : graph) {
    if (!node->isCall() || !node->target()->isOp("aten", "clone"))
      continue;
    if (!stated(node) ||
        (!node->args().empty() && node->args()[0].isNode() && !stated(node->args()[0].node())))
      return false;
  }
  return true;
}

// --- GraphNeighbourhoodSource ----------------------------------------------------------------

GraphNeighbourhoodSource::GraphNeighbourhoodSource(const Graph& graph) {
  graph.numberNodes();
  positionByOrder_.assign(graph.orderBound(), UINT32_MAX);
  for (const Node* node : graph) {
    positionByOrder_[node->order()] = static_cast<uint32_t>(nodes_.size());
    nodes_.push_back(node);
  }
}

void GraphNeighbourhoodSource::arguments(uint32_t position, Arguments& out) {
  out.arguments.clear();
  out.nested.clear();
  const Node* node = nodes_[position];
  auto add = [&](const Arg& value, uint32_t index, std::string_view keyword) {
    Argument& argument = out.arguments.emplace_back();
    argument.position = index;
    argument.keyword = keyword;
    if (value.isNode()) {
      argument.value = Argument::Value::Node;
      argument.node = positionByOrder_[value.node()->order()];
    } else if (value.kind == ArgKind::None) {
      argument.value = Argument::Value::None;
    } else {
      value.forEachNode(
          [&](const Node* nested) { out.nested.push_back(positionByOrder_[nested->order()]); });
    }
  };
  for (size_t i = 0; i < node->args().size(); ++i)
    add(node->args()[i], static_cast<uint32_t>(i), {});
  for (const KwArg& kwarg : node->kwargs())
    add(kwarg.value, Argument::kKeyword, kwarg.name);
}

void GraphNeighbourhoodSource::users(uint32_t position, std::vector<uint32_t>& out) {
  out.clear();
  for (const Node* user : nodes_[position]->users())
    out.push_back(positionByOrder_[user->order()]);
}

// --- copyCloneNeighbourhood ------------------------------------------------------------------

namespace {

Arg copyArg(Graph& graph, const Arg& value, const std::vector<Node*>& copies,
            const std::vector<uint32_t>& positionByOrder) {
  if (value.isNode()) {
    Node* copy = copies[positionByOrder[value.node()->order()]];
    assert(copy && "the selection gives every referenced node a role");
    return graph.nodeArg(copy);
  }
  if (!value.isSequence())
    return value;
  Arg out = value;
  std::span<Arg> elements = graph.context().allocate<Arg>(value.count);
  for (size_t i = 0; i < elements.size(); ++i)
    elements[i] = copyArg(graph, value.elements[i], copies, positionByOrder);
  out.elements = elements.data();
  return out;
}

} // namespace

std::unique_ptr<GraphModule> copyCloneNeighbourhood(const GraphModule& module,
                                                    std::span<const NeighbourhoodRole> roles) {
  const Graph& whole = module.graph;
  whole.numberNodes();
  auto copy = std::make_unique<GraphModule>(whole.context());
  copy->className = module.className;
  copy->classBases = module.classBases;
  Graph& graph = copy->graph;
  std::vector<uint32_t> positionByOrder(whole.orderBound(), UINT32_MAX);
  std::vector<Node*> copies;
  for (const Node* node : whole) {
    uint32_t position = static_cast<uint32_t>(copies.size());
    positionByOrder[node->order()] = position;
    Node* made = nullptr;
    auto type = [&]() -> const TypeAnnotation* {
      return node->type().kind == TypeAnnotation::Kind::None ? nullptr : &node->type();
    };
    if (roles[position] == NeighbourhoodRole::StandIn) {
      made = node->isPlaceholder() ? graph.createPlaceholder(node->name(), nullptr)
                                   : graph.createGetAttr(node->name(), node->name(), nullptr);
    } else if (roles[position] == NeighbourhoodRole::Imported) {
      auto copyArgs = [&](std::span<const Arg> values) {
        std::span<Arg> out = graph.context().allocate<Arg>(values.size());
        for (size_t i = 0; i < values.size(); ++i)
          out[i] = copyArg(graph, values[i], copies, positionByOrder);
        return out;
      };
      switch (node->kind()) {
      case Node::Kind::Placeholder:
        made = graph.createPlaceholder(node->name(), type(), node->defaultValue());
        break;
      case Node::Kind::GetAttr:
        made = graph.createGetAttr(node->name(), node->attribute(), type());
        break;
      case Node::Kind::Output:
        made = graph.createOutput(copyArg(graph, node->args()[0], copies, positionByOrder));
        break;
      case Node::Kind::Call: {
        std::span<KwArg> kwargs = graph.context().allocate<KwArg>(node->kwargs().size());
        for (size_t i = 0; i < kwargs.size(); ++i)
          kwargs[i] = {node->kwargs()[i].name,
                       copyArg(graph, node->kwargs()[i].value, copies, positionByOrder)};
        made =
            graph.createCall(node->name(), node->target(), copyArgs(node->args()), kwargs, type());
        break;
      }
      }
    }
    if (made)
      made->setLine(node->line());
    copies.push_back(made);
  }
  return copy;
}

} // namespace declone
