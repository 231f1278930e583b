// Tests' graph-in-memory side of the clone-neighbourhood selection: a source over a Graph, and
// the graph an importer would build from the selection's roles.
#pragma once

#include "declone/transforms/CloneNeighbourhood.h"

#include <cassert>
#include <memory>
#include <span>
#include <vector>

namespace declone::test {

/// A NeighbourhoodSource over a graph in memory (Graph::numberNodes() must be current).
/// Positions are the nodes' places in program order.
class GraphNeighbourhoodSource final : public NeighbourhoodSource {
public:
  explicit GraphNeighbourhoodSource(const Graph& graph);
  [[nodiscard]] uint32_t size() const override { return static_cast<uint32_t>(nodes_.size()); }
  [[nodiscard]] Node::Kind kind(uint32_t node) const override { return nodes_[node]->kind(); }
  [[nodiscard]] const Target* target(uint32_t node) const override {
    return nodes_[node]->target();
  }
  void arguments(uint32_t node, Arguments& out) override;
  void users(uint32_t node, std::vector<uint32_t>& out) override;
  [[nodiscard]] const Node* node(uint32_t position) const { return nodes_[position]; }

private:
  std::vector<const Node*> nodes_;
  std::vector<uint32_t> positionByOrder_;
};

inline GraphNeighbourhoodSource::GraphNeighbourhoodSource(const Graph& graph) {
  graph.numberNodes();
  positionByOrder_.assign(graph.orderBound(), UINT32_MAX);
  for (const Node* node : graph) {
    positionByOrder_[node->order()] = static_cast<uint32_t>(nodes_.size());
    nodes_.push_back(node);
  }
}

inline void GraphNeighbourhoodSource::arguments(uint32_t position, Arguments& out) {
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
    } else if (value.kind == ArgKind::Int) {
      argument.value = Argument::Value::Int;
      argument.integer = value.integer;
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

inline void GraphNeighbourhoodSource::users(uint32_t position, std::vector<uint32_t>& out) {
  out.clear();
  for (const Node* user : nodes_[position]->users())
    out.push_back(positionByOrder_[user->order()]);
}

namespace detail {

inline Arg copyArg(Graph& graph, const Arg& value, const std::vector<Node*>& copies,
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

} // namespace detail

/// Builds, in `module`'s Context, the graph an importer builds from `roles` (which
/// selectCloneNeighbourhood chose for `module`'s graph through a GraphNeighbourhoodSource):
/// imported nodes copied with their arguments, annotations and lines, stand-ins as
/// selectCloneNeighbourhood describes them. What tests compare the whole graph's decisions with.
inline std::unique_ptr<GraphModule>
copyCloneNeighbourhood(const GraphModule& module, std::span<const NeighbourhoodRole> roles) {
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
          out[i] = detail::copyArg(graph, values[i], copies, positionByOrder);
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
        made = graph.createOutput(detail::copyArg(graph, node->args()[0], copies, positionByOrder));
        break;
      case Node::Kind::Call: {
        std::span<KwArg> kwargs = graph.context().allocate<KwArg>(node->kwargs().size());
        for (size_t i = 0; i < kwargs.size(); ++i)
          kwargs[i] = {node->kwargs()[i].name,
                       detail::copyArg(graph, node->kwargs()[i].value, copies, positionByOrder)};
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

} // namespace declone::test
