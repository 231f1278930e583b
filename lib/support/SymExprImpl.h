// What the SymExpr sources share: the node layout, the polynomial views and SymContextImpl.
#pragma once

#include "declone/support/Arena.h"
#include "declone/support/OpenTable.h"
#include "declone/support/SymExpr.h"

#include <cassert>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <unordered_map>
#include <utility>

namespace declone::detail {

inline constexpr int64_t kInt64Min = std::numeric_limits<int64_t>::min();
inline constexpr int64_t kInt64Max = std::numeric_limits<int64_t>::max();

enum class SymKind : uint8_t {
  // Atoms: the factors of monomials.
  Symbol,
  Named, // a bare sympy constant spelled as a name: True, False, oo, ...
  FloorDiv,
  CeilDiv,
  Mod,
  Max,
  Min,
  Apply, // opaque function application Name(args...)
  Tuple, // (a, b, ...) as found in Piecewise arguments
  TrueDiv,
  Lt,
  Le,
  Gt,
  Ge,
  Eq,
  Ne,
  // Arithmetic kept unfolded because folding would overflow or blow up.
  OpAdd,
  OpMul,
  OpPow,
  // Not atoms.
  Monomial,
  Poly,
};

/// A polynomial term: coefficient times monomial (an atom standing for atom**1, or a Monomial).
struct Term {
  int64_t coef;
  const SymNode* mono;
};

/// A monomial factor: atom**exp with exp >= 1.
struct Factor {
  const SymNode* atom;
  int64_t exp;
};

// Operand arrays are hashed and compared as raw words, so they must have no padding.
static_assert(sizeof(Term) == 16 && std::has_unique_object_representations_v<Term>);
static_assert(sizeof(Factor) == 16 && std::has_unique_object_representations_v<Factor>);
static_assert(sizeof(SymExpr) == 16 && std::has_unique_object_representations_v<SymExpr>);
constexpr size_t kOperandSize = 16;

/// An interned node. Invariants (canonical form):
///  - Poly: `terms` non-empty, sorted by compareMonomials, with distinct monomials and non-zero
///    coefficients, and not just `1*atom` (that is the atom itself).
///  - Monomial: `factors` sorted by compareAtoms with distinct atoms, exp >= 1, and not a single
///    factor with exp 1 (that is the atom itself).
///  - Atoms: canonical argument SymExprs in `args`.
struct SymNode {
  SymKind kind;
  uint16_t depth;        // height of the tree below (saturating); constants have height 0
  uint32_t size;         // number of operands
  uint32_t weight;       // number of leaves of the tree when printed (saturating)
  size_t hash;           // structural hash (of the interning key)
  int64_t constant;      // Poly: the constant term
  std::string_view name; // Symbol, Named, Apply: the name (arena-owned)
  const void* ops;       // Term[size] / Factor[size] / SymExpr[size]

