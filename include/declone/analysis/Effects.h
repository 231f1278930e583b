// What each node reads, writes and aliases, from op schemas and the higher-order op rules.
#pragma once

#include "declone/ir/Graph.h"
#include "declone/schema/SchemaRegistry.h"

#include <cassert>
#include <cstdint>
#include <deque>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace declone {

class SubgraphTable;

/// auto_functionalized and its kin: higher-order ops that read their tensor arguments and
/// return fresh tensors.
[[nodiscard]] bool isFunctionalHigherOrder(const Target& target);

/// How auto_functionalized / auto_functionalized_v2 lays out the tuple it returns: op's results
/// (one slot when op returns none), then one copy per argument op mutates (v1, in schema order)
/// or per base (v2, the `_all_bases` list, of which op mutates views). The copies are made by
/// clone_preserve_strides, except those `_only_clone_these_tensors` (v1, names) or
/// `_only_clone_these_bases` (v2, indices) leaves out: op writes those arguments themselves,
/// and their elements are the arguments.
struct FunctionalizedOutputs {
  struct Copy {
    const Arg* argument = nullptr; ///< what the element is a copy of (nullptr: not passed)
    bool inPlace = false;          ///< not copied: op writes the argument, the element is it
  };
  size_t results = 1;
  /// Some result of op is not fresh: an in-place op returns the very (copied) argument it
  /// wrote, so that result and a copy share memory, which no element-wise model can say.
  bool resultsMayAliasCopies = false;
  std::vector<Copy> copies;
};

/// The layout of an auto_functionalized(_v2) call's tuple; nullopt for other calls and when
/// op's schema is not known.
[[nodiscard]] std::optional<FunctionalizedOutputs>
functionalizedOutputs(const Node* node, const SchemaRegistry& schemas);

/// What a call's target settles for every call of it, before the call's arguments are bound:
/// the schema lookup, the wildcard check, which arguments are written or only viewed, how each
/// return relates to the arguments, and corrections where kernels do not do what the schema
/// says. The one statement of the effect rules: EffectAnalysis analyzes each call with it.
struct TargetEffects {
  enum class Action : uint8_t {
    FunctionalHigherOrder, ///< reads its tensors, returns fresh copies (a list)
    Unknown,  ///< may read and write every tensor argument; results may alias any (`reason`)
    Schema,   ///< as `schema`, `argumentFlags` and `returns` say
    GetItem,  ///< operator.getitem: an element of its container
    Function, ///< another Python function; unknown (`reason`) on tensor arguments
    /// The target names an op but not which overload (`torch.ops.aten.add_`, the Tensor
    /// method `x.add_(y)`): a call has the union of the effects of the `overloads` that can
    /// take its arguments, as PyTorch picks one of those.
    Overloaded,
  };
  /// How the call's value is shaped, for Action::Schema.
  enum class Shape : uint8_t {
    One,   ///< one value: returns[0]
    List,  ///< a list whose every element is as returns[0] says
    Tuple, ///< a tuple whose element i is as returns[i] says
  };
  /// How return i relates to the arguments.
  struct Return {
    enum class Kind : uint8_t { NotTensor, Fresh, Unknown, AliasesArgument };
    Kind kind = Kind::Unknown;
    uint32_t argument = 0; ///< for AliasesArgument: the schema argument it is a view of
  };
  static constexpr uint8_t kWrite = 1; ///< argument flag: written (declared or not)
  static constexpr uint8_t kView = 2;  ///< argument flag: not written, only lends storage
  /// Argument flag, with kWrite: written only when the bool argument `writeCondition` is true
  /// (the batch-norm family's running statistics, only in training): a call that passes a
  /// literal False, or leaves out a default False, does not write it.
  static constexpr uint8_t kConditionalWrite = 4;
  /// Argument flag, with kWrite: the kernel may change the argument's sizes, strides, storage
  /// offset or storage in place (`self` of t_, as_strided_, resize_, set_ and kin), so that no
  /// annotation of that tensor can be trusted: a dump taken from live tensors shows the final
  /// layout at every node, one taken as the graph was traced shows a stale one.
  static constexpr uint8_t kChangesLayout = 8;
  /// Argument flag, with kWrite: an `out=` argument (written and keyword-only), which the kernel
  /// resizes, and may restride, when its sizes are not the result's.
  static constexpr uint8_t kResizesOut = 16;
  /// Argument flag: only the tensor's metadata is read (sym_size, sym_stride, sym_numel,
  /// sym_storage_offset and kin), not its data, so the call accesses no storage.
  static constexpr uint8_t kReadsMetadataOnly = 32;
  Action action = Action::Unknown;
  std::string reason; ///< why the effects are unknown, for remarks
  const OpSchema* schema = nullptr;
  Shape shape = Shape::One;
  /// Some return aliases an argument: calls must record which node fills each argument.
  bool bindsArguments = false;
  std::vector<uint8_t> argumentFlags; ///< by schema argument
  /// The schema argument that kConditionalWrite arguments depend on (`training`).
  std::optional<uint32_t> writeCondition;
  std::vector<Return> returns;
  /// For Action::Overloaded: the effects of each overload (Action::Schema, or Unknown with the
  /// overload's `schema` set).
  std::vector<TargetEffects> overloads;
};

