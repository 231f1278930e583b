// Builds declone's C++ graph straight from a live torch.fx.Graph, without going through text.
#pragma once

#include "declone/analysis/SizeShrink.h"
#include "declone/ir/Graph.h"
#include "declone/schema/SchemaRegistry.h"
#include "declone/support/OpenTable.h"

#include <cassert>
#include <memory>
#include <optional>
#include <pybind11/pybind11.h>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace declone::python {

namespace py = pybind11;

/// The torch objects the importer recognises, handed over once by declone.fx so that this
/// extension never imports torch itself (and so works with whichever torch the user has).
struct TorchTypes {
  py::object nodeType;    ///< torch.fx.Node
  py::object tensorType;  ///< torch.Tensor (FakeTensor and friends are subclasses)
  py::tuple opTypes;      ///< (OpOverload, OpOverloadPacket)
  py::tuple symTypes;     ///< (SymInt, SymBool, SymFloat) as far as this torch has them
  py::object deviceType;  ///< torch.device
  py::dict dtypes;        ///< torch.dtype -> FX abbreviation ("f32")
  py::dict memoryFormats; ///< torch.memory_format -> declone::MemoryFormat value
  py::dict layouts;       ///< torch.layout -> its dotted name ("torch.strided")
  py::object targetText;  ///< callable: target -> dotted spelling ("torch.ops.aten.add.Tensor")
};

/// A live graph imported into a GraphFile, with what is needed to map results back.
class ImportedGraph {
public:
  explicit ImportedGraph(std::shared_ptr<const SchemaRegistry> schemas)
      : file_(std::make_unique<GraphFile>()), schemas_(std::move(schemas)) {}

  [[nodiscard]] GraphFile& file() { return *file_; }
  [[nodiscard]] GraphModule& module() { return *file_->modules.front(); }
  /// The builtin registry with the schemas of the live ops layered over it.
  [[nodiscard]] const SchemaRegistry& schemas() const { return *schemas_; }
  /// The fx node of a clone or functionalized call, by its name (names are unique within an
  /// FX graph).
  [[nodiscard]] py::handle fxNode(std::string_view name) const;
  /// How many aten.clone nodes (of any overload) the live graph has.
  [[nodiscard]] size_t clones() const { return clones_; }
  /// How many auto_functionalized(_v2) and triton_kernel_wrapper_functional nodes it has.
  [[nodiscard]] size_t functionalizedCalls() const { return functionalizedCalls_; }
  /// The size planner of the graph and its nested bodies, made on first use: it holds the
  /// graph's nodes, so a pass that rewrites the graph must forgetShrinker() first.
  [[nodiscard]] const SizeShrinker& shrinker();
  void forgetShrinker() { shrinker_.reset(); }

private:
  friend class FxImporter;
  std::unique_ptr<GraphFile> file_;
  size_t clones_ = 0;
  size_t functionalizedCalls_ = 0;
  std::shared_ptr<const SchemaRegistry> schemas_;
  std::unique_ptr<SizeShrinker> shrinker_;
  /// Strong references keep the names' owners alive while the map is used.
  std::unordered_map<std::string_view, py::object> fxCalls_;
};

/// Converts torch.fx graphs; caches what it learns of targets and types across graphs.
class FxImporter {
public:
  explicit FxImporter(TorchTypes types);

  /// Which tensor annotations an import reads.
  enum class TensorAnnotations : uint8_t {
    All,
    /// Only those clone elimination consults: of clones and their inputs (and of calls to
    /// Python functions other than getitem, whose results are tensors only if annotated so;
    /// symbolic ints are always read). Reading a FakeTensor's
    /// sizes, strides, offset and device costs more than the whole pass, so the others are
    /// left out. Live tensors carry their storage offset, so no layout is inferred from
    /// another node's; where one lacks it (tensor_meta only), every tensor is annotated.
    ForCloneElimination,
    /// As ForCloneElimination, from meta["val"] alone, as vLLM's pass reads a node (the vllm
    /// modes): a node whose val is not a tensor has no tensor annotation, whatever its
    /// tensor_meta says.
    ForVllmCloneElimination,
    /// As ForVllmCloneElimination, with the graph's inputs and outputs too: vLLM 0.33's output
    /// check reads them.
    ForVllm033CloneElimination,
  };

  /// Imports `graph` (a torch.fx.Graph), every node of it. Node annotations come from
  /// `meta["val"]` (a tensor: dtype, sizes, strides, device, storage offset; a SymInt: its
  /// expression) or, failing that, `meta["tensor_meta"]` (dtype, sizes, strides). An annotation
  /// declone cannot read is left out, which only makes the analyses more conservative. Each
  /// node's line is the line it has in the text `dumps` writes, so remarks point into that text.
  /// Unless `trustOffsets`, the storage offsets meta["val"] shows are not read (they are
  /// inferred as for TensorMetadata).
  [[nodiscard]] std::unique_ptr<ImportedGraph>
  importGraph(py::handle graph, TensorAnnotations annotations, bool trustOffsets = true);

private:
  // Node import (FxImport.cpp).

