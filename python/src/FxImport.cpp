// Builds declone's C++ graph straight from a live torch.fx.Graph, without going through text:
// every node, in program order, with the lines `dumps` gives them.
#include "FxImport.h"

#include "PyObjects.h"
#include "declone/analysis/Effects.h"
#include "declone/analysis/OpModel.h"

#include <algorithm>
#include <cctype>
#include <stdexcept>

namespace declone::python {
namespace {

/// A Python identifier as FX prints names: `L_x_`, not `*args`.
bool isIdentifier(std::string_view text) {
  if (text.empty() || !(std::isalpha(static_cast<unsigned char>(text[0])) || text[0] == '_'))
    return false;
  return std::all_of(text.begin(), text.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
  });
}

} // namespace

py::handle ImportedGraph::fxNode(std::string_view name) const {
  auto found = fxCalls_.find(name);
  return found == fxCalls_.end() ? py::handle() : py::handle(found->second);
}

const SizeShrinker& ImportedGraph::shrinker() {
  if (!shrinker_)
    shrinker_ = std::make_unique<SizeShrinker>(graphsOf(module()));
  return *shrinker_;
}

FxImporter::FxImporter(TorchTypes types)
    : types_(std::move(types)),
      liveSchemas_(std::make_shared<SchemaRegistry>(&SchemaRegistry::builtin())), opName_("op"),
      nameName_("name"), targetName_("target"), argsName_("args"), kwargsName_("kwargs"),
      storedArgsName_("_args"), storedKwargsName_("_kwargs"), metaName_("meta"),
      shapeName_("shape"), strideName_("stride"), dtypeName_("dtype"), deviceName_("device"),
      fakeDeviceName_("fake_device"), storageOffsetName_("storage_offset"), isConjName_("is_conj"),
      isNegName_("is_neg"), schemaName_("_schema"), valKey_("val"), tensorMetaKey_("tensor_meta") {
  for (auto [dtype, abbreviation] : types_.dtypes)
    if (std::optional<DType> parsed = dtypeFromAbbreviation(utf8(abbreviation)))
      dtypes_.emplace(dtype.ptr(), *parsed);
}

void FxImporter::annotateForCloneElimination(Graph& graph, bool graphIo) {
  graph.numberNodes();
  std::vector<bool> consulted(graph.orderBound(), false);
  // Clone elimination reads the layouts of the clones and of their sources.
  for (const Node* node : graph) {
    if (!isClone(node))
      continue;
    consulted[node->order()] = true;
    if (!node->args().empty() && node->args()[0].isNode())
      consulted[node->args()[0].node()->order()] = true;
  }
  // vLLM 0.33's output check asks which outputs and inputs have a tensor value, and their storage.
  if (graphIo) {
    for (const Node* placeholder : graph.placeholders())
      consulted[placeholder->order()] = true;
    graph.output()->forEachInput([&](const Node* value) { consulted[value->order()] = true; });
  }
  // An out= call that writes one of them, and its elements, are the same tensor: LayoutAnalysis
  // compares their sizes with the out argument's to tell whether the call resized it.
  for (const Node* node : graph) {
    bool writesConsulted = false;
    for (const KwArg& kwarg : node->kwargs())
      kwarg.value.forEachNode([&](const Node* value) {
        writesConsulted = writesConsulted || consulted[value->order()];
      });
    if (!writesConsulted)
      continue;
    consulted[node->order()] = true;
    node->forEachUse([&](const Use& use) { consulted[use.user->order()] = true; });
  }
  Context& context = graph.context();
  bool offsetsKnown = true, stridesKnown = true;
  for (auto& [node, fxNode] : deferred_) {
    if (!consulted[node->order()])
      continue;
    py::object meta = getattr(fxNode, metaName_);
    // A clone's input comes first in program order, so it is annotated by now. Its sizes,
    // dtype and device are the clone's, read from a live tensor (so with a known offset).
    const TensorType* cloneOf = nullptr;
    if (isClone(node) && !node->args().empty() && node->args()[0].isNode()) {
      const TypeAnnotation& input = node->args()[0].node()->type();
      if (input.kind == TypeAnnotation::Kind::Tensor && input.tensor->storageOffset)
        cloneOf = input.tensor;
    }
    node->setType(context.create<TypeAnnotation>(annotation(context, meta, cloneOf)));
    const TypeAnnotation& type = node->type();
    if (type.kind == TypeAnnotation::Kind::Tensor && !type.tensor->storageOffset)
      offsetsKnown = false;
    if (type.kind == TypeAnnotation::Kind::Tensor && !type.tensor->strides)
      stridesKnown = false;
  }
  // An offset LayoutAnalysis must infer comes from the annotations of the views behind it;
  // strides that metadata does not state, from those of every value they are inferred from.
  if (!offsetsKnown || !stridesKnown)
    for (auto& [node, fxNode] : deferred_)
      if (!consulted[node->order()])
        node->setType(
            context.create<TypeAnnotation>(annotation(context, getattr(fxNode, metaName_))));
}

