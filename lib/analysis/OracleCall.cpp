// The call a LayoutOracle runs: the node's op and arguments in the dump's syntax, tensors
// renamed and described by their static layouts.
#include "OracleCall.h"

#include "LayoutIndexing.h"
#include "declone/io/Writer.h"

#include <algorithm>

namespace declone::detail {
namespace {

/// The static value of each expression, or nullopt if one is symbolic.
std::optional<std::vector<int64_t>> staticValues(std::span<const SymExpr> values) {
  std::vector<int64_t> out;
  out.reserve(values.size());
  for (SymExpr value : values) {
    std::optional<int64_t> constant = value.constantValue();
    if (!constant)
      return std::nullopt;
    out.push_back(*constant);
  }
  return out;
}

class CallWriter {
public:
  CallWriter(const Context& context, ArgumentLayouts& arguments, OracleCall& call)
      : context_(context), arguments_(arguments), call_(call) {}

  /// Appends `arg` to the call's text; false if the oracle cannot rebuild it.
  bool write(const Arg& arg) {
    std::string& out = call_.text;
    switch (arg.kind) {
    case ArgKind::Node:
      return writeNode(*arg.node());
    case ArgKind::List:
    case ArgKind::Tuple: {
      bool list = arg.kind == ArgKind::List;
      out += list ? '[' : '(';
      std::span<const Arg> elements = arg.children();
      for (size_t i = 0; i < elements.size(); ++i) {
        if (i > 0)
          out += ", ";
        if (!write(elements[i]))
          return false;
      }
      if (!list && elements.size() == 1)
        out += ',';
      out += list ? ']' : ')';
      return true;
    }
    case ArgKind::None:
    case ArgKind::Bool:
    case ArgKind::Int:
    case ArgKind::Float:
    case ArgKind::String:
    case ArgKind::DType:
    case ArgKind::Layout:
    case ArgKind::MemoryFormat:
    case ArgKind::Device:
    case ArgKind::Complex:
      writeArg(context_, arg, out);
      return true;
    default: // symbolic ints, dicts, slices, operators, Ellipsis, verbatim text
      return false;
    }
  }

private:
  bool writeNode(const Node& node) {
    const TypeAnnotation& type = node.type();
    if (type.kind == TypeAnnotation::Kind::Sym) { // an int whose value the dump states
      std::optional<int64_t> value = type.sym.constantValue();
      if (!value)
        return false;
      call_.text += std::to_string(*value);
      return true;
    }
    const Layout* layout = arguments_.layoutOf(&node);
    if (!layout || !layout->strides || !layout->storageOffset)
      return false;
    std::optional<std::vector<int64_t>> sizes = staticValues(layout->sizes);
    std::optional<std::vector<int64_t>> strides = staticValues(*layout->strides);
    std::optional<int64_t> offset = layout->storageOffset->constantValue();
    if (!sizes || !strides || !offset || layout->conj != ViewBit::Clear ||
        layout->neg != ViewBit::Clear || layout->device != "cpu")
      return false;
    call_.text += 't';
    call_.text += std::to_string(call_.tensors.size());
    call_.tensors.push_back({layout->dtype, std::string(layout->device),
                             StaticLayout{std::move(*sizes), std::move(*strides), *offset}});
    return true;
  }

  const Context& context_;
  ArgumentLayouts& arguments_;
  OracleCall& call_;
};

} // namespace

std::optional<OracleCall> oracleCall(const Context& context, const Node& node,
                                     ArgumentLayouts& arguments) {
  if (!node.isCall() || node.target()->kind != Target::Kind::Op || node.target()->isHigherOrder())
    return std::nullopt;
  OracleCall call;
  call.text = node.target()->qualifiedName;
  call.text += '(';
  CallWriter writer(context, arguments, call);
  bool first = true;
  for (const Arg& arg : node.args()) {
    if (!first)
      call.text += ", ";
    first = false;
    if (!writer.write(arg))
      return std::nullopt;
  }
  for (const KwArg& kwarg : node.kwargs()) {
    if (!first)
      call.text += ", ";
    first = false;
    call.text += kwarg.name;
    call.text += '=';
    if (!writer.write(kwarg.value))
      return std::nullopt;
  }
  call.text += ')';
  return call;
}

std::optional<std::vector<SymExpr>> oracleStrides(const StaticLayout& layout,
                                                  std::span<const SymExpr> sizes) {
  std::optional<std::vector<int64_t>> expected = staticValues(sizes);
  if (!expected || *expected != layout.sizes || layout.strides.size() != layout.sizes.size() ||
      std::any_of(layout.strides.begin(), layout.strides.end(), [](int64_t s) { return s < 0; }))
    return std::nullopt;
  std::vector<SymExpr> strides;
  strides.reserve(layout.strides.size());
  for (int64_t stride : layout.strides)
    strides.push_back(SymExpr::constant(stride));
  return strides;
}

} // namespace declone::detail
