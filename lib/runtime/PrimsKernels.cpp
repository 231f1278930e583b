// CPU kernels for the prims that PyTorch defines in Python (torch/_prims, torch/_inductor/
// inductor_prims.py) and Inductor's decompositions leave in post-grad graphs: libtorch has neither
// their schemas nor kernels, so without these such graphs could not be verified. Each computes
// what the Python reference implementation computes, with ATen.
#include "Execution.h"

#include <ATen/ATen.h>
#include <ATen/core/dispatch/Dispatcher.h>
#include <memory>
#include <torch/library.h>

namespace declone::runtime::detail {
namespace {

using Stack = torch::jit::Stack;

/// Pops the op's arguments off the stack, in schema order.
std::vector<c10::IValue> popArguments(const c10::OperatorHandle& op, Stack* stack) {
  size_t count = op.schema().arguments().size();
  std::vector<c10::IValue> values(stack->end() - count, stack->end());
  stack->erase(stack->end() - count, stack->end());
  return values;
}

/// prims.iota(length, *, start, step, dtype, device, requires_grad): torch.arange.
void iota(const c10::OperatorHandle& op, Stack* stack) {
  std::vector<c10::IValue> a = popArguments(op, stack);
  int64_t length = a[0].toInt(), start = a[1].toInt(), step = a[2].toInt();
  at::Tensor result = at::arange(start, start + length * step, step,
                                 at::TensorOptions().dtype(a[3].toScalarType()));
  stack->emplace_back(result);
}

/// prims.convert_element_type(a, dtype): a new tensor of a's layout.
void convertElementType(const c10::OperatorHandle& op, Stack* stack) {
  std::vector<c10::IValue> a = popArguments(op, stack);
  at::Tensor self = a[0].toTensor();
  at::Tensor result = at::empty_like(self, self.options().dtype(a[1].toScalarType()));
  result.copy_(self);
  stack->emplace_back(result);
}

/// prims.empty(shape, *, dtype, device, requires_grad), and empty_strided and empty_permuted
/// (shape, strides or physical_layout, *, dtype, ...): ATen's (the executor fills what they
/// leave uninitialized).
void empty(const c10::OperatorHandle& op, Stack* stack) {
  std::vector<c10::IValue> a = popArguments(op, stack);
  stack->emplace_back(
      at::empty(a[0].toIntVector(), at::TensorOptions().dtype(a[1].toScalarType())));
}

void emptyStrided(const c10::OperatorHandle& op, Stack* stack) {
  std::vector<c10::IValue> a = popArguments(op, stack);
  stack->emplace_back(at::empty_strided(a[0].toIntVector(), a[1].toIntVector(),
                                        at::TensorOptions().dtype(a[2].toScalarType())));
}

void emptyPermuted(const c10::OperatorHandle& op, Stack* stack) {
  std::vector<c10::IValue> a = popArguments(op, stack);
  stack->emplace_back(at::empty_permuted(a[0].toIntVector(), a[1].toIntVector(),
                                         at::TensorOptions().dtype(a[2].toScalarType())));
}

/// prims.fma(a, b, c) = a * b + c.
void fma(const c10::OperatorHandle& op, Stack* stack) {
  std::vector<c10::IValue> a = popArguments(op, stack);
  stack->emplace_back(a[0].toTensor() * a[1].toTensor() + a[2].toTensor());
}

/// Where each output position's window starts in the input, along the `fromEnd`-th last
/// dimension of `output` (broadcastable against it): position * stride - padding.
at::Tensor windowStarts(const at::Tensor& output, size_t fromEnd, int64_t stride, int64_t padding) {
  std::vector<int64_t> shape(output.dim(), 1);
  int64_t axis = output.dim() - static_cast<int64_t>(fromEnd);
  shape[axis] = -1;
  return at::arange(output.size(axis), at::kLong).view(shape) * stride - padding;
}

/// The window offsets of max pooling, as inductor_prims._low_memory_max_pool_with_offsets_aten:
/// for each output element, the position of the maximum within its kernel window.
void maxPoolWithOffsets(const c10::OperatorHandle& op, Stack* stack) {
  std::vector<c10::IValue> a = popArguments(op, stack);
  at::Tensor self = a[0].toTensor();
  std::vector<int64_t> kernel = a[1].toIntVector(), stride = a[2].toIntVector(),
                       padding = a[3].toIntVector(), dilation = a[4].toIntVector();
  bool ceilMode = a[5].toBool();
  size_t dims = kernel.size();
  auto [values, indices] =
      dims == 2 ? at::max_pool2d_with_indices(self, kernel, stride, padding, dilation, ceilMode)
                : at::max_pool3d_with_indices(self, kernel, stride, padding, dilation, ceilMode);
  // The flat input index split into one index per pooled dimension, each made relative to
  // its window's start and divided by the dilation, then flattened over the kernel's extent.
  at::Tensor rest = indices, offsets;
  for (size_t d = 0; d < dims; ++d) {
    int64_t width = 1;
    for (size_t e = d + 1; e < dims; ++e)
      width *= self.size(self.dim() - static_cast<int64_t>(dims - e));
    at::Tensor index = rest.div(width, "floor");
    rest = rest - index * width;
    at::Tensor base = windowStarts(indices, dims - d, stride[d], padding[d]);
    at::Tensor increment = (index - base).div(dilation[d], "floor");
    offsets = d == 0 ? increment : offsets * kernel[d] + increment;
  }
  stack->emplace_back(values);
  stack->emplace_back(offsets.to(at::kChar));
}

/// The inverse: window offsets back to flat input indices, as
/// inductor_prims._low_memory_max_pool_offsets_to_indices_aten.
void maxPoolOffsetsToIndices(const c10::OperatorHandle& op, Stack* stack) {
  std::vector<c10::IValue> a = popArguments(op, stack);
  at::Tensor offsets = a[0].toTensor().to(at::kLong);
  std::vector<int64_t> kernel = a[1].toIntVector(), inputSize = a[2].toIntVector(),
                       stride = a[3].toIntVector(), padding = a[4].toIntVector(),
                       dilation = a[5].toIntVector();
  size_t dims = kernel.size();
  at::Tensor rest = offsets, indices;
  for (size_t d = 0; d < dims; ++d) {
    int64_t width = 1;
    for (size_t e = d + 1; e < dims; ++e)
      width *= kernel[e];
    at::Tensor increment = rest.div(width, "floor");
    rest = rest - increment * width;
    at::Tensor base = windowStarts(offsets, dims - d, stride[d], padding[d]);
    at::Tensor index = base + increment * dilation[d];
    indices = d == 0 ? index : indices * inputSize[d] + index;
  }
  stack->emplace_back(indices);
}

/// Defines prims::NAME from `schema` and gives it `Kernel` on the CPU, unless this libtorch has
/// the op already.
template <void (*Kernel)(const c10::OperatorHandle&, Stack*)>
void define(torch::Library& library, const char* schema) {
  std::string name(schema, std::string_view(schema).find('('));
  if (c10::Dispatcher::singleton().findSchema({"prims::" + name, ""}))
    return;
  try {
    library.def(schema);
    // For every dispatch key (CompositeImplicitAutograd): iota has no tensor to dispatch on.
    library.impl(name.c_str(), torch::CppFunction::makeFromBoxedFunction<Kernel>());
  } catch (const std::exception&) {
    // A schema this libtorch cannot read: the op stays without a kernel.
  }
}

} // namespace

std::unique_ptr<torch::Library> registerPrimsKernels() {
  auto library = std::make_unique<torch::Library>(torch::Library::FRAGMENT, "prims", c10::nullopt,
                                                  __FILE__, __LINE__);
  // The schemas as torch/_prims and inductor_prims.py define them.
  define<&iota>(*library, "iota(SymInt length, *, SymInt start, SymInt step, ScalarType dtype, "
                          "Device device, bool requires_grad) -> Tensor");
  define<&convertElementType>(*library,
                              "convert_element_type(Tensor a, ScalarType dtype) -> Tensor");
  define<&fma>(*library, "fma(Tensor a, Tensor b, Tensor c) -> Tensor");
  define<&empty>(*library, "empty(SymInt[] shape, *, ScalarType dtype, Device device, bool "
                           "requires_grad) -> Tensor");
  define<&emptyStrided>(*library, "empty_strided(SymInt[] shape, SymInt[] strides, *, ScalarType "
                                  "dtype, Device device, bool requires_grad) -> Tensor");
  define<&emptyPermuted>(*library, "empty_permuted(SymInt[] shape, int[] physical_layout, *, "
                                   "ScalarType dtype, Device device, bool requires_grad) -> "
                                   "Tensor");
  define<&maxPoolWithOffsets>(
      *library, "_low_memory_max_pool_with_offsets(Tensor self, SymInt[] kernel_size, SymInt[] "
                "stride, SymInt[] padding, SymInt[] dilation, bool ceil_mode) -> (Tensor, "
                "Tensor)");
  define<&maxPoolOffsetsToIndices>(
      *library, "_low_memory_max_pool_offsets_to_indices(Tensor self, SymInt[] kernel_size, "
                "SymInt[] input_size, SymInt[] stride, SymInt[] padding, SymInt[] dilation) -> "
                "Tensor");
  return library;
}

} // namespace declone::runtime::detail
