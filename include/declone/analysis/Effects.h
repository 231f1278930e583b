// What each node reads, writes and aliases, from op schemas and the higher-order op rules.
#pragma once

#include "declone/ir/Graph.h"
#include "declone/schema/SchemaRegistry.h"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace declone {

/// How a value (or one output of a multi-output node) relates to the node's tensor inputs.
struct OutputAlias {
  enum class Kind : uint8_t {
    NotTensor, ///< a symbolic int, a scalar, None
    Fresh,     ///< newly allocated: aliases nothing that exists
    Aliases,   ///< a view of, or the same tensor as, `input`
    Unknown,   ///< may alias any tensor input (unknown op or wildcard annotation)
  };
  Kind kind = Kind::NotTensor;
  const Node* input = nullptr; ///< for Aliases
};

/// The effects of one node: a view into EffectAnalysis's storage, valid as long as the
/// analysis is. Returned by value, so that the analysis can keep one small record per node.
struct NodeEffects {
  /// One tensor input of the node; each distinct value once.
  struct Access {
    const Node* value;
    bool write;
  };
  /// False when the op has no usable schema (none, or a wildcard alias annotation): it may read
  /// and write every tensor argument and its results may alias any of them.
  bool known = true;
  /// Why `known` is false, for remarks: "no schema for aten::foo.default".
  std::string_view unknownReason;
  std::span<const Access> accesses;
  /// The node's own value. For multi-output nodes (tuples, tensor lists) this is NotTensor and
  /// `outputs` describes the elements, which `operator.getitem` takes apart.
  OutputAlias result;
  std::span<const OutputAlias> outputs;
  /// `outputs` has one entry that describes every element (a `Tensor[]` return).
  bool listOutput = false;
};

/// Computes NodeEffects for every node of a graph. Read-only after construction.
class EffectAnalysis {
public:
  EffectAnalysis(const Graph& graph, const SchemaRegistry& schemas);

  [[nodiscard]] NodeEffects effects(const Node* node) const;
  /// The schema a call resolved to, or nullptr.
  [[nodiscard]] const OpSchema* schema(const Node* node) const { return schemas_[node->order()]; }
  /// The alias relation of output `index` of a multi-output node.
  [[nodiscard]] OutputAlias output(const Node* node, size_t index) const;
  /// The registry the schemas come from.
  [[nodiscard]] const SchemaRegistry& schemas() const { return registry_; }
  /// Whether the node's value may be (or contain) a tensor.
  [[nodiscard]] bool isTensor(const Node* node) const {
    const Packed& packed = packed_[node->order()];
    return packed.resultKind != OutputAlias::Kind::NotTensor || packed.outputCount != 0;
  }

private:
  /// The effects of the node being analyzed; its buffers are reused from node to node.
  struct Scratch {
    bool known = true;
    std::string unknownReason;
    std::vector<NodeEffects::Access> accesses;
    OutputAlias result;
    std::vector<OutputAlias> outputs;
    bool listOutput = false;
  };
  /// What is kept per node (32 bytes instead of ~112 for a NodeEffects with its own vectors and
  /// string): accesses and outputs are ranges of shared pools, and the rare reasons of unknown
  /// effects live in a side vector.
  struct Packed {
    static constexpr uint32_t kKnown = UINT32_MAX;
    const Node* resultInput = nullptr;
    uint32_t accessBegin = 0;
    uint32_t accessCount = 0;
    uint32_t outputBegin = 0;
    uint32_t outputCount = 0;
    uint32_t reason = kKnown; ///< index into reasons_, or kKnown
    OutputAlias::Kind resultKind = OutputAlias::Kind::NotTensor;
    bool listOutput = false;
  };

  void analyzeCall(const Node* node, Scratch& effects);
  void analyzeOpCall(const Node* node, const OpSchema& schema, Scratch& effects);
  void analyzeGetItem(const Node* node, Scratch& effects);
  void makeUnknown(const Node* node, Scratch& effects, std::string reason);
  void addAccess(Scratch& effects, const Node* value, bool write);
  void store(const Node* node, Scratch& effects);

  /// registry_.lookup() by target: targets are interned, so a graph has a few dozen of them and
  /// a pointer hash replaces two string hashes and a map search per node.
  const OpSchema* lookupSchema(const Target& target);

  const SchemaRegistry& registry_;
  std::unordered_map<const Target*, const OpSchema*> schemaCache_;
  std::vector<Packed> packed_;
  std::vector<NodeEffects::Access> accessPool_;
  std::vector<OutputAlias> outputPool_;
  std::vector<std::string> reasons_;
  std::vector<const OpSchema*> schemas_;
};

} // namespace declone
