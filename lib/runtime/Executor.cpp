// Executes graphs through the dispatcher: inputs from annotations, boxed calls by schema,
// auto_functionalized by its definition, symbolic-int arithmetic, getitem.
#include "declone/runtime/Executor.h"

#include "Execution.h"
#include "declone/analysis/Overloads.h"

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/TensorIndexing.h>
#include <ATen/core/dispatch/Dispatcher.h>
#include <optional>
#include <random>

namespace declone::runtime::detail {
namespace {

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

/// Decodes a Python string literal as the reader kept it ('...' or "...").
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

/// PyTorch's clone_preserve_strides, which auto_functionalized uses: a copy of the tensor's
/// whole storage extent, viewed with the same sizes, strides and storage offset.
at::Tensor clonePreservingStrides(const at::Tensor& tensor) {
  int64_t extent = tensor.storage_offset() + 1;
  for (int64_t i = 0; i < tensor.dim(); ++i) {
    if (tensor.size(i) == 0)
      return tensor.clone();
    extent += (tensor.size(i) - 1) * tensor.stride(i);
  }
  at::Tensor buffer = tensor.as_strided({extent}, {1}, 0).clone();
  return buffer.as_strided(tensor.sizes(), tensor.strides(), tensor.storage_offset());
}

class Executor {
public:
  Executor(const Graph& graph, Inputs& inputs) : graph_(graph), inputs_(inputs) {}

  Result<std::vector<c10::IValue>> run(std::vector<c10::IValue>* nodeValues);

private:
  Status runCall(const Node* node, c10::IValue& result);
  Status runOp(const Node* node, const Target& target, std::span<const Arg> args,
               std::span<const KwArg> kwargs, c10::IValue& result);
  Status runAutoFunctionalized(const Node* node, c10::IValue& result);
  Status runFunction(const Node* node, c10::IValue& result);
  /// A packet call or a Tensor method: the first overload that takes the arguments and runs.
  Status runOverloaded(const Node* node, c10::IValue& result);
  /// The values of the nodes `bound` passes are of the kinds `schema` takes.
  [[nodiscard]] bool valuesFit(const OpSchema& schema, const BoundOverload& bound) const;
  /// `tensor[index]` for Python's basic indexing: ints, slices of ints, None and Ellipsis,
  /// alone or in a tuple.
  Status runTensorIndex(const Node* node, const at::Tensor& tensor, const Arg& index,
                        c10::IValue& result);
  Result<c10::IValue> convert(const Arg& arg, const c10::TypePtr& type);
  Result<int64_t> intValue(const Arg& arg);
  Error fail(const Node* node, std::string message) const {
    return Error{"cannot execute " + std::string(node->name()) + ": " + message, node->line(), 0};
  }

