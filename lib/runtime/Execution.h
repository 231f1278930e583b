// Private to the runtime: executing a graph on concrete inputs, with libtorch's types.
#pragma once

#include "declone/ir/Graph.h"
#include "declone/support/Result.h"

#include <ATen/ATen.h>
#include <ATen/core/ivalue.h>
#include <string>
#include <unordered_map>
#include <vector>

namespace declone::runtime::detail {

/// A graph input: a symbolic int, or a tensor viewed out of a 1-D base storage.
struct InputValue {
  c10::IValue value;
  at::Tensor base; ///< the storage the tensor was made from (undefined for ints)
};

struct Inputs {
  std::vector<InputValue> values; ///< one per placeholder, in signature order
  std::unordered_map<std::string, int64_t> symbols;
};

/// Binds every size symbol of the graph's placeholders (hints first, then random values >= 2)
/// and makes random inputs that honour the annotated sizes, strides and storage offsets.
[[nodiscard]] Result<Inputs> makeInputs(const Graph& graph, uint64_t seed,
                                        const std::unordered_map<std::string, int64_t>& hints);

/// A deep copy with the same geometry over a new storage.
[[nodiscard]] Inputs copyInputs(const Inputs& inputs);

/// Registers stand-in kernels for the supplement's custom ops that this libtorch lacks (once).
void registerStandInKernels();

/// Runs the graph; returns the values of the output's elements (a tuple or list is flattened
/// one level; a single value gives one element). Inputs are mutated in place as the graph says.
[[nodiscard]] Result<std::vector<c10::IValue>>
execute(const Graph& graph, Inputs& inputs, std::vector<c10::IValue>* nodeValues = nullptr);
/// As above, for the graph of `module`: calls of its nested subgraphs (invoke_subgraph, wrap)
/// run their bodies.
[[nodiscard]] Result<std::vector<c10::IValue>> execute(const GraphModule& module, Inputs& inputs);

} // namespace declone::runtime::detail
