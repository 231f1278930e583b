// Private to the runtime: executing a graph on concrete inputs, with libtorch's types.
#pragma once

#include "declone/analysis/SizeShrink.h"
#include "declone/ir/Graph.h"
#include "declone/runtime/Executor.h"
#include "declone/support/Result.h"

#include <ATen/ATen.h>
#include <ATen/core/function_schema.h>
#include <ATen/core/ivalue.h>
#include <ATen/core/stack.h>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace torch {
class Library;
} // namespace torch

namespace declone::runtime::detail {

/// A graph input: a symbolic int, or a tensor viewed out of a 1-D base storage.
struct InputValue {
  c10::IValue value;
  at::Tensor base; ///< the storage the tensor was made from (undefined for ints)
};

/// Integer tensor inputs are drawn from [low, high), within the extent they index.
struct IntRange {
  int64_t low = 0;
  int64_t high = 16;
};

/// What a run puts in the memory kernels leave uninitialized (what empty allocates, what resize_
/// adds): all zero bytes, or in each element the value one of its dtype (1+1j for complex numbers,
/// true for bool). Never left as it comes: runs of two graphs must see the same contents, and
/// verify runs a graph with both fills to tell which values come from such memory.
enum class UninitializedFill : uint8_t { Zeros, Ones };

struct InputOptions {
  /// Values for size symbols; the others get small random values (2 to 8).
  std::unordered_map<std::string, int64_t> symbolHints;
  IntRange integers;
  /// Refuse (an error) when estimateMemory exceeds this many bytes; 0: no limit.
  uint64_t memoryLimit = 0;
  /// How many runs keep a copy of the inputs at once: 2 or 4 (two graphs, once or twice each).
  unsigned runs = 2;
};

struct Inputs {
  IntRange integers;              ///< for addAttributes
  std::vector<InputValue> values; ///< one per placeholder, in signature order
  /// Module state read by get_attr, by attribute path: the caller sees its final contents.
  std::map<std::string, InputValue, std::less<>> attributes;
  std::unordered_map<std::string, int64_t> symbols;
  /// The contents of the memory kernels leave uninitialized: an input of the run like the others.
  UninitializedFill uninitialized = UninitializedFill::Zeros;
  /// Filled by the run, not an input: the ops it called that ran a stand-in kernel
  /// (MissingKernels) rather than their own, by name (`_C::rms_norm`). Their results
  /// follow the schema, not the op's mathematics, which a verdict must say. copyInputs leaves it
  /// empty: each run records its own.
  std::set<std::string> standInsRun;
  /// Set by the run, not an input: a kernel threw (the op refused its arguments), as opposed to
  /// the graph not being runnable here (no kernel, an argument libtorch cannot take).
  bool kernelRaised = false;
};

/// Binds every size symbol of the graph's placeholders (hints first, then random values >= 2)
/// and makes random inputs that honour the annotated sizes, strides and storage offsets, and
/// the graph's get_attr tensors (addAttributes).
[[nodiscard]] Result<Inputs> makeInputs(const Graph& graph, uint64_t seed,
                                        const InputOptions& options = {});

/// The bytes a run of `graph` with these symbol values needs, roughly: its inputs 1 + `runs` times
/// (the inputs and a copy for each run) and every tensor value it computes `runs / 2` times (an
/// upper bound: values freed early are counted too).
[[nodiscard]] uint64_t estimateMemory(const Graph& graph,
                                      const std::unordered_map<std::string, int64_t>& symbols,
                                      unsigned runs = 2);

/// Makes a random tensor for every get_attr of `graph` whose attribute is not in `inputs` yet,
/// from its annotation. The values depend only on the seed and the attribute's path, so that
/// the same attribute holds the same tensor in two graphs compared with each other.
[[nodiscard]] Status addAttributes(const Graph& graph, uint64_t seed, Inputs& inputs);

/// A deep copy with the same geometry over a new storage.
[[nodiscard]] Inputs copyInputs(const Inputs& inputs);

/// libtorch's scalar type for a dtype; Undefined for those it has none for.
[[nodiscard]] at::ScalarType scalarType(DType dtype);

/// Python's `a OP b` (or `OP a`) on ints, floats and bools, as FX graphs compute sizes:
/// operator.add, operator.floordiv, torch.sym_max, math.ceil, ... nullopt for anything else
/// (an unknown function, a division by zero).
[[nodiscard]] std::optional<c10::IValue> pythonArithmetic(std::string_view name,
                                                          const std::vector<c10::IValue>& operands);

/// Whether `op`'s CPU kernel is a stand-in `kernels` registered; false without kernels.
[[nodiscard]] bool isStandIn(const MissingKernels* kernels, const c10::OperatorName& op);
/// CPU kernels for the prims PyTorch defines in Python (iota, the low-memory max pool pair, ...),
/// which Inductor's post-grad graphs call, registered while the library lives.
[[nodiscard]] std::unique_ptr<torch::Library> registerPrimsKernels();

/// Runs a `_c10d_functional` collective (all_reduce, broadcast, and all_gather_into_tensor and
/// reduce_scatter_tensor over a group of one) as the only rank of its group does: the result is
/// the input. False, the stack untouched, for any other op.
[[nodiscard]] bool runSingleRankCollective(const c10::OperatorName& op, torch::jit::Stack& stack);

/// What a call leaves uninitialized, measured before its kernel runs (see Uninitialized.cpp).
struct PendingFill {
  enum class Part : uint8_t {
    Storage,   ///< the whole storage of each tensor result: a fresh allocation
    Elements,  ///< the result's elements, and the bytes the call added to its storage
    Grown,     ///< the bytes the call added to the storage of the argument it resizes
    GrownCopy, ///< the bytes of the result's new storage past the first argument's elements
  };
  Part part = Part::Storage;
  const void* storage = nullptr; ///< Elements, Grown: the written argument's storage
  size_t initializedBytes = 0;   ///< the bytes of `storage` (GrownCopy: of the copy) before
};

/// What a call of `schema` with `arguments` (the stack before the call) will leave
/// uninitialized; nullopt for an op that leaves nothing so.
[[nodiscard]] std::optional<PendingFill> uninitializedBy(const c10::FunctionSchema& schema,
                                                         const torch::jit::Stack& arguments);
/// Fills what the call left uninitialized in its `results` (the stack after the call).
void fillUninitialized(const PendingFill& pending, const torch::jit::Stack& results,
                       UninitializedFill fill);
/// The calls in `graph`, and in the nested graphs of `module`, of ops that leave memory
/// uninitialized, in order: when there are none, every run's values depend on its inputs alone.
[[nodiscard]] std::vector<const Node*> uninitializedAllocations(const Graph& graph,
                                                                const GraphModule* module);
/// The allocations (of uninitializedAllocations) whose memory a value may hold: at most three,
/// and whether there are more.
struct UninitializedSources {
  std::vector<const Node*> nodes;
  bool more = false;
};
/// For every node of `graph`, by Node::order(), the `allocations` its storage (or, for a tuple,
/// its elements' storages) may hold values of at the end of the graph: an allocation puts its
/// own in its storage, and a node that reads storages puts theirs in the storages it writes and
/// returns. An over-approximation (a full overwrite keeps them) that misses flows through nested
/// graphs: for naming sources, which execution finds.
[[nodiscard]] std::vector<UninitializedSources>
uninitializedSources(const Graph& graph, std::span<const Node* const> allocations);
/// Which elements of a value are equal in a run with the zero fill (`zeros`) and one with the
/// ones fill (`ones`): a bool tensor of the sizes of `zeros`. Signed zeros differ, NaNs are equal
/// whatever their payload; all false when the two differ in dtype or sizes.
[[nodiscard]] at::Tensor sameInBothFills(const at::Tensor& zeros, const at::Tensor& ones);

/// Runs the graph; returns the values of the output's elements (a tuple or list is flattened
/// one level; a single value gives one element). Inputs are mutated in place as the graph says;
/// memory the kernels leave uninitialized gets `inputs.uninitialized`.
/// `nodeValues` receives each call node's tensor as it was when the node ran (a shallow alias:
/// later in-place metadata ops do not change its layout), or with `snapshot` false the tensor
/// itself, as the graph left it.
/// `kernels` (or nullptr) is the program's MissingKernels: the ops that ran its stand-ins are
/// recorded in `inputs.standInsRun`.
[[nodiscard]] Result<std::vector<c10::IValue>>
execute(const Graph& graph, Inputs& inputs, const MissingKernels* kernels,
        std::vector<c10::IValue>* nodeValues = nullptr, bool snapshot = true);
/// As above, for the graph of `module`: calls of its nested subgraphs (invoke_subgraph, wrap)
/// run their bodies.
[[nodiscard]] Result<std::vector<c10::IValue>>
execute(const GraphModule& module, Inputs& inputs, const MissingKernels* kernels,
        std::vector<c10::IValue>* nodeValues = nullptr);

/// A copy of `graph` (of `module` with its nested classes, when given), read back from its
/// printed text, its nodes keeping the original's line numbers.
[[nodiscard]] Result<std::unique_ptr<GraphFile>> copyGraph(const Graph& graph,
                                                           const GraphModule* module);

struct ShrinkRequest {
  ShrinkBudget budget;
  uint64_t seed = 1;
  IntRange integers;
  std::unordered_map<std::string, int64_t> symbolHints;
  const MissingKernels* kernels = nullptr;
  /// As InputOptions::memoryLimit, for the runs that check a plan.
  uint64_t memoryLimit = 0;
};

/// Two graphs to run instead of the ones given, at smaller sizes.
struct ShrunkGraphs {
  /// Null when the graphs run as printed (they fit the budget, or nothing could shrink).
  std::unique_ptr<GraphFile> before, after;
  std::vector<SizeChange> changes;
  RunCost fullCost, cost; ///< estimated, as printed and as run
  /// Why nothing shrank although the graphs do not fit, when that is so.
  std::string note;
};

/// Plans smaller sizes for `before` (SizeShrinker) and checks the plan by running `before` at
/// them: each value must have its annotation's sizes at the new sizes, and its strides and
/// offset the same kind of layout. A size a mismatch (or a failing op) involves keeps its
/// value, and the plan is made again; the same changes then apply to `after`.
[[nodiscard]] Result<ShrunkGraphs> shrinkGraphs(const Graph& before, const GraphModule* beforeModule,
                                                const Graph& after, const GraphModule* afterModule,
                                                const ShrinkRequest& request);

} // namespace declone::runtime::detail
