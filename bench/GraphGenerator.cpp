// Synthetic post-grad FX graphs: a seeded op mix with PyTorch's view layouts and free lists.
#include "GraphGenerator.h"

#include "declone/io/Reader.h"
#include "declone/io/Writer.h"
#include "declone/support/Random.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <charconv>
#include <limits>
#include <memory>
#include <span>
#include <utility>
#include <vector>

namespace declone::bench {
namespace {

using Random = DeterministicRandom;

void appendInt(std::string& out, int64_t value) {
  char buffer[24];
  char* end = std::to_chars(buffer, buffer + sizeof buffer, value).ptr;
  out.append(buffer, end);
}

/// A size or stride: coef * s0^power with power 0 or 1. A tensor has at most one symbolic
/// dimension, so products of its sizes never need s0^2 and sympy spells them `64*s0`.
struct Dim {
  int64_t coef = 0;
  uint8_t power = 0;
  bool operator==(const Dim&) const = default;
  [[nodiscard]] bool isStatic() const { return power == 0; }
  /// PyTorch's `size < 2` tests; a backed symbol is never 0 or 1 (it would be specialised).
  [[nodiscard]] bool lessThanTwo() const { return power == 0 && coef < 2; }
};

Dim operator*(Dim a, Dim b) {
  assert(a.power + b.power <= 1 && "at most one symbolic dimension per tensor");
  return {a.coef * b.coef, static_cast<uint8_t>(a.power + b.power)};
}

/// The value s0 stands for when strides must be ordered; PyTorch orders them by size hints too.
constexpr int64_t kSymbolHint = 1024;
int64_t hinted(Dim d) {
  return d.power ? d.coef * kSymbolHint : d.coef;
}

void appendDim(std::string& out, Dim d) {
  if (d.isStatic()) {
    appendInt(out, d.coef);
    return;
  }
  if (d.coef != 1) {
    appendInt(out, d.coef);
    out += '*';
  }
  out += "s0";
}

constexpr size_t kMaxRank = 4;

struct Layout {
  size_t rank = 0;
  std::array<Dim, kMaxRank> sizes{};
  std::array<Dim, kMaxRank> strides{};

