// Parser for PyTorch's function schema language, alias annotations included.
//
// Follows torch/csrc/jit/frontend/function_schema_parser.cpp and schema_type_parser.cpp:
//
//   schema   := name '(' [arg (',' arg)*] ')' '->' returns
//   name     := [IDENT '::'] IDENT ['.' IDENT]
//   arg      := '*' | '...' | type IDENT ['=' default]
//   returns  := '...' | '(' [ret (',' ret)*] ')' | ret
//   ret      := '...' | type [IDENT]
//   type     := base [alias] (('[' [NUMBER] ']' [alias]) | '?')*
//   base     := IDENT | '__torch__' ('.' IDENT)+ | '(' type (',' type)* ')'
//             | ('Dict' | 'Future' | 'RRef' | 'Await') '(' type [',' type] ')'
//   alias    := '!' | '(' set ('|' set)* ['!'] ['->' set ('|' set)*] ')'    set := IDENT | '*'
//
// Unlike PyTorch's parser this one reports errors as values and bounds its recursion, so that no
// input can crash it.
#include "declone/schema/Schema.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <string>

namespace declone {
namespace {

struct Token {
  enum class Kind : uint8_t { Ident, Number, String, Arrow, Ellipsis, Punct, End };
  Kind kind = Kind::End;
  std::string_view text;
  size_t offset = 0; ///< byte offset in the schema text

  [[nodiscard]] bool is(char punct) const {
    return kind == Kind::Punct && text.size() == 1 && text[0] == punct;
  }
};

bool isIdentStart(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}
bool isIdentChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}
bool isDigit(char c) {
  return std::isdigit(static_cast<unsigned char>(c));
}

/// Splits schema text into tokens on demand; malformed input yields an error, never a crash.
class Lexer {
public:
  explicit Lexer(std::string_view text) : text_(text) {}

  /// Lexes the token at `pos_`; on a lexical error returns false and sets `error`.
  [[nodiscard]] bool next(Token& token, Error& error) {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_])))
      ++pos_;
    token.offset = pos_;
    if (pos_ == text_.size()) {
      token.kind = Token::Kind::End;
      token.text = {};
      return true;
    }
    const size_t start = pos_;
    const char c = text_[pos_];
    if (isIdentStart(c)) {
      while (pos_ < text_.size() && isIdentChar(text_[pos_]))
        ++pos_;
      return make(token, Token::Kind::Ident, start);
    }
    if (isDigit(c) || (c == '.' && pos_ + 1 < text_.size() && isDigit(text_[pos_ + 1])))
      return lexNumber(token, error, start);
    if (c == '"' || c == '\'')
      return lexString(token, error, start);
    if (text_.substr(pos_, 2) == "->") {
      pos_ += 2;
      return make(token, Token::Kind::Arrow, start);
    }
    if (text_.substr(pos_, 3) == "...") {
      pos_ += 3;
      return make(token, Token::Kind::Ellipsis, start);
    }
    constexpr std::string_view punctuation = "()[],=?!*|:.-";
    if (punctuation.find(c) != std::string_view::npos) {
      ++pos_;
      return make(token, Token::Kind::Punct, start);
    }
    error = {"unexpected character '" + std::string(1, c) + "'", 1,
             static_cast<uint32_t>(start + 1)};
    return false;
  }

