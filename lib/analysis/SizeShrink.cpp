// Plans smaller sizes for running a graph (see SizeShrink.h).
#include "declone/analysis/SizeShrink.h"

#include "declone/schema/SchemaRegistry.h"

#include <algorithm>
#include <cstdlib>
#include <numeric>
#include <unordered_map>

namespace declone {
namespace {

/// Values this large are sentinels (slice's "to the end"), never sizes.
constexpr int64_t kLargestSize = int64_t(1) << 40;
/// Rough rates of this kind of machine: arithmetic in matrix products, other elements.
constexpr double kFlopsPerSecond = 2e10;
constexpr double kElementsPerSecond = 3e8;

/// What an integer argument is to the sizes of a graph.
enum class IntRole : uint8_t {
  Size,      ///< a size or a position along a dimension: shrinks with the sizes
  Dimension, ///< which dimension: untouched, and no size
  Pinned,    ///< something else (a kernel size, a stride, a count): its value may not change
  Threshold, ///< a Scalar operand compared with values: shrinks with an equal size, and keeps
             ///< its order against every size
};

IntRole roleOf(std::string_view op, std::string_view name) {
  static const std::set<std::string_view> dimensions = {
      "dim",       "dims",    "dim0",      "dim1",   "dim2",
      "start_dim", "end_dim", "dimension", "source", "destination"};
  static const std::set<std::string_view> sizes = {
      "size", "sizes", "shape",  "split_size", "split_sizes", "start",
      "end",  "step",  "length", "index",      "num_weights", "normalized_shape"};
  if (dimensions.count(name))
    return IntRole::Dimension;
  if (op == "as_strided" || op == "as_strided_" || op == "as_strided_scatter")
    return name == "size" ? IntRole::Size : IntRole::Pinned;
  return sizes.count(name) ? IntRole::Size : IntRole::Pinned;
}

/// Whether schema argument `type` holds integers (int, SymInt, their lists and optionals).
bool holdsIntegers(const SchemaType& type) {
  return type.kind == SchemaType::Kind::Other &&
         (type.element == "int" || type.element == "SymInt");
}

const OpSchema* schemaOf(const Node& node) {
  if (!node.isCall() || node.target()->kind != Target::Kind::Op || node.target()->isHigherOrder())
    return nullptr;
  const Target& op = *node.target();
  return SchemaRegistry::builtin().lookup(op.opNamespace, op.opName,
                                          op.overload.empty() ? "default" : op.overload);
}

/// Calls fn(arg, role, position, keyword) for each integer-holding argument of `node`: with the
/// schema's name for it, else Pinned. Arange's Scalar bounds count as sizes.
template <class ArgT, class Fn>
void forEachIntArgument(const Node& node, std::span<ArgT> args, std::span<const KwArg> kwargs,
                        Fn&& fn) {
  const OpSchema* schema = schemaOf(node);
  std::string_view op = schema ? std::string_view(schema->name) : std::string_view();
  auto roleFor = [&](const SchemaArgument* parameter) -> std::optional<IntRole> {
    if (!parameter)
      return IntRole::Pinned;
    bool scalar = parameter->type.element == "Scalar";
    if (scalar && op != "arange")
      return IntRole::Threshold; // `lt(arange(n), 3000)`, `ge(ids, vocab_size)`
    if (!scalar && !holdsIntegers(parameter->type))
      return std::nullopt; // a tensor, a float, ...: not an integer of the sizes
    return roleOf(op, parameter->name);
  };
  for (size_t i = 0; i < args.size(); ++i) {
    const SchemaArgument* parameter =
        schema && i < schema->arguments.size() ? &schema->arguments[i] : nullptr;
    if (std::optional<IntRole> role = roleFor(parameter))
      fn(args[i], *role, static_cast<int>(i), std::string_view());
  }
  for (const KwArg& kwarg : kwargs) {
    const SchemaArgument* parameter = nullptr;
    if (schema)
      for (const SchemaArgument& candidate : schema->arguments)
        if (candidate.name == kwarg.name)
          parameter = &candidate;
    if (std::optional<IntRole> role = roleFor(parameter))
      fn(kwarg.value, *role, -1, kwarg.name);
  }
}

/// Calls fn(value, element) for each integer of an argument: itself (element -1) or the
/// elements of a list or tuple; and, when `nested`, every integer deeper in it.
template <class Fn> void forEachInteger(const Arg& arg, Fn&& fn) {
  if (arg.kind == ArgKind::Int) {
    fn(arg.integer, -1);
    return;
  }
  if (arg.kind == ArgKind::List || arg.kind == ArgKind::Tuple) {
    std::span<const Arg> children = arg.children();
    for (size_t i = 0; i < children.size(); ++i)
      if (children[i].kind == ArgKind::Int)
        fn(children[i].integer, static_cast<int>(i));
  }
}

/// Every integer anywhere in `arg` (slices, nested tuples).
template <class Fn> void forEachDeepInteger(const Arg& arg, Fn&& fn) {
  if (arg.kind == ArgKind::Int)
    fn(arg.integer);
  for (const Arg& child : arg.children())
    forEachDeepInteger(child, fn);
}

/// The constant sizes of a tensor annotation, or nullopt.
std::optional<std::vector<int64_t>> constantSizes(const TypeAnnotation& type) {
  if (type.kind != TypeAnnotation::Kind::Tensor)
    return std::nullopt;
  std::vector<int64_t> sizes;
  for (SymExpr size : type.tensor->sizes) {
    std::optional<int64_t> value = size.constantValue();
    if (!value)
      return std::nullopt;
    sizes.push_back(*value);
  }
  return sizes;
}

/// Whether `node`'s value shares its input's storage: a view op, or an element of one's result.
bool isView(const Node& node) {
  const Node* call = &node;
  if (node.isCall() && node.target()->kind == Target::Kind::Function &&
      node.target()->qualifiedName == "operator.getitem" && !node.args().empty() &&
      node.args()[0].isNode())
    call = node.args()[0].node();
  const OpSchema* schema = schemaOf(*call);
  return schema && !schema->returns.empty() && schema->returnAliasesArgument(0);
}

/// For a matrix product, the argument whose last dimension is summed over.
const Arg* reducedArgument(const Node& node) {
  const OpSchema* schema = schemaOf(node);
  if (!schema || schema->opNamespace != "aten")
    return nullptr;
  std::string_view name = schema->name;
  size_t index;
  if (name == "mm" || name == "bmm" || name == "matmul" || name == "linear")
    index = 0;
  else if (name == "addmm" || name == "baddbmm" || name == "addbmm" || name == "_addmm_activation")
    index = 1;
  else
    return nullptr;
  return index < node.args().size() ? &node.args()[index] : nullptr;
}

/// Ops whose result has their input's elements in another shape.
bool reshapes(std::string_view op) {
  static const std::set<std::string_view> ops = {"view",      "reshape",        "_unsafe_view",
                                                 "view_copy", "_reshape_alias", "_reshape_copy",
                                                 "flatten",   "unflatten"};
  return ops.count(op) > 0;
}

int64_t mapped(const std::map<int64_t, int64_t>& sigma, int64_t value) {
  auto found = sigma.find(std::abs(value));
  if (found == sigma.end())
    return value;
  return value < 0 ? -found->second : found->second;
}

std::map<int64_t, int64_t> toMap(std::span<const SizeChange> changes) {
  std::map<int64_t, int64_t> sigma;
  for (const SizeChange& change : changes)
    sigma[change.from] = change.to;
  return sigma;
}

int sign(int64_t value) {
  return (value > 0) - (value < 0);
}

} // namespace

std::string describeSizeChanges(std::span<const SizeChange> changes) {
  std::string out;
  for (const SizeChange& change : changes)
    out += (out.empty() ? "" : ", ") + std::to_string(change.from) + " -> " +
           std::to_string(change.to);
  return out;
}

SizeShrinker::SizeShrinker(std::span<const Graph* const> graphs, size_t costed) {
  auto addValue = [&](int64_t value) {
    if (std::abs(value) >= 2)
      values_.insert(std::abs(value));
  };
  struct RawTensor {
    std::vector<int64_t> sizes;
    uint64_t elementBytes;
    bool view, computed;
  };
  std::vector<RawTensor> raw;
  std::unordered_map<const Node*, size_t> madeBy;
  for (size_t index = 0; index < graphs.size(); ++index) {
    bool counted = index < costed;
    for (const Node* node : *graphs[index]) {
      std::optional<std::vector<int64_t>> sizes = constantSizes(node->type());
      if (sizes) {
        if (counted) {
          madeBy[node] = raw.size();
          raw.push_back(
              {*sizes, elementSize(node->type().tensor->dtype), isView(*node), node->isCall()});
        }
        for (int64_t size : *sizes)
          if (size >= 2 && size < kLargestSize)
            sizes_.insert(size);
        for (int64_t size : *sizes)
          addValue(size);
      }
      if (!node->isCall())
        continue;
      const OpSchema* schema = schemaOf(*node);
      if (!schema) {
        // Python arithmetic, getitem indices and slices, higher-order calls, unknown ops.
        for (const Arg& arg : node->args())
          forEachDeepInteger(arg, [&](int64_t value) {
            addValue(value);
            if (std::abs(value) >= 2)
              pinned_.insert(std::abs(value));
          });
        for (const KwArg& kwarg : node->kwargs())
          forEachDeepInteger(kwarg.value, [&](int64_t value) {
            addValue(value);
            if (std::abs(value) >= 2)
              pinned_.insert(std::abs(value));
          });
      }
      std::optional<int64_t> dim;
      std::vector<std::pair<std::string_view, int64_t>> bounds;
      forEachIntArgument(
          *node, node->args(), node->kwargs(),
          [&](const Arg& arg, IntRole role, int position, std::string_view keyword) {
            std::string_view name =
                schema && position >= 0 && size_t(position) < schema->arguments.size()
                    ? std::string_view(schema->arguments[position].name)
                    : keyword;
            forEachInteger(arg, [&](int64_t value, int) {
              addValue(value);
              if (role == IntRole::Pinned && std::abs(value) >= 2)
                pinned_.insert(std::abs(value));
              if (role == IntRole::Threshold && std::abs(value) >= 2 &&
                  std::abs(value) < kLargestSize)
                thresholds_.insert(std::abs(value));
              if (role == IntRole::Dimension && (name == "dim" || name == "dimension"))
                dim = value;
              if (role == IntRole::Size && name != "size" && name != "sizes" && name != "shape" &&
                  name != "normalized_shape")
                bounds.push_back({name, value});
            });
          });
      if (dim && schema && !bounds.empty() && !node->args().empty() && node->args()[0].isNode())
        if (std::optional<std::vector<int64_t>> selfSizes =
                constantSizes(node->args()[0].node()->type())) {
          int64_t rank = static_cast<int64_t>(selfSizes->size());
          int64_t at = *dim < 0 ? *dim + rank : *dim;
          if (at >= 0 && at < rank)
            addPositions((*selfSizes)[size_t(at)], bounds);
        }
      if (schema && reshapes(schema->name) && sizes && !node->args().empty() &&
          node->args()[0].isNode())
        if (std::optional<std::vector<int64_t>> in = constantSizes(node->args()[0].node()->type()))
          addProducts(*in, *sizes);
      if (const Arg* reduced = reducedArgument(*node); counted && reduced && reduced->isNode())
        if (std::optional<std::vector<int64_t>> operand = constantSizes(reduced->node()->type());
            operand && !operand->empty())
          if (auto made = madeBy.find(node); made != madeBy.end())
            work_.push_back({made->second, operand->back()});
    }
  }
  // Sizes by index, so that a run's cost is array arithmetic however many sizes a plan changes.
  sizeList_.assign(sizes_.begin(), sizes_.end());
  for (const RawTensor& tensor : raw) {
    Tensor out;
    out.elementBytes = tensor.elementBytes;
    out.view = tensor.view;
    out.computed = tensor.computed;
    for (int64_t size : tensor.sizes) {
      auto found = std::lower_bound(sizeList_.begin(), sizeList_.end(), size);
      if (found != sizeList_.end() && *found == size)
        out.dims.push_back(uint32_t(found - sizeList_.begin()));
      else
        out.fixed *= double(size);
    }
    out.distinct = out.dims;
    std::sort(out.distinct.begin(), out.distinct.end());
    out.distinct.erase(std::unique(out.distinct.begin(), out.distinct.end()), out.distinct.end());
    tensors_.push_back(std::move(out));
  }
}

std::vector<double> SizeShrinker::scaled(const std::map<int64_t, int64_t>& sigma) const {
  std::vector<double> out(sizeList_.begin(), sizeList_.end());
  for (const auto& [from, to] : sigma) {
    auto found = std::lower_bound(sizeList_.begin(), sizeList_.end(), from);
    if (found != sizeList_.end() && *found == from)
      out[size_t(found - sizeList_.begin())] = double(to);
  }
  return out;
}

int64_t SizeShrinker::Position::at(int64_t extent, const std::map<int64_t, int64_t>& sigma) const {
  int64_t out = fromEnd ? mapped(sigma, extent) : 0;
  for (int64_t term : terms)
    out += mapped(sigma, term);
  return out;
}

void SizeShrinker::addPositions(int64_t extent,
                                std::span<const std::pair<std::string_view, int64_t>> bounds) {
  std::set<Position>& positions = positions_[extent];
  extentsOf_[extent].insert(extent);
  for (const auto& [name, value] : bounds)
    extentsOf_[std::abs(value)].insert(extent);
  positions.insert(Position{false, {}});
  positions.insert(Position{true, {}});
  // A bound past either end is clamped there by the kernel, and is kept past it.
  auto position = [&](int64_t value) {
    if (value >= kLargestSize)
      return Position{true, {}};
    if (value <= -kLargestSize)
      return Position{false, {}};
    return value < 0 ? Position{true, {value}} : Position{false, {value}};
  };
  std::optional<Position> start;
  std::vector<int64_t> splits;
  for (const auto& [name, value] : bounds) {
    if (name == "split_sizes") {
      splits.push_back(value);
      continue;
    }
    Position at = position(value);
    if (name == "start")
      start = at;
    if (name == "length" && start) { // narrow: the end is start + length
      at = *start;
      at.terms.push_back(value);
    }
    positions.insert(at);
  }
  // split_with_sizes: each chunk ends where the sizes before it add up to.
  Position end{false, {}};
  for (int64_t size : splits) {
    end.terms.push_back(size);
    positions.insert(end);
  }
}

void SizeShrinker::addProducts(std::span<const int64_t> in, std::span<const int64_t> out) {
  // Dimensions group as reshape's stride computation groups them: runs of each side with
  // equal products.
  size_t i = 0, j = 0;
  while (i < in.size() && j < out.size()) {
    std::vector<int64_t> from{in[i++]}, to{out[j++]};
    double left = double(from[0]), right = double(to[0]);
    while (left != right) {
      if (left < right && i < in.size())
        left *= double(from.emplace_back(in[i++]));
      else if (right < left && j < out.size())
        right *= double(to.emplace_back(out[j++]));
      else
        return; // no element count in common (a size-0 tensor): nothing to keep
    }
    if (from == to || left < 2)
      continue;
    auto [product, added] = products_.insert({std::move(from), std::move(to)});
    if (added) {
      for (int64_t size : product->first)
        productsOf_[size].push_back(&*product);
      for (int64_t size : product->second)
        productsOf_[size].push_back(&*product);
    }
  }
}

bool SizeShrinker::keepsRelations(const std::map<int64_t, int64_t>& sigma,
                                  std::span<const int64_t> changed) const {
  auto ordered = [&](int64_t a, int64_t b) {
    return sign(mapped(sigma, a) - mapped(sigma, b)) == sign(a - b);
  };
  std::set<int64_t> extents;
  std::set<const Product*> products;
  for (int64_t value : changed) {
    // A value that cannot change (a diagonal, a kernel size) stays below every size it was
    // below: a band over a dimension keeps its shape.
    auto below = pinned_.lower_bound(value);
    if (below != pinned_.begin() && *std::prev(below) >= mapped(sigma, value))
      return false;
    // A threshold keeps its order against every size (a mask stays partial, or stays empty).
    for (int64_t threshold : thresholds_)
      if (!ordered(threshold, value))
        return false;
    if (thresholds_.count(value))
      for (int64_t size : sizes_)
        if (!ordered(value, size))
          return false;
    if (auto found = productsOf_.find(value); found != productsOf_.end())
      products.insert(found->second.begin(), found->second.end());
    if (auto found = extentsOf_.find(value); found != extentsOf_.end())
      extents.insert(found->second.begin(), found->second.end());
  }
  for (const Product* product : products) {
    double left = 1, right = 1;
    for (int64_t size : product->first)
      left *= double(mapped(sigma, size));
    for (int64_t size : product->second)
      right *= double(mapped(sigma, size));
    if (left != right)
      return false;
  }
  for (int64_t extent : extents) {
    std::vector<int64_t> before, after;
    for (const Position& position : positions_.at(extent)) {
      before.push_back(position.at(extent, {}));
      after.push_back(position.at(extent, sigma));
    }
    for (size_t i = 0; i < before.size(); ++i)
      for (size_t j = 0; j < i; ++j)
        if (sign(after[i] - after[j]) != sign(before[i] - before[j]))
          return false;
  }
  return true;
}

RunCost SizeShrinker::costOf(const std::map<int64_t, int64_t>& sigma) const {
  std::vector<double> values = scaled(sigma);
  std::vector<double> counts(tensors_.size());
  RunCost cost;
  double bytes = 0;
  for (size_t i = 0; i < tensors_.size(); ++i) {
    const Tensor& tensor = tensors_[i];
    double count = tensor.fixed;
    for (uint32_t dim : tensor.dims)
      count *= values[dim];
    counts[i] = count;
    if (!tensor.view)
      bytes += count * double(tensor.elementBytes);
    if (tensor.computed)
      cost.seconds += count / kElementsPerSecond;
  }
  for (const Work& work : work_)
    cost.seconds += 2 * counts[work.tensor] * double(mapped(sigma, work.reduced)) / kFlopsPerSecond;
  cost.bytes = bytes >= 1.8e19 ? UINT64_MAX : uint64_t(bytes);
  return cost;
}

RunCost SizeShrinker::cost(std::span<const SizeChange> changes) const {
  return costOf(toMap(changes));
}

std::vector<std::pair<int64_t, uint64_t>>
SizeShrinker::contributions(const std::map<int64_t, int64_t>& sigma) const {
  std::vector<double> values = scaled(sigma);
  std::vector<double> bytes(sizeList_.size());
  for (const Tensor& tensor : tensors_) {
    if (tensor.view)
      continue;
    double total = tensor.fixed * double(tensor.elementBytes);
    for (uint32_t dim : tensor.dims)
      total *= values[dim];
    for (uint32_t dim : tensor.distinct)
      bytes[dim] += total;
  }
  std::vector<std::pair<int64_t, uint64_t>> out;
  for (size_t i = 0; i < bytes.size(); ++i)
    if (bytes[i] > 0)
      out.push_back({sizeList_[i], bytes[i] >= 1.8e19 ? UINT64_MAX : uint64_t(bytes[i])});
  std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
    return a.second != b.second ? a.second > b.second : a.first > b.first;
  });
  return out;
}