  [[nodiscard]] bool sameSizes(const Layout& other) const {
    return rank == other.rank &&
           std::equal(sizes.begin(), sizes.begin() + rank, other.sizes.begin());
  }
  [[nodiscard]] bool sameLayout(const Layout& other) const {
    return sameSizes(other) &&
           std::equal(strides.begin(), strides.begin() + rank, other.strides.begin());
  }
  [[nodiscard]] bool hasSymbolicSize() const {
    return std::any_of(sizes.begin(), sizes.begin() + rank, [](Dim d) { return !d.isStatic(); });
  }
  [[nodiscard]] int64_t numelHint() const {
    int64_t numel = 1;
    for (size_t i = 0; i < rank; ++i)
      numel *= hinted(sizes[i]);
    return numel;
  }
  void erase(size_t dim) {
    std::copy(sizes.begin() + dim + 1, sizes.begin() + rank, sizes.begin() + dim);
    std::copy(strides.begin() + dim + 1, strides.begin() + rank, strides.begin() + dim);
    --rank;
    sizes[rank] = strides[rank] = Dim{};
  }
  void insert(size_t dim, Dim size, Dim stride) {
    assert(rank < kMaxRank);
    std::copy_backward(sizes.begin() + dim, sizes.begin() + rank, sizes.begin() + rank + 1);
    std::copy_backward(strides.begin() + dim, strides.begin() + rank, strides.begin() + rank + 1);
    sizes[dim] = size;
    strides[dim] = stride;
    ++rank;
  }
};

/// Row-major strides: torch.empty, contiguous_format, and every view of a contiguous tensor.
Layout contiguous(Layout layout) {
  Dim stride{1, 0};
  for (size_t i = layout.rank; i-- > 0;) {
    layout.strides[i] = stride;
    if (i > 0) // the full product (numel) is not a stride
      stride = stride * layout.sizes[i];
  }
  return layout;
}

/// Exactly row-major strides, size-1 dimensions included. Stricter than PyTorch's
/// is_contiguous(); the generator only views such tensors, so their views stay row-major.
bool isRowMajor(const Layout& layout) {
  return layout.sameLayout(contiguous(layout));
}

/// PyTorch's is_contiguous(memory_format) check: dense in the order `dims` (innermost first),
/// ignoring the strides of size-1 dimensions.
bool isDenseInOrder(const Layout& layout, std::span<const size_t> dims) {
  Dim expected{1, 0};
  for (size_t d : dims) {
    if (layout.sizes[d] == Dim{1, 0})
      continue;
    if (layout.strides[d] != expected)
      return false;
    expected = expected * layout.sizes[d];
  }
  return true;
}
bool isContiguous(const Layout& layout) {
  constexpr size_t kInnermostFirst[] = {3, 2, 1, 0};
  return isDenseInOrder(layout,
                        std::span<const size_t>(kInnermostFirst).subspan(kMaxRank - layout.rank));
}
constexpr size_t kChannelsLastOrder[] = {1, 3, 2, 0};
bool isChannelsLast(const Layout& layout) {
  return layout.rank == 4 && isDenseInOrder(layout, kChannelsLastOrder);
}
Layout channelsLast(Layout layout) {
  Dim stride{1, 0};
  for (size_t d : kChannelsLastOrder) {
    layout.strides[d] = stride;
    if (d != 0)
      stride = stride * layout.sizes[d];
  }
  return layout;
}

/// c10's compute_non_overlapping_and_dense.
bool isNonOverlappingAndDense(const Layout& layout) {
  if (layout.rank == 1)
    return layout.sizes[0].lessThanTwo() || layout.strides[0] == Dim{1, 0};
  std::array<size_t, kMaxRank> perm{0, 1, 2, 3};
  std::stable_sort(perm.begin(), perm.begin() + layout.rank, [&](size_t a, size_t b) {
    if (layout.sizes[a].lessThanTwo())
      return false;
    if (layout.sizes[b].lessThanTwo())
      return true;
    return hinted(layout.strides[a]) < hinted(layout.strides[b]);
  });
  Dim required{1, 0};
  for (size_t i = 0; i < layout.rank; ++i) {
    Dim size = layout.sizes[perm[i]];
    if (size.lessThanTwo())
      return true;
    if (layout.strides[perm[i]] != required)
      return false;
    required = required * size;
  }
  return true;
}

/// Writes through such a tensor fail in PyTorch ("more than one element of the written-to
/// tensor refers to a single memory location").
bool hasInternalOverlap(const Layout& layout) {
  for (size_t d = 0; d < layout.rank; ++d)
    if (layout.strides[d] == Dim{} && !layout.sizes[d].lessThanTwo())
      return true;
  return false;
}

/// Dense strides in the operands' stride order, as ATen's infer_dense_strides (one operand)
/// and TensorIterator's reorder_dimensions + compatible_stride (several operands of one shape)
/// compute them: an insertion sort where stride-0 dimensions and ties are ambiguous and equal
/// strides put the smaller size inside.
Layout denseInStrideOrder(std::span<const Layout> operands) {
  Layout layout = operands[0];
  const size_t rank = layout.rank;
  std::array<size_t, kMaxRank> perm{}; // perm[0] is the innermost dimension
  for (size_t i = 0; i < rank; ++i)
    perm[i] = rank - 1 - i;
  auto shouldSwap = [&](size_t dim0, size_t dim1) {
    for (const Layout& operand : operands) {
      int64_t stride0 = hinted(operand.strides[dim0]);
      int64_t stride1 = hinted(operand.strides[dim1]);
      if (stride0 == 0 || stride1 == 0)
        continue;
      if (stride0 != stride1)
        return stride0 < stride1 ? -1 : 1;
      if (hinted(layout.sizes[dim0]) > hinted(layout.sizes[dim1]))
        return 1;
    }
    return 0;
  };
  for (size_t i = 1; i < rank; ++i) {
    size_t dim1 = i;
    for (size_t dim0 = i; dim0-- > 0;) {
      int comparison = shouldSwap(perm[dim0], perm[dim1]);
      if (comparison > 0) {
        std::swap(perm[dim0], perm[dim1]);
        dim1 = dim0;
      } else if (comparison < 0) {
        break;
      }
    }
  }
  Dim stride{1, 0};
  for (size_t i = 0; i < rank; ++i) {
    size_t dim = perm[i];
    layout.strides[dim] = stride;
    if (!layout.sizes[dim].lessThanTwo())
      stride = stride * layout.sizes[dim];
  }
  return layout;
}

/// Layout of clone(preserve_format) and empty_like: the input's strides when it is dense,
/// otherwise dense in its stride order.
Layout preserveFormat(const Layout& layout) {
  return isNonOverlappingAndDense(layout) ? layout
                                          : denseInStrideOrder(std::span<const Layout>(&layout, 1));
}

/// TensorIterator's output layout (add, mul, relu). Tensor operands have one shape; a Python
/// scalar operand is a 0-dim tensor, so the shapes differ and the fast setup (contiguous,
/// channels_last, or shared dense strides) is skipped.
Layout pointwiseLayout(std::span<const Layout> operands, bool withScalar) {
  const Layout& first = operands[0];
  auto all = [&](auto&& pred) { return std::all_of(operands.begin(), operands.end(), pred); };
  if (!withScalar) {
    if (all(isContiguous))
      return contiguous(first);
    if (all(isChannelsLast))
      return channelsLast(first);
    if (all([&](const Layout& operand) {
          return isNonOverlappingAndDense(operand) && operand.sameLayout(first);
        }))
      return first;
  }
  return denseInStrideOrder(operands);
}

/// The FX name stems the generator uses. Names follow torch.fx's _Namespace: the stem, then
/// stem_1, stem_2, ... with one counter per stem (so aten.mul and operator.mul share `mul`),
/// and a stem that shadows a Python builtin (`slice`) starts at _1.
enum class Stem : uint8_t {
  Slice,
  View,
  Permute,
  Transpose,
  Select,
  Expand,
  Clone,
  Add,
  Mul,
  Relu,
  AddInplace,
  Copy,
  Mm,
  EmptyLike,
  AutoFunctionalized,
  Getitem,
  Count
};

struct StemInfo {
  std::string_view name;
  bool isBuiltin;
  std::string_view code; ///< the source line a `# File:` comment before it quotes
};
constexpr std::array<StemInfo, static_cast<size_t>(Stem::Count)> kStems = {{
    {"slice", true, "y = x[:, :n]"},
    {"view", false, "x = x.view(-1, self.num_heads, self.head_dim)"},
    {"permute", false, "q = q.permute(0, 2, 1, 3)"},
    {"transpose", false, "k = k.transpose(1, 2)"},
    {"select", false, "x = x[:, 0]"},
    {"expand", false, "mask = mask.expand(bsz, -1, -1)"},
    {"clone", false, "out = x.contiguous()"},
    {"add", false, "hidden_states = residual + hidden_states"},
    {"mul", false, "x = x * self.scale"},
    {"relu", false, "x = F.relu(x)"},
    {"add_", false, "x += bias"},
    {"copy_", false, "cache.copy_(x)"},
    {"mm", false, "return F.linear(x, layer.weight, bias)"},
    {"empty_like", false, "out = torch.empty_like(x)"},
    {"auto_functionalized", false, "torch.ops._C.rms_norm(out, input, weight, epsilon)"},
    {"getitem", false, "x = self.norm(x)"},
}};

constexpr std::string_view kSourceFiles[] = {"/srv/model/layers.py", "/srv/model/attention.py",
                                             "/srv/model/mlp.py", "/srv/model/norm.py"};

/// The ops a generation step starts with, how often, and how many statements they may take.
enum class Op : uint8_t {
  Slice,
  View,
  Permute,
  Transpose,
  Select,
  Expand,
  Add,
  Mul,
  Relu,
  AddInplace,
  Copy,
  Mm,
  RmsNorm
};
struct OpWeight {
  Op op;
  uint32_t weight;
  size_t maxStatements;
};
// Roughly the mix of a post-grad transformer graph: views dominate, then pointwise and mm.
constexpr OpWeight kOpMix[] = {{Op::Slice, 8, 1},      {Op::View, 10, 2},  {Op::Permute, 5, 1},
                               {Op::Transpose, 4, 1},  {Op::Select, 3, 1}, {Op::Expand, 4, 2},
                               {Op::Add, 10, 1},       {Op::Mul, 8, 1},    {Op::Relu, 7, 1},
                               {Op::AddInplace, 3, 1}, {Op::Copy, 2, 1},   {Op::Mm, 9, 4},
                               {Op::RmsNorm, 3, 3}};

constexpr std::string_view kAddScalars[] = {"1", "1e-05", "1.0", "-1"};
constexpr std::string_view kMulScalars[] = {"0.5", "0.125", "2", "-1.0", "0.08838834764831845"};
constexpr int64_t kHiddenSizes[] = {64, 128, 256, 512};
constexpr int64_t kExpandSizes[] = {2, 4, 8, 16};
constexpr uint32_t kNone = std::numeric_limits<uint32_t>::max();
/// Values reachable as arguments: the newest ones, as in a real graph where most arguments
/// were produced a few lines earlier.
constexpr size_t kPoolSize = 32;
/// expand and mm (the only ops that grow tensors) stay below this many elements, counting s0 as
/// its hint, so sizes stay realistic and products never overflow.
constexpr int64_t kMaxNumel = int64_t{1} << 24;

struct TensorValue {
  uint32_t node = kNone;
  Layout layout;
  uint32_t storage = kNone; ///< the node that allocated the memory (itself unless a view)
  bool isView = false;
  bool isInput = false;
};

/// One placeholder or statement; its text lives in Generator::text_.
struct NodeRecord {
  uint64_t textBegin = 0;
  uint32_t textLength = 0;
  uint32_t inputsBegin = 0; ///< its argument references are inputs_[inputsBegin, next node's)
  uint32_t nameBegin = 0;   ///< in names_
  uint16_t nameLength = 0;
  bool isPlaceholder = false;
};

/// How a size list (view, expand) spells its entries: at most one inferred `-1`, and the
/// symbolic entry as a Sym node.
struct SizeSpelling {
  size_t inferredDim = kMaxRank; ///< kMaxRank: none
  uint32_t symNode = kNone;
};

class Generator {
public:
  explicit Generator(const GeneratorOptions& options)
      : options_(options), random_(options.seed),
        maxPlaceholders_(std::min<size_t>(2000, 16 + options.nodes / 200)) {}