private:
  bool make(Token& token, Token::Kind kind, size_t start) {
    token.kind = kind;
    token.text = text_.substr(start, pos_ - start);
    return true;
  }

  void skipDigits() {
    while (pos_ < text_.size() && isDigit(text_[pos_]))
      ++pos_;
  }

  // Numbers as PyTorch prints them: 1, 0., 1.5, 1e-05, 1.0000000000000001e-05, .5
  bool lexNumber(Token& token, Error& error, size_t start) {
    skipDigits();
    if (pos_ < text_.size() && text_[pos_] == '.' && text_.substr(pos_, 3) != "...") {
      ++pos_;
      skipDigits();
    }
    if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
      ++pos_;
      if (pos_ < text_.size() && (text_[pos_] == '+' || text_[pos_] == '-'))
        ++pos_;
      if (pos_ == text_.size() || !isDigit(text_[pos_])) {
        error = {"malformed exponent in number", 1, static_cast<uint32_t>(start + 1)};
        return false;
      }
      skipDigits();
    }
    if (pos_ < text_.size() && isIdentChar(text_[pos_])) {
      error = {"malformed number", 1, static_cast<uint32_t>(start + 1)};
      return false;
    }
    return make(token, Token::Kind::Number, start);
  }

  bool lexString(Token& token, Error& error, size_t start) {
    const char quote = text_[pos_++];
    while (pos_ < text_.size() && text_[pos_] != quote) {
      if (text_[pos_] == '\\')
        ++pos_; // the escaped character, whatever it is, cannot end the literal
      ++pos_;
    }
    if (pos_ >= text_.size()) {
      error = {"unterminated string literal", 1, static_cast<uint32_t>(start + 1)};
      return false;
    }
    ++pos_;
    return make(token, Token::Kind::String, start);
  }

  std::string_view text_;
  size_t pos_ = 0;
};

/// Base type names besides type variables (lower-case identifiers) and the constructors
/// (`Dict`, `Future`, ...). From schema_type_parser.cpp, plus the symbolic types.
// clang-format off
constexpr std::array<std::string_view, 28> kBaseTypes = {
    "Tensor", "Scalar", "ScalarType", "Layout", "MemoryFormat", "Device", "Generator", "Dimname",
    "Storage", "Stream", "QScheme", "Quantizer", "ConstQuantizerPtr", "Capsule", "Any",
    "AnyClassType", "AnyEnumType", "SymInt", "SymFloat", "SymBool", "None", "NoneType", "PyObject",
    "str", "int", "float", "bool", "complex",
};
// clang-format on

/// Known base types whose values may hold tensors. (Type variables may too; constructors such as
/// `Dict(str, Tensor)` may if a component may.)
bool baseMayContainTensor(std::string_view base) {
  return base == "Tensor" || base == "Any" || base == "AnyClassType" || base == "PyObject";
}

/// A parsed type with the annotations that belong to it.
struct ParsedType {
  SchemaType type;
  std::optional<AliasInfo> alias;
  std::optional<AliasInfo> elementAlias;
};

class Parser {
public:
  explicit Parser(std::string_view text) : lexer_(text), text_(text) {}

  Result<OpSchema> parse() {
    OpSchema schema;
    if (!advance() || !parseName(schema) || !parseArguments(schema) ||
        !expect(Token::Kind::Arrow, "'->'") || !parseReturns(schema))
      return error_;
    if (tok_.kind != Token::Kind::End) {
      failExpected("end of schema after the returns");
      return error_;
    }
    return schema;
  }

private:
  /// Maximum nesting of types (`Dict(str, (int, Future(t)))`); deeper input is an error rather
  /// than a stack overflow.
  static constexpr int kMaxDepth = 32;

  // --- token helpers: every function returns false once an error is recorded ---------------

  bool advance() {
    prevEnd_ = tok_.offset + tok_.text.size();
    return lexer_.next(tok_, error_);
  }

  bool fail(const std::string& message) {
    error_ = {message, 1, static_cast<uint32_t>(tok_.offset + 1)};
    return false;
  }

  std::string describe() const {
    switch (tok_.kind) {
    case Token::Kind::End:
      return "end of schema";
    case Token::Kind::Ident:
      return "identifier '" + std::string(tok_.text) + "'";
    case Token::Kind::Number:
      return "number " + std::string(tok_.text);
    case Token::Kind::String:
      return "string " + std::string(tok_.text);
    default:
      return "'" + std::string(tok_.text) + "'";
    }
  }

  bool failExpected(std::string_view what) {
    return fail("expected " + std::string(what) + " but found " + describe());
  }

  bool expect(char punct) {
    if (!tok_.is(punct))
      return failExpected("'" + std::string(1, punct) + "'");
    return advance();
  }

  bool expect(Token::Kind kind, std::string_view what) {
    if (tok_.kind != kind)
      return failExpected(what);
    return advance();
  }

