// Writer for FX graph text: the dialect of print_readable, with recomputed free lists. This file
// prints files, modules and graphs construct by construct; WriterValues.cpp the values.
#include "WriterImpl.h"
#include "declone/support/Lines.h"

namespace declone::io {
namespace {

// torch/fx/graph.py inplace_methods: these targets print as `a += b;  c = a`.
constexpr InfixForm kInplaceForms[] = {
    {"operator.iadd", " += ", false},     {"operator.isub", " -= ", false},
    {"operator.imul", " *= ", false},     {"operator.ifloordiv", " //= ", false},
    {"operator.itruediv", " /= ", false}, {"operator.imod", " %= ", false},
    {"operator.ipow", " **= ", false},    {"operator.ilshift", " <<= ", false},
    {"operator.irshift", " >>= ", false}, {"operator.iand", " &= ", false},
    {"operator.ior", " |= ", false},      {"operator.ixor", " ^= ", false},
    {"operator.imatmul", " @= ", false},
};

/// The symbol `node` prints with as an in-place operator statement, "[]" for setitem; or empty.
std::string_view inplaceSymbol(const Node& node) {
  const Target* target = node.target();
  // FX writes the target first and names it again: it must be a node (`1 += y` is no Python).
  if (!node.isCall() || target->kind != Target::Kind::Function || !node.kwargs().empty() ||
      node.args().empty() || node.args()[0].kind != ArgKind::Node)
    return {};
  if (target->qualifiedName == "operator.setitem")
    return node.args().size() == 3 ? "[]" : "";
  for (const InfixForm& form : kInplaceForms)
    if (form.function == target->qualifiedName && node.args().size() == 2)
      return form.symbol;
  return {};
}

} // namespace

LineBreaks lineBreaksOf(std::string_view source) {
  if (source.find('\r') == std::string_view::npos)
    return LineBreaks::AsPrinted;
  size_t newline = source.find('\n');
  return newline != std::string_view::npos && newline > 0 && source[newline - 1] == '\r'
             ? LineBreaks::CrLf
             : LineBreaks::Lf;
}

/// Appends `text` to `out` with every line break (`\n` or `\r\n`) written as `breaks` says. With
/// LF breaks, the carriage returns that end a line go too: a kept line `\r` before its `\n` would
/// read back as a CRLF break (the reader takes a line's trailing `\r`s as blanks).
void appendWithLineBreaks(std::string_view text, LineBreaks breaks, std::string& out) {
  out.reserve(out.size() + text.size() + text.size() / 16);
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\r') {
      size_t end = text.find_first_not_of('\r', i);
      if (end != std::string_view::npos && text[end] == '\n' &&
          (breaks == LineBreaks::Lf || end == i + 1)) {
        i = end - 1;
        continue;
      }
    }
    if (text[i] == '\n' && breaks == LineBreaks::CrLf)
      out += '\r';
    out += text[i];
  }
}

void Writer::placeholder(const Node& node) {
  put(node.parameterName());
  annotation(node.type());
  if (node.defaultValue()) {
    put(" = ");
    arg(*node.defaultValue());
  }
}

void Writer::computeLastUsers(const Graph& graph) {
  // PyTorch's delete_unused_values frees each value after its last user. One forward pass over
  // the arguments in program order finds every value's last user; the arguments are read in the
  // order they sit in memory, where walking use lists would jump around. Printing a statement
  // then lists the values whose last user it is (see arg()).
  graph.numberNodes();
  lastUser_.assign(graph.orderBound(), kNoUser);
  for (const Node* node : graph) {
    uint32_t order = node->order();
    node->forEachInput([&](const Node* input) { lastUser_[input->order()] = order; });
  }
}

void Writer::multiLineElements(const Arg& value, char open, char close, const GraphFormat& format) {
  put(open);
  put('\n');
  for (uint32_t i = 0; i < value.count; ++i) {
    put(format.bodyIndent);
    put("    ");
    arg(value.elements[i]);
    put(',');
    if (i < format.returnComments.size())
      comment(format.returnComments[i]);
    put('\n');
  }
  put(format.bodyIndent);
  put(close);
}

void Writer::freeList(const Node& node, bool freesItself) {
  if (freed_.empty() && !freesItself)
    return;
  put(";  ");
  for (const Node* value : freed_) {
    put(value->name());
    put(" = ");
  }
  if (freesItself) {
    put(node.name());
    put(" = ");
  }
  put("None");
}