  const Graph& graph_;
  Inputs& inputs_;
  std::vector<c10::IValue> values_;
  const Node* current_ = nullptr;
};

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
  try {
    op->callBoxed(&stack);
  } catch (const std::exception& error) {
    std::string message = error.what();
    return fail(node, opName(target) + " failed: " + message.substr(0, message.find('\n')));
  }
  if (stack.size() == 1)
    result = std::move(stack[0]);
  else
    result = c10::ivalue::Tuple::create(std::move(stack));
  return ok();
}

Status Executor::runAutoFunctionalized(const Node* node, c10::IValue& result) {
  // auto_functionalized(op, **kwargs): clone what op mutates, call op on the clones, return
  // op's results followed by the mutated clones.
  if (node->args().empty() || node->args()[0].kind != ArgKind::OpRef)
    return fail(node, "auto_functionalized needs an operator as its first argument");
  const Target& target = *node->args()[0].op;
  std::optional<c10::OperatorHandle> op = findOperator(target);
  if (!op)
    return fail(node, "no kernel for " + opName(target) + " in this libtorch");
  const std::vector<c10::Argument>& parameters = op->schema().arguments();
  torch::jit::Stack stack;
  std::vector<c10::IValue> mutated;
  for (const c10::Argument& parameter : parameters) {
    const Arg* value = node->kwarg(parameter.name());
    c10::IValue converted;
    if (value) {
      Result<c10::IValue> result = convert(*value, parameter.type());
      if (!result.ok())
        return result.error();
      converted = std::move(result).value();
    } else if (parameter.default_value()) {
      converted = *parameter.default_value();
    } else {
      return fail(node, "missing argument '" + parameter.name() + "' of " + opName(target));
    }
    if (parameter.alias_info() && parameter.alias_info()->isWrite() && converted.isTensor()) {
      converted = c10::IValue(clonePreservingStrides(converted.toTensor()));
      mutated.push_back(converted);
    }
    stack.push_back(std::move(converted));
  }
  try {
    op->callBoxed(&stack);
  } catch (const std::exception& error) {
    std::string message = error.what();
    return fail(node, opName(target) + " failed: " + message.substr(0, message.find('\n')));
  }
  // As PyTorch's auto_functionalized: (*outs, *mutated) when the op returns several values,
  // (out, *mutated) when it returns one, and (None, *mutated) when it returns none.
  std::vector<c10::IValue> elements;
  if (stack.empty())
    elements.emplace_back();
  for (c10::IValue& value : stack)
    elements.push_back(std::move(value));
  for (c10::IValue& value : mutated)
    elements.push_back(std::move(value));
  result = c10::ivalue::Tuple::create(std::move(elements));
  return ok();
}

Status Executor::runFunction(const Node* node, c10::IValue& result) {
  const Target& target = *node->target();
  std::span<const Arg> args = node->args();
  if (target.isOperator("getitem")) {
    if (args.size() != 2 || !args[0].isNode())
      return fail(node, "only getitem of a node runs here");
    const c10::IValue& container = values_[args[0].node()->order()];
    if (container.isTensor())
      return runTensorIndex(node, container.toTensor(), args[1], result);
    if (args[1].kind != ArgKind::Int)
      return fail(node, "only getitem of a tuple or list with a constant index runs here");
    // Python's indexing: a negative index counts from the end.
    auto position = [&](size_t size) -> std::optional<size_t> {
      int64_t index = args[1].integer;
      auto n = static_cast<int64_t>(size);
      if (index < 0)
        index += n;
      if (index < 0 || index >= n)
        return std::nullopt;
      return static_cast<size_t>(index);
    };
    if (container.isTuple()) {
      const auto& elements = container.toTupleRef().elements();
      std::optional<size_t> index = position(elements.size());
      if (!index)
        return fail(node, "index out of range");
      result = elements[*index];
      return ok();
    }
    if (container.isList()) {
      c10::List<c10::IValue> list = container.toList();
      std::optional<size_t> index = position(list.size());
      if (!index)
        return fail(node, "index out of range");
      result = list.get(*index);
      return ok();
    }
    return fail(node, "getitem of this value does not run here");
  }
  // Symbolic-int arithmetic, with Python's semantics.
  std::vector<int64_t> operands;
  for (const Arg& arg : args) {
    Result<int64_t> value = intValue(arg);
    if (!value.ok())
      return fail(node, "only integer arithmetic runs among Python functions");
    operands.push_back(*value);
  }
  auto floorDiv = [](int64_t a, int64_t b) {
    int64_t q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
  };
  std::string_view name = target.qualifiedName;
  bool binary = operands.size() == 2;
  int64_t a = operands.empty() ? 0 : operands[0];
  int64_t b = binary ? operands[1] : 0;
  if (binary && (name == "operator.add"))
    result = a + b;
  else if (binary && name == "operator.sub")
    result = a - b;
  else if (binary && name == "operator.mul")
    result = a * b;
  else if (binary && name == "operator.floordiv" && b != 0)
    result = floorDiv(a, b);
  else if (binary && name == "operator.mod" && b != 0)
    result = a - floorDiv(a, b) * b;
  else if (binary && (name == "torch.sym_min" || name == "min"))
    result = std::min(a, b);
  else if (binary && (name == "torch.sym_max" || name == "max"))
    result = std::max(a, b);
  else if (operands.size() == 1 && name == "operator.neg")
    result = -a;
  else
    return fail(node, std::string(name) + " does not run here");
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

Status Executor::runTensorIndex(const Node* node, const at::Tensor& tensor, const Arg& index,
                                c10::IValue& result) {
  std::vector<at::indexing::TensorIndex> indices;
  auto add = [&](const Arg& item) -> Status {
    switch (item.kind) {
    case ArgKind::Int:
      indices.emplace_back(item.integer);
      return ok();
    case ArgKind::None:
      indices.emplace_back(at::indexing::None);
      return ok();
    case ArgKind::Ellipsis:
      indices.emplace_back(at::indexing::Ellipsis);
      return ok();
    case ArgKind::Slice: {
      c10::optional<int64_t> bounds[3];
      for (size_t i = 0; i < 3; ++i) {
        const Arg& bound = item.children()[i];
        if (bound.kind == ArgKind::Int)
          bounds[i] = bound.integer;
        else if (bound.kind != ArgKind::None)
          return fail(node, "only slices of constant ints run here");
      }
      if (bounds[2] == 0)
        return fail(node, "slice step cannot be zero");
      indices.emplace_back(at::indexing::Slice(bounds[0], bounds[1], bounds[2]));
      return ok();
    }
    default:
      return fail(node, "only ints, slices, None and Ellipsis index tensors here");
    }
  };
  if (index.kind == ArgKind::Tuple) {
    for (const Arg& item : index.children())
      if (Status status = add(item); !status.ok())
        return status;
  } else if (Status status = add(index); !status.ok()) {
    return status;
  }
  try {
    result = tensor.index(indices);
  } catch (const std::exception& error) {
    std::string message = error.what();
    return fail(node, "indexing failed: " + message.substr(0, message.find('\n')));
  }
  return ok();
}

Status Executor::runCall(const Node* node, c10::IValue& result) {
  const Target& target = *node->target();
  if (target.kind == Target::Kind::Function)
    return runFunction(node, result);
  if (target.kind == Target::Kind::Method ||
      (target.kind == Target::Kind::Op && target.overload.empty() && !target.isHigherOrder()))
    return runOverloaded(node, result);
  if (target.kind != Target::Kind::Op)
    return fail(node, "submodule calls do not run here");
  if (target.isHigherOrder()) {
    if (target.opName == "auto_functionalized")
      return runAutoFunctionalized(node, result);
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

Result<std::vector<c10::IValue>> Executor::run(std::vector<c10::IValue>* nodeValues) {
  graph_.numberNodes();
  values_.assign(graph_.orderBound(), c10::IValue());
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
    case Node::Kind::GetAttr:
      return fail(node, "module attributes (self." + std::string(node->attribute()) +
                            ") have no values here");
    case Node::Kind::Call: {
      Status status = runCall(node, value);
      if (!status.ok())
        return status.error();
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
  if (nodeValues)
    *nodeValues = values_;
  return outputs;
}

} // namespace

Result<Inputs> makeInputs(const Graph& graph, uint64_t seed,
                          const std::unordered_map<std::string, int64_t>& hints) {
  Inputs inputs;
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
  at::Generator generator = at::detail::createCPUGenerator(seed);
  auto evaluate = [&](SymExpr expr, const Node* node) -> Result<int64_t> {
    std::optional<int64_t> value = sym.evaluate(expr, inputs.symbols);
    if (!value)
      return Error{"cannot evaluate " + sym.print(expr) + " in the annotation of " +
                       std::string(node->name()),
                   node->line(), 0};
    return *value;
  };
  for (const Node* node : placeholders) {
    const TypeAnnotation& type = node->type();
    InputValue input;
    if (type.kind == TypeAnnotation::Kind::Sym) {
      Result<int64_t> value = evaluate(type.sym, node);
      if (!value.ok())
        return value.error();
      input.value = *value;
      inputs.values.push_back(std::move(input));
      continue;
    }
    if (type.kind != TypeAnnotation::Kind::Tensor)
      return Error{"placeholder " + std::string(node->name()) +
                       " needs a tensor or Sym annotation to make an input",
                   node->line(), 0};
    const TensorType& tensor = *type.tensor;
    at::ScalarType dtype = scalarType(tensor.dtype);
    if (dtype == at::ScalarType::Undefined)
      return Error{"dtype " + std::string(abbreviation(tensor.dtype)) + " of " +
                       std::string(node->name()) + " cannot be made here",
                   node->line(), 0};
    std::vector<int64_t> sizes, strides;
    for (SymExpr size : tensor.sizes) {
      Result<int64_t> value = evaluate(size, node);
      if (!value.ok())
        return value.error();
      sizes.push_back(*value);
    }
    if (tensor.strides) {
      for (SymExpr stride : *tensor.strides) {
        Result<int64_t> value = evaluate(stride, node);
        if (!value.ok())
          return value.error();
        strides.push_back(*value);
      }
    } else {
      c10::DimVector contiguous = c10::contiguous_strides(sizes);
      strides.assign(contiguous.begin(), contiguous.end());
    }
    int64_t offset = 0;
    if (tensor.storageOffset) {
      Result<int64_t> value = evaluate(*tensor.storageOffset, node);
      if (!value.ok())
        return value.error();
      offset = *value;
    }
    int64_t extent = offset + 1;
    bool empty = false;
    for (size_t i = 0; i < sizes.size(); ++i) {
      empty = empty || sizes[i] == 0;
      extent += (sizes[i] - 1) * strides[i];
    }
    if (empty)
      extent = offset;
    at::TensorOptions options = at::TensorOptions().dtype(dtype);
    at::Tensor base;
    if (at::isFloatingType(dtype) || at::isComplexType(dtype))
      base = at::randn({extent}, generator, options.dtype(at::kDouble)).to(dtype);
    else if (dtype == at::kBool)
      base = at::randint(0, 2, {extent}, generator, options);
    else
      base = at::randint(0, 16, {extent}, generator, options);
    input.base = base;
    input.value = base.as_strided(sizes, strides, offset);
    inputs.values.push_back(std::move(input));
  }
  return inputs;
}

Inputs copyInputs(const Inputs& inputs) {
  Inputs copy;
  copy.symbols = inputs.symbols;
  for (const InputValue& input : inputs.values) {
    InputValue value;
    if (!input.base.defined()) {
      value.value = input.value;
    } else {
      value.base = input.base.clone();
      const at::Tensor& tensor = input.value.toTensor();
      value.value =
          value.base.as_strided(tensor.sizes(), tensor.strides(), tensor.storage_offset());
    }
    copy.values.push_back(std::move(value));
  }
  return copy;
}

Result<std::vector<c10::IValue>> execute(const Graph& graph, Inputs& inputs,
                                         std::vector<c10::IValue>* nodeValues) {
  registerStandInKernels();
  return Executor(graph, inputs).run(nodeValues);
}

} // namespace declone::runtime::detail
