// PyTorch operator schemas with alias annotations: the model, its queries and its parser.
#pragma once

#include "declone/support/Result.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace declone {

/// An alias annotation as PyTorch writes it (c10/core/alias_info.h): `(a)`, `(a!)`, `(a -> *)`,
/// `(a! -> a|b)`, or the `!` shorthand for a write to a set of its own.
struct AliasInfo {
  /// The wildcard set `*`: "may alias anything".
  static constexpr std::string_view kWildcard = "*";

  /// Sets the value belongs to before the op runs, in written order.
  std::vector<std::string> beforeSets;
  /// Sets it belongs to afterwards; equal to `beforeSets` unless `->` was written.
  std::vector<std::string> afterSets;
  bool isWrite = false;
  /// `->` was written; kept so that printing gives back the text that was parsed.
  bool hasArrow = false;
  /// Written as the bare `!` shorthand (`Tensor!`): the single before-set is a fresh name that
  /// no other value shares.
  bool isShorthand = false;

  [[nodiscard]] bool isWildcardBefore() const;
  [[nodiscard]] bool isWildcardAfter() const;
  [[nodiscard]] bool hasWildcard() const { return isWildcardBefore() || isWildcardAfter(); }
  /// True if some named (non-wildcard) before-set of `this` is a before-set of `other`.
  [[nodiscard]] bool sharesBeforeSetWith(const AliasInfo& other) const;
  /// `(a! -> a|b)`, `!`, or the empty string when there is nothing to print.
  [[nodiscard]] std::string toString() const;

  bool operator==(const AliasInfo&) const = default;
};

/// The type of an argument or a return: a classification that alias analysis needs plus the
/// spelling (without alias annotations) that printing needs.
struct SchemaType {
  enum class Kind : uint8_t {
    Tensor,             ///< `Tensor`
    TensorList,         ///< `Tensor[]`, `Tensor[]?`
    OptionalTensor,     ///< `Tensor?`
    OptionalTensorList, ///< `Tensor?[]`
    Other,              ///< everything else: `int`, `SymInt[]`, `Scalar`, `t`, `Dict(str, t)`, ...
  };
  Kind kind = Kind::Other;
  /// The element type for lists (`Tensor?` in `Tensor?[]`), else the whole type before a final
  /// `?`: `Tensor`, `int`, `(int, int)`, `Dict(str, Tensor)`, `__torch__.torch.classes.x.Y`.
  std::string element;
  /// `[]`, `[2]` or empty.
  std::string listSuffix;
  /// A `?` follows (after the list suffix, if any).
  bool optional = false;
  /// The value may hold tensors: the tensor kinds, `Any`, type variables (`t`), and lists,
  /// tuples, dicts and futures of those. Conservative alias analysis treats these like tensors.
  bool mayContainTensor = false;

  [[nodiscard]] bool isTensorLike() const { return kind != Kind::Other; }
  [[nodiscard]] bool isList() const { return !listSuffix.empty(); }
  /// The full spelling without alias annotations: `Tensor?[]`, `int[1]?`.
  [[nodiscard]] std::string text() const;

  bool operator==(const SchemaType&) const = default;
};

/// One argument or return of an operator.
struct SchemaArgument {
  /// Empty for unnamed returns.
  std::string name;
  SchemaType type;
  /// Annotation on the value itself: `Tensor(a!) self`, or on a list as a whole: `Tensor[](a!)`.
  std::optional<AliasInfo> alias;
  /// Annotation on the elements of a list: `Tensor(a!)[] self`, `-> Tensor(a)[]`.
  std::optional<AliasInfo> elementAlias;
  /// The default exactly as written (`1`, `-1`, `1e-05`, `None`, `[0, 1]`, `"mean"`, `long`).
  std::optional<std::string> defaultValue;
  /// Declared after `*`.
  bool kwargOnly = false;

  [[nodiscard]] bool isTensorLike() const { return type.isTensorLike(); }
  /// The value or (for lists) its elements are written.
  [[nodiscard]] bool isWrite() const;
  [[nodiscard]] bool hasWildcard() const;
  /// True if an annotation of `this` (value or elements) shares a named set with one of `other`.
  [[nodiscard]] bool sharesAliasSetWith(const SchemaArgument& other) const;
  /// `Tensor(a!) self`, `int[2] stride=1`, `Tensor(a)[]`.
  [[nodiscard]] std::string toString() const;

  bool operator==(const SchemaArgument&) const = default;
};

/// One operator overload: `ns::name.overload(arguments) -> returns`. Read-only queries answer what
/// alias analysis asks of a schema; `toString()` prints text that `parseSchema` reads back to an
/// equal schema.
struct OpSchema {
  std::string opNamespace; ///< "aten"; empty if the text had no `ns::`
  std::string name;        ///< "add_"
  std::string overload;    ///< "Tensor"; empty for PyTorch's "default" overload
  std::vector<SchemaArgument> arguments;
  std::vector<SchemaArgument> returns;
  bool isVararg = false; ///< `...` ends the arguments
  bool isVarret = false; ///< `...` ends the returns

  /// "aten::add_" (or "add_" without a namespace).
  [[nodiscard]] std::string qualifiedName() const;
  /// "aten::add_.Tensor"; "aten::clone" for the default overload.
  [[nodiscard]] std::string fullName() const;

  /// Some argument (or some element of a list argument) is written.
  [[nodiscard]] bool isMutable() const;
  [[nodiscard]] bool writesArgument(size_t argIndex) const;
  [[nodiscard]] std::optional<size_t> argumentIndex(std::string_view argName) const;
  /// The first argument whose annotation shares an alias set with return `returnIndex`
  /// (`aten::view` → `self`, `aten::add.out` → `out`, `aten::split.Tensor`'s `Tensor(a)[]` →
  /// `self`). Wildcards are not sets: a `*` alone yields no argument (see `hasWildcard()`).
  [[nodiscard]] std::optional<size_t> returnAliasesArgument(size_t returnIndex) const;
  /// Return `returnIndex` carries no alias annotation: it is a new value that aliases no input.
  [[nodiscard]] bool returnIsFresh(size_t returnIndex) const;
  /// Some annotation of an argument or a return contains `*`: alias analysis must be
  /// conservative for this op.
  [[nodiscard]] bool hasWildcard() const;
  [[nodiscard]] bool isTensorLike(size_t argIndex) const {
    return arguments[argIndex].isTensorLike();
  }

  [[nodiscard]] std::string toString() const;

  bool operator==(const OpSchema&) const = default;
};

/// Parses one schema in PyTorch's function schema language
/// (torch/csrc/jit/frontend/function_schema_parser.cpp). Errors carry line 1 and the 1-based
/// column of the offending token.
[[nodiscard]] Result<OpSchema> parseSchema(std::string_view text);

} // namespace declone