  bool isAtom() const { return kind < SymKind::Monomial; }
  std::span<const Term> terms() const { return {static_cast<const Term*>(ops), size}; }
  std::span<const Factor> factors() const { return {static_cast<const Factor*>(ops), size}; }
  std::span<const SymExpr> args() const { return {static_cast<const SymExpr*>(ops), size}; }
};

struct SymAccess {
  static const SymNode* node(SymExpr e) { return e.node_; }
  static int64_t value(SymExpr e) { return e.value_; }
  static SymExpr make(const SymNode* n) {
    SymExpr e;
    e.node_ = n;
    return e;
  }
};

inline uint64_t mix64(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  x ^= x >> 33;
  return x;
}

inline uint64_t uabs(int64_t v) {
  return v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
}

inline const SymNode* nodeOf(SymExpr e) {
  return SymAccess::node(e);
}
inline SymExpr exprOf(const SymNode* n) {
  return SymAccess::make(n);
}
inline int64_t valueOf(SymExpr e) {
  return SymAccess::value(e);
}
inline bool isKind(SymExpr e, SymKind k) {
  return nodeOf(e) && nodeOf(e)->kind == k;
}

//===----------------------------------------------------------------------===//
// Python integer semantics with overflow detection
//===----------------------------------------------------------------------===//

inline std::optional<int64_t> pyFloorDiv(int64_t a, int64_t b) {
  if (b == 0 || (a == kInt64Min && b == -1))
    return std::nullopt;
  int64_t q = a / b;
  if (a % b != 0 && ((a < 0) != (b < 0)))
    --q;
  return q;
}

inline std::optional<int64_t> pyCeilDiv(int64_t a, int64_t b) {
  if (b == 0 || (a == kInt64Min && b == -1))
    return std::nullopt;
  int64_t q = a / b;
  if (a % b != 0 && ((a < 0) == (b < 0)))
    ++q;
  return q;
}

inline std::optional<int64_t> pyMod(int64_t a, int64_t b) {
  if (b == 0)
    return std::nullopt;
  if (b == -1) // INT64_MIN % -1 is UB in C++ but 0 in Python.
    return 0;
  int64_t r = a % b;
  if (r != 0 && ((r < 0) != (b < 0)))
    r += b;
  return r;
}

/// base**exp for exp >= 0 by squaring (O(log exp) even for exp near INT64_MAX).
inline std::optional<int64_t> ipow(int64_t base, int64_t exp) {
  assert(exp >= 0);
  int64_t result = 1;
  while (exp > 0) {
    if ((exp & 1) && __builtin_mul_overflow(result, base, &result))
      return std::nullopt;
    exp >>= 1;
    // If base*base overflows while bits remain, the final product overflows as well.
    if (exp > 0 && __builtin_mul_overflow(base, base, &base))
      return std::nullopt;
  }
  return result;
}

/// A vector of trivially copyable values with inline storage, so that canonicalising short
/// expressions does not touch the heap.
template <class T, size_t N> class SmallVec {
  static_assert(std::is_trivially_copyable_v<T>);

public:
  SmallVec() = default;
  SmallVec(const SmallVec&) = delete;
  SmallVec& operator=(const SmallVec&) = delete;

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T* begin() { return data_; }
  T* end() { return data_ + size_; }
  const T* begin() const { return data_; }
  const T* end() const { return data_ + size_; }
  T& operator[](size_t i) { return data_[i]; }
  const T& operator[](size_t i) const { return data_[i]; }
  T& back() { return data_[size_ - 1]; }
  void pop_back() { --size_; }
  void clear() { size_ = 0; }
  void push_back(const T& v) {
    if (size_ == capacity_)
      grow();
    data_[size_++] = v;
  }
  std::span<const T> span() const { return {data_, size_}; }

private:
  void grow() {
    size_t newCapacity = capacity_ * 2;
    auto heap = std::make_unique<T[]>(newCapacity);
    std::memcpy(static_cast<void*>(heap.get()), data_, size_ * sizeof(T));
    heap_ = std::move(heap);
    data_ = heap_.get();
    capacity_ = newCapacity;
  }

  alignas(T) std::byte inline_[N * sizeof(T)];
  T* data_ = reinterpret_cast<T*>(inline_);
  size_t size_ = 0;
  size_t capacity_ = N;
  std::unique_ptr<T[]> heap_;
};

/// The identity of a node, used to look it up before allocating it.
struct NodeKey {
  SymKind kind;
  int64_t constant = 0;
  std::string_view name;
  const void* ops = nullptr;
  uint32_t size = 0;

  size_t hash() const {
    uint64_t h = mix64((static_cast<uint64_t>(kind) << 56) ^ static_cast<uint64_t>(constant));
    if (!name.empty())
      h = mix64(h ^ std::hash<std::string_view>{}(name));
    const auto* bytes = static_cast<const unsigned char*>(ops);
    for (size_t i = 0, n = size_t(size) * kOperandSize; i < n; i += 8) {
      uint64_t word;
      std::memcpy(&word, bytes + i, 8);
      h = mix64(h + word);
    }
    return h;
  }

  bool matches(const SymNode* n) const {
    return n->kind == kind && n->constant == constant && n->size == size && n->name == name &&
           (size == 0 || std::memcmp(n->ops, ops, size_t(size) * kOperandSize) == 0);
  }
};

/// Interned nodes are their own slots in the intern table.
struct NodeTraits {
  using Slot = const SymNode*;
  bool isEmpty(Slot n) const { return n == nullptr; }
  uint64_t hash(Slot n) const { return n->hash; }
  bool matches(Slot n, const NodeKey& key, uint64_t h) const {
    return n->hash == h && key.matches(n);
  }
};

/// Any expression seen as a polynomial `constant + sum(terms)`.
class PolyView {
public:
  explicit PolyView(SymExpr e) {
    const SymNode* n = nodeOf(e);
    if (!n) {
      constant_ = valueOf(e);
    } else if (n->kind == SymKind::Poly) {
      constant_ = n->constant;
      terms_ = n->terms();
    } else {
      single_ = {1, n};
      terms_ = {&single_, 1};
    }
  }
  PolyView(const PolyView&) = delete;
  PolyView& operator=(const PolyView&) = delete;

