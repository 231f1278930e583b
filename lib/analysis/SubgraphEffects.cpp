// Subgraph summaries: the effect and alias analyses of a body, seen from its operands.
#include "declone/analysis/SubgraphEffects.h"

#include "declone/analysis/AliasAnalysis.h"

#include <unordered_map>

namespace declone {

SubgraphTable::SubgraphTable(const GraphModule& module, const SchemaRegistry& schemas) {
  for (const auto& child : module.children)
    summaries_.emplace(child->className, summarizeSubgraph(*child, schemas));
}

const SubgraphSummary* SubgraphTable::find(std::string_view attribute) const {
  auto found = summaries_.find(attribute);
  return found == summaries_.end() ? nullptr : &found->second;
}

SubgraphSummary summarizeSubgraph(const GraphModule& body, const SchemaRegistry& schemas) {
  using Output = SubgraphSummary::Output;
  using StorageId = AliasAnalysis::StorageId;
  SubgraphSummary summary;
  const Graph& graph = body.graph;
  SubgraphTable nested(body, schemas);
  EffectAnalysis effects(graph, schemas, EffectAnalysis::countReferences(graph), &nested);
  std::vector<Node*> placeholders = graph.placeholders();
  summary.writesInput.assign(placeholders.size(), false);
  for (const Node* node : graph) {
    if (!effects.known(node)) {
      summary.known = false;
      summary.unknownReason = std::string(node->name()) + " in subgraph " +
                              std::string(body.className) + ": " +
                              std::string(effects.effects(node).unknownReason);
      return summary;
    }
  }
  // The body's inputs are the caller's values: none is donated, and a write to one is the
  // call's write to the operand.
  AliasAnalysis alias(graph, effects, std::vector<bool>(placeholders.size(), false));
  std::unordered_map<StorageId, uint32_t> inputOf; // storage -> placeholder
  for (size_t i = 0; i < placeholders.size(); ++i) {
    StorageId storage = alias.storageOf(placeholders[i]);
    if (storage == AliasAnalysis::kNoStorage)
      continue;
    if (!inputOf.emplace(storage, static_cast<uint32_t>(i)).second) {
      summary.known = false; // two inputs in one storage: only an unknown op unites them
      summary.unknownReason = "inputs of subgraph " + std::string(body.className) + " alias";
      return summary;
    }
    for (const AliasAnalysis::Event& event : alias.events(storage))
      if (event.kind == AliasAnalysis::Event::Kind::Write)
        summary.writesInput[i] = true;
  }

  const Node* output = graph.output();
  if (!output || output->args().empty()) {
    summary.known = false;
    summary.unknownReason = "subgraph " + std::string(body.className) + " returns nothing";
    return summary;
  }
  const Arg& returned = output->args()[0];
  summary.tupleOutput = returned.kind == ArgKind::Tuple || returned.kind == ArgKind::List;
  std::span<const Arg> elements =
      summary.tupleOutput ? returned.children() : std::span<const Arg>(&returned, 1);
  // The caller gives each fresh output a storage of its own.
  std::unordered_map<StorageId, uint32_t> outputsIn;
  for (const Arg& element : elements)
    if (element.isNode())
      if (StorageId storage = alias.storageOf(element.node()); storage != AliasAnalysis::kNoStorage)
        ++outputsIn[storage];
  for (const Arg& element : elements) {
    Output out;
    StorageId storage =
        element.isNode() ? alias.storageOf(element.node()) : AliasAnalysis::kNoStorage;
    if (element.isSequence()) {
      out.kind = Output::Kind::Unknown; // a nested structure of values
    } else if (storage == AliasAnalysis::kNoStorage) {
      out.kind = Output::Kind::NotTensor;
    } else if (auto input = inputOf.find(storage); input != inputOf.end()) {
      out.kind = Output::Kind::AliasesInput;
      out.input = input->second;
    } else if (alias.info(storage).attribute || outputsIn[storage] > 1) {
      // Module state, or memory another output shares: the caller's model of a call's
      // results (fresh, a view of an operand, or anything among the operands) has no word for
      // either, so the call is unknown.
      summary.known = false;
      summary.unknownReason =
          std::string(element.node()->name()) + ", returned by subgraph " +
          std::string(body.className) +
          (outputsIn[storage] > 1 ? ", shares memory with another output" : ", is module state");
      return summary;
    } else {
      out.kind = Output::Kind::Fresh;
    }
    summary.outputs.push_back(out);
  }
  return summary;
}

SubgraphSummary joinSummaries(const SubgraphSummary& a, const SubgraphSummary& b) {
  if (!a.known)
    return a;
  if (!b.known)
    return b;
  SubgraphSummary joined;
  if (a.writesInput.size() != b.writesInput.size() || a.tupleOutput != b.tupleOutput ||
      a.outputs.size() != b.outputs.size()) {
    joined.known = false;
    joined.unknownReason = "the two bodies take or return different numbers of values";
    return joined;
  }
  joined.tupleOutput = a.tupleOutput;
  for (size_t i = 0; i < a.writesInput.size(); ++i)
    joined.writesInput.push_back(a.writesInput[i] || b.writesInput[i]);
  for (size_t i = 0; i < a.outputs.size(); ++i) {
    const SubgraphSummary::Output& x = a.outputs[i];
    const SubgraphSummary::Output& y = b.outputs[i];
    bool same = x.kind == y.kind &&
                (x.kind != SubgraphSummary::Output::Kind::AliasesInput || x.input == y.input);
    joined.outputs.push_back(same ? x : SubgraphSummary::Output{});
  }
  return joined;
}

} // namespace declone
