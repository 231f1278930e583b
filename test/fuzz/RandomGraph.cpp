// Random graphs over the op mix that clone elimination has to reason about: clones in every
// memory format, views of every kind, in-place and out= writes, through views and to sources.
// The op families live in RandomViews.cpp and RandomWrites.cpp; this file holds the model of
// values, the placeholders, clones, elementwise ops, the return, and the annotation by
// execution.
#include "Generator.h"
#include "declone/io/Reader.h"
#include "declone/io/Writer.h"
#include "declone/runtime/Executor.h"

#include <cstdio>
#include <cstdlib>

namespace declone::fuzz {
namespace detail {

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

void Generator::emit(const std::string& name, const std::string& rhs) {
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

size_t Generator::addValue(Value value) {
  value.producedSizes = value.sizes;
  value.producedLayout = value.layout;
  value.producedExact = value.exact;
  byName_[value.name] = values_.size();
  values_.push_back(std::move(value));
  return values_.size() - 1;
}

Value Generator::freshValue(const std::string& name, const Shape& sizes, bool rowMajorResult,
                            bool complex) {
  Value value;
  value.name = name;
  value.sizes = sizes;
  value.complex = complex;
  if (rowMajorResult) {
    value.layout = Layout{rowMajor(sizes), 0};
    value.exact = true;
  }
  value.storage = newStorage(numel(sizes), complex);
  value.impl = impls_++;
  return value;
}

size_t Generator::addView(size_t base, const std::string& name, Shape sizes,
                          std::optional<Layout> layout, bool overlapping) {
  Value view;
  view.name = name;
  view.sizes = std::move(sizes);
  view.layout = std::move(layout);
  view.exact = values_[base].exact;
  view.storage = values_[base].storage;
  view.impl = impls_++;
  view.complex = values_[base].complex;
  view.conj = values_[base].conj;
  view.neg = values_[base].neg;
  view.overlapping = values_[base].overlapping || overlapping;
  view.cloneRoot = values_[base].cloneRoot;
  view.viewOfClone = view.cloneRoot.has_value();
  return addValue(std::move(view));
}

size_t Generator::addAlias(size_t destination, const std::string& name) {
  Value alias = values_[destination];
  alias.name = name;
  alias.placeholder = false;
  alias.cloneOf.reset();
  alias.clonedFrom = false;
  alias.used = false;
  return addValue(std::move(alias));
}

void Generator::relayout(size_t v, const Shape& sizes, std::optional<Layout> layout, bool exact) {
  size_t impl = values_[v].impl;
  for (Value& value : values_) {
    if (value.impl != impl)
      continue;
    value.sizes = sizes;
    value.layout = layout;
    value.exact = exact;
  }
}

unsigned Generator::readWeight(size_t v) const {
  const Value& value = values_[v];
  unsigned weight = 2;
  if (value.cloneRoot || value.clonedFrom)
    weight += 4;
  if (v + 4 >= values_.size())
    weight += 3;
  return weight;
}

unsigned Generator::writeWeight(size_t v) const {
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
  if (kind < 9 && shape.size() > 1 && rng_.chance(0.3)) // per channel: what batch norm keeps
    return Shape{shape[1]};
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
  // Some graphs take a complex input too, for the conjugate bit.
  bool complexInput = rng_.chance(0.15);
  for (size_t i = 0; i < inputs + complexInput; ++i) {
    Value value;
    value.name = "arg" + std::to_string(i) + "_1";
    value.sizes = i == 0 ? main_ : variantOfMain();
    value.placeholder = true;
    value.complex = i == inputs;
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
    value.storage = newStorage(std::nullopt, value.complex);
    value.impl = impls_++;
    std::string annotation = std::string(value.complex ? "c64" : "f32") + listText(sizes) +
                             listText(layout.strides) + "cpu";
    if (layout.offset)
      annotation += "@" + std::to_string(layout.offset);
    parameters_.push_back(value.name + ": \"" + annotation + "\"");
    addValue(std::move(value));
  }
}

void Generator::addAttributes() {
  // Module state (get_attr): the verifier makes the same tensor for an attribute in both graphs,
  // and the caller sees its final contents, as for an input that is not donated.
  if (!rng_.chance(0.2))
    return;
  Value value;
  value.name = rng_.chance(0.5) ? "_tensor_constant0" : "_param_constant0";
  value.sizes = variantOfMain();
  value.layout = Layout{rowMajor(value.sizes), 0};
  value.exact = true;
  value.storage = newStorage(std::nullopt);
  value.impl = impls_++;
  value.placeholder = true; // returned like an input, never reported as dead
  body_ += "        " + value.name + ": \"f32" + listText(value.sizes) +
           listText(value.layout->strides) + "cpu\" = self." + value.name + "\n";
  ++statements_;
  addValue(std::move(value));
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
  clone.complex = input.complex; // the conjugate and negative bits are resolved
  clone.impl = impls_++;
  clone.storage = newStorage(numel(input.sizes), input.complex);
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
  if (op == "relu" && values_[*input].complex)
    op = "neg";
  std::string name = fresh(op);
  emit(name, "torch.ops.aten." + op + ".default(" + values_[*input].name + ")");
  addValue(freshValue(name, values_[*input].sizes, canonical(*input), values_[*input].complex));
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
    addValue(freshValue(name, shapeA, canonical(*a), values_[*a].complex));
    return true;
  }
  Shape shape = *broadcastShape(shapeA, values_[*b].sizes);
  emit(name,
       "torch.ops.aten." + op + ".Tensor(" + values_[*a].name + ", " + values_[*b].name + ")");
  addValue(freshValue(name, shape, canonical(*a) && canonical(*b),
                      values_[*a].complex || values_[*b].complex));
  return true;
}

std::string Generator::genReturn() {
  std::vector<size_t> outputs;
  auto add = [&](size_t v) {
    if (std::find(outputs.begin(), outputs.end(), v) == outputs.end())
      outputs.push_back(v);
  };
  // Values a functionalized call retired are returned only where its family says so (the
  // same draws either way, so that graphs without that family are as they were).
  auto addLive = [&](size_t v) {
    if (!values_[v].retired)
      add(v);
  };
  if (!clones_.empty() && rng_.chance(0.5)) {
    size_t clone = clones_[rng_.below(clones_.size())];
    addLive(clone);
    if (rng_.chance(0.4))
      addLive(*values_[clone].cloneOf);
  }
  if (rng_.chance(0.2))
    addLive(rng_.below(parameters_.size())); // placeholders come first
  if (!writes_.empty() && rng_.chance(0.3))
    addLive(writes_[rng_.below(writes_.size())]);
  size_t extra = static_cast<size_t>(rng_.between(outputs.empty() ? 1 : 0, 2));
  for (size_t i = 0; i < extra; ++i) {
    // Mostly values nothing uses yet, so that little of the graph is dead.
    std::optional<size_t> v =
        pick([](size_t) { return true; },
             [&](size_t v) { return values_[v].used || values_[v].placeholder ? 1u : 12u; });
    if (v)
      add(*v);
  }
  outputs.insert(outputs.end(), forcedOutputs_.begin(), forcedOutputs_.end());
  std::string text = "return (";
  for (size_t i = 0; i < outputs.size(); ++i)
    text += (i ? ", " : "") + values_[outputs[i]].name;
  return text + (outputs.size() == 1 ? ",)" : ")");
}

std::string Generator::run() {
  addPlaceholders();
  addAttributes();
  size_t target = static_cast<size_t>(
      rng_.between(static_cast<int64_t>(options_.minStatements),
                   static_cast<int64_t>(std::max(options_.minStatements, options_.maxStatements))));
  // Weights of the op kinds: clones, views and writes dominate; then the families that
  // once hid unsound removals (in-place metadata ops, ops returning aliases, undeclared writes,
  // math bits, several returns, Python indexing and size queries).
  // The last, the defunctionalization family, weighs 0 unless asked for.
  const unsigned kWeights[] = {18, 7, 8, 12, 5, 6, 3, 20,
                               3,  4, 3, 3,  2, 3, 2, options_.functionalWeight};
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
    case 7:
      genView();
      break;
    case 8:
      genMetadataInPlace();
      break;
    case 9:
      genAliasingOp();
      break;
    case 10:
      genUndeclaredWrite();
      break;
    case 11:
      genMathBit();
      break;
    case 12:
      genFunctionalizedMultiReturn();
      break;
    case 13:
      genTensorIndex();
      break;
    case 14:
      genSizeQuery();
      break;
    default:
      genDefunctionalizationCase();
      break;
    }
  }
  if (clones_.empty()) {
    size_t last = values_.size() - 1;
    while (values_[last].retired && last > 0)
      --last;
    (void)genClone(last);
  }
  std::string writeBacks = genWriteBacks();
  std::string text = "class GraphModule(torch.nn.Module):\n    def forward(self";
  for (const std::string& parameter : parameters_)
    text += ", " + parameter;
  text += "):\n" + body_ + writeBacks + "        " + genReturn() + "\n";
  return text;
}

} // namespace detail

