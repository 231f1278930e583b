// Random graphs over the op mix that clone elimination has to reason about: clones in every
// memory format, views of every kind, in-place and out= writes, through views and to sources.
#include "RandomGraph.h"

#include "declone/io/Reader.h"
#include "declone/io/Writer.h"
#include "declone/runtime/Executor.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <map>
#include <numeric>
#include <optional>
#include <utility>
#include <vector>

namespace declone::fuzz {

namespace {

using Shape = std::vector<int64_t>;

constexpr int64_t kMaxIndex = std::numeric_limits<int64_t>::max();

int64_t numel(const Shape& sizes) {
  return std::accumulate(sizes.begin(), sizes.end(), int64_t{1}, std::multiplies<>());
}

Shape rowMajor(const Shape& sizes) {
  Shape strides(sizes.size());
  int64_t stride = 1;
  for (size_t i = sizes.size(); i-- > 0;) {
    strides[i] = stride;
    stride *= std::max<int64_t>(sizes[i], 1);
  }
  return strides;
}

/// PyTorch's is_contiguous: row-major, strides of size-1 dims ignored.
bool isContiguous(const Shape& sizes, const Shape& strides) {
  int64_t expected = 1;
  for (size_t i = sizes.size(); i-- > 0;) {
    if (sizes[i] == 1)
      continue;
    if (strides[i] != expected)
      return false;
    expected *= sizes[i];
  }
  return true;
}

/// PyTorch's is_non_overlapping_and_dense.
bool isDense(const Shape& sizes, const Shape& strides) {
  std::vector<size_t> dims;
  for (size_t i = 0; i < sizes.size(); ++i)
    if (sizes[i] != 1)
      dims.push_back(i);
  std::stable_sort(dims.begin(), dims.end(),
                   [&](size_t a, size_t b) { return strides[a] < strides[b]; });
  int64_t expected = 1;
  for (size_t dim : dims) {
    if (strides[dim] != expected)
      return false;
    expected *= sizes[dim];
  }
  return true;
}

/// Whether `from` broadcasts to exactly `to` (what an in-place operand or copy_ source needs).
bool broadcastsTo(const Shape& from, const Shape& to) {
  if (from.size() > to.size())
    return false;
  size_t lead = to.size() - from.size();
  for (size_t i = 0; i < from.size(); ++i)
    if (from[i] != 1 && from[i] != to[lead + i])
      return false;
  return true;
}

std::optional<Shape> broadcastShape(const Shape& a, const Shape& b) {
  size_t rank = std::max(a.size(), b.size());
  Shape result(rank);
  for (size_t i = 0; i < rank; ++i) {
    int64_t x = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    int64_t y = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (x != y && x != 1 && y != 1)
      return std::nullopt;
    result[i] = x == 1 ? y : x;
  }
  return result;
}

std::string listText(const Shape& values) {
  std::string text = "[";
  for (size_t i = 0; i < values.size(); ++i) {
    if (i)
      text += ", ";
    text += std::to_string(values[i]);
  }
  return text + "]";
}

struct Layout {
  Shape strides;
  int64_t offset = 0;
};

struct Value {
  std::string name;
  Shape sizes;
  /// Strides and storage offset, when the generator can tell them without running. The strides
  /// of size-1 dims are exact only when `exact` is set (a view's may differ, harmlessly).
  std::optional<Layout> layout;
  bool exact = false;
  size_t storage = 0;
  /// Some element is reachable through two indices (expand): never a write destination.
  bool overlapping = false;
  /// For a clone: the value it copies.
  std::optional<size_t> cloneOf;
  /// The clone this value is, views or aliases (in-place results) of.
  std::optional<size_t> cloneRoot;
  bool placeholder = false;
  bool clonedFrom = false; ///< some clone copies this value
  bool viewOfClone = false;
  bool used = false; ///< some statement reads or writes it
};

struct Storage {
  /// Elements of a storage this graph allocated densely; unknown for graph inputs.
  std::optional<int64_t> elements;
};

class Generator {
public:
  Generator(uint64_t seed, const RandomGraphOptions& options) : rng_(seed), options_(options) {}

