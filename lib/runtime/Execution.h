// Private to the runtime: executing a graph on concrete inputs, with libtorch's types.
#pragma once

#include "declone/ir/Graph.h"
#include "declone/support/Result.h"

#include <ATen/ATen.h>
#include <ATen/core/ivalue.h>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

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

struct InputOptions {
  /// Values for size symbols; the others get small random values (2 to 8).
  std::unordered_map<std::string, int64_t> symbolHints;
  IntRange integers;
  /// Refuse (an error) when estimateMemory exceeds this many bytes; 0: no limit.
  uint64_t memoryLimit = 0;
};

struct Inputs {
  IntRange integers;              ///< for addAttributes
  std::vector<InputValue> values; ///< one per placeholder, in signature order
  /// Module state read by get_attr, by attribute path: the caller sees its final contents.
  std::map<std::string, InputValue, std::less<>> attributes;
  std::unordered_map<std::string, int64_t> symbols;
};

/// Binds every size symbol of the graph's placeholders (hints first, then random values >= 2)
/// and makes random inputs that honour the annotated sizes, strides and storage offsets, and
/// the graph's get_attr tensors (addAttributes).
[[nodiscard]] Result<Inputs> makeInputs(const Graph& graph, uint64_t seed,
                                        const InputOptions& options = {});

/// The bytes a run of `graph` with these symbol values needs, roughly: its inputs three times
/// (the inputs and a copy for each graph compared) and every tensor value it computes (an upper
/// bound: values freed early are counted too).
[[nodiscard]] uint64_t estimateMemory(const Graph& graph,
                                      const std::unordered_map<std::string, int64_t>& symbols);

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

/// Registers stand-in kernels for the supplement's custom ops that this libtorch lacks (once).
void registerStandInKernels();
/// The same for the schemas of `schemaText` (a --schemas file); returns how many it registered.
size_t registerStandInKernels(std::string_view schemaText);
/// Registers CPU kernels for the prims PyTorch defines in Python (iota, the low-memory max pool
/// pair, ...), which Inductor's post-grad graphs call. Idempotent.
void registerPrimsKernels();

/// Runs the graph; returns the values of the output's elements (a tuple or list is flattened
/// one level; a single value gives one element). Inputs are mutated in place as the graph says.
/// `nodeValues` receives each call node's tensor as it was when the node ran (a shallow alias:
/// later in-place metadata ops do not change its layout), or with `snapshot` false the tensor
/// itself, as the graph left it.
[[nodiscard]] Result<std::vector<c10::IValue>>
execute(const Graph& graph, Inputs& inputs, std::vector<c10::IValue>* nodeValues = nullptr,
        bool snapshot = true);
/// As above, for the graph of `module`: calls of its nested subgraphs (invoke_subgraph, wrap)
/// run their bodies.
[[nodiscard]] Result<std::vector<c10::IValue>> execute(const GraphModule& module, Inputs& inputs);

} // namespace declone::runtime::detail
