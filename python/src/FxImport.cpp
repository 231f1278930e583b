// Builds declone's C++ graph straight from a live torch.fx.Graph, without going through text.
#include "FxImport.h"

#include "declone/schema/Schema.h"

#include <charconv>
#include <iterator>
#include <stdexcept>

namespace declone::python {

namespace {

/// FX graphs nest arguments a few levels deep; anything deeper is not a graph FX can print.
constexpr int kMaxArgDepth = 256;

std::string_view utf8(py::handle text) {
  Py_ssize_t size = 0;
  const char* data = PyUnicode_AsUTF8AndSize(text.ptr(), &size);
  if (!data)
    throw py::error_already_set();
  return {data, static_cast<size_t>(size)};
}

py::object getattr(py::handle object, const py::str& name) {
  PyObject* result = PyObject_GetAttr(object.ptr(), name.ptr());
  if (!result)
    throw py::error_already_set();
  return py::reinterpret_steal<py::object>(result);
}

/// isinstance(value, types) for a type or a tuple of types, by the C-level subtype check:
/// PyObject_IsInstance first looks up __instancecheck__ on the metaclass, which costs more than
/// the check itself, and torch's tensor and FX types do not customise it.
bool isInstance(py::handle value, const py::object& types) {
  PyTypeObject* type = Py_TYPE(value.ptr());
  if (reinterpret_cast<PyObject*>(type) == types.ptr()) // the common case: exactly the type
    return true;
  if (PyTuple_Check(types.ptr())) {
    for (py::handle candidate : py::reinterpret_borrow<py::tuple>(types))
      if (PyType_IsSubtype(type, reinterpret_cast<PyTypeObject*>(candidate.ptr())))
        return true;
    return false;
  }
  return PyType_IsSubtype(type, reinterpret_cast<PyTypeObject*>(types.ptr()));
}

} // namespace

py::handle ImportedGraph::fxNode(std::string_view name) const {
  auto found = fxCalls_.find(name);
  return found == fxCalls_.end() ? py::handle() : py::handle(found->second);
}

FxImporter::FxImporter(TorchTypes types)
    : types_(std::move(types)),
      liveSchemas_(std::make_shared<SchemaRegistry>(&SchemaRegistry::builtin())), opName_("op"),
      nameName_("name"), targetName_("target"), argsName_("args"), kwargsName_("kwargs"),
      storedArgsName_("_args"), storedKwargsName_("_kwargs"), metaName_("meta"),
      usersName_("users"), shapeName_("shape"), strideName_("stride"), dtypeName_("dtype"),
      deviceName_("device"), fakeDeviceName_("fake_device"), storageOffsetName_("storage_offset"),
      schemaName_("_schema"), valKey_("val"), tensorMetaKey_("tensor_meta") {
  for (auto [dtype, abbreviation] : types_.dtypes)
    if (std::optional<DType> parsed = dtypeFromAbbreviation(utf8(abbreviation)))
      dtypes_.emplace(dtype.ptr(), *parsed);
}

std::string_view FxImporter::saveRepr(Context& context, py::handle value) {
  return context.save(utf8(py::repr(value)));
}

void FxImporter::learnSchema(py::handle op) {
  if (!isInstance(op, types_.opTypes) || !py::hasattr(op, schemaName_))
    return;
  Result<OpSchema> schema = parseSchema(utf8(py::str(getattr(op, schemaName_))));
  // A schema declone's parser cannot read leaves the op unknown, which is conservative.
  if (!schema.ok() || schema->opNamespace.empty())
    return;
  const OpSchema* builtin =
      SchemaRegistry::builtin().lookup(schema->opNamespace, schema->name, schema->overload);
  if (builtin && builtin->toString() == schema->toString())
    return;
  liveSchemas_->add(std::move(schema).value());
}

const Target* FxImporter::functionTarget(ImportedGraph& imported, py::handle target) {
  auto current = currentTargets_.find(target.ptr());
  if (current != currentTargets_.end())
    return current->second;
  auto known = targets_.find(target.ptr());
  if (known == targets_.end()) {
    TargetInfo info;
    info.spelling = py::str(types_.targetText(target));
    info.kind = info.spelling.starts_with("torch.ops.") ? Target::Kind::Op : Target::Kind::Function;
    learnSchema(target);
    known = targets_
                .emplace(target.ptr(), std::make_pair(py::reinterpret_borrow<py::object>(target),
                                                      std::move(info)))
                .first;
  }
  const TargetInfo& info = known->second.second;
  Context& context = *imported.file_->context;
  const Target* interned = context.target(info.kind, context.save(info.spelling));
  currentTargets_.emplace(target.ptr(), interned);
  return interned;
}

bool FxImporter::appendSymValue(Context& context, py::handle value, std::vector<SymExpr>& out) {
  if (PyLong_Check(value.ptr()) && !PyBool_Check(value.ptr())) {
    int overflow = 0;
    long long integer = PyLong_AsLongLongAndOverflow(value.ptr(), &overflow);
    if (overflow)
      return false;
    out.push_back(SymExpr::constant(integer));
    return true;
  }
  if (!isInstance(value, types_.symTypes))
    return false;
  // A SymInt prints as its sympy expression, the spelling annotations use. torch 1.13's
  // symbolic tracing names sizes like `t0.size(0)`, which does not parse: left unknown.
  Result<SymExpr> parsed = context.sym().parse(utf8(py::str(value)));
  if (!parsed.ok())
    return false;
  out.push_back(*parsed);
  return true;
}

FxImporter::MetaValue FxImporter::metaValue(py::handle meta) {
  if (!PyDict_Check(meta.ptr()))
    return {};
  PyObject* val = PyDict_GetItemWithError(meta.ptr(), valKey_.ptr());
  if (!val && PyErr_Occurred())
    throw py::error_already_set();
  if (val && isInstance(val, types_.tensorType))
    return {val, MetaValue::Kind::Tensor};
  PyObject* tensorMeta = PyDict_GetItemWithError(meta.ptr(), tensorMetaKey_.ptr());
  if (!tensorMeta && PyErr_Occurred())
    throw py::error_already_set();
  auto describesTensor = [&](py::handle value) {
    return py::hasattr(value, shapeName_) && py::hasattr(value, dtypeName_);
  };
  if (tensorMeta && describesTensor(tensorMeta))
    return {tensorMeta, MetaValue::Kind::TensorMetadata};
  if (!val)
    return {};
  return {val, describesTensor(val) ? MetaValue::Kind::TensorMetadata : MetaValue::Kind::Other};
}

void FxImporter::annotateForCloneElimination(Graph& graph, bool inferOffsets) {
  graph.numberNodes();
  std::vector<bool> consulted(graph.orderBound(), false);
  forEachCloneAndSource(graph, [&](const Node* node) { consulted[node->order()] = true; });
  Context& context = graph.context();
  bool offsetsKnown = true;
  for (auto& [node, fxNode] : deferred_) {
    if (!consulted[node->order()])
      continue;
    py::object meta = getattr(fxNode, metaName_);
    // A clone's input comes first in program order, so it is annotated by now. Its sizes,
    // dtype and device are the clone's, read from a live tensor (so with a known offset).
    const TensorType* cloneOf = nullptr;
    if (node->isCall() && node->target()->isOp("aten", "clone") && !node->args().empty() &&
        node->args()[0].isNode()) {
      const TypeAnnotation& input = node->args()[0].node()->type();
      if (input.kind == TypeAnnotation::Kind::Tensor && input.tensor->storageOffset)
        cloneOf = input.tensor;
    }
    node->setType(context.create<TypeAnnotation>(annotation(context, meta, cloneOf)));
    const TypeAnnotation& type = node->type();
    if (type.kind == TypeAnnotation::Kind::Tensor && !type.tensor->storageOffset)
      offsetsKnown = false;
  }
  // An offset LayoutAnalysis must infer comes from the annotations of the views behind it.
  if (!offsetsKnown && inferOffsets)
    for (auto& [node, fxNode] : deferred_)
      if (!consulted[node->order()])
        node->setType(
            context.create<TypeAnnotation>(annotation(context, getattr(fxNode, metaName_))));
}

std::string_view FxImporter::deviceSpelling(Context& context, py::handle tensor) {
  // A FakeTensor's `device` is a Python property (microseconds); its `fake_device` attribute is
  // the same device, read directly.
  PyObject* device = PyObject_GetAttr(tensor.ptr(), fakeDeviceName_.ptr());
  if (!device) {
    PyErr_Clear();
    device = PyObject_GetAttr(tensor.ptr(), deviceName_.ptr());
    if (!device)
      throw py::error_already_set();
  }
  py::object owned = py::reinterpret_steal<py::object>(device);
  // Graphs live on one or two devices: compare with the last one rather than print each.
  if (lastDevice_) {
    int same = PyObject_RichCompareBool(owned.ptr(), lastDevice_.ptr(), Py_EQ);
    if (same < 0)
      throw py::error_already_set();
    if (same == 1)
      return context.save(lastDeviceSpelling_);
  }
  lastDeviceSpelling_ = utf8(py::str(owned));
  lastDevice_ = std::move(owned);
  return context.save(lastDeviceSpelling_);
}

bool FxImporter::appendSymValues(Context& context, py::handle values, std::vector<SymExpr>& out) {
  // torch.Size and stride tuples are tuples: index them rather than make an iterator.
  if (PyTuple_Check(values.ptr())) {
    Py_ssize_t size = PyTuple_GET_SIZE(values.ptr());
    for (Py_ssize_t i = 0; i < size; ++i)
      if (!appendSymValue(context, PyTuple_GET_ITEM(values.ptr(), i), out))
        return false;
    return true;
  }
  for (py::handle value : values)
    if (!appendSymValue(context, value, out))
      return false;
  return true;
}

TypeAnnotation FxImporter::annotation(Context& context, py::handle meta,
                                      const TensorType* cloneOf) {
  TypeAnnotation none;
  auto [value, kind] = metaValue(meta);
  if (kind == MetaValue::Kind::None)
    return none;
  bool isTensor = kind == MetaValue::Kind::Tensor;
  if (kind == MetaValue::Kind::Other) {
    if (!isInstance(value, types_.symTypes))
      return none;
    Result<SymExpr> parsed = context.sym().parse(utf8(py::str(value)));
    if (!parsed.ok())
      return none;
    TypeAnnotation sym;
    sym.kind = TypeAnnotation::Kind::Sym;
    sym.sym = *parsed;
    return sym;
  }

  TensorType tensor;
  scratch_.clear();
  if (isTensor && cloneOf) {
    // aten.clone keeps its input's dtype, sizes and device; only the layout may differ.
    tensor.dtype = cloneOf->dtype;
    scratch_.assign(cloneOf->sizes.begin(), cloneOf->sizes.end());
  } else {
    auto dtype = dtypes_.find(getattr(value, dtypeName_).ptr());
    if (dtype == dtypes_.end())
      return none;
    tensor.dtype = dtype->second;
    if (!appendSymValues(context, getattr(value, shapeName_), scratch_))
      return none;
  }
  size_t rank = scratch_.size();
  // A tensor has a stride() method; TensorMetadata has a stride field (a tuple).
  py::object stride;
  if (isTensor) {
    PyObject* strides = PyObject_CallMethodNoArgs(value.ptr(), strideName_.ptr());
    if (!strides) { // e.g. a sparse tensor, which has no strides
      PyErr_Clear();
      return none;
    }
    stride = py::reinterpret_steal<py::object>(strides);
  } else {
    stride = getattr(value, strideName_);
  }
  if (!stride.is_none()) {
    if (!appendSymValues(context, stride, scratch_) || scratch_.size() != 2 * rank)
      return none;
  }
  if (isTensor) {
    tensor.device = cloneOf ? cloneOf->device : deviceSpelling(context, value);
    PyObject* offset = PyObject_CallMethodNoArgs(value.ptr(), storageOffsetName_.ptr());
    if (!offset)
      throw py::error_already_set();
    if (!appendSymValue(context, py::reinterpret_steal<py::object>(offset), scratch_))
      return none;
    // Known, even when 0 (which the writer leaves unprinted): nothing need be inferred.
    tensor.storageOffset = scratch_.back();
    scratch_.pop_back();
  }
  std::span<SymExpr> fields = context.allocate<SymExpr>(scratch_.size());
  std::copy(scratch_.begin(), scratch_.end(), fields.begin());
  tensor.sizes = fields.first(rank);
  if (fields.size() > rank)
    tensor.strides = fields.subspan(rank);
  TypeAnnotation type;
  type.kind = TypeAnnotation::Kind::Tensor;
  type.tensor = context.create<TensorType>(tensor);
  return type;
}

Arg FxImporter::convertArg(ImportedGraph& imported, py::handle value, int depth) {
  if (depth > kMaxArgDepth)
    throw std::invalid_argument("arguments nested more than 256 levels deep");
  Context& context = *imported.file_->context;
  Graph& graph = imported.module().graph;
  PyObject* object = value.ptr();
  Arg out;
  if (object == Py_None)
    return out;
  if (PyBool_Check(object)) {
    out.kind = ArgKind::Bool;
    out.boolean = object == Py_True;
    return out;
  }
  if (PyLong_Check(object)) {
    int overflow = 0;
    long long integer = PyLong_AsLongLongAndOverflow(object, &overflow);
    if (overflow) { // beyond int64: kept as Python spells it
      out.kind = ArgKind::Verbatim;
      out.setText(saveRepr(context, value));
      return out;
    }
    out.kind = ArgKind::Int;
    out.integer = integer;
    return out;
  }
  if (PyFloat_Check(object)) {
    out.kind = ArgKind::Float;
    out.real = PyFloat_AS_DOUBLE(object);
    return out;
  }
  if (PyUnicode_Check(object)) {
    out.kind = ArgKind::String;
    out.setText(saveRepr(context, value));
    return out;
  }
  if (isInstance(value, types_.nodeType)) {
    Node* found = importedNode(object);
    if (!found)
      throw std::invalid_argument("node '" + std::string(utf8(getattr(value, nameName_))) +
                                  "' is used before it is defined");
    return graph.nodeArg(found);
  }
  bool isList = PyList_Check(object);
  if (isList || PyTuple_Check(object)) {
    py::sequence sequence = py::reinterpret_borrow<py::sequence>(value);
    if (sequence.size() > Arg::kMaxElements)
      throw std::invalid_argument("a " + std::string(isList ? "list" : "tuple") + " of more than " +
                                  std::to_string(Arg::kMaxElements) + " elements");
    std::span<Arg> elements = context.allocate<Arg>(sequence.size());
    for (size_t i = 0; i < elements.size(); ++i)
      elements[i] = convertArg(imported, sequence[i], depth + 1);
    out.kind = isList ? ArgKind::List : ArgKind::Tuple;
    out.count = static_cast<uint32_t>(elements.size());
    out.elements = elements.data();
    return out;
  }
  if (PyDict_Check(object)) {
    py::dict dict = py::reinterpret_borrow<py::dict>(value);
    if (2 * dict.size() > Arg::kMaxElements)
      throw std::invalid_argument("a dict of more than " + std::to_string(Arg::kMaxElements / 2) +
                                  " items");
    std::span<Arg> elements = context.allocate<Arg>(2 * dict.size());
    size_t i = 0;
    for (auto [key, item] : dict) {
      elements[i++] = convertArg(imported, key, depth + 1);
      elements[i++] = convertArg(imported, item, depth + 1);
    }
    out.kind = ArgKind::Dict;
    out.count = static_cast<uint32_t>(elements.size());
    out.elements = elements.data();
    return out;
  }
  if (PySlice_Check(object)) {
    std::span<Arg> elements = context.allocate<Arg>(3);
    const char* fields[] = {"start", "stop", "step"};
    for (size_t i = 0; i < 3; ++i)
      elements[i] = convertArg(imported, value.attr(fields[i]), depth + 1);
    out.kind = ArgKind::Slice;
    out.count = 3;
    out.elements = elements.data();
    return out;
  }
  if (auto dtype = dtypes_.find(object); dtype != dtypes_.end()) {
    out.kind = ArgKind::DType;
    out.dtype = dtype->second;
    return out;
  }
  if (PyObject* format = PyDict_GetItemWithError(types_.memoryFormats.ptr(), object)) {
    out.kind = ArgKind::MemoryFormat;
    out.enumValue = static_cast<uint8_t>(PyLong_AsLong(format));
    return out;
  }
  if (PyObject* layout = PyDict_GetItemWithError(types_.layouts.ptr(), object)) {
    out.kind = ArgKind::Layout;
    out.setText(context.save(utf8(layout)));
    return out;
  }
  if (PyErr_Occurred()) // an unhashable value looked up in the dicts above
    PyErr_Clear();
  if (isInstance(value, types_.deviceType)) {
    out.kind = ArgKind::Device;
    out.setText(saveRepr(context, value));
    return out;
  }
  if (isInstance(value, types_.opTypes)) {
    out.kind = ArgKind::OpRef;
    out.op = functionTarget(imported, value);
    return out;
  }
  if (isInstance(value, types_.symTypes)) {
    if (Result<SymExpr> parsed = context.sym().parse(utf8(py::str(value))); parsed.ok()) {
      out.kind = ArgKind::SymInt;
      out.sym = context.create<SymExpr>(*parsed);
      return out;
    }
  }
  // Anything else prints as Python's repr and stays opaque to the analyses.
  out.kind = ArgKind::Verbatim;
  out.setText(saveRepr(context, value));
  return out;
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
      lastScannedIsClone_ = scanned.target->isOp("aten", "clone");
    }
    imported.clones_ += lastScannedIsClone_;
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
  case Node::Kind::Placeholder:
    node = graph.createPlaceholder(name, type());
    break;
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
    if (callee->isOp("aten", "clone"))
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

Node* FxImporter::importStandIn(ImportedGraph& imported, const ScannedNode& scanned,
                                uint32_t position, uint32_t line) {
  // No decision names a stand-in, so its name is not read (a Python string per node of a
  // large graph): it is `_` and its position among the graph's nodes.
  Graph& graph = imported.module().graph;
  char buffer[16] = "_";
  std::string_view name(buffer, std::to_chars(buffer + 1, std::end(buffer), position).ptr);
  Node* node = scanned.kind == Node::Kind::Placeholder ? graph.createPlaceholder(name, nullptr)
                                                       : graph.createGetAttr(name, name, nullptr);
  node->setLine(line);
  return node;
}

namespace {

// dumps prints `class ...:` (line 1), `def forward(self, PLACEHOLDERS):` (line 2), then one line
// per node.
constexpr uint32_t kSignatureLine = 2;

} // namespace

/// Answers selectCloneNeighbourhood from the live graph, reading only the nodes it asks about.
class FxImporter::NeighbourhoodReader final : public NeighbourhoodSource {
public:
  NeighbourhoodReader(FxImporter& importer, const std::vector<ScannedNode>& nodes)
      : importer_(importer), nodes_(nodes) {}

