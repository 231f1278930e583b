// Writer for FX graph text: the dialect of print_readable, with recomputed free lists.
#include "declone/io/Writer.h"

#include "declone/support/Lines.h"

#include <algorithm>
#include <cassert>
#include <charconv>
#include <cmath>
#include <cstring>
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

/// How a file's line breaks are written: as read when the text has no '\r'; else all as its first
/// line break is, since rewritten lines are printed with '\n' and kept ones come with their own.
enum class LineBreaks { AsPrinted, Lf, CrLf };

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

/// Writes a file's text a chunk at a time, so that a large graph is never held twice in memory.
class FileSink {
public:
  FileSink(std::FILE* stream, LineBreaks breaks) : stream_(stream), breaks_(breaks) {}

  /// `chunk` ends with a whole line (or the text): a '\r\n' is never split between chunks.
  void write(std::string_view chunk) {
    if (breaks_ != LineBreaks::AsPrinted) {
      converted_.clear();
      appendWithLineBreaks(chunk, breaks_, converted_);
      chunk = converted_;
    }
    ok_ = std::fwrite(chunk.data(), 1, chunk.size(), stream_) == chunk.size() && ok_;
  }
  /// Writes `chunk` last; false if this or any earlier write failed.
  [[nodiscard]] bool finish(std::string_view chunk) {
    write(chunk);
    // Some streams (fopencookie's) record a failed write in the error flag and still report
    // every byte written.
    return ok_ && !std::ferror(stream_);
  }

private:
  std::FILE* stream_;
  LineBreaks breaks_;
  std::string converted_;
  bool ok_ = true;
};

class Writer {
public:
  static constexpr size_t kChunkSize = size_t(1) << 20;

  /// Appends to `out`.
  Writer(const Context& context, std::string& out) : context_(context), out_(&out) {
    cur_ = end_ = out_->data() + out_->size();
  }
  /// Prints into `buffer`, handed to `sink` each time it holds a chunk.
  Writer(const Context& context, std::string& buffer, FileSink& sink)
      : context_(context), out_(&buffer), sink_(&sink) {
    cur_ = end_ = out_->data() + out_->size();
  }
  Writer(const Writer&) = delete;
  Writer& operator=(const Writer&) = delete;
  ~Writer() { commit(); }

  void module(const GraphModule& module);
  void graph(const Graph& graph);
  void arg(const Arg& arg);
  void type(const TypeAnnotation& type);
  void trivia(std::span<const std::string_view> lines) {
    for (std::string_view line : lines) {
      put(line);
      put('\n');
    }
  }
  /// Removes the newline just printed, if any (a file without a final newline).
  void dropFinalNewline() {
    if (cur_ != out_->data() && cur_[-1] == '\n')
      --cur_;
  }

  /// With a sink, writes out what has been printed once it reaches a chunk. Called only before a
  /// node is printed, so the last line stays buffered for the final-newline fix-up.
  void maybeFlush() {
    if (sink_ && size() >= kChunkSize)
      flush();
  }
  /// Hands the buffer to the sink and starts it over; its windows stay allocated for later chunks.
  void flush() {
    sink_->write({out_->data(), size()});
    cur_ = out_->data();
    end_ = out_->data() + out_->size();
  }
  /// Writes what is left to the sink; false if this or an earlier write failed.
  [[nodiscard]] bool finish() { return sink_->finish({out_->data(), size()}); }

private:
  // Output goes through a raw write pointer into `*out_`: the string is grown a window at a time
  // (resize) and only the bytes in [data, cur_) are text. Each append then costs a bounds check
  // and a copy, instead of a std::string append that also rewrites the terminator; commit()
  // trims the string to the text when the writer is done.
  // Small enough that a window's zero-fill is still in cache when the text overwrites it.
  static constexpr size_t kWindow = size_t(64) << 10;

  size_t size() const { return static_cast<size_t>(cur_ - out_->data()); }
  // The appends below are forced inline: a call per piece (a dozen per statement) would cost
  // more than the copies.
  /// Makes room for `n` more bytes after cur_.
  [[gnu::always_inline]] void reserve(size_t n) {
    if (static_cast<size_t>(end_ - cur_) < n) [[unlikely]]
      grow(n);
  }
  [[gnu::noinline]] void grow(size_t n) {
    size_t used = size();
    // resize, not reserve: the window must be inside the string's size to be written. The
    // zero-fill costs a memset of each window while it is in cache. A window is cut short at
    // the capacity rather than make the string reallocate (and copy) for room it may not need.
    size_t wanted = used + std::max(n, kWindow);
    if (wanted > out_->capacity() && used + n <= out_->capacity())
      wanted = out_->capacity();
    out_->resize(wanted);
    cur_ = out_->data() + used;
    end_ = out_->data() + out_->size();
  }
  void commit() { out_->resize(size()); }

