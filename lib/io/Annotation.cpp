// Parsing of FX type annotations: "DT[SIZES][STRIDES]DEVICE@OFFSET", "Sym(EXPR)", or verbatim.
#include "Annotation.h"

#include "Lexer.h"

#include <algorithm>
#include <charconv>

namespace declone::io {

Result<TypeAnnotation> AnnotationParser::parse(std::string_view text) {
  text_ = text;
  pos_ = 0;
  error_.reset();
  TypeAnnotation type;
  type.spelling = text_;
  if (text_.starts_with("Sym(") && text_.ends_with(")")) {
    Result<SymExpr> expr = context_.sym().parse(text_.substr(4, text_.size() - 5));
    // SymFloat/SymBool expressions need not parse as integers: keep them verbatim.
    if (expr.ok()) {
      type.kind = TypeAnnotation::Kind::Sym;
      type.sym = *expr;
    } else {
      type.kind = TypeAnnotation::Kind::Other;
    }
    return type;
  }
  size_t nameEnd = 0;
  while (nameEnd < text_.size() && isNameChar(text_[nameEnd]))
    ++nameEnd;
  if (nameEnd == 0 || nameEnd == text_.size() || text_[nameEnd] != '[') {
    type.kind = TypeAnnotation::Kind::Other;
    return type;
  }
  return parseTensor(type, nameEnd);
}

Result<TypeAnnotation> AnnotationParser::parseTensor(TypeAnnotation& type, size_t nameEnd) {
  std::optional<DType> dtype = lookUpDType(text_.substr(0, nameEnd));
  if (!dtype)
    return fail("unknown dtype '" + std::string(text_.substr(0, nameEnd)) + "' in annotation", 0);
  auto* tensor = context_.create<TensorType>();
  tensor->dtype = *dtype;
  pos_ = nameEnd;
  std::optional<std::span<const SymExpr>> sizes = parseList();
  if (!sizes)
    return *error_;
  tensor->sizes = *sizes;
  if (pos_ < text_.size() && text_[pos_] == '[') {
    std::optional<std::span<const SymExpr>> strides = parseList();
    if (!strides)
      return *error_;
    if (strides->size() != sizes->size())
      return fail("annotation has " + std::to_string(sizes->size()) + " sizes but " +
                      std::to_string(strides->size()) + " strides",
                  nameEnd);
    tensor->strides = *strides;
  }
  size_t deviceStart = pos_;
  while (pos_ < text_.size() && (isNameChar(text_[pos_]) || text_[pos_] == ':'))
    ++pos_;
  tensor->device = text_.substr(deviceStart, pos_ - deviceStart);
  if (pos_ < text_.size() && text_[pos_] == '@') {
    ++pos_;
    std::optional<SymExpr> offset = parseExpr(pos_, text_.size());
    if (!offset)
      return *error_;
    tensor->storageOffset = *offset;
    pos_ = text_.size();
  }
  if (pos_ != text_.size())
    return fail("unexpected text in tensor annotation", pos_);
  type.kind = TypeAnnotation::Kind::Tensor;
  type.tensor = tensor;
  return type;
}

std::optional<DType> AnnotationParser::lookUpDType(std::string_view abbreviation) {
  if (!lastAbbreviation_.empty() && abbreviation == lastAbbreviation_)
    return lastDType_;
  std::optional<DType> dtype = dtypeFromAbbreviation(abbreviation);
  if (dtype) {
    lastAbbreviation_.assign(abbreviation);
    lastDType_ = *dtype;
  }
  return dtype;
}

std::optional<int64_t> AnnotationParser::plainInteger() {
  size_t at = pos_;
  while (at < text_.size() && text_[at] == ' ')
    ++at;
  bool negative = at < text_.size() && text_[at] == '-';
  if (negative)
    ++at;
  size_t digits = at;
  int64_t value = 0;
  // 18 digits cannot overflow; longer numbers take the general path.
  while (at < text_.size() && text_[at] >= '0' && text_[at] <= '9' && at - digits < 18)
    value = value * 10 + (text_[at++] - '0');
  if (at == digits)
    return std::nullopt;
  while (at < text_.size() && text_[at] == ' ')
    ++at;
  if (at == text_.size() || (text_[at] != ',' && text_[at] != ']'))
    return std::nullopt;
  pos_ = at;
  return negative ? -value : value;
}

Error AnnotationParser::fail(std::string message, size_t offset) {
  error_ = Error{std::move(message), 0, static_cast<uint32_t>(offset + 1)};
  return *error_;
}

std::optional<SymExpr> AnnotationParser::parseExpr(size_t begin, size_t end) {
  while (begin < end && text_[begin] == ' ')
    ++begin;
  while (end > begin && text_[end - 1] == ' ')
    --end;
  std::string_view piece = text_.substr(begin, end - begin);
  if (piece.empty()) {
    fail("empty size or stride in annotation", begin);
    return std::nullopt;
  }
  // Most sizes are plain integers: skip the expression parser for them.
  int64_t value = 0;
  auto [ptr, ec] = std::from_chars(piece.data(), piece.data() + piece.size(), value);
  if (ec == std::errc() && ptr == piece.data() + piece.size())
    return SymExpr::constant(value);
  Result<SymExpr> expr = context_.sym().parse(piece);
  if (!expr.ok()) {
    uint32_t column = expr.error().column ? expr.error().column - 1 : 0;
    fail("in annotation: " + expr.error().message, begin + column);
    return std::nullopt;
  }
  return *expr;
}

std::optional<std::span<const SymExpr>> AnnotationParser::parseList() {
  size_t open = pos_;
  ++pos_; // '['
  items_.clear();
  int depth = 0;
  size_t itemStart = pos_;
  for (;; ++pos_) {
    // Sizes and strides are nearly always integers: read those without the loop below.
    if (pos_ == itemStart && depth == 0) {
      if (std::optional<int64_t> value = plainInteger()) {
        items_.push_back(SymExpr::constant(*value));
        itemStart = pos_ + 1;
        if (text_[pos_] == ']') {
          ++pos_;
          break;
        }
        continue;
      }
    }
    if (pos_ >= text_.size()) {
      fail("unterminated '[' in annotation", open);
      return std::nullopt;
    }
    char c = text_[pos_];
    if (c == '(') {
      ++depth;
    } else if (c == ')') {
      if (--depth < 0) {
        fail("unbalanced ')' in annotation", pos_);
        return std::nullopt;
      }
    } else if (depth == 0 && (c == ',' || c == ']')) {
      bool emptyList = c == ']' && items_.empty() && pos_ == open + 1;
      if (!emptyList) {
        std::optional<SymExpr> expr = parseExpr(itemStart, pos_);
        if (!expr)
          return std::nullopt;
        items_.push_back(*expr);
      }
      itemStart = pos_ + 1;
      if (c == ']') {
        ++pos_;
        break;
      }
    } else if (c == '[' || c == '"' || c == '\'') {
      fail("unexpected character in annotation", pos_);
      return std::nullopt;
    }
  }
  std::span<SymExpr> out = context_.allocate<SymExpr>(items_.size());
  std::copy(items_.begin(), items_.end(), out.begin());
  return std::span<const SymExpr>(out);
}

} // namespace declone::io

namespace declone {

Result<TypeAnnotation> parseTypeAnnotation(Context& context, std::string_view text) {
  return io::AnnotationParser(context).parse(text);
}

} // namespace declone