  [[nodiscard]] uint32_t size() const override { return static_cast<uint32_t>(nodes_.size()); }
  [[nodiscard]] Node::Kind kind(uint32_t node) const override { return nodes_[node].kind; }
  [[nodiscard]] const Target* target(uint32_t node) const override { return nodes_[node].target; }

  void arguments(uint32_t node, Arguments& out) override {
    out.arguments.clear();
    out.nested.clear();
    const ScannedNode& scanned = nodes_[node];
    if (scanned.kind != Node::Kind::Call && scanned.kind != Node::Kind::Output)
      return;
    py::tuple positional =
        py::reinterpret_borrow<py::tuple>(getattr(scanned.fxNode, *importer_.argsAttribute_));
    if (scanned.kind == Node::Kind::Output) { // the output's one argument is what it returns
      if (!positional.empty())
        add(out, positional[0], 0, {});
      return;
    }
    py::dict keywords =
        py::reinterpret_borrow<py::dict>(getattr(scanned.fxNode, *importer_.kwargsAttribute_));
    out.arguments.reserve(positional.size() + keywords.size());
    for (size_t i = 0; i < positional.size(); ++i)
      add(out, positional[i], static_cast<uint32_t>(i), {});
    for (auto [key, value] : keywords)
      add(out, value, Argument::kKeyword, utf8(key));
  }