bool FxImporter::storesArguments(py::handle fxNode) const {
  auto same = [&](const py::str& stored, const py::str& property) {
    PyObject* direct = PyObject_GetAttr(fxNode.ptr(), stored.ptr());
    if (!direct) {
      PyErr_Clear();
      return false;
    }
    py::object held = py::reinterpret_steal<py::object>(direct);
    return held.is(getattr(fxNode, property));
  };
  return same(storedArgsName_, argsName_) && same(storedKwargsName_, kwargsName_);
}

Node* FxImporter::importedNode(PyObject* fxNode) const {
  uint32_t position = nodes_.find(fxNode);
  return position < irNodes_.size() ? irNodes_[position] : nullptr;
}

void FxImporter::chooseArgumentAttributes(py::handle firstFxNode) {
  // FX keeps a node's arguments in `_args` and `_kwargs` behind the `args` and `kwargs`
  // properties. Reading them directly skips running two Python properties per node, a sixth of
  // importing a make_fx graph. Used only where the first node shows they are what the
  // properties return; otherwise (another FX) the properties are read.
  bool stored = storesArguments(firstFxNode);
  argsAttribute_ = stored ? &storedArgsName_ : &argsName_;
  kwargsAttribute_ = stored ? &storedKwargsName_ : &kwargsName_;
}

std::unique_ptr<ImportedGraph> FxImporter::startImport() {
  auto imported = std::make_unique<ImportedGraph>(liveSchemas_);
  Context& context = *imported->file_->context;
  auto module = std::make_unique<GraphModule>(context);
  module->className = "GraphModule";
  module->classBases = "torch.nn.Module";
  module->graph.format().defIndent = "    ";
  module->graph.format().bodyIndent = "        ";
  imported->file_->modules.push_back(std::move(module));
  nodes_.clear();
  irNodes_.clear();
  deferred_.clear();
  currentTargets_.clear();
  returnsOneTensor_.clear();
  returnsArgument_.clear();
  mayShareValues_ = false;
  sharedValues_.clear();
  argsAttribute_ = &argsName_;
  kwargsAttribute_ = &kwargsName_;
  lastScannedTarget_ = nullptr;
  return imported;
}

