// The parser of FX type annotations, kept by the reader for the whole text.
#pragma once

#include "declone/io/Reader.h"

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace declone::io {

/// Parses annotations ("DT[SIZES][STRIDES]DEVICE@OFFSET", "Sym(EXPR)", or verbatim) into one
/// Context. The reader keeps one for the whole text, so that its scratch list and its memo of
/// the last dtype outlive each annotation without being process state (they were thread_local).
class AnnotationParser {
public:
  explicit AnnotationParser(Context& context) : context_(context) {}

  /// parseTypeAnnotation: column numbers in the error are 1-based offsets into `text`.
  Result<TypeAnnotation> parse(std::string_view text);

private:
  Result<TypeAnnotation> parseTensor(TypeAnnotation& type, size_t nameEnd);
  /// dtypeFromAbbreviation, remembering the last answer: a graph's annotations use one or two
  /// dtypes, and the lookup compares against every dtype's name.
  std::optional<DType> lookUpDType(std::string_view abbreviation);
  /// The item of a list at pos_ when it is a plain integer such as ` 64` or `-1`, as parseExpr
  /// would read it, leaving pos_ at the ',' or ']' after it; nullopt (and pos_ unchanged) for
  /// anything else, which the character loop of parseList then reads.
  std::optional<int64_t> plainInteger();
  Error fail(std::string message, size_t offset);
  std::optional<SymExpr> parseExpr(size_t begin, size_t end);
  /// Parses `[e, e, ...]` at pos_, splitting on commas outside parentheses.
  std::optional<std::span<const SymExpr>> parseList();

  Context& context_;
  // The annotation being parsed.
  std::string_view text_;
  size_t pos_ = 0;
  std::optional<Error> error_;
  /// parseList's items, kept from annotation to annotation to save their allocation.
  std::vector<SymExpr> items_;
  std::string lastAbbreviation_;
  DType lastDType_{};
};

} // namespace declone::io
