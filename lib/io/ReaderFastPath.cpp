// Reader for FX graph text: the fast path that reads canonical node lines byte by byte.
#include "ReaderImpl.h"

namespace declone::io {
namespace {

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

} // namespace

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
//
// So the general path reads: the statements before the placeholders exist (the first node,
// pytree stub and flatten lines) and every `return`; the last line of a text without a final
// newline; anything but `NAME: "SPELLING" = ` or `NAME = ` spelled so; right-hand sides other
// than a call of a dotted name (not a method or submodule) or `NAME[VALUE]`; arguments other
// than FX-spaced names, `torch.` constants, numbers that fit an int64, strings and lists at
// most kFastMaxDepth deep (no tuples, dicts, calls such as `device(...)` or signs but a '-'
// glued to a number); a free list that is not `;  a = b = None` over defined names; a trailing
// comment or any other text after the statement; annotations with a backslash or that do not
// parse; a redefined name. ReadOptions::forceGeneralPath turns the fast path off, for the tests
// that check that both paths agree.

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
  uint64_t nameHash = NameTable::hash(name);
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
    spellingHash = AnnotationCache::hash(spelling);
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

} // namespace declone::io