  std::string run();
  /// Every tensor value with the sizes and (where known) layout the generator predicts.
  [[nodiscard]] const std::vector<Value>& values() const { return values_; }

private:
  // Names as FX gives them: the op's name, then `_1`, `_2`, ...; builtins start at `_1`.
  std::string fresh(const std::string& base) {
    size_t count = names_[base]++;
    if (base == "slice" && count == 0)
      count = names_[base]++;
    return count == 0 ? base : base + "_" + std::to_string(count);
  }
  void emit(const std::string& name, const std::string& rhs) {
    body_ += "        " + name + " = " + rhs + "\n";
    ++statements_;
    // Every identifier of the right-hand side that names a value now has a user.
    for (size_t i = 0; i < rhs.size();) {
      size_t end = i;
      while (end < rhs.size() && (std::isalnum(static_cast<unsigned char>(rhs[end])) ||
                                  rhs[end] == '_' || rhs[end] == '.'))
        ++end;
      if (end == i) {
        ++i;
        continue;
      }
      auto found = byName_.find(rhs.substr(i, end - i));
      if (found != byName_.end())
        values_[found->second].used = true;
      i = end;
    }
  }
  size_t addValue(Value value) {
    byName_[value.name] = values_.size();
    values_.push_back(std::move(value));
    return values_.size() - 1;
  }
  size_t newStorage(std::optional<int64_t> elements) {
    storages_.push_back({elements});
    return storages_.size() - 1;
  }
  /// A value computed into fresh memory; its strides are known (row-major) when all tensor
  /// operands are canonical().
  Value freshValue(const std::string& name, const Shape& sizes, bool rowMajorResult) {
    Value value;
    value.name = name;
    value.sizes = sizes;
    if (rowMajorResult) {
      value.layout = Layout{rowMajor(sizes), 0};
      value.exact = true;
    }
    value.storage = newStorage(numel(sizes));
    return value;
  }
  /// PyTorch's is_contiguous: what `view` needs.
  bool contiguous(size_t v) const {
    const Value& value = values_[v];
    return value.layout && isContiguous(value.sizes, value.layout->strides);
  }
  /// Exactly the strides of torch.empty(sizes), size-1 dims included. Elementwise results of
  /// such operands (broadcast or not) have them too; merely contiguous operands whose size-1
  /// dims have other strides can give permuted results.
  bool canonical(size_t v) const {
    const Value& value = values_[v];
    return value.layout && value.exact && value.layout->strides == rowMajor(value.sizes);
  }
  /// A view of `base` with the given sizes and (when known) layout.
  size_t addView(size_t base, const std::string& name, Shape sizes, std::optional<Layout> layout,
                 bool overlapping = false) {
    Value view;
    view.name = name;
    view.sizes = std::move(sizes);
    view.layout = std::move(layout);
    view.exact = values_[base].exact;
    view.storage = values_[base].storage;
    view.overlapping = values_[base].overlapping || overlapping;
    view.cloneRoot = values_[base].cloneRoot;
    view.viewOfClone = view.cloneRoot.has_value();
    return addValue(std::move(view));
  }
  /// An in-place or out= result: the same tensor as `destination`, under a new name.
  size_t addAlias(size_t destination, const std::string& name) {
    Value alias = values_[destination];
    alias.name = name;
    alias.placeholder = false;
    alias.cloneOf.reset();
    alias.clonedFrom = false;
    return addValue(std::move(alias));
  }

  /// A value satisfying `accept`, drawn with `weight`; nullopt when none qualifies.
  template <class Accept, class Weight>
  std::optional<size_t> pick(Accept&& accept, Weight&& weight) {
    std::vector<std::pair<size_t, unsigned>> candidates;
    unsigned total = 0;
    for (size_t v = 0; v < values_.size(); ++v) {
      if (!accept(v))
        continue;
      unsigned w = weight(v);
      if (w == 0)
        continue;
      candidates.emplace_back(v, w);
      total += w;
    }
    if (total == 0)
      return std::nullopt;
    size_t draw = rng_.below(total);
    for (auto [v, w] : candidates) {
      if (draw < w)
        return v;
      draw -= w;
    }
    return std::nullopt;
  }
  /// Reads favour clones, their sources, views of both, and recent values.
  unsigned readWeight(size_t v) const {
    const Value& value = values_[v];
    unsigned weight = 2;
    if (value.cloneRoot || value.clonedFrom)
      weight += 4;
    if (v + 4 >= values_.size())
      weight += 3;
    return weight;
  }
  /// Writes favour clones and their views, then sources of clones.
  unsigned writeWeight(size_t v) const {
    const Value& value = values_[v];
    unsigned weight = 1;
    if (value.cloneRoot)
      weight += value.viewOfClone ? 6 : 5;
    if (value.clonedFrom)
      weight += 4;
    if (v + 3 >= values_.size())
      weight += 1;
    return weight;
  }
  std::optional<size_t> pickRead() {
    return pick([](size_t) { return true; }, [&](size_t v) { return readWeight(v); });
  }
  std::optional<size_t> pickWritable() {
    return pick([&](size_t v) { return !values_[v].overlapping; },
                [&](size_t v) { return writeWeight(v); });
  }
  /// An operand that broadcasts to `shape` and lives in another storage than `avoid` (PyTorch
  /// rejects partial overlap between what an op writes and what it reads).
  std::optional<size_t> pickOperandFor(const Shape& shape, size_t avoid) {
    return pick(
        [&](size_t v) {
          return values_[v].storage != values_[avoid].storage &&
                 broadcastsTo(values_[v].sizes, shape);
        },
        [&](size_t v) { return readWeight(v) + (values_[v].sizes == shape ? 4 : 0); });
  }
  std::string scalarText() {
    static const char* const kScalars[] = {"1", "2", "-1", "0.5", "3", "-2"};
    return kScalars[rng_.below(std::size(kScalars))];
  }

  void addPlaceholders();
  Shape variantOfMain();
  bool genClone(std::optional<size_t> forced = std::nullopt);
  bool genUnary();
  bool genBinary();
  bool genInPlace();
  bool genCopy();
  bool genOut();
  bool genAutoFunctionalized();
  bool genView();
  bool genSplit();
  std::string genReturn();

