// Graph inputs for execution: random tensors that honour the annotated sizes, strides, storage
// offsets and dtypes of placeholders and get_attr constants, and the symbols they use.
#include "Execution.h"
#include "declone/schema/SchemaRegistry.h"
#include "declone/support/Bytes.h"

#include <ATen/CPUGeneratorImpl.h>
#include <algorithm>
#include <random>
#include <unordered_set>

namespace declone::runtime::detail {

at::ScalarType scalarType(DType dtype) {
  switch (dtype) {
  case DType::Bool:
    return at::kBool;
  case DType::UInt8:
    return at::kByte;
  case DType::Int8:
    return at::kChar;
  case DType::Int16:
    return at::kShort;
  case DType::Int32:
    return at::kInt;
  case DType::Int64:
    return at::kLong;
  case DType::Float16:
    return at::kHalf;
  case DType::BFloat16:
    return at::kBFloat16;
  case DType::Float32:
    return at::kFloat;
  case DType::Float64:
    return at::kDouble;
  case DType::Complex32:
    return at::kComplexHalf;
  case DType::Complex64:
    return at::kComplexFloat;
  case DType::Complex128:
    return at::kComplexDouble;
  default:
    return at::ScalarType::Undefined;
  }
}

namespace {

/// FNV-1a: a hash of an attribute path that is the same in every process and build.
uint64_t stableHash(std::string_view text) {
  uint64_t hash = 0xcbf29ce484222325ull;
  for (char c : text)
    hash = (hash ^ static_cast<unsigned char>(c)) * 0x100000001b3ull;
  return hash;
}

/// For the integer tensor inputs whose values end up as indices (embedding's indices into the
/// weight's rows; the index of gather, index_select, scatter* and index_add/copy/fill into self's
/// dimension `dim`; index.Tensor's and index_put's i-th index into self's dimension i), the
/// extent they index, or the smallest of several. Values flow through any op on the way (token type
/// ids expanded, gathered, then embedded), so an index bounds every integer input it derives
/// from: out-of-range values would make the graph fail, not test it.
std::unordered_map<const Node*, int64_t>
indexBounds(const Graph& graph, SymContext& sym,
            const std::unordered_map<std::string, int64_t>& symbols) {
  std::unordered_map<const Node*, int64_t> bounds;
  auto extent = [&](const Arg& tensor, int64_t dim) -> std::optional<int64_t> {
    if (tensor.kind != ArgKind::Node)
      return std::nullopt;
    const TypeAnnotation& type = tensor.node()->type();
    if (type.kind != TypeAnnotation::Kind::Tensor)
      return std::nullopt;
    int64_t rank = static_cast<int64_t>(type.tensor->sizes.size());
    if (dim < 0)
      dim += rank;
    if (dim < 0 || dim >= rank)
      return std::nullopt;
    return sym.evaluate(type.tensor->sizes[static_cast<size_t>(dim)], symbols);
  };
  auto bound = [&](const Arg& index, int64_t limit) {
    if (index.kind != ArgKind::Node || limit <= 0)
      return;
    std::vector<const Node*> stack{index.node()};
    std::unordered_set<const Node*> seen{index.node()};
    while (!stack.empty()) {
      const Node* node = stack.back();
      stack.pop_back();
      if (node->isPlaceholder() || node->kind() == Node::Kind::GetAttr) {
        auto [entry, fresh] = bounds.emplace(node, limit);
        if (!fresh)
          entry->second = std::min(entry->second, limit);
        continue;
      }
      node->forEachInput([&](Node* input) {
        if (seen.insert(input).second)
          stack.push_back(input);
      });
    }
  };
  for (const Node* node : graph) {
    if (!node->isCall() || node->target()->kind != Target::Kind::Op ||
        node->target()->opNamespace != "aten")
      continue;
    std::span<const Arg> args = node->args();
    std::string_view op = node->target()->opName;
    auto boundBy = [&](const Arg& index, const Arg& tensor, int64_t dim) {
      if (std::optional<int64_t> limit = extent(tensor, dim))
        bound(index, *limit);
    };
    if (op == "embedding" && args.size() >= 2) {
      boundBy(args[1], args[0], 0);
    } else if (op == "embedding_dense_backward" && args.size() >= 3 &&
               args[2].kind == ArgKind::Int) {
      bound(args[1], args[2].integer); // (grad, indices, num_weights, ...)
    } else if ((op == "gather" || op == "index_select" || op == "scatter" || op == "scatter_" ||
                op == "scatter_add" || op == "scatter_add_" || op == "scatter_reduce" ||
                op == "scatter_reduce_" || op == "index_add" || op == "index_add_" ||
                op == "index_copy" || op == "index_copy_" || op == "index_fill" ||
                op == "index_fill_") &&
               args.size() >= 3 && args[1].kind == ArgKind::Int) {
      boundBy(args[2], args[0], args[1].integer); // (self, dim, index, ...)
    } else if ((op == "index" || op == "_unsafe_index" || op == "index_put" || op == "index_put_" ||
                op == "_index_put_impl_" || op == "_unsafe_index_put") &&
               args.size() >= 2 && args[1].kind == ArgKind::List) {
      // (self, indices, ...): the i-th index tensor indexes dimension i (None skips one).
      std::span<const Arg> indices = args[1].children();
      for (size_t dim = 0; dim < indices.size(); ++dim)
        boundBy(indices[dim], args[0], static_cast<int64_t>(dim));
    }
  }
  return bounds;
}

/// The range an integer input `node` is drawn from: `range`, within the extent it indexes.
IntRange integerRange(const std::unordered_map<const Node*, int64_t>& bounds, const Node* node,
                      IntRange range) {
  auto bound = bounds.find(node);
  if (bound == bounds.end())
    return range;
  IntRange within{std::max<int64_t>(range.low, 0), std::min(range.high, bound->second)};
  return within.low < within.high ? within : IntRange{0, bound->second};
}

/// A tensor annotation evaluated with the bound symbols.
struct Geometry {
  at::ScalarType dtype = at::ScalarType::Undefined;
  std::vector<int64_t> sizes, strides;
  int64_t offset = 0;
  int64_t extent = 0; ///< elements of the storage it needs, the offset included
};

Result<Geometry> evaluateGeometry(SymContext& sym, const Node* node,
                                  const std::unordered_map<std::string, int64_t>& symbols) {
  auto evaluate = [&](SymExpr expr) -> Result<int64_t> {
    std::optional<int64_t> value = sym.evaluate(expr, symbols);
    if (!value)
      return Error{"cannot evaluate " + sym.print(expr) + " in the annotation of " +
                       std::string(node->name()),
                   node->line(), 0};
    return *value;
  };
  const TensorType& tensor = *node->type().tensor;
  Geometry geometry;
  geometry.dtype = scalarType(tensor.dtype);
  if (geometry.dtype == at::ScalarType::Undefined)
    return Error{"dtype " + std::string(abbreviation(tensor.dtype)) + " of " +
                     std::string(node->name()) + " cannot be made here",
                 node->line(), 0};
  for (SymExpr size : tensor.sizes) {
    Result<int64_t> value = evaluate(size);
    if (!value.ok())
      return value.error();
    geometry.sizes.push_back(*value);
  }
  if (tensor.strides) {
    for (SymExpr stride : *tensor.strides) {
      Result<int64_t> value = evaluate(stride);
      if (!value.ok())
        return value.error();
      geometry.strides.push_back(*value);
    }
  } else {
    c10::DimVector contiguous = c10::contiguous_strides(geometry.sizes);
    geometry.strides.assign(contiguous.begin(), contiguous.end());
  }
  if (tensor.storageOffset) {
    Result<int64_t> value = evaluate(*tensor.storageOffset);
    if (!value.ok())
      return value.error();
    geometry.offset = *value;
  }
  geometry.extent = geometry.offset + 1;
  bool empty = false, overflow = false;
  for (size_t i = 0; i < geometry.sizes.size(); ++i) {
    empty = empty || geometry.sizes[i] == 0;
    int64_t span = 0;
    overflow = overflow ||
               __builtin_mul_overflow(geometry.sizes[i] - 1, geometry.strides[i], &span) ||
               __builtin_add_overflow(geometry.extent, span, &geometry.extent);
  }
  if (empty)
    geometry.extent = geometry.offset;
  else if (overflow)
    return Error{"the sizes of " + std::string(node->name()) + " overflow 64 bits", node->line(),
                 0};
  return geometry;
}

/// A random tensor with the annotated dtype, sizes, strides and storage offset, viewed out of
/// a 1-D base that holds exactly its extent. Integers lie in `integers`.
Result<InputValue> makeTensor(SymContext& sym, const Node* node,
                              const std::unordered_map<std::string, int64_t>& symbols,
                              at::Generator& generator, IntRange integers) {
  Result<Geometry> evaluated = evaluateGeometry(sym, node, symbols);
  if (!evaluated.ok())
    return evaluated.error();
  const Geometry& geometry = *evaluated;
  at::ScalarType dtype = geometry.dtype;
  int64_t extent = geometry.extent;
  if (at::isIntegralType(dtype, /*includeBool=*/false)) {
    // The range within what the dtype holds (--int-range -5:5 for a u8 input: [0, 5)).
    int64_t lowest = INT64_MIN, highest = INT64_MAX;
    if (dtype == at::kByte)
      lowest = 0, highest = UINT8_MAX;
    else if (dtype == at::kChar)
      lowest = INT8_MIN, highest = INT8_MAX;
    else if (dtype == at::kShort)
      lowest = INT16_MIN, highest = INT16_MAX;
    else if (dtype == at::kInt)
      lowest = INT32_MIN, highest = INT32_MAX;
    integers.low = std::max(integers.low, lowest);
    if (highest != INT64_MAX)
      integers.high = std::min(integers.high, highest + 1);
    if (integers.low >= integers.high)
      return Error{"the integer range holds no value of " + std::string(node->name()) + "'s dtype",
                   node->line(), 0};
  }
  at::TensorOptions options = at::TensorOptions().dtype(dtype);
  at::Tensor base;
  if (at::isComplexType(dtype))
    // Both parts random: a conjugation that is lost must change the values.
    base = at::view_as_complex(at::randn({extent, 2}, generator, options.dtype(at::kDouble)))
               .to(dtype);
  else if (at::isFloatingType(dtype))
    base = at::randn({extent}, generator, options.dtype(at::kDouble)).to(dtype);
  else if (dtype == at::kBool)
    base = at::randint(0, 2, {extent}, generator, options);
  else
    base = at::randint(integers.low, integers.high, {extent}, generator, options);
  InputValue input;
  input.base = base;
  input.value = base.as_strided(geometry.sizes, geometry.strides, geometry.offset);
  return input;
}

/// addAttributes, with the graph's index bounds already known.
Status addBoundedAttributes(const Graph& graph, uint64_t seed, Inputs& inputs,
                            const std::unordered_map<const Node*, int64_t>& bounds) {
  SymContext& sym = graph.context().sym();
  for (const Node* node : graph) {
    if (node->kind() != Node::Kind::GetAttr || inputs.attributes.count(node->attribute()))
      continue;
    // The body of a higher-order op (invoke_subgraph, wrap) is a nested class, not a value.
    std::vector<Node*> users = node->users();
    if (node->type().kind != TypeAnnotation::Kind::Tensor && !users.empty() &&
        std::all_of(users.begin(), users.end(), [](const Node* user) {
          return user->isCall() && user->target()->isHigherOrder();
        }))
      continue;
    // A constant AOTAutograd lifts (`lift_fresh_copy(_tensor_constant0)`) prints no annotation;
    // its copy's says what it is.
    const Node* annotated = node;
    if (node->type().kind != TypeAnnotation::Kind::Tensor && users.size() == 1 &&
        users[0]->isCall() && users[0]->target()->kind == Target::Kind::Op &&
        users[0]->target()->opNamespace == "aten" &&
        (users[0]->target()->opName == "lift_fresh_copy" ||
         users[0]->target()->opName == "lift_fresh") &&
        users[0]->type().kind == TypeAnnotation::Kind::Tensor)
      annotated = users[0];
    if (annotated->type().kind != TypeAnnotation::Kind::Tensor)
      return Error{"get_attr " + std::string(node->name()) + " (self." +
                       std::string(node->attribute()) +
                       ") needs a tensor annotation to make its value",
                   node->line(), 0};
    at::Generator generator = at::detail::createCPUGenerator(seed * 0x9E3779B97F4A7C15ull ^
                                                             stableHash(node->attribute()));
    Result<InputValue> value = makeTensor(sym, annotated, inputs.symbols, generator,
                                          integerRange(bounds, node, inputs.integers));
    if (!value.ok())
      return value.error();
    inputs.attributes.emplace(std::string(node->attribute()), std::move(value).value());
  }
  return ok();
}

} // namespace

namespace {

/// A call whose first result aliases an argument (view, slice, t, ...): no new storage.
bool isView(const Node& node) {
  if (!node.isCall() || node.target()->kind != Target::Kind::Op)
    return false;
  const Target& op = *node.target();
  const OpSchema* schema = SchemaRegistry::builtin().lookup(
      op.opNamespace, op.opName, op.overload.empty() ? "default" : op.overload);
  return schema && !schema->returns.empty() && schema->returnAliasesArgument(0);
}

} // namespace

uint64_t estimateMemory(const Graph& graph, const std::unordered_map<std::string, int64_t>& symbols,
                        unsigned runs) {
  SymContext& sym = graph.context().sym();
  uint64_t inputs = 0, computed = 0;
  for (const Node* node : graph) {
    if (node->type().kind != TypeAnnotation::Kind::Tensor)
      continue;
    Result<Geometry> geometry = evaluateGeometry(sym, node, symbols);
    if (!geometry.ok())
      continue; // an unknown dtype or a symbol bound only at run time: not counted
    if (isView(*node))
      continue; // shares its input's storage
    uint64_t bytes = 0;
    uint64_t& total =
        node->isPlaceholder() || node->kind() == Node::Kind::GetAttr ? inputs : computed;
    if (__builtin_mul_overflow(static_cast<uint64_t>(std::max<int64_t>(geometry->extent, 0)),
                               static_cast<uint64_t>(at::elementSize(geometry->dtype)), &bytes) ||
        __builtin_add_overflow(total, bytes, &total))
      return UINT64_MAX;
  }
  // Each trial keeps the inputs and a copy for each run, and the outputs of every run (each
  // graph's values counted once for two runs: an estimate, as the rest).
  uint64_t needed = 0, values = 0;
  if (__builtin_mul_overflow(inputs, uint64_t(1) + runs, &needed) ||
      __builtin_mul_overflow(computed, uint64_t(std::max(1u, runs / 2)), &values) ||
      __builtin_add_overflow(needed, values, &needed))
    return UINT64_MAX;
  return needed;
}

Result<Inputs> makeInputs(const Graph& graph, uint64_t seed, const InputOptions& options) {
  const std::unordered_map<std::string, int64_t>& hints = options.symbolHints;
  Inputs inputs;
  inputs.integers = options.integers;
  SymContext& sym = graph.context().sym();
  std::mt19937_64 random(seed * 0x9E3779B97F4A7C15ull + 1);
  std::vector<Node*> placeholders = graph.placeholders();
  // Bind the symbols: hints, then small random sizes (PyTorch specializes 0 and 1).
  std::vector<std::string> names;
  for (const Node* node : placeholders) {
    const TypeAnnotation& type = node->type();
    if (type.kind == TypeAnnotation::Kind::Sym)
      sym.collectSymbols(type.sym, names);
    if (type.kind == TypeAnnotation::Kind::Tensor) {
      for (SymExpr size : type.tensor->sizes)
        sym.collectSymbols(size, names);
      if (type.tensor->strides)
        for (SymExpr stride : *type.tensor->strides)
          sym.collectSymbols(stride, names);
      if (type.tensor->storageOffset)
        sym.collectSymbols(*type.tensor->storageOffset, names);
    }
  }
  for (const std::string& name : names) {
    if (inputs.symbols.count(name))
      continue;
    auto hint = hints.find(name);
    inputs.symbols[name] = hint != hints.end() ? hint->second : 2 + int64_t(random() % 7);
  }
  if (options.memoryLimit != 0) {
    uint64_t needed = estimateMemory(graph, inputs.symbols, options.runs);
    if (needed > options.memoryLimit)
      return Error{"running the graph needs about " + formatBytes(needed) +
                   (options.runs > 2 ? " (its inputs five times, and every value it computes twice"
                                     : " (its inputs three times, and every value it computes") +
                   "), more than the " + formatBytes(options.memoryLimit) +
                   " limit allows (declone verify --memory-limit SIZE sets it)"};
  }
  at::Generator generator = at::detail::createCPUGenerator(seed);
  std::unordered_map<const Node*, int64_t> bounds = indexBounds(graph, sym, inputs.symbols);
  for (const Node* node : placeholders) {
    const TypeAnnotation& type = node->type();
    if (type.kind == TypeAnnotation::Kind::Sym) {
      std::optional<int64_t> value = sym.evaluate(type.sym, inputs.symbols);
      if (!value)
        return Error{"cannot evaluate " + sym.print(type.sym) + " in the annotation of " +
                         std::string(node->name()),
                     node->line(), 0};
      InputValue input;
      input.value = *value;
      inputs.values.push_back(std::move(input));
      continue;
    }
    if (type.kind != TypeAnnotation::Kind::Tensor)
      return Error{"placeholder " + std::string(node->name()) +
                       " needs a tensor or Sym annotation to make an input",
                   node->line(), 0};
    Result<InputValue> input = makeTensor(sym, node, inputs.symbols, generator,
                                          integerRange(bounds, node, inputs.integers));
    if (!input.ok())
      return input.error();
    inputs.values.push_back(std::move(input).value());
  }
  Status attributes = addBoundedAttributes(graph, seed, inputs, bounds);
  if (!attributes.ok())
    return attributes.error();
  return inputs;
}

Status addAttributes(const Graph& graph, uint64_t seed, Inputs& inputs) {
  return addBoundedAttributes(graph, seed, inputs,
                              indexBounds(graph, graph.context().sym(), inputs.symbols));
}

Inputs copyInputs(const Inputs& inputs) {
  auto copyOf = [](const InputValue& input) {
    InputValue value;
    if (!input.base.defined()) {
      value.value = input.value;
    } else {
      value.base = input.base.clone();
      const at::Tensor& tensor = input.value.toTensor();
      value.value =
          value.base.as_strided(tensor.sizes(), tensor.strides(), tensor.storage_offset());
    }
    return value;
  };
  Inputs copy;
  copy.symbols = inputs.symbols;
  copy.integers = inputs.integers;
  copy.uninitialized = inputs.uninitialized;
  for (const InputValue& input : inputs.values)
    copy.values.push_back(copyOf(input));
  for (const auto& [path, attribute] : inputs.attributes)
    copy.attributes.emplace(path, copyOf(attribute));
  return copy;
}
} // namespace declone::runtime::detail
