// Chooses the nodes clone elimination decides by: a closure from the clones by the effect rules.
#include "declone/transforms/CloneNeighbourhood.h"

#include "declone/analysis/Effects.h"

#include <algorithm>
#include <deque>
#include <optional>
#include <unordered_map>

namespace declone {
namespace {

using Argument = NeighbourhoodSource::Argument;
using Arguments = NeighbourhoodSource::Arguments;

/// Which arguments of a call its value may share storage with, read off the target's
/// TargetEffects. Errs towards `all`: a node taken in needlessly costs time, one left out
/// changes decisions.
struct AliasPlan {
  TargetEffects effects;
  /// The value may share storage with any node in the arguments: unknown effects (ops without
  /// a usable schema, Python functions), a return that may alias any argument, and getitem (an
  /// element of a container may be a view of one of the container's arguments).
  bool all = false;
  /// For the other ops with a schema: the schema parameters some return is a view of. Without
  /// a schema and without `all`, the values are fresh (functional higher-order ops).
  std::vector<bool> aliased;
  /// The op returns a tuple of this many values (0 for one value or a list). AliasAnalysis ties
  /// an element with a constant index outside it to every argument of the op.
  size_t tupleSize = 0;
  [[nodiscard]] const OpSchema* schema() const { return effects.schema; }
};

AliasPlan makePlan(const Target& target, const SchemaRegistry& schemas) {
  using Action = TargetEffects::Action;
  using Return = TargetEffects::Return;
  AliasPlan plan;
  plan.effects = targetEffects(target, schemas);
  const TargetEffects& effects = plan.effects;
  if (effects.action != Action::Schema) {
    plan.all = effects.action != Action::FunctionalHigherOrder;
    return plan;
  }
  plan.aliased.assign(effects.schema->arguments.size(), false);
  if (effects.shape == TargetEffects::Shape::Tuple)
    plan.tupleSize = effects.returns.size();
  for (const Return& ret : effects.returns) {
    if (ret.kind == Return::Kind::Unknown)
      plan.all = true;
    else if (ret.kind == Return::Kind::AliasesArgument)
      plan.aliased[ret.argument] = true;
  }
  return plan;
}

class Selection {
public:
  Selection(NeighbourhoodSource& source, const SchemaRegistry& schemas, CloneEliminationMode mode)
      : source_(source), schemas_(schemas), mode_(mode),
        roles_(source.size(), NeighbourhoodRole::Absent), member_(source.size(), false) {}

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
          layoutSeeds_.push_back(node);
          if (std::optional<uint32_t> source = firstArgumentNode(argumentsOf(node))) {
            join(*source);
            layoutSeeds_.push_back(*source);
          }
        }
        break;
      case Node::Kind::GetAttr:
        break;
      }
    }
    // Safe mode closes over the storages of the clones and sources: up to what a member may be
    // a view of, down to what may be a view of a member. Every user of a member is taken in:
    // it reads, writes or returns the member's storage. vLLM's rules look at the clones' and
    // sources' users only (0.32's; 0.33's output check needs the whole graph).
    std::vector<uint32_t> users;
    while (!worklist_.empty()) {
      uint32_t member = worklist_.back();
      worklist_.pop_back();
      if (mode_ != CloneEliminationMode::Safe) {
        source_.users(member, users);
        for (uint32_t user : users)
          roles_[user] = NeighbourhoodRole::Imported;
        continue;
      }
      forEachAliasedArgument(member, [&](uint32_t argument) { join(argument); });
      if (isGetItem(member))
        holdElementStorage(member);
      bool container = mayHaveElements(member);
      source_.users(member, users);
      for (uint32_t user : users) {
        if (member_[user])
          continue;
        roles_[user] = NeighbourhoodRole::Imported;
        // A getitem's element may be a view of its container's argument rather than of the
        // container: ask whether it may share storage with any member. The elements of a
        // member container may all be tied to its storage class.
        bool aliases = container && isGetItem(user);
        forEachAliasedArgument(user, [&](uint32_t argument) { aliases |= member_[argument]; });
        if (aliases)
          join(user);
        else
          joinElementsOutOfRange(user);
      }
    }
    importLayoutInputs();
    // What the imported nodes refer to must exist; what is not imported stands in, except the
    // container of a getitem, whose effects say what the element is. Containers come before
    // their getitems, so a backward walk reaches a container after making it imported.
    for (uint32_t node = size; node-- > 0;) {
      if (roles_[node] != NeighbourhoodRole::Imported ||
          source_.kind(node) == Node::Kind::Placeholder ||
          source_.kind(node) == Node::Kind::GetAttr)
        continue;
      const Arguments& arguments = argumentsOf(node);
      if (std::optional<uint32_t> container = firstArgumentNode(arguments);
          container && isGetItem(node))
        roles_[*container] = NeighbourhoodRole::Imported;
      arguments.forEachNode([&](uint32_t argument) {
        if (roles_[argument] == NeighbourhoodRole::Absent)
          roles_[argument] = NeighbourhoodRole::StandIn;
      });
    }
    return std::move(roles_);
  }

