// Stride inference: the layouts PyTorch's kernels give their results, for dumps that print none.
#include "StrideInference.h"

#include "LayoutIndexing.h"
#include "ViewRules.h"

#include <algorithm>
#include <numeric>
#include <optional>
#include <string_view>

namespace declone::detail {
namespace {

using Strides = std::vector<SymExpr>;
using Constants = std::vector<int64_t>;

bool contains(std::span<const std::string_view> names, std::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

/// Pointwise ops: their result's layout follows their tensor arguments' (see pointwiseStrides).
constexpr std::string_view kPointwise[] = {
    // binary and comparison
    "add", "sub", "mul", "div", "true_divide", "rsub", "maximum", "minimum", "pow", "atan2", "fmod",
    "remainder", "floor_divide", "eq", "ne", "lt", "le", "gt", "ge", "logical_and", "logical_or",
    "logical_xor", "bitwise_and", "bitwise_or", "bitwise_xor", "where", "lerp", "addcmul",
    "addcdiv", "hypot", "copysign", "xlogy", "nextafter", "heaviside",
    // unary
    "neg", "abs", "exp", "exp2", "expm1", "log", "log1p", "log2", "log10", "sqrt", "rsqrt",
    "reciprocal", "sigmoid", "tanh", "relu", "gelu", "silu", "mish", "sin", "cos", "tan", "asin",
    "acos", "atan", "sinh", "cosh", "asinh", "acosh", "atanh", "erf", "erfc", "erfinv", "sign",
    "sgn", "floor", "ceil", "round", "trunc", "frac", "logical_not", "bitwise_not", "clamp",
    "clamp_min", "clamp_max", "hardtanh", "hardsigmoid", "hardswish", "leaky_relu", "elu",
    "softplus", "square", "isnan", "isinf", "nan_to_num", "logit", "sigmoid_backward",
    "tanh_backward", "threshold_backward", "gelu_backward", "silu_backward", "hardtanh_backward",
    "leaky_relu_backward", "hardsigmoid_backward", "hardswish_backward", "mish_backward",
    "elu_backward", "softplus_backward", "logit_backward"};

/// Pointwise ops whose non-contiguous layouts FakeTensor computes as eager TensorIterator does,
/// checked by execution (tools/audit-layouts/audit_pointwise.py, and an adversary's random
/// layouts): for the others (comparisons, where, xlogy, heaviside, floor division, the
/// decomposed activation backwards, ...) only all-contiguous operands are decided.
constexpr std::string_view kOrderedPointwise[] = {"add",           "sub",
                                                  "mul",           "div",
                                                  "true_divide",   "neg",
                                                  "exp",           "log",
                                                  "sqrt",          "rsqrt",
                                                  "reciprocal",    "sigmoid",
                                                  "tanh",          "relu",
                                                  "gelu",          "silu",
                                                  "sin",           "cos",
                                                  "pow",           "maximum",
                                                  "minimum",       "sigmoid_backward",
                                                  "tanh_backward", "threshold_backward",
                                                  "gelu_backward", "silu_backward"};

/// Ops whose results are allocated contiguous whatever their inputs' layouts (reductions, the
/// matmul family, softmax, embedding, gather and index_select): a tuple's elements too.
constexpr std::string_view kContiguousResults[] = {"sum",
                                                   "mean",
                                                   "amax",
                                                   "amin",
                                                   "max",
                                                   "min",
                                                   "prod",
                                                   "var",
                                                   "std",
                                                   "var_mean",
                                                   "std_mean",
                                                   "any",
                                                   "all",
                                                   "argmax",
                                                   "argmin",
                                                   "logsumexp",
                                                   "mm",
                                                   "addmm",
                                                   "bmm",
                                                   "baddbmm",
                                                   "mv",
                                                   "addmv",
                                                   "dot",
                                                   "_softmax",
                                                   "_log_softmax",
                                                   "_softmax_backward_data",
                                                   "_log_softmax_backward_data",
                                                   "embedding",
                                                   "index_select",
                                                   "gather",
                                                   "native_layer_norm"};

/// Batch norm and its gradient: element 0 in the input's suggested memory format.
constexpr std::string_view kBatchNorms[] = {
    "native_batch_norm", "_native_batch_norm_legit", "_native_batch_norm_legit_functional",
    "_native_batch_norm_legit_no_training", "native_batch_norm_backward"};

/// Pooling ops whose result takes the input's suggested memory format.
constexpr std::string_view kPooling[] = {"avg_pool2d", "_adaptive_avg_pool2d",
                                         "avg_pool2d_backward", "_adaptive_avg_pool2d_backward",
                                         "max_pool2d_with_indices_backward"};

/// Not max.other or min.other, which are pointwise (maximum, minimum).
bool isReduction(const Target& target) {
  if (target.opName != "max" && target.opName != "min")
    return true;
  return target.overload.empty() || target.overload == "default" || target.overload == "dim" ||
         target.overload == "names_dim";
}

/// Factories: contiguous unless a memory_format says otherwise.
constexpr std::string_view kFactories[] = {
    "empty",   "zeros",     "ones",      "full",     "arange",   "scalar_tensor", "rand", "randn",
    "randint", "new_empty", "new_zeros", "new_ones", "new_full", "linspace",      "eye"};

/// Allocate like their first argument: memory_format, preserve by default.
constexpr std::string_view kLikes[] = {"empty_like",   "zeros_like", "ones_like",
                                       "full_like",    "rand_like",  "randn_like",
                                       "randint_like", "_to_copy",   "lift_fresh_copy"};

/// a * b, or false when it overflows (adversarial sizes must not be undefined behaviour).
bool multiply(int64_t a, int64_t b, int64_t& out) {
  return !__builtin_mul_overflow(a, b, &out);
}

std::optional<Constants> constants(std::span<const SymExpr> values) {
  Constants out;
  out.reserve(values.size());
  for (const SymExpr& value : values) {
    std::optional<int64_t> constant = value.constantValue();
    if (!constant)
      return std::nullopt;
    out.push_back(*constant);
  }
  return out;
}

bool sameList(std::span<const SymExpr> a, std::span<const SymExpr> b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end());
}

} // namespace

std::optional<MemoryFormat> memoryFormatArgument(const Node& node, MemoryFormat fallback) {
  const Arg* arg = node.kwarg("memory_format");
  if (!arg || arg->kind == ArgKind::None)
    return fallback;
  if (arg->kind != ArgKind::MemoryFormat)
    return std::nullopt;
  return arg->memoryFormat();
}

/// PyTorch's is_contiguous for memory format `order` (innermost dimension first): sizes of 1
/// say nothing; nullopt when symbolic strides leave it open.
std::optional<bool> denseInOrder(SymContext& sym, std::span<const SymExpr> sizes,
                                 std::span<const SymExpr> strides, std::span<const size_t> order) {
  if (order.size() != sizes.size() || strides.size() != sizes.size())
    return false; // a memory format of another rank
  if (sameList(strides, stridesInOrder(sym, sizes, order)))
    return true;
  std::optional<Constants> size = constants(sizes), stride = constants(strides);
  if (!size || !stride)
    return std::nullopt;
  // Only row-major contiguity holds for any tensor without elements (is_contiguous);
  // channels-last contiguity has no such rule.
  bool rowMajor = std::is_sorted(order.begin(), order.end(), std::greater<>());
  if (rowMajor && std::find(size->begin(), size->end(), 0) != size->end())
    return true;
  int64_t expected = 1;
  for (size_t d : order) {
    if ((*size)[d] == 1)
      continue;
    if ((*stride)[d] != expected || !multiply(expected, (*size)[d], expected))
      return false;
  }
  return true;
}

namespace {

std::vector<size_t> rowMajorOrder(size_t rank) {
  std::vector<size_t> order(rank);
  std::iota(order.rbegin(), order.rend(), 0);
  return order;
}

constexpr size_t kChannelsLast2d[] = {1, 3, 2, 0};
constexpr size_t kChannelsLast3d[] = {1, 4, 3, 2, 0};

/// PyTorch's is_channels_last_strides_2d/3d (what suggest_memory_format asks); nullopt when a
/// comparison depends on the values of symbolic sizes.
std::optional<bool> channelsLastLike(SymContext& sym, std::span<const SymExpr> sizes,
                                     std::span<const SymExpr> strides) {
  if (sizes.size() != 4 && sizes.size() != 5)
    return false;
  const SymExpr zero = SymExpr::constant(0);
  std::optional<int> stride1 = compareSizes(sym, strides[1], zero);
  if (!stride1 || *stride1 == 0)
    return stride1 ? std::optional<bool>(false) : std::nullopt;
  std::span<const size_t> order =
      sizes.size() == 4 ? std::span<const size_t>(kChannelsLast2d) : kChannelsLast3d;
  SymExpr min = zero;
  for (size_t d : order) {
    std::optional<int> size = compareSizes(sym, sizes[d], zero);
    std::optional<int> stride = compareSizes(sym, strides[d], min);
    std::optional<int> againstChannels =
        d == 0 ? compareSizes(sym, min, strides[1]) : std::optional<int>(1);
    if (!size || !stride || !againstChannels)
      return std::nullopt;
    if (*size == 0 || *stride < 0 || *againstChannels == 0)
      return false;
    min = sym.mul(strides[d], sizes[d]);
  }
  return true;
}

/// suggest_memory_format: ChannelsLast(3d) for channels-last-like strides, else Contiguous.
std::optional<MemoryFormat> suggestedFormat(SymContext& sym, const Layout& layout) {
  if (!layout.strides)
    return std::nullopt;
  std::optional<bool> channelsLast = channelsLastLike(sym, layout.sizes, *layout.strides);
  if (!channelsLast)
    return std::nullopt;
  if (!*channelsLast)
    return MemoryFormat::Contiguous;
  return layout.sizes.size() == 4 ? MemoryFormat::ChannelsLast : MemoryFormat::ChannelsLast3d;
}

/// One TensorIterator input: its sizes and strides.
struct Operand {
  std::span<const SymExpr> sizes;
  std::span<const SymExpr> strides;
};

/// The output strides of a pointwise op over `operands` where every way PyTorch computes them
/// agrees. Eager TensorIterator takes the fast setup (operands of one shape, all contiguous,
/// all channels-last or all dense alike) or else orders dimensions by the operands' strides,
/// the first operand that tells deciding; FakeTensor, which a dump prints, runs a meta kernel
/// or a decomposition (xlogy, the activation backwards, batch norm) with rules of its own, and
/// with symbolic sizes compute_elementwise_output_strides, which compares strides as guards
/// do: by the sizes the trace saw. They agree, and the answer is given, only
/// - when every operand has exactly contiguous strides, broadcast or not: contiguous; or
/// - when every output dimension has a size of at least 2 (a backed symbol is), no operand has
///   two dimensions of equal stride, and every pair of dimensions is ordered alike by every
///   operand that spans both, for every value of the symbols: dense strides in that order.
/// Otherwise (operands that disagree on the order, size-1 dimensions with strides of their own,
/// strides whose order depends on the sizes) the strides are unknown. `firstOperandDecides`:
/// the op is one whose FakeTensor kernel is TensorIterator's too (add, sub, mul, true
/// division), so operands that disagree are settled as TensorIterator settles them: the first
/// one that orders a pair of dimensions decides.
std::optional<Strides> pointwiseStrides(SymContext& sym, std::span<const SymExpr> outSizes,
                                        std::span<const Operand> operands,
                                        bool firstOperandDecides) {
  if (operands.empty())
    return std::nullopt;
  if (std::all_of(operands.begin(), operands.end(), [&](const Operand& operand) {
        return exactlyContiguous(sym, operand.sizes, operand.strides);
      }))
    return contiguousStrides(sym, outSizes);
  if (!std::all_of(outSizes.begin(), outSizes.end(),
                   [&](SymExpr size) { return atLeast(sym, size, 2); }))
    return std::nullopt;
  const size_t rank = outSizes.size();
  // Each operand's strides over the output's dimensions, 0 where it is broadcast.
  std::vector<Strides> expanded;
  for (const Operand& operand : operands) {
    if (operand.sizes.size() > rank)
      return std::nullopt;
    Strides strides(rank, SymExpr::constant(0));
    size_t offset = rank - operand.sizes.size();
    for (size_t i = 0; i < operand.sizes.size(); ++i) {
      if (operand.sizes[i] == SymExpr::constant(1))
        continue;
      if (operand.sizes[i] != outSizes[offset + i])
        return std::nullopt;
      // A symbolic stride that may be 0 would make the dimension look broadcast, or not.
      if (operand.strides[i] != SymExpr::constant(0) && !atLeast(sym, operand.strides[i], 1))
        return std::nullopt;
      strides[offset + i] = operand.strides[i];
    }
    expanded.push_back(std::move(strides));
  }
  for (size_t a = 0; a < rank; ++a) {
    for (size_t b = a + 1; b < rank; ++b) {
      int order = 0; // the sign of stride[a] - stride[b], over the operands that span both
      for (const Strides& strides : expanded) {
        if (strides[a] == SymExpr::constant(0) || strides[b] == SymExpr::constant(0))
          continue;
        std::optional<int> sign = compareSizes(sym, strides[a], strides[b]);
        if (!sign || *sign == 0)
          return std::nullopt;
        if (order != 0 && *sign != order && !firstOperandDecides)
          return std::nullopt;
        order = *sign;
      }
    }
  }
  std::optional<std::vector<size_t>> perm = stridesOrder(sym, outSizes, expanded);
  if (!perm)
    return std::nullopt;
  return stridesInOrder(sym, outSizes, *perm);
}

/// The tensor arguments of a call (the nodes it takes that are not symbolic ints), with their
/// layouts; nullopt when one has no strides. Lists are not looked into: no pointwise op takes one.
std::optional<std::vector<const Layout*>> tensorArguments(const Node& node,
                                                          ArgumentLayouts& layouts) {
  std::vector<const Layout*> out;
  auto visit = [&](const Arg& arg) -> bool {
    if (!arg.isNode() || arg.node()->type().kind == TypeAnnotation::Kind::Sym)
      return true;
    const Layout* layout = layouts.layoutOf(arg.node());
    if (!layout || !layout->strides)
      return false;
    out.push_back(layout);
    return true;
  };
  for (const Arg& arg : node.args())
    if (!visit(arg))
      return std::nullopt;
  for (const KwArg& kwarg : node.kwargs())
    if (!visit(kwarg.value))
      return std::nullopt;
  return out;
}

std::optional<Strides> inferPointwise(SymContext& sym, const Node& node,
                                      std::span<const SymExpr> sizes, ArgumentLayouts& layouts) {
  std::optional<std::vector<const Layout*>> inputs = tensorArguments(node, layouts);
  if (!inputs)
    return std::nullopt;
  std::vector<Operand> operands;
  for (const Layout* input : *inputs)
    operands.push_back({input->sizes, *input->strides});
  std::string_view name = node.target()->opName;
  bool trueDivision = name != "div" || (!node.kwarg("rounding_mode") && node.args().size() <= 2);
  if (!contains(kOrderedPointwise, name) || !trueDivision) {
    // All-contiguous operands only.
    for (const Operand& operand : operands)
      if (!exactlyContiguous(sym, operand.sizes, operand.strides))
        return std::nullopt;
    return contiguousStrides(sym, sizes);
  }
  bool tensorIterator =
      name == "add" || name == "sub" || name == "mul" || name == "div" || name == "true_divide";
  return pointwiseStrides(sym, sizes, operands, tensorIterator);
}

} // namespace

/// The layout of argument `index` (positional) when it is a tensor with known strides.
const Layout* knownInput(const Node& node, size_t index, ArgumentLayouts& layouts) {
  if (index >= node.args().size() || !node.args()[index].isNode())
    return nullptr;
  const Layout* layout = layouts.layoutOf(node.args()[index].node());
  return layout && layout->strides ? layout : nullptr;
}

namespace {

/// prims.convert_element_type, the dtype cast of decompositions (_convert_element_type_meta):
/// dense strides are kept, anything else is laid out as a pointwise op lays out its operand.
std::optional<Strides> inferDtypeCast(SymContext& sym, const Node& node,
                                      std::span<const SymExpr> sizes, ArgumentLayouts& layouts) {
  const Layout* input = knownInput(node, 0, layouts);
  if (!input || !sameList(input->sizes, sizes))
    return std::nullopt;
  std::optional<bool> dense =
      LayoutAnalysis::isNonOverlappingAndDense(sym, input->sizes, *input->strides);
  if (!dense)
    return std::nullopt;
  if (*dense)
    return Strides(input->strides->begin(), input->strides->end());
  const Operand operand{input->sizes, *input->strides};
  return pointwiseStrides(sym, sizes, std::span(&operand, 1), false);
}

/// The strides of a fresh tensor in the memory format `like` suggests (a kernel's
/// `empty_like(x, x.suggest_memory_format())`), or nullopt.
std::optional<Strides> suggestedStrides(SymContext& sym, std::span<const SymExpr> sizes,
                                        const Layout* like) {
  std::optional<MemoryFormat> format = like ? suggestedFormat(sym, *like) : std::nullopt;
  return format ? formatStrides(sym, sizes, *format) : std::nullopt;
}

/// Convolution's result (and its gradients') layout: contiguous on every backend when neither
/// input nor weight suggests channels-last. When one does, the CPU kernels (mkldnn's and
/// slow_conv2d's *_use_channels_last) give channels-last; CUDA's depthwise kernels need not.
std::optional<Strides> convolutionStrides(SymContext& sym, std::span<const SymExpr> sizes,
                                          const Layout* input, const Layout* weight) {
  if (!input || !weight)
    return std::nullopt;
  std::optional<MemoryFormat> inputFormat = suggestedFormat(sym, *input);
  std::optional<MemoryFormat> weightFormat = suggestedFormat(sym, *weight);
  if (!inputFormat.has_value() || !weightFormat.has_value())
    return std::nullopt;
  const MemoryFormat in = inputFormat.value(), wt = weightFormat.value();
  if (in == MemoryFormat::Contiguous && wt == MemoryFormat::Contiguous)
    return contiguousStrides(sym, sizes);
  if (input->device != "cpu" || sizes.size() != 4 ||
      (in != MemoryFormat::ChannelsLast && wt != MemoryFormat::ChannelsLast))
    return std::nullopt;
  return formatStrides(sym, sizes, MemoryFormat::ChannelsLast);
}

std::optional<Strides> inferAllocation(SymContext& sym, const Node& node,
                                       std::span<const SymExpr> sizes, ArgumentLayouts& layouts) {
  std::string_view name = node.target()->opName;
  if (contains(kContiguousResults, name) && isReduction(*node.target()))
    return contiguousStrides(sym, sizes);
  if (contains(kFactories, name)) {
    std::optional<MemoryFormat> format = memoryFormatArgument(node, MemoryFormat::Contiguous);
    if (!format || *format == MemoryFormat::Preserve)
      return std::nullopt;
    return formatStrides(sym, sizes, *format);
  }
  if (contains(kLikes, name)) {
    const Layout* input = knownInput(node, 0, layouts);
    std::optional<MemoryFormat> format = memoryFormatArgument(node, MemoryFormat::Preserve);
    if (!format)
      return std::nullopt;
    if (*format != MemoryFormat::Preserve)
      return formatStrides(sym, sizes, *format);
    if (!input || !sameList(input->sizes, sizes))
      return std::nullopt;
    // A size-1 dimension's own stride is kept by eager's empty_like and made dense by
    // FakeTensor's: unknown unless the strides are exactly contiguous.
    bool sizeOne = !std::all_of(sizes.begin(), sizes.end(),
                                [&](SymExpr size) { return atLeast(sym, size, 2); });
    if (sizeOne && !exactlyContiguous(sym, sizes, *input->strides))
      return std::nullopt;
    return LayoutAnalysis::cloneStrides(sym, *input, MemoryFormat::Preserve);
  }
  if (name == "stack" && sizes.size() != 4 && sizes.size() != 5)
    return contiguousStrides(sym, sizes); // cat of the unsqueezed inputs
  if (name == "cat") {
    // cat_compute_output_memory_format: contiguous unless every input suggests one
    // channels-last format; below four dimensions nothing suggests one.
    if (sizes.size() != 4 && sizes.size() != 5)
      return contiguousStrides(sym, sizes);
    const Arg* tensors = argument(node, 0, "tensors");
    if (!tensors || tensors->kind != ArgKind::List)
      return std::nullopt;
    for (const Arg& element : tensors->children()) {
      const Layout* input = element.isNode() ? layouts.layoutOf(element.node()) : nullptr;
      std::optional<MemoryFormat> format = input ? suggestedFormat(sym, *input) : std::nullopt;
      if (format == MemoryFormat::Contiguous)
        return contiguousStrides(sym, sizes);
    }
    return std::nullopt;
  }
  if (name == "convolution" || name == "_convolution")
    return convolutionStrides(sym, sizes, knownInput(node, 0, layouts),
                              knownInput(node, 1, layouts));
  // Pooling: the input's suggested format (a backward's input is its second argument).
  if (contains(kPooling, name))
    return suggestedStrides(sym, sizes, knownInput(node, name.ends_with("backward"), layouts));
  return std::nullopt;
}

/// max(size, 1), as PyTorch's contiguous strides take it: just `size` where its declared range
/// (SymContext::lowerBound) makes it at least 1, so that `s0` is not written `Max(1, s0)`.
SymExpr atLeastOne(SymContext& sym, SymExpr size) {
  if (atLeast(sym, size, 1))
    return size;
  return sym.max(size, SymExpr::constant(1));
}

} // namespace

std::optional<std::vector<size_t>> formatOrder(MemoryFormat format, size_t rank) {
  switch (format) {
  case MemoryFormat::Contiguous:
    return rowMajorOrder(rank);
  case MemoryFormat::ChannelsLast:
    if (rank != 4)
      return std::nullopt;
    return std::vector<size_t>(std::begin(kChannelsLast2d), std::end(kChannelsLast2d));
  case MemoryFormat::ChannelsLast3d:
    if (rank != 5)
      return std::nullopt;
    return std::vector<size_t>(std::begin(kChannelsLast3d), std::end(kChannelsLast3d));
  case MemoryFormat::Preserve:
    return std::nullopt;
  }
  return std::nullopt;
}

std::optional<std::vector<SymExpr>> formatStrides(SymContext& sym, std::span<const SymExpr> sizes,
                                                  MemoryFormat format) {
  std::optional<std::vector<size_t>> order = formatOrder(format, sizes.size());
  if (!order)
    return std::nullopt;
  return stridesInOrder(sym, sizes, *order);
}

std::optional<int> compareSizes(SymContext& sym, SymExpr a, SymExpr b) {
  if (a == b)
    return 0;
  if (atLeast(sym, sym.sub(a, b), 1))
    return 1;
  if (atLeast(sym, sym.sub(b, a), 1))
    return -1;
  return std::nullopt;
}

std::optional<std::vector<size_t>> stridesOrder(SymContext& sym, std::span<const SymExpr> shape,
                                                std::span<const std::vector<SymExpr>> strides) {
  const size_t rank = shape.size();
  std::vector<size_t> perm(rank); // perm[0] is the innermost dimension
  std::iota(perm.rbegin(), perm.rend(), 0);
  const SymExpr zero = SymExpr::constant(0);
  auto shouldSwap = [&](size_t dim0, size_t dim1) -> std::optional<int> {
    for (const std::vector<SymExpr>& stride : strides) {
      SymExpr stride0 = stride[dim0], stride1 = stride[dim1];
      if (stride0 == zero || stride1 == zero)
        continue;
      std::optional<int> byStride = compareSizes(sym, stride0, stride1);
      if (!byStride)
        return std::nullopt;
      if (*byStride != 0)
        return *byStride;
      std::optional<int> bySize = compareSizes(sym, shape[dim0], shape[dim1]);
      if (!bySize)
        return std::nullopt;
      if (*bySize > 0)
        return 1;
    }
    return 0;
  };
  for (size_t i = 1; i < rank; ++i) {
    size_t dim1 = i;
    for (size_t j = 1; j <= i; ++j) {
      size_t dim0 = i - j;
      std::optional<int> comparison = shouldSwap(perm[dim0], perm[dim1]);
      if (!comparison)
        return std::nullopt;
      if (*comparison > 0) {
        std::swap(perm[dim0], perm[dim1]);
        dim1 = dim0;
      } else if (*comparison < 0) {
        break;
      }
    }
  }
  return perm;
}

bool atLeast(const SymContext& sym, SymExpr value, int64_t bound) {
  std::optional<int64_t> lower = sym.lowerBound(value);
  return lower && *lower >= bound;
}

bool exactlyContiguous(SymContext& sym, std::span<const SymExpr> sizes,
                       std::span<const SymExpr> strides) {
  return sameList(strides, contiguousStrides(sym, sizes));
}

std::vector<SymExpr> contiguousStrides(SymContext& sym, std::span<const SymExpr> sizes) {
  std::vector<SymExpr> strides(sizes.size());
  SymExpr running = SymExpr::constant(1);
  for (size_t i = sizes.size(); i-- > 0;) {
    strides[i] = running;
    running = sym.mul(running, atLeastOne(sym, sizes[i]));
  }
  return strides;
}

std::vector<SymExpr> stridesInOrder(SymContext& sym, std::span<const SymExpr> sizes,
                                    std::span<const size_t> order) {
  std::vector<SymExpr> strides(sizes.size());
  SymExpr running = SymExpr::constant(1);
  for (size_t dim : order) {
    strides[dim] = running;
    running = sym.mul(running, atLeastOne(sym, sizes[dim]));
  }
  return strides;
}

ViewStrides viewStrides(SymContext& sym, std::span<const SymExpr> sizes,
                        std::span<const SymExpr> strides, std::span<const SymExpr> newSizes) {
  const SymExpr one = SymExpr::constant(1), zero = SymExpr::constant(0);
  const ViewStrides undecided, copies{std::nullopt, true};
  // computeStride's comparisons, where every value of the symbols gives the same answer.
  auto equal = [&](SymExpr a, SymExpr b) -> std::optional<bool> {
    std::optional<int> sign = compareSizes(sym, a, b);
    return sign ? std::optional<bool>(*sign == 0) : std::nullopt;
  };
  if (strides.size() != sizes.size())
    return undecided;
  const size_t newRank = newSizes.size();
  if (sizes.empty())
    return {Strides(newRank, one)};
  SymExpr numel = one;
  for (SymExpr size : sizes) {
    if (!atLeast(sym, size, 0))
      return undecided;
    numel = sym.mul(numel, size);
  }
  // FakeTensor, whose strides a dump prints, views by _reshape_view_helper (split_dim,
  // flatten, squeeze), not computeStride. Both give the strides a view must have for
  // dimensions of 2 elements or more, but not for size-1 dimensions or tensors without
  // elements: those are decided only for exactly contiguous inputs, whose views are
  // contiguous in both. The same shape is FakeTensor's view_of: the input's strides.
  const bool contiguous = exactlyContiguous(sym, sizes, strides);
  std::optional<bool> empty = equal(numel, zero);
  if (!empty || (*empty && !contiguous))
    return undecided;
  if (*empty)
    return {contiguousStrides(sym, newSizes)};
  if (sameList(sizes, newSizes))
    return {Strides(strides.begin(), strides.end())};
  if (!contiguous && !std::all_of(newSizes.begin(), newSizes.end(),
                                  [&](SymExpr size) { return atLeast(sym, size, 2); }))
    return undecided;
  Strides newStrides(newRank);
  int64_t viewD = static_cast<int64_t>(newRank) - 1;
  SymExpr chunkBaseStride = strides.back(), tensorNumel = one, viewNumel = one;
  for (int64_t tensorD = static_cast<int64_t>(sizes.size()) - 1; tensorD >= 0; --tensorD) {
    tensorNumel = sym.mul(tensorNumel, sizes[tensorD]);
    // A chunk of dimensions that are contiguous with each other ends here?
    bool chunkEnds = tensorD == 0;
    if (!chunkEnds) {
      std::optional<bool> previousIsOne = equal(sizes[tensorD - 1], one);
      std::optional<bool> sameChunk =
          previousIsOne && !*previousIsOne
              ? equal(strides[tensorD - 1], sym.mul(tensorNumel, chunkBaseStride))
              : std::optional<bool>(true);
      if (!previousIsOne || !sameChunk)
        return undecided;
      chunkEnds = !*sameChunk;
    }
    if (!chunkEnds)
      continue;
    while (viewD >= 0) {
      std::optional<int> below = compareSizes(sym, viewNumel, tensorNumel);
      if (!below)
        return undecided;
      if (*below >= 0) {
        std::optional<bool> sizeOne = equal(newSizes[viewD], one);
        if (!sizeOne)
          return undecided;
        if (!*sizeOne)
          break;
      }
      newStrides[viewD] = sym.mul(viewNumel, chunkBaseStride);
      viewNumel = sym.mul(viewNumel, newSizes[viewD]);
      --viewD;
    }
    std::optional<bool> matched = equal(viewNumel, tensorNumel);
    if (!matched)
      return undecided;
    if (!*matched)
      return copies;
    if (tensorD > 0) {
      chunkBaseStride = strides[tensorD - 1];
      tensorNumel = one;
      viewNumel = one;
    }
  }
  if (viewD != -1)
    return copies;
  return {std::move(newStrides)};
}

std::optional<std::vector<SymExpr>> inferStrides(SymContext& sym, const Node& node,
                                                 std::span<const SymExpr> sizes,
                                                 ArgumentLayouts& arguments) {
  if (!node.isCall())
    return std::nullopt;
  const Target& target = *node.target();
  if (target.kind == Target::Kind::Op && target.opNamespace == "prims" &&
      target.opName == "convert_element_type")
    return inferDtypeCast(sym, node, sizes, arguments);
  if (target.kind != Target::Kind::Op || target.opNamespace != "aten")
    return std::nullopt;
  if (contains(kPointwise, target.opName))
    return inferPointwise(sym, node, sizes, arguments);
  if (const ViewRule* rule = viewRule(target); rule && rule->strides)
    if (std::optional<Strides> view = rule->strides({sym, node, sizes, arguments}))
      return view;
  return inferAllocation(sym, node, sizes, arguments);
}

std::optional<std::vector<SymExpr>> inferElementStrides(SymContext& sym, const Node& producer,
                                                        int64_t index,
                                                        std::span<const SymExpr> sizes,
                                                        ArgumentLayouts& arguments) {
  if (!producer.isCall() || index < 0)
    return std::nullopt;
  const Target& target = *producer.target();
  if (target.kind != Target::Kind::Op || target.opNamespace != "aten")
    return std::nullopt;
  std::string_view name = target.opName;
  if (contains(kContiguousResults, name) && isReduction(target))
    return contiguousStrides(sym, sizes);
  // Batch norm's output (and gradient) takes its input's suggested format; the statistics are
  // one-dimensional.
  if (contains(kBatchNorms, name)) {
    if (index != 0)
      return contiguousStrides(sym, sizes);
    // FakeTensor runs a decomposition that keeps the input's dimension order; eager allocates in
    // its suggested memory format. They agree when the tensors are exactly in that format.
    const Layout* input = knownInput(producer, name.ends_with("backward"), arguments);
    std::optional<Strides> strides = suggestedStrides(sym, sizes, input);
    for (size_t i = 0; strides && i < (name.ends_with("backward") ? 2u : 1u); ++i) {
      const Layout* tensor = knownInput(producer, i, arguments);
      if (!tensor || !sameList(*tensor->strides, *strides))
        return std::nullopt;
    }
    return strides;
  } // native_dropout: eager multiplies the input by a contiguous mask, FakeTensor by one shaped
  // like the input; both are contiguous only for a contiguous input.
  if (name == "native_dropout") {
    const Layout* input = knownInput(producer, 0, arguments);
    if (!input || !exactlyContiguous(sym, input->sizes, *input->strides))
      return std::nullopt;
    return contiguousStrides(sym, sizes);
  }
  if (name == "max_pool2d_with_indices" || name == "max_pool3d_with_indices")
    return suggestedStrides(sym, sizes, knownInput(producer, 0, arguments));
  // CPU flash attention (torch 2.13): its output is allocated like the query (empty_like), its
  // logsumexp as (batch, query, heads) returned with heads and query swapped.
  if (name == "_scaled_dot_product_flash_attention_for_cpu") {
    const Layout* query = knownInput(producer, 0, arguments);
    if (index == 0 && query && sameList(query->sizes, sizes) &&
        std::all_of(sizes.begin(), sizes.end(),
                    [&](SymExpr size) { return atLeast(sym, size, 2); }))
      return LayoutAnalysis::cloneStrides(sym, *query, MemoryFormat::Preserve);
    const size_t order3[] = {1, 2, 0};
    if (index == 1 && sizes.size() == 3)
      return stridesInOrder(sym, sizes, order3);
    return std::nullopt;
  }
  if (name == "convolution_backward") {
    if (index == 2)
      return contiguousStrides(sym, sizes);
    return convolutionStrides(sym, sizes, knownInput(producer, 1, arguments),
                              knownInput(producer, 2, arguments));
  }
  const Layout* input = knownInput(producer, 0, arguments);
  if (!input)
    return std::nullopt;
  std::span<const SymExpr> in = *input->strides;
  if (name == "split" || name == "split_with_sizes" || name == "unsafe_split" ||
      name == "unsafe_split_with_sizes" || name == "chunk")
    return sizes.size() == in.size() ? std::optional<Strides>(Strides(in.begin(), in.end()))
                                     : std::nullopt;
  if (name == "unbind") {
    std::optional<size_t> d = dimension(intArgument(producer, 1, "dim", 0), in.size());
    if (!d)
      return std::nullopt;
    Strides out(in.begin(), in.end());
    out.erase(out.begin() + static_cast<std::ptrdiff_t>(*d));
    return out;
  }
  return std::nullopt;
}

} // namespace declone::detail
