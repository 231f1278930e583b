// Which calls are clones, and which ops change a layout in place: the lists OpModel.h declares.
#include "declone/analysis/OpModel.h"

namespace declone {

bool isCloneTarget(const Target& target) {
  return target.isOp("aten", "clone") && (target.overload.empty() || target.overload == "default");
}

bool isClone(const Node* node) {
  return node->isCall() && isCloneTarget(*node->target());
}

namespace {

// detach_ and rename_ change only autograd and names, so they are not here.
constexpr OpName kInPlaceLayoutOps[] = {
    {"aten", "as_strided_"},       {"aten", "resize_"},        {"aten", "resize_as_"},
    {"aten", "resize_as_sparse_"}, {"aten", "sparse_resize_"}, {"aten", "sparse_resize_and_clear_"},
    {"aten", "_resize_output_"},   {"aten", "set_"},           {"aten", "t_"},
    {"aten", "transpose_"},        {"aten", "swapaxes_"},      {"aten", "swapdims_"},
    {"aten", "squeeze_"},          {"aten", "unsqueeze_"},     {"aten", "_mkldnn_transpose_"},
    {"prims", "resize"},
};

} // namespace

std::span<const OpName> inPlaceLayoutChangers() {
  return kInPlaceLayoutOps;
}

} // namespace declone