  bool expectIdent(std::string& out, std::string_view what) {
    if (tok_.kind != Token::Kind::Ident)
      return failExpected(what);
    out = tok_.text;
    return advance();
  }

  // --- schema structure ---------------------------------------------------------------------

  bool parseName(OpSchema& schema) {
    std::string first;
    if (!expectIdent(first, "an operator name"))
      return false;
    if (tok_.is(':')) {
      if (!advance() || !expect(':'))
        return false;
      schema.opNamespace = std::move(first);
      if (!expectIdent(schema.name, "an operator name after '::'"))
        return false;
    } else {
      schema.name = std::move(first);
    }
    if (tok_.is('.')) {
      if (!advance() || !expectIdent(schema.overload, "an overload name after '.'"))
        return false;
    }
    return true;
  }

  bool parseArguments(OpSchema& schema) {
    if (!expect('('))
      return false;
    bool kwargOnly = false;
    if (tok_.is(')'))
      return advance();
    while (true) {
      if (schema.isVararg)
        return fail("'...' must be the last argument");
      if (tok_.is('*')) {
        if (kwargOnly)
          return fail("duplicate '*'");
        kwargOnly = true;
        if (!advance())
          return false;
      } else if (tok_.kind == Token::Kind::Ellipsis) {
        schema.isVararg = true;
        if (!advance())
          return false;
      } else {
        SchemaArgument argument;
        if (!parseArgument(argument, /*isReturn=*/false))
          return false;
        argument.kwargOnly = kwargOnly;
        schema.arguments.push_back(std::move(argument));
      }
      if (tok_.is(')'))
        return advance();
      if (!tok_.is(','))
        return failExpected("',' or ')' in the argument list");
      if (!advance())
        return false;
    }
  }

  bool parseReturns(OpSchema& schema) {
    if (tok_.kind == Token::Kind::Ellipsis) {
      schema.isVarret = true;
      return advance();
    }
    if (!tok_.is('(')) {
      SchemaArgument ret;
      if (!parseArgument(ret, /*isReturn=*/true))
        return false;
      schema.returns.push_back(std::move(ret));
      return true;
    }
    if (!advance())
      return false;
    if (tok_.is(')'))
      return advance();
    while (true) {
      if (schema.isVarret)
        return fail("'...' must be the last return");
      if (tok_.kind == Token::Kind::Ellipsis) {
        schema.isVarret = true;
        if (!advance())
          return false;
      } else {
        SchemaArgument ret;
        if (!parseArgument(ret, /*isReturn=*/true))
          return false;
        schema.returns.push_back(std::move(ret));
      }
      if (tok_.is(')'))
        return advance();
      if (!tok_.is(','))
        return failExpected("',' or ')' in the return list");
      if (!advance())
        return false;
    }
  }

  bool parseArgument(SchemaArgument& argument, bool isReturn) {
    ParsedType parsed;
    if (!parseType(parsed, 0))
      return false;
    argument.type = std::move(parsed.type);
    argument.alias = std::move(parsed.alias);
    argument.elementAlias = std::move(parsed.elementAlias);
    if (isReturn) {
      // Returns may be named: `-> (Tensor(a!) values, Tensor(b!) indices)`.
      if (tok_.kind == Token::Kind::Ident) {
        argument.name = tok_.text;
        return advance();
      }
      return true;
    }
    if (!expectIdent(argument.name, "an argument name"))
      return false;
    if (tok_.is('=')) {
      if (!advance())
        return false;
      return parseDefault(argument);
    }
    return true;
  }

  // --- types ----------------------------------------------------------------------------------

  bool parseType(ParsedType& out, int depth) {
    if (depth > kMaxDepth)
      return fail("type nested too deeply");
    bool mayContainTensor = false;
    std::string base;
    if (!parseBaseType(base, mayContainTensor, depth))
      return false;
    out.type.element = std::move(base);
    out.type.mayContainTensor = mayContainTensor;
    if (!parseAlias(out.alias))
      return false;
    while (true) {
      if (tok_.is('[')) {
        if (!parseListSuffix(out))
          return false;
      } else if (tok_.is('?')) {
        if (out.type.optional)
          return fail("repeated '?'");
        out.type.optional = true;
        if (!advance())
          return false;
      } else {
        break;
      }
    }
    classify(out.type);
    return true;
  }

