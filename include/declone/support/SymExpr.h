// Canonical, hash-consed symbolic integer expressions in the spelling PyTorch's sympy prints.
#pragma once

#include "declone/support/Result.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <vector>

namespace declone {

class SymContext;

namespace detail {
struct SymNode;
struct SymAccess;
struct SymContextImpl;
} // namespace detail

/// A canonical symbolic integer expression owned by a SymContext.
///
/// A trivially copyable value passed in registers: every int64 constant is stored inline (so
/// `constant()` needs no context and never allocates), everything else is a pointer to a node
/// interned in its SymContext. Because nodes are hash-consed in canonical form, two expressions
/// of the same context are provably equal under the canonicalisation rules iff they compare
/// equal here, which is a two-word compare.
class SymExpr {
public:
  /// The constant 0.
  SymExpr() = default;

  [[nodiscard]] static constexpr SymExpr constant(int64_t v) {
    SymExpr e;
    e.value_ = v;
    return e;
  }

  [[nodiscard]] bool isConstant() const { return node_ == nullptr; }
  [[nodiscard]] std::optional<int64_t> constantValue() const {
    if (node_)
      return std::nullopt;
    return value_;
  }

  /// Canonical-form identity; only meaningful between expressions of the same context.
  friend bool operator==(SymExpr, SymExpr) = default;

  [[nodiscard]] size_t hash() const;

private:
  friend struct detail::SymAccess;

  // For a constant: its value and a null node; otherwise 0 and the interned node.
  int64_t value_ = 0;
  const detail::SymNode* node_ = nullptr;
};

static_assert(std::is_trivially_copyable_v<SymExpr>);

/// Owns, interns and canonicalises SymExprs; parses and prints sympy's str() spelling.
///
/// Expressions are kept as canonical polynomials: a constant plus a sum of (int64 coefficient x
/// monomial) terms, where a monomial is a sorted product of atoms with positive exponents and an
/// atom is a symbol or a function application (FloorDiv, CeilDiv, Mod, Max, Min, an opaque
/// function, a comparison, ...) with canonical arguments. Arithmetic whose constant folding would
/// overflow int64, or whose expansion would be unreasonably large, is kept unfolded as an opaque
/// atom rather than failing.
///
/// Not thread-safe; every SymExpr must only be used with the context that made it.
class SymContext {
public:
  SymContext();
  ~SymContext();
  SymContext(const SymContext&) = delete;
  SymContext& operator=(const SymContext&) = delete;
  /// Moving keeps every SymExpr valid (nodes do not move); a moved-from context may only be
  /// destroyed or assigned to.
  SymContext(SymContext&&) noexcept;
  SymContext& operator=(SymContext&&) noexcept;

  /// Parses a sympy str() expression as PyTorch prints it in FX graph dumps, e.g.
  /// `Min(16384, ((s72 + 1)//2))`. On failure the error has line 0 and the 1-based byte column
  /// within `text` of the problem.
  [[nodiscard]] Result<SymExpr> parse(std::string_view text);

  /// The symbol with the given name (which should be an identifier for printing to round-trip).
  [[nodiscard]] SymExpr symbol(std::string_view name);

  [[nodiscard]] SymExpr add(SymExpr a, SymExpr b);
  [[nodiscard]] SymExpr sub(SymExpr a, SymExpr b);
  [[nodiscard]] SymExpr mul(SymExpr a, SymExpr b);
  [[nodiscard]] SymExpr neg(SymExpr a);
  /// The sum of all operands (0 if none); equal to folding add() but O(n log n) for long sums.
  [[nodiscard]] SymExpr sum(std::span<const SymExpr> operands);
  /// Python `a // b` (rounds toward -inf).
  [[nodiscard]] SymExpr floorDiv(SymExpr a, SymExpr b);
  /// Python `a % b` (takes the sign of b).
  [[nodiscard]] SymExpr mod(SymExpr a, SymExpr b);
  /// ceil(a / b), PyTorch's CeilDiv.
  [[nodiscard]] SymExpr ceilDiv(SymExpr a, SymExpr b);
  /// `base ** exp`; expanded when exp is a small non-negative constant, otherwise opaque.
  [[nodiscard]] SymExpr pow(SymExpr base, SymExpr exp);
  [[nodiscard]] SymExpr max(SymExpr a, SymExpr b);
  [[nodiscard]] SymExpr min(SymExpr a, SymExpr b);

  /// Prints in sympy's str() spelling as PyTorch shows it: `64*s16*s82`, `s72 - 1`,
  /// `((s72 + 1)//2)`, `Max(1, (s27//2))`. parse(print(e)) == e for every e that parse()
  /// returns, and for built expressions up to the parser's depth limit (about 127 levels).
  [[nodiscard]] std::string print(SymExpr e) const;
  /// Appends the printed form of `e` to `out`.
  void print(SymExpr e, std::string& out) const;

  /// The value under the given symbol bindings with Python integer semantics (floor division
  /// and modulo round toward -inf; comparisons yield 0 or 1). nullopt if a symbol is unbound, on
  /// division by zero, on int64 overflow, or for an opaque function it cannot evaluate.
  [[nodiscard]] std::optional<int64_t>
  evaluate(SymExpr e, const std::unordered_map<std::string, int64_t>& bindings) const;

  /// Appends the distinct symbol names occurring in `e` (in no particular order).
  void collectSymbols(SymExpr e, std::vector<std::string>& out) const;

  /// Declares that the symbol `name` is at least `bound` wherever it occurs; of two declarations
  /// the larger bound holds. Undeclared symbols are unbounded. declareSizeRanges (Graph.h)
  /// declares what PyTorch guarantees of a graph's sizes.
  void declareLowerBound(std::string_view name, int64_t bound);
  /// A lower bound of `e` over every value its symbols can take under the declared bounds, or
  /// nullopt when none follows: with s0 declared at least 2, `64*s0 - 64` is at least 64.
  [[nodiscard]] std::optional<int64_t> lowerBound(SymExpr e) const;
  /// `e` with every Max or Min that those bounds settle replaced by its value: `Max(1, s0)` is
  /// `s0` and `Max(1, (s27//2))` is `(s27//2)` for sizes s0 and s27 at least 2, while
  /// `Max(1, u0)` stays when u0 may be 0.
  [[nodiscard]] SymExpr simplifyForSizes(SymExpr e);

  [[nodiscard]] bool isSymbol(SymExpr e) const;
  /// The name of a symbol (valid as long as the context), or nullopt if `e` is not a symbol.
  [[nodiscard]] std::optional<std::string_view> symbolName(SymExpr e) const;

  /// A deterministic total order approximating sympy's default_sort_key (constants first, then
  /// symbols by name, then compound expressions); 0 iff a == b. Independent of allocation order.
  [[nodiscard]] int compare(SymExpr a, SymExpr b) const;

  /// Number of distinct interned nodes (for tests and statistics).
  [[nodiscard]] size_t numNodes() const;

private:
  std::unique_ptr<detail::SymContextImpl> impl_;
};

} // namespace declone

template <> struct std::hash<declone::SymExpr> {
  size_t operator()(declone::SymExpr e) const noexcept { return e.hash(); }
};
