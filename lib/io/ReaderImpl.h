// The reader's private interface, shared by its structure and statement files.
#pragma once

#include "Annotation.h"
#include "Lexer.h"
#include "NameTable.h"
#include "declone/io/Reader.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

namespace declone::io {

/// One physical line of the source.
struct Line {
  size_t start = 0;
  size_t end = 0;          ///< offset of the '\n' (or the end of the text)
  size_t contentStart = 0; ///< first non-blank character
  uint32_t number = 0;
  bool isTrivia() const { return blank || comment; }
  bool blank = false;
  bool comment = false;
  size_t indent() const { return contentStart - start; }
};

/// A parameter of `def forward(self, ...)`, before we know whether it is a placeholder.
struct Parameter {
  std::string_view name;
  /// The placeholder node's name when a first statement `l_x_ = L_x_` rebinds the parameter
  /// (Dynamo's graphs); empty when the node is called as the parameter.
  std::string_view nodeName;
  const TypeAnnotation* type = nullptr;
  const Arg* defaultValue = nullptr;
  std::string_view comment;
  uint32_t line = 0;
  uint32_t column = 0;
};

/// The value of a Float token, as strtod reads it, without a std::string for the copy strtod
/// needs to see the end of the literal.
inline double parseFloatLiteral(std::string_view text) {
  char buffer[64];
  if (text.size() < sizeof buffer) {
    std::memcpy(buffer, text.data(), text.size());
    buffer[text.size()] = '\0';
    return std::strtod(buffer, nullptr);
  }
  return std::strtod(std::string(text).c_str(), nullptr);
}

/// Reads one source into a GraphFile. Reader.cpp holds the structure (lines, classes,
/// signatures, bodies, returns), ReaderStatements.cpp node statements and values.
class Reader {
public:
  Reader(GraphFile& file, std::string_view source);

  Status read();

private:
  // --- Errors ---------------------------------------------------------------------------
  bool fail(std::string message, uint32_t line, uint32_t column) {
    if (!error_)
      error_ = Error{std::move(message), line, column};
    return false;
  }
  bool fail(std::string message, const Token& at) {
    return fail(std::move(message), at.line, at.column);
  }
  bool failLexer(const Token& token) { return fail(std::string(token.text), token); }
  /// fail() with a note on a related line (0: none), such as an earlier definition.
  bool failWithNote(std::string message, uint32_t line, uint32_t column, std::string note,
                    uint32_t noteLine) {
    if (error_)
      return false;
    fail(std::move(message), line, column);
    if (noteLine != 0)
      error_->notes.push_back({std::move(note), noteLine, 0, {}});
    return false;
  }
  bool failRedefinition(std::string message, const Token& at, const Node* previous) {
    return failWithNote(std::move(message), at.line, at.column, "previous definition is here",
                        previous ? previous->line() : 0);
  }
  std::string describe(const Token& token) const;
  bool failExpected(std::string_view what) {
    if (cur_.kind == Tok::Error)
      return failLexer(cur_);
    return fail("expected " + std::string(what) + ", found " + describe(cur_), cur_);
  }
  bool failUndefined(const Token& name);

  // --- Lines ----------------------------------------------------------------------------
  Line peekLine() const;
  /// Reports Python's TabError for `line`: tabs and spaces mixed so that its level depends on
  /// the tab width.
  bool checkIndentation(const Line& line);
  void skipLine(const Line& line) {
    pos_ = line.end < source_.size() ? line.end + 1 : source_.size();
    lineNumber_ = line.number + 1;
  }
  std::string_view lineText(const Line& line) const {
    return source_.substr(line.start, line.end - line.start);
  }
  /// Collects blank and comment lines into the pending trivia; returns the next content line,
  /// or nullopt at the end of the text.
  std::optional<Line> nextContentLine();
  std::span<const std::string_view> takeTrivia();