std::vector<std::pair<int64_t, uint64_t>> SizeShrinker::dominantSizes(size_t count) const {
  std::vector<std::pair<int64_t, uint64_t>> out = contributions({});
  if (out.size() > count)
    out.resize(count);
  return out;
}

std::vector<SizeChange> SizeShrinker::plan(const ShrinkBudget& budget,
                                           const std::set<int64_t>& pinned) const {
  auto fits = [&](const RunCost& cost) {
    return cost.bytes <= budget.bytes && cost.seconds <= budget.seconds;
  };
  std::map<int64_t, int64_t> sigma;
  if (fits(costOf(sigma)))
    return {};
  auto isPinned = [&](int64_t value) { return pinned_.count(value) || pinned.count(value); };
  int64_t floor = std::max<int64_t>(budget.floor, 2);
  std::set<int64_t> tried;
  // What every value of the graphs is under sigma: no shrunk size may meet another value.
  std::multiset<int64_t> images(values_.begin(), values_.end());
  while (!fits(costOf(sigma))) {
    // The size that accounts for most bytes at the sizes chosen so far.
    std::optional<int64_t> next;
    for (const auto& [size, bytes] : contributions(sigma))
      if (size > floor && !isPinned(size) && !sigma.count(size) && !tried.count(size)) {
        next = size;
        break;
      }
    if (!next)
      break;
    int64_t base = *next;
    tried.insert(base);
    // The multiples of the size shrink with it.
    std::vector<int64_t> family{base};
    for (int64_t value : sizes_)
      if (value != base && value % base == 0 && !isPinned(value) && !sigma.count(value))
        family.push_back(value);
    auto collides = [&](int64_t target) {
      for (int64_t value : family) {
        int64_t image = value / base * target;
        bool own = std::find(family.begin(), family.end(), image) != family.end();
        if (images.count(image) > (own ? 1u : 0u))
          return true;
      }
      return false;
    };
    // Targets in steps that keep divisibility: from the smallest level up, growing by an eighth
    // once the steps are smaller (a bound may keep a size above most of its range); at each
    // level the first target whose values are all free.
    int64_t step = std::gcd(base, int64_t(48));
    auto roundUp = [&](int64_t value) { return (value + step - 1) / step * step; };
    int64_t target = roundUp(floor);
    for (int tries = 0; tries < 64; ++tries) {
      while (target < base && collides(target))
        target += step;
      if (target >= base)
        break;
      std::map<int64_t, int64_t> candidate = sigma;
      for (int64_t value : family)
        candidate[value] = value / base * target;
      if (keepsRelations(candidate, family)) {
        for (int64_t value : family) {
          images.erase(images.find(value));
          images.insert(candidate[value]);
        }
        sigma = std::move(candidate);
        break;
      }
      target = std::max(target + step, roundUp(target + target / 8));
    }
  }
  std::vector<SizeChange> changes;
  for (const auto& [from, to] : sigma)
    changes.push_back({from, to});
  std::sort(changes.begin(), changes.end(),
            [](const SizeChange& a, const SizeChange& b) { return a.from > b.from; });
  return changes;
}