  bool parseListSuffix(ParsedType& out) {
    const size_t open = tok_.offset;
    if (!advance())
      return false;
    std::string suffix = "[";
    if (tok_.kind == Token::Kind::Number) {
      // A size hint, as in `int[2]`: a plain non-negative integer.
      for (char c : tok_.text)
        if (!isDigit(c))
          return fail("list size must be an integer");
      suffix += tok_.text;
      if (!advance())
        return false;
    }
    if (!tok_.is(']'))
      return failExpected("']'");
    suffix += ']';
    if (!advance())
      return false;
    SchemaType& type = out.type;
    if (type.isList() || type.optional) {
      // `Tensor?[]`, `int[][]`: the element is the whole type so far.
      type.element = type.text();
      type.listSuffix.clear();
      type.optional = false;
    }
    if (out.alias) {
      if (out.elementAlias) {
        error_ = {"alias annotations on nested lists are not supported", 1,
                  static_cast<uint32_t>(open + 1)};
        return false;
      }
      out.elementAlias = std::move(out.alias);
      out.alias.reset();
    }
    type.listSuffix = std::move(suffix);
    return parseAlias(out.alias);
  }

  bool parseBaseType(std::string& base, bool& mayContainTensor, int depth) {
    if (tok_.is('('))
      return parseTupleType(base, mayContainTensor, depth);
    if (tok_.kind != Token::Kind::Ident)
      return failExpected("a type");
    const std::string_view name = tok_.text;
    if (name == "Dict" || name == "Future" || name == "RRef" || name == "Await")
      return parseTypeConstructor(base, mayContainTensor, depth);
    if (name == "__torch__")
      return parseClassType(base, mayContainTensor);
    const bool known = std::find(kBaseTypes.begin(), kBaseTypes.end(), name) != kBaseTypes.end();
    // Lower-case identifiers that are not known types are type variables (`t`, `t1`).
    const bool isTypeVariable = !known && std::islower(static_cast<unsigned char>(name[0]));
    if (!known && !isTypeVariable)
      return fail("unknown type '" + std::string(name) + "'");
    mayContainTensor = isTypeVariable || baseMayContainTensor(name);
    base = name;
    return advance();
  }

  bool parseTupleType(std::string& base, bool& mayContainTensor, int depth) {
    if (!advance())
      return false;
    base = "(";
    bool first = true;
    while (!tok_.is(')')) {
      if (!first) {
        if (!expect(','))
          return false;
        base += ", ";
      }
      first = false;
      if (!appendElementType(base, mayContainTensor, depth))
        return false;
    }
    base += ')';
    return advance();
  }

  /// Parses one element type of a tuple or type constructor and appends its spelling.
  bool appendElementType(std::string& base, bool& mayContainTensor, int depth) {
    ParsedType parsed;
    if (!parseType(parsed, depth + 1))
      return false;
    mayContainTensor = mayContainTensor || parsed.type.mayContainTensor;
    SchemaArgument element;
    element.type = std::move(parsed.type);
    element.alias = std::move(parsed.alias);
    element.elementAlias = std::move(parsed.elementAlias);
    base += element.toString();
    return true;
  }

  // Dict(K, V), Future(T), RRef(T), Await(T)
  bool parseTypeConstructor(std::string& base, bool& mayContainTensor, int depth) {
    const std::string name(tok_.text);
    const size_t arity = name == "Dict" ? 2 : 1;
    if (!advance() || !expect('('))
      return false;
    base = name + "(";
    for (size_t i = 0; i < arity; ++i) {
      if (i != 0) {
        if (!expect(','))
          return false;
        base += ", ";
      }
      if (!appendElementType(base, mayContainTensor, depth))
        return false;
    }
    base += ')';
    return expect(')');
  }

  // __torch__.torch.classes.NS.NAME: a TorchScript custom class, opaque but able to hold tensors.
  bool parseClassType(std::string& base, bool& mayContainTensor) {
    base = tok_.text;
    if (!advance())
      return false;
    if (!tok_.is('.'))
      return failExpected("'.' after '__torch__'");
    while (tok_.is('.')) {
      std::string part;
      if (!advance() || !expectIdent(part, "a class name component"))
        return false;
      base += '.' + part;
    }
    mayContainTensor = true;
    return true;
  }