  std::string run();

private:
  // --- Text and node bookkeeping ------------------------------------------------------------
  std::string_view name(uint32_t node) const {
    return std::string_view(names_).substr(nodes_[node].nameBegin, nodes_[node].nameLength);
  }
  uint32_t newNode(bool isPlaceholder, std::string_view nodeName);
  uint32_t addPlaceholder(const Layout* layout);
  uint32_t beginStatement(Stem stem);
  void endStatement(uint32_t node) {
    nodes_[node].textLength = static_cast<uint32_t>(text_.size() - nodes_[node].textBegin);
  }
  /// Writes a reference to `node` in the current statement.
  void ref(uint32_t node) {
    text_ += name(node);
    inputs_.push_back(node);
    used_[node] = 1;
  }
  void appendTensorType(const Layout& layout);
  void annotate(const Layout& layout) {
    text_ += ": \"";
    appendTensorType(layout);
    text_ += '"';
  }
  void appendInts(std::span<const size_t> values);

  // --- Values ---------------------------------------------------------------------------------
  void push(const TensorValue& value);
  void pushFresh(uint32_t node, const Layout& layout) { push({node, layout, node, false, false}); }
  void pushView(uint32_t node, const Layout& layout, const TensorValue& base) {
    push({node, layout, base.storage, true, false});
  }
  const TensorValue& recent(size_t i) const {
    size_t n = pool_.size();
    return pool_[(poolNext_ + n - 1 - i) % n];
  }
  template <class Pred> std::optional<TensorValue> pick(Pred&& pred);
  std::optional<TensorValue> findSameSizes(const TensorValue& value);
  uint32_t symNode(Dim dim);
  SizeSpelling prepareSizes(const Layout& layout, bool allowInferredStatic);
  void appendSizes(const Layout& layout, const SizeSpelling& spelling);
  struct Weight {
    int64_t in;
    int64_t out;
    uint32_t node;
  };
  std::optional<Weight> linearWeight(int64_t in);
  std::optional<uint32_t> normWeight(int64_t hidden);

  // --- Ops ------------------------------------------------------------------------------------
  void step();
  bool emit(Op op);
  bool emitSlice();
  bool emitView();
  uint32_t emitViewTo(const TensorValue& input, const Layout& result);
  bool emitPermute();
  bool emitTranspose();
  bool emitSelect();
  bool emitExpand();
  bool emitClone();
  bool emitPointwise(Stem stem);
  bool emitAddInplace();
  bool emitCopy();
  bool emitMm();
  bool emitRmsNorm();

  std::string assemble(std::span<const uint32_t> returned);

  const GeneratorOptions options_;
  Random random_;
  std::string_view dtype_;
  std::string_view device_;
  const size_t maxPlaceholders_;

  std::string text_;  ///< placeholder and statement texts, without free lists or newlines
  std::string names_; ///< node names (text_ also holds them, but grows while they are read)
  std::vector<NodeRecord> nodes_;
  std::vector<uint32_t> inputs_;
  std::vector<uint8_t> used_;
  std::array<uint32_t, static_cast<size_t>(Stem::Count)> stemCounts_{};
  size_t placeholders_ = 0;
  size_t statements_ = 0;
  size_t clones_ = 0;

  std::vector<TensorValue> pool_;
  size_t poolNext_ = 0;
  std::vector<TensorValue> activations_;
  uint32_t symbol_ = kNone;                           ///< the `Sym(s0)` placeholder
  std::vector<std::pair<int64_t, uint32_t>> symMuls_; ///< coef -> `Sym(coef*s0)` node
  std::vector<Weight> linearWeights_;
  std::vector<std::pair<int64_t, uint32_t>> normWeights_;