  int64_t constant() const { return constant_; }
  std::span<const Term> terms() const { return terms_; }
  /// Number of summands counting a non-zero constant.
  size_t numSummands() const { return terms_.size() + (constant_ != 0); }

private:
  int64_t constant_ = 0;
  Term single_{0, nullptr};
  std::span<const Term> terms_;
};

/// The factors of a monomial; an atom is its own single factor (stored in `storage`).
inline std::span<const Factor> factorsOf(const SymNode* mono, Factor& storage) {
  if (mono->kind == SymKind::Monomial)
    return mono->factors();
  storage = {mono, 1};
  return {&storage, 1};
}

//===----------------------------------------------------------------------===//
// Ordering (SymExprOrder.cpp)
//===----------------------------------------------------------------------===//

/// A deterministic total order approximating sympy's default_sort_key; 0 iff a == b.
int compareExprs(SymExpr a, SymExpr b);
/// compareExprs for two atoms.
int compareAtoms(const SymNode* a, const SymNode* b);
/// Order of terms in a sum: sympy's lex monomial order, descending, over the atoms sorted by
/// compareAtoms. Negative means `a` comes first; 0 iff a == b.
int compareMonomials(const SymNode* a, const SymNode* b);

//===----------------------------------------------------------------------===//
// The context: interning (SymExpr.cpp) and canonical arithmetic (SymExprAlgebra.cpp)
//===----------------------------------------------------------------------===//

/// Owns the nodes of a SymContext and makes every expression in canonical form.
struct SymContextImpl {
  SymContextImpl();

  /// The node `key` describes, made and interned if new.
  const SymNode* intern(const NodeKey& key);
  size_t numNodes() const { return table_.size(); }

  SymExpr symbol(std::string_view name);
  SymExpr atom(SymKind kind, std::span<const SymExpr> args, std::string_view name = {});
  SymExpr atom2(SymKind kind, SymExpr a, SymExpr b);
  /// Builds the canonical expression for `constant + sum(terms)`; `terms` must already be
  /// sorted by compareMonomials with distinct monomials and non-zero coefficients.
  SymExpr makePoly(int64_t constant, std::span<const Term> terms);
  /// Builds the canonical monomial for sorted, distinct factors.
  const SymNode* makeMonomial(std::span<const Factor> factors);

  SymExpr add(SymExpr a, SymExpr b);
  SymExpr sub(SymExpr a, SymExpr b);
  SymExpr mul(SymExpr a, SymExpr b);
  SymExpr neg(SymExpr a) { return mul(SymExpr::constant(-1), a); }
  /// The left-to-right fold of add/sub over `operands` (operand i negated if negate[i]),
  /// computed in one pass so that long sums take O(n log n) instead of O(n^2) time and space.
  SymExpr sum(std::span<const SymExpr> operands, std::span<const bool> negate);
  SymExpr floorDiv(SymExpr a, SymExpr b);
  SymExpr ceilDiv(SymExpr a, SymExpr b);
  SymExpr mod(SymExpr a, SymExpr b);
  SymExpr pow(SymExpr base, SymExpr exp);
  /// Max/Min: flattened, constants folded, deduplicated and sorted; a single argument is itself.
  SymExpr minMax(SymKind kind, std::span<const SymExpr> args);

  /// Declared lower bounds of symbols (SymContext::declareLowerBound), by symbol node.
  std::unordered_map<const SymNode*, int64_t> lowerBounds;

private:
  SymExpr opaqueCommutative(SymKind kind, SymExpr a, SymExpr b);
  std::optional<const SymNode*> mulMonomials(const SymNode* a, const SymNode* b);
  std::optional<SymExpr> tryAdd(SymExpr a, SymExpr b, bool subtract);
  std::optional<SymExpr> tryScale(SymExpr e, int64_t c);
  std::optional<SymExpr> tryMul(SymExpr a, SymExpr b);
  std::optional<SymExpr> trySum(std::span<const SymExpr> operands, std::span<const bool> negate);
  SymExpr divideExact(SymExpr e, int64_t g);
  std::pair<SymExpr, SymExpr> splitDivisible(SymExpr e, int64_t c);
  bool reduceByContent(SymExpr& a, SymExpr& b);

  Arena arena_;
  OpenTable<NodeTraits> table_;
};

} // namespace declone::detail