private:
  /// The pass compares the layouts of the clones and their sources, and LayoutAnalysis works
  /// out what an annotation leaves out (strides, offset, the conj and neg bits) from the
  /// layouts of the values a node is made from: a view's base, an indexed tensor, the argument
  /// an auto_functionalized copy is made of (an `_all_bases` entry), an out= argument; and a
  /// layout changes with a later in-place metadata op (t_, set_, as_strided_, a resizing out=).
  /// A stand-in has no annotation, so every value those layouts may be worked out from is
  /// imported: every node the clones and sources are made from, transitively, with the ops
  /// that may change one's layout in place (and the elements they return, whose sizes tell
  /// whether an out= resized) and what those are made from.
  void importLayoutInputs() {
    std::vector<bool> needed(source_.size(), false);
    std::vector<uint32_t> stack = std::move(layoutSeeds_);
    std::vector<uint32_t> users;
    std::vector<uint32_t> elements;
    while (!stack.empty()) {
      uint32_t node = stack.back();
      stack.pop_back();
      if (needed[node])
        continue;
      needed[node] = true;
      roles_[node] = NeighbourhoodRole::Imported;
      if (source_.kind(node) == Node::Kind::Call)
        argumentsOf(node).forEachNode([&](uint32_t argument) { stack.push_back(argument); });
      source_.users(node, users);
      for (uint32_t user : users) {
        if (!mayChangeLayouts(user))
          continue;
        stack.push_back(user);
        source_.users(user, elements);
        for (uint32_t element : elements)
          if (isGetItem(element))
            roles_[element] = NeighbourhoodRole::Imported;
      }
    }
  }

  /// The call may change the sizes, strides or offset of an argument in place (TargetEffects'
  /// kChangesLayout and kResizesOut), or its effects are unknown.
  bool mayChangeLayouts(uint32_t node) {
    if (source_.kind(node) != Node::Kind::Call || isGetItem(node))
      return false;
    const AliasPlan& plan = planOf(source_.target(node));
    if (plan.effects.action == TargetEffects::Action::FunctionalHigherOrder)
      return false;
    if (plan.effects.action != TargetEffects::Action::Schema)
      return true;
    return std::any_of(
        plan.effects.argumentFlags.begin(), plan.effects.argumentFlags.end(), [](uint8_t flags) {
          return (flags & (TargetEffects::kChangesLayout | TargetEffects::kResizesOut)) != 0;
        });
  }

  void join(uint32_t node) {
    if (member_[node])
      return;
    member_[node] = true;
    roles_[node] = NeighbourhoodRole::Imported;
    worklist_.push_back(node);
  }

  /// AliasAnalysis keeps an element of a container (a tuple, a list, the values of an op it
  /// cannot see into) in a storage of the container's own, keyed by the index, which every
  /// getitem of that index shares, which a getitem with another kind of index is tied to, and
  /// which every other use of the container touches. When `getitem` is a member, so are those
  /// getitems, and those other users are taken in (and joined where they may alias the
  /// container).
  void holdElementStorage(uint32_t getitem) {
    const Arguments& arguments = argumentsOf(getitem);
    std::optional<uint32_t> container = firstArgumentNode(arguments);
    if (!container || !mayHaveElements(*container))
      return;
    std::optional<int64_t> index = constantIndex(arguments);
    std::vector<uint32_t> users;
    source_.users(*container, users);
    for (uint32_t user : users) {
      if (member_[user])
        continue;
      if (isGetItem(user)) { // taking another element apart does not touch this one
        std::optional<int64_t> other = constantIndex(argumentsOf(user));
        if (!index || !other || mayBeSameElement(*container, *index, *other))
          join(user);
        continue;
      }
      roles_[user] = NeighbourhoodRole::Imported;
      bool ties = false;
      forEachAliasedArgument(
          user, [&](uint32_t argument) { ties |= argument == *container || member_[argument]; });
      if (ties)
        join(user);
    }
  }

  /// A call's first positional argument, if that is a node: a clone's source, a getitem's
  /// container.
  static std::optional<uint32_t> firstArgumentNode(const Arguments& arguments) {
    for (const Argument& argument : arguments.arguments)
      if (argument.position == 0 && argument.value == Argument::Value::Node)
        return argument.node;
    return std::nullopt;
  }

  /// The index of getitem(container, index) as AliasAnalysis takes an element apart: exactly
  /// two positional arguments (keywords it does not look at), the container and an integer
  /// constant. Other getitems are unknown to it.
  static std::optional<int64_t> constantIndex(const Arguments& arguments) {
    const Argument* positional[2] = {nullptr, nullptr};
    size_t count = 0;
    for (const Argument& argument : arguments.arguments) {
      if (argument.position == Argument::kKeyword)
        continue;
      if (count < 2)
        positional[count] = &argument;
      ++count;
    }
    if (count != 2 || positional[0]->value != Argument::Value::Node ||
        positional[1]->value != Argument::Value::Int)
      return std::nullopt;
    return positional[1]->integer;
  }

  /// Whether getitem(container, a) and getitem(container, b) may take the same element apart,
  /// as AliasAnalysis tells (EffectAnalysis::elementIndex): a negative index counts from the
  /// end of a tuple, and one into a list (whose length is unknown) may be any element.
  bool mayBeSameElement(uint32_t container, int64_t a, int64_t b) {
    if (a == b)
      return true;
    if (a >= 0 && b >= 0)
      return false;
    if (source_.kind(container) != Node::Kind::Call)
      return true;
    const AliasPlan& plan = planOf(source_.target(container));
    // Ops without a usable schema, or called with an argument theirs lacks, are unknown:
    // their value is a list.
    if (plan.all || plan.tupleSize == 0 || lacksParameter(*plan.schema(), argumentsOf(container)))
      return true;
    return tupleElement(plan, a) == tupleElement(plan, b);
  }

  /// The element of the op's tuple that `index` names, by Python's rules; one past the end for
  /// an index before its start.
  static int64_t tupleElement(const AliasPlan& plan, int64_t index) {
    auto size = static_cast<int64_t>(plan.tupleSize);
    if (index >= 0 || size == 0)
      return index;
    return index >= -size ? index + size : size;
  }

  /// The node's value may be a container whose elements getitem takes apart (EffectAnalysis
  /// gives it outputs): anything but a known op with one non-list return, or a plain getitem.
  bool mayHaveElements(uint32_t node) {
    if (source_.kind(node) != Node::Kind::Call)
      return false;
    if (isGetItem(node))
      return !constantIndex(argumentsOf(node));
    const AliasPlan& plan = planOf(source_.target(node));
    if (plan.all || !plan.schema())
      return true;
    return plan.effects.shape != TargetEffects::Shape::One ||
           lacksParameter(*plan.schema(), argumentsOf(node));
  }

  /// The getitems of `container`'s tuple whose index is out of its range: AliasAnalysis ties
  /// them to every argument of the container, so to the member among them.
  void joinElementsOutOfRange(uint32_t container) {
    if (source_.kind(container) != Node::Kind::Call ||
        planOf(source_.target(container)).tupleSize == 0)
      return;
    std::vector<uint32_t> users;
    source_.users(container, users);
    for (uint32_t user : users)
      if (indexOutOfRange(user))
        join(user);
  }

  /// `node` is a getitem with a constant index outside its container's tuple.
  bool indexOutOfRange(uint32_t node) {
    if (!isGetItem(node))
      return false;
    const Arguments& arguments = argumentsOf(node);
    std::optional<int64_t> index = constantIndex(arguments);
    if (!index)
      return false;
    uint32_t container = arguments.arguments[0].node;
    if (source_.kind(container) != Node::Kind::Call)
      return false;
    return outsideTuple(planOf(source_.target(container)), *index);
  }

  /// `index` names no element of the op's tuple (AliasAnalysis then ties the element to every
  /// argument of the op); false for ops that do not return a tuple.
  static bool outsideTuple(const AliasPlan& plan, int64_t index) {
    return plan.tupleSize != 0 &&
           static_cast<uint64_t>(tupleElement(plan, index)) >= plan.tupleSize;
  }

  /// The node's arguments, read from the source once.
  const Arguments& argumentsOf(uint32_t node) {
    if (argumentsSlot_.empty())
      argumentsSlot_.assign(source_.size(), kNotRead);
    uint32_t& slot = argumentsSlot_[node];
    if (slot == kNotRead) {
      slot = static_cast<uint32_t>(arguments_.size());
      source_.arguments(node, arguments_.emplace_back());
    }
    return arguments_[slot];
  }

  const AliasPlan& planOf(const Target* target) {
    auto [entry, added] = plans_.try_emplace(target);
    if (added)
      entry->second = makePlan(*target, schemas_);
    return entry->second;
  }

  static std::optional<size_t> parameterOf(const OpSchema& schema, const Argument& argument) {
    if (argument.position != Argument::kKeyword)
      return argument.position < schema.arguments.size() ? std::optional<size_t>(argument.position)
                                                         : std::nullopt;
    return schema.argumentIndex(argument.keyword);
  }

  bool isGetItem(uint32_t node) const {
    return source_.kind(node) == Node::Kind::Call && source_.target(node)->isOperator("getitem");
  }

  /// The call has an argument its schema lacks, which makes the op unknown.
  static bool lacksParameter(const OpSchema& schema, const Arguments& arguments) {
    return std::any_of(arguments.arguments.begin(), arguments.arguments.end(),
                       [&](const Argument& argument) { return !parameterOf(schema, argument); });
  }

  /// Calls fn(argument) for each node in a call's arguments whose storage its value may
  /// share: a superset of what EffectAnalysis and AliasAnalysis relate the value to.
  template <class Fn> void forEachAliasedArgument(uint32_t node, Fn&& fn) {
    if (source_.kind(node) != Node::Kind::Call)
      return;
    if (isGetItem(node))
      return forEachAliasedOfElement(argumentsOf(node), fn);
    const AliasPlan& plan = planOf(source_.target(node));
    if (!plan.all && !plan.schema())
      return;
    const Arguments& arguments = argumentsOf(node);
    if (plan.all || lacksParameter(*plan.schema(), arguments))
      return arguments.forEachNode(fn);
    for (size_t i = 0; i < plan.aliased.size(); ++i)
      if (plan.aliased[i] && !forEachFilling(*plan.schema(), arguments, i, fn))
        return arguments.forEachNode(fn);
  }

  /// Calls fn for the node filling parameter `parameter`; false if a value that is neither a
  /// node nor None fills it, which ties the result to every argument.
  template <class Fn>
  static bool forEachFilling(const OpSchema& schema, const Arguments& arguments, size_t parameter,
                             Fn&& fn) {
    for (const Argument& argument : arguments.arguments) {
      if (parameterOf(schema, argument) != parameter)
        continue;
      if (argument.value == Argument::Value::Node)
        fn(argument.node);
      else if (argument.value != Argument::Value::None)
        return false;
    }
    return true;
  }

  /// getitem(container, index): what the element may share storage with. An element of a
  /// container with one value is a view of the container; an element of a tuple or list is
  /// what the container's schema says of that return (its container must then be imported,
  /// which the last step of run() sees to, but need not be a member).
  template <class Fn> void forEachAliasedOfElement(const Arguments& arguments, Fn&& fn) {
    std::optional<int64_t> constant = constantIndex(arguments);
    if (!constant)
      return arguments.forEachNode(fn); // the analysis takes such an element for unknown
    uint32_t container = arguments.arguments[0].node;
    int64_t index = *constant;
    if (source_.kind(container) != Node::Kind::Call) {
      fn(container);
      return;
    }
    const AliasPlan& plan = planOf(source_.target(container));
    if (plan.all) {
      fn(container);
      return argumentsOf(container).forEachNode(fn);
    }
    if (!plan.schema()) // a functional higher-order op: fresh elements
      return;
    const OpSchema& schema = *plan.schema();
    bool list = plan.effects.shape == TargetEffects::Shape::List;
    if (!list && plan.tupleSize == 0) {
      fn(container);
      return;
    }
    const Arguments& containerArguments = argumentsOf(container);
    if (lacksParameter(schema, containerArguments) || outsideTuple(plan, index))
      return containerArguments.forEachNode(fn);
    size_t returned = list ? 0 : static_cast<size_t>(tupleElement(plan, index));
    const TargetEffects::Return& ret = plan.effects.returns[returned];
    if (ret.kind != TargetEffects::Return::Kind::AliasesArgument) // makePlan made Unknown `all`
      return;
    if (!forEachFilling(schema, containerArguments, ret.argument, fn))
      containerArguments.forEachNode(fn);
  }

  NeighbourhoodSource& source_;
  const SchemaRegistry& schemas_;
  CloneEliminationMode mode_;
  std::vector<NeighbourhoodRole> roles_;
  std::vector<bool> member_; ///< may share storage with a clone or a clone's source
  std::vector<uint32_t> worklist_;
  std::vector<uint32_t> layoutSeeds_; ///< the clones and their sources
  static constexpr uint32_t kNotRead = UINT32_MAX;
  std::vector<uint32_t> argumentsSlot_; ///< by node: its place in arguments_, or kNotRead
  std::deque<Arguments> arguments_;     ///< a deque: references to read ones stay valid
  std::unordered_map<const Target*, AliasPlan> plans_;
};

} // namespace

std::vector<NeighbourhoodRole> selectCloneNeighbourhood(NeighbourhoodSource& source,
                                                        const SchemaRegistry& schemas,
                                                        CloneEliminationMode mode) {
  return Selection(source, schemas, mode).run();
}

bool cloneLayoutsAreStated(const Graph& graph) {
  bool stated = true;
  forEachCloneAndSource(graph, [&](const Node* node) {
    stated = stated && (node->type().kind != TypeAnnotation::Kind::Tensor ||
                        node->type().tensor->storageOffset.has_value());
  });
  return stated;
}

} // namespace declone