  /// An fx node as the first look at it sees it: what kind of node, and a call's target.
  struct ScannedNode {
    /// Borrowed: the graph holds its nodes for the whole import, which runs no code that could
    /// change it.
    py::handle fxNode;
    Node::Kind kind = Node::Kind::Call;
    const Target* target = nullptr; ///< for calls
    /// For placeholders: the parameter's name (FX's target) differs from the node's, which
    /// `dumps` binds first thing (`l_x_ = L_x_`, as FX prints Dynamo's graphs).
    bool rebound = false;
  };
  ScannedNode scanNode(ImportedGraph& imported, py::handle fxNode);
  /// Imports a scanned node in full, with `line` as its line.
  Node* importNode(ImportedGraph& imported, const ScannedNode& scanned, uint32_t line,
                   bool deferTensors);
  /// The op's schema (the live one where it differs) returns exactly one tensor.
  [[nodiscard]] bool returnsOneTensor(const Target& target);
  /// Starts an import: a module to build in, and the per-import state reset.
  std::unique_ptr<ImportedGraph> startImport();
  /// Chooses how arguments are read from the first fx node (see storesArguments).
  void chooseArgumentAttributes(py::handle firstFxNode);
  /// The IR node of an fx node of the current import, or nullptr if there is none (yet).
  [[nodiscard]] Node* importedNode(PyObject* fxNode) const;
  /// Annotates the deferred tensors that clone elimination consults (see TensorAnnotations),
  /// and all of them when a consulted one lacks its storage offset or strides (they are
  /// inferred from the others). `graphIo`: the outputs and placeholders too (vLLM 0.33's output
  /// check reads them).
  void annotateForCloneElimination(Graph& graph, bool graphIo);
  /// Whether `fxNode` keeps its arguments in `_args`/`_kwargs`, the very objects its `args` and
  /// `kwargs` properties return.
  [[nodiscard]] bool storesArguments(py::handle fxNode) const;

  // Value conversion (FxValues.cpp).

  struct TargetInfo {
    Target::Kind kind = Target::Kind::Function;
    std::string spelling; ///< "torch.ops.aten.clone.default", "operator.getitem"
  };

  /// The target of a call_function node or an operator passed as a value, interned in the
  /// graph being imported. The first time an operator is seen, its schema joins liveSchemas_
  /// unless the built-in registry has the same one.
  const Target* functionTarget(ImportedGraph& imported, py::handle target);
  Arg convertArg(ImportedGraph& imported, py::handle value, int depth);
  /// `cloneOf`: for a clone whose input's annotation is known (from a live tensor), that
  /// annotation, whose dtype, sizes and device the clone shares; only its strides and offset
  /// are read.
  TypeAnnotation annotation(Context& context, py::handle meta, const TensorType* cloneOf = nullptr);
  /// What a node's meta dict says of its value: `meta["val"]` if it is a tensor, else
  /// `meta["tensor_meta"]` (or a val) with a shape and a dtype, else the val (a SymInt, a list,
  /// ...). annotation() reads what this finds; the partial import defers the tensors.
  struct MetaValue {
    enum class Kind : uint8_t { None, Tensor, TensorMetadata, Other };
    py::handle value;
    Kind kind = Kind::None;
    /// For TensorMetadata read in place of a live tensor that may have changed since (see
    /// sharedValues_): that tensor, whose device the metadata does not state.
    py::handle deviceOf;
    [[nodiscard]] bool holdsTensor() const {
      return kind == Kind::Tensor || kind == Kind::TensorMetadata;
    }
  };
  MetaValue metaValue(py::handle meta);
  /// Appends the Python value of one size, stride or offset (int or SymInt) as a SymExpr;
  /// false if it cannot be read.
  bool appendSymValue(Context& context, py::handle value, std::vector<SymExpr>& out);
  /// appendSymValue for each element of a tuple or other iterable.
  bool appendSymValues(Context& context, py::handle values, std::vector<SymExpr>& out);
  std::string_view saveRepr(Context& context, py::handle value);
  /// str(tensor.device), saved in `context`.
  std::string_view deviceSpelling(Context& context, py::handle tensor);
  /// Records op._schema where it differs from (or is missing in) the built-in registry.
  void learnSchema(py::handle op);
  /// Whether a call of `target` may return one of its arguments' live tensors itself (an
  /// in-place or out= op, or one declone cannot see into).
  [[nodiscard]] bool mayReturnArgument(const Target& target);
  /// Fills sharedValues_ from the scanned nodes' meta["val"] (when mayShareValues_).
  void findSharedValues(const std::vector<ScannedNode>& scanned);

