// What a call of a nested subgraph (invoke_subgraph, wrap, cond) does to its operands, from the
// body.
#pragma once

#include "declone/analysis/Effects.h"

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace declone {

/// The effects of one call of a subgraph on its operands, which are the body's placeholders in
/// order: which it writes, and how each value it returns relates to them.
struct SubgraphSummary {
  struct Output {
    enum class Kind : uint8_t { NotTensor, Fresh, AliasesInput, Unknown };
    Kind kind = Kind::Unknown;
    uint32_t input = 0; ///< for AliasesInput: the placeholder it is, or is a view of
  };
  /// False when the body has a node without an effect model: the call may do anything.
  bool known = true;
  std::string unknownReason;
  std::vector<bool> writesInput; ///< by placeholder
  bool tupleOutput = true;       ///< the body returns a tuple or list, which getitem takes apart
  std::vector<Output> outputs;   ///< by element (one when !tupleOutput)
};

/// The summaries of a module's nested subgraph classes, by the name a get_attr of the caller
/// gives them (`repeated_subgraph0 = self.repeated_subgraph0`). Built before any pass changes
/// the bodies; clone elimination keeps them true as it rewrites a body, since it never adds a
/// write to a body's input nor makes one of its outputs alias an input or another output.
class SubgraphTable {
public:
  SubgraphTable(const GraphModule& module, const SchemaRegistry& schemas);

  /// nullptr when the module has no nested class of that name.
  [[nodiscard]] const SubgraphSummary* find(std::string_view attribute) const;

private:
  std::unordered_map<std::string_view, SubgraphSummary> summaries_;
};

/// What a call of one of two bodies on the same operands may do (cond): the writes of either,
/// and an output related alike by both, or unknown.
[[nodiscard]] SubgraphSummary joinSummaries(const SubgraphSummary& a, const SubgraphSummary& b);

/// The summary of one body (with the summaries of its own nested classes).
[[nodiscard]] SubgraphSummary summarizeSubgraph(const GraphModule& body,
                                                const SchemaRegistry& schemas);

} // namespace declone