  static void classify(SchemaType& type) {
    using Kind = SchemaType::Kind;
    type.kind = Kind::Other;
    if (!type.isList()) {
      if (type.element == "Tensor")
        type.kind = type.optional ? Kind::OptionalTensor : Kind::Tensor;
    } else if (type.element == "Tensor") {
      type.kind = Kind::TensorList;
    } else if (type.element == "Tensor?") {
      type.kind = Kind::OptionalTensorList;
    }
    if (type.kind != Kind::Other)
      type.mayContainTensor = true;
  }

  // --- alias annotations ----------------------------------------------------------------------

  bool parseAlias(std::optional<AliasInfo>& alias) {
    if (tok_.is('!')) {
      // `Tensor!`: written to, in a set of its own.
      AliasInfo info;
      info.beforeSets.push_back("$" + std::to_string(freshSetCount_++));
      info.afterSets = info.beforeSets;
      info.isWrite = true;
      info.isShorthand = true;
      alias = std::move(info);
      return advance();
    }
    if (!tok_.is('('))
      return true;
    AliasInfo info;
    if (!advance() || !parseAliasSets(info.beforeSets))
      return false;
    if (tok_.is('!')) {
      info.isWrite = true;
      if (!advance())
        return false;
    }
    if (tok_.kind == Token::Kind::Arrow) {
      info.hasArrow = true;
      if (!advance() || !parseAliasSets(info.afterSets))
        return false;
    } else {
      info.afterSets = info.beforeSets;
    }
    if (!expect(')'))
      return false;
    alias = std::move(info);
    return true;
  }

  bool parseAliasSets(std::vector<std::string>& sets) {
    while (true) {
      if (tok_.is('*')) {
        sets.emplace_back(AliasInfo::kWildcard);
      } else if (tok_.kind == Token::Kind::Ident) {
        sets.emplace_back(tok_.text);
      } else {
        return failExpected("an alias set name or '*'");
      }
      if (!advance())
        return false;
      if (!tok_.is('|'))
        return true;
      if (!advance())
        return false;
    }
  }

  // --- defaults -------------------------------------------------------------------------------

  /// Checks the default's shape and keeps its text verbatim, so printing reproduces it exactly.
  bool parseDefault(SchemaArgument& argument) {
    const size_t start = tok_.offset;
    if (tok_.is('[')) {
      if (!advance())
        return false;
      if (!tok_.is(']')) {
        while (true) {
          if (!parseConstant())
            return false;
          if (tok_.is(']'))
            break;
          if (!tok_.is(','))
            return failExpected("',' or ']' in the default list");
          if (!advance())
            return false;
        }
      }
      if (!advance())
        return false;
    } else if (!parseConstant()) {
      return false;
    }
    argument.defaultValue = std::string(sourceText(start, prevEnd_));
    return true;
  }

  // 1, -1, 1e-05, -inf, True, None, "mean", 'none', long, contiguous_format
  bool parseConstant() {
    if (tok_.is('-')) {
      if (!advance())
        return false;
      if (tok_.kind != Token::Kind::Number && tok_.kind != Token::Kind::Ident)
        return failExpected("a number after '-'");
      return advance();
    }
    if (tok_.kind == Token::Kind::Number || tok_.kind == Token::Kind::String ||
        tok_.kind == Token::Kind::Ident)
      return advance();
    return failExpected("a default value");
  }

  std::string_view sourceText(size_t begin, size_t end) const {
    return text_.substr(begin, end - begin);
  }

  Lexer lexer_;
  std::string_view text_;
  Token tok_;
  /// End offset of the token before `tok_`.
  size_t prevEnd_ = 0;
  Error error_;
  /// Names the sets of `!` shorthands: $0, $1, ... in order of appearance.
  int freshSetCount_ = 0;
};

} // namespace

Result<OpSchema> parseSchema(std::string_view text) {
  return Parser(text).parse();
}

} // namespace declone