void Writer::graph(const Graph& graph) {
  const GraphFormat& format = graph.format();
  std::vector<Node*> placeholders = graph.placeholders();
  computeLastUsers(graph);
  signature(format, placeholders);
  if (format.pytreeInputs)
    pytreeFlatten(format, placeholders);
  rebindings(format, placeholders);
  statements(graph);
}

void Writer::signature(const GraphFormat& format, std::span<Node* const> placeholders) {
  put(format.defIndent);
  if (format.pytreeInputs && format.multiLineSignature) {
    // `def forward(` / `self,` / `primals,` / `tangents,` / `):`, one per line.
    put("def forward(\n");
    put(format.bodyIndent);
    put("self,\n");
    for (std::string_view rest = format.pytreeParameters; !rest.empty();) {
      size_t comma = rest.find(',');
      std::string_view name = trim(rest.substr(0, comma));
      rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
      put(format.bodyIndent);
      put(name);
      put(",\n");
    }
    put(format.defIndent);
    put("):\n");
  } else if (format.pytreeInputs) {
    put("def forward(self");
    if (!format.pytreeParameters.empty()) {
      put(", ");
      put(format.pytreeParameters);
    }
    put("):\n");
  } else if (format.multiLineSignature) {
    put("def forward(\n");
    put(format.bodyIndent);
    put("self,\n");
    for (const Node* node : placeholders) {
      put(format.bodyIndent);
      placeholder(*node);
      put(',');
      comment(node->trailingComment());
      put('\n');
    }
    put(format.defIndent);
    put("):\n");
  } else {
    put("def forward(self");
    for (const Node* node : placeholders) {
      put(", ");
      placeholder(*node);
    }
    put("):\n");
  }
}

void Writer::pytreeFlatten(const GraphFormat& format, std::span<Node* const> placeholders) {
  trivia(format.stubTrivia);
  bool anyAnnotated = false;
  for (const Node* node : placeholders) {
    if (node->type().kind == TypeAnnotation::Kind::None)
      continue;
    if (format.stubPerLine) {
      trivia(node->leadingTrivia());
      put(format.bodyIndent);
      put(node->name());
      annotation(node->type());
      comment(node->trailingComment());
      put('\n');
      continue;
    }
    if (!anyAnnotated)
      put(format.bodyIndent);
    anyAnnotated = true;
    put(node->name());
    annotation(node->type());
    put("; ");
  }
  if (anyAnnotated)
    put('\n');
  trivia(format.flattenTrivia);
  put(format.bodyIndent);
  for (size_t i = 0; i < placeholders.size(); ++i) {
    if (i)
      put(", ");
    put(placeholders[i]->name());
  }
  put(", = fx_pytree.tree_flatten_spec(");
  put(format.pytreeInSpec);
  put(")\n");
}

void Writer::rebindings(const GraphFormat& format, std::span<Node* const> placeholders) {
  // FX binds a placeholder called otherwise than its parameter first thing: `l_x_ = L_x_`.
  for (const Node* node : placeholders) {
    if (node->parameterName() == node->name())
      continue;
    put(format.bodyIndent);
    put(node->name());
    put(" = ");
    put(node->parameterName());
    put('\n');
  }
}

void Writer::statements(const Graph& graph) {
  const GraphFormat& format = graph.format();
  // Annotations are shared between nodes spelled alike, so a large graph's are scattered over
  // the arena and their spellings over the source text: loading them on demand stalls on a
  // cache miss at most statements. Prefetch them ahead, in two steps as one leads to the other:
  // the TypeAnnotation (and the node's arguments) kTypeAhead nodes ahead, its spelling
  // kSpellingAhead nodes ahead.
  constexpr int kTypeAhead = 16, kSpellingAhead = 8;
  const Node* typeAhead = graph.begin() != graph.end() ? *graph.begin() : nullptr;
  for (int i = 0; i < kTypeAhead && typeAhead; ++i)
    typeAhead = typeAhead->next();
  const Node* spellingAhead = graph.begin() != graph.end() ? *graph.begin() : nullptr;
  for (int i = 0; i < kSpellingAhead && spellingAhead; ++i)
    spellingAhead = spellingAhead->next();

  for (const Node* node : graph) {
    if (typeAhead) {
      __builtin_prefetch(&typeAhead->type());
      __builtin_prefetch(typeAhead->args().data());
      typeAhead = typeAhead->next();
    }
    if (spellingAhead) {
      __builtin_prefetch(spellingAhead->type().spelling.data());
      spellingAhead = spellingAhead->next();
    }
    if (node->isPlaceholder())
      continue;
    maybeFlush();
    trivia(node->leadingTrivia());
    put(format.bodyIndent);
    if (node->isOutput())
      output(*node, format);
    else if (std::string_view symbol = inplaceSymbol(*node); !symbol.empty())
      inplaceStatement(*node, symbol, format);
    else
      assignment(*node, format);
    comment(node->trailingComment());
    put('\n');
  }
}

