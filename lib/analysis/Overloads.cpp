// Overload resolution for op packets and Tensor methods, as PyTorch's argument matching does it.
#include "declone/analysis/Overloads.h"

#include <algorithm>

namespace declone {
namespace {

bool isIntList(const SchemaType& type) {
  return type.isList() && (type.element == "int" || type.element == "SymInt");
}

/// Types that take any value: type variables and Any.
bool takesAnything(const SchemaType& type) {
  return type.element == "t" || type.element == "t1" || type.element == "t2" ||
         type.element == "Any";
}

/// Whether a literal argument (not a node) can be passed for `parameter`. Errs towards yes:
/// a candidate kept needlessly only widens the call's effects to the union of more overloads.
bool literalFits(const Arg& value, const SchemaArgument& parameter) {
  const SchemaType& type = parameter.type;
  if (takesAnything(type))
    return true;
  std::string_view element = type.element;
  bool scalarElement = element == "int" || element == "SymInt" || element == "float" ||
                       element == "bool" || element == "Scalar" || element == "complex" ||
                       element == "number" || element == "SymFloat" || element == "SymBool";
  switch (value.kind) {
  case ArgKind::None:
    return type.optional;
  case ArgKind::Int:
  case ArgKind::Bool:
  case ArgKind::Float:
  case ArgKind::Complex:
    // Python numbers: scalars, and tensors for the ops that wrap numbers (`add_(x, 1)`); an
    // int fills an int list of fixed size (`int[2] stride=1`).
    if (type.kind == SchemaType::Kind::Tensor || type.kind == SchemaType::Kind::OptionalTensor)
      return true;
    if (type.isList())
      return value.kind == ArgKind::Int && isIntList(type) && type.listSuffix != "[]";
    if (value.kind == ArgKind::Float && (element == "int" || element == "SymInt"))
      return false;
    if (value.kind == ArgKind::Complex && element != "Scalar" && element != "complex" &&
        element != "number")
      return false;
    return scalarElement;
  case ArgKind::List:
  case ArgKind::Tuple:
    return type.isList() || element.starts_with("(");
  case ArgKind::String:
    return element == "str";
  case ArgKind::DType:
    return element == "ScalarType";
  case ArgKind::MemoryFormat:
    return element == "MemoryFormat";
  case ArgKind::Layout:
    return element == "Layout";
  case ArgKind::Device:
    return element == "Device";
  default:
    return true; // spellings declone keeps as written: no telling
  }
}

} // namespace

bool takesTensor(const SchemaArgument& parameter) {
  const SchemaType& type = parameter.type;
  if (type.kind == SchemaType::Kind::Tensor || type.kind == SchemaType::Kind::OptionalTensor)
    return true;
  if (type.isList())
    return false;
  return takesAnything(type) || type.element == "Scalar" || type.element == "number";
}

std::vector<const OpSchema*> overloadsOf(const Target& target, const SchemaRegistry& schemas) {
  if (target.kind == Target::Kind::Op && target.overload.empty() && !target.isHigherOrder())
    return schemas.overloads(target.opNamespace, target.opName);
  if (target.kind != Target::Kind::Method)
    return {};
  // Tensor methods torch/_tensor.py defines in Python over an aten op's name, with other
  // semantics: `x.resize_as(y)` and `x.resize(...)` return a view of x (the deprecated autograd
  // Resize), where aten::resize_as and aten::resize return new tensors.
  static constexpr std::string_view kPythonMethods[] = {"resize", "resize_as"};
  if (std::find(std::begin(kPythonMethods), std::end(kPythonMethods), target.qualifiedName) !=
      std::end(kPythonMethods))
    return {};
  std::vector<const OpSchema*> overloads = schemas.overloads("aten", target.qualifiedName);
  std::erase_if(overloads, [](const OpSchema* schema) {
    return schema->arguments.empty() || schema->arguments[0].name != "self" ||
           schema->arguments[0].type.kind != SchemaType::Kind::Tensor ||
           schema->arguments[0].kwargOnly;
  });
  return overloads;
}

std::string tensorWhereNoneIsTaken(const OpSchema& schema, size_t index, const Arg& value,
                                   const std::function<bool(const Node*)>& isTensor) {
  const SchemaArgument& parameter = schema.arguments[index];
  if (parameter.type.isTensorLike() || takesTensor(parameter))
    return {};
  bool tensor = false;
  value.forEachNode([&](const Node* input) { tensor = tensor || isTensor(input); });
  if (!tensor)
    return {};
  return "a tensor is passed as '" + parameter.name + "', a " + parameter.type.text() + " of " +
         schema.fullName();
}

std::optional<BoundOverload> bindOverload(const OpSchema& schema, const Node& call,
                                          std::vector<Arg>& storage,
                                          const std::function<bool(const Node*)>& isTensor) {
  auto fits = [&](const Arg& value, const SchemaArgument& parameter) {
    if (!value.isNode())
      return literalFits(value, parameter);
    return !isTensor(value.node()) || takesTensor(parameter);
  };
  std::span<const Arg> args = call.args();
  std::span<const KwArg> kwargs = call.kwargs();
  size_t positional = 0;
  while (positional < schema.arguments.size() && !schema.arguments[positional].kwargOnly)
    ++positional;
  bool method = call.target()->kind == Target::Kind::Method;
  // Python's parser takes `x.view(4, 5)` and `x.view(4)` for `x.view([4, 5])`: a method whose
  // only positional parameter after self is an int list takes its elements as varargs.
  bool varargs = method && positional == 2 && isIntList(schema.arguments[1].type) &&
                 args.size() >= 2 &&
                 std::all_of(args.begin() + 1, args.end(), [&](const Arg& value) {
                   return value.kind == ArgKind::Int || (value.isNode() && !isTensor(value.node()));
                 });
  // One node alone may be the list itself.
  if (varargs && !(args.size() == 2 && args[1].isNode())) {
    // storage: the list's elements, then the call's two arguments (self and the list).
    storage.clear();
    storage.reserve(args.size() + 1); // no reallocation: the list points into it
    storage.assign(args.begin() + 1, args.end());
    Arg list;
    list.kind = ArgKind::List;
    list.count = static_cast<uint32_t>(storage.size());
    list.elements = storage.data();
    storage.push_back(args[0]);
    storage.push_back(list);
    args = std::span<const Arg>(storage).last(2);
  }
  if (args.size() > positional && !schema.isVararg)
    return std::nullopt;
  std::vector<bool> filled(schema.arguments.size(), false);
  for (size_t i = 0; i < args.size() && i < schema.arguments.size(); ++i) {
    if (!fits(args[i], schema.arguments[i]))
      return std::nullopt;
    filled[i] = true;
  }
  for (const KwArg& kwarg : kwargs) {
    std::optional<size_t> index = schema.argumentIndex(kwarg.name);
    if (!index || filled[*index] || !fits(kwarg.value, schema.arguments[*index]))
      return std::nullopt;
    filled[*index] = true;
  }
  for (size_t i = 0; i < schema.arguments.size(); ++i)
    if (!filled[i] && !schema.arguments[i].defaultValue)
      return std::nullopt;
  return BoundOverload{args, kwargs};
}

} // namespace declone
