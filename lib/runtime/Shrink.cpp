// Running graphs at smaller sizes: copies of the graphs with a SizeShrinker's plan applied, and
// the check, by running the original at those sizes, that the plan keeps it well formed.
#include "Execution.h"
#include "declone/analysis/SizeShrink.h"
#include "declone/io/Reader.h"
#include "declone/io/Writer.h"

#include <unordered_map>

namespace declone::runtime::detail {
namespace {

/// Gives the copy's nodes the original's line numbers, so that errors point into the file the
/// user gave; false when the copy does not have the original's nodes.
bool restoreLines(const Graph& original, Graph& copy) {
  if (original.size() != copy.size())
    return false;
  auto from = original.begin();
  for (Node* node : copy)
    node->setLine((*from++)->line());
  return true;
}

bool restoreModuleLines(const GraphModule& original, GraphModule& copy) {
  if (!restoreLines(original.graph, copy.graph) || original.children.size() != copy.children.size())
    return false;
  for (size_t i = 0; i < original.children.size(); ++i)
    if (!restoreModuleLines(*original.children[i], *copy.children[i]))
      return false;
  return true;
}

std::optional<std::vector<int64_t>> constants(std::span<const SymExpr> exprs) {
  std::vector<int64_t> out;
  for (SymExpr expr : exprs) {
    std::optional<int64_t> value = expr.constantValue();
    if (!value)
      return std::nullopt;
    out.push_back(*value);
  }
  return out;
}

/// The annotation at the changed sizes; null when its strides cannot follow (see
/// changedStrides).
const TypeAnnotation* changedAnnotation(Context& context, const TypeAnnotation& type,
                                        std::span<const SizeChange> changes) {
  if (type.kind != TypeAnnotation::Kind::Tensor)
    return &type;
  const TensorType& old = *type.tensor;
  auto* tensor = context.create<TensorType>(old);
  std::span<SymExpr> sizes = context.allocate<SymExpr>(old.sizes.size());
  for (size_t i = 0; i < sizes.size(); ++i) {
    std::optional<int64_t> value = old.sizes[i].constantValue();
    sizes[i] = value ? SymExpr::constant(changedSize(*value, changes)) : old.sizes[i];
  }
  tensor->sizes = sizes;
  if (old.strides) {
    std::optional<std::vector<int64_t>> oldSizes = constants(old.sizes);
    std::optional<std::vector<int64_t>> oldStrides = constants(*old.strides);
    std::optional<std::vector<int64_t>> newSizes = constants(sizes);
    if (!oldSizes || !oldStrides || !newSizes)
      return nullptr;
    std::optional<std::vector<int64_t>> strides =
        changedStrides(*oldSizes, *oldStrides, *newSizes, changes);
    if (!strides)
      return nullptr;
    std::span<SymExpr> out = context.allocate<SymExpr>(strides->size());
    for (size_t i = 0; i < out.size(); ++i)
      out[i] = SymExpr::constant((*strides)[i]);
    tensor->strides = std::span<const SymExpr>(out);
  }
  if (old.storageOffset)
    if (std::optional<int64_t> offset = old.storageOffset->constantValue())
      tensor->storageOffset = SymExpr::constant(changedSize(*offset, changes));
  TypeAnnotation annotation = type;
  annotation.spelling = {};
  annotation.tensor = tensor;
  return context.create<TypeAnnotation>(annotation);
}

/// Applies `changes` to a copy: annotations and size arguments. Returns the input whose layout
/// cannot follow them (a placeholder's or attribute's strides), else null; a computed value's
/// strides that cannot follow are dropped (they are compared, not used).
const Node* applyChanges(Graph& graph, std::span<const SizeChange> changes) {
  std::unordered_map<const Node*, Node*> mutableNodes;
  for (Node* node : graph) {
    mutableNodes.emplace(node, node);
    const TypeAnnotation* type = changedAnnotation(graph.context(), node->type(), changes);
    if (!type && !node->isCall())
      return node;
    if (!type) {
      TypeAnnotation withoutStrides = node->type();
      auto* tensor = graph.context().create<TensorType>(*withoutStrides.tensor);
      tensor->strides.reset();
      withoutStrides.tensor = tensor;
      withoutStrides.spelling = {};
      type = changedAnnotation(graph.context(), withoutStrides, changes);
    }
    node->setType(type);
  }
  for (const SizeEdit& edit : sizeEdits(graph, changes)) {
    Node* node = mutableNodes.at(edit.node);
    Arg* arg = nullptr;
    if (edit.position >= 0)
      arg = &node->args()[size_t(edit.position)];
    else
      for (KwArg& kwarg : node->kwargs())
        if (kwarg.name == edit.keyword)
          arg = &kwarg.value;
    if (arg && edit.element >= 0)
      arg = &arg->children()[size_t(edit.element)];
    if (arg && arg->kind == ArgKind::Int) {
      arg->integer = edit.value;
      arg->setText({});
    }
  }
  return nullptr;
}

void applyModuleChanges(GraphModule& module, std::span<const SizeChange> changes,
                        const Node*& failed) {
  if (const Node* node = applyChanges(module.graph, changes); node && !failed)
    failed = node;
  for (const auto& child : module.children)
    applyModuleChanges(*child, changes, failed);
}

/// Whether a call's values come from a stand-in kernel (directly, wrapped in an
/// auto_functionalized call, or as an element of such a call's results): their sizes are the
/// stand-in's guess, not the op's, whatever the sizes.
bool fromStandIn(const Node& node, const MissingKernels* kernels) {
  if (!node.isCall())
    return false;
  const Target* target = node.target();
  if (target->kind == Target::Kind::Function && !node.args().empty() && node.args()[0].isNode())
    return fromStandIn(*node.args()[0].node(), kernels);
  if (target->isHigherOrder() && !node.args().empty() && node.args()[0].kind == ArgKind::OpRef)
    target = node.args()[0].op;
  if (target->kind != Target::Kind::Op)
    return false;
  std::string overload =
      target->overload == "default" ? std::string() : std::string(target->overload);
  return isStandIn(
      kernels, {std::string(target->opNamespace) + "::" + std::string(target->opName), overload});
}

/// Which dimensions step fastest, which do not step, and whether the layout is contiguous: what
/// a kernel's choice of path and a clone's necessity depend on, whatever the sizes.
struct StrideClass {
  bool contiguous = true;
  std::vector<size_t> order;
  std::vector<size_t> broadcast;
  friend bool operator==(const StrideClass&, const StrideClass&) = default;
};

StrideClass strideClass(std::span<const int64_t> sizes, std::span<const int64_t> strides) {
  StrideClass out;
  int64_t expected = 1;
  for (size_t i = sizes.size(); i-- > 0;) {
    if (sizes[i] == 1)
      continue;
    if (strides[i] != expected)
      out.contiguous = false;
    expected *= sizes[i];
    if (strides[i] == 0)
      out.broadcast.push_back(i);
    else
      out.order.push_back(i);
  }
  std::stable_sort(out.order.begin(), out.order.end(),
                   [&](size_t a, size_t b) { return strides[a] < strides[b]; });
  return out;
}

/// The first call of `original` (by the copy's run at the changed sizes) whose value's sizes
/// are not its annotation's at those sizes, or whose strides or offset are of another kind
/// than the annotation says; null when none is. Values made by stand-ins, values at which no
/// size changed (the dump's annotation and this libtorch disagree whatever the sizes), and what
/// derives from those that disagree, are not compared.
const Node* firstMismatch(const Graph& original, const Graph& copy,
                          const std::vector<c10::IValue>& values, const Inputs& inputs,
                          const MissingKernels* kernels, const SizeShrinker& shrinker,
                          std::span<const SizeChange> changes) {
  auto changedAt = [&](const Node& node) {
    for (int64_t size : shrinker.sizesAt(node))
      if (changedSize(size, changes) != size)
        return true;
    return false;
  };
  SymContext& sym = copy.context().sym();
  std::vector<bool> faithful(copy.orderBound(), true);
  auto from = original.begin();
  for (const Node* node : copy) {
    const Node* was = *from++;
    if (!node->isCall())
      continue;
    bool inputsFaithful = true;
    node->forEachInput(
        [&](const Node* input) { inputsFaithful = inputsFaithful && faithful[input->order()]; });
    const c10::IValue& value = values[node->order()];
    const TypeAnnotation& type = node->type();
    if (!inputsFaithful) {
      faithful[node->order()] = false;
      continue;
    }
    if (!value.isTensor() || !value.toTensor().defined() ||
        type.kind != TypeAnnotation::Kind::Tensor)
      continue;
    const at::Tensor& tensor = value.toTensor();
    bool matches = tensor.dim() == int64_t(type.tensor->sizes.size());
    for (size_t i = 0; matches && i < type.tensor->sizes.size(); ++i) {
      std::optional<int64_t> size = sym.evaluate(type.tensor->sizes[i], inputs.symbols);
      matches = !size || *size == tensor.size(int64_t(i));
    }
    const TensorType& annotated = *was->type().tensor;
    std::optional<std::vector<int64_t>> sizes = constants(annotated.sizes);
    std::optional<std::vector<int64_t>> strides =
        annotated.strides ? constants(*annotated.strides) : std::nullopt;
    if (matches && sizes && strides && strides->size() == sizes->size())
      matches = strideClass(*sizes, *strides) == strideClass(tensor.sizes(), tensor.strides());
    if (matches && annotated.storageOffset)
      if (std::optional<int64_t> offset = annotated.storageOffset->constantValue())
        matches = (*offset == 0) == (tensor.storage_offset() == 0);
    if (matches)
      continue;
    if (fromStandIn(*node, kernels) || !changedAt(*was)) {
      faithful[node->order()] = false;
      continue;
    }
    return was;
  }
  return nullptr;
}

const Node* nodeAtLine(const std::vector<const Graph*>& graphs, uint32_t line) {
  for (const Graph* graph : graphs)
    for (const Node* node : *graph)
      if (line != 0 && node->line() == line)
        return node;
  return nullptr;
}

} // namespace

Result<std::unique_ptr<GraphFile>> copyGraph(const Graph& graph, const GraphModule* module) {
  Result<std::unique_ptr<GraphFile>> copy =
      readOwnedGraphFile(module ? writeGraphModule(*module) : writeGraph(graph));
  if (!copy.ok())
    return copy.error();
  GraphFile& file = **copy;
  bool restored = !file.modules.empty() && (module ? restoreModuleLines(*module, *file.modules[0])
                                                   : restoreLines(graph, file.modules[0]->graph));
  if (!restored)
    return Error{"the graph does not read back as it was printed"};
  return copy;
}

Result<ShrunkGraphs> shrinkGraphs(const Graph& before, const GraphModule* beforeModule,
                                  const Graph& after, const GraphModule* afterModule,
                                  const ShrinkRequest& request) {
  std::vector<const Graph*> graphs =
      beforeModule ? graphsOf(*beforeModule) : std::vector<const Graph*>{&before};
  // The rewrite's values constrain the plan too (a bound or a count only it has), though only
  // the original is run to check it; its costs are not counted.
  std::vector<const Graph*> both = graphs;
  for (const Graph* graph :
       afterModule ? graphsOf(*afterModule) : std::vector<const Graph*>{&after})
    both.push_back(graph);
  SizeShrinker shrinker(both, graphs.size());
  ShrunkGraphs out;
  out.fullCost = shrinker.cost({});
  std::vector<std::pair<int64_t, uint64_t>> dominant = shrinker.dominantSizes(SIZE_MAX);
  auto rank = [&](int64_t size) {
    for (size_t i = 0; i < dominant.size(); ++i)
      if (dominant[i].first == size)
        return i;
    return dominant.size();
  };
  // The run must fit the memory limit too, whose estimate counts an input up to five times.
  ShrinkBudget budget = request.budget;
  if (request.memoryLimit)
    budget.bytes = std::min(budget.bytes, request.memoryLimit / 5);
  std::set<int64_t> pinned;
  for (int attempt = 0; attempt < 32; ++attempt) {
    std::vector<SizeChange> changes = shrinker.plan(budget, pinned);
    if (changes.empty())
      break;
    Result<std::unique_ptr<GraphFile>> copy = copyGraph(before, beforeModule);
    if (!copy.ok())
      return copy.error();
    GraphModule& shrunk = *(*copy)->modules[0];
    const Node* blamed = nullptr;
    applyModuleChanges(shrunk, changes, blamed);
    if (!blamed) {
      // The original at the new sizes: every value as its annotation says at those sizes.
      InputOptions options{request.symbolHints, request.integers, request.memoryLimit, 2};
      Result<Inputs> inputs = makeInputs(shrunk.graph, request.seed, options);
      Status attributes =
          inputs.ok() ? addAttributes(shrunk.graph, request.seed, *inputs) : Status(inputs.error());
      if (!attributes.ok()) {
        // Too large to check even at these sizes, or inputs that cannot be made at any: the
        // run at the printed sizes says which.
        out.note = "sizes not shrunk: " + attributes.error().message;
        break;
      }
      std::vector<c10::IValue> values;
      Result<std::vector<c10::IValue>> run = Error{""};
      try {
        run = beforeModule ? execute(shrunk, *inputs, request.kernels, &values)
                           : execute(shrunk.graph, *inputs, request.kernels, &values);
      } catch (const std::exception& error) {
        run = Error{error.what()};
      }
      if (run.ok()) {
        blamed = firstMismatch(before, shrunk.graph, values, *inputs, request.kernels, shrinker,
                               changes);
      } else {
        blamed = nodeAtLine(graphs, run.error().line);
        bool involved = false;
        if (blamed)
          for (int64_t size : shrinker.sizesAt(*blamed))
            involved = involved || changedSize(size, changes) != size;
        // An error no changed size is seen to be involved in may still come from one (a
        // resize_ of an input to a size that shrank): the run at the printed sizes decides.
        if (!involved) {
          out.note = "sizes not shrunk: the graph does not run at smaller sizes (" +
                     run.error().message + ")";
          break;
        }
      }
    }
    if (!blamed) {
      Result<std::unique_ptr<GraphFile>> afterCopy = copyGraph(after, afterModule);
      if (!afterCopy.ok())
        return afterCopy.error();
      const Node* unused = nullptr;
      applyModuleChanges(*(*afterCopy)->modules[0], changes, unused);
      if (unused) {
        out.note = "sizes not shrunk: the rewrite's input " + std::string(unused->name()) +
                   " cannot take them";
        break;
      }
      out.cost = shrinker.cost(changes);
      out.before = std::move(copy).value();
      out.after = std::move(afterCopy).value();
      out.changes = std::move(changes);
      return out;
    }
    // Keep the least of the changed sizes the mismatch involves, and plan again.
    std::optional<int64_t> keep;
    for (int64_t size : shrinker.sizesAt(*blamed))
      for (const SizeChange& change : changes)
        if (change.from == size && (!keep || rank(size) > rank(*keep)))
          keep = size;
    if (!keep) {
      out.note = "sizes not shrunk: " + std::string(blamed->name()) +
                 " is not as annotated at smaller sizes";
      break;
    }
    pinned.insert(*keep);
  }
  out.cost = out.fullCost;
  return out;
}

} // namespace declone::runtime::detail