  [[gnu::always_inline]] void put(std::string_view text) {
    reserve(text.size());
    copy(cur_, text.data(), text.size());
    cur_ += text.size();
  }
  [[gnu::always_inline]] void put(char c) {
    reserve(1);
    *cur_++ = c;
  }
  void putInt(int64_t value) {
    reserve(20);
    cur_ = std::to_chars(cur_, cur_ + 20, value).ptr;
  }
  /// Copies n bytes, kSize <= n <= 2 * kSize, as two blocks of kSize that may overlap.
  template <size_t kSize>
  [[gnu::always_inline]] static void copyHeadAndTail(char* to, const char* from, size_t n) {
    struct Block {
      char bytes[kSize];
    } head, tail;
    std::memcpy(&head, from, kSize);
    std::memcpy(&tail, from + n - kSize, kSize);
    std::memcpy(to, &head, kSize);
    std::memcpy(to + n - kSize, &tail, kSize);
  }
  /// memcpy for the short names, annotations and targets that make up most of the text: a call
  /// to memcpy for a few bytes costs more than the copy. Two overlapping loads cover 16 to 32
  /// bytes (8 to 16, ...) without reading outside the source.
  [[gnu::always_inline]] static void copy(char* to, const char* from, size_t n) {
    if (n > 32 || __builtin_constant_p(n)) {
      std::memcpy(to, from, n);
    } else if (n >= 16) {
      copyHeadAndTail<16>(to, from, n);
    } else if (n >= 8) {
      copyHeadAndTail<8>(to, from, n);
    } else if (n >= 4) {
      copyHeadAndTail<4>(to, from, n);
    } else if (n != 0) {
      // 1 to 3 bytes: first, middle and last (some the same byte).
      to[0] = from[0];
      to[n / 2] = from[n / 2];
      to[n - 1] = from[n - 1];
    }
  }
  /// For the rare text printed by helpers that append to a std::string (floats, SymExprs).
  template <class Fn> void viaScratch(Fn&& fn) {
    scratch_.clear();
    fn(scratch_);
    put(scratch_);
  }

  void symExpr(SymExpr expr, bool parenthesize);
  void annotation(const TypeAnnotation& type);
  void placeholder(const Node& node);
  void call(const Node& node);
  void argList(std::span<const Arg> args, std::span<const KwArg> kwargs);
  void computeLastUsers(const Graph& graph);
  /// `;  a = b = None` after a statement: the values it used last, then itself if unused.
  void freeList(const Node& node, bool freesItself);
  /// Two blanks and `text`, a `# ...` comment after a statement, if there is one.
  void comment(std::string_view text) {
    if (!text.empty()) {
      put("  ");
      put(text);
    }
  }
  /// A returned tuple or list, one element per line with its comment.
  void multiLineElements(const Arg& value, char open, char close, const GraphFormat& format);

  const Context& context_;
  std::string* out_;
  char* cur_ = nullptr;
  char* end_ = nullptr;
  FileSink* sink_ = nullptr;
  std::string scratch_;
  // For each node by order(): the order of its last user, kNoUser if none, kFreed once listed.
  std::vector<uint32_t> lastUser_;
  static constexpr uint32_t kNoUser = UINT32_MAX;
  static constexpr uint32_t kFreed = UINT32_MAX - 1;
  static constexpr uint32_t kNotPrinting = UINT32_MAX - 2;
  // The order of the statement whose arguments are being printed, or kNotPrinting; and the
  // values it uses last, as met (its free list).
  uint32_t printing_ = kNotPrinting;
  std::vector<const Node*> freed_;
};

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

  // Signature.
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
  if (format.pytreeInputs) {
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
    if (node->isOutput()) {
      const Arg& value = node->args()[0];
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
    } else if (std::string_view symbol = inplaceSymbol(*node); !symbol.empty()) {
      // `a += b;  c = a`: the operator on its target, then the node named as that target.
      freed_.clear();
      printing_ = node->order();
      std::span<const Arg> args = node->args();
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
      put(node->name());
      annotation(node->type());
      put(" = ");
      arg(args[0]);
      printing_ = kNotPrinting;
      freeList(*node, format.freeUnusedNodes && !node->hasUses());
    } else {
      put(node->name());
      annotation(node->type());
      put(" = ");
      freed_.clear();
      if (node->kind() == Node::Kind::GetAttr) {
        put("self.");
        put(node->attribute());
      } else {
        printing_ = node->order();
        call(*node);
        printing_ = kNotPrinting;
      }
      freeList(*node, format.freeUnusedNodes && !node->hasUses());
    }
    comment(node->trailingComment());
    put('\n');
  }
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

} // namespace

void writeGraphFile(const GraphFile& file, std::string& out) {
  LineBreaks breaks = lineBreaksOf(file.context->source());
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
    appendWithLineBreaks(printed, breaks, out);
}

bool writeGraphFile(const GraphFile& file, std::FILE* stream) {
  std::string buffer;
  buffer.reserve(2 * Writer::kChunkSize);
  FileSink sink(stream, lineBreaksOf(file.context->source()));
  Writer writer(*file.context, buffer, sink);
  for (const auto& module : file.modules)
    writer.module(*module);
  writer.trivia(file.trailingTrivia);
  // Only nodes flush, so the text's last newline is still in the buffer.
  if (!file.finalNewline)
    writer.dropFinalNewline();
  return writer.finish();
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