  // --- Tokens ---------------------------------------------------------------------------
  void startStatement(const Line& line) {
    lexer_.reset(line.start, line.number);
    statementComments_.clear();
    advance();
  }
  void advance() {
    prevEnd_ = cur_.offset + cur_.text.size();
    if (cur_.kind == Tok::Error)
      prevEnd_ = cur_.offset;
    commentsBefore_.clear();
    lexer_.next(cur_);
    while (cur_.kind == Tok::Comment) {
      commentsBefore_.push_back(cur_);
      lexer_.next(cur_);
    }
  }
  bool is(Tok kind) const { return cur_.kind == kind; }
  bool isIdent(std::string_view word) const {
    return cur_.kind == Tok::Identifier && cur_.text == word;
  }
  bool isOperator(std::string_view op) const {
    return cur_.kind == Tok::Operator && cur_.text == op;
  }
  bool expect(Tok kind, std::string_view what) {
    if (!is(kind))
      return failExpected(what);
    advance();
    return true;
  }
  /// Ends a statement: an optional trailing comment, then a newline or the end of the text.
  bool finishStatement(std::string_view* trailingComment);
  /// The comment written on the same line as the token before the current one.
  std::string_view commentOnLine(uint32_t line) const {
    for (const Token& comment : commentsBefore_)
      if (comment.line == line)
        return comment.text;
    return {};
  }
  uint32_t lineOf(size_t offset) const;

  // --- Structure ------------------------------------------------------------------------
  bool readClass(const Line& line, std::vector<std::unique_ptr<GraphModule>>& into);
  bool readForward(const Line& line, GraphModule& module);
  bool readSignature(Graph& graph, std::vector<Parameter>& parameters);
  bool readBody(Graph& graph, const Line& defLine, std::vector<Parameter>& parameters);
  /// A statement `NODE = PARAMETER` before the first node, which names the placeholder of a
  /// parameter; false (and no error) if the current line is not one.
  bool readRebinding(std::vector<Parameter>& parameters);
  /// A placeholder's annotation from the stub lines before the flatten line; one stub per line
  /// (PyTorch 2.8 on) keeps its own comments.
  struct Stub {
    const TypeAnnotation* type = nullptr;
    std::string_view comment;                 ///< trailing `# PlainAOTInput(idx=0)`
    std::span<const std::string_view> trivia; ///< lines before it
  };
  using Stubs = std::unordered_map<std::string_view, Stub>;
  /// `a: "T"; b: "T"; ` (all on one line).
  bool readStubLine(Stubs& stubs);
  /// `a: "T"  # comment` (one of several lines).
  bool readLineStub(Stubs& stubs, std::span<const std::string_view> trivia);
  bool readFlattenLine(Graph& graph, const Stubs& stubs);
  bool readNodeStatement(Graph& graph);
  /// What follows a node's name: `: "T" =` or `=`.
  bool readAnnotationAndAssign(const TypeAnnotation*& type);
  /// `a += b;  c = a` or `a[i] = v;  c = a`, `target` being `a`.
  bool readInplaceStatement(Graph& graph, const Token& target);
  /// The free list and comment after a node statement's right-hand side.
  bool finishNodeStatement(Graph& graph, Node* node);
  bool readReturn(Graph& graph);
  /// The values of a returned tuple or list written one per line, up to `close`.
  bool readMultiLineReturn(Graph& graph, Tok close, Arg& value);
  void detectFreeConvention(Graph& graph);
  bool readFreeList(std::string_view self, bool& freesSelf);
  /// Sets `type` to the annotation shared by every node spelled the same way.
  bool readAnnotation(const TypeAnnotation*& type);
  bool readRhs(Graph& graph, std::string_view name, const TypeAnnotation* type, uint32_t line);