void Writer::output(const Node& node, const GraphFormat& format) {
  const Arg& value = node.args()[0];
  if (format.pytreeOutputs) {
    put("return pytree.tree_unflatten(");
    if (format.multiLineReturn && value.kind == ArgKind::List)
      multiLineElements(value, '[', ']', format);
    else if (format.multiLineReturn && value.kind == ArgKind::Tuple)
      multiLineElements(value, '(', ')', format);
    else
      arg(value);
    put(", ");
    put(format.pytreeOutSpec);
    put(')');
  } else if (format.multiLineReturn && value.kind == ArgKind::Tuple) {
    put("return ");
    multiLineElements(value, '(', ')', format);
  } else {
    put("return ");
    arg(value);
  }
}

void Writer::inplaceStatement(const Node& node, std::string_view symbol,
                              const GraphFormat& format) {
  freed_.clear();
  printing_ = node.order();
  std::span<const Arg> args = node.args();
  arg(args[0]);
  if (symbol == "[]") {
    put('[');
    arg(args[1]);
    put("] = ");
    arg(args[2]);
  } else {
    put(symbol);
    arg(args[1]);
  }
  put(";  ");
  put(node.name());
  annotation(node.type());
  put(" = ");
  arg(args[0]);
  printing_ = kNotPrinting;
  freeList(node, format.freeUnusedNodes && !node.hasUses());
}

void Writer::assignment(const Node& node, const GraphFormat& format) {
  put(node.name());
  annotation(node.type());
  put(" = ");
  freed_.clear();
  if (node.kind() == Node::Kind::GetAttr) {
    put("self.");
    put(node.attribute());
  } else {
    printing_ = node.order();
    call(node);
    printing_ = kNotPrinting;
  }
  freeList(node, format.freeUnusedNodes && !node.hasUses());
}

void Writer::module(const GraphModule& module) {
  trivia(module.leadingTrivia);
  if (!module.className.empty()) {
    put(module.classIndent);
    put("class ");
    put(module.className);
    put('(');
    put(module.classBases.empty() ? std::string_view("torch.nn.Module") : module.classBases);
    put("):\n");
  }
  trivia(module.graph.format().defTrivia);
  graph(module.graph);
  for (const auto& child : module.children)
    this->module(*child);
}

} // namespace declone::io

namespace declone {

using io::FileSink;
using io::LineBreaks;
using io::Writer;

void writeGraphFile(const GraphFile& file, std::string& out) {
  LineBreaks breaks = io::lineBreaksOf(file.context->source());
  std::string printed;
  std::string& target = breaks == LineBreaks::AsPrinted ? out : printed;
  // A rewritten graph prints about as long as it was read: one allocation instead of doublings.
  target.reserve(target.size() + file.context->source().size() + 4096);
  {
    Writer writer(*file.context, target);
    for (const auto& module : file.modules)
      writer.module(*module);
    writer.trivia(file.trailingTrivia);
    if (!file.finalNewline)
      writer.dropFinalNewline();
  }
  if (breaks != LineBreaks::AsPrinted)
    io::appendWithLineBreaks(printed, breaks, out);
}

bool writeGraphFile(const GraphFile& file, std::FILE* stream) {
  std::string buffer;
  buffer.reserve(2 * Writer::kChunkSize);
  FileSink sink(stream, io::lineBreaksOf(file.context->source()));
  Writer writer(*file.context, buffer, sink);
  for (const auto& module : file.modules)
    writer.module(*module);
  writer.trivia(file.trailingTrivia);
  // Only nodes flush, so the text's last newline is still in the buffer.
  if (!file.finalNewline)
    writer.dropFinalNewline();
  return writer.finish();
}

std::string writeGraphModule(const GraphModule& module) {
  std::string out;
  {
    Writer writer(module.graph.context(), out);
    writer.module(module);
  }
  return out;
}

std::string writeGraph(const Graph& graph) {
  std::string out;
  if (!graph.format().defIndent.empty())
    out += "class GraphModule(torch.nn.Module):\n";
  {
    Writer writer(graph.context(), out);
    writer.graph(graph);
  }
  return out;
}

std::string writeGraphFile(const GraphFile& file) {
  std::string out;
  writeGraphFile(file, out);
  return out;
}

} // namespace declone