  void users(uint32_t node, std::vector<uint32_t>& out) override {
    out.clear();
    py::object users = getattr(nodes_[node].fxNode, importer_.usersName_);
    if (PyDict_Check(users.ptr())) { // FX's users is a dict: the users are its keys
      PyObject* key = nullptr;
      PyObject* value = nullptr;
      for (Py_ssize_t at = 0; PyDict_Next(users.ptr(), &at, &key, &value);)
        out.push_back(position(key));
      return;
    }
    for (py::handle user : users)
      out.push_back(position(user.ptr()));
  }

private:
  uint32_t position(PyObject* fxNode) const {
    uint32_t found = importer_.nodes_.find(fxNode);
    if (found == NodeMap::kAbsent) {
      py::handle node(fxNode);
      std::string name = PyObject_HasAttr(fxNode, importer_.nameName_.ptr())
                             ? std::string(utf8(getattr(node, importer_.nameName_)))
                             : std::string(utf8(py::repr(node)));
      throw std::invalid_argument("node '" + name + "' is not in the graph");
    }
    return found;
  }

  void add(Arguments& out, py::handle value, uint32_t position, std::string_view keyword) {
    Argument& argument = out.arguments.emplace_back();
    argument.position = position;
    argument.keyword = keyword;
    PyObject* object = value.ptr();
    int overflow = 0;
    if (value.is_none()) {
      argument.value = Argument::Value::None;
    } else if (PyLong_Check(object) && !PyBool_Check(object) &&
               (argument.integer = PyLong_AsLongLongAndOverflow(object, &overflow), !overflow)) {
      argument.value = Argument::Value::Int; // as convertArg reads it: beyond int64 is Verbatim
    } else if (isInstance(value, importer_.types_.nodeType)) {
      argument.value = Argument::Value::Node;
      argument.node = this->position(value.ptr());
    } else {
      argument.value = Argument::Value::Other;
      addNested(out, value, 1);
    }
  }

