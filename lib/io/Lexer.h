// Tokens of the Python subset FX prints, with line/column positions and bracket tracking.
#pragma once

#include <array>
#include <cassert>
#include <cstdint>
#include <string_view>
#include <vector>

namespace declone::io {

/// Python identifiers as FX prints them (ASCII). Tables rather than five compares: names are
/// most of the bytes the lexer scans.
inline constexpr auto kNameStarts = [] {
  std::array<bool, 256> table{};
  for (int c = 0; c < 256; ++c)
    table[c] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
  return table;
}();
inline constexpr auto kNameChars = [] {
  std::array<bool, 256> table = kNameStarts;
  for (int c = '0'; c <= '9'; ++c)
    table[c] = true;
  return table;
}();
[[nodiscard]] inline bool isNameStart(char c) {
  return kNameStarts[static_cast<unsigned char>(c)];
}
[[nodiscard]] inline bool isNameChar(char c) {
  return kNameChars[static_cast<unsigned char>(c)];
}

enum class Tok : uint8_t {
  End,     ///< end of input
  Newline, ///< end of a logical line (never inside brackets)
  Identifier,
  Integer,
  Float,
  Imaginary, ///< a number with a `j` suffix: `2j`, `1e-07j`
  String,
  Comment, ///< `# ...` (text excludes the newline)
  LParen,
  RParen,
  LBracket,
  RBracket,
  LBrace,
  RBrace,
  Comma,
  Colon,
  Semicolon,
  Dot,
  Assign,   ///< =
  Operator, ///< + - * / // % ** @ & | ^ ~ << >> == != < <= > >=
  Arrow,    ///< ->
  Error,    ///< text is the message
};

struct Token {
  Tok kind = Tok::End;
  std::string_view text;
  uint32_t line = 0;
  uint32_t column = 0;
  size_t offset = 0;
};

/// Lexes on demand from a position. Newlines inside brackets are skipped as Python does; the
/// bracket stack bounds nesting so that deeply nested input is an error, not a stack overflow.
class Lexer {
public:
  static constexpr size_t kMaxNesting = 256;

  explicit Lexer(std::string_view source) : source_(source) {}

  /// Repositions at the start of a physical line.
  void reset(size_t offset, uint32_t line);
  /// Lexes the next token into `out`. In place rather than returned: a returned 40-byte Token
  /// goes through the stack and is copied again into the reader's current token, and the
  /// reader lexes every token of a dump (in place, reading 100k nodes took 8% less CPU time).
  void next(Token& out) {
    if (hasLookahead_) {
      out = lookahead_;
      hasLookahead_ = false;
      return;
    }
    lex(out);
  }
  /// The token next() will return. offset(), line() and depth() then describe the position
  /// after it.
  [[nodiscard]] const Token& peek() {
    if (!hasLookahead_) {
      lex(lookahead_);
      hasLookahead_ = true;
    }
    return lookahead_;
  }

  [[nodiscard]] size_t offset() const { return pos_; }
  /// Whether a token has been peeked (and offset() is past it).
  [[nodiscard]] bool hasLookahead() const { return hasLookahead_; }
  /// Moves forward on the current line to `offset`, over text the caller has scanned itself and
  /// that holds no newline or bracket. Nothing may have been peeked.
  void skipTo(size_t offset) {
    assert(!hasLookahead_ && offset >= pos_);
    pos_ = offset;
  }
  [[nodiscard]] uint32_t line() const { return line_; }
  [[nodiscard]] uint32_t depth() const { return static_cast<uint32_t>(open_.size()); }
  /// The innermost open bracket (valid when depth() > 0).
  [[nodiscard]] const Token& innermostOpen() const { return open_.back(); }
  [[nodiscard]] std::string_view source() const { return source_; }

private:
  void lex(Token& out);
  void make(Token& out, Tok kind, size_t start) const;
  void error(Token& out, std::string_view message, size_t start) const;
  void lexNumber(Token& out, size_t start);
  void lexString(Token& out, size_t start);

  std::string_view source_;
  size_t pos_ = 0;
  size_t lineStart_ = 0;
  uint32_t line_ = 1;
  std::vector<Token> open_;
  Token lookahead_;
  bool hasLookahead_ = false;
};

} // namespace declone::io
