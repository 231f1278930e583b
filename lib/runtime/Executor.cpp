// Executes graphs through the dispatcher: boxed calls by schema, the metadata queries (sym_size,
// ...), Python's arithmetic and indexing (getitem of tuples, lists and tensors), get_attr
// constants from the inputs. The higher-order ops are in ExecutorHigherOrder.cpp.
#include "ExecutorImpl.h"

namespace declone::runtime::detail {

std::string opName(const Target& target) {
  return std::string(target.opNamespace) + "::" + std::string(target.opName) +
         (target.overload.empty() || target.overload == "default"
              ? std::string()
              : "." + std::string(target.overload));
}

std::optional<c10::OperatorHandle> findOperator(const Target& target) {
  std::string overload =
      target.overload == "default" ? std::string() : std::string(target.overload);
  c10::optional<c10::OperatorHandle> handle = c10::Dispatcher::singleton().findSchema(
      {std::string(target.opNamespace) + "::" + std::string(target.opName), overload});
  if (!handle)
    return std::nullopt;
  return *handle;
}

std::string decodeString(std::string_view quoted) {
  std::string out;
  for (size_t i = 1; i + 1 < quoted.size(); ++i) {
    char c = quoted[i];
    if (c == '\\' && i + 2 < quoted.size()) {
      char next = quoted[++i];
      out += next == 'n' ? '\n' : next == 't' ? '\t' : next;
      continue;
    }
    out += c;
  }
  return out;
}

namespace {

/// What a kernel that indexes tensor arguments from their data pointers without checking their
/// sizes needs of them, or an empty string. A graph that breaks that (a rewrite that resized or
/// emptied such an argument, say) would read or write out of bounds and crash the verifier:
/// - the fused observer ops read and write element 0 (per tensor) or one element per channel of
///   running_min, running_max, scale and zero_point;
/// - rrelu_with_noise in training writes one element of noise per element of self.
std::string uncheckedIndexing(const c10::FunctionSchema& schema, const torch::jit::Stack& stack) {
  auto value = [&](const char* argument) -> const c10::IValue* {
    auto index = schema.argumentIndexWithName(argument);
    return index && static_cast<size_t>(*index) < stack.size() ? &stack[*index] : nullptr;
  };
  auto flag = [&](const char* argument) {
    const c10::IValue* set = value(argument);
    return set && set->isBool() && set->toBool();
  };
  auto room = [&](const char* argument, int64_t needed) -> std::string {
    const c10::IValue* tensor = value(argument);
    if (!tensor || !tensor->isTensor() || !tensor->toTensor().defined())
      return {};
    const at::Tensor& t = tensor->toTensor();
    int64_t available =
        static_cast<int64_t>(t.storage().nbytes() / t.itemsize()) - t.storage_offset();
    if (available >= needed)
      return {};
    return std::string(argument) + " has room for " + std::to_string(available) +
           " elements and the kernel indexes " + std::to_string(needed) + " unchecked";
  };
  const std::string& name = schema.name();
  const c10::IValue* self = value("self");
  if (name == "aten::_fused_moving_avg_obs_fq_helper" ||
      name == "aten::fused_moving_avg_obs_fake_quant") {
    int64_t needed = 1;
    const c10::IValue* axis = value("ch_axis");
    if (self && self->isTensor() && flag("per_row_fake_quant") && axis && axis->isInt()) {
      const at::Tensor& input = self->toTensor();
      int64_t dim = axis->toInt();
      if (dim < -input.dim() || dim >= input.dim())
        return "ch_axis " + std::to_string(dim) + " is not a dimension of self";
      needed = input.size(dim < 0 ? dim + input.dim() : dim);
    }
    for (const char* argument : {"running_min", "running_max", "scale", "zero_point"})
      if (std::string problem = room(argument, needed); !problem.empty())
        return problem;
  } else if ((name == "aten::rrelu_with_noise" || name == "aten::rrelu_with_noise_") &&
             flag("training") && self && self->isTensor()) {
    return room("noise", self->toTensor().numel());
  }
  return {};
}

} // namespace

Result<int64_t> Executor::intValue(const Arg& arg) {
  if (arg.kind == ArgKind::Int)
    return arg.integer;
  if (arg.kind == ArgKind::Bool)
    return static_cast<int64_t>(arg.boolean);
  if (arg.isNode()) {
    const c10::IValue& value = values_[arg.node()->order()];
    if (value.isInt())
      return value.toInt();
    if (value.isBool())
      return static_cast<int64_t>(value.toBool());
  }
  return fail(current_, "expected an integer argument");
}

Result<c10::IValue> Executor::convert(const Arg& arg, const c10::TypePtr& declared) {
  c10::TypePtr type = declared;
  if (type && type->kind() == c10::TypeKind::OptionalType) {
    if (arg.kind == ArgKind::None)
      return c10::IValue();
    type = type->castRaw<c10::OptionalType>()->getElementType();
  }
  c10::TypeKind kind = type ? type->kind() : c10::TypeKind::AnyType;
  std::optional<c10::complex<double>> complex;
  if (arg.kind == ArgKind::Complex) {
    std::optional<std::complex<double>> value = parseComplexLiteral(arg.text());
    if (!value)
      return fail(current_, "malformed complex literal '" + std::string(arg.text()) + "'");
    complex = c10::complex<double>(value->real(), value->imag());
  }
  if (kind == c10::TypeKind::TensorType &&
      (arg.kind == ArgKind::Int || arg.kind == ArgKind::Float || arg.kind == ArgKind::Bool ||
       complex)) {
    // Python passes `x.add_(1)` as a wrapped-number tensor, which type promotion treats like
    // a scalar.
    at::Scalar scalar = arg.kind == ArgKind::Int     ? at::Scalar(arg.integer)
                        : arg.kind == ArgKind::Float ? at::Scalar(arg.real)
                        : complex                    ? at::Scalar(*complex)
                                                     : at::Scalar(arg.boolean);
    at::Tensor wrapped = at::scalar_tensor(scalar, at::TensorOptions().dtype(scalar.type()));
    wrapped.unsafeGetTensorImpl()->set_wrapped_number(true);
    return c10::IValue(wrapped);
  }
  switch (arg.kind) {
  case ArgKind::None:
    return c10::IValue();
  case ArgKind::Bool:
    return c10::IValue(arg.boolean);
  case ArgKind::Int:
    if (kind == c10::TypeKind::FloatType)
      return c10::IValue(static_cast<double>(arg.integer));
    return c10::IValue(arg.integer);
  case ArgKind::Float:
    return c10::IValue(arg.real);
  case ArgKind::Complex:
    return c10::IValue(*complex);
  case ArgKind::String:
    return c10::IValue(decodeString(arg.text()));
  case ArgKind::Node: {
    c10::IValue value = values_[arg.node()->order()];
    if (kind == c10::TypeKind::FloatType && value.isInt())
      return c10::IValue(static_cast<double>(value.toInt()));
    return value;
  }
  case ArgKind::DType:
    return c10::IValue(scalarType(arg.dtype));
  case ArgKind::MemoryFormat:
    switch (arg.memoryFormat()) {
    case MemoryFormat::Contiguous:
      return c10::IValue(c10::MemoryFormat::Contiguous);
    case MemoryFormat::Preserve:
      return c10::IValue(c10::MemoryFormat::Preserve);
    case MemoryFormat::ChannelsLast:
      return c10::IValue(c10::MemoryFormat::ChannelsLast);
    case MemoryFormat::ChannelsLast3d:
      return c10::IValue(c10::MemoryFormat::ChannelsLast3d);
    }
    break;
  case ArgKind::Layout:
    if (arg.text() != "torch.strided")
      return fail(current_, "only the strided layout runs here, not " + std::string(arg.text()));
    return c10::IValue(c10::kStrided);
  case ArgKind::Device:
    return c10::IValue(c10::Device(c10::kCPU)); // CUDA devices map to the CPU
  case ArgKind::List:
  case ArgKind::Tuple: {
    c10::TypePtr element = type && kind == c10::TypeKind::ListType
                               ? type->castRaw<c10::ListType>()->getElementType()
                               : nullptr;
    c10::TypeKind elementKind = element ? element->kind() : c10::TypeKind::AnyType;
    std::span<const Arg> items = arg.children();
    if (elementKind == c10::TypeKind::TensorType) {
      c10::List<at::Tensor> list;
      for (const Arg& item : items) {
        Result<c10::IValue> value = convert(item, element);
        if (!value.ok())
          return value.error();
        if (!value->isTensor())
          return fail(current_, "expected a tensor in a list");
        list.push_back(value->toTensor());
      }
      return c10::IValue(list);
    }
    if (elementKind == c10::TypeKind::OptionalType &&
        element->castRaw<c10::OptionalType>()->getElementType()->kind() ==
            c10::TypeKind::TensorType) {
      c10::List<c10::optional<at::Tensor>> list;
      for (const Arg& item : items) {
        Result<c10::IValue> value = convert(item, element);
        if (!value.ok())
          return value.error();
        list.push_back(value->isNone() ? c10::optional<at::Tensor>()
                                       : c10::optional<at::Tensor>(value->toTensor()));
      }
      return c10::IValue(list);
    }
    if (elementKind == c10::TypeKind::FloatType) {
      c10::List<double> list;
      for (const Arg& item : items) {
        Result<c10::IValue> value = convert(item, element);
        if (!value.ok())
          return value.error();
        list.push_back(value->toDouble());
      }
      return c10::IValue(list);
    }
    if (elementKind == c10::TypeKind::BoolType) {
      c10::List<bool> list;
      for (const Arg& item : items)
        list.push_back(item.kind == ArgKind::Bool && item.boolean);
      return c10::IValue(list);
    }
    // int[], SymInt[] and anything untyped made of integers.
    c10::List<int64_t> list;
    for (const Arg& item : items) {
      Result<int64_t> value = intValue(item);
      if (!value.ok())
        return value.error();
      list.push_back(*value);
    }
    return c10::IValue(list);
  }
  default:
    break;
  }
  return fail(current_, "cannot pass the argument '" + std::string(arg.text()) + "' to libtorch");
}

Status Executor::callKernel(const Node* node, const Target& target, const c10::OperatorHandle& op,
                            torch::jit::Stack& stack) {
  if (std::string unchecked = uncheckedIndexing(op.schema(), stack); !unchecked.empty())
    return fail(node, opName(target) + " does not run here: " + unchecked);
  if (isStandIn(kernels_, op.operator_name()))
    inputs_.standInsRun.insert(opName(target));
  // No process group exists here: a program that runs stand-ins runs collectives as one rank,
  // and the verdict says so.
  if (kernels_ && runSingleRankCollective(op.operator_name(), stack)) {
    inputs_.standInsRun.insert(opName(target));
    return ok();
  }
  try {
    op.callBoxed(&stack);
  } catch (const std::exception& error) {
    inputs_.kernelRaised = true;
    std::string message = error.what();
    return fail(node, opName(target) + " failed: " + message.substr(0, message.find('\n')));
  }
  return ok();
}

Status Executor::runOp(const Node* node, const Target& target, std::span<const Arg> args,
                       std::span<const KwArg> kwargs, c10::IValue& result) {
  std::optional<c10::OperatorHandle> op = findOperator(target);
  if (!op)
    return fail(node, "no kernel for " + opName(target) + " in this libtorch");
  const c10::FunctionSchema& schema = op->schema();
  const std::vector<c10::Argument>& parameters = schema.arguments();
  if (args.size() > parameters.size())
    return fail(node, "more arguments than " + opName(target) + " takes");
  torch::jit::Stack stack;
  for (size_t i = 0; i < parameters.size(); ++i) {
    const c10::Argument& parameter = parameters[i];
    const Arg* value = i < args.size() ? &args[i] : nullptr;
    if (!value)
      for (const KwArg& kwarg : kwargs)
        if (kwarg.name == parameter.name())
          value = &kwarg.value;
    if (!value) {
      if (!parameter.default_value())
        return fail(node, "missing argument '" + parameter.name() + "' of " + opName(target));
      stack.push_back(*parameter.default_value());
      continue;
    }
    Result<c10::IValue> converted = convert(*value, parameter.type());
    if (!converted.ok())
      return converted.error();
    stack.push_back(std::move(converted).value());
  }
  for (const KwArg& kwarg : kwargs)
    if (!schema.argumentIndexWithName(std::string(kwarg.name)))
      return fail(node, "keyword '" + std::string(kwarg.name) + "' is not an argument of " +
                            opName(target));
  std::optional<PendingFill> uninitialized = uninitializedBy(schema, stack);
  if (Status called = callKernel(node, target, *op, stack); !called.ok())
    return called;
  if (uninitialized)
    fillUninitialized(*uninitialized, stack, inputs_.uninitialized);
  if (stack.size() == 1)
    result = std::move(stack[0]);
  else
    result = c10::ivalue::Tuple::create(std::move(stack));
  return ok();
}

Result<at::indexing::TensorIndex> Executor::tensorIndex(const Node* node, const Arg& index) {
  using at::indexing::TensorIndex;
  auto bound = [&](const Arg& value) -> Result<c10::optional<int64_t>> {
    if (value.kind == ArgKind::None)
      return c10::optional<int64_t>();
    Result<int64_t> integer = intValue(value);
    if (!integer.ok())
      return fail(node, "a slice bound must be an integer or None");
    return c10::optional<int64_t>(*integer);
  };
  switch (index.kind) {
  case ArgKind::None:
    return TensorIndex(at::indexing::None);
  case ArgKind::Bool:
    return TensorIndex(index.boolean);
  case ArgKind::Int:
    return TensorIndex(index.integer);
  case ArgKind::Slice: {
    std::span<const Arg> parts = index.children();
    if (parts.size() != 3)
      return fail(node, "a slice needs start, stop and step");
    Result<c10::optional<int64_t>> start = bound(parts[0]), stop = bound(parts[1]),
                                   step = bound(parts[2]);
    if (!start.ok() || !stop.ok() || !step.ok())
      return fail(node, "a slice bound must be an integer or None");
    return TensorIndex(at::indexing::Slice(*start, *stop, *step));
  }
  case ArgKind::Node: {
    const c10::IValue& value = values_[index.node()->order()];
    if (value.isTensor())
      return TensorIndex(value.toTensor());
    if (value.isInt())
      return TensorIndex(value.toInt());
    if (value.isBool())
      return TensorIndex(value.toBool());
    if (value.isNone())
      return TensorIndex(at::indexing::None);
    return fail(node, "index " + std::string(index.node()->name()) + " is not a tensor or int");
  }
  case ArgKind::List: {
    // x[[0, 2]]: advanced indexing with the list as an int64 tensor.
    std::vector<int64_t> positions;
    for (const Arg& item : index.children()) {
      Result<int64_t> position = intValue(item);
      if (!position.ok())
        return fail(node, "only lists of integers index a tensor here");
      positions.push_back(*position);
    }
    return TensorIndex(at::tensor(positions, at::kLong));
  }
  default:
    if (index.text() == "Ellipsis" || index.text() == "...")
      return TensorIndex(at::indexing::Ellipsis);
    return fail(node, "cannot index a tensor with '" + std::string(index.text()) + "'");
  }
}

Status Executor::runGetItem(const Node* node, c10::IValue& result) {
  std::span<const Arg> args = node->args();
  if (args.size() != 2 || !args[0].isNode())
    return fail(node, "getitem takes a value and an index");
  const c10::IValue& container = values_[args[0].node()->order()];
  if (container.isTensor()) {
    // Python's indexing of a tensor, as FX prints it: x[0], x[(slice(None, 3, None), 1)],
    // x[(Ellipsis, None)]. A tuple holds one index per position.
    std::span<const Arg> items =
        args[1].kind == ArgKind::Tuple ? args[1].children() : args.subspan(1, 1);
    try {
      std::vector<at::indexing::TensorIndex> indices;
      for (const Arg& item : items) {
        Result<at::indexing::TensorIndex> index = tensorIndex(node, item); // Slice may throw
        if (!index.ok())
          return index.error();
        indices.push_back(std::move(index).value());
      }
      result = container.toTensor().index(indices);
    } catch (const std::exception& error) {
      inputs_.kernelRaised = true;
      std::string message = error.what();
      return fail(node, "indexing " + std::string(args[0].node()->name()) +
                            " failed: " + message.substr(0, message.find('\n')));
    }
    return ok();
  }
  Result<int64_t> index = intValue(args[1]);
  if (!index.ok())
    return fail(node, "only getitem of a tuple or list with an integer index runs here");
  // Python's indexing: a negative index counts from the end.
  auto position = [&](size_t size) -> std::optional<size_t> {
    int64_t at = *index;
    auto n = static_cast<int64_t>(size);
    if (at < 0)
      at += n;
    if (at < 0 || at >= n)
      return std::nullopt;
    return static_cast<size_t>(at);
  };
  if (container.isTuple()) {
    const auto& elements = container.toTupleRef().elements();
    std::optional<size_t> at = position(elements.size());
    if (!at)
      return fail(node, "index out of range");
    result = elements[*at];
    return ok();
  }
  if (container.isList()) {
    c10::List<c10::IValue> list = container.toList();
    std::optional<size_t> at = position(list.size());
    if (!at)
      return fail(node, "index out of range");
    result = list.get(*at);
    return ok();
  }
  return fail(node, "getitem of " + std::string(args[0].node()->name()) +
                        ", which is not a tensor, tuple or list");
}

Result<std::vector<int64_t>> Executor::intList(const Arg& arg) {
  if (arg.kind != ArgKind::List && arg.kind != ArgKind::Tuple)
    return fail(current_, "expected a list of integers");
  std::vector<int64_t> values;
  for (const Arg& element : arg.children()) {
    Result<int64_t> value = intValue(element);
    if (!value.ok())
      return value.error();
    values.push_back(*value);
  }
  return values;
}

Status Executor::runFunction(const Node* node, c10::IValue& result) {
  const Target& target = *node->target();
  if (target.isOperator("getitem"))
    return runGetItem(node, result);
  // Python's arithmetic on the ints (and floats, bools) that sym_size and kin return.
  std::vector<c10::IValue> operands;
  for (const Arg& arg : node->args()) {
    c10::IValue value;
    if (arg.kind == ArgKind::Int)
      value = arg.integer;
    else if (arg.kind == ArgKind::Float)
      value = arg.real;
    else if (arg.kind == ArgKind::Bool)
      value = arg.boolean;
    else if (arg.isNode())
      value = values_[arg.node()->order()];
    if (!value.isInt() && !value.isDouble() && !value.isBool())
      return fail(node, std::string(target.qualifiedName) + " runs here only on numbers, not on '" +
                            std::string(arg.text()) + "'");
    operands.push_back(std::move(value));
  }
  std::optional<c10::IValue> value = pythonArithmetic(target.qualifiedName, operands);
  if (!value)
    return fail(node, std::string(target.qualifiedName) + " of these operands does not run here");
  result = std::move(*value);
  return ok();
}

Status Executor::runMetadataQuery(const Node* node, const Target& target, c10::IValue& result) {
  // sym_size, sym_stride, sym_numel, sym_storage_offset: the tensor's metadata, as ints (or an
  // int list for the overloads without a dim). Printed by PyTorch 1.13 without an overload.
  std::span<const Arg> args = node->args();
  if (args.empty() || !args[0].isNode() || !values_[args[0].node()->order()].isTensor())
    return fail(node, opName(target) + " needs a tensor");
  const at::Tensor& tensor = values_[args[0].node()->order()].toTensor();
  std::string_view name = target.opName;
  if (name == "sym_numel" || name == "sym_storage_offset") {
    if (args.size() != 1)
      return fail(node, opName(target) + " takes one tensor");
    result = name == "sym_numel" ? tensor.numel() : tensor.storage_offset();
    return ok();
  }
  c10::IntArrayRef all = name == "sym_size" ? tensor.sizes() : tensor.strides();
  if (args.size() == 1 && target.overload != "int") {
    result = c10::IValue(std::vector<int64_t>(all.begin(), all.end()));
    return ok();
  }
  if (args.size() != 2 || target.overload == "default")
    return fail(node, opName(target) + " takes a tensor and a dim");
  Result<int64_t> dim = intValue(args[1]);
  if (!dim.ok())
    return dim.error();
  auto rank = static_cast<int64_t>(all.size());
  int64_t wrapped = *dim < 0 ? *dim + rank : *dim;
  if (wrapped < 0 || wrapped >= rank)
    return fail(node, opName(target) + ": dim " + std::to_string(*dim) + " out of range for " +
                          std::to_string(rank) + " dims");
  result = all[static_cast<size_t>(wrapped)];
  return ok();
}

bool Executor::valuesFit(const OpSchema& schema, const BoundOverload& bound) const {
  // bindOverload takes a node for any parameter; at run time the node's value is known. A
  // tensor goes only where a tensor may, and a number only where a tensor may not (nodes of
  // numbers are SymInts, which FX passes to int parameters).
  auto fits = [&](const Arg& value, size_t index) {
    if (!value.isNode() || index >= schema.arguments.size())
      return true;
    const SchemaType& type = schema.arguments[index].type;
    bool anything = type.element == "t" || type.element == "Any";
    bool tensor = values_[value.node()->order()].isTensor();
    return anything || tensor == type.isTensorLike();
  };
  for (size_t i = 0; i < bound.args.size(); ++i)
    if (!fits(bound.args[i], i))
      return false;
  for (const KwArg& kwarg : bound.kwargs)
    if (std::optional<size_t> index = schema.argumentIndex(kwarg.name))
      if (!fits(kwarg.value, *index))
        return false;
  return true;
}

Status Executor::runOverloaded(const Node* node, c10::IValue& result) {
  const Target& target = *node->target();
  std::vector<Arg> storage;
  std::optional<Error> firstError;
  for (const OpSchema* schema : overloadsOf(target, SchemaRegistry::builtin())) {
    std::optional<BoundOverload> bound =
        bindOverload(*schema, *node, storage,
                     [&](const Node* value) { return values_[value->order()].isTensor(); });
    if (!bound || !valuesFit(*schema, *bound))
      continue;
    std::string spelling = "torch.ops." + schema->opNamespace + "." + schema->name + "." +
                           (schema->overload.empty() ? "default" : schema->overload);
    const Target* overload = graph_.context().target(Target::Kind::Op, spelling);
    Status status = runOp(node, *overload, bound->args, bound->kwargs, result);
    if (status.ok())
      return status;
    if (!firstError)
      firstError = status.error();
  }
  if (firstError)
    return *firstError;
  return fail(node,
              "no overload of " + std::string(target.qualifiedName) + " takes these arguments");
}

Status Executor::runCall(const Node* node, c10::IValue& result) {
  const Target& target = *node->target();
  if (target.kind == Target::Kind::Function)
    return runFunction(node, result);
  if (target.kind == Target::Kind::Op && target.opNamespace == "aten" &&
      (target.opName == "sym_size" || target.opName == "sym_stride" ||
       target.opName == "sym_numel" || target.opName == "sym_storage_offset"))
    return runMetadataQuery(node, target, result);
  if (target.kind == Target::Kind::Method ||
      (target.kind == Target::Kind::Op && target.overload.empty() && !target.isHigherOrder()))
    return runOverloaded(node, result);
  if (target.kind != Target::Kind::Op)
    return fail(node, "submodule calls do not run here");
  if (target.isHigherOrder()) {
    if (target.opName == "auto_functionalized")
      return runAutoFunctionalized(node, result);
    if (target.opName == "auto_functionalized_v2")
      return runAutoFunctionalizedV2(node, result);
    std::span<const Arg> args = node->args();
    if (target.opName == "invoke_subgraph" && args.size() >= 2) // (body, identifier, *operands)
      return runSubgraph(node, 0, args.subspan(2), result);
    if (target.opName == "wrap" && !args.empty()) // (body, *operands)
      return runSubgraph(node, 0, args.subspan(1), result);
    if (target.opName == "cond")
      return runCond(node, result);
    return fail(node, "higher-order op " + std::string(target.opName) + " does not run here");
  }
  if (target.isOp("prims", "convert_element_type")) {
    // prims.convert_element_type(x, dtype) is aten._to_copy(x, dtype=dtype).
    Context& context = graph_.context();
    const Target* copy = context.target(Target::Kind::Op, "torch.ops.aten._to_copy.default");
    std::span<KwArg> kwargs = context.allocate<KwArg>(1);
    kwargs[0].name = "dtype";
    if (node->args().size() != 2)
      return fail(node, "convert_element_type takes a tensor and a dtype");
    kwargs[0].value = node->args()[1];
    return runOp(node, *copy, node->args().subspan(0, 1), kwargs, result);
  }
  return runOp(node, target, node->args(), node->kwargs(), result);
}

Result<std::vector<c10::IValue>> Executor::run(std::vector<c10::IValue>* nodeValues,
                                               bool snapshot) {
  graph_.numberNodes();
  values_.assign(graph_.orderBound(), c10::IValue());
  if (nodeValues)
    nodeValues->assign(graph_.orderBound(), c10::IValue());
  size_t placeholder = 0;
  std::vector<c10::IValue> outputs;
  for (const Node* node : graph_) {
    current_ = node;
    c10::IValue& value = values_[node->order()];
    switch (node->kind()) {
    case Node::Kind::Placeholder:
      if (placeholder >= inputs_.values.size())
        return fail(node, "more placeholders than inputs");
      value = inputs_.values[placeholder++].value;
      break;
    case Node::Kind::GetAttr: {
      if (subgraph(node))
        break; // a nested class: the call that takes it runs it
      auto attribute = inputs_.attributes.find(node->attribute());
      if (attribute == inputs_.attributes.end())
        return fail(node, "module attribute self." + std::string(node->attribute()) +
                              " has no value here");
      value = attribute->second.value;
      break;
    }
    case Node::Kind::Call: {
      Status status = runCall(node, value);
      if (!status.ok())
        return status.error();
      // What the node produced, even if an in-place metadata op (t_, resize_, set_, ...)
      // changes the tensor later: a shallow alias keeps its sizes, strides and offset. A sparse
      // tensor has no such alias, and no strides to keep.
      if (snapshot && nodeValues)
        (*nodeValues)[node->order()] = value.isTensor() && value.toTensor().defined() &&
                                               value.toTensor().layout() == at::kStrided
                                           ? c10::IValue(value.toTensor().alias())
                                           : value;
      break;
    }
    case Node::Kind::Output: {
      const Arg& returned = node->args()[0];
      auto take = [&](const Arg& element) -> Status {
        if (element.isNode()) {
          outputs.push_back(values_[element.node()->order()]);
          return ok();
        }
        if (element.kind == ArgKind::None) {
          outputs.emplace_back();
          return ok();
        }
        return fail(node, "only nodes and None can be returned here");
      };
      if (returned.kind == ArgKind::Tuple || returned.kind == ArgKind::List) {
        for (const Arg& element : returned.children()) {
          Status status = take(element);
          if (!status.ok())
            return status.error();
        }
      } else if (returned.kind != ArgKind::None) {
        Status status = take(returned);
        if (!status.ok())
          return status.error();
      }
      break;
    }
    }
  }
  if (nodeValues && !snapshot)
    *nodeValues = values_;
  return outputs;
}

Result<std::vector<c10::IValue>> execute(const Graph& graph, Inputs& inputs,
                                         const MissingKernels* kernels,
                                         std::vector<c10::IValue>* nodeValues, bool snapshot) {
  return Executor(graph, inputs, kernels).run(nodeValues, snapshot);
}

Result<std::vector<c10::IValue>> execute(const GraphModule& module, Inputs& inputs,
                                         const MissingKernels* kernels,
                                         std::vector<c10::IValue>* nodeValues) {
  return Executor(module.graph, inputs, kernels, &module).run(nodeValues, true);
}

} // namespace declone::runtime::detail