FxImporter::ScannedNode FxImporter::scanNode(ImportedGraph& imported, py::handle fxNode) {
  ScannedNode scanned{fxNode};
  // Most nodes are call_function, whose target is an operator, never a str: reading the target
  // first spares them reading `op`. The other kinds have str targets.
  py::object target = getattr(fxNode, targetName_);
  bool named = PyUnicode_Check(target.ptr());
  py::object opObject = named ? getattr(fxNode, opName_) : py::object();
  std::string_view op = named ? utf8(opObject) : std::string_view("call_function");
  if (op == "placeholder") {
    scanned.kind = Node::Kind::Placeholder;
    scanned.rebound = !target.equal(getattr(fxNode, nameName_)) && isIdentifier(utf8(target));
  } else if (op == "output") {
    scanned.kind = Node::Kind::Output;
  } else if (op == "get_attr") {
    scanned.kind = Node::Kind::GetAttr;
  } else {
    Context& context = *imported.file_->context;
    if (op == "call_function")
      scanned.target = functionTarget(imported, target);
    else if (op == "call_method")
      scanned.target = context.target(Target::Kind::Method, context.save(utf8(target)));
    else if (op == "call_module")
      scanned.target = context.target(Target::Kind::Module, context.save(utf8(target)));
    else
      throw std::invalid_argument("node '" + std::string(utf8(getattr(fxNode, nameName_))) +
                                  "' has unknown op '" + std::string(op) + "'");
    // Calls of one target come in runs; the name comparison is made once per run.
    if (scanned.target != lastScannedTarget_) {
      lastScannedTarget_ = scanned.target;
      lastScannedIsClone_ = isCloneTarget(*scanned.target);
      lastScannedIsFunctionalized_ = isFunctionalHigherOrder(*scanned.target);
      mayShareValues_ = mayShareValues_ || mayReturnArgument(*scanned.target);
    }
    imported.clones_ += lastScannedIsClone_;
    imported.functionalizedCalls_ += lastScannedIsFunctionalized_;
  }
  return scanned;
}

Node* FxImporter::importNode(ImportedGraph& imported, const ScannedNode& scanned, uint32_t line,
                             bool deferTensors) {
  Context& context = *imported.file_->context;
  Graph& graph = imported.module().graph;
  py::handle fxNode = scanned.fxNode;
  // The graph copies the name into its arena; the str keeps these characters alive till then.
  py::object nameObject = getattr(fxNode, nameName_);
  std::string_view name = utf8(nameObject);
  // An op that returns one tensor returns a tensor, whatever its meta says: its meta is read
  // only if clone elimination consults it. The others' is looked at now, for a symbolic int
  // (which settles that the value is not a tensor) or a Python function's tensor.
  bool tensorOp = deferTensors && scanned.kind == Node::Kind::Call &&
                  scanned.target->kind == Target::Kind::Op && returnsOneTensor(*scanned.target);
  py::object meta = tensorOp ? py::object() : getattr(fxNode, metaName_);
  bool defer = deferTensors && (tensorOp || metaValue(meta).holdsTensor());
  auto type = [&]() -> const TypeAnnotation* {
    if (defer)
      return nullptr;
    TypeAnnotation value = annotation(context, meta);
    return value.kind == TypeAnnotation::Kind::None ? nullptr
                                                    : context.create<TypeAnnotation>(value);
  };
  Node* node = nullptr;
  switch (scanned.kind) {
  case Node::Kind::Placeholder: {
    py::object parameter = scanned.rebound ? getattr(fxNode, targetName_) : py::object();
    node = graph.createPlaceholder(name, type(), nullptr,
                                   scanned.rebound ? utf8(parameter) : std::string_view());
    break;
  }
  case Node::Kind::Output: {
    py::tuple outputs = py::reinterpret_borrow<py::tuple>(getattr(fxNode, *argsAttribute_));
    node = graph.createOutput(outputs.empty() ? Arg() : convertArg(imported, outputs[0], 0));
    break;
  }
  case Node::Kind::GetAttr: {
    py::object path = getattr(fxNode, targetName_); // the graph copies its characters
    node = graph.createGetAttr(name, utf8(path), type());
    break;
  }
  case Node::Kind::Call: {
    const Target* callee = scanned.target;
    // EffectAnalysis takes a Python function's result for a tensor only if annotated so, but
    // a getitem's element for what its container says it is: only their annotations as
    // tensors are not put off.
    defer = defer && (callee->kind == Target::Kind::Op || callee->isOperator("getitem"));
    py::tuple positional = py::reinterpret_borrow<py::tuple>(getattr(fxNode, *argsAttribute_));
    std::span<Arg> callArgs = context.allocate<Arg>(positional.size());
    for (size_t i = 0; i < callArgs.size(); ++i)
      callArgs[i] = convertArg(imported, positional[i], 1);
    py::dict keywords = py::reinterpret_borrow<py::dict>(getattr(fxNode, *kwargsAttribute_));
    std::span<KwArg> callKwargs = context.allocate<KwArg>(keywords.size());
    size_t k = 0;
    for (auto [key, value] : keywords) {
      callKwargs[k].name = context.save(utf8(key));
      callKwargs[k++].value = convertArg(imported, value, 1);
    }
    node = graph.createCall(name, callee, callArgs, callKwargs, type());
    // The nodes the passes may rewrite, which the bindings map back to the live graph.
    if (isCloneTarget(*callee) || isFunctionalHigherOrder(*callee))
      imported.fxCalls_.emplace(node->name(), py::reinterpret_borrow<py::object>(scanned.fxNode));
    break;
  }
  }
  node->setLine(line);
  if (defer)
    deferred_.emplace_back(node, fxNode);
  return node;
}