  // --- Values ---------------------------------------------------------------------------
  /// A name written alone as a value: None, True, False, inf, nan, infj, nanj, Ellipsis or a node.
  /// False (and no error) for an undefined name.
  bool plainNameValue(std::string_view name, Arg& out);
  /// The node called `name` as a value; false (and no error) if there is none.
  bool nodeValue(std::string_view name, Arg& out) {
    Node* found = names_.find(name);
    if (!found)
      return false;
    out = graph_->nodeArg(found);
    return true;
  }
  /// A `torch.MEMBER` name written as a value (not called).
  void torchNameValue(std::string_view dotted, Arg& out);
  bool readValue(Arg& out, unsigned depth);
  /// A complex literal at the current token (complexLiteralLength says there is one).
  bool readComplexLiteral(Arg& out);
  bool readNameValue(Arg& out, unsigned depth);
  bool readSequence(Arg& out, Tok close, ArgKind kind, unsigned depth);
  bool readCallArgs(std::span<Arg>& args, std::span<KwArg>& kwargs, unsigned depth);
  bool readDottedName(std::string_view& name, Token& first);
  bool containsNode(const Arg& arg) const;
  // One scratch vector per nesting depth, sized once so that references stay valid while
  // deeper levels are in use; readValue bounds the depth.
  static constexpr size_t kScratchLevels = Lexer::kMaxNesting + 8;
  std::vector<Arg>& argScratch(unsigned depth) {
    assert(depth < kScratchLevels);
    argScratch_[depth].clear();
    return argScratch_[depth];
  }
  std::vector<KwArg>& kwargScratch(unsigned depth) {
    assert(depth < kScratchLevels);
    kwargScratch_[depth].clear();
    return kwargScratch_[depth];
  }
  template <class T> std::span<T> copyToArena(const std::vector<T>& items) {
    std::span<T> out = context_.allocate<T>(items.size());
    std::copy(items.begin(), items.end(), out.begin());
    return out;
  }
  std::string_view sourceSince(size_t start) const {
    return source_.substr(start, prevEnd_ - start);
  }

  GraphFile& file_;
  Context& context_;
  std::string_view source_;
  Lexer lexer_;
  Token cur_;
  size_t prevEnd_ = 0;
  std::vector<Token> commentsBefore_;
  std::vector<Token> statementComments_;
  size_t pos_ = 0;
  uint32_t lineNumber_ = 1;
  std::vector<std::string_view> pendingTrivia_;
  std::optional<Error> error_;
  /// Python's indentation stack, for its TabError (checkIndentation).
  struct Indent {
    size_t tabs8 = 0; ///< the column with tabs to multiples of 8
    size_t tabs1 = 0; ///< the column with tabs as 1
  };
  std::vector<Indent> indents_{Indent()};
  uint32_t indentCheckedLine_ = 0;
  Graph* graph_ = nullptr;
  NameTable names_;
  /// Annotations parsed so far, by spelling: a dump repeats a few thousand spellings over a
  /// million nodes, each parsed once and its TensorType (immutable once made) shared.
  std::unordered_map<std::string_view, const TypeAnnotation*> annotations_;
  AnnotationParser annotationParser_{context_};
  std::vector<Node*> selfFreed_; ///< nodes whose free list names themselves
  std::vector<std::vector<Arg>> argScratch_;
  std::vector<std::vector<KwArg>> kwargScratch_;
  size_t expectedNames_;
  size_t graphsRead_ = 0;
};

inline bool Reader::plainNameValue(std::string_view name, Arg& out) {
  // Node names are the common case: the length picks the few literals a name may be.
  auto literal = [&](ArgKind kind) {
    out.kind = kind;
    out.setText(name);
    return true;
  };
  switch (name.size()) {
  case 3:
    if (name == "inf" || name == "nan") {
      out.real = name == "inf" ? HUGE_VAL : NAN;
      return literal(ArgKind::Float);
    }
    break;
  case 4:
    if (name == "None")
      return literal(ArgKind::None);
    if (name == "True") {
      out.boolean = true;
      return literal(ArgKind::Bool);
    }
    if (name == "infj" || name == "nanj") // complex literals with no real part
      return literal(ArgKind::Complex);
    break;
  case 5:
    if (name == "False") {
      out.boolean = false;
      return literal(ArgKind::Bool);
    }
    break;
  case 8:
    if (name == "Ellipsis") // repr(...), in index tuples: `x[(Ellipsis, 0)]`
      return literal(ArgKind::Ellipsis);
    break;
  default:
    break;
  }
  return nodeValue(name, out);
}

} // namespace declone::io
