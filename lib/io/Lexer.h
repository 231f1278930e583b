// Tokens of the Python subset FX prints, with line/column positions and bracket tracking.
#pragma once

#include <array>
#include <cassert>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace declone::io {

/// Python identifiers as FX prints them (ASCII). Tables rather than five compares: names are
/// most of the bytes the lexer and the reader's fast path scan.
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
  [[nodiscard]] Token next() {
    if (lookahead_) {
      Token token = *lookahead_;
      lookahead_.reset();
      return token;
    }
    return lex();
  }
  /// The token next() will return. offset(), line() and depth() then describe the position
  /// after it.
  [[nodiscard]] const Token& peek() {
    if (!lookahead_)
      lookahead_ = lex();
    return *lookahead_;
  }

  [[nodiscard]] size_t offset() const { return pos_; }
  /// Whether a token has been peeked (and offset() is past it).
  [[nodiscard]] bool hasLookahead() const { return lookahead_.has_value(); }
  /// Moves forward on the current line to `offset`, over text the caller has scanned itself and
  /// that holds no newline or bracket. Nothing may have been peeked.
  void skipTo(size_t offset) {
    assert(!lookahead_ && offset >= pos_);
    pos_ = offset;
  }
  [[nodiscard]] uint32_t line() const { return line_; }
  [[nodiscard]] uint32_t depth() const { return static_cast<uint32_t>(open_.size()); }
  /// The innermost open bracket (valid when depth() > 0).
  [[nodiscard]] const Token& innermostOpen() const { return open_.back(); }
  [[nodiscard]] std::string_view source() const { return source_; }

private:
  Token lex();
  Token make(Tok kind, size_t start) const;
  Token error(std::string_view message, size_t start) const;
  Token lexNumber(size_t start);
  Token lexString(size_t start);

  std::string_view source_;
  size_t pos_ = 0;
  size_t lineStart_ = 0;
  uint32_t line_ = 1;
  std::vector<Token> open_;
  std::optional<Token> lookahead_;
};

} // namespace declone::io