  Random rng_;
  RandomGraphOptions options_;
  Shape main_;
  std::vector<Value> values_;
  std::vector<Storage> storages_;
  std::vector<std::string> parameters_;
  std::map<std::string, size_t> names_;
  std::map<std::string, size_t> byName_;
  std::string body_;
  size_t statements_ = 0;
  std::vector<size_t> clones_;
  std::vector<size_t> writes_; ///< in-place and out= results
};

Shape Generator::variantOfMain() {
  Shape shape = main_;
  size_t kind = rng_.below(10);
  if (kind < 6)
    return shape;
  if (kind < 8) { // broadcastable: some dims 1
    for (int64_t& size : shape)
      if (rng_.chance(0.4))
        size = 1;
    return shape;
  }
  if (kind < 9 && shape.size() > 1) // a suffix
    return Shape(shape.begin() + static_cast<ptrdiff_t>(rng_.between(1, shape.size() - 1)),
                 shape.end());
  Shape other(static_cast<size_t>(rng_.between(1, 4)));
  for (int64_t& size : other)
    size = rng_.between(1, 5);
  return other;
}

void Generator::addPlaceholders() {
  static const size_t kRankWeights[] = {1, 4, 3, 3}; // ranks 1..4
  size_t draw = rng_.below(11), rank = 1;
  for (size_t w : kRankWeights) {
    if (draw < w)
      break;
    draw -= w;
    ++rank;
  }
  main_.resize(rank);
  for (int64_t& size : main_)
    size = rng_.chance(0.1) ? 1 : rng_.between(2, 5);

  size_t inputs = static_cast<size_t>(rng_.between(1, std::max<int64_t>(1, options_.maxInputs)));
  for (size_t i = 0; i < inputs; ++i) {
    Value value;
    value.name = "arg" + std::to_string(i) + "_1";
    value.sizes = i == 0 ? main_ : variantOfMain();
    value.placeholder = true;
    const Shape& sizes = value.sizes;
    Layout layout{rowMajor(sizes), 0};
    size_t kind = rng_.below(20);
    if (kind >= 11 && kind < 14 && sizes.size() >= 2) { // permuted, dense
      std::vector<size_t> order(sizes.size());
      std::iota(order.begin(), order.end(), 0);
      for (size_t j = order.size(); j > 1; --j)
        std::swap(order[j - 1], order[rng_.below(j)]);
      int64_t stride = 1;
      for (size_t j = order.size(); j-- > 0;) {
        layout.strides[order[j]] = stride;
        stride *= sizes[order[j]];
      }
    } else if (kind >= 14 && kind < 17) { // padded rows: not dense
      int64_t stride = 1;
      for (size_t j = sizes.size(); j-- > 0;) {
        layout.strides[j] = stride;
        stride = stride * sizes[j] + (j + 1 == sizes.size() ? rng_.between(1, 3) : 0);
      }
    }
    if (kind >= 17 || rng_.chance(0.1))
      layout.offset = rng_.between(1, 7);
    value.layout = layout;
    value.exact = true;
    value.storage = newStorage(std::nullopt);
    std::string annotation = "f32" + listText(sizes) + listText(layout.strides) + "cpu";
    if (layout.offset)
      annotation += "@" + std::to_string(layout.offset);
    parameters_.push_back(value.name + ": \"" + annotation + "\"");
    addValue(std::move(value));
  }
}

bool Generator::genClone(std::optional<size_t> forced) {
  std::optional<size_t> source = forced ? forced : pickRead();
  if (!source)
    return false;
  const Value& input = values_[*source];
  std::string name = fresh("clone");
  std::string rhs = "torch.ops.aten.clone.default(" + input.name;
  std::optional<Layout> layout;
  bool dense = input.layout && !input.overlapping && isDense(input.sizes, input.layout->strides);
  size_t format = rng_.below(20);
  // preserve_format copies a dense input's strides as they are; the others are computed.
  bool exact = true;
  if (format < 7 || (format >= 17 && input.sizes.size() != 4)) { // no memory_format
    if (dense)
      layout = Layout{input.layout->strides, 0};
    exact = input.exact;
  } else if (format < 10) {
    rhs += ", memory_format = torch.preserve_format";
    if (dense)
      layout = Layout{input.layout->strides, 0};
    exact = input.exact;
  } else if (format < 17) {
    rhs += ", memory_format = torch.contiguous_format";
    layout = Layout{rowMajor(input.sizes), 0};
  } else {
    rhs += ", memory_format = torch.channels_last";
    const Shape& s = input.sizes; // NCHW -> strides of NHWC
    layout = Layout{{s[1] * s[2] * s[3], 1, s[3] * s[1], s[1]}, 0};
  }
  emit(name, rhs + ")");
  Value clone;
  clone.name = name;
  clone.sizes = input.sizes;
  clone.layout = layout;
  clone.exact = exact;
  clone.storage = newStorage(numel(input.sizes));
  clone.cloneOf = source;
  size_t index = addValue(std::move(clone));
  values_[index].cloneRoot = index;
  values_[*source].clonedFrom = true;
  clones_.push_back(index);
  return true;
}

bool Generator::genUnary() {
  static const char* const kOps[] = {"relu", "sin", "neg"};
  std::optional<size_t> input = pickRead();
  if (!input)
    return false;
  std::string op = kOps[rng_.below(std::size(kOps))];
  std::string name = fresh(op);
  emit(name, "torch.ops.aten." + op + ".default(" + values_[*input].name + ")");
  addValue(freshValue(name, values_[*input].sizes, canonical(*input)));
  return true;
}

bool Generator::genBinary() {
  std::string op = rng_.chance(0.5) ? "add" : "mul";
  std::optional<size_t> a = pickRead();
  if (!a)
    return false;
  Shape shapeA = values_[*a].sizes;
  std::optional<size_t> b;
  if (!rng_.chance(0.2))
    b = pick([&](size_t v) { return broadcastShape(shapeA, values_[v].sizes).has_value(); },
             [&](size_t v) { return readWeight(v); });
  std::string name = fresh(op);
  if (!b) {
    emit(name, "torch.ops.aten." + op + ".Tensor(" + values_[*a].name + ", " + scalarText() + ")");
    addValue(freshValue(name, shapeA, canonical(*a)));
    return true;
  }
  Shape shape = *broadcastShape(shapeA, values_[*b].sizes);
  emit(name,
       "torch.ops.aten." + op + ".Tensor(" + values_[*a].name + ", " + values_[*b].name + ")");
  addValue(freshValue(name, shape, canonical(*a) && canonical(*b)));
  return true;
}

bool Generator::genInPlace() {
  std::optional<size_t> destination = pickWritable();
  if (!destination)
    return false;
  size_t kind = rng_.below(10);
  std::string op = kind < 4 ? "add_" : kind < 8 ? "mul_" : "relu_";
  std::string name = fresh(op);
  std::string rhs;
  const std::string& dst = values_[*destination].name;
  if (op == "relu_") {
    rhs = "torch.ops.aten.relu_.default(" + dst + ")";
  } else {
    std::optional<size_t> other;
    if (rng_.chance(0.05))
      other = destination; // full overlap is allowed: x.add_(x)
    else if (!rng_.chance(0.35))
      other = pickOperandFor(values_[*destination].sizes, *destination);
    rhs = "torch.ops.aten." + op + ".Tensor(" + dst + ", " +
          (other ? values_[*other].name : scalarText()) + ")";
  }
  emit(name, rhs);
  writes_.push_back(addAlias(*destination, name));
  return true;
}

bool Generator::genCopy() {
  std::optional<size_t> destination, source;
  if (rng_.chance(0.4)) {
    // Functionalization's copy-back: a clone, updated, is copied into what it was cloned from.
    source = pick(
        [&](size_t v) {
          return values_[v].cloneOf.has_value() && !values_[*values_[v].cloneOf].overlapping;
        },
        [&](size_t v) { return writeWeight(v); });
    if (source)
      destination = values_[*source].cloneOf;
  }
  if (!destination)
    destination = pickWritable();
  if (!destination)
    return false;
  if (!source)
    source = pickOperandFor(values_[*destination].sizes, *destination);
  if (!source)
    return false;
  std::string name = fresh("copy_");
  emit(name, "torch.ops.aten.copy_.default(" + values_[*destination].name + ", " +
                 values_[*source].name + ")");
  writes_.push_back(addAlias(*destination, name));
  return true;
}

bool Generator::genOut() {
  std::optional<size_t> destination = pickWritable();
  if (!destination)
    return false;
  const Shape shape = values_[*destination].sizes;
  std::optional<size_t> a = pickOperandFor(shape, *destination);
  if (!a)
    return false;
  std::optional<size_t> b;
  if (!rng_.chance(0.15))
    b = pickOperandFor(shape, *destination);
  Shape result = values_[*a].sizes;
  if (b)
    result = *broadcastShape(result, values_[*b].sizes);
  if (result != shape) // out= would be resized: keep shapes exact
    return false;
  std::string op = rng_.chance(0.5) ? "add" : "mul";
  std::string name = fresh(op);
  emit(name, "torch.ops.aten." + op + ".out(" + values_[*a].name + ", " +
                 (b ? values_[*b].name : scalarText()) + ", out = " + values_[*destination].name +
                 ")");
  writes_.push_back(addAlias(*destination, name));
  return true;
}

bool Generator::genAutoFunctionalized() {
  // vLLM's custom ops, functionalized: the mutated arguments come back as fresh tensors. Their
  // kernels read raw memory from the data pointer, numel elements: an expanded argument would
  // be read past the end of its storage, so every tensor argument is non-overlapping.
  std::optional<size_t> input = pickWritable();
  std::optional<size_t> other = pickWritable();
  std::optional<size_t> weight = pickWritable();
  if (!input || !other || !weight)
    return false;
  std::string name = fresh("auto_functionalized");
  std::vector<size_t> mutated;
  std::string rhs = "torch.ops.higher_order.auto_functionalized(torch.ops._C.";
  switch (rng_.below(3)) {
  case 0:
    rhs += "rms_norm.default, result = " + values_[*other].name +
           ", input = " + values_[*input].name + ", weight = " + values_[*weight].name +
           ", epsilon = 1e-06)";
    mutated = {*other};
    break;
  case 1:
    rhs += "silu_and_mul.default, out = " + values_[*other].name +
           ", input = " + values_[*input].name + ")";
    mutated = {*other};
    break;
  default:
    rhs += "fused_add_rms_norm.default, input = " + values_[*input].name +
           ", residual = " + values_[*other].name + ", weight = " + values_[*weight].name +
           ", epsilon = 1e-06)";
    mutated = {*input, *other};
    break;
  }
  emit(name, rhs);
  for (size_t i = 0; i < mutated.size(); ++i) {
    if (!rng_.chance(0.8) && !(i + 1 == mutated.size() && i == 0))
      continue;
    std::string item = fresh("getitem");
    emit(item, name + "[" + std::to_string(i + 1) + "]");
    // clone_preserve_strides: a copy of the argument's storage extent, viewed as it was
    // (strides and storage offset kept, stride-0 dims too).
    const Value& argument = values_[mutated[i]];
    Value copy;
    copy.name = item;
    copy.sizes = argument.sizes;
    copy.layout = argument.layout;
    copy.exact = argument.exact;
    copy.overlapping = argument.overlapping;
    std::optional<int64_t> extent;
    if (argument.layout) {
      extent = argument.layout->offset + 1;
      for (size_t d = 0; d < argument.sizes.size(); ++d)
        *extent += (argument.sizes[d] - 1) * argument.layout->strides[d];
    }
    copy.storage = newStorage(extent);
    addValue(std::move(copy));
  }
  return true;
}

bool Generator::genView() {
  std::optional<size_t> base = pickRead();
  if (!base)
    return false;
  const Value input = values_[*base]; // copied: addView grows values_
  const Shape& sizes = input.sizes;
  const std::optional<Layout>& layout = input.layout;
  size_t rank = sizes.size();
  auto dimOf = [&]() { return static_cast<size_t>(rng_.below(rank)); };
  switch (rng_.below(12)) {
  case 0: { // view.default: only of contiguous tensors
    if (!contiguous(*base))
      return false;
    Shape shape;
    int64_t total = numel(sizes);
    size_t how = rng_.below(4);
    if (how == 0 || rank == 1) {
      shape = {total};
      if (rank == 1 && total % 2 == 0 && total > 2)
        shape = {2, total / 2};
    } else if (how == 1) { // merge two adjacent dims
      size_t d = rng_.below(rank - 1);
      shape = sizes;
      shape[d] *= shape[d + 1];
      shape.erase(shape.begin() + static_cast<ptrdiff_t>(d) + 1);
    } else if (how == 2) { // split a dim
      shape = sizes;
      size_t d = dimOf();
      int64_t n = shape[d];
      int64_t factor = n % 2 == 0 ? 2 : n % 3 == 0 ? 3 : 1;
      shape[d] = n / factor;
      shape.insert(shape.begin() + static_cast<ptrdiff_t>(d), factor);
    } else { // a new size-1 dim
      shape = sizes;
      shape.insert(shape.begin() + static_cast<ptrdiff_t>(rng_.below(rank + 1)), 1);
    }
    Shape printed = shape;
    if (shape.size() > 1 && rng_.chance(0.3))
      printed[rng_.below(shape.size())] = -1;
    std::string name = fresh("view");
    emit(name, "torch.ops.aten.view.default(" + input.name + ", " + listText(printed) + ")");
    size_t index = addView(*base, name, shape, Layout{rowMajor(shape), layout->offset});
    values_[index].exact = canonical(*base);
    return true;
  }
  case 1:
  case 2: { // slice.Tensor / narrow
    size_t d = dimOf();
    int64_t n = sizes[d];
    int64_t start = rng_.chance(0.5) || n == 1 ? 0 : rng_.between(1, n - 1);
    int64_t step = rng_.chance(0.2) ? 2 : 1;
    int64_t end = rng_.between(start + 1, n);
    bool narrow = step == 1 && rng_.chance(0.3);
    std::string name;
    if (narrow) {
      name = fresh("narrow");
      emit(name, "torch.ops.aten.narrow.default(" + input.name + ", " + std::to_string(d) + ", " +
                     std::to_string(start) + ", " + std::to_string(end - start) + ")");
    } else {
      name = fresh("slice");
      std::string endText =
          end == n && rng_.chance(0.5) ? std::to_string(kMaxIndex) : std::to_string(end);
      emit(name, "torch.ops.aten.slice.Tensor(" + input.name + ", " + std::to_string(d) + ", " +
                     std::to_string(start) + ", " + endText +
                     (step != 1 ? ", " + std::to_string(step) : "") + ")");
    }
    Shape shape = sizes;
    shape[d] = (end - start + step - 1) / step;
    std::optional<Layout> result;
    if (layout) {
      result = layout;
      result->offset += start * layout->strides[d];
      result->strides[d] *= step;
    }
    addView(*base, name, shape, result);
    return true;
  }
  case 3: { // select.int
    if (rank < 2)
      return false;
    size_t d = dimOf();
    int64_t index = rng_.between(0, sizes[d] - 1);
    int64_t printed = rng_.chance(0.2) ? index - sizes[d] : index;
    std::string name = fresh("select");
    emit(name, "torch.ops.aten.select.int(" + input.name + ", " + std::to_string(d) + ", " +
                   std::to_string(printed) + ")");
    Shape shape = sizes;
    shape.erase(shape.begin() + static_cast<ptrdiff_t>(d));
    std::optional<Layout> result;
    if (layout) {
      result = layout;
      result->offset += index * layout->strides[d];
      result->strides.erase(result->strides.begin() + static_cast<ptrdiff_t>(d));
    }
    addView(*base, name, shape, result);
    return true;
  }
  case 4:
  case 5: { // permute / transpose.int / t
    if (rank < 2)
      return false;
    std::vector<size_t> order(rank);
    std::iota(order.begin(), order.end(), 0);
    std::string name;
    size_t how = rng_.below(3);
    if (how == 0 && rank > 2) {
      while (std::is_sorted(order.begin(), order.end()))
        for (size_t j = order.size(); j > 1; --j)
          std::swap(order[j - 1], order[rng_.below(j)]);
      name = fresh("permute");
      emit(name, "torch.ops.aten.permute.default(" + input.name + ", " +
                     listText(Shape(order.begin(), order.end())) + ")");
    } else if (how == 1 || rank > 2) {
      size_t a = dimOf(), b = dimOf();
      while (b == a)
        b = dimOf();
      std::swap(order[a], order[b]);
      name = fresh("transpose");
      emit(name, "torch.ops.aten.transpose.int(" + input.name + ", " + std::to_string(a) + ", " +
                     std::to_string(b) + ")");
    } else {
      std::swap(order[0], order[1]);
      name = fresh("t");
      emit(name, "torch.ops.aten.t.default(" + input.name + ")");
    }
    Shape shape(rank);
    std::optional<Layout> result;
    if (layout)
      result = Layout{Shape(rank), layout->offset};
    for (size_t j = 0; j < rank; ++j) {
      shape[j] = sizes[order[j]];
      if (layout)
        result->strides[j] = layout->strides[order[j]];
    }
    addView(*base, name, shape, result);
    return true;
  }
  case 6: { // unsqueeze
    if (rank >= 4)
      return false;
    size_t d = rng_.below(rank + 1);
    std::string name = fresh("unsqueeze");
    emit(name, "torch.ops.aten.unsqueeze.default(" + input.name + ", " + std::to_string(d) + ")");
    Shape shape = sizes;
    shape.insert(shape.begin() + static_cast<ptrdiff_t>(d), 1);
    std::optional<Layout> result;
    if (layout) {
      result = layout;
      int64_t stride = d >= rank ? 1 : sizes[d] * layout->strides[d];
      result->strides.insert(result->strides.begin() + static_cast<ptrdiff_t>(d), stride);
    }
    addView(*base, name, shape, result);
    return true;
  }
  case 7: { // expand: size-1 dims grow, or a new leading dim
    Shape shape = sizes, printed = sizes;
    std::optional<Layout> result = layout;
    bool grown = false;
    for (size_t j = 0; j < rank; ++j) {
      if (sizes[j] == 1 && rng_.chance(0.7)) {
        shape[j] = printed[j] = rng_.between(2, 4);
        if (result)
          result->strides[j] = 0;
        grown = true;
      } else if (rng_.chance(0.3)) {
        printed[j] = -1;
      }
    }
    if (!grown || rng_.chance(0.3)) {
      if (rank >= 4)
        return false;
      int64_t lead = rng_.between(2, 3);
      shape.insert(shape.begin(), lead);
      printed.insert(printed.begin(), lead);
      if (result)
        result->strides.insert(result->strides.begin(), 0);
    }
    std::string name = fresh("expand");
    emit(name, "torch.ops.aten.expand.default(" + input.name + ", " + listText(printed) + ")");
    addView(*base, name, shape, result, /*overlapping=*/true);
    return true;
  }
  case 8: { // diagonal
    if (rank < 2)
      return false;
    size_t d1 = dimOf(), d2 = dimOf();
    while (d2 == d1)
      d2 = dimOf();
    bool defaults = rng_.chance(0.4);
    int64_t offset = 0;
    if (defaults) {
      d1 = 0;
      d2 = 1;
    } else {
      offset = rng_.between(-(sizes[d1] - 1), sizes[d2] - 1);
    }
    int64_t length = offset >= 0 ? std::min(sizes[d1], sizes[d2] - offset)
                                 : std::min(sizes[d1] + offset, sizes[d2]);
    std::string name = fresh("diagonal");
    emit(name, "torch.ops.aten.diagonal.default(" + input.name +
                   (defaults ? std::string()
                             : ", " + std::to_string(offset) + ", " + std::to_string(d1) + ", " +
                                   std::to_string(d2)) +
                   ")");
    Shape shape;
    std::optional<Layout> result;
    if (layout)
      result = Layout{{},
                      layout->offset + (offset >= 0 ? offset * layout->strides[d2]
                                                    : -offset * layout->strides[d1])};
    for (size_t j = 0; j < rank; ++j) {
      if (j == d1 || j == d2)
        continue;
      shape.push_back(sizes[j]);
      if (layout)
        result->strides.push_back(layout->strides[j]);
    }
    shape.push_back(length);
    if (layout)
      result->strides.push_back(layout->strides[d1] + layout->strides[d2]);
    addView(*base, name, shape, result);
    return true;
  }
  case 9: { // as_strided, inside a storage the graph allocated
    std::optional<int64_t> elements = storages_[input.storage].elements;
    if (!elements || *elements < 2)
      return false;
    int64_t offset = rng_.between(rng_.chance(0.8) ? 1 : 0, *elements - 1);
    int64_t room = *elements - offset;
    Shape shape, strides;
    if (room >= 2 && rng_.chance(0.6)) {
      int64_t inner = rng_.between(1, std::min<int64_t>(room, 4));
      int64_t rowStride = inner + rng_.between(0, 1);
      int64_t rows = rng_.between(1, std::min<int64_t>(4, 1 + (room - inner) / rowStride));
      shape = {rows, inner};
      strides = {rowStride, 1};
    } else {
      shape = {rng_.between(1, std::min<int64_t>(room, 6))};
      strides = {1};
    }
    std::string name = fresh("as_strided");
    emit(name, "torch.ops.aten.as_strided.default(" + input.name + ", " + listText(shape) + ", " +
                   listText(strides) + ", " + std::to_string(offset) + ")");
    // A window of the whole storage: it may overlap other views, but not itself.
    size_t index = addView(*base, name, shape, Layout{strides, offset});
    values_[index].overlapping = false;
    values_[index].exact = true;
    return true;
  }
  default:
    return genSplit();
  }
}

bool Generator::genSplit() {
  std::optional<size_t> base = pickRead();
  if (!base)
    return false;
  const Value input = values_[*base];
  size_t rank = input.sizes.size();
  if (rank < 1)
    return false;
  size_t d = rng_.below(rank);
  int64_t n = input.sizes[d];
  size_t how = rng_.below(3);
  if (how == 2 && rank < 2)
    how = 0;
  int64_t pieceSize = 1;
  std::string name, rhs;
  if (how == 0) {
    pieceSize = rng_.between(1, std::max<int64_t>(1, n - 1));
    name = fresh("split");
    rhs = "torch.ops.aten.split.Tensor(" + input.name + ", " + std::to_string(pieceSize) +
          (d != 0 || rng_.chance(0.5) ? ", " + std::to_string(d) : "") + ")";
  } else if (how == 1) {
    int64_t chunks = rng_.between(2, 3);
    pieceSize = (n + chunks - 1) / chunks;
    name = fresh("chunk");
    rhs = "torch.ops.aten.chunk.default(" + input.name + ", " + std::to_string(chunks) +
          (d != 0 || rng_.chance(0.5) ? ", " + std::to_string(d) : "") + ")";
  } else {
    name = fresh("unbind");
    rhs = "torch.ops.aten.unbind.int(" + input.name +
          (d != 0 || rng_.chance(0.5) ? ", " + std::to_string(d) : "") + ")";
  }
  emit(name, rhs);
  int64_t pieces = (n + pieceSize - 1) / pieceSize;
  bool any = false;
  for (int64_t i = 0; i < pieces; ++i) {
    if (!(rng_.chance(0.6) || (i + 1 == pieces && !any)))
      continue;
    any = true;
    std::string item = fresh("getitem");
    emit(item, name + "[" + std::to_string(i) + "]");
    Shape shape = input.sizes;
    std::optional<Layout> layout = input.layout;
    if (layout)
      layout->offset += i * pieceSize * layout->strides[d];
    if (how == 2) {
      shape.erase(shape.begin() + static_cast<ptrdiff_t>(d));
      if (layout)
        layout->strides.erase(layout->strides.begin() + static_cast<ptrdiff_t>(d));
    } else {
      shape[d] = std::min(pieceSize, n - i * pieceSize);
    }
    addView(*base, item, shape, layout);
  }
  return true;
}

std::string Generator::genReturn() {
  std::vector<size_t> outputs;
  auto add = [&](size_t v) {
    if (std::find(outputs.begin(), outputs.end(), v) == outputs.end())
      outputs.push_back(v);
  };
  if (!clones_.empty() && rng_.chance(0.5)) {
    size_t clone = clones_[rng_.below(clones_.size())];
    add(clone);
    if (rng_.chance(0.4))
      add(*values_[clone].cloneOf);
  }
  if (rng_.chance(0.2))
    add(rng_.below(parameters_.size())); // placeholders come first
  if (!writes_.empty() && rng_.chance(0.3))
    add(writes_[rng_.below(writes_.size())]);
  size_t extra = static_cast<size_t>(rng_.between(outputs.empty() ? 1 : 0, 2));
  for (size_t i = 0; i < extra; ++i) {
    // Mostly values nothing uses yet, so that little of the graph is dead.
    std::optional<size_t> v =
        pick([](size_t) { return true; },
             [&](size_t v) { return values_[v].used || values_[v].placeholder ? 1u : 12u; });
    add(*v);
  }
  std::string text = "return (";
  for (size_t i = 0; i < outputs.size(); ++i)
    text += (i ? ", " : "") + values_[outputs[i]].name;
  return text + (outputs.size() == 1 ? ",)" : ")");
}

std::string Generator::run() {
  addPlaceholders();
  size_t target = static_cast<size_t>(
      rng_.between(static_cast<int64_t>(options_.minStatements),
                   static_cast<int64_t>(std::max(options_.minStatements, options_.maxStatements))));
  // Weights of the op kinds: clones, views and writes dominate.
  static const unsigned kWeights[] = {18, 7, 8, 12, 5, 6, 3, 20};
  const unsigned total = std::accumulate(std::begin(kWeights), std::end(kWeights), 0u);
  for (size_t attempt = 0; statements_ < target && attempt < 20 * target + 100; ++attempt) {
    size_t draw = rng_.below(total), kind = 0;
    while (draw >= kWeights[kind])
      draw -= kWeights[kind++];
    switch (kind) {
    case 0:
      genClone();
      break;
    case 1:
      genUnary();
      break;
    case 2:
      genBinary();
      break;
    case 3:
      genInPlace();
      break;
    case 4:
      genCopy();
      break;
    case 5:
      genOut();
      break;
    case 6:
      genAutoFunctionalized();
      break;
    default:
      genView();
      break;
    }
  }
  if (clones_.empty())
    (void)genClone(values_.size() - 1);
  std::string text = "class GraphModule(torch.nn.Module):\n    def forward(self";
  for (const std::string& parameter : parameters_)
    text += ", " + parameter;
  text += "):\n" + body_ + "        " + genReturn() + "\n";
  return text;
}

/// Drops the layout metadata of some call nodes: no annotation, or sizes only.
void stripMetadata(Graph& graph, Random& rng, double chance) {
  Context& context = graph.context();
  for (Node* node : graph) {
    if (!node->isCall() || node->type().kind != TypeAnnotation::Kind::Tensor || !rng.chance(chance))
      continue;
    if (rng.chance(0.5)) {
      node->setType(nullptr);
      continue;
    }
    auto* tensor = context.create<TensorType>(*node->type().tensor);
    tensor->strides.reset();
    tensor->storageOffset.reset();
    TypeAnnotation type;
    type.kind = TypeAnnotation::Kind::Tensor;
    type.tensor = tensor;
    node->setType(context.create<TypeAnnotation>(type));
  }
}

/// Prints call nodes as PyTorch does, without `@OFFSET`: the analyses must infer the offsets.
void dropOffsets(Graph& graph) {
  Context& context = graph.context();
  for (Node* node : graph) {
    if (!node->isCall() || node->type().kind != TypeAnnotation::Kind::Tensor ||
        !node->type().tensor->storageOffset)
      continue;
    auto* tensor = context.create<TensorType>(*node->type().tensor);
    tensor->storageOffset.reset();
    TypeAnnotation type = node->type();
    type.spelling = {};
    type.tensor = tensor;
    node->setType(context.create<TypeAnnotation>(type));
  }
}

} // namespace

std::string randomGraphSkeleton(uint64_t seed, const RandomGraphOptions& options) {
  return Generator(seed, options).run();
}

namespace {

/// The generator's model of sizes, strides and offsets against what execution produced: a
/// mismatch means the model that keeps the ops valid (view needs contiguity, writes need
/// non-overlapping destinations) is wrong somewhere.
Status checkPredictions(const Graph& graph, const std::vector<Value>& values) {
  std::map<std::string_view, const Value*> byName;
  for (const Value& value : values)
    byName[value.name] = &value;
  for (const Node* node : graph) {
    auto found = byName.find(node->name());
    if (!node->isCall() || found == byName.end() ||
        node->type().kind != TypeAnnotation::Kind::Tensor)
      continue;
    const Value& value = *found->second;
    const TensorType& type = *node->type().tensor;
    auto constant = [](SymExpr expr) { return expr.constantValue().value_or(-1); };
    auto mismatch = [&](const std::string& what) {
      return Error{"the generator's model of " + value.name + " is wrong: " + what, node->line(),
                   0};
    };
    Shape sizes, strides;
    for (SymExpr size : type.sizes)
      sizes.push_back(constant(size));
    if (sizes != value.sizes)
      return mismatch("sizes " + listText(sizes) + " != predicted " + listText(value.sizes));
    if (!value.layout || !type.strides)
      continue;
    for (SymExpr stride : *type.strides)
      strides.push_back(constant(stride));
    int64_t offset = type.storageOffset ? constant(*type.storageOffset) : 0;
    if (offset != value.layout->offset)
      return mismatch("storage offset " + std::to_string(offset) + " != predicted " +
                      std::to_string(value.layout->offset));
    for (size_t i = 0; i < sizes.size(); ++i)
      if ((value.exact || sizes[i] != 1) && strides[i] != value.layout->strides[i])
        return mismatch("strides " + listText(strides) + " != predicted " +
                        listText(value.layout->strides));
  }
  return ok();
}

} // namespace

Result<std::string> tryRandomGraphText(uint64_t seed, const RandomGraphOptions& options) {
  Generator generator(seed, options);
  std::string skeleton = generator.run();
  auto file = readGraphFile(skeleton);
  if (!file.ok())
    return Error{"generated graph does not parse: " + file.error().format("<generated>")};
  Graph& graph = (*file)->modules.front()->graph;
  Status annotated = runtime::annotateFromExecution(graph, seed);
  if (!annotated.ok())
    return Error{"generated graph does not run: " + annotated.error().format("<generated>")};
  Status predicted = checkPredictions(graph, generator.values());
  if (!predicted.ok())
    return Error{"generator bug: " + predicted.error().format("<generated>")};
  Random rng(seed ^ 0x5bd1e9955bd1e995ULL);
  if (rng.chance(options.strippedGraphChance))
    stripMetadata(graph, rng, options.stripNodeChance);
  if (rng.chance(options.inferredOffsetChance))
    dropOffsets(graph);
  return writeGraphFile(**file);
}

std::string randomGraphText(uint64_t seed, const RandomGraphOptions& options) {
  Result<std::string> text = tryRandomGraphText(seed, options);
  if (!text.ok()) {
    std::fprintf(stderr, "seed %llu: %s\n%s", static_cast<unsigned long long>(seed),
                 text.error().message.c_str(), randomGraphSkeleton(seed, options).c_str());
    std::abort();
  }
  return std::move(text).value();
}

} // namespace declone::fuzz