  bool commentDue_ = false;
  uint32_t sourceLine_ = 20;
};

uint32_t Generator::newNode(bool isPlaceholder, std::string_view nodeName) {
  auto id = static_cast<uint32_t>(nodes_.size());
  NodeRecord record;
  record.textBegin = text_.size();
  record.inputsBegin = static_cast<uint32_t>(inputs_.size());
  record.nameBegin = static_cast<uint32_t>(names_.size());
  record.nameLength = static_cast<uint16_t>(nodeName.size());
  record.isPlaceholder = isPlaceholder;
  nodes_.push_back(record);
  names_ += nodeName;
  used_.push_back(0);
  return id;
}

uint32_t Generator::addPlaceholder(const Layout* layout) {
  // AOTAutograd's inference inputs are arg0_1, arg1_1, ... in signature order.
  std::string nodeName = "arg";
  appendInt(nodeName, static_cast<int64_t>(placeholders_++));
  nodeName += "_1";
  uint32_t id = newNode(true, nodeName);
  text_ += nodeName;
  if (layout)
    annotate(*layout);
  else
    text_ += ": \"Sym(s0)\"";
  endStatement(id);
  return id;
}

uint32_t Generator::beginStatement(Stem stem) {
  const StemInfo& info = kStems[static_cast<size_t>(stem)];
  uint64_t textBegin = text_.size(); // the comment block belongs to the statement
  if (commentDue_) {
    // print_readable separates stack-trace groups by an indented blank line and puts the
    // comment one column right of the code.
    commentDue_ = false;
    if (statements_ > 0)
      text_ += "        \n";
    if (random_.chance(0.05)) {
      text_ += "        # No stacktrace found for following nodes\n";
    } else {
      sourceLine_ += 1 + static_cast<uint32_t>(random_.below(40));
      text_ += "         # File: ";
      text_ += random_.choose(std::span<const std::string_view>(kSourceFiles));
      text_ += ':';
      appendInt(text_, sourceLine_);
      text_ += " in forward, code: ";
      text_ += info.code;
      text_ += '\n';
    }
  }
  uint32_t& count = stemCounts_[static_cast<size_t>(stem)];
  std::string nodeName(info.name);
  if (count > 0 || info.isBuiltin) {
    count += count == 0 ? 1 : 0; // a builtin's first name is already _1
    nodeName += '_';
    appendInt(nodeName, count);
  }
  ++count;
  ++statements_;
  uint32_t id = newNode(false, nodeName);
  nodes_[id].textBegin = textBegin;
  text_ += "        ";
  text_ += nodeName;
  return id;
}

void Generator::appendTensorType(const Layout& layout) {
  text_ += dtype_;
  text_ += '[';
  for (size_t i = 0; i < layout.rank; ++i) {
    if (i)
      text_ += ", ";
    appendDim(text_, layout.sizes[i]);
  }
  text_ += "][";
  for (size_t i = 0; i < layout.rank; ++i) {
    if (i)
      text_ += ", ";
    appendDim(text_, layout.strides[i]);
  }
  text_ += ']';
  text_ += device_;
}

void Generator::appendInts(std::span<const size_t> values) {
  text_ += '[';
  for (size_t i = 0; i < values.size(); ++i) {
    if (i)
      text_ += ", ";
    appendInt(text_, static_cast<int64_t>(values[i]));
  }
  text_ += ']';
}

void Generator::push(const TensorValue& value) {
  if (pool_.size() < kPoolSize)
    pool_.push_back(value);
  else
    pool_[poolNext_] = value;
  poolNext_ = (poolNext_ + 1) % kPoolSize;
}

template <class Pred> std::optional<TensorValue> Generator::pick(Pred&& pred) {
  size_t n = pool_.size();
  // Mostly the newest value nothing reads yet, which makes the dataflow chains of a real
  // graph and keeps values that nobody uses rare.
  if (random_.chance(0.8))
    for (size_t i = 0; i < n; ++i)
      if (const TensorValue& value = recent(i); !used_[value.node] && pred(value))
        return value;
  // Sometimes a graph input again, like a weight or a residual stream read by every layer.
  if (random_.chance(0.03)) {
    size_t start = random_.below(activations_.size());
    for (size_t i = 0; i < activations_.size(); ++i)
      if (const TensorValue& value = activations_[(start + i) % activations_.size()]; pred(value))
        return value;
  }
  size_t start = random_.below(n);
  for (size_t i = 0; i < n; ++i)
    if (const TensorValue& value = pool_[(start + i) % n]; pred(value))
      return value;
  return std::nullopt;
}

std::optional<TensorValue> Generator::findSameSizes(const TensorValue& value) {
  for (size_t i = 0; i < pool_.size(); ++i)
    if (const TensorValue& other = recent(i);
        other.node != value.node && other.layout.sameSizes(value.layout))
      return other;
  return std::nullopt;
}

uint32_t Generator::symNode(Dim dim) {
  assert(!dim.isStatic() && symbol_ != kNone);
  if (dim.coef == 1)
    return symbol_;
  for (auto [coef, node] : symMuls_)
    if (coef == dim.coef)
      return node;
  // Dynamo traces `x.shape[0] * 2` as an operator.mul node that FX prints infix.
  uint32_t id = beginStatement(Stem::Mul);
  text_ += ": \"Sym(";
  appendDim(text_, dim);
  text_ += ")\" = ";
  ref(symbol_);
  text_ += " * ";
  appendInt(text_, dim.coef);
  endStatement(id);
  symMuls_.emplace_back(dim.coef, id);
  return id;
}

SizeSpelling Generator::prepareSizes(const Layout& layout, bool allowInferredStatic) {
  SizeSpelling spelling;
  for (size_t i = 0; i < layout.rank; ++i) {
    if (layout.sizes[i].isStatic())
      continue;
    if (random_.chance(0.5))
      spelling.inferredDim = i;
    else
      spelling.symNode = symNode(layout.sizes[i]);
    return spelling;
  }
  if (allowInferredStatic && random_.chance(0.25))
    spelling.inferredDim = 0;
  return spelling;
}

void Generator::appendSizes(const Layout& layout, const SizeSpelling& spelling) {
  text_ += '[';
  for (size_t i = 0; i < layout.rank; ++i) {
    if (i)
      text_ += ", ";
    if (i == spelling.inferredDim)
      text_ += "-1";
    else if (!layout.sizes[i].isStatic())
      ref(spelling.symNode);
    else
      appendInt(text_, layout.sizes[i].coef);
  }
  text_ += ']';
}

std::optional<Generator::Weight> Generator::linearWeight(int64_t in) {
  size_t matching = 0;
  for (const Weight& weight : linearWeights_)
    matching += weight.in == in ? 1 : 0;
  // A couple of projections per input width, reused the way a model's layers share shapes.
  if (matching < 2 && placeholders_ < maxPlaceholders_) {
    Layout layout;
    layout.rank = 2;
    layout.sizes[0] = {random_.choose(std::span<const int64_t>(kHiddenSizes)), 0};
    layout.sizes[1] = {in, 0};
    layout = contiguous(layout);
    Weight weight{in, layout.sizes[0].coef, addPlaceholder(&layout)};
    linearWeights_.push_back(weight);
    return weight;
  }
  if (matching == 0)
    return std::nullopt;
  size_t chosen = random_.below(matching);
  for (const Weight& weight : linearWeights_)
    if (weight.in == in && chosen-- == 0)
      return weight;
  return std::nullopt;
}

std::optional<uint32_t> Generator::normWeight(int64_t hidden) {
  for (auto [size, node] : normWeights_)
    if (size == hidden)
      return node;
  if (placeholders_ >= maxPlaceholders_)
    return std::nullopt;
  Layout layout;
  layout.rank = 1;
  layout.sizes[0] = {hidden, 0};
  layout = contiguous(layout);
  uint32_t node = addPlaceholder(&layout);
  normWeights_.emplace_back(hidden, node);
  return node;
}

// --- Ops ----------------------------------------------------------------------------------------

void Generator::step() {
  size_t remaining = options_.nodes - statements_;
  commentDue_ = random_.chance(0.15);
  // A clone whenever the running share falls behind the target, dithered so that clones land
  // at random positions rather than every 1/F statements.
  double deficit =
      options_.cloneFraction * static_cast<double>(statements_ + 1) - static_cast<double>(clones_);
  if (deficit > 0 && random_.chance(deficit) && emitClone())
    return;
  uint64_t total = 0;
  for (const OpWeight& entry : kOpMix)
    total += entry.maxStatements <= remaining ? entry.weight : 0;
  for (int attempt = 0; attempt < 4; ++attempt) {
    uint64_t ticket = random_.below(total);
    for (const OpWeight& entry : kOpMix) {
      if (entry.maxStatements > remaining)
        continue;
      if (ticket < entry.weight) {
        if (emit(entry.op))
          return;
        break;
      }
      ticket -= entry.weight;
    }
  }
  [[maybe_unused]] bool emitted = emitPointwise(Stem::Relu); // applies to any tensor
  assert(emitted);
}

bool Generator::emit(Op op) {
  switch (op) {
  case Op::Slice:
    return emitSlice();
  case Op::View:
    return emitView();
  case Op::Permute:
    return emitPermute();
  case Op::Transpose:
    return emitTranspose();
  case Op::Select:
    return emitSelect();
  case Op::Expand:
    return emitExpand();
  case Op::Add:
    return emitPointwise(Stem::Add);
  case Op::Mul:
    return emitPointwise(Stem::Mul);
  case Op::Relu:
    return emitPointwise(Stem::Relu);
  case Op::AddInplace:
    return emitAddInplace();
  case Op::Copy:
    return emitCopy();
  case Op::Mm:
    return emitMm();
  case Op::RmsNorm:
    return emitRmsNorm();
  }
  return false;
}

/// Dimensions a slice or select can shrink: constant sizes of at least 2.
size_t shrinkableDims(const Layout& layout, std::array<size_t, kMaxRank>& dims) {
  size_t count = 0;
  for (size_t d = 0; d < layout.rank; ++d)
    if (layout.sizes[d].isStatic() && layout.sizes[d].coef >= 2)
      dims[count++] = d;
  return count;
}

bool Generator::emitSlice() {
  std::array<size_t, kMaxRank> dims{};
  std::optional<TensorValue> input =
      pick([&](const TensorValue& value) { return shrinkableDims(value.layout, dims) > 0; });
  if (!input)
    return false;
  size_t dim = dims[random_.below(shrinkableDims(input->layout, dims))];
  int64_t size = input->layout.sizes[dim].coef;
  // Halves and leading blocks (x[:, :n], qkv splits); now and then a no-op full slice, which
  // post-grad graphs are full of.
  int64_t length = random_.chance(0.1)   ? size
                   : random_.chance(0.5) ? size / 2
                                         : 1 + static_cast<int64_t>(random_.below(size - 1));
  int64_t start = random_.chance(0.5) ? 0 : static_cast<int64_t>(random_.below(size - length + 1));
  Layout result = input->layout;
  result.sizes[dim] = {length, 0};

  uint32_t id = beginStatement(Stem::Slice);
  annotate(result);
  text_ += " = torch.ops.aten.slice.Tensor(";
  ref(input->node);
  text_ += ", ";
  appendInt(text_, static_cast<int64_t>(dim));
  text_ += ", ";
  appendInt(text_, start);
  text_ += ", ";
  // `x[a:]` traces with the end as sys.maxsize.
  bool toEnd = start + length == size && random_.chance(0.5);
  appendInt(text_, toEnd ? std::numeric_limits<int64_t>::max() : start + length);
  text_ += ')';
  endStatement(id);
  pushView(id, result, *input);
  return true;
}

bool Generator::emitView() {
  // Only views of row-major tensors: their result is row-major too, whatever the new shape.
  std::optional<TensorValue> input =
      pick([](const TensorValue& value) { return isRowMajor(value.layout); });
  if (!input)
    return false;
  const Layout& in = input->layout;
  enum class Mode : uint8_t { Merge, Split, Unsqueeze, Flatten };
  std::array<Mode, 4> modes{};
  size_t count = 0;
  std::array<size_t, kMaxRank> splittable{};
  size_t splittableCount = 0;
  for (size_t d = 0; d < in.rank; ++d)
    if (in.sizes[d].isStatic() && in.sizes[d].coef >= 4 && in.sizes[d].coef % 2 == 0)
      splittable[splittableCount++] = d;
  if (in.rank >= 2)
    modes[count++] = Mode::Merge;
  if (in.rank < kMaxRank && splittableCount > 0)
    modes[count++] = Mode::Split;
  if (in.rank < kMaxRank)
    modes[count++] = Mode::Unsqueeze;
  if (in.rank >= 3)
    modes[count++] = Mode::Flatten;
  if (count == 0)
    return false;

  Layout result = in;
  switch (modes[random_.below(count)]) {
  case Mode::Merge: {
    size_t d = random_.below(in.rank - 1);
    result.sizes[d] = in.sizes[d] * in.sizes[d + 1];
    result.erase(d + 1);
    break;
  }
  case Mode::Split: {
    size_t d = splittable[random_.below(splittableCount)];
    int64_t size = in.sizes[d].coef;
    std::array<int64_t, 3> factors{};
    size_t factorCount = 0;
    for (int64_t factor : {2, 4, 8})
      if (size % factor == 0 && size / factor >= 2)
        factors[factorCount++] = factor;
    int64_t factor = factors[random_.below(factorCount)];
    bool factorInside = random_.chance(0.5);
    result.sizes[d] = {factorInside ? size / factor : factor, 0};
    result.insert(d + 1, {factorInside ? factor : size / factor, 0}, {});
    break;
  }
  case Mode::Unsqueeze:
    result.insert(random_.below(in.rank + 1), {1, 0}, {});
    break;
  case Mode::Flatten: {
    Dim outer{1, 0};
    for (size_t d = 0; d + 1 < in.rank; ++d)
      outer = outer * in.sizes[d];
    result = Layout{};
    result.rank = 2;
    result.sizes[0] = outer;
    result.sizes[1] = in.sizes[in.rank - 1];
    break;
  }
  }
  emitViewTo(*input, contiguous(result));
  return true;
}

uint32_t Generator::emitViewTo(const TensorValue& input, const Layout& result) {
  SizeSpelling spelling = prepareSizes(result, true);
  uint32_t id = beginStatement(Stem::View);
  annotate(result);
  text_ += " = torch.ops.aten.view.default(";
  ref(input.node);
  text_ += ", ";
  appendSizes(result, spelling);
  text_ += ')';
  endStatement(id);
  pushView(id, result, input);
  return id;
}

bool Generator::emitPermute() {
  std::optional<TensorValue> input =
      pick([](const TensorValue& value) { return value.layout.rank >= 2; });
  if (!input)
    return false;
  const Layout& in = input->layout;
  std::array<size_t, kMaxRank> perm{0, 1, 2, 3};
  for (size_t i = in.rank; i-- > 1;)
    std::swap(perm[i], perm[random_.below(i + 1)]);
  if (std::is_sorted(perm.begin(), perm.begin() + in.rank))
    std::swap(perm[0], perm[1]);
  Layout result = in;
  for (size_t i = 0; i < in.rank; ++i) {
    result.sizes[i] = in.sizes[perm[i]];
    result.strides[i] = in.strides[perm[i]];
  }
  uint32_t id = beginStatement(Stem::Permute);
  annotate(result);
  text_ += " = torch.ops.aten.permute.default(";
  ref(input->node);
  text_ += ", ";
  appendInts(std::span<const size_t>(perm.data(), in.rank));
  text_ += ')';
  endStatement(id);
  pushView(id, result, *input);
  return true;
}

bool Generator::emitTranspose() {
  std::optional<TensorValue> input =
      pick([](const TensorValue& value) { return value.layout.rank >= 2; });
  if (!input)
    return false;
  size_t rank = input->layout.rank;
  size_t dim0 = random_.below(rank);
  size_t dim1 = random_.below(rank - 1);
  dim1 += dim1 >= dim0 ? 1 : 0;
  if (dim0 > dim1)
    std::swap(dim0, dim1);
  Layout result = input->layout;
  std::swap(result.sizes[dim0], result.sizes[dim1]);
  std::swap(result.strides[dim0], result.strides[dim1]);
  uint32_t id = beginStatement(Stem::Transpose);
  annotate(result);
  text_ += " = torch.ops.aten.transpose.int(";
  ref(input->node);
  text_ += ", ";
  appendInt(text_, static_cast<int64_t>(dim0));
  text_ += ", ";
  appendInt(text_, static_cast<int64_t>(dim1));
  text_ += ')';
  endStatement(id);
  pushView(id, result, *input);
  return true;
}

bool Generator::emitSelect() {
  std::array<size_t, kMaxRank> dims{};
  std::optional<TensorValue> input = pick([&](const TensorValue& value) {
    return value.layout.rank >= 2 && shrinkableDims(value.layout, dims) > 0;
  });
  if (!input)
    return false;
  size_t dim = dims[random_.below(shrinkableDims(input->layout, dims))];
  int64_t index = static_cast<int64_t>(random_.below(input->layout.sizes[dim].coef));
  Layout result = input->layout;
  result.erase(dim);
  uint32_t id = beginStatement(Stem::Select);
  annotate(result);
  text_ += " = torch.ops.aten.select.int(";
  ref(input->node);
  text_ += ", ";
  appendInt(text_, static_cast<int64_t>(dim));
  text_ += ", ";
  appendInt(text_, index);
  text_ += ')';
  endStatement(id);
  pushView(id, result, *input);
  return true;
}

bool Generator::emitExpand() {
  auto hasUnitDim = [](const Layout& layout) {
    return std::any_of(layout.sizes.begin(), layout.sizes.begin() + layout.rank, [](Dim d) {
      return d == Dim{1, 0};
    });
  };
  const int64_t largest = kExpandSizes[std::size(kExpandSizes) - 1];
  std::optional<TensorValue> input = pick([&](const TensorValue& value) {
    return (hasUnitDim(value.layout) || value.layout.rank < kMaxRank) &&
           value.layout.numelHint() <= kMaxNumel / largest;
  });
  if (!input)
    return false;
  const Layout& in = input->layout;
  Dim size{random_.choose(std::span<const int64_t>(kExpandSizes)), 0};
  Layout result = in;
  // Broadcast a size-1 dimension (the expand of a mask or a bias) or prepend a new one; both
  // get stride 0.
  if (hasUnitDim(in) && (in.rank == kMaxRank || random_.chance(0.6))) {
    std::array<size_t, kMaxRank> unit{};
    size_t count = 0;
    for (size_t d = 0; d < in.rank; ++d)
      if (in.sizes[d] == Dim{1, 0})
        unit[count++] = d;
    size_t d = unit[random_.below(count)];
    result.sizes[d] = size;
    result.strides[d] = Dim{};
  } else {
    result.insert(0, size, Dim{});
  }
  // -1 ("keep") is only legal for existing dimensions, which the symbolic one always is.
  SizeSpelling spelling = prepareSizes(result, false);
  uint32_t id = beginStatement(Stem::Expand);
  annotate(result);
  text_ += " = torch.ops.aten.expand.default(";
  ref(input->node);
  text_ += ", ";
  appendSizes(result, spelling);
  text_ += ')';
  endStatement(id);
  pushView(id, result, *input);
  return true;
}

bool Generator::emitClone() {
  // Most clones make a view contiguous (`x[:, :n].contiguous()`, permute + contiguous).
  bool ofView = random_.chance(0.6);
  std::optional<TensorValue> input =
      pick([&](const TensorValue& value) { return !ofView || value.isView; });
  if (!input)
    input = pick([](const TensorValue&) { return true; });
  bool contiguousFormat = random_.chance(0.5);
  Layout result = contiguousFormat ? contiguous(input->layout) : preserveFormat(input->layout);
  uint32_t id = beginStatement(Stem::Clone);
  annotate(result);
  text_ += " = torch.ops.aten.clone.default(";
  ref(input->node);
  if (contiguousFormat)
    text_ += ", memory_format = torch.contiguous_format";
  text_ += ')';
  endStatement(id);
  ++clones_;
  pushFresh(id, result);
  return true;
}

bool Generator::emitPointwise(Stem stem) {
  std::optional<TensorValue> input = pick([](const TensorValue&) { return true; });
  std::optional<TensorValue> other;
  if (stem != Stem::Relu && random_.chance(0.75))
    other = findSameSizes(*input);
  std::array<Layout, 2> operands{input->layout, other ? other->layout : Layout{}};
  Layout result = pointwiseLayout(std::span<const Layout>(operands.data(), other ? 2 : 1),
                                  stem != Stem::Relu && !other);
  uint32_t id = beginStatement(stem);
  annotate(result);
  if (stem == Stem::Relu) {
    text_ += " = torch.ops.aten.relu.default(";
    ref(input->node);
  } else {
    text_ += stem == Stem::Add ? " = torch.ops.aten.add.Tensor(" : " = torch.ops.aten.mul.Tensor(";
    ref(input->node);
    text_ += ", ";
    if (other)
      ref(other->node);
    else
      text_ += stem == Stem::Add ? random_.choose(std::span<const std::string_view>(kAddScalars))
                                 : random_.choose(std::span<const std::string_view>(kMulScalars));
  }
  text_ += ')';
  endStatement(id);
  pushFresh(id, result);
  return true;
}

bool Generator::emitAddInplace() {
  // In-place ops survive functionalization on intermediates (and custom-op outputs); graph
  // inputs are written with copy_ instead. PyTorch rejects writes to self-overlapping tensors
  // and from an operand that shares their memory.
  std::optional<TensorValue> input = pick(
      [](const TensorValue& value) { return !value.isInput && !hasInternalOverlap(value.layout); });
  if (!input)
    return false;
  std::optional<TensorValue> other;
  if (random_.chance(0.75))
    other = findSameSizes(*input);
  if (other && other->storage == input->storage)
    other.reset();
  uint32_t id = beginStatement(Stem::AddInplace);
  annotate(input->layout);
  text_ += " = torch.ops.aten.add_.Tensor(";
  ref(input->node);
  text_ += ", ";
  if (other)
    ref(other->node);
  else
    text_ += random_.choose(std::span<const std::string_view>(kAddScalars));
  text_ += ')';
  endStatement(id);
  // The result aliases the input; graphs keep using the input, so the result stays unused.
  return true;
}

bool Generator::emitCopy() {
  // Mostly the write-back of a mutated graph input, sometimes a buffer filled mid-graph.
  std::optional<TensorValue> destination;
  if (random_.chance(0.6))
    destination = activations_[random_.below(activations_.size())];
  else
    destination = pick([](const TensorValue& value) {
      return !value.isInput && !hasInternalOverlap(value.layout);
    });
  if (!destination)
    return false;
  std::optional<TensorValue> source = pick([&](const TensorValue& value) {
    return value.storage != destination->storage && value.layout.sameSizes(destination->layout);
  });
  if (!source)
    return false;
  uint32_t id = beginStatement(Stem::Copy);
  annotate(destination->layout);
  text_ += " = torch.ops.aten.copy_.default(";
  ref(destination->node);
  text_ += ", ";
  ref(source->node);
  text_ += ')';
  endStatement(id);
  return true;
}

bool Generator::emitMm() {
  // mm and expand are the only ops that grow tensors; keep [M, N] within bounds.
  const int64_t widest = kHiddenSizes[std::size(kHiddenSizes) - 1];
  auto fits = [&](const Layout& layout) {
    Dim inner = layout.sizes[layout.rank - 1];
    return inner.isStatic() && layout.numelHint() / inner.coef <= kMaxNumel / widest;
  };
  std::optional<TensorValue> lhs =
      pick([&](const TensorValue& value) { return value.layout.rank == 2 && fits(value.layout); });
  // F.linear on a 3-D activation: flatten the leading dimensions first.
  bool flatten = !lhs.has_value();
  if (flatten)
    lhs = pick([&](const TensorValue& value) {
      return value.layout.rank >= 3 && fits(value.layout) && isRowMajor(value.layout);
    });
  if (!lhs)
    return false;
  int64_t in = lhs->layout.sizes[lhs->layout.rank - 1].coef;
  std::optional<Weight> weight = linearWeight(in);
  if (!weight)
    return false;
  if (flatten) {
    Layout flat;
    flat.rank = 2;
    flat.sizes[0] = Dim{1, 0};
    for (size_t d = 0; d + 1 < lhs->layout.rank; ++d)
      flat.sizes[0] = flat.sizes[0] * lhs->layout.sizes[d];
    flat.sizes[1] = {in, 0};
    flat = contiguous(flat);
    lhs = TensorValue{emitViewTo(*lhs, flat), flat, lhs->storage, true, false};
  }
  // Post-grad graphs transpose the [out, in] weight with a permute right before each mm.
  Layout transposed;
  transposed.rank = 2;
  transposed.sizes = {Dim{in, 0}, Dim{weight->out, 0}};
  transposed.strides = {Dim{1, 0}, Dim{in, 0}};
  uint32_t permute = beginStatement(Stem::Permute);
  annotate(transposed);
  text_ += " = torch.ops.aten.permute.default(";
  ref(weight->node);
  text_ += ", [1, 0])";
  endStatement(permute);

  Layout result;
  result.rank = 2;
  result.sizes = {lhs->layout.sizes[0], Dim{weight->out, 0}};
  result = contiguous(result);
  uint32_t id = beginStatement(Stem::Mm);
  annotate(result);
  text_ += " = torch.ops.aten.mm.default(";
  ref(lhs->node);
  text_ += ", ";
  ref(permute);
  text_ += ')';
  endStatement(id);
  pushFresh(id, result);
  return true;
}

bool Generator::emitRmsNorm() {
  std::optional<TensorValue> input = pick([](const TensorValue& value) {
    return value.layout.sizes[value.layout.rank - 1].isStatic();
  });
  if (!input)
    return false;
  std::optional<uint32_t> weight = normWeight(input->layout.sizes[input->layout.rank - 1].coef);
  if (!weight)
    return false;
  // vLLM's functionalized `torch.ops._C.rms_norm(out, input, weight, epsilon)`: `out` is a
  // fresh empty_like, the result is element 1 of the returned tuple.
  Layout result = preserveFormat(input->layout);
  uint32_t out = beginStatement(Stem::EmptyLike);
  annotate(result);
  text_ += " = torch.ops.aten.empty_like.default(";
  ref(input->node);
  text_ += ", pin_memory = False)";
  endStatement(out);

  uint32_t call = beginStatement(Stem::AutoFunctionalized);
  text_ += " = torch.ops.higher_order.auto_functionalized(torch.ops._C.rms_norm.default, result = ";
  ref(out);
  text_ += ", input = ";
  ref(input->node);
  text_ += ", weight = ";
  ref(*weight);
  text_ += ", epsilon = 1e-06)";
  endStatement(call);

  uint32_t id = beginStatement(Stem::Getitem);
  annotate(result);
  text_ += " = ";
  ref(call);
  text_ += "[1]";
  endStatement(id);
  pushFresh(id, result);
  return true;
}

// --- The whole graph -----------------------------------------------------------------------

std::string Generator::run() {
  constexpr std::string_view kDtypes[] = {"bf16", "f32", "f16"};
  constexpr std::string_view kDevices[] = {"cuda:0", "cpu"};
  dtype_ = random_.choose(std::span<const std::string_view>(kDtypes));
  device_ = random_.choose(std::span<const std::string_view>(kDevices));

  // About 150 bytes per statement; reserving avoids copying a 1M-node text while it grows.
  text_.reserve(options_.nodes * 160 + 4096);
  names_.reserve(options_.nodes * 14 + 256);
  nodes_.reserve(options_.nodes + maxPlaceholders_ + 8);
  used_.reserve(options_.nodes + maxPlaceholders_ + 8);
  inputs_.reserve(options_.nodes * 2 + 16);

  constexpr int64_t kBatchSizes[] = {8, 16, 32};
  Dim batch =
      options_.symbolic ? Dim{1, 1} : Dim{random_.choose(std::span<const int64_t>(kBatchSizes)), 0};
  if (options_.symbolic)
    symbol_ = addPlaceholder(nullptr);
  Dim hidden{random_.choose(std::span<const int64_t>(kHiddenSizes).subspan(2)), 0};
  // Token-major activations, a head-split one, a `2*s0` one and one whose symbolic dimension
  // is not the outermost (so its outer stride is `64*s0`).
  const std::array<std::array<Dim, 3>, 4> shapes = {{
      {batch, hidden, Dim{}},
      {batch, Dim{8, 0}, Dim{64, 0}},
      {Dim{2, 0} * batch, Dim{128, 0}, Dim{}},
      {Dim{4, 0}, batch, Dim{64, 0}},
  }};
  for (const std::array<Dim, 3>& shape : shapes) {
    Layout layout;
    for (Dim d : shape)
      if (d.coef != 0)
        layout.sizes[layout.rank++] = d;
    layout = contiguous(layout);
    uint32_t node = addPlaceholder(&layout);
    TensorValue value{node, layout, node, false, true};
    activations_.push_back(value);
    push(value);
  }

  while (statements_ < options_.nodes)
    step();

  // Return the newest values nothing reads yet, as a graph returns its last results.
  std::vector<uint32_t> returned;
  for (size_t i = 0; i < pool_.size() && returned.size() < 4; ++i)
    if (!used_[recent(i).node])
      returned.push_back(recent(i).node);
  if (returned.empty())
    returned.push_back(recent(0).node);
  for (uint32_t node : returned)
    used_[node] = 1;
  return assemble(returned);
}

std::string Generator::assemble(std::span<const uint32_t> returned) {
  const size_t count = nodes_.size();
  // PyTorch's delete_unused_values: the last statement that reads a value frees it; what the
  // return reads is never freed. freer[v] is that statement (or kReturn once printed).
  constexpr uint32_t kReturn = kNone - 1;
  std::vector<uint32_t> freer(count, kNone);
  for (uint32_t node : returned)
    freer[node] = kReturn;
  auto inputsEnd = [&](size_t node) {
    return node + 1 < count ? nodes_[node + 1].inputsBegin : static_cast<uint32_t>(inputs_.size());
  };
  for (size_t node = count; node-- > 0;)
    for (uint32_t i = nodes_[node].inputsBegin; i < inputsEnd(node); ++i)
      if (freer[inputs_[i]] == kNone)
        freer[inputs_[i]] = static_cast<uint32_t>(node);

  auto textOf = [&](size_t node) {
    return std::string_view(text_).substr(nodes_[node].textBegin, nodes_[node].textLength);
  };
  std::string out;
  out.reserve(text_.size() + count * 16 + 256);
  out += "class GraphModule(torch.nn.Module):\n    def forward(self";
  for (size_t node = 0; node < count; ++node) {
    if (nodes_[node].isPlaceholder) {
      out += ", ";
      out += textOf(node);
    }
  }
  out += "):\n";
  for (size_t node = 0; node < count; ++node) {
    if (nodes_[node].isPlaceholder)
      continue;
    out += textOf(node);
    bool freesAny = false;
    for (uint32_t i = nodes_[node].inputsBegin; i < inputsEnd(node); ++i) {
      uint32_t input = inputs_[i];
      if (freer[input] != node)
        continue;
      out += freesAny ? "" : ";  ";
      freesAny = true;
      out += name(input);
      out += " = ";
      freer[input] = kReturn; // a value read twice by its last user is freed once
    }
    if (!used_[node]) { // since PyTorch 2.3 an unused value frees itself right away
      out += freesAny ? "" : ";  ";
      freesAny = true;
      out += name(static_cast<uint32_t>(node));
      out += " = ";
    }
    if (freesAny)
      out += "None";
    out += '\n';
  }
  out += "        return (";
  for (size_t i = 0; i < returned.size(); ++i) {
    if (i)
      out += ", ";
    out += name(returned[i]);
  }
  out += returned.size() == 1 ? ",)\n" : ")\n";
  return out;
}

/// The line of `text` that contains `offset`.
std::string_view lineAt(std::string_view text, size_t offset) {
  size_t begin = text.rfind('\n', offset == 0 ? 0 : offset - 1);
  begin = begin == std::string_view::npos || offset == 0 ? 0 : begin + 1;
  size_t end = text.find('\n', offset);
  return text.substr(begin, end == std::string_view::npos ? text.npos : end - begin);
}

/// Round-trips `text`; yields the number of nodes of its graphs.
Result<size_t> roundTrip(std::string_view text) {
  Result<std::unique_ptr<GraphFile>> file = readGraphFile(text);
  if (!file.ok())
    return file.error();
  std::string written = writeGraphFile(**file);
  if (written != text) {
    size_t offset = static_cast<size_t>(
        std::mismatch(text.begin(), text.end(), written.begin(), written.end()).first -
        text.begin());
    auto line = static_cast<uint32_t>(std::count(text.begin(), text.begin() + offset, '\n') + 1);
    std::string message = "written back differently:\n  read:    ";
    message += lineAt(text, offset);
    message += "\n  written: ";
    message += lineAt(written, std::min(offset, written.size()));
    return Error{std::move(message), line, 0};
  }
  size_t nodes = 0;
  std::vector<const GraphModule*> modules;
  for (const auto& module : (*file)->modules)
    modules.push_back(module.get());
  while (!modules.empty()) {
    const GraphModule* module = modules.back();
    modules.pop_back();
    nodes += module->graph.size();
    for (const auto& child : module->children)
      modules.push_back(child.get());
  }
  return nodes;
}

} // namespace

std::string generateGraphText(const GeneratorOptions& options) {
  return Generator(options).run();
}

Status checkRoundTrip(std::string_view text) {
  Result<size_t> nodes = roundTrip(text);
  if (!nodes.ok())
    return nodes.error();
  return ok();
}

Status LazyGraphText::prepare() {
  if (text_)
    return ok();
  std::string text = generateGraphText(options_);
  Result<size_t> nodes = roundTrip(text);
  if (!nodes.ok())
    return nodes.error();
  graphNodes_ = *nodes;
  text_ = std::move(text);
  return ok();
}

} // namespace declone::bench
