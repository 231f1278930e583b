// Writer for FX graph text: values, calls and annotations.
#include "WriterImpl.h"

#include <cassert>
#include <cmath>

namespace declone::io {
namespace {

// torch/fx/graph.py magic_methods: these targets print as Python operators.
constexpr InfixForm kInfixForms[] = {
    {"operator.add", " + ", false},     {"operator.sub", " - ", false},
    {"operator.mul", " * ", false},     {"operator.floordiv", " // ", false},
    {"operator.truediv", " / ", false}, {"operator.div", " / ", false},
    {"operator.mod", " % ", false},     {"operator.pow", " ** ", false},
    {"operator.lshift", " << ", false}, {"operator.rshift", " >> ", false},
    {"operator.and_", " & ", false},    {"operator.or_", " | ", false},
    {"operator.xor", " ^ ", false},     {"operator.matmul", " @ ", false},
    {"operator.eq", " == ", false},     {"operator.ne", " != ", false},
    {"operator.lt", " < ", false},      {"operator.gt", " > ", false},
    {"operator.le", " <= ", false},     {"operator.ge", " >= ", false},
    {"operator.neg", "-", true},        {"operator.pos", "+", true},
    {"operator.invert", "~", true},
};

constexpr std::string_view kMemoryFormatNames[] = {"torch.contiguous_format",
                                                   "torch.preserve_format", "torch.channels_last",
                                                   "torch.channels_last_3d"};

/// Python's repr() of a float: shortest round-trip digits, scientific outside [1e-4, 1e16).
void writePythonFloat(double value, std::string& out) {
  if (std::isnan(value)) {
    out += "nan";
    return;
  }
  if (std::isinf(value)) {
    out += value < 0 ? "-inf" : "inf";
    return;
  }
  char buffer[64];
  auto [end, ec] =
      std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::scientific);
  assert(ec == std::errc());
  std::string_view text(buffer, end - buffer);
  if (text.front() == '-') {
    out += '-';
    text.remove_prefix(1);
  }
  size_t e = text.find('e');
  std::string digits;
  for (char c : text.substr(0, e))
    if (c != '.')
      digits += c;
  int exponent = std::stoi(std::string(text.substr(e + 1)));
  if (exponent >= -4 && exponent < 16) {
    if (exponent >= 0) {
      size_t integerDigits = static_cast<size_t>(exponent) + 1;
      if (digits.size() <= integerDigits) {
        out += digits;
        out.append(integerDigits - digits.size(), '0');
        out += ".0";
      } else {
        out += digits.substr(0, integerDigits);
        out += '.';
        out += digits.substr(integerDigits);
      }
    } else {
      out += "0.";
      out.append(static_cast<size_t>(-exponent - 1), '0');
      out += digits;
    }
    return;
  }
  out += digits[0];
  if (digits.size() > 1) {
    out += '.';
    out += digits.substr(1);
  }
  out += exponent < 0 ? "e-" : "e+";
  int magnitude = exponent < 0 ? -exponent : exponent;
  if (magnitude < 10)
    out += '0';
  out += std::to_string(magnitude);
}

/// Python's repr() of a str.
void writePythonString(std::string_view value, std::string& out) {
  bool hasSingle = value.find('\'') != std::string_view::npos;
  bool hasDouble = value.find('"') != std::string_view::npos;
  char quote = hasSingle && !hasDouble ? '"' : '\'';
  out += quote;
  for (char c : value) {
    if (c == quote || c == '\\')
      out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  out += quote;
}

} // namespace

void Writer::symExpr(SymExpr expr, bool parenthesize) {
  if (std::optional<int64_t> constant = expr.constantValue()) {
    putInt(*constant);
    return;
  }
  if (parenthesize)
    put('(');
  viaScratch([&](std::string& text) { context_.sym().print(expr, text); });
  if (parenthesize)
    put(')');
}

void Writer::type(const TypeAnnotation& type) {
  if (!type.spelling.empty() || type.kind == TypeAnnotation::Kind::Other) {
    put(type.spelling);
    return;
  }
  switch (type.kind) {
  case TypeAnnotation::Kind::None:
  case TypeAnnotation::Kind::Other:
    return;
  case TypeAnnotation::Kind::Sym:
    put("Sym(");
    symExpr(type.sym, false);
    put(')');
    return;
  case TypeAnnotation::Kind::Tensor: {
    const TensorType& tensor = *type.tensor;
    put(abbreviation(tensor.dtype));
    auto list = [&](std::span<const SymExpr> items) {
      put('[');
      for (size_t i = 0; i < items.size(); ++i) {
        if (i)
          put(", ");
        symExpr(items[i], false);
      }
      put(']');
    };
    list(tensor.sizes);
    if (tensor.strides)
      list(*tensor.strides);
    put(tensor.device);
    if (tensor.storageOffset && tensor.storageOffset->constantValue() != 0) {
      put('@');
      symExpr(*tensor.storageOffset, true);
    }
    return;
  }
  }
}

void Writer::annotation(const TypeAnnotation& annotation) {
  if (annotation.kind == TypeAnnotation::Kind::None)
    return;
  if (!annotation.spelling.empty()) {
    // The common case, an annotation as read: one copy of `: "SPELLING"`.
    std::string_view spelling = annotation.spelling;
    reserve(spelling.size() + 4);
    char* p = cur_;
    *p++ = ':';
    *p++ = ' ';
    if (annotation.quoted)
      *p++ = '"';
    copy(p, spelling.data(), spelling.size());
    p += spelling.size();
    if (annotation.quoted)
      *p++ = '"';
    cur_ = p;
    return;
  }
  if (!annotation.quoted) {
    put(": ");
    type(annotation);
    return;
  }
  put(": \"");
  type(annotation);
  put('"');
}

void Writer::arg(const Arg& value) {
  switch (value.kind) {
  case ArgKind::Node: {
    const Node* input = value.node();
    put(input->name());
    if (printing_ != kNotPrinting) {
      // The statement being printed frees the values it uses last. Statements print their
      // arguments in the order of Node::forEachInput (args, then kwargs, each in order), which is
      // PyTorch's order for the free list; a value met again is already marked.
      uint32_t& last = lastUser_[input->order()];
      if (last == printing_) {
        last = kFreed;
        freed_.push_back(input);
      }
    }
    return;
  }
  case ArgKind::List:
  case ArgKind::Tuple: {
    bool isList = value.kind == ArgKind::List;
    put(isList ? '[' : '(');
    for (uint32_t i = 0; i < value.count; ++i) {
      if (i)
        put(", ");
      arg(value.elements[i]);
    }
    if (!isList && value.count == 1)
      put(',');
    put(isList ? ']' : ')');
    return;
  }
  case ArgKind::Dict:
    put('{');
    for (uint32_t i = 0; i + 1 < value.count; i += 2) {
      if (i)
        put(", ");
      arg(value.elements[i]);
      put(": ");
      arg(value.elements[i + 1]);
    }
    put('}');
    return;
  case ArgKind::Slice:
    put("slice(");
    for (uint32_t i = 0; i < value.count; ++i) {
      if (i)
        put(", ");
      arg(value.elements[i]);
    }
    put(')');
    return;
  case ArgKind::SymInt:
    symExpr(*value.sym, false);
    return;
  default:
    break;
  }
  if (!value.text().empty()) { // the source spelling, kept for exact round-trips
    put(value.text());
    return;
  }
  switch (value.kind) {
  case ArgKind::None:
    put("None");
    return;
  case ArgKind::Bool:
    put(value.boolean ? "True" : "False");
    return;
  case ArgKind::Int:
    putInt(value.integer);
    return;
  case ArgKind::Float:
    viaScratch([&](std::string& text) { writePythonFloat(value.real, text); });
    return;
  case ArgKind::DType:
    put("torch.");
    put(torchName(value.dtype));
    return;
  case ArgKind::Layout:
    put("torch.strided");
    return;
  case ArgKind::MemoryFormat:
    put(kMemoryFormatNames[value.enumValue]);
    return;
  case ArgKind::OpRef:
    put(value.op->qualifiedName);
    return;
  case ArgKind::String:
    viaScratch([&](std::string& text) { writePythonString({}, text); });
    return;
  default:
    assert(false && "argument without spelling");
    put("None");
  }
}

void Writer::argList(std::span<const Arg> args, std::span<const KwArg> kwargs) {
  bool first = true;
  for (const Arg& value : args) {
    if (!first)
      put(", ");
    first = false;
    arg(value);
  }
  for (const KwArg& kwarg : kwargs) {
    if (!first)
      put(", ");
    first = false;
    put(kwarg.name);
    put(" = ");
    arg(kwarg.value);
  }
}

void Writer::call(const Node& node) {
  const Target& target = *node.target();
  std::span<const Arg> args = node.args();
  // Only `operator.*` functions print as Python operators; checking the prefix first spares
  // every other call the comparisons with each form.
  if (target.kind == Target::Kind::Function && node.kwargs().empty() &&
      target.qualifiedName.starts_with("operator.")) {
    if (target.qualifiedName == "operator.getitem" && args.size() == 2) {
      arg(args[0]);
      put('[');
      arg(args[1]);
      put(']');
      return;
    }
    for (const InfixForm& form : kInfixForms) {
      if (form.function != target.qualifiedName || args.size() != (form.unary ? 1u : 2u))
        continue;
      if (form.unary) {
        put(form.symbol);
        arg(args[0]);
      } else {
        arg(args[0]);
        put(form.symbol);
        arg(args[1]);
      }
      return;
    }
  }
  switch (target.kind) {
  case Target::Kind::Method:
    assert(!args.empty() && "a method call needs a receiver");
    arg(args[0]);
    put('.');
    put(target.qualifiedName);
    put('(');
    argList(args.subspan(1), node.kwargs());
    put(')');
    return;
  case Target::Kind::Module:
    put("self.");
    break;
  default:
    break;
  }
  put(target.qualifiedName);
  put('(');
  argList(args, node.kwargs());
  put(')');
}

} // namespace declone::io

namespace declone {

void writeTypeAnnotation(const Context& context, const TypeAnnotation& type, std::string& out) {
  io::Writer(context, out).type(type);
}

void writeArg(const Context& context, const Arg& arg, std::string& out) {
  io::Writer(context, out).arg(arg);
}

} // namespace declone
