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
  lookahead_.reset();
}

Token Lexer::make(Tok kind, size_t start) const {
  Token token;
  token.kind = kind;
  token.text = source_.substr(start, pos_ - start);
  token.line = line_;
  token.column = static_cast<uint32_t>(start - lineStart_ + 1);
  token.offset = start;
  return token;
}

Token Lexer::error(std::string_view message, size_t start) const {
  Token token = make(Tok::Error, start);
  token.text = message;
  return token;
}

Token Lexer::lex() {
  for (;;) {
    if (pos_ >= source_.size()) {
      if (!open_.empty()) {
        // Report at the opening bracket: that is where the user has to look.
        Token token = open_.back();
        token.kind = Tok::Error;
        token.text = "unterminated bracket: this '(', '[' or '{' is never closed";
        return token;
      }
      return make(Tok::End, pos_);
    }
    char c = source_[pos_];
    if (c == ' ' || c == '\t' || c == '\r' || c == '\f') {
      ++pos_;
      continue;
    }
    if (c == '\n') {
      size_t start = pos_;
      Token token = make(Tok::Newline, start);
      ++pos_;
      ++line_;
      lineStart_ = pos_;
      if (open_.empty()) {
        token.text = source_.substr(start, 1);
        return token;
      }
      continue;
    }
    break;
  }

  size_t start = pos_;
  char c = source_[pos_];
  if (c == '#') {
    while (pos_ < source_.size() && source_[pos_] != '\n')
      ++pos_;
    return make(Tok::Comment, start);
  }
  if (isNameStart(c)) {
    while (pos_ < source_.size() && isNameChar(source_[pos_]))
      ++pos_;
    return make(Tok::Identifier, start);
  }
  if (isDigit(c) || (c == '.' && pos_ + 1 < source_.size() && isDigit(source_[pos_ + 1])))
    return lexNumber(start);
  if (c == '\'' || c == '"')
    return lexString(start);

  auto bracket = [&](Tok kind) {
    ++pos_;
    Token token = make(kind, start);
    if (kind == Tok::LParen || kind == Tok::LBracket || kind == Tok::LBrace) {
      if (open_.size() >= kMaxNesting)
        return error("brackets nested too deeply", start);
      open_.push_back(token);
      return token;
    }
    char expected = kind == Tok::RParen ? '(' : kind == Tok::RBracket ? '[' : '{';
    if (open_.empty() || open_.back().text[0] != expected)
      return error("unbalanced closing bracket", start);
    open_.pop_back();
    return token;
  };
  auto op = [&](Tok kind, size_t length) {
    pos_ += length;
    return make(kind, start);
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
    return error("unexpected byte in graph text", start);
  return error("unexpected character", start);
}

Token Lexer::lexNumber(size_t start) {
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
    return make(Tok::Imaginary, start);
  }
  if (pos_ < source_.size() && isNameChar(source_[pos_])) {
    while (pos_ < source_.size() && isNameChar(source_[pos_]))
      ++pos_;
    return error("malformed number", start);
  }
  return make(isFloat ? Tok::Float : Tok::Integer, start);
}

Token Lexer::lexString(size_t start) {
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
      return make(Tok::String, start);
  }
  return error("unterminated string", start);
}

} // namespace declone::io
