// An outside source of the layouts no stride rule gives: running the op on fake tensors.
#pragma once

#include "declone/ir/Types.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace declone {

/// Sizes, strides and storage offset of a tensor whose sizes are static.
struct StaticLayout {
  std::vector<int64_t> sizes;
  std::vector<int64_t> strides;
  int64_t storageOffset = 0;
  bool operator==(const StaticLayout&) const = default;
};

/// One call to run: `text` applies an op to the tensors `t0`, `t1`, ... in the dump's own
/// syntax (`torch.ops.aten.tril.default(t0, 1)`), and `tensors` says what they are.
struct OracleCall {
  struct Tensor {
    DType dtype = DType::Float32;
    std::string device; ///< as annotations write it: "cpu" (see LayoutOracle)
    StaticLayout layout;
  };
  std::string text;
  std::vector<Tensor> tensors;
};

/// What a call gives: one result, or for an op that returns a tuple or list, one per element;
/// nullopt for a result that is not a tensor.
struct OracleResult {
  bool sequence = false;
  std::vector<std::optional<StaticLayout>> results;
};

/// Computes the layout of an op's result by running it, as PyTorch itself would while tracing
/// (tools/declone's FakeTensorOracle runs it under FakeTensorMode, whose strides are the ones
/// a dump prints). LayoutAnalysis asks only for calls whose tensor arguments have known static
/// layouts and whose result no rule decides, all on the CPU: for CUDA, FakeTensor's answer
/// depends on the machine it runs on (convolution asks whether cuDNN is there), and a rule's
/// "unknown" for a CUDA kernel must not be overruled by a CPU-only host; nor may a tensor whose
/// annotation prints no device be taken for a CPU one.
class LayoutOracle {
public:
  virtual ~LayoutOracle() = default;
  /// nullopt when the call cannot be run (the op fails under fake tensors, an argument cannot
  /// be rebuilt, or the oracle is unavailable).
  [[nodiscard]] virtual std::optional<OracleResult> run(const OracleCall& call) = 0;
};

} // namespace declone
