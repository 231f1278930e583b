// Lexer for FX graph text.
#include "Lexer.h"

namespace declone::io {
namespace {

bool isDigit(char c) {
  return c >= '0' && c <= '9';
}

} // namespace

void Lexer::reset(size_t offset, uint32_t line) {
  pos_ = offset;
  lineStart_ = offset;
  line_ = line;
  open_.clear();
  hasLookahead_ = false;
}

void Lexer::make(Token& out, Tok kind, size_t start) const {
  out.kind = kind;
  out.text = std::string_view(source_.data() + start, pos_ - start);
  out.line = line_;
  out.column = static_cast<uint32_t>(start - lineStart_ + 1);
  out.offset = start;
}

void Lexer::error(Token& out, std::string_view message, size_t start) const {
  make(out, Tok::Error, start);
  out.text = message;
}

void Lexer::lex(Token& out) {
  for (;;) {
    if (pos_ >= source_.size()) {
      if (!open_.empty()) {
        // Report at the opening bracket: that is where the user has to look.
        out = open_.back();
        out.kind = Tok::Error;
        out.text = "unterminated bracket: this '(', '[' or '{' is never closed";
        return;
      }
      return make(out, Tok::End, pos_);
    }
    char c = source_[pos_];
    if (c == ' ' || c == '\t' || c == '\r' || c == '\f') {
      ++pos_;
      continue;
    }
    if (c == '\n') {
      if (open_.empty()) {
        ++pos_;
        make(out, Tok::Newline, pos_ - 1);
        ++line_;
        lineStart_ = pos_;
        return;
      }
      ++pos_;
      ++line_;
      lineStart_ = pos_;
      continue;
    }
    break;
  }

  size_t start = pos_;
  char c = source_[pos_];
  if (c == '#') {
    while (pos_ < source_.size() && source_[pos_] != '\n')
      ++pos_;
    return make(out, Tok::Comment, start);
  }
  if (isNameStart(c)) {
    while (pos_ < source_.size() && isNameChar(source_[pos_]))
      ++pos_;
    return make(out, Tok::Identifier, start);
  }
  if (isDigit(c) || (c == '.' && pos_ + 1 < source_.size() && isDigit(source_[pos_ + 1])))
    return lexNumber(out, start);
  if (c == '\'' || c == '"')
    return lexString(out, start);

  auto bracket = [&](Tok kind) {
    ++pos_;
    if (kind == Tok::LParen || kind == Tok::LBracket || kind == Tok::LBrace) {
      if (open_.size() >= kMaxNesting)
        return error(out, "brackets nested too deeply", start);
      make(out, kind, start);
      open_.push_back(out);
      return;
    }
    char expected = kind == Tok::RParen ? '(' : kind == Tok::RBracket ? '[' : '{';
    if (open_.empty() || open_.back().text[0] != expected)
      return error(out, "unbalanced closing bracket", start);
    open_.pop_back();
    make(out, kind, start);
  };
  auto op = [&](Tok kind, size_t length) {
    pos_ += length;
    make(out, kind, start);
  };
  char n = pos_ + 1 < source_.size() ? source_[pos_ + 1] : '\0';
  switch (c) {
  case '(':
    return bracket(Tok::LParen);
  case ')':
    return bracket(Tok::RParen);
  case '[':
    return bracket(Tok::LBracket);
  case ']':
    return bracket(Tok::RBracket);
  case '{':
    return bracket(Tok::LBrace);
  case '}':
    return bracket(Tok::RBrace);
  case ',':
    return op(Tok::Comma, 1);
  case ':':
    return op(Tok::Colon, 1);
  case ';':
    return op(Tok::Semicolon, 1);
  case '.':
    return op(Tok::Dot, 1);
  case '=':
    return n == '=' ? op(Tok::Operator, 2) : op(Tok::Assign, 1);
  case '-':
    return n == '>' ? op(Tok::Arrow, 2) : op(Tok::Operator, 1);
  case '*':
    return op(Tok::Operator, n == '*' ? 2 : 1);
  case '/':
    return op(Tok::Operator, n == '/' ? 2 : 1);
  case '<':
    return op(Tok::Operator, n == '<' || n == '=' ? 2 : 1);
  case '>':
    return op(Tok::Operator, n == '>' || n == '=' ? 2 : 1);
  case '!':
    if (n == '=')
      return op(Tok::Operator, 2);
    break;
  case '+':
  case '%':
  case '@':
  case '&':
  case '|':
  case '^':
  case '~':
    return op(Tok::Operator, 1);
  default:
    break;
  }
  ++pos_;
  if (static_cast<unsigned char>(c) >= 0x80 || c < 0x20)
    return error(out, "unexpected byte in graph text", start);
  return error(out, "unexpected character", start);
}

void Lexer::lexNumber(Token& out, size_t start) {
  bool isFloat = false;
  while (pos_ < source_.size() && isDigit(source_[pos_]))
    ++pos_;
  if (pos_ < source_.size() && source_[pos_] == '.') {
    isFloat = true;
    ++pos_;
    while (pos_ < source_.size() && isDigit(source_[pos_]))
      ++pos_;
  }
  if (pos_ < source_.size() && (source_[pos_] == 'e' || source_[pos_] == 'E')) {
    size_t exponent = pos_ + 1;
    if (exponent < source_.size() && (source_[exponent] == '+' || source_[exponent] == '-'))
      ++exponent;
    if (exponent < source_.size() && isDigit(source_[exponent])) {
      isFloat = true;
      pos_ = exponent;
      while (pos_ < source_.size() && isDigit(source_[pos_]))
        ++pos_;
    }
  }
  // Python's imaginary literals (`2j`), which complex numbers' repr() is made of.
  if (pos_ < source_.size() && (source_[pos_] == 'j' || source_[pos_] == 'J') &&
      (pos_ + 1 >= source_.size() || !isNameChar(source_[pos_ + 1]))) {
    ++pos_;
    return make(out, Tok::Imaginary, start);
  }
  if (pos_ < source_.size() && isNameChar(source_[pos_])) {
    while (pos_ < source_.size() && isNameChar(source_[pos_]))
      ++pos_;
    return error(out, "malformed number", start);
  }
  make(out, isFloat ? Tok::Float : Tok::Integer, start);
}

void Lexer::lexString(Token& out, size_t start) {
  char quote = source_[pos_++];
  while (pos_ < source_.size()) {
    char c = source_[pos_];
    if (c == '\n')
      break;
    ++pos_;
    if (c == '\\') {
      if (pos_ < source_.size() && source_[pos_] != '\n')
        ++pos_;
      continue;
    }
    if (c == quote)
      return make(out, Tok::String, start);
  }
  error(out, "unterminated string", start);
}

} // namespace declone::io
