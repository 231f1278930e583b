// The part of a graph that clone elimination's decisions depend on, chosen before it is read.
#pragma once

#include "declone/ir/Graph.h"
#include "declone/schema/SchemaRegistry.h"
#include "declone/transforms/CloneElimination.h"

#include <cstdint>
#include <string_view>
#include <vector>

namespace declone {

/// A graph the selection reads node by node, by position in program order. An importer of live
/// graphs answers from the live graph and so reads only the nodes the selection asks about.
class NeighbourhoodSource {
public:
  /// One argument of a call, positional (`position`) or keyword (`keyword`).
  struct Argument {
    static constexpr uint32_t kKeyword = UINT32_MAX;
    enum class Value : uint8_t {
      Node,  ///< the argument is one node: `node`
      None,  ///< None
      Int,   ///< an integer constant: `integer` (getitem's index is one)
      Other, ///< another constant, or a list, tuple, dict or slice (its nodes are in `nested`)
    };
    uint32_t position = kKeyword;
    std::string_view keyword;
    Value value = Value::Other;
    uint32_t node = 0;   ///< the referenced node's position, for Value::Node
    int64_t integer = 0; ///< for Value::Int
  };
  struct Arguments {
    std::vector<Argument> arguments; ///< every argument, positional ones first
    std::vector<uint32_t> nested;    ///< nodes inside the lists, tuples, dicts and slices
    /// Calls fn(position) for every node referenced anywhere in the arguments.
    template <class Fn> void forEachNode(Fn&& fn) const {
      for (const Argument& argument : arguments)
        if (argument.value == Argument::Value::Node)
          fn(argument.node);
      for (uint32_t node : nested)
        fn(node);
    }
  };

  virtual ~NeighbourhoodSource() = default;
  [[nodiscard]] virtual uint32_t size() const = 0;
  [[nodiscard]] virtual Node::Kind kind(uint32_t node) const = 0;
  /// The target of a call; nullptr for other nodes.
  [[nodiscard]] virtual const Target* target(uint32_t node) const = 0;
  /// Replaces `out` with the arguments of a call or the output. Keyword views stay valid while
  /// the source lives.
  virtual void arguments(uint32_t node, Arguments& out) = 0;
  /// Replaces `out` with the nodes whose arguments reference `node`, each once, in any order.
  virtual void users(uint32_t node, std::vector<uint32_t>& out) = 0;
};

/// What the pass needs of one node.
enum class NeighbourhoodRole : uint8_t {
  /// Nothing decided depends on the node.
  Absent,
  /// Only the node's existence: a placeholder (donation counts placeholders by position), or a
  /// value that an imported node references but whose storage is none of the clones' or
  /// sources'. A stand-in keeps its name and position and has no arguments and no annotation;
  /// one that is not a placeholder stands in as a get_attr.
  StandIn,
  /// The node as an import of the whole graph would have it.
  Imported,
};

/// The nodes clone elimination in `mode` decides by, each with its role.
/// - Safe: the clones, their sources, and every value that may share storage with one of them,
///   closed over what EffectAnalysis's rules (targetEffects) say a call's values alias: views,
///   in-place results, getitem, and conservatively every argument of a call with unknown
///   effects; every node that references such a value (so every read, write and return of
///   those storages).
/// - Vllm032: the clones, their sources and their direct users, which is all vLLM 0.32's rules
///   look at. (0.33's output check reads every output and input: import the whole graph.)
/// In both, every value the clones and sources are made from, transitively (LayoutAnalysis
/// works out what their annotations leave out from those: an auto_functionalized copy's
/// argument, a view's base, an out= argument), with the ops that may change one of their layouts
/// in place (kChangesLayout, kResizesOut, unknown effects) and those ops' elements; the output,
/// every placeholder, the containers that imported getitems take apart, and stand-ins for the
/// other values imported nodes refer to.
/// The pass in `mode` decides on the graph of these nodes, in program order with the same
/// lines, exactly as on the whole graph, provided the layout of each annotated clone and source
/// is stated in full (with a storage offset): an inferred offset would look at nodes left out.
[[nodiscard]] std::vector<NeighbourhoodRole> selectCloneNeighbourhood(NeighbourhoodSource& source,
                                                                      const SchemaRegistry& schemas,
                                                                      CloneEliminationMode mode);

/// Calls fn(Node*) for every aten.clone of `graph`, whatever its overload, and then for its
/// source (its first argument, if that is a node): the values whose layouts clone elimination
/// reads. A node that is both, or the source of several clones, comes more than once.
template <class Fn> void forEachCloneAndSource(const Graph& graph, Fn&& fn) {
  for (Node* node : graph) {
    if (!node->isCall() || !node->target()->isOp("aten", "clone"))
      continue;
    fn(node);
    if (!node->args().empty() && node->args()[0].isNode())
      fn(node->args()[0].node());
  }
}

/// Every aten.clone and clone source in `graph` that carries a tensor annotation has a storage
/// offset in it: the condition under which deciding on the neighbourhood is exact.
[[nodiscard]] bool cloneLayoutsAreStated(const Graph& graph);

} // namespace declone