using namespace detail;

namespace {

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
Status checkPredictions(const Graph& graph, const std::vector<Value>& values, bool live) {
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
    // Annotations record the tensor as its node made it, before in-place metadata ops, or
    // (live) as the graph left it.
    const Shape& predictedSizes = live ? value.sizes : value.producedSizes;
    const std::optional<Layout>& predicted = live ? value.layout : value.producedLayout;
    bool exact = live ? value.exact : value.producedExact;
    Shape sizes, strides;
    for (SymExpr size : type.sizes)
      sizes.push_back(constant(size));
    if (sizes != predictedSizes)
      return mismatch("sizes " + listText(sizes) + " != predicted " + listText(predictedSizes));
    if (!predicted || !type.strides)
      continue;
    for (SymExpr stride : *type.strides)
      strides.push_back(constant(stride));
    int64_t offset = type.storageOffset ? constant(*type.storageOffset) : 0;
    if (offset != predicted->offset)
      return mismatch("storage offset " + std::to_string(offset) + " != predicted " +
                      std::to_string(predicted->offset));
    for (size_t i = 0; i < sizes.size(); ++i)
      if ((exact || sizes[i] != 1) && strides[i] != predicted->strides[i])
        return mismatch("strides " + listText(strides) + " != predicted " +
                        listText(predicted->strides));
  }
  return ok();
}

} // namespace

const runtime::MissingKernels& generatedGraphKernels() {
  static const runtime::MissingKernels kernels;
  return kernels;
}

Result<std::string> tryRandomGraphText(uint64_t seed, const RandomGraphOptions& options) {
  Generator generator(seed, options);
  std::string skeleton = generator.run();
  auto file = readGraphFile(skeleton);
  if (!file.ok())
    return Error{"generated graph does not parse: " + file.error().format("<generated>")};
  Graph& graph = (*file)->modules.front()->graph;
  Random rng(seed ^ 0x5bd1e9955bd1e995ULL);
  bool live = rng.chance(options.liveAnnotationChance);
  Status annotated = runtime::annotateFromExecution(
      graph, seed, live ? runtime::AnnotationTime::AtEnd : runtime::AnnotationTime::WhenMade,
      &generatedGraphKernels());
  if (!annotated.ok())
    return Error{"generated graph does not run: " + annotated.error().format("<generated>")};
  Status predicted = checkPredictions(graph, generator.values(), live);
  if (!predicted.ok())
    return Error{"generator bug: " + predicted.error().format("<generated>")};
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