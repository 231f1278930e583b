// Converts torch objects into declone's values: arguments, targets and their schemas, and the
// annotations that meta["val"] or meta["tensor_meta"] state.
#include "FxImport.h"
#include "PyObjects.h"
#include "declone/analysis/Effects.h"
#include "declone/schema/Schema.h"

#include <stdexcept>

namespace declone::python {

std::string_view FxImporter::saveRepr(Context& context, py::handle value) {
  return context.save(utf8(py::repr(value)));
}

namespace {

/// PyTorch prints the anonymous alias set of `Tensor!` as `Tensor($0! -> )`, which is no schema
/// text: written back as the `!` it was (as `python -m declone schemas` writes it).
std::string withAnonymousWrites(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    if (text.substr(i, 2) == "($") {
      size_t end = i + 2;
      while (end < text.size() && text[end] >= '0' && text[end] <= '9')
        ++end;
      if (end > i + 2 && text.substr(end, 6) == "! -> )") {
        out += '!';
        i = end + 6;
        continue;
      }
    }
    out += text[i++];
  }
  return out;
}

} // namespace

void FxImporter::learnSchema(py::handle op) {
  if (!isInstance(op, types_.opTypes) || !py::hasattr(op, schemaName_))
    return;
  Result<OpSchema> schema =
      parseSchema(withAnonymousWrites(utf8(py::str(getattr(op, schemaName_)))));
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

bool FxImporter::mayReturnArgument(const Target& target) {
  auto [entry, added] = returnsArgument_.try_emplace(&target, true);
  if (!added)
    return entry->second;
  switch (target.kind) {
  case Target::Kind::Op:
    if (isFunctionalHigherOrder(target)) {
      entry->second = false;
    } else if (const OpSchema* schema =
                   liveSchemas_->lookup(target.opNamespace, target.opName, target.overload);
               schema && !target.isHigherOrder()) {
      bool writes = false;
      for (size_t i = 0; i < schema->arguments.size(); ++i)
        writes = writes || schema->writesArgument(i);
      entry->second = writes;
    }
    break;
  case Target::Kind::Function:
    // Python's operators and symbolic-int functions make new values; getitem's is an element
    // of its container, whose val is a list or tuple rather than a tensor.
    entry->second = !(target.qualifiedName.starts_with("operator.") ||
                      target.qualifiedName.starts_with("_operator.") ||
                      target.qualifiedName.starts_with("torch.sym_") ||
                      target.qualifiedName.starts_with("math."));
    break;
  case Target::Kind::Method:
  case Target::Kind::Module:
    break;
  }
  return entry->second;
}

void FxImporter::findSharedValues(const std::vector<ScannedNode>& scanned) {
  sharedValues_.clear();
  if (!mayShareValues_)
    return;
  std::unordered_set<PyObject*> seen;
  for (const ScannedNode& node : scanned) {
    if (node.kind == Node::Kind::Output)
      continue;
    py::object meta = getattr(node.fxNode, metaName_);
    if (!PyDict_Check(meta.ptr()))
      continue;
    PyObject* val = PyDict_GetItemWithError(meta.ptr(), valKey_.ptr());
    if (!val && PyErr_Occurred())
      throw py::error_already_set();
    if (val && isInstance(val, types_.tensorType) && !seen.insert(val).second)
      sharedValues_.insert(val);
  }
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
  bool stale = false;
  if (valOnly_ && !val) // as vLLM reads a node: no val, no value (whatever tensor_meta says)
    return {};
  if (valOnly_) // the val as it is, stale or not
    return {val,
            isInstance(val, types_.tensorType) ? MetaValue::Kind::Tensor : MetaValue::Kind::Other,
            {}};
  if (val && isInstance(val, types_.tensorType)) {
    stale = sharedValues_.count(val) != 0;
    if (!stale)
      return {val, MetaValue::Kind::Tensor, {}};
  }
  PyObject* tensorMeta = PyDict_GetItemWithError(meta.ptr(), tensorMetaKey_.ptr());
  if (!tensorMeta && PyErr_Occurred())
    throw py::error_already_set();
  auto describesTensor = [&](py::handle value) {
    return py::hasattr(value, shapeName_) && py::hasattr(value, dtypeName_);
  };
  if (tensorMeta && describesTensor(tensorMeta))
    return {tensorMeta, MetaValue::Kind::TensorMetadata, stale ? py::handle(val) : py::handle()};
  if (stale) // a tensor whose layout may be another node's: none rather than a wrong one
    return {};
  if (!val)
    return {};
  return {val, describesTensor(val) ? MetaValue::Kind::TensorMetadata : MetaValue::Kind::Other, {}};
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
  MetaValue found = metaValue(meta);
  py::handle value = found.value;
  MetaValue::Kind kind = found.kind;
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
  if (!isTensor && found.deviceOf) // metadata metaValue took for a live tensor's
    tensor.device = deviceSpelling(context, found.deviceOf);
  if (isTensor) {
    tensor.device = cloneOf ? cloneOf->device : deviceSpelling(context, value);
    if (trustOffsets_) {
      PyObject* offset = PyObject_CallMethodNoArgs(value.ptr(), storageOffsetName_.ptr());
      if (!offset)
        throw py::error_already_set();
      if (!appendSymValue(context, py::reinterpret_steal<py::object>(offset), scratch_))
        return none;
      // Known, even when 0 (which the writer leaves unprinted): nothing need be inferred.
      tensor.storageOffset = scratch_.back();
      scratch_.pop_back();
    }
    // So are the conjugate and negative bits.
    for (auto [name, bit] :
         {std::pair(&isConjName_, &tensor.conj), std::pair(&isNegName_, &tensor.neg)}) {
      PyObject* set = PyObject_CallMethodNoArgs(value.ptr(), name->ptr());
      if (!set)
        throw py::error_already_set();
      *bit = PyObject_IsTrue(set) == 1;
      Py_DECREF(set);
    }
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
  if (PyComplex_Check(object)) { // repr() is the literal FX prints: `(1+2j)`
    out.kind = ArgKind::Complex;
    out.setText(saveRepr(context, value));
    return out;
  }
  if (object == Py_Ellipsis) {
    out.kind = ArgKind::Ellipsis;
    out.setText("Ellipsis");
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

} // namespace declone::python
