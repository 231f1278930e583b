// Reader for FX graph text: files, classes, signatures, node statements and return values.
#include "declone/io/Reader.h"

#include "AnnotationCache.h"
#include "Lexer.h"
#include "NameTable.h"
#include "TargetCache.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>
#include <unordered_map>
#include <vector>

namespace declone {
namespace {

using io::Lexer;
using io::Tok;
using io::Token;

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
  const TypeAnnotation* type = nullptr;
  const Arg* defaultValue = nullptr;
  std::string_view comment;
  uint32_t line = 0;
  uint32_t column = 0;
};

struct InfixOperator {
  std::string_view symbol;
  std::string_view function;
};
constexpr InfixOperator kBinaryOperators[] = {
    {"+", "operator.add"},       {"-", "operator.sub"},     {"*", "operator.mul"},
    {"//", "operator.floordiv"}, {"/", "operator.truediv"}, {"%", "operator.mod"},
    {"**", "operator.pow"},      {"<<", "operator.lshift"}, {">>", "operator.rshift"},
    {"&", "operator.and_"},      {"|", "operator.or_"},     {"^", "operator.xor"},
    {"@", "operator.matmul"},    {"==", "operator.eq"},     {"!=", "operator.ne"},
    {"<", "operator.lt"},        {">", "operator.gt"},      {"<=", "operator.le"},
    {">=", "operator.ge"},
};
constexpr InfixOperator kUnaryOperators[] = {
    {"-", "operator.neg"}, {"+", "operator.pos"}, {"~", "operator.invert"}};

constexpr std::string_view kLayouts[] = {"strided",    "sparse_coo", "sparse_csr", "sparse_csc",
                                         "sparse_bsr", "sparse_bsc", "_mkldnn",    "jagged"};
struct MemoryFormatName {
  std::string_view name;
  MemoryFormat format;
};
constexpr MemoryFormatName kMemoryFormats[] = {
    {"contiguous_format", MemoryFormat::Contiguous},
    {"preserve_format", MemoryFormat::Preserve},
    {"channels_last", MemoryFormat::ChannelsLast},
    {"channels_last_3d", MemoryFormat::ChannelsLast3d},
};

using io::isNameChar;
using io::isNameStart;
bool isDigit(char c) {
  return c >= '0' && c <= '9';
}
// The fast path's scans, which stop at the '\n' that ends every line it reads.

/// The end of the name whose remaining characters start at `p`.
const char* scanName(const char* p) {
  while (isNameChar(*p))
    ++p;
  return p;
}
/// The end of a dotted name whose first component ends at `p`, as readDottedName's scan reads
/// it: `.` and a name, repeatedly.
const char* scanDotted(const char* p) {
  while (p[0] == '.' && isNameStart(p[1]))
    p = scanName(p + 2);
  return p;
}
/// Skips the blanks the lexer skips between tokens on a line.
const char* skipBlanks(const char* p) {
  while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\f')
    ++p;
  return p;
}

/// The value of a Float token, as strtod reads it, without a std::string for the copy strtod
/// needs to see the end of the literal.
double parseFloatLiteral(std::string_view text) {
  char buffer[64];
  if (text.size() < sizeof buffer) {
    std::memcpy(buffer, text.data(), text.size());
    buffer[text.size()] = '\0';
    return std::strtod(buffer, nullptr);
  }
  return std::strtod(std::string(text).c_str(), nullptr);
}

/// Number of lines, counted with memchr: a byte loop here cost as much as a tenth of reading.
size_t countLines(std::string_view text) {
  size_t count = 1;
  const char* at = text.data();
  const char* end = at + text.size();
  // memchr must not see the null data() of an empty view, even with length 0.
  while (at != end &&
         (at = static_cast<const char*>(std::memchr(at, '\n', static_cast<size_t>(end - at))))) {
    ++count;
    ++at;
  }
  return count;
}

class Reader {
public:
  Reader(GraphFile& file, std::string_view source)
      : file_(file), context_(*file.context), source_(source), lexer_(source),
        argScratch_(kScratchLevels), kwargScratch_(kScratchLevels),
        // Most lines define a node: the line count bounds the names of every graph.
        expectedNames_(countLines(source)) {}

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
  std::string describe(const Token& token) const;
  bool failExpected(std::string_view what) {
    if (cur_.kind == Tok::Error)
      return failLexer(cur_);
    return fail("expected " + std::string(what) + ", found " + describe(cur_), cur_);
  }
  bool failUndefined(const Token& name);

