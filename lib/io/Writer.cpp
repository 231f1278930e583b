// Writer for FX graph text: the dialect of print_readable, with recomputed free lists.
#include "declone/io/Writer.h"

#include <cassert>
#include <charconv>
#include <cmath>
#include <vector>

namespace declone {
namespace {

struct InfixForm {
  std::string_view function; ///< operator.<name>
  std::string_view symbol;
  bool unary;
};
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

class Writer {
public:
  static constexpr size_t kChunkSize = size_t(1) << 20;

  Writer(const Context& context, std::string& out, std::FILE* sink = nullptr)
      : context_(context), out_(out), sink_(sink) {}

  void module(const GraphModule& module);
  void graph(const Graph& graph);
  void arg(const Arg& arg);
  void type(const TypeAnnotation& type);

  /// With a sink, writes out what has been printed once it reaches a chunk. Called only before a
  /// node is printed, so the last line stays buffered for the final-newline fix-up.
  void maybeFlush() {
    if (sink_ && out_.size() >= kChunkSize)
      flush();
  }
  /// Writes the buffer to the sink; false if this or an earlier write failed.
  bool flush() {
    if (sink_ && !out_.empty()) {
      ok_ = std::fwrite(out_.data(), 1, out_.size(), sink_) == out_.size() && ok_;
      out_.clear();
    }
    return ok_;
  }

private:
  void trivia(std::span<const std::string_view> lines) {
    for (std::string_view line : lines) {
      out_ += line;
      out_ += '\n';
    }
  }
  void symExpr(SymExpr expr, bool parenthesize);
  void annotation(const TypeAnnotation& type);
  void placeholder(const Node& node);
  void call(const Node& node);
  void argList(std::span<const Arg> args, std::span<const KwArg> kwargs);
  void computeFreeLists(const Graph& graph);

