// Private to the runtime's executor (Executor.cpp, ExecutorHigherOrder.cpp): the class that
// runs one graph through the dispatcher, and the helpers both halves use.
#pragma once

#include "Execution.h"
#include "declone/analysis/Overloads.h"

#include <ATen/TensorIndexing.h>
#include <ATen/core/dispatch/Dispatcher.h>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace declone::runtime::detail {

/// `ns::name.overload` of an op target, for messages (no overload for the default one).
std::string opName(const Target& target);
/// The dispatcher's operator for an op target; nullopt when this libtorch has none.
std::optional<c10::OperatorHandle> findOperator(const Target& target);
/// Decodes a Python string literal as the reader kept it ('...' or "...").
std::string decodeString(std::string_view quoted);

/// Runs one graph on its inputs, node by node in program order (execute() in Execution.h).
class Executor {
public:
  Executor(const Graph& graph, Inputs& inputs, const MissingKernels* kernels,
           const GraphModule* module = nullptr)
      : graph_(graph), inputs_(inputs), kernels_(kernels), module_(module) {}

  Result<std::vector<c10::IValue>> run(std::vector<c10::IValue>* nodeValues, bool snapshot);

private:
  Status runCall(const Node* node, c10::IValue& result);
  Status runOp(const Node* node, const Target& target, std::span<const Arg> args,
               std::span<const KwArg> kwargs, c10::IValue& result);
  Status runAutoFunctionalized(const Node* node, c10::IValue& result);
  Status runAutoFunctionalizedV2(const Node* node, c10::IValue& result);
  /// Calls op on `stack` and makes the tuple both auto_functionalized ops return: op's results,
  /// then `mutated`.
  Status callFunctionalized(const Node* node, const Target& target, const c10::OperatorHandle& op,
                            torch::jit::Stack& stack, std::vector<c10::IValue> mutated,
                            c10::IValue& result);
  Result<c10::IValue> regenerateView(const std::string& prefix, std::span<const at::Tensor> bases);
  Result<std::vector<int64_t>> intList(const Arg& arg);
  Status runFunction(const Node* node, c10::IValue& result);
  /// A packet call or a Tensor method: the first overload that takes the arguments and runs.
  Status runOverloaded(const Node* node, c10::IValue& result);
  /// The values of the nodes `bound` passes are of the kinds `schema` takes.
  [[nodiscard]] bool valuesFit(const OpSchema& schema, const BoundOverload& bound) const;
  Status runGetItem(const Node* node, c10::IValue& result);
  Result<at::indexing::TensorIndex> tensorIndex(const Node* node, const Arg& index);
  Status runMetadataQuery(const Node* node, const Target& target, c10::IValue& result);
  /// The nested class a get_attr names, or nullptr.
  const GraphModule* subgraph(const Node* getAttr) const;
  /// Runs the nested class that args()[bodyIndex] names on `operands`.
  Status runSubgraph(const Node* node, size_t bodyIndex, std::span<const Arg> operands,
                     c10::IValue& result);
  Status runCond(const Node* node, c10::IValue& result);
  Result<c10::IValue> convert(const Arg& arg, const c10::TypePtr& type);
  Result<int64_t> intValue(const Arg& arg);
  /// Calls the kernel on `stack` (its arguments; its results after).
  Status callKernel(const Node* node, const Target& target, const c10::OperatorHandle& op,
                    torch::jit::Stack& stack);
  Error fail(const Node* node, std::string message) const {
    return Error{"cannot execute " + std::string(node->name()) + ": " + message, node->line(), 0};
  }

  const Graph& graph_;
  Inputs& inputs_;
  const MissingKernels* kernels_; ///< for standInsRun; null: no stand-ins
  const GraphModule* module_;     ///< the graph's module, whose nested classes calls may run
  std::vector<c10::IValue> values_;
  const Node* current_ = nullptr;
};

} // namespace declone::runtime::detail
