// Reader for FX graph text: files, classes, signatures, bodies and return values.
#include "ReaderImpl.h"
#include "declone/support/Diagnostic.h"

namespace declone::io {
namespace {

/// Number of lines, counted with memchr (the whole text is scanned once for it).
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

} // namespace

Reader::Reader(GraphFile& file, std::string_view source)
    : file_(file), context_(*file.context), source_(source), lexer_(source),
      argScratch_(kScratchLevels), kwargScratch_(kScratchLevels),
      // Most lines define a node: the line count bounds the names of every graph.
      expectedNames_(countLines(source)) {}

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

Line Reader::peekLine() const {
  Line line;
  line.start = pos_;
  line.number = lineNumber_;
  size_t end = source_.find('\n', pos_);
  line.end = end == std::string_view::npos ? source_.size() : end;
  size_t content = pos_;
  // Indentation comes in runs of spaces: skip them eight at a time.
  while (line.end - content >= 8 && std::memcmp(source_.data() + content, "        ", 8) == 0)
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
      return checkIndentation(line) ? std::optional<Line>(line) : std::nullopt;
    pendingTrivia_.push_back(lineText(line));
    skipLine(line);
  }
  return std::nullopt;
}

bool Reader::checkIndentation(const Line& line) {
  if (line.number <= indentCheckedLine_)
    return true; // a line is peeked more than once
  indentCheckedLine_ = line.number;
  // Python measures indentation with tabs to multiples of 8 and with tabs as 1, and raises
  // TabError where the two disagree about the line's level against the enclosing ones.
  Indent indent;
  for (size_t i = line.start; i < line.contentStart; ++i) {
    if (source_[i] == '\t') {
      indent.tabs8 = (indent.tabs8 / 8 + 1) * 8;
      ++indent.tabs1;
    } else if (source_[i] == '\f') {
      indent = Indent(); // a form feed resets the column, as in Python's tokenizer
    } else {
      ++indent.tabs8;
      ++indent.tabs1;
    }
  }
  while (indents_.size() > 1 && indent.tabs8 < indents_.back().tabs8)
    indents_.pop_back();
  const Indent& enclosing = indents_.back();
  bool consistent = indent.tabs8 == enclosing.tabs8  ? indent.tabs1 == enclosing.tabs1
                    : indent.tabs8 > enclosing.tabs8 ? indent.tabs1 > enclosing.tabs1
                                                     : true;
  if (!consistent)
    return fail("inconsistent use of tabs and spaces in indentation", line.number, 1);
  if (indent.tabs8 > enclosing.tabs8)
    indents_.push_back(indent);
  return true;
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

bool Reader::readBody(Graph& graph, const Line& defLine, std::vector<Parameter>& parameters) {
  GraphFormat& format = graph.format();
  bool placeholdersMade = false;
  bool sawStub = false;
  Stubs stubs;
  auto makePlaceholders = [&]() -> bool {
    placeholdersMade = true;
    for (const Parameter& parameter : parameters) {
      std::string_view name = parameter.nodeName.empty() ? parameter.name : parameter.nodeName;
      if (const Node* previous = names_.find(name))
        return failWithNote("duplicate parameter '" + std::string(name) + "'", parameter.line,
                            parameter.column, "previous definition is here", previous->line());
      Node* node =
          graph.createPlaceholder(name, parameter.type, parameter.defaultValue, parameter.name);
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
    startStatement(*line);
    if (isIdent("return")) {
      if (sawStub && !placeholdersMade)
        return fail("expected the fx_pytree.tree_flatten_spec line after the annotation stubs",
                    line->number, static_cast<uint32_t>(line->indent() + 1));
      if (!placeholdersMade && !makePlaceholders())
        return false;
      if (!readReturn(graph))
        return false;
      detectFreeConvention(graph);
      return true;
    }
    if (!is(Tok::Identifier))
      return failExpected("a statement");
    if (!placeholdersMade && !sawStub && readRebinding(parameters))
      continue;
    if (error_)
      return false;
    // Pytree calling convention: a stub line and a flatten line before the first node.
    if (!placeholdersMade && graph.empty()) {
      advance();
      bool isFlatten = is(Tok::Comma);
      bool isStub = false, isLineStub = false;
      if (is(Tok::Colon) && (!sawStub || format.stubPerLine)) {
        // `a: "T"; b: "T"; ` has a ';' right after the annotation, `a: "T"  # c` ends the line
        // there (one stub per line); a node has '='.
        advance();
        const TypeAnnotation* ignored = nullptr;
        bool annotated = readAnnotation(ignored);
        isStub = annotated && !sawStub && is(Tok::Semicolon);
        // Stubs annotate the placeholders the flatten line makes from parameters FX does not
        // annotate (`primals, tangents`); elsewhere `y: "T"` is a statement missing its '='.
        isLineStub = annotated && (is(Tok::Newline) || is(Tok::End)) &&
                     std::none_of(parameters.begin(), parameters.end(),
                                  [](const Parameter& p) { return p.type != nullptr; });
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
      if (isLineStub) {
        std::span<const std::string_view> trivia = takeTrivia();
        if (!sawStub) {
          format.stubTrivia = trivia;
          trivia = {};
        }
        sawStub = format.stubPerLine = true;
        if (!readLineStub(stubs, trivia))
          return false;
        continue;
      }
      if (isFlatten) {
        // The writer prints a multi-line pytree signature from the parameters' names alone.
        for (const Parameter& parameter : parameters)
          if (format.multiLineSignature &&
              (parameter.type || parameter.defaultValue || !parameter.comment.empty()))
            return fail("a pytree forward's parameter '" + std::string(parameter.name) +
                            "' has an annotation, a default or a comment",
                        parameter.line, parameter.column);
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

bool Reader::readRebinding(std::vector<Parameter>& parameters) {
  // FX prints a placeholder whose name is not its target (Dynamo's `l_x_` for `L_x_`) with the
  // target in the signature and `l_x_ = L_x_` first in the body. Only a line of exactly these
  // three tokens is one; anything else is read again as a statement.
  Token lhs = cur_;
  if (lexer_.peek().kind != Tok::Assign)
    return false;
  Lexer saved = lexer_;
  Token savedCur = cur_;
  size_t savedPrevEnd = prevEnd_;
  auto restore = [&] {
    lexer_ = saved;
    cur_ = savedCur;
    prevEnd_ = savedPrevEnd;
    return false;
  };
  advance();
  advance();
  if (!is(Tok::Identifier) || !commentsBefore_.empty())
    return restore();
  Token rhs = cur_;
  advance();
  if ((!is(Tok::Newline) && !is(Tok::End)) || !commentsBefore_.empty())
    return restore();
  auto parameter = std::find_if(parameters.begin(), parameters.end(),
                                [&](const Parameter& p) { return p.name == rhs.text; });
  if (parameter == parameters.end() || lhs.text == rhs.text)
    return restore();
  if (!parameter->nodeName.empty())
    return fail("parameter '" + std::string(rhs.text) + "' is bound twice", lhs);
  for (const Parameter& other : parameters)
    if (other.name == lhs.text || other.nodeName == lhs.text)
      return fail("redefinition of '" + std::string(lhs.text) + "'", lhs);
  parameter->nodeName = lhs.text;
  return finishStatement(nullptr);
}

bool Reader::readStubLine(Stubs& stubs) {
  while (is(Tok::Identifier)) {
    std::string_view name = cur_.text;
    advance();
    if (!expect(Tok::Colon, "':'"))
      return false;
    const TypeAnnotation* type = nullptr;
    if (!readAnnotation(type) || !expect(Tok::Semicolon, "';'"))
      return false;
    stubs[name].type = type;
  }
  return finishStatement(nullptr);
}

bool Reader::readLineStub(Stubs& stubs, std::span<const std::string_view> trivia) {
  Token name = cur_;
  advance();
  Stub stub{nullptr, {}, trivia};
  if (!expect(Tok::Colon, "':'") || !readAnnotation(stub.type) || !finishStatement(&stub.comment))
    return false;
  if (!stubs.emplace(name.text, stub).second)
    return fail("a second annotation stub for '" + std::string(name.text) + "'", name);
  return true;
}

bool Reader::readFlattenLine(Graph& graph, const Stubs& stubs) {
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
    Node* node =
        graph.createPlaceholder(name.text, stub == stubs.end() ? nullptr : stub->second.type);
    node->setLine(name.line);
    if (stub != stubs.end()) {
      node->setLeadingTrivia(stub->second.trivia);
      graph.setTrailingComment(node, stub->second.comment);
    }
    names_.insert(node);
  }
  return true;
}

bool Reader::readMultiLineReturn(Graph& graph, Tok close, Arg& value) {
  GraphFormat& format = graph.format();
  format.multiLineReturn = true;
  std::vector<Arg> items;
  std::vector<std::string_view> comments;
  while (!is(close)) {
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
    } else if (!is(close)) {
      return failExpected(close == Tok::RParen ? "',' or ')'" : "',' or ']'");
    }
    comments.push_back(commentOnLine(itemLine));
  }
  advance();
  value.kind = close == Tok::RParen ? ArgKind::Tuple : ArgKind::List;
  value.count = static_cast<uint32_t>(items.size());
  value.elements = copyToArena(items).data();
  format.returnComments = copyToArena(comments);
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
    if (!expect(Tok::LParen, "'('"))
      return false;
    // `[` (a list) or `(` (a tuple) with one value per line, each with a comment (PyTorch
    // 2.8's AOT graphs), or a value.
    if ((is(Tok::LBracket) || is(Tok::LParen)) && lexer_.peek().line != cur_.line) {
      Tok close = is(Tok::LBracket) ? Tok::RBracket : Tok::RParen;
      advance();
      if (!readMultiLineReturn(graph, close, value))
        return false;
    } else if (!readValue(value, 1)) {
      return false;
    }
    if (!expect(Tok::Comma, "','"))
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
      if (!readMultiLineReturn(graph, Tok::RParen, value))
        return false;
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

namespace {

/// Names, spellings and argument texts are kept as 32-bit lengths (so that a million-node graph
/// stays small), which a text under 4 GiB guarantees.
Status checkSourceSize(std::string_view text) {
  if (text.size() <= UINT32_MAX)
    return ok();
  return Error{"input is 4 GiB or larger; declone reads graph text under 4 GiB", 1, 1};
}

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
  if (!status.ok()) {
    Error error = status.error();
    attachSourceLines(error, source);
    return error;
  }
  declareSizeRanges(*file);
  return file;
}

} // namespace
} // namespace declone::io

namespace declone {

Result<std::unique_ptr<GraphFile>> readGraphFile(std::string_view text) {
  if (Status size = io::checkSourceSize(text); !size)
    return size.error();
  auto file = std::make_unique<GraphFile>();
  // Every spelling the graph keeps points into this copy.
  std::string_view source = file->context->saveSource(text);
  return io::readSource(std::move(file), source);
}

Result<std::unique_ptr<GraphFile>> readOwnedGraphFile(std::string text) {
  if (Status size = io::checkSourceSize(text); !size)
    return size.error();
  auto file = std::make_unique<GraphFile>();
  std::string_view source = file->context->adoptSource(std::move(text));
  return io::readSource(std::move(file), source);
}

} // namespace declone