bool FxImporter::returnsOneTensor(const Target& target) {
  auto [entry, added] = returnsOneTensor_.try_emplace(&target, false);
  if (added) {
    const OpSchema* schema =
        liveSchemas_->lookup(target.opNamespace, target.opName, target.overload);
    entry->second = schema && !schema->isVarret && schema->returns.size() == 1 &&
                    schema->returns[0].type.kind == SchemaType::Kind::Tensor;
  }
  return entry->second;
}

namespace {

// dumps prints `class ...:` (line 1), `def forward(self, PLACEHOLDERS):` (line 2), then one line
// per node.
constexpr uint32_t kSignatureLine = 2;

} // namespace

std::unique_ptr<ImportedGraph>
FxImporter::importGraph(py::handle fxGraph, TensorAnnotations annotations, bool trustOffsets) {
  bool deferTensors = annotations != TensorAnnotations::All;
  std::unique_ptr<ImportedGraph> imported = startImport();
  valOnly_ = annotations == TensorAnnotations::ForVllmCloneElimination ||
             annotations == TensorAnnotations::ForVllm033CloneElimination;
  trustOffsets_ = trustOffsets || valOnly_; // vLLM reads a val's offset as it is
  Graph& graph = imported->module().graph;
  // First a look at every node (its op and target, which FX keeps on the node itself): whether
  // some call may return an argument's tensor decides how every meta["val"] is read
  // (findSharedValues). Then the nodes are imported.
  std::vector<ScannedNode> scanned;
  // The node list as a Python list: PyTorch 2.13's node iterator (torch._C._NodeIter), stepped
  // by pybind11's iterator, never ends; list() steps it as Python does.
  py::list fxNodes(getattr(fxGraph, py::str("nodes")));
  scanned.reserve(fxNodes.size());
  nodes_.reserve(fxNodes.size());
  for (py::handle fxNode : fxNodes) {
    if (scanned.empty())
      chooseArgumentAttributes(fxNode);
    nodes_.insert(fxNode.ptr(), static_cast<uint32_t>(scanned.size()));
    scanned.push_back(scanNode(*imported, fxNode));
  }
  findSharedValues(scanned);
  // Nodes are made in program order, so an argument naming a later node finds none.
  irNodes_.assign(scanned.size(), nullptr);
  uint32_t line = kSignatureLine + 1;
  for (uint32_t position = 0; position < scanned.size(); ++position) {
    const ScannedNode& node = scanned[position];
    uint32_t nodeLine = node.kind == Node::Kind::Placeholder ? kSignatureLine : line++;
    line += node.rebound; // the line `l_x_ = L_x_`
    irNodes_[position] = importNode(*imported, node, nodeLine, deferTensors);
  }
  nodes_.clear();
  irNodes_.clear();
  if (!graph.output())
    throw std::invalid_argument("the graph has no output node");
  if (deferTensors)
    annotateForCloneElimination(graph,
                                annotations == TensorAnnotations::ForVllm033CloneElimination);
  deferred_.clear();
  sharedValues_.clear();
  return imported;
}

} // namespace declone::python
