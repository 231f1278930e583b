// The writer's private interface, shared by its graph (Writer.cpp) and value (WriterValues.cpp)
// files.
#pragma once

#include "declone/io/Writer.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace declone::io {

/// A target FX prints as a Python operator: `a + b`, `-a`, `a += b`.
struct InfixForm {
  std::string_view function; ///< operator.<name>
  std::string_view symbol;
  bool unary;
};

/// How a file's line breaks are written: as read when the text has no '\r'; else all as its first
/// line break is, since rewritten lines are printed with '\n' and kept ones come with their own.
enum class LineBreaks { AsPrinted, Lf, CrLf };

/// The line breaks to write a file read from `source` with.
LineBreaks lineBreaksOf(std::string_view source);
/// Appends `text` to `out` with every line break (`\n` or `\r\n`) written as `breaks` says.
void appendWithLineBreaks(std::string_view text, LineBreaks breaks, std::string& out);

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

/// Prints modules, graphs and values into a string, or a chunk at a time into a FileSink.
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

  // Values and annotations (WriterValues.cpp).
  void symExpr(SymExpr expr, bool parenthesize);
  void annotation(const TypeAnnotation& type);
  void call(const Node& node);
  void argList(std::span<const Arg> args, std::span<const KwArg> kwargs);

  // A graph's constructs (Writer.cpp).
  void placeholder(const Node& node);
  /// `def forward(self, ...):`, on one line or one parameter per line.
  void signature(const GraphFormat& format, std::span<Node* const> placeholders);
  /// The annotation stubs and the `fx_pytree.tree_flatten_spec` line of a pytree forward.
  void pytreeFlatten(const GraphFormat& format, std::span<Node* const> placeholders);
  /// `l_x_ = L_x_` for each placeholder called otherwise than its parameter.
  void rebindings(const GraphFormat& format, std::span<Node* const> placeholders);
  /// Every statement after the placeholders, in program order.
  void statements(const Graph& graph);
  void output(const Node& node, const GraphFormat& format);
  /// `a += b;  c = a` (or `a[i] = v;  c = a`): the operator `symbol` on its target, then the
  /// node named as that target.
  void inplaceStatement(const Node& node, std::string_view symbol, const GraphFormat& format);
  /// `name: "T" = call(...)` or `name = self.attribute` (get_attr), with its free list.
  void assignment(const Node& node, const GraphFormat& format);
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

} // namespace declone::io