  TorchTypes types_;
  /// The built-in schemas with the live ops' layered over them, shared by every imported graph:
  /// an op's schema is fixed for the life of the process, so each is parsed once.
  std::shared_ptr<SchemaRegistry> liveSchemas_;
  /// Interned attribute names: PyObject_GetAttr with a ready str skips building one per call.
  py::str opName_, nameName_, targetName_, argsName_, kwargsName_, storedArgsName_,
      storedKwargsName_, metaName_, shapeName_, strideName_, dtypeName_, deviceName_,
      fakeDeviceName_, storageOffsetName_, isConjName_, isNegName_, schemaName_, valKey_,
      tensorMetaKey_;
  /// Per target object (kept alive by the reference held here): how it is spelled. Targets are
  /// few and long-lived (op overloads, operator functions), so this stays small.
  std::unordered_map<PyObject*, std::pair<py::object, TargetInfo>> targets_;
  /// The same targets interned in the current graph's Context (each graph has its own).
  std::unordered_map<PyObject*, const Target*> currentTargets_;
  std::unordered_map<PyObject*, DType> dtypes_;
  /// The current import's fx nodes (by identity) and their positions in program order, in an
  /// open-addressing table: std::unordered_map's allocation per entry cost more than the lookup.
  class NodeMap {
  public:
    NodeMap() { clear(); }
    void clear() { table_.reset(512); }
    /// Makes room for `count` entries without growing; on an empty map only.
    void reserve(size_t count) {
      assert(table_.size() == 0);
      if (2 * count > table_.capacity())
        table_.reset(count);
    }
    static constexpr uint32_t kAbsent = UINT32_MAX;
    [[nodiscard]] uint32_t find(PyObject* key) const {
      const Slot* slot = table_.find(key, hash(key));
      return slot ? slot->position : kAbsent;
    }
    void insert(PyObject* key, uint32_t position) {
      table_.insertOrFind(key, hash(key),
                          [&] {
                            return Slot{key, position};
                          })
          .first->position = position;
    }

  private:
    struct Slot {
      PyObject* key; ///< nullptr for an empty slot
      uint32_t position;
    };
    static uint64_t hash(PyObject* key) {
      // Objects are 16-byte aligned: drop the zero bits, then mix (Fibonacci hashing).
      return (reinterpret_cast<uintptr_t>(key) >> 4) * 0x9E3779B97F4A7C15ull >> 16;
    }
    struct Traits {
      using Slot = NodeMap::Slot;
      bool isEmpty(const Slot& slot) const { return slot.key == nullptr; }
      uint64_t hash(const Slot& slot) const { return NodeMap::hash(slot.key); }
      bool matches(const Slot& slot, PyObject* key, uint64_t) const { return slot.key == key; }
    };
    OpenTable<Traits> table_;
  };
  NodeMap nodes_;
  /// The IR node made for each position; nullptr where none was (yet).
  std::vector<Node*> irNodes_;
  /// The target scanNode met last (in the current import), whether it is an aten.clone, and
  /// whether it is a functionalized call (isFunctionalHigherOrder).
  const Target* lastScannedTarget_ = nullptr;
  bool lastScannedIsClone_ = false;
  bool lastScannedIsFunctionalized_ = false;
  /// `args`/`kwargs`, or FX's `_args`/`_kwargs` behind them (see storesArguments).
  const py::str* argsAttribute_ = &argsName_;
  const py::str* kwargsAttribute_ = &kwargsName_;
  /// Nodes of the current import whose tensor annotation was put off, with their fx nodes.
  std::vector<std::pair<Node*, py::handle>> deferred_;
  /// Per target of the current import: its schema returns one tensor (see returnsOneTensor).
  std::unordered_map<const Target*, bool> returnsOneTensor_;
  /// Per target of the current import: mayReturnArgument.
  std::unordered_map<const Target*, bool> returnsArgument_;
  /// Some call of the current import may return an argument's tensor (mayReturnArgument).
  bool mayShareValues_ = false;
  /// The storage offsets of the current import's meta["val"] tensors are those of the values.
  bool trustOffsets_ = true;
  /// TensorAnnotations::ForVllm(033)CloneElimination: meta["val"] only.
  bool valOnly_ = false;
  /// The live tensors that are the meta["val"] of more than one node of the current import.
  /// An in-place or out= op returns its argument's tensor itself, and make_fx before about
  /// torch 2.0 keeps that live FakeTensor in meta["val"] rather than a snapshot: an in-place
  /// metadata op later in the graph (t_, transpose_, resize_, as_strided_, set_...) changes the
  /// sizes, strides and offset it shows for every node that holds it. Their layout is read
  /// from meta["tensor_meta"], which was taken when the node was traced, or not at all.
  std::unordered_set<PyObject*> sharedValues_;
  std::vector<SymExpr> scratch_;
  /// The device last annotated and its spelling.
  py::object lastDevice_;
  std::string lastDeviceSpelling_;
  std::string text_;
};

} // namespace declone::python