  // --- Lines ----------------------------------------------------------------------------
  Line peekLine() const;
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
    cur_ = lexer_.next();
    while (cur_.kind == Tok::Comment) {
      commentsBefore_.push_back(cur_);
      cur_ = lexer_.next();
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
  bool readStubLine(std::unordered_map<std::string_view, const TypeAnnotation*>& stubs);
  bool readFlattenLine(Graph& graph,
                       const std::unordered_map<std::string_view, const TypeAnnotation*>& stubs);
  bool readNodeStatement(Graph& graph);
  bool readReturn(Graph& graph);
  void detectFreeConvention(Graph& graph);
  bool readFreeList(std::string_view self, bool& freesSelf);
  /// Sets `type` to the annotation shared by every node spelled the same way.
  bool readAnnotation(const TypeAnnotation*& type);
  bool readRhs(Graph& graph, std::string_view name, const TypeAnnotation* type, uint32_t line);

  // --- Fast path for the common node statement ------------------------------------------
  bool tryFastNodeStatement(Graph& graph, const Line& line);
  bool fastCallArgs(const char*& p, const char* end, std::span<Arg>& args,
                    std::span<KwArg>& kwargs);
  bool fastValue(const char*& p, const char* end, Arg& out, unsigned depth);
  /// Deepest list the fast path reads; deeper ones go to the general path.
  static constexpr unsigned kFastMaxDepth = 16;

  // --- Values ---------------------------------------------------------------------------
  /// A name written alone as a value: None, True, False, inf, nan or a node. False (and no
  /// error) for an undefined name.
  bool plainNameValue(std::string_view name, Arg& out);
  /// The node called `name` as a value; false (and no error) if there is none.
  bool nodeValue(std::string_view name, Arg& out);
  /// A `torch.MEMBER` name written as a value (not called).
  void torchNameValue(std::string_view dotted, Arg& out);
  bool readValue(Arg& out, unsigned depth);
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
  Graph* graph_ = nullptr;
  io::NameTable names_;
  io::AnnotationCache annotations_;
  io::TargetCache targets_{context_};
  std::vector<Node*> selfFreed_; ///< nodes whose free list names themselves
  std::vector<std::vector<Arg>> argScratch_;
  std::vector<std::vector<KwArg>> kwargScratch_;
  size_t expectedNames_;
  size_t graphsRead_ = 0;
};

std::string Reader::describe(const Token& token) const {
  switch (token.kind) {
  case Tok::End:
    return "end of file";
  case Tok::Newline:
    return "end of line";
  case Tok::Error:
    return std::string(token.text);
  default:
    return "'" + std::string(token.text.substr(0, 40)) + "'";
  }
}

uint32_t Reader::lineOf(size_t offset) const {
  // Only used on error paths: a linear count is fine there.
  uint32_t line = 1;
  for (size_t i = 0; i < offset && i < source_.size(); ++i)
    line += source_[i] == '\n';
  return line;
}

bool Reader::failUndefined(const Token& name) {
  // Say "used before it is defined" when a later line starts with `NAME:` or `NAME =`.
  std::string_view rest = source_.substr(name.offset + name.text.size());
  for (size_t at = rest.find(name.text); at != std::string_view::npos;
       at = rest.find(name.text, at + 1)) {
    size_t lineStart = rest.rfind('\n', at);
    if (lineStart == std::string_view::npos || rest.find_first_not_of(" \t", lineStart + 1) != at)
      continue;
    std::string_view after = rest.substr(at + name.text.size());
    if (after.starts_with(":") || after.starts_with(" = ")) {
      uint32_t line = lineOf(name.offset + name.text.size() + at);
      return fail("'" + std::string(name.text) + "' is used before it is defined (line " +
                      std::to_string(line) + ")",
                  name);
    }
  }
  return fail("use of undefined name '" + std::string(name.text) + "'", name);
}

Line Reader::peekLine() const {
  Line line;
  line.start = pos_;
  line.number = lineNumber_;
  size_t end = source_.find('\n', pos_);
  line.end = end == std::string_view::npos ? source_.size() : end;
  size_t content = pos_;
  // Indentation comes in runs of spaces: skip them eight at a time.
  while (line.end - content >= 8 &&
         io::detail::load64(source_.data() + content) == 0x2020202020202020ull)
    content += 8;
  while (content < line.end && (source_[content] == ' ' || source_[content] == '\t' ||
                                source_[content] == '\r' || source_[content] == '\f'))
    ++content;
  line.contentStart = content;
  line.blank = content == line.end;
  line.comment = !line.blank && source_[content] == '#';
  return line;
}

std::optional<Line> Reader::nextContentLine() {
  while (pos_ < source_.size()) {
    Line line = peekLine();
    if (!line.isTrivia())
      return line;
    pendingTrivia_.push_back(lineText(line));
    skipLine(line);
  }
  return std::nullopt;
}

std::span<const std::string_view> Reader::takeTrivia() {
  if (pendingTrivia_.empty())
    return {};
  std::span<std::string_view> out = copyToArena(pendingTrivia_);
  pendingTrivia_.clear();
  return out;
}

bool Reader::finishStatement(std::string_view* trailingComment) {
  if (!commentsBefore_.empty()) {
    if (!trailingComment)
      return fail("unexpected comment", commentsBefore_.front());
    *trailingComment = commentsBefore_.front().text;
  }
  if (is(Tok::Newline) || is(Tok::End)) {
    pos_ = lexer_.offset();
    lineNumber_ = lexer_.line();
    return true;
  }
  return failExpected("end of line");
}

Status Reader::read() {
  while (auto line = nextContentLine()) {
    startStatement(*line);
    if (isIdent("import") || isIdent("from")) {
      pendingTrivia_.push_back(lineText(*line)); // imports are kept verbatim
      skipLine(*line);
      continue;
    }
    if (line->indent() != 0) {
      fail("unexpected indentation at top level", line->number,
           static_cast<uint32_t>(line->indent() + 1));
      break;
    }
    if (isIdent("class")) {
      if (!readClass(*line, file_.modules))
        break;
      continue;
    }
    if (isIdent("def")) {
      auto module = std::make_unique<GraphModule>(context_);
      module->leadingTrivia = takeTrivia();
      GraphModule& ref = *module;
      file_.modules.push_back(std::move(module));
      if (!readForward(*line, ref))
        break;
      continue;
    }
    if (is(Tok::Identifier)) {
      // Type stub lines such as `b8: type` that dump tools put before the graph.
      advance();
      if (is(Tok::Colon)) {
        pendingTrivia_.push_back(lineText(*line));
        skipLine(*line);
        continue;
      }
    }
    fail("expected 'class' or 'def forward' at top level", line->number, 1);
    break;
  }
  if (error_)
    return *error_;
  if (file_.modules.empty())
    return Error{"no graph found: expected 'class' or 'def forward'", lineNumber_, 1};
  file_.trailingTrivia = takeTrivia();
  file_.finalNewline = source_.empty() || source_.back() == '\n';
  return ok();
}

bool Reader::readClass(const Line& line, std::vector<std::unique_ptr<GraphModule>>& into) {
  auto module = std::make_unique<GraphModule>(context_);
  GraphModule& ref = *module;
  into.push_back(std::move(module));
  ref.leadingTrivia = takeTrivia();
  ref.classIndent = source_.substr(line.start, line.indent());
  advance(); // 'class'
  size_t nameStart = cur_.offset;
  if (isOperator("<")) { // `class <lambda>(...)`
    advance();
    if (!is(Tok::Identifier))
      return failExpected("a class name");
    advance();
    if (!isOperator(">"))
      return failExpected("'>'");
    advance();
  } else if (!expect(Tok::Identifier, "a class name")) {
    return false;
  }
  ref.className = sourceSince(nameStart);
  if (is(Tok::LParen)) {
    advance();
    size_t basesStart = cur_.offset;
    while (!is(Tok::RParen)) {
      if (is(Tok::End) || is(Tok::Error) || is(Tok::Newline))
        return failExpected("')'");
      advance();
    }
    ref.classBases = source_.substr(basesStart, cur_.offset - basesStart);
    advance();
  }
  if (!expect(Tok::Colon, "':'") || !finishStatement(nullptr))
    return false;

  bool sawForward = false;
  size_t memberIndent = 0;
  while (auto member = nextContentLine()) {
    if (member->indent() <= line.indent())
      break;
    startStatement(*member);
    if (!sawForward) {
      if (!isIdent("def"))
        return fail("expected 'def forward' in class body", member->number,
                    static_cast<uint32_t>(member->indent() + 1));
      memberIndent = member->indent();
      ref.graph.format().defTrivia = takeTrivia();
      if (!readForward(*member, ref))
        return false;
      sawForward = true;
      continue;
    }
    if (member->indent() > memberIndent)
      return fail("statement after 'return'", member->number,
                  static_cast<uint32_t>(member->indent() + 1));
    if (!isIdent("class"))
      return fail("expected a nested 'class' after forward", member->number,
                  static_cast<uint32_t>(member->indent() + 1));
    if (!readClass(*member, ref.children))
      return false;
  }
  if (!sawForward)
    return fail("class '" + std::string(ref.className) + "' has no forward method", line.number,
                static_cast<uint32_t>(line.indent() + 1));
  return true;
}

bool Reader::readForward(const Line& line, GraphModule& module) {
  Graph& graph = module.graph;
  graph_ = &graph;
  selfFreed_.clear();
  // The first graph is usually the whole file; nested subgraphs start small and grow.
  names_.reset(graphsRead_++ == 0 ? expectedNames_ : 64);
  graph.format().defIndent = source_.substr(line.start, line.indent());
  advance(); // 'def'
  if (!isIdent("forward"))
    return failExpected("'forward'");
  advance();
  std::vector<Parameter> parameters;
  if (!readSignature(graph, parameters))
    return false;
  return readBody(graph, line, parameters);
}

bool Reader::readSignature(Graph& graph, std::vector<Parameter>& parameters) {
  GraphFormat& format = graph.format();
  uint32_t openLine = cur_.line;
  if (!expect(Tok::LParen, "'('"))
    return false;
  format.multiLineSignature = cur_.line != openLine;
  if (!isIdent("self"))
    return failExpected("'self' as the first parameter");
  advance();
  size_t firstParameter = 0, lastParameterEnd = 0;
  while (is(Tok::Comma)) {
    uint32_t commaLine = cur_.line;
    advance();
    if (!parameters.empty() && parameters.back().comment.empty())
      parameters.back().comment = commentOnLine(commaLine);
    if (is(Tok::RParen))
      break;
    Parameter parameter;
    if (!is(Tok::Identifier))
      return failExpected("a parameter name");
    if (parameters.empty())
      firstParameter = cur_.offset;
    parameter.name = cur_.text;
    parameter.line = cur_.line;
    parameter.column = cur_.column;
    advance();
    if (is(Tok::Colon)) {
      advance();
      if (!readAnnotation(parameter.type))
        return false;
    }
    if (is(Tok::Assign)) {
      advance();
      auto* value = context_.create<Arg>();
      if (!readValue(*value, 0))
        return false;
      parameter.defaultValue = value;
    }
    lastParameterEnd = prevEnd_;
    parameters.push_back(parameter);
    if (!is(Tok::Comma) && !is(Tok::RParen))
      return failExpected("',' or ')'");
  }
  if (!parameters.empty() && parameters.back().comment.empty())
    parameters.back().comment = commentOnLine(parameters.back().line);
  if (!expect(Tok::RParen, "')'"))
    return false;
  if (!parameters.empty())
    format.pytreeParameters = source_.substr(firstParameter, lastParameterEnd - firstParameter);
  if (is(Tok::Arrow))
    return fail("return annotations on forward are not supported", cur_);
  if (!expect(Tok::Colon, "':'"))
    return false;
  return finishStatement(nullptr);
}

bool Reader::readAnnotation(const TypeAnnotation*& type) {
  if (is(Tok::String)) {
    std::string_view quoted = cur_.text;
    if (quoted.size() >= 2 && quoted.find('\\') == std::string_view::npos) {
      std::string_view spelling = quoted.substr(1, quoted.size() - 2);
      type = annotations_.find(spelling);
      if (!type) {
        Result<TypeAnnotation> parsed = parseTypeAnnotation(context_, spelling);
        if (!parsed.ok())
          return fail("malformed annotation: " + parsed.error().message, cur_.line,
                      cur_.column + parsed.error().column);
        parsed->spelling = spelling;
        type = context_.create<TypeAnnotation>(*parsed);
        annotations_.insert(type);
      }
      advance();
      return true;
    }
    return fail("malformed annotation", cur_);
  }
  // A bare Python type such as `torch.Tensor` or `Optional[torch.Tensor]`, kept verbatim.
  size_t start = cur_.offset;
  uint32_t depth = lexer_.depth();
  if (!is(Tok::Identifier))
    return failExpected("a type annotation");
  // The depth is the lexer's after the current token: a ')' that closes the parameter list has
  // already left the level the annotation started at.
  auto ends = [&] {
    return (lexer_.depth() == depth && (is(Tok::Comma) || is(Tok::Assign) || is(Tok::Semicolon))) ||
           (is(Tok::RParen) && lexer_.depth() + 1 == depth);
  };
  while (!ends() && !is(Tok::Newline) && !is(Tok::End)) {
    if (is(Tok::Error))
      return failLexer(cur_);
    advance();
  }
  TypeAnnotation bare;
  bare.kind = TypeAnnotation::Kind::Other;
  bare.quoted = false;
  bare.spelling = sourceSince(start);
  type = context_.create<TypeAnnotation>(bare);
  return true;
}

bool Reader::readBody(Graph& graph, const Line& defLine, std::vector<Parameter>& parameters) {
  GraphFormat& format = graph.format();
  bool placeholdersMade = false;
  bool sawStub = false;
  std::unordered_map<std::string_view, const TypeAnnotation*> stubs;
  auto makePlaceholders = [&]() -> bool {
    placeholdersMade = true;
    for (const Parameter& parameter : parameters) {
      if (names_.find(parameter.name))
        return fail("duplicate parameter '" + std::string(parameter.name) + "'", parameter.line,
                    parameter.column);
      Node* node = graph.createPlaceholder(parameter.name, parameter.type, parameter.defaultValue);
      node->setLine(parameter.line);
      graph.setTrailingComment(node, parameter.comment);
      names_.insert(node);
    }
    format.pytreeParameters = {};
    return true;
  };

  bool first = true;
  while (auto line = nextContentLine()) {
    if (line->indent() <= defLine.indent())
      break;
    if (first) {
      format.bodyIndent = source_.substr(line->start, line->indent());
      first = false;
    }
    if (placeholdersMade && tryFastNodeStatement(graph, *line))
      continue;
    startStatement(*line);
    if (isIdent("return")) {
      if (!placeholdersMade && !makePlaceholders())
        return false;
      if (!readReturn(graph))
        return false;
      detectFreeConvention(graph);
      return true;
    }
    if (!is(Tok::Identifier))
      return failExpected("a statement");
    // Pytree calling convention: a stub line and a flatten line before the first node.
    if (!placeholdersMade && graph.empty()) {
      advance();
      bool isFlatten = is(Tok::Comma);
      bool isStub = false;
      if (is(Tok::Colon) && !sawStub) {
        // `a: "T"; b: "T"; ` has a ';' right after the annotation; a node has '='.
        advance();
        const TypeAnnotation* ignored = nullptr;
        isStub = readAnnotation(ignored) && is(Tok::Semicolon);
        error_.reset(); // a malformed annotation is reported when the line is read for real
      }
      startStatement(*line); // read the line again from its start
      if (isStub) {
        format.stubTrivia = takeTrivia();
        sawStub = true;
        if (!readStubLine(stubs))
          return false;
        continue;
      }
      if (isFlatten) {
        format.flattenTrivia = takeTrivia();
        if (!readFlattenLine(graph, stubs))
          return false;
        placeholdersMade = true;
        continue;
      }
      if (sawStub)
        return fail("expected the fx_pytree.tree_flatten_spec line after the annotation stubs",
                    line->number, static_cast<uint32_t>(line->indent() + 1));
    }
    if (!placeholdersMade && !makePlaceholders())
      return false;
    if (!readNodeStatement(graph))
      return false;
  }
  return fail("forward has no return statement", defLine.number,
              static_cast<uint32_t>(defLine.indent() + 1));
}

void Reader::detectFreeConvention(Graph& graph) {
  // Unused nodes free themselves since PyTorch 2.3. If the dump has an unused node that does
  // not, it came from an older version: print it the way it was printed.
  size_t unused = 0;
  for (Node* node : graph)
    unused += node->isCall() || node->kind() == Node::Kind::GetAttr ? !node->hasUses() : 0;
  graph.format().freeUnusedNodes = unused == 0 || !selfFreed_.empty();
  selfFreed_.clear();
}

bool Reader::readStubLine(std::unordered_map<std::string_view, const TypeAnnotation*>& stubs) {
  while (is(Tok::Identifier)) {
    std::string_view name = cur_.text;
    advance();
    if (!expect(Tok::Colon, "':'"))
      return false;
    const TypeAnnotation* type = nullptr;
    if (!readAnnotation(type) || !expect(Tok::Semicolon, "';'"))
      return false;
    stubs[name] = type;
  }
  return finishStatement(nullptr);
}

bool Reader::readFlattenLine(
    Graph& graph, const std::unordered_map<std::string_view, const TypeAnnotation*>& stubs) {
  GraphFormat& format = graph.format();
  std::vector<Token> names;
  while (is(Tok::Identifier)) {
    names.push_back(cur_);
    advance();
    if (!expect(Tok::Comma, "','"))
      return false;
  }
  if (!expect(Tok::Assign, "'='"))
    return false;
  std::string_view callee;
  Token first;
  if (!readDottedName(callee, first))
    return false;
  if (callee != "fx_pytree.tree_flatten_spec")
    return fail("expected fx_pytree.tree_flatten_spec", first);
  if (!is(Tok::LParen))
    return failExpected("'('");
  uint32_t depthInside = lexer_.depth();
  advance();
  size_t specStart = cur_.offset;
  while (!(is(Tok::RParen) && lexer_.depth() + 1 == depthInside)) {
    if (is(Tok::End) || is(Tok::Error))
      return is(Tok::Error) ? failLexer(cur_) : failExpected("')'");
    advance();
  }
  format.pytreeInSpec = source_.substr(specStart, cur_.offset - specStart);
  advance();
  if (!finishStatement(nullptr))
    return false;
  format.pytreeInputs = true;
  for (const Token& name : names) {
    if (names_.find(name.text))
      return fail("duplicate placeholder '" + std::string(name.text) + "'", name);
    auto stub = stubs.find(name.text);
    Node* node = graph.createPlaceholder(name.text, stub == stubs.end() ? nullptr : stub->second);
    node->setLine(name.line);
    names_.insert(node);
  }
  return true;
}

// --- Fast path ------------------------------------------------------------------------------
//
// Nearly every line of a large dump is a node statement printed by FX in one shape:
//
//     NAME: "ANNOTATION" = torch.ops.NS.OP.OVERLOAD(ARGS);  a = b = None
//     NAME: "ANNOTATION" = NODE[INDEX];  NODE = None
//
// Lexing such a line token by token (a Token built, copied and classified for every comma) was
// most of the reading time. tryFastNodeStatement scans the bytes of the line directly instead.
// It only accepts FX's own spacing and the plain values (names, numbers, strings, lists, torch
// constants) that make up such lines, and before it changes anything it has checked the whole
// line, free list included. On anything else, malformed or merely unusual, it returns false
// having left the reader as it was (it may have cached the annotation and allocated in the
// arena, which the general path would do too), and readNodeStatement reads the line again: the
// general path defines the semantics and reports every error.
//
// The line must end with a '\n' (the last line of a file without one takes the general path):
// that newline stops every scan of names, digits and blanks, so those loops need no bounds
// check. Comparisons of the next few characters rely on it too: they stop at the first
// mismatch, and '\n' matches nothing they look for.

bool Reader::tryFastNodeStatement(Graph& graph, const Line& line) {
  if (line.end >= source_.size())
    return false;
  const char* const begin = source_.data();
  const char* const end = begin + line.end; // *end == '\n'
  const char* p = begin + line.contentStart;
  if (!isNameStart(*p))
    return false;
  const char* nameEnd = scanName(p + 1);
  std::string_view name(p, static_cast<size_t>(nameEnd - p));
  if (name == "return")
    return false;
  // One hash for the redefinition check and the insertion; the load it starts is hidden by
  // the rest of the line.
  uint64_t nameHash = io::NameTable::hash(name);
  names_.prefetch(nameHash);
  p = nameEnd;

  // The annotation is looked up once the rest of the line is read, so that the loads of its
  // cache slot, started here, and of the name's overlap that work.
  std::string_view spelling;
  uint64_t spellingHash = 0;
  bool annotated = p[0] == ':' && p[1] == ' ' && p[2] == '"';
  if (annotated) {
    const char* open = p + 2;
    const char* close =
        static_cast<const char*>(std::memchr(open + 1, '"', static_cast<size_t>(end - open - 1)));
    if (!close)
      return false;
    spelling = std::string_view(open + 1, static_cast<size_t>(close - open - 1));
    spellingHash = io::AnnotationCache::hash(spelling);
    annotations_.prefetch(spellingHash);
    p = close + 1;
  }
  if (p[0] != ' ' || p[1] != '=' || p[2] != ' ')
    return false;
  p += 3;

  // The right-hand side: a call of a dotted name, or NAME[INDEX].
  if (!isNameStart(*p))
    return false;
  const char* headEnd = scanName(p + 1);
  const char* dottedEnd = scanDotted(headEnd);
  std::string_view head(p, static_cast<size_t>(headEnd - p));
  std::string_view dotted(p, static_cast<size_t>(dottedEnd - p));
  Target::Kind kind = Target::Kind::Function;
  std::span<Arg> args;
  std::span<KwArg> kwargs;
  if (*dottedEnd == '(') {
    // The same choice of target as readRhs; methods and submodules take the general path.
    if (dotted.starts_with("torch.ops."))
      kind = Target::Kind::Op;
    else if (head == "self" || names_.find(head))
      return false;
    p = dottedEnd + 1;
    if (!fastCallArgs(p, end, args, kwargs))
      return false;
  } else if (*dottedEnd == '[' && dottedEnd == headEnd) {
    Arg operands[2];
    if (!plainNameValue(head, operands[0]))
      return false;
    p = dottedEnd + 1;
    if (!fastValue(p, end, operands[1], 0) || *p != ']')
      return false;
    ++p;
    args = context_.allocate<Arg>(2);
    std::copy(std::begin(operands), std::end(operands), args.begin());
    dotted = "operator.getitem";
  } else {
    return false;
  }

  // `;  a = b = None`: the names must exist (the node itself is defined by now).
  bool freesSelf = false;
  p = skipBlanks(p);
  if (*p == ';') {
    p = skipBlanks(p + 1);
    for (;;) {
      if (!isNameStart(*p))
        return false;
      const char* freedEnd = scanName(p + 1);
      std::string_view freed(p, static_cast<size_t>(freedEnd - p));
      p = skipBlanks(freedEnd);
      if (freed == name)
        freesSelf = true;
      if (freed == "None")
        break;
      if (freed != name && !names_.find(freed))
        return false;
      if (p[0] != '=' || p[1] == '=')
        return false;
      p = skipBlanks(p + 1);
    }
  }
  if (p != end) // a trailing comment or anything else
    return false;

  const TypeAnnotation* type = nullptr;
  if (annotated) {
    if (spelling.find('\\') != std::string_view::npos)
      return false;
    type = annotations_.find(spelling, spellingHash);
    if (!type) {
      Result<TypeAnnotation> parsed = parseTypeAnnotation(context_, spelling);
      if (!parsed.ok())
        return false;
      parsed->spelling = spelling;
      type = context_.create<TypeAnnotation>(*parsed);
      annotations_.insert(type);
    }
  }
  if (names_.find(name, nameHash))
    return false; // the general path reports the redefinition

  // The line is good: make the node as readNodeStatement would.
  const Target* target = targets_.get(kind, dotted);
  std::span<const std::string_view> trivia = takeTrivia();
  Node* node = graph.createCall(name, target, args, kwargs, type);
  node->setLine(line.number);
  node->setLeadingTrivia(trivia);
  names_.insert(node, nameHash);
  if (freesSelf)
    selfFreed_.push_back(node);
  // Where finishStatement leaves the reader: past the newline, which is the current token.
  cur_ = Token();
  cur_.kind = Tok::Newline;
  cur_.text = source_.substr(line.end, 1);
  cur_.offset = line.end;
  cur_.line = line.number;
  cur_.column = static_cast<uint32_t>(line.end - line.start + 1);
  commentsBefore_.clear();
  pos_ = line.end + 1;
  lineNumber_ = line.number + 1;
  return true;
}

/// The arguments after the '(' of a call, up to and past the ')': readCallArgs for FX's
/// `a, b, key = value` spelling.
bool Reader::fastCallArgs(const char*& p, const char* end, std::span<Arg>& args,
                          std::span<KwArg>& kwargs) {
  std::vector<Arg>& positional = argScratch(0);
  std::vector<KwArg>& keywords = kwargScratch(0);
  if (*p == ')') {
    ++p;
    args = {};
    kwargs = {};
    return true;
  }
  for (;;) {
    const char* nameEnd = isNameStart(*p) ? scanName(p + 1) : p;
    if (nameEnd != p && nameEnd[0] == ' ' && nameEnd[1] == '=' && nameEnd[2] == ' ') {
      KwArg kwarg;
      kwarg.name = std::string_view(p, static_cast<size_t>(nameEnd - p));
      p = nameEnd + 3;
      if (!fastValue(p, end, kwarg.value, 1))
        return false;
      for (const KwArg& other : keywords)
        if (other.name == kwarg.name)
          return false;
      keywords.push_back(kwarg);
    } else {
      if (!keywords.empty())
        return false;
      Arg value;
      if (!fastValue(p, end, value, 1))
        return false;
      positional.push_back(value);
    }
    if (p[0] == ',' && p[1] == ' ') {
      p += 2;
      continue;
    }
    if (*p == ')') {
      ++p;
      break;
    }
    return false;
  }
  args = copyToArena(positional);
  kwargs = copyToArena(keywords);
  return true;
}

/// readValue for the values FX prints in node statements, written without spaces (but for
/// the ", " between list elements).
bool Reader::fastValue(const char*& p, const char* end, Arg& out, unsigned depth) {
  const char* start = p;
  char c = *p;
  if (isNameStart(c)) {
    const char* nameEnd = scanName(p + 1);
    if (*nameEnd != '.' && *nameEnd != '(') {
      if (!plainNameValue(std::string_view(p, static_cast<size_t>(nameEnd - p)), out))
        return false;
      p = nameEnd;
      return true;
    }
    // torch.float32, torch.contiguous_format, torch.ops.x.y.z, ...; not a call.
    const char* dottedEnd = scanDotted(nameEnd);
    std::string_view dotted(p, static_cast<size_t>(dottedEnd - p));
    if (dottedEnd == nameEnd || *dottedEnd == '.' || *dottedEnd == '(' ||
        !dotted.starts_with("torch."))
      return false;
    torchNameValue(dotted, out);
    p = dottedEnd;
    return true;
  }
  if (c == '[') {
    if (depth >= kFastMaxDepth)
      return false;
    std::vector<Arg>& items = argScratch(depth);
    ++p;
    if (*p == ']') {
      ++p;
    } else {
      for (;;) {
        Arg item;
        if (!fastValue(p, end, item, depth + 1))
          return false;
        if (items.size() + 1 > Arg::kMaxElements)
          return false;
        items.push_back(item);
        if (p[0] == ',' && p[1] == ' ') {
          p += 2;
          continue;
        }
        if (*p == ']') {
          ++p;
          break;
        }
        return false;
      }
    }
    out.kind = ArgKind::List;
    out.count = static_cast<uint32_t>(items.size());
    out.elements = copyToArena(items).data();
    return true;
  }
  if (c == '"' || c == '\'') {
    // Lexer::lexString: a backslash escapes the next character; the line must close it.
    for (const char* q = p + 1; q != end;) {
      char d = *q++;
      if (d == '\\') {
        if (q != end)
          ++q;
        continue;
      }
      if (d == c) {
        out.kind = ArgKind::String;
        out.setText(std::string_view(p, static_cast<size_t>(q - p)));
        p = q;
        return true;
      }
    }
    return false;
  }
  // Numbers, as Lexer::lexNumber splits them; a '-' right before one is part of the literal.
  bool negative = c == '-';
  if (negative)
    ++p;
  if (!(isDigit(p[0]) || (p[0] == '.' && isDigit(p[1]))))
    return false;
  const char* digits = p;
  bool isFloat = false;
  while (isDigit(*p))
    ++p;
  if (*p == '.') {
    isFloat = true;
    ++p;
    while (isDigit(*p))
      ++p;
  }
  if (*p == 'e' || *p == 'E') {
    const char* exponent = p + 1;
    if (*exponent == '+' || *exponent == '-')
      ++exponent;
    if (isDigit(*exponent)) {
      isFloat = true;
      p = exponent;
      while (isDigit(*p))
        ++p;
    }
  }
  if (isNameChar(*p))
    return false; // a malformed number
  std::string_view text(start, static_cast<size_t>(p - start));
  if (isFloat) {
    double value = parseFloatLiteral(std::string_view(digits, static_cast<size_t>(p - digits)));
    out.kind = ArgKind::Float;
    out.real = negative ? -value : value;
    out.setText(text);
    return true;
  }
  // At most 19 digits fit an int64_t; longer literals take the general path.
  if (p - digits > 19)
    return false;
  uint64_t magnitude = 0;
  for (const char* d = digits; d != p; ++d)
    magnitude = magnitude * 10 + static_cast<uint64_t>(*d - '0');
  uint64_t limit = negative ? uint64_t(INT64_MAX) + 1 : uint64_t(INT64_MAX);
  if (magnitude > limit)
    return false;
  out.kind = ArgKind::Int;
  out.integer = negative ? static_cast<int64_t>(0 - magnitude) : int64_t(magnitude);
  out.setText(text);
  return true;
}

bool Reader::readNodeStatement(Graph& graph) {
  Token name = cur_;
  uint32_t line = cur_.line;
  names_.prefetch(name.text);
  advance();
  const TypeAnnotation* type = nullptr;
  if (is(Tok::Colon)) {
    advance();
    if (!readAnnotation(type))
      return false;
  }
  if (!expect(Tok::Assign, "'='"))
    return false;
  if (names_.find(name.text))
    return fail("redefinition of '" + std::string(name.text) + "'", name);
  std::span<const std::string_view> trivia = takeTrivia();
  if (!readRhs(graph, name.text, type, line))
    return false;
  Node* node = graph.back();
  node->setLeadingTrivia(trivia);
  names_.insert(node);
  if (is(Tok::Semicolon)) {
    advance();
    bool freesSelf = false;
    if (!readFreeList(node->name(), freesSelf))
      return false;
    if (freesSelf)
      selfFreed_.push_back(node);
  }
  std::string_view comment;
  if (!finishStatement(&comment))
    return false;
  graph.setTrailingComment(node, comment);
  return true;
}

bool Reader::readFreeList(std::string_view self, bool& freesSelf) {
  // `a = b = None`: recomputed by the writer, but the names must exist.
  for (;;) {
    if (cur_.text == self)
      freesSelf = true;
    if (isIdent("None")) {
      advance();
      return true;
    }
    if (!is(Tok::Identifier))
      return failExpected("a name in the free list");
    if (!names_.find(cur_.text))
      return failUndefined(cur_);
    advance();
    if (!expect(Tok::Assign, "'='"))
      return false;
  }
}

bool Reader::readDottedName(std::string_view& name, Token& first) {
  if (!is(Tok::Identifier))
    return failExpected("a name");
  first = cur_;
  size_t start = cur_.offset;
  // Fast path: a name written without spaces (`torch.ops.aten.add.Tensor`) is scanned in one go
  // rather than lexed as nine tokens, which was a tenth of the reading time. cur_ becomes its
  // last component; spaced forms fall through to the token loop below.
  size_t end = start + cur_.text.size();
  if (!lexer_.hasLookahead() && lexer_.offset() == end) {
    size_t scan = end, last = start;
    while (scan + 1 < source_.size() && source_[scan] == '.' && isNameStart(source_[scan + 1])) {
      last = scan + 1;
      scan += 2;
      while (scan < source_.size() && isNameChar(source_[scan]))
        ++scan;
    }
    if (scan != end) {
      lexer_.skipTo(scan);
      cur_.column += static_cast<uint32_t>(last - start);
      cur_.offset = last;
      cur_.text = source_.substr(last, scan - last);
    }
  }
  advance();
  while (is(Tok::Dot)) {
    advance();
    if (!is(Tok::Identifier))
      return failExpected("a name after '.'");
    advance();
  }
  name = sourceSince(start);
  return true;
}

bool Reader::readRhs(Graph& graph, std::string_view name, const TypeAnnotation* type,
                     uint32_t line) {
  auto makeCall = [&](const Target* target, std::span<Arg> args, std::span<KwArg> kwargs) {
    Node* node = graph.createCall(name, target, args, kwargs, type);
    node->setLine(line);
    return true;
  };
  auto infix = [&](std::string_view function, std::span<const Arg> operands) {
    std::span<Arg> args = context_.allocate<Arg>(operands.size());
    std::copy(operands.begin(), operands.end(), args.begin());
    return makeCall(context_.target(Target::Kind::Function, function), args, {});
  };

  // Unary operators: `-x`, `~x` (a sign before a number is part of the literal).
  if (is(Tok::Operator)) {
    for (const InfixOperator& op : kUnaryOperators) {
      if (cur_.text != op.symbol)
        continue;
      // A sign before a number is part of the literal (`-1 * x`), not an operator.
      Tok following = lexer_.peek().kind;
      if (following == Tok::Integer || following == Tok::Float ||
          (following == Tok::Identifier && lexer_.peek().text == "inf"))
        break;
      advance();
      Arg operand;
      if (!readValue(operand, 0))
        return false;
      return infix(op.function, std::span<const Arg>(&operand, 1));
    }
  }

  if (is(Tok::Identifier)) {
    Lexer saved = lexer_;
    Token savedCur = cur_;
    size_t savedPrevEnd = prevEnd_;
    std::string_view dotted;
    Token first;
    if (!readDottedName(dotted, first))
      return false;
    std::string_view head = first.text;
    if (is(Tok::LParen)) {
      std::span<Arg> args;
      std::span<KwArg> kwargs;
      if (dotted.starts_with("torch.ops.")) {
        if (!readCallArgs(args, kwargs, 0))
          return false;
        return makeCall(context_.target(Target::Kind::Op, dotted), args, kwargs);
      }
      if (head == "self") {
        if (dotted.size() <= 5)
          return fail("expected a submodule after 'self.'", first);
        if (!readCallArgs(args, kwargs, 0))
          return false;
        return makeCall(context_.target(Target::Kind::Module, dotted.substr(5)), args, kwargs);
      }
      if (Node* receiver = names_.find(head)) {
        std::string_view method = dotted.substr(head.size());
        if (method.empty())
          return fail("'" + std::string(head) + "' is a node, not a function", first);
        method.remove_prefix(1);
        if (method.find('.') != std::string_view::npos)
          return fail("expected a method call", first);
        std::span<Arg> rest;
        if (!readCallArgs(rest, kwargs, 0))
          return false;
        args = context_.allocate<Arg>(rest.size() + 1);
        args[0] = graph.nodeArg(receiver);
        std::copy(rest.begin(), rest.end(), args.begin() + 1);
        return makeCall(context_.target(Target::Kind::Method, method), args, kwargs);
      }
      if (!readCallArgs(args, kwargs, 0))
        return false;
      return makeCall(context_.target(Target::Kind::Function, dotted), args, kwargs);
    }
    if (head == "self" && dotted.size() > 5 &&
        (is(Tok::Semicolon) || is(Tok::Newline) || is(Tok::End))) {
      Node* node = graph.createGetAttr(name, dotted.substr(5), type);
      node->setLine(line);
      return true;
    }
    // Not a call: an operand of an infix expression. Re-read it as a value.
    lexer_ = saved;
    cur_ = savedCur;
    prevEnd_ = savedPrevEnd;
  }

  Arg lhs;
  if (!readValue(lhs, 0))
    return false;
  if (is(Tok::LBracket)) {
    advance();
    Arg operands[2] = {lhs, Arg()};
    if (!readValue(operands[1], 0) || !expect(Tok::RBracket, "']'"))
      return false;
    return infix("operator.getitem", operands);
  }
  if (is(Tok::Operator)) {
    for (const InfixOperator& op : kBinaryOperators) {
      if (cur_.text != op.symbol)
        continue;
      advance();
      Arg operands[2] = {lhs, Arg()};
      if (!readValue(operands[1], 0))
        return false;
      return infix(op.function, operands);
    }
  }
  return failExpected("a call or an operator");
}

bool Reader::readCallArgs(std::span<Arg>& args, std::span<KwArg>& kwargs, unsigned depth) {
  if (!expect(Tok::LParen, "'('"))
    return false;
  std::vector<Arg>& positional = argScratch(depth);
  std::vector<KwArg>& keywords = kwargScratch(depth);
  while (!is(Tok::RParen)) {
    if (is(Tok::Identifier)) {
      // `name = value` is a keyword argument; `name == x` is not.
      if (lexer_.peek().kind == Tok::Assign) {
        Token keyword = cur_;
        KwArg kwarg;
        kwarg.name = keyword.text;
        advance();
        advance();
        if (!readValue(kwarg.value, depth + 1))
          return false;
        for (const KwArg& other : keywords)
          if (other.name == kwarg.name)
            return fail("duplicate keyword argument '" + std::string(kwarg.name) + "'", keyword);
        keywords.push_back(kwarg);
        goto separator;
      }
    }
    if (!keywords.empty())
      return fail("positional argument after keyword argument", cur_);
    {
      Arg value;
      if (!readValue(value, depth + 1))
        return false;
      positional.push_back(value);
    }
  separator:
    if (is(Tok::Comma)) {
      advance();
      continue;
    }
    if (!is(Tok::RParen))
      return failExpected("',' or ')'");
  }
  advance();
  // Scratch vectors may have been reused by nested calls at deeper levels only.
  args = copyToArena(positional);
  kwargs = copyToArena(keywords);
  return true;
}

bool Reader::readSequence(Arg& out, Tok close, ArgKind kind, unsigned depth) {
  advance(); // opening bracket
  std::vector<Arg>& items = argScratch(depth);
  bool sawComma = false;
  while (!is(close)) {
    Arg item;
    if (!readValue(item, depth + 1))
      return false;
    if (items.size() + (kind == ArgKind::Dict ? 2 : 1) > Arg::kMaxElements)
      return fail("more than " + std::to_string(Arg::kMaxElements) + " elements in one " +
                      (kind == ArgKind::Dict   ? "dict"
                       : kind == ArgKind::List ? "list"
                                               : "tuple"),
                  cur_);
    items.push_back(item);
    if (kind == ArgKind::Dict) {
      if (!expect(Tok::Colon, "':'"))
        return false;
      Arg value;
      if (!readValue(value, depth + 1))
        return false;
      items.push_back(value);
    }
    if (is(Tok::Comma)) {
      sawComma = true;
      advance();
      continue;
    }
    if (!is(close))
      return failExpected(close == Tok::RParen     ? "',' or ')'"
                          : close == Tok::RBracket ? "',' or ']'"
                                                   : "',' or '}'");
  }
  advance();
  if (kind == ArgKind::Tuple && items.size() == 1 && !sawComma) {
    out = items[0]; // `(x)` is just x
    return true;
  }
  out.kind = kind;
  out.count = static_cast<uint32_t>(items.size());
  out.elements = copyToArena(items).data();
  return true;
}

bool Reader::containsNode(const Arg& arg) const {
  bool found = false;
  arg.forEachNode([&](Node*) { found = true; });
  return found;
}

bool Reader::readValue(Arg& out, unsigned depth) {
  if (depth > Lexer::kMaxNesting)
    return fail("expression nested too deeply", cur_);
  size_t start = cur_.offset;
  switch (cur_.kind) {
  case Tok::Integer: {
    uint64_t magnitude = 0;
    auto [ptr, ec] =
        std::from_chars(cur_.text.data(), cur_.text.data() + cur_.text.size(), magnitude);
    if (ec != std::errc() || magnitude > uint64_t(INT64_MAX))
      return fail("integer literal out of range", cur_);
    out.kind = ArgKind::Int;
    out.integer = static_cast<int64_t>(magnitude);
    out.setText(cur_.text);
    advance();
    return true;
  }
  case Tok::Float: {
    out.kind = ArgKind::Float;
    out.real = parseFloatLiteral(cur_.text);
    out.setText(cur_.text);
    advance();
    return true;
  }
  case Tok::String:
    out.kind = ArgKind::String;
    out.setText(cur_.text);
    advance();
    return true;
  case Tok::LBracket:
    return readSequence(out, Tok::RBracket, ArgKind::List, depth);
  case Tok::LParen:
    return readSequence(out, Tok::RParen, ArgKind::Tuple, depth);
  case Tok::LBrace:
    return readSequence(out, Tok::RBrace, ArgKind::Dict, depth);
  case Tok::Identifier:
    return readNameValue(out, depth);
  case Tok::Operator:
    if (cur_.text == "-" || cur_.text == "+") {
      bool negative = cur_.text == "-";
      advance();
      if (is(Tok::Integer)) {
        uint64_t magnitude = 0;
        auto [ptr, ec] =
            std::from_chars(cur_.text.data(), cur_.text.data() + cur_.text.size(), magnitude);
        uint64_t limit = negative ? uint64_t(INT64_MAX) + 1 : uint64_t(INT64_MAX);
        if (ec != std::errc() || magnitude > limit)
          return fail("integer literal out of range", cur_);
        out.kind = ArgKind::Int;
        out.integer = negative ? static_cast<int64_t>(0 - magnitude) : int64_t(magnitude);
        advance();
        out.setText(sourceSince(start));
        return true;
      }
      if (is(Tok::Float) || isIdent("inf") || isIdent("nan")) {
        double value = is(Tok::Float)   ? parseFloatLiteral(cur_.text)
                       : isIdent("inf") ? HUGE_VAL
                                        : NAN;
        out.kind = ArgKind::Float;
        out.real = negative ? -value : value;
        advance();
        out.setText(sourceSince(start));
        return true;
      }
      return failExpected("a number after the sign");
    }
    [[fallthrough]];
  default:
    return failExpected("a value");
  }
}

bool Reader::plainNameValue(std::string_view name, Arg& out) {
  // Node names are the common case: one length test skips the five literal compares for most.
  if (name.size() < 3 || name.size() > 5)
    return nodeValue(name, out);
  if (name == "None") {
    out.kind = ArgKind::None;
    out.setText(name);
    return true;
  }
  if (name == "True" || name == "False") {
    out.kind = ArgKind::Bool;
    out.boolean = name == "True";
    out.setText(name);
    return true;
  }
  if (name == "inf" || name == "nan") {
    out.kind = ArgKind::Float;
    out.real = name == "inf" ? HUGE_VAL : NAN;
    out.setText(name);
    return true;
  }
  return nodeValue(name, out);
}

bool Reader::nodeValue(std::string_view name, Arg& out) {
  Node* found = names_.find(name);
  if (!found)
    return false;
  out = graph_->nodeArg(found);
  return true;
}

void Reader::torchNameValue(std::string_view dotted, Arg& out) {
  std::string_view member = dotted.substr(6);
  if (member.starts_with("ops.")) {
    out.kind = ArgKind::OpRef;
    out.op = context_.target(Target::Kind::Op, dotted);
    out.setText(dotted);
    return;
  }
  out.setText(dotted);
  if (std::optional<DType> dtype = dtypeFromTorchName(member)) {
    out.kind = ArgKind::DType;
    out.dtype = *dtype;
    return;
  }
  for (std::string_view layout : kLayouts) {
    if (member == layout) {
      out.kind = ArgKind::Layout;
      out.enumValue = 0;
      return;
    }
  }
  for (const MemoryFormatName& format : kMemoryFormats) {
    if (member == format.name) {
      out.kind = ArgKind::MemoryFormat;
      out.enumValue = static_cast<uint8_t>(format.format);
      return;
    }
  }
  out.kind = ArgKind::Verbatim;
}

bool Reader::readNameValue(Arg& out, unsigned depth) {
  size_t start = cur_.offset;
  std::string_view dotted;
  Token first;
  if (!readDottedName(dotted, first))
    return false;
  bool isCall = is(Tok::LParen);
  if (dotted == first.text && !isCall) {
    if (!plainNameValue(dotted, out))
      return failUndefined(first);
    return true;
  }
  if (dotted.starts_with("torch.") && !isCall) {
    torchNameValue(dotted, out);
    return true;
  }
  if (!isCall)
    return fail("unsupported expression '" + std::string(dotted) + "'", first);
  std::span<Arg> args;
  std::span<KwArg> kwargs;
  Token open = cur_;
  if (!readCallArgs(args, kwargs, depth + 1))
    return false;
  if (dotted == "slice") {
    if (args.size() != 3 || !kwargs.empty())
      return fail("slice(...) takes start, stop and step", open);
    out.kind = ArgKind::Slice;
    out.count = 3;
    out.elements = args.data();
    out.setText({});
    return true;
  }
  // device(...) and other constructor calls are kept verbatim; they may not hide a node.
  for (const Arg& arg : args)
    if (containsNode(arg))
      return fail("a node reference inside '" + std::string(dotted) + "(...)' is not supported",
                  first);
  for (const KwArg& kwarg : kwargs)
    if (containsNode(kwarg.value))
      return fail("a node reference inside '" + std::string(dotted) + "(...)' is not supported",
                  first);
  out.kind = dotted == "device" ? ArgKind::Device : ArgKind::Verbatim;
  out.setText(sourceSince(start));
  return true;
}

bool Reader::readReturn(Graph& graph) {
  uint32_t line = cur_.line;
  std::span<const std::string_view> trivia = takeTrivia();
  advance(); // 'return'
  GraphFormat& format = graph.format();
  Arg value;
  if (isIdent("pytree")) {
    std::string_view callee;
    Token first;
    if (!readDottedName(callee, first))
      return false;
    if (callee != "pytree.tree_unflatten")
      return fail("expected pytree.tree_unflatten", first);
    if (!expect(Tok::LParen, "'('") || !readValue(value, 1) || !expect(Tok::Comma, "','"))
      return false;
    size_t specStart = cur_.offset;
    std::string_view ignored;
    Token ignoredFirst;
    if (!readDottedName(ignored, ignoredFirst))
      return false;
    format.pytreeOutSpec = sourceSince(specStart);
    if (!expect(Tok::RParen, "')'"))
      return false;
    format.pytreeOutputs = true;
  } else if (is(Tok::LParen)) {
    uint32_t openLine = cur_.line;
    Lexer saved = lexer_;
    Token savedCur = cur_;
    size_t savedPrevEnd = prevEnd_;
    advance();
    if (cur_.line != openLine && !is(Tok::RParen)) {
      // `return (` with one value per line, each possibly followed by a comment.
      format.multiLineReturn = true;
      std::vector<Arg> items;
      std::vector<std::string_view> comments;
      while (!is(Tok::RParen)) {
        Arg item;
        if (!readValue(item, 1))
          return false;
        if (items.size() == Arg::kMaxElements)
          return fail("more than " + std::to_string(Arg::kMaxElements) + " returned values", cur_);
        items.push_back(item);
        uint32_t itemLine = cur_.line;
        if (is(Tok::Comma)) {
          itemLine = cur_.line;
          advance();
        } else if (!is(Tok::RParen)) {
          return failExpected("',' or ')'");
        }
        comments.push_back(commentOnLine(itemLine));
      }
      advance();
      value.kind = ArgKind::Tuple;
      value.count = static_cast<uint32_t>(items.size());
      value.elements = copyToArena(items).data();
      format.returnComments = copyToArena(comments);
    } else {
      lexer_ = saved;
      cur_ = savedCur;
      prevEnd_ = savedPrevEnd;
      if (!readValue(value, 0))
        return false;
    }
  } else if (!is(Tok::Newline) && !is(Tok::End)) {
    if (!readValue(value, 0))
      return false;
  } else {
    value.kind = ArgKind::None;
  }
  Node* output = graph.createOutput(value);
  output->setLine(line);
  output->setLeadingTrivia(trivia);
  std::string_view comment;
  if (!finishStatement(&comment))
    return false;
  graph.setTrailingComment(output, comment);
  return true;
}

} // namespace

namespace {

/// Parses the text already saved in (or adopted by) the file's Context.
Result<std::unique_ptr<GraphFile>> readSource(std::unique_ptr<GraphFile> file,
                                              std::string_view source) {
  // An empty view may have a null data(), which memchr must not see even with length 0.
  const void* nul = source.empty() ? nullptr : std::memchr(source.data(), '\0', source.size());
  if (nul) {
    size_t at = static_cast<size_t>(static_cast<const char*>(nul) - source.data());
    uint32_t line = 1, column = 1;
    for (size_t i = 0; i < at; ++i) {
      if (source[i] == '\n') {
        ++line;
        column = 1;
      } else {
        ++column;
      }
    }
    return Error{"unexpected NUL byte: this is not graph text", line, column};
  }
  Reader reader(*file, source);
  Status status = reader.read();
  if (!status.ok())
    return status.error();
  return file;
}

} // namespace

namespace {

/// Names, spellings and argument texts are kept as 32-bit lengths (so that a million-node graph
/// stays small), which a text under 4 GiB guarantees.
Status checkSourceSize(std::string_view text) {
  if (text.size() <= UINT32_MAX)
    return ok();
  return Error{"input is 4 GiB or larger; declone reads graph text under 4 GiB", 1, 1};
}

} // namespace

Result<std::unique_ptr<GraphFile>> readGraphFile(std::string_view text) {
  if (Status size = checkSourceSize(text); !size)
    return size.error();
  auto file = std::make_unique<GraphFile>();
  // Every spelling the graph keeps points into this copy.
  std::string_view source = file->context->saveSource(text);
  return readSource(std::move(file), source);
}

Result<std::unique_ptr<GraphFile>> readOwnedGraphFile(std::string text) {
  if (Status size = checkSourceSize(text); !size)
    return size.error();
  auto file = std::make_unique<GraphFile>();
  std::string_view source = file->context->adoptSource(std::move(text));
  return readSource(std::move(file), source);
}

} // namespace declone