std::set<int64_t> SizeShrinker::sizesAt(const Node& node) const {
  std::set<int64_t> out;
  auto addSizes = [&](const Node& value) {
    if (std::optional<std::vector<int64_t>> sizes = constantSizes(value.type()))
      for (int64_t size : *sizes)
        if (sizes_.count(size))
          out.insert(size);
  };
  addSizes(node);
  node.forEachInput([&](const Node* input) {
    addSizes(*input);
    // An element of a call's results (split's chunks): the sizes of the call's own arguments.
    if (input->type().kind != TypeAnnotation::Kind::Tensor && input->isCall())
      for (int64_t size : sizesAt(*input))
        out.insert(size);
  });
  if (node.isCall())
    forEachIntArgument(node, node.args(), node.kwargs(),
                       [&](const Arg& arg, IntRole role, int, std::string_view) {
                         if (role == IntRole::Size || role == IntRole::Threshold)
                           forEachInteger(arg, [&](int64_t value, int) {
                             if (std::abs(value) >= 2)
                               out.insert(std::abs(value));
                           });
                       });
  return out;
}

std::vector<SizeEdit> sizeEdits(const Graph& graph, std::span<const SizeChange> changes) {
  std::map<int64_t, int64_t> sigma = toMap(changes);
  std::vector<SizeEdit> edits;
  for (const Node* node : graph) {
    if (!node->isCall() || !schemaOf(*node))
      continue;
    forEachIntArgument(*node, node->args(), node->kwargs(),
                       [&](const Arg& arg, IntRole role, int position, std::string_view keyword) {
                         if (role != IntRole::Size && role != IntRole::Threshold)
                           return;
                         forEachInteger(arg, [&](int64_t value, int element) {
                           int64_t changed = mapped(sigma, value);
                           if (changed != value)
                             edits.push_back({node, position, keyword, element, changed});
                         });
                       });
  }
  return edits;
}