  const Context& context_;
  std::string& out_;
  std::FILE* sink_ = nullptr;
  bool ok_ = true;
  // Free lists: for node i, freed_[freeBegin_[i] .. freeBegin_[i + 1]).
  std::vector<const Node*> freed_;
  std::vector<uint32_t> freeBegin_;
};

void Writer::symExpr(SymExpr expr, bool parenthesize) {
  if (std::optional<int64_t> constant = expr.constantValue()) {
    out_ += std::to_string(*constant);
    return;
  }
  if (parenthesize)
    out_ += '(';
  context_.sym().print(expr, out_);
  if (parenthesize)
    out_ += ')';
}

void Writer::type(const TypeAnnotation& type) {
  if (!type.spelling.empty() || type.kind == TypeAnnotation::Kind::Other) {
    out_ += type.spelling;
    return;
  }
  switch (type.kind) {
  case TypeAnnotation::Kind::None:
  case TypeAnnotation::Kind::Other:
    return;
  case TypeAnnotation::Kind::Sym:
    out_ += "Sym(";
    symExpr(type.sym, false);
    out_ += ')';
    return;
  case TypeAnnotation::Kind::Tensor: {
    const TensorType& tensor = *type.tensor;
    out_ += abbreviation(tensor.dtype);
    auto list = [&](std::span<const SymExpr> items) {
      out_ += '[';
      for (size_t i = 0; i < items.size(); ++i) {
        if (i)
          out_ += ", ";
        symExpr(items[i], false);
      }
      out_ += ']';
    };
    list(tensor.sizes);
    if (tensor.strides)
      list(*tensor.strides);
    out_ += tensor.device;
    if (tensor.storageOffset && tensor.storageOffset->constantValue() != 0) {
      out_ += '@';
      symExpr(*tensor.storageOffset, true);
    }
    return;
  }
  }
}

void Writer::annotation(const TypeAnnotation& annotation) {
  if (annotation.kind == TypeAnnotation::Kind::None)
    return;
  if (!annotation.quoted) {
    out_ += ": ";
    type(annotation);
    return;
  }
  out_ += ": \"";
  type(annotation);
  out_ += '"';
}

void Writer::arg(const Arg& value) {
  switch (value.kind) {
  case ArgKind::Node:
    out_ += value.node()->name();
    return;
  case ArgKind::List:
  case ArgKind::Tuple: {
    bool isList = value.kind == ArgKind::List;
    out_ += isList ? '[' : '(';
    for (uint32_t i = 0; i < value.count; ++i) {
      if (i)
        out_ += ", ";
      arg(value.elements[i]);
    }
    if (!isList && value.count == 1)
      out_ += ',';
    out_ += isList ? ']' : ')';
    return;
  }
  case ArgKind::Dict:
    out_ += '{';
    for (uint32_t i = 0; i + 1 < value.count; i += 2) {
      if (i)
        out_ += ", ";
      arg(value.elements[i]);
      out_ += ": ";
      arg(value.elements[i + 1]);
    }
    out_ += '}';
    return;
  case ArgKind::Slice:
    out_ += "slice(";
    for (uint32_t i = 0; i < value.count; ++i) {
      if (i)
        out_ += ", ";
      arg(value.elements[i]);
    }
    out_ += ')';
    return;
  case ArgKind::SymInt:
    symExpr(*value.sym, false);
    return;
  default:
    break;
  }
  if (!value.text().empty()) { // the source spelling, kept for exact round-trips
    out_ += value.text();
    return;
  }
  switch (value.kind) {
  case ArgKind::None:
    out_ += "None";
    return;
  case ArgKind::Bool:
    out_ += value.boolean ? "True" : "False";
    return;
  case ArgKind::Int:
    out_ += std::to_string(value.integer);
    return;
  case ArgKind::Float:
    writePythonFloat(value.real, out_);
    return;
  case ArgKind::DType:
    out_ += "torch.";
    out_ += torchName(value.dtype);
    return;
  case ArgKind::Layout:
    out_ += "torch.strided";
    return;
  case ArgKind::MemoryFormat:
    out_ += kMemoryFormatNames[value.enumValue];
    return;
  case ArgKind::OpRef:
    out_ += value.op->qualifiedName;
    return;
  case ArgKind::String:
    writePythonString({}, out_);
    return;
  default:
    assert(false && "argument without spelling");
    out_ += "None";
  }
}

void Writer::argList(std::span<const Arg> args, std::span<const KwArg> kwargs) {
  bool first = true;
  for (const Arg& value : args) {
    if (!first)
      out_ += ", ";
    first = false;
    arg(value);
  }
  for (const KwArg& kwarg : kwargs) {
    if (!first)
      out_ += ", ";
    first = false;
    out_ += kwarg.name;
    out_ += " = ";
    arg(kwarg.value);
  }
}

void Writer::call(const Node& node) {
  const Target& target = *node.target();
  std::span<const Arg> args = node.args();
  if (target.kind == Target::Kind::Function && node.kwargs().empty()) {
    if (target.qualifiedName == "operator.getitem" && args.size() == 2) {
      arg(args[0]);
      out_ += '[';
      arg(args[1]);
      out_ += ']';
      return;
    }
    for (const InfixForm& form : kInfixForms) {
      if (form.function != target.qualifiedName || args.size() != (form.unary ? 1u : 2u))
        continue;
      if (form.unary) {
        out_ += form.symbol;
        arg(args[0]);
      } else {
        arg(args[0]);
        out_ += form.symbol;
        arg(args[1]);
      }
      return;
    }
  }
  switch (target.kind) {
  case Target::Kind::Method:
    assert(!args.empty() && "a method call needs a receiver");
    arg(args[0]);
    out_ += '.';
    out_ += target.qualifiedName;
    out_ += '(';
    argList(args.subspan(1), node.kwargs());
    out_ += ')';
    return;
  case Target::Kind::Module:
    out_ += "self.";
    break;
  default:
    break;
  }
  out_ += target.qualifiedName;
  out_ += '(';
  argList(args, node.kwargs());
  out_ += ')';
}

void Writer::placeholder(const Node& node) {
  out_ += node.name();
  annotation(node.type());
  if (node.defaultValue()) {
    out_ += " = ";
    arg(*node.defaultValue());
  }
}

void Writer::computeFreeLists(const Graph& graph) {
  // PyTorch's delete_unused_values: walking backwards, a node is the last use of each input not
  // seen yet (args, then kwargs, in order of first appearance).
  graph.numberNodes();
  size_t count = graph.orderBound();
  std::vector<uint8_t> seen(count, 0);
  std::vector<std::pair<uint32_t, uint32_t>> ranges(count);
  freed_.clear();
  for (auto it = graph.end(); it != graph.begin();) {
    const Node* node = *--it;
    uint32_t begin = static_cast<uint32_t>(freed_.size());
    node->forEachInput([&](Node* input) {
      if (!seen[input->order()]) {
        seen[input->order()] = 1;
        freed_.push_back(input);
      }
    });
    ranges[node->order()] = {begin, static_cast<uint32_t>(freed_.size())};
  }
  // Re-pack in program order so that freeBegin_ is monotonic.
  std::vector<const Node*> packed;
  packed.reserve(freed_.size());
  freeBegin_.assign(count + 1, 0);
  for (size_t i = 0; i < count; ++i) {
    freeBegin_[i] = static_cast<uint32_t>(packed.size());
    packed.insert(packed.end(), freed_.begin() + ranges[i].first,
                  freed_.begin() + ranges[i].second);
  }
  freeBegin_[count] = static_cast<uint32_t>(packed.size());
  freed_ = std::move(packed);
}

void Writer::graph(const Graph& graph) {
  const GraphFormat& format = graph.format();
  std::vector<Node*> placeholders = graph.placeholders();
  computeFreeLists(graph);

  // Signature.
  out_ += format.defIndent;
  if (format.pytreeInputs) {
    out_ += "def forward(self";
    if (!format.pytreeParameters.empty()) {
      out_ += ", ";
      out_ += format.pytreeParameters;
    }
    out_ += "):\n";
  } else if (format.multiLineSignature) {
    out_ += "def forward(\n";
    out_ += format.bodyIndent;
    out_ += "self,\n";
    for (const Node* node : placeholders) {
      out_ += format.bodyIndent;
      placeholder(*node);
      out_ += ',';
      if (!node->trailingComment().empty()) {
        out_ += "  ";
        out_ += node->trailingComment();
      }
      out_ += '\n';
    }
    out_ += format.defIndent;
    out_ += "):\n";
  } else {
    out_ += "def forward(self";
    for (const Node* node : placeholders) {
      out_ += ", ";
      placeholder(*node);
    }
    out_ += "):\n";
  }
  if (format.pytreeInputs) {
    trivia(format.stubTrivia);
    bool anyAnnotated = false;
    for (const Node* node : placeholders) {
      if (node->type().kind == TypeAnnotation::Kind::None)
        continue;
      if (!anyAnnotated)
        out_ += format.bodyIndent;
      anyAnnotated = true;
      out_ += node->name();
      annotation(node->type());
      out_ += "; ";
    }
    if (anyAnnotated)
      out_ += '\n';
    trivia(format.flattenTrivia);
    out_ += format.bodyIndent;
    for (size_t i = 0; i < placeholders.size(); ++i) {
      if (i)
        out_ += ", ";
      out_ += placeholders[i]->name();
    }
    out_ += ", = fx_pytree.tree_flatten_spec(";
    out_ += format.pytreeInSpec;
    out_ += ")\n";
  }

  for (const Node* node : graph) {
    if (node->isPlaceholder())
      continue;
    maybeFlush();
    trivia(node->leadingTrivia());
    out_ += format.bodyIndent;
    if (node->isOutput()) {
      const Arg& value = node->args()[0];
      if (format.pytreeOutputs) {
        out_ += "return pytree.tree_unflatten(";
        arg(value);
        out_ += ", ";
        out_ += format.pytreeOutSpec;
        out_ += ')';
      } else if (format.multiLineReturn && value.kind == ArgKind::Tuple) {
        out_ += "return (\n";
        for (uint32_t i = 0; i < value.count; ++i) {
          out_ += format.bodyIndent;
          out_ += "    ";
          arg(value.elements[i]);
          out_ += ',';
          if (i < format.returnComments.size() && !format.returnComments[i].empty()) {
            out_ += "  ";
            out_ += format.returnComments[i];
          }
          out_ += '\n';
        }
        out_ += format.bodyIndent;
        out_ += ')';
      } else {
        out_ += "return ";
        arg(value);
      }
    } else {
      out_ += node->name();
      annotation(node->type());
      out_ += " = ";
      if (node->kind() == Node::Kind::GetAttr) {
        out_ += "self.";
        out_ += node->attribute();
      } else {
        call(*node);
      }
      uint32_t order = node->order();
      bool freesItself = format.freeUnusedNodes && !node->hasUses();
      if (freeBegin_[order] != freeBegin_[order + 1] || freesItself) {
        out_ += ";  ";
        for (uint32_t i = freeBegin_[order]; i < freeBegin_[order + 1]; ++i) {
          out_ += freed_[i]->name();
          out_ += " = ";
        }
        if (freesItself) {
          out_ += node->name();
          out_ += " = ";
        }
        out_ += "None";
      }
    }
    if (!node->trailingComment().empty()) {
      out_ += "  ";
      out_ += node->trailingComment();
    }
    out_ += '\n';
  }
}

void Writer::module(const GraphModule& module) {
  trivia(module.leadingTrivia);
  if (!module.className.empty()) {
    out_ += module.classIndent;
    out_ += "class ";
    out_ += module.className;
    out_ += '(';
    out_ += module.classBases.empty() ? std::string_view("torch.nn.Module") : module.classBases;
    out_ += "):\n";
  }
  trivia(module.graph.format().defTrivia);
  graph(module.graph);
  for (const auto& child : module.children)
    this->module(*child);
}

} // namespace

void writeGraphFile(const GraphFile& file, std::string& out) {
  // A rewritten graph prints about as long as it was read: one allocation instead of doublings.
  out.reserve(out.size() + file.context->source().size() + 4096);
  Writer writer(*file.context, out);
  for (const auto& module : file.modules)
    writer.module(*module);
  for (std::string_view line : file.trailingTrivia) {
    out += line;
    out += '\n';
  }
  if (!file.finalNewline && !out.empty() && out.back() == '\n')
    out.pop_back();
}

bool writeGraphFile(const GraphFile& file, std::FILE* stream) {
  std::string buffer;
  buffer.reserve(2 * Writer::kChunkSize);
  Writer writer(*file.context, buffer, stream);
  for (const auto& module : file.modules)
    writer.module(*module);
  for (std::string_view line : file.trailingTrivia) {
    buffer += line;
    buffer += '\n';
  }
  // Only nodes flush, so the text's last newline is still in the buffer.
  if (!file.finalNewline && !buffer.empty() && buffer.back() == '\n')
    buffer.pop_back();
  return writer.flush();
}

std::string writeGraphFile(const GraphFile& file) {
  std::string out;
  writeGraphFile(file, out);
  return out;
}

void writeTypeAnnotation(const Context& context, const TypeAnnotation& type, std::string& out) {
  Writer(context, out).type(type);
}

void writeArg(const Context& context, const Arg& arg, std::string& out) {
  Writer(context, out).arg(arg);
}

} // namespace declone
