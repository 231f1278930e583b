// Reader for FX graph text: node statements, their right-hand sides, values and annotations.
#include "ReaderImpl.h"

#include <charconv>

namespace declone::io {
namespace {

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
// torch/fx/graph.py inplace_methods: `a += b;  c = a` is c = operator.iadd(a, b).
constexpr InfixOperator kInplaceOperators[] = {
    {"+", "operator.iadd"},       {"-", "operator.isub"},     {"*", "operator.imul"},
    {"//", "operator.ifloordiv"}, {"/", "operator.itruediv"}, {"%", "operator.imod"},
    {"**", "operator.ipow"},      {"<<", "operator.ilshift"}, {">>", "operator.irshift"},
    {"&", "operator.iand"},       {"|", "operator.ior"},      {"^", "operator.ixor"},
    {"@", "operator.imatmul"},
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

} // namespace

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
      return failWithNote("'" + std::string(name.text) + "' is used before it is defined (line " +
                              std::to_string(line) + ")",
                          name.line, name.column,
                          "'" + std::string(name.text) + "' is defined here", line);
    }
  }
  return fail("use of undefined name '" + std::string(name.text) + "'", name);
}

bool Reader::readAnnotation(const TypeAnnotation*& type) {
  if (is(Tok::String)) {
    std::string_view quoted = cur_.text;
    if (quoted.size() >= 2 && quoted.find('\\') == std::string_view::npos) {
      std::string_view spelling = quoted.substr(1, quoted.size() - 2);
      auto cached = annotations_.find(spelling);
      if (cached != annotations_.end()) {
        type = cached->second;
      } else {
        Result<TypeAnnotation> parsed = annotationParser_.parse(spelling);
        if (!parsed.ok())
          return fail("malformed annotation: " + parsed.error().message, cur_.line,
                      cur_.column + parsed.error().column);
        parsed->spelling = spelling;
        type = context_.create<TypeAnnotation>(*parsed);
        annotations_.emplace(type->spelling, type);
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

bool Reader::readNodeStatement(Graph& graph) {
  Token name = cur_;
  uint32_t line = cur_.line;
  names_.prefetch(name.text);
  advance();
  // `a += b;  c = a` and `a[i] = v;  c = a`: an in-place operator, written target first.
  bool augmented = is(Tok::Operator) && lexer_.peek().kind == Tok::Assign &&
                   lexer_.peek().offset == cur_.offset + cur_.text.size();
  if (augmented || is(Tok::LBracket))
    return readInplaceStatement(graph, name);
  const TypeAnnotation* type = nullptr;
  if (!readAnnotationAndAssign(type))
    return false;
  if (const Node* previous = names_.find(name.text))
    return failRedefinition("redefinition of '" + std::string(name.text) + "'", name, previous);
  std::span<const std::string_view> trivia = takeTrivia();
  if (!readRhs(graph, name.text, type, line))
    return false;
  Node* node = graph.back();
  node->setLeadingTrivia(trivia);
  return finishNodeStatement(graph, node);
}

bool Reader::readAnnotationAndAssign(const TypeAnnotation*& type) {
  if (is(Tok::Colon)) {
    advance();
    if (!readAnnotation(type))
      return false;
  }
  return expect(Tok::Assign, "'='");
}

bool Reader::readInplaceStatement(Graph& graph, const Token& target) {
  Node* self = names_.find(target.text);
  if (!self)
    return failUndefined(target);
  std::span<const std::string_view> trivia = takeTrivia();
  Arg operands[3] = {graph.nodeArg(self), Arg(), Arg()};
  size_t count = 2;
  std::string_view function = "operator.setitem";
  if (is(Tok::LBracket)) {
    advance();
    if (!readValue(operands[1], 0) || !expect(Tok::RBracket, "']'") ||
        !expect(Tok::Assign, "'='") || !readValue(operands[2], 0))
      return false;
    count = 3;
  } else {
    auto op = std::find_if(std::begin(kInplaceOperators), std::end(kInplaceOperators),
                           [&](const InfixOperator& o) { return o.symbol == cur_.text; });
    if (op == std::end(kInplaceOperators))
      return fail("'" + std::string(cur_.text) + "=' is not an in-place operator FX prints", cur_);
    function = op->function;
    advance();
    advance(); // '='
    if (!readValue(operands[1], 0))
      return false;
  }
  // FX names the node's result next: `;  c: "T" = a`.
  if (!expect(Tok::Semicolon, "';' and the name of the in-place operator's result"))
    return false;
  Token name = cur_;
  if (!is(Tok::Identifier))
    return failExpected("the name of the in-place operator's result");
  advance();
  const TypeAnnotation* type = nullptr;
  if (!readAnnotationAndAssign(type))
    return false;
  if (!is(Tok::Identifier) || cur_.text != target.text)
    return fail("expected '" + std::string(target.text) + "', the in-place operator's target",
                cur_);
  advance();
  if (const Node* previous = names_.find(name.text))
    return failRedefinition("redefinition of '" + std::string(name.text) + "'", name, previous);
  std::span<Arg> args = context_.allocate<Arg>(count);
  std::copy(operands, operands + count, args.begin());
  Node* node = graph.createCall(name.text, context_.target(Target::Kind::Function, function), args,
                                {}, type);
  node->setLine(target.line);
  node->setLeadingTrivia(trivia);
  return finishNodeStatement(graph, node);
}

bool Reader::finishNodeStatement(Graph& graph, Node* node) {
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
  // Shortcut: a name written without spaces (`torch.ops.aten.add.Tensor`) is scanned in one go
  // rather than lexed as nine tokens: every node line has one. cur_ becomes its
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
  case Tok::Imaginary:
    return readComplexLiteral(out);
  case Tok::LParen:
    if (complexLiteralLength(source_.substr(start)) != 0)
      return readComplexLiteral(out);
    return readSequence(out, Tok::RParen, ArgKind::Tuple, depth);
  case Tok::LBrace:
    return readSequence(out, Tok::RBrace, ArgKind::Dict, depth);
  case Tok::Identifier:
    return readNameValue(out, depth);
  case Tok::Operator:
    if (cur_.text == "-" && complexLiteralLength(source_.substr(start)) != 0)
      return readComplexLiteral(out); // `-2j`, as repr() writes complex(0, -2)
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

bool Reader::readComplexLiteral(Arg& out) {
  // The literal's tokens (a parenthesis, numbers, a sign, an imaginary number) are passed over;
  // the value is the text, which complexLiteralLength has checked.
  size_t start = cur_.offset;
  size_t end = start + complexLiteralLength(source_.substr(start));
  while (cur_.offset < end) {
    if (is(Tok::Error) || is(Tok::End))
      return failExpected("a complex number");
    advance();
  }
  out.kind = ArgKind::Complex;
  out.setText(source_.substr(start, end - start));
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

} // namespace declone::io