/// The effects every call of `target` has (see TargetEffects): the schema's, corrected by the
/// override table (EffectOverrides.h) where libtorch's kernels alias or write more than it says.
[[nodiscard]] TargetEffects targetEffects(const Target& target, const SchemaRegistry& schemas);
/// The effects the schema alone declares, without the override table: what the audit
/// (declone-audit-effects) checks against execution.
[[nodiscard]] TargetEffects declaredEffects(const Target& target, const SchemaRegistry& schemas);

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
  /// One tensor input of the node; each distinct value once. One word: a million-node graph
  /// has over a million of them, alive through the whole pass.
  class Access {
  public:
    Access(const Node* value, bool write)
        : bits_(reinterpret_cast<uintptr_t>(value) | uintptr_t(write)) {
      assert(reinterpret_cast<uintptr_t>(value) % 2 == 0 && "nodes are word-aligned");
    }
    [[nodiscard]] const Node* value() const {
      return reinterpret_cast<const Node*>(bits_ & ~uintptr_t(1));
    }
    /// The node may write the value (or a view of it).
    [[nodiscard]] bool write() const { return bits_ & 1; }
    void markWritten() { bits_ |= 1; }

  private:
    uintptr_t bits_; ///< the value's address, with `write` in the low bit
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

/// A call that may change the layout of one of its tensor arguments in place (see
/// TargetEffects::kChangesLayout and kResizesOut).
struct LayoutChange {
  const Node* op;
  const Node* value; ///< the argument whose sizes, strides, offset or storage may change
  /// An `out=` argument: changed only when the kernel resizes it, that is when its sizes are not
  /// those of the result it becomes.
  bool onlyWhenResized;
};

/// Computes NodeEffects for every node of a graph. Read-only after construction.
class EffectAnalysis {
public:
  EffectAnalysis(const Graph& graph, const SchemaRegistry& schemas);
  /// As above, for a caller that has walked the graph already: `references` is the number of
  /// node references in its arguments (calls of Node::forEachInput's fn over every node),
  /// which bounds the accesses. Sparing the analysis a walk of its own matters on large graphs,
  /// where a walk is a pass over some hundred MB of nodes.
  EffectAnalysis(const Graph& graph, const SchemaRegistry& schemas, size_t references);
  /// As above; calls of the nested subgraphs in `subgraphs` (invoke_subgraph, wrap) have the
  /// effects their bodies have, instead of unknown ones. The table must outlive the analysis.
  EffectAnalysis(const Graph& graph, const SchemaRegistry& schemas, size_t references,
                 const SubgraphTable* subgraphs);
  /// The `references` of the constructor above.
  [[nodiscard]] static size_t countReferences(const Graph& graph);
  // Reasons of unknown effects view strings the analysis owns: a copy would view the
  // original's. Moving keeps them (the containers hand over their nodes and blocks).
  EffectAnalysis(const EffectAnalysis&) = delete;
  EffectAnalysis& operator=(const EffectAnalysis&) = delete;
  EffectAnalysis(EffectAnalysis&&) = default;

  [[nodiscard]] NodeEffects effects(const Node* node) const;
  /// effects(node).accesses, without assembling the rest.
  [[nodiscard]] std::span<const NodeEffects::Access> accesses(const Node* node) const {
    return {accessPool_.data() + packed_[node->order()].accessBegin,
            accessPool_.data() + packed_[node->order() + 1].accessBegin};
  }
  /// effects(node).known.
  [[nodiscard]] bool known(const Node* node) const { return packed_[node->order()].known; }
  /// effects(node).result.
  [[nodiscard]] OutputAlias result(const Node* node) const {
    const Packed& packed = packed_[node->order()];
    return {packed.resultKind, packed.resultInput};
  }
  /// !effects(node).outputs.empty(): the node is a tuple or list that getitem takes apart.
  [[nodiscard]] bool hasOutputs(const Node* node) const {
    return packed_[node->order()].multiOutput;
  }
  /// The schema a call resolved to, or nullptr.
  [[nodiscard]] const OpSchema* schema(const Node* node) const;
  /// The alias relation of output `index` of a multi-output node.
  [[nodiscard]] OutputAlias output(const Node* node, size_t index) const;
  /// The output `getitem(node, index)` takes apart, by Python's rules: a negative index counts
  /// from the end of a tuple. A tuple index before the start gives one past the end (which
  /// output() relates as unknown, as any index past the end); nullopt for a negative index
  /// into a list, whose length is not known here.
  [[nodiscard]] std::optional<size_t> elementIndex(const Node* node, int64_t index) const;
  /// The registry the schemas come from.
  [[nodiscard]] const SchemaRegistry& schemas() const { return registry_; }
  /// Every call that may change a tensor argument's layout in place, in program order.
  [[nodiscard]] std::span<const LayoutChange> layoutChanges() const { return layoutChanges_; }
  /// Whether the node's value may be (or contain) a tensor.
  [[nodiscard]] bool isTensor(const Node* node) const {
    const Packed& packed = packed_[node->order()];
    return packed.resultKind != OutputAlias::Kind::NotTensor || packed.multiOutput;
  }

private:
  class Builder; // the walk that fills the tables below, with its scratch
  friend class Builder;

  /// What is kept per node, in 16 bytes. Accesses are a range of a shared pool that ends where
  /// the next order's begins (there is one more entry than orders, and gaps in the orders get
  /// empty ranges); the rarer outputs (multi-output nodes only) and reasons of unknown effects
  /// live in side tables sorted by order; the schema is the target's plan's.
  struct Packed {
    const Node* resultInput = nullptr;
    uint32_t accessBegin = 0;
    OutputAlias::Kind resultKind = OutputAlias::Kind::NotTensor;
    bool listOutput = false;
    bool known = true;
    bool multiOutput = false; ///< outputRanges_ has an entry for the node
  };
  /// The outputs of one multi-output node: a range of outputPool_.
  struct OutputRange {
    uint32_t order;
    uint32_t begin;
    uint32_t count;
  };
  [[nodiscard]] const OutputRange* outputRange(const Node* node) const;

  const SchemaRegistry& registry_;
  const SubgraphTable* subgraphs_ = nullptr;
  /// Node-based, so plans (and the reasons views point into) stay put as targets are added.
  std::unordered_map<const Target*, TargetEffects> plans_;
  std::vector<Packed> packed_;
  std::vector<NodeEffects::Access> accessPool_;
  std::vector<OutputAlias> outputPool_;
  std::vector<OutputRange> outputRanges_; ///< by increasing order
  /// Reasons of unknown effects by increasing order; they view plans_ or ownedReasons_.
  std::vector<std::pair<uint32_t, std::string_view>> reasons_;
  std::deque<std::string> ownedReasons_; ///< node-specific reasons; a deque keeps them in place
  std::vector<LayoutChange> layoutChanges_;
};

} // namespace declone
