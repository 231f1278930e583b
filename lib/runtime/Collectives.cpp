// Functional collectives (`_c10d_functional`) as one rank runs them: a dump of a distributed
// program calls them with a process group that does not exist in this process.
#include "Execution.h"

namespace declone::runtime::detail {

bool runSingleRankCollective(const c10::OperatorName& op, torch::jit::Stack& stack) {
  const std::string& name = op.name;
  if (!name.starts_with("_c10d_functional::") || stack.empty())
    return false;
  std::string_view collective = std::string_view(name).substr(18);
  // A group of one: a reduction, a broadcast, a gather or a scatter leaves the tensor as it is.
  auto groupOfOne = [&](size_t index) { return stack.size() > index && stack[index].isInt() &&
                                               stack[index].toInt() == 1; };
  bool copies = collective == "all_reduce" || collective == "broadcast" ||
                (collective == "all_gather_into_tensor" && groupOfOne(1)) ||
                (collective == "reduce_scatter_tensor" && groupOfOne(2));
  bool inPlace = collective == "all_reduce_" || collective == "broadcast_";
  if ((!copies && !inPlace) || !stack[0].isTensor())
    return false;
  at::Tensor input = stack[0].toTensor();
  stack.clear();
  stack.emplace_back(copies ? input.clone() : input);
  return true;
}

} // namespace declone::runtime::detail