  /// The nodes inside a list, tuple, dict or slice, as convertArg finds them.
  void addNested(Arguments& out, py::handle value, int depth) {
    if (depth > 256)
      throw std::invalid_argument("arguments nested more than 256 levels deep");
    PyObject* object = value.ptr();
    if (isInstance(value, importer_.types_.nodeType)) {
      out.nested.push_back(position(object));
    } else if (PyList_Check(object) || PyTuple_Check(object)) {
      for (py::handle element : py::reinterpret_borrow<py::sequence>(value))
        addNested(out, element, depth + 1);
    } else if (PyDict_Check(object)) {
      for (auto [key, item] : py::reinterpret_borrow<py::dict>(value)) {
        addNested(out, key, depth + 1);
        addNested(out, item, depth + 1);
      }
    } else if (PySlice_Check(object)) {
      for (const char* field : {"start", "stop", "step"})
        addNested(out, value.attr(field), depth + 1);
    }
  }

  FxImporter& importer_;
  const std::vector<ScannedNode>& nodes_;
};

std::unique_ptr<ImportedGraph>
FxImporter::importGraph(py::handle fxGraph, TensorAnnotations annotations,
                        std::optional<CloneEliminationMode> neighbourhood, bool wholeWhenDense) {
  bool deferTensors = annotations == TensorAnnotations::ForCloneElimination;
  if (neighbourhood && !deferTensors)
    throw std::invalid_argument("a clone neighbourhood is imported for clone elimination only");
  std::unique_ptr<ImportedGraph> imported = startImport();
  Graph& graph = imported->module().graph;
  // First a look at every node (its op and target, which FX keeps on the node itself); then,
  // for a neighbourhood, the selection reads the arguments and users it needs; then the
  // chosen nodes are imported.
  std::vector<ScannedNode> scanned;
  py::object fxNodes = getattr(fxGraph, py::str("nodes"));
  if (Py_ssize_t size = PyObject_Size(fxNodes.ptr()); size > 0) {
    scanned.reserve(static_cast<size_t>(size));
    nodes_.reserve(static_cast<size_t>(size));
  } else if (size < 0) {
    PyErr_Clear(); // a graph whose node list has no length: grow as it goes
  }
  for (py::handle fxNode : fxNodes) {
    if (scanned.empty())
      chooseArgumentAttributes(fxNode);
    nodes_.insert(fxNode.ptr(), static_cast<uint32_t>(scanned.size()));
    scanned.push_back(scanNode(*imported, fxNode));
  }
  // A clone's neighbourhood is a handful of nodes. With a clone in every few nodes it would be
  // most of the graph, and choosing it would cost more than it saves. (Either way the
  // decisions are the same.)
  constexpr size_t kNodesPerClone = 8;
  bool partial =
      neighbourhood && (!wholeWhenDense || imported->clones_ * kNodesPerClone < scanned.size());
  std::vector<NeighbourhoodRole> roles;
  if (partial) {
    NeighbourhoodReader reader(*this, scanned);
    roles = selectCloneNeighbourhood(reader, *liveSchemas_, *neighbourhood);
  } else {
    roles.assign(scanned.size(), NeighbourhoodRole::Imported);
  }
  // Nodes are made in program order, so an argument naming a later node finds none.
  irNodes_.assign(scanned.size(), nullptr);
  uint32_t line = kSignatureLine + 1;
  for (uint32_t position = 0; position < scanned.size(); ++position) {
    const ScannedNode& node = scanned[position];
    uint32_t nodeLine = node.kind == Node::Kind::Placeholder ? kSignatureLine : line++;
    switch (roles[position]) {
    case NeighbourhoodRole::Absent:
      break;
    case NeighbourhoodRole::StandIn:
      irNodes_[position] = importStandIn(*imported, node, position, nodeLine);
      break;
    case NeighbourhoodRole::Imported:
      irNodes_[position] = importNode(*imported, node, nodeLine, deferTensors);
      break;
    }
  }
  nodes_.clear();
  irNodes_.clear();
  if (!graph.output())
    throw std::invalid_argument("the graph has no output node");
  if (deferTensors)
    annotateForCloneElimination(graph, !partial);
  deferred_.clear();
  if (!partial)
    return imported;
  // Deciding on the neighbourhood is exact only where no layout is inferred from nodes outside.
  if (!cloneLayoutsAreStated(graph))
    return importGraph(fxGraph, annotations, std::nullopt);
  imported->neighbourhood_ = neighbourhood;
  return imported;
}

} // namespace declone::python