int64_t changedSize(int64_t value, std::span<const SizeChange> changes) {
  for (const SizeChange& change : changes)
    if (change.from == std::abs(value))
      return value < 0 ? -change.to : change.to;
  return value;
}

std::optional<std::vector<int64_t>> changedStrides(std::span<const int64_t> sizes,
                                                   std::span<const int64_t> strides,
                                                   std::span<const int64_t> newSizes,
                                                   std::span<const SizeChange> changes) {
  size_t rank = sizes.size();
  if (strides.size() != rank || newSizes.size() != rank)
    return std::nullopt;
  std::vector<int64_t> out(strides.begin(), strides.end());
  // Inner dimensions first (stride-0 dimensions keep their 0). A dimension whose stride is the
  // extent of the previous one's is dense there and stays so at the new sizes, size-1 ones
  // included (their strides show in a clone's); another size-1 dimension keeps its stride; any
  // other one steps over a row with a gap, whose width is kept or changed with the sizes.
  std::vector<size_t> order;
  for (size_t i = 0; i < rank; ++i)
    if (strides[i] > 0)
      order.push_back(i);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return strides[a] != strides[b] ? strides[a] < strides[b] : a > b;
  });
  std::optional<size_t> previous;
  for (size_t i : order) {
    if (!previous) {
      previous = i; // the innermost step (1, or 2 for interleaved values) stays
      continue;
    }
    int64_t oldStride = strides[*previous], newStride = out[*previous];
    int64_t oldSize = sizes[*previous], newSize = newSizes[*previous];
    if (strides[i] == oldStride * oldSize) {
      out[i] = newStride * newSize;
    } else if (sizes[i] == 1) {
      continue;
    } else {
      if (strides[i] % oldStride != 0)
        return std::nullopt;
      int64_t width = strides[i] / oldStride; // the previous dimension's row, gaps included
      if (width < oldSize)
        return std::nullopt; // overlapping
      int64_t newWidth = changedSize(width, changes);
      if (newWidth <= newSize)
        return std::nullopt;
      out[i] = newStride * newWidth;
    }
    previous = i;
  }
  return out;
}

} // namespace declone
