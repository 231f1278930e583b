// Parsing sympy's str() spelling of integer expressions, as found in FX graph dumps.
#include "SymExprImpl.h"

#include <algorithm>
#include <string>

namespace declone {
namespace detail {
namespace {

/// Parser nesting limit (parentheses, calls, prefix operators, exponents): bounds recursion.
constexpr int kMaxNesting = 256;
/// Limit on the depth of parsed expression trees. Operator chains like `a//b//c//...` nest
/// without parentheses, and printing adds at most two levels of textual nesting per tree level
/// (e.g. `((x//2))` as a factor), so this keeps every parse result printable within
/// kMaxNesting and thereby re-parseable.
constexpr int kMaxDepth = (kMaxNesting - 2) / 2;

bool isNamedConstant(std::string_view name) {
  return name == "True" || name == "False" || name == "oo" || name == "int_oo" || name == "zoo" ||
         name == "nan";
}

bool isSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}
bool isDigit(char c) {
  return c >= '0' && c <= '9';
}
bool isIdentStart(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool isIdentChar(char c) {
  return isIdentStart(c) || isDigit(c);
}

bool isIdentifier(std::string_view s) {
  if (s.empty() || !isIdentStart(s[0]))
    return false;
  return std::all_of(s.begin() + 1, s.end(), isIdentChar);
}

/// Parses a run of decimal digits as an int64, negated if `negative`; nullopt if `digits` is
/// empty, contains anything else, or is out of range.
std::optional<int64_t> parseInteger(std::string_view digits, bool negative) {
  if (digits.empty())
    return std::nullopt;
  uint64_t magnitude = 0;
  for (char c : digits) {
    if (!isDigit(c) || __builtin_mul_overflow(magnitude, uint64_t(10), &magnitude) ||
        __builtin_add_overflow(magnitude, uint64_t(c - '0'), &magnitude))
      return std::nullopt;
  }
  uint64_t limit = negative ? uint64_t(1) << 63 : uint64_t(kInt64Max);
  if (magnitude > limit)
    return std::nullopt;
  return negative ? static_cast<int64_t>(0 - magnitude) : static_cast<int64_t>(magnitude);
}

/// Parses `[-]digits` exactly.
std::optional<int64_t> parsePlainInteger(std::string_view s) {
  bool negative = !s.empty() && s[0] == '-';
  return parseInteger(s.substr(negative ? 1 : 0), negative);
}

enum class Tok : uint8_t {
  End,
  Int,
  Float,
  Ident,
  LParen,
  RParen,
  Comma,
  Plus,
  Minus,
  Star,
  StarStar,
  Slash,
  SlashSlash,
  Percent,
  Lt,
  Le,
  Gt,
  Ge,
  EqEq,
  Ne,
  Bad,
};

struct Token {
  Tok kind;
  size_t pos;
  size_t len;
};

/// Recursive-descent parser for Python expression syntax restricted to what sympy's str()
/// produces for integer expressions. Precedence, loosest first: comparisons, + -, * / // %,
/// unary - +, ** (right-associative, binding tighter than a unary minus on its left).
class Parser {
public:
  Parser(SymContextImpl& ctx, std::string_view text) : ctx_(ctx), text_(text) {}

  Result<SymExpr> run() {
    Token t = peek();
    if (t.kind == Tok::End)
      return makeError(t.pos, "empty expression");
    std::optional<SymExpr> e = parseComparison();
    if (!e)
      return std::move(*error_);
    t = peek();
    if (t.kind != Tok::End) {
      if (t.kind == Tok::RParen)
        return makeError(t.pos, "unmatched ')'");
      return makeError(t.pos, "unexpected " + describe(t) + " after expression");
    }
    return *e;
  }

private:
  /// Counts one level of nesting for the lifetime of a recursive call.
  class NestingScope {
  public:
    explicit NestingScope(Parser& p) : p_(p) { ++p_.depth_; }
    ~NestingScope() { --p_.depth_; }
    NestingScope(const NestingScope&) = delete;
    NestingScope& operator=(const NestingScope&) = delete;
    bool tooDeep() const { return p_.depth_ > kMaxNesting; }

  private:
    Parser& p_;
  };

  static Error makeError(size_t pos, std::string message) {
    return Error{std::move(message), 0, static_cast<uint32_t>(pos + 1)};
  }

  std::nullopt_t fail(size_t pos, std::string message) {
    if (!error_)
      error_ = makeError(pos, std::move(message));
    return std::nullopt;
  }

  /// Rejects results deeper than kMaxDepth (see there).
  std::optional<SymExpr> bounded(SymExpr e, size_t pos) {
    if (!e.isConstant() && nodeOf(e)->depth > kMaxDepth)
      return fail(pos,
                  "expression nested too deeply (depth limit " + std::to_string(kMaxDepth) + ")");
    return e;
  }

  std::nullopt_t failTooDeep(size_t pos) {
    return fail(pos, "expression nested too deeply (limit " + std::to_string(kMaxNesting) + ")");
  }

  std::string describe(const Token& t) const {
    if (t.kind == Tok::End)
      return "end of input";
    std::string_view s = text_.substr(t.pos, t.len);
    if (t.kind == Tok::Bad) {
      auto c = static_cast<unsigned char>(s[0]);
      if (c < 0x20 || c >= 0x7f) {
        static constexpr char kHex[] = "0123456789abcdef";
        return std::string("byte 0x") + kHex[c >> 4] + kHex[c & 15];
      }
    }
    return "'" + std::string(s.substr(0, 40)) + "'";
  }

  Token peek() {
    while (pos_ < text_.size() && isSpace(text_[pos_]))
      ++pos_;
    size_t p = pos_;
    if (p == text_.size())
      return {Tok::End, p, 0};
    char c = text_[p];
    auto next = [&](size_t k) { return p + k < text_.size() ? text_[p + k] : '\0'; };
    if (isDigit(c)) {
      size_t e = p;
      while (e < text_.size() && isDigit(text_[e]))
        ++e;
      char d = e < text_.size() ? text_[e] : '\0';
      char d2 = e + 1 < text_.size() ? text_[e + 1] : '\0';
      if (d == '.' || ((d == 'e' || d == 'E') && (isDigit(d2) || d2 == '+' || d2 == '-')))
        return {Tok::Float, p, e + 1 - p};
      return {Tok::Int, p, e - p};
    }
    if (isIdentStart(c)) {
      size_t e = p + 1;
      while (e < text_.size() && isIdentChar(text_[e]))
        ++e;
      return {Tok::Ident, p, e - p};
    }
    switch (c) {
    case '(':
      return {Tok::LParen, p, 1};
    case ')':
      return {Tok::RParen, p, 1};
    case ',':
      return {Tok::Comma, p, 1};
    case '+':
      return {Tok::Plus, p, 1};
    case '-':
      return {Tok::Minus, p, 1};
    case '%':
      return {Tok::Percent, p, 1};
    case '*':
      return next(1) == '*' ? Token{Tok::StarStar, p, 2} : Token{Tok::Star, p, 1};
    case '/':
      return next(1) == '/' ? Token{Tok::SlashSlash, p, 2} : Token{Tok::Slash, p, 1};
    case '<':
      return next(1) == '=' ? Token{Tok::Le, p, 2} : Token{Tok::Lt, p, 1};
    case '>':
      return next(1) == '=' ? Token{Tok::Ge, p, 2} : Token{Tok::Gt, p, 1};
    case '=':
      if (next(1) == '=')
        return {Tok::EqEq, p, 2};
      break;
    case '!':
      if (next(1) == '=')
        return {Tok::Ne, p, 2};
      break;
    default:
      break;
    }
    return {Tok::Bad, p, 1};
  }

  void advance(const Token& t) { pos_ = t.pos + t.len; }

  std::optional<SymExpr> parseComparison() {
    std::optional<SymExpr> lhs = parseArith();
    while (lhs) {
      Token t = peek();
      SymKind kind;
      switch (t.kind) {
      case Tok::Lt:
        kind = SymKind::Lt;
        break;
      case Tok::Le:
        kind = SymKind::Le;
        break;
      case Tok::Gt:
        kind = SymKind::Gt;
        break;
      case Tok::Ge:
        kind = SymKind::Ge;
        break;
      case Tok::EqEq:
        kind = SymKind::Eq;
        break;
      case Tok::Ne:
        kind = SymKind::Ne;
        break;
      default:
        return lhs;
      }
      advance(t);
      std::optional<SymExpr> rhs = parseArith();
      if (!rhs)
        return std::nullopt;
      lhs = bounded(ctx_.atom2(kind, *lhs, *rhs), t.pos);
    }
    return lhs;
  }

  std::optional<SymExpr> parseArith() {
    size_t firstPos = peek().pos;
    std::optional<SymExpr> first = parseTerm();
    if (!first)
      return std::nullopt;
    Token t = peek();
    if (t.kind != Tok::Plus && t.kind != Tok::Minus)
      return first;
    // Collect the whole chain and sum it at once (see SymContextImpl::sum).
    SmallVec<SymExpr, 8> operands;
    SmallVec<bool, 8> negate;
    operands.push_back(*first);
    negate.push_back(false);
    while (t.kind == Tok::Plus || t.kind == Tok::Minus) {
      advance(t);
      std::optional<SymExpr> rhs = parseTerm();
      if (!rhs)
        return std::nullopt;
      operands.push_back(*rhs);
      negate.push_back(t.kind == Tok::Minus);
      t = peek();
    }
    return bounded(ctx_.sum(operands.span(), negate.span()), firstPos);
  }

  std::optional<SymExpr> parseTerm() {
    std::optional<SymExpr> lhs = parseUnary();
    while (lhs) {
      Token t = peek();
      if (t.kind != Tok::Star && t.kind != Tok::Slash && t.kind != Tok::SlashSlash &&
          t.kind != Tok::Percent)
        return lhs;
      advance(t);
      std::optional<SymExpr> rhs = parseUnary();
      if (!rhs)
        return std::nullopt;
      switch (t.kind) {
      case Tok::Star:
        lhs = bounded(ctx_.mul(*lhs, *rhs), t.pos);
        break;
      case Tok::SlashSlash:
        lhs = bounded(ctx_.floorDiv(*lhs, *rhs), t.pos);
        break;
      case Tok::Percent:
        lhs = bounded(ctx_.mod(*lhs, *rhs), t.pos);
        break;
      default:
        lhs = bounded(ctx_.atom2(SymKind::TrueDiv, *lhs, *rhs), t.pos);
        break;
      }
    }
    return lhs;
  }

  std::optional<SymExpr> parseUnary() {
    Token t = peek();
    if (t.kind != Tok::Plus && t.kind != Tok::Minus)
      return parsePower();
    advance(t);
    NestingScope scope(*this);
    if (scope.tooDeep())
      return failTooDeep(t.pos);
    if (t.kind == Tok::Minus) {
      // Fold the sign into a literal so that -9223372036854775808 is representable; not when
      // `**` follows, since `-2**2` is -(2**2).
      Token lit = peek();
      if (lit.kind == Tok::Int) {
        size_t save = pos_;
        advance(lit);
        if (peek().kind != Tok::StarStar) {
          std::optional<int64_t> v = parseInteger(text_.substr(lit.pos, lit.len), true);
          if (!v)
            return fail(lit.pos, "integer literal out of range");
          return SymExpr::constant(*v);
        }
        pos_ = save;
      }
      std::optional<SymExpr> operand = parseUnary();
      if (!operand)
        return std::nullopt;
      return bounded(ctx_.neg(*operand), t.pos);
    }
    return parseUnary();
  }

  std::optional<SymExpr> parsePower() {
    std::optional<SymExpr> base = parsePrimary();
    if (!base)
      return std::nullopt;
    Token t = peek();
    if (t.kind != Tok::StarStar)
      return base;
    advance(t);
    NestingScope scope(*this);
    if (scope.tooDeep())
      return failTooDeep(t.pos);
    std::optional<SymExpr> exp = parseUnary();
    if (!exp)
      return std::nullopt;
    return bounded(ctx_.pow(*base, *exp), t.pos);
  }

  std::optional<SymExpr> parsePrimary() {
    Token t = peek();
    switch (t.kind) {
    case Tok::Int: {
      advance(t);
      std::optional<int64_t> v = parseInteger(text_.substr(t.pos, t.len), false);
      if (!v)
        return fail(t.pos, "integer literal out of range");
      return SymExpr::constant(*v);
    }
    case Tok::Float:
      return fail(t.pos, "floating-point literals are not supported");
    case Tok::Ident: {
      advance(t);
      std::string_view name = text_.substr(t.pos, t.len);
      Token open = peek();
      if (open.kind == Tok::LParen)
        return parseCall(name, t.pos, open);
      if (isNamedConstant(name))
        return ctx_.atom(SymKind::Named, {}, name);
      return ctx_.symbol(name);
    }
    case Tok::LParen: {
      advance(t);
      NestingScope scope(*this);
      if (scope.tooDeep())
        return failTooDeep(t.pos);
      SmallVec<SymExpr, 4> items;
      if (!parseList(items, t.pos, /*allowEmpty=*/false))
        return std::nullopt;
      if (items.size() == 1)
        return items[0];
      return bounded(ctx_.atom(SymKind::Tuple, items.span()), t.pos);
    }
    case Tok::End:
      return fail(t.pos, "expected an expression, found end of input");
    case Tok::RParen:
      if (depth_ == 0)
        return fail(t.pos, "unmatched ')'");
      [[fallthrough]];
    default:
      return fail(t.pos, "expected an expression, found " + describe(t));
    }
  }

  /// Parses `expr (, expr)* )` after an opening parenthesis at `openPos`.
  bool parseList(SmallVec<SymExpr, 4>& items, size_t openPos, bool allowEmpty) {
    Token t = peek();
    if (allowEmpty && t.kind == Tok::RParen) {
      advance(t);
      return true;
    }
    for (;;) {
      std::optional<SymExpr> e = parseComparison();
      if (!e)
        return false;
      items.push_back(*e);
      t = peek();
      if (t.kind == Tok::Comma) {
        advance(t);
        continue;
      }
      if (t.kind == Tok::RParen) {
        advance(t);
        return true;
      }
      if (t.kind == Tok::End)
        fail(t.pos, "expected ')' to match '(' at column " + std::to_string(openPos + 1));
      else
        fail(t.pos, "expected ',' or ')', found " + describe(t));
      return false;
    }
  }

  std::optional<SymExpr> parseCall(std::string_view name, size_t namePos, const Token& open) {
    std::optional<SymExpr> call = parseCallUnbounded(name, namePos, open);
    return call ? bounded(*call, namePos) : std::nullopt;
  }

  std::optional<SymExpr> parseCallUnbounded(std::string_view name, size_t namePos,
                                            const Token& open) {
    advance(open);
    NestingScope scope(*this);
    if (scope.tooDeep())
      return failTooDeep(open.pos);
    SmallVec<SymExpr, 4> args;
    if (!parseList(args, open.pos, /*allowEmpty=*/true))
      return std::nullopt;
    auto expectArgs = [&](size_t n) {
      if (args.size() == n)
        return true;
      fail(namePos, "'" + std::string(name) + "' expects " + std::to_string(n) + " arguments");
      return false;
    };
    if (name == "FloorDiv" || name == "CeilDiv" || name == "Mod") {
      if (!expectArgs(2))
        return std::nullopt;
      if (name == "FloorDiv")
        return ctx_.floorDiv(args[0], args[1]);
      if (name == "CeilDiv")
        return ctx_.ceilDiv(args[0], args[1]);
      return ctx_.mod(args[0], args[1]);
    }
    if (name == "Max" || name == "Min") {
      if (args.empty())
        return fail(namePos, "'" + std::string(name) + "' expects at least one argument");
      return ctx_.minMax(name == "Max" ? SymKind::Max : SymKind::Min, args.span());
    }
    return ctx_.atom(SymKind::Apply, args.span(), name);
  }

  SymContextImpl& ctx_;
  std::string_view text_;
  size_t pos_ = 0;
  int depth_ = 0;
  std::optional<Error> error_;
};

} // namespace
} // namespace detail

Result<SymExpr> SymContext::parse(std::string_view text) {
  // Fast paths for the overwhelmingly common sizes and strides: a bare integer (no allocation
  // at all) or a bare symbol (one hash lookup).
  size_t b = 0, e = text.size();
  while (b < e && detail::isSpace(text[b]))
    ++b;
  while (e > b && detail::isSpace(text[e - 1]))
    --e;
  std::string_view core = text.substr(b, e - b);
  if (!core.empty()) {
    if (std::optional<int64_t> v = detail::parsePlainInteger(core))
      return SymExpr::constant(*v);
    if (detail::isIdentifier(core) && !detail::isNamedConstant(core))
      return impl_->symbol(core);
  }
  return detail::Parser(*impl_, text).run();
}

} // namespace declone
