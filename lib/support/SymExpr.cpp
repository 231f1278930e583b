// Canonical, hash-consed symbolic integer expressions: interning, folding, parsing and printing.
#include "declone/support/SymExpr.h"

#include <algorithm>
#include <cassert>
#include <charconv>
#include <cstring>
#include <limits>
#include <numeric>
#include <span>
#include <unordered_set>

namespace declone {
namespace detail {
namespace {

constexpr int64_t kInt64Min = std::numeric_limits<int64_t>::min();
constexpr int64_t kInt64Max = std::numeric_limits<int64_t>::max();

/// Products with more (term x term) pairs than this stay unexpanded, so that adversarial input
/// like `(a + b)*(c + d)*(e + f)*...` cannot blow up exponentially.
constexpr size_t kMaxProductTerms = 4096;
/// Products whose expansion would print more than this many leaves stay unexpanded. Expansion
/// repeats atoms (`(A + 1)**2` is `A**2 + 2*A + 1`), so without this, nesting squares like
/// `((A + 1)**2 + 1)**2 ...` would grow exponentially in the length of the input.
constexpr uint64_t kMaxExpandedWeight = uint64_t(1) << 15;
/// `p**n` for a multi-term p is expanded only up to this exponent.
constexpr int64_t kMaxExpandExponent = 64;
/// Parser nesting limit (parentheses, calls, prefix operators, exponents): bounds recursion.
constexpr int kMaxNesting = 256;
/// Limit on the depth of parsed expression trees. Operator chains like `a//b//c//...` nest
/// without parentheses, and printing adds at most two levels of textual nesting per tree level
/// (e.g. `((x//2))` as a factor), so this keeps every parse result printable within
/// kMaxNesting and thereby re-parseable.
constexpr int kMaxDepth = (kMaxNesting - 2) / 2;

} // namespace

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

namespace {

uint64_t mix64(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  x ^= x >> 33;
  return x;
}

uint64_t uabs(int64_t v) {
  return v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
}

const SymNode* nodeOf(SymExpr e) {
  return SymAccess::node(e);
}
SymExpr exprOf(const SymNode* n) {
  return SymAccess::make(n);
}
int64_t valueOf(SymExpr e) {
  return SymAccess::value(e);
}
bool isKind(SymExpr e, SymKind k) {
  return nodeOf(e) && nodeOf(e)->kind == k;
}

//===----------------------------------------------------------------------===//
// Python integer semantics with overflow detection
//===----------------------------------------------------------------------===//

std::optional<int64_t> pyFloorDiv(int64_t a, int64_t b) {
  if (b == 0 || (a == kInt64Min && b == -1))
    return std::nullopt;
  int64_t q = a / b;
  if (a % b != 0 && ((a < 0) != (b < 0)))
    --q;
  return q;
}

std::optional<int64_t> pyCeilDiv(int64_t a, int64_t b) {
  if (b == 0 || (a == kInt64Min && b == -1))
    return std::nullopt;
  int64_t q = a / b;
  if (a % b != 0 && ((a < 0) == (b < 0)))
    ++q;
  return q;
}

std::optional<int64_t> pyMod(int64_t a, int64_t b) {
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
std::optional<int64_t> ipow(int64_t base, int64_t exp) {
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

//===----------------------------------------------------------------------===//
// Small containers
//===----------------------------------------------------------------------===//

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

/// Bump allocator for nodes, operand arrays and names; everything in it is trivially
/// destructible and lives as long as the context.
class Arena {
public:
  void* allocate(size_t bytes, size_t align) {
    size_t adjust = (align - (reinterpret_cast<uintptr_t>(cur_) & (align - 1))) & (align - 1);
    if (cur_ == nullptr || bytes + adjust > left_) {
      size_t chunk = std::max(bytes + align, kChunkSize);
      chunks_.push_back(std::make_unique<std::byte[]>(chunk));
      cur_ = chunks_.back().get();
      left_ = chunk;
      adjust = (align - (reinterpret_cast<uintptr_t>(cur_) & (align - 1))) & (align - 1);
    }
    std::byte* p = cur_ + adjust;
    cur_ = p + bytes;
    left_ -= bytes + adjust;
    return p;
  }

private:
  static constexpr size_t kChunkSize = 64 * 1024;
  std::vector<std::unique_ptr<std::byte[]>> chunks_;
  std::byte* cur_ = nullptr;
  size_t left_ = 0;
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

/// Open-addressing hash set of interned nodes (linear probing, load factor <= 1/2).
class InternTable {
public:
  InternTable() : slots_(256, nullptr) {}

  const SymNode* find(const NodeKey& key, size_t hash) const {
    size_t mask = slots_.size() - 1;
    for (size_t i = hash & mask;; i = (i + 1) & mask) {
      const SymNode* n = slots_[i];
      if (!n)
        return nullptr;
      if (n->hash == hash && key.matches(n))
        return n;
    }
  }

  void insert(const SymNode* node) {
    if ((count_ + 1) * 2 > slots_.size())
      rehash(slots_.size() * 2);
    place(node);
    ++count_;
  }

  size_t size() const { return count_; }

private:
  void place(const SymNode* node) {
    size_t mask = slots_.size() - 1;
    size_t i = node->hash & mask;
    while (slots_[i])
      i = (i + 1) & mask;
    slots_[i] = node;
  }

  void rehash(size_t newSize) {
    std::vector<const SymNode*> old(newSize, nullptr);
    old.swap(slots_);
    for (const SymNode* n : old)
      if (n)
        place(n);
  }

  std::vector<const SymNode*> slots_;
  size_t count_ = 0;
};

//===----------------------------------------------------------------------===//
// Views
//===----------------------------------------------------------------------===//

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
std::span<const Factor> factorsOf(const SymNode* mono, Factor& storage) {
  if (mono->kind == SymKind::Monomial)
    return mono->factors();
  storage = {mono, 1};
  return {&storage, 1};
}

//===----------------------------------------------------------------------===//
// Ordering (approximates sympy's default_sort_key)
//===----------------------------------------------------------------------===//

struct ClassKey {
  int major;
  int minor;
  std::string_view name;
};

ClassKey atomClass(const SymNode* n) {
  switch (n->kind) {
  case SymKind::Symbol:
    return {2, 0, "Symbol"};
  case SymKind::Named:
    return {2, 1, n->name};
  case SymKind::OpPow:
    return {3, 2, "Pow"};
  case SymKind::OpMul:
    return {3, 3, "Mul"};
  case SymKind::OpAdd:
    return {3, 4, "Add"};
  case SymKind::FloorDiv:
    return {4, 0, "FloorDiv"};
  case SymKind::CeilDiv:
    return {4, 0, "CeilDiv"};
  case SymKind::Mod:
    return {4, 0, "Mod"};
  case SymKind::Max:
    return {4, 0, "Max"};
  case SymKind::Min:
    return {4, 0, "Min"};
  case SymKind::Apply:
    return {4, 0, n->name};
  case SymKind::Tuple:
    return {5, 0, "Tuple"};
  case SymKind::TrueDiv:
    return {5, 1, "/"};
  case SymKind::Lt:
    return {6, 0, "<"};
  case SymKind::Le:
    return {6, 0, "<="};
  case SymKind::Gt:
    return {6, 0, ">"};
  case SymKind::Ge:
    return {6, 0, ">="};
  case SymKind::Eq:
    return {6, 0, "=="};
  case SymKind::Ne:
    return {6, 0, "!="};
  case SymKind::Monomial:
  case SymKind::Poly:
    break;
  }
  assert(false && "not an atom");
  return {0, 0, ""};
}

/// An expression in the shape sympy's sort key sees it: coef * base**exp.
struct SortView {
  enum Shape : uint8_t { Number, AtomPow, Product, Sum } shape;
  int64_t coef;        // Number: the value
  const SymNode* node; // AtomPow: the atom; Product: the Monomial; Sum: the Poly
  int64_t exp;
};

SortView termView(int64_t coef, const SymNode* mono) {
  if (mono->isAtom())
    return {SortView::AtomPow, coef, mono, 1};
  if (mono->size == 1)
    return {SortView::AtomPow, coef, mono->factors()[0].atom, mono->factors()[0].exp};
  return {SortView::Product, coef, mono, 1};
}

SortView exprView(SymExpr e) {
  const SymNode* n = nodeOf(e);
  if (!n)
    return {SortView::Number, valueOf(e), nullptr, 1};
  if (n->isAtom())
    return {SortView::AtomPow, 1, n, 1};
  if (n->constant == 0 && n->size == 1)
    return termView(n->terms()[0].coef, n->terms()[0].mono);
  return {SortView::Sum, 1, n, 1};
}

ClassKey viewClass(const SortView& v) {
  switch (v.shape) {
  case SortView::Number:
    return {1, 0, "Number"};
  case SortView::AtomPow:
    return atomClass(v.node);
  case SortView::Product:
    return {3, 0, "Mul"};
  case SortView::Sum:
    return {3, 1, "Add"};
  }
  return {0, 0, ""};
}

template <class T> int cmp3(const T& a, const T& b) {
  return a < b ? -1 : (b < a ? 1 : 0);
}

int compareViews(const SortView& x, const SortView& y);

int compareExprs(SymExpr a, SymExpr b) {
  if (a == b)
    return 0;
  return compareViews(exprView(a), exprView(b));
}

/// Compares two atoms of the same class by their arguments.
int compareAtomArgs(const SymNode* a, const SymNode* b) {
  if (a == b)
    return 0;
  if (a->kind != b->kind)
    return cmp3(a->kind, b->kind);
  if (a->kind == SymKind::Symbol || a->kind == SymKind::Named)
    return cmp3(a->name, b->name);
  if (int c = cmp3(a->name, b->name))
    return c;
  if (int c = cmp3(a->size, b->size))
    return c;
  for (size_t i = 0; i < a->size; ++i)
    if (int c = compareExprs(a->args()[i], b->args()[i]))
      return c;
  return 0;
}

int compareViews(const SortView& x, const SortView& y) {
  ClassKey kx = viewClass(x), ky = viewClass(y);
  if (int c = cmp3(kx.major, ky.major))
    return c;
  if (int c = cmp3(kx.minor, ky.minor))
    return c;
  if (int c = cmp3(kx.name, ky.name))
    return c;
  // Same class, hence the same shape.
  switch (x.shape) {
  case SortView::Number:
    return cmp3(x.coef, y.coef);
  case SortView::AtomPow:
    if (int c = compareAtomArgs(x.node, y.node))
      return c;
    break;
  case SortView::Product: {
    if (int c = cmp3(x.node->size, y.node->size))
      return c;
    for (size_t i = 0; i < x.node->size; ++i) {
      const Factor& fx = x.node->factors()[i];
      const Factor& fy = y.node->factors()[i];
      if (int c = compareViews({SortView::AtomPow, 1, fx.atom, fx.exp},
                               {SortView::AtomPow, 1, fy.atom, fy.exp}))
        return c;
    }
    break;
  }
  case SortView::Sum: {
    const SymNode* a = x.node;
    const SymNode* b = y.node;
    size_t na = a->size + (a->constant != 0), nb = b->size + (b->constant != 0);
    if (int c = cmp3(na, nb))
      return c;
    for (size_t i = 0; i < na; ++i) {
      SortView va = i < a->size ? termView(a->terms()[i].coef, a->terms()[i].mono)
                                : SortView{SortView::Number, a->constant, nullptr, 1};
      SortView vb = i < b->size ? termView(b->terms()[i].coef, b->terms()[i].mono)
                                : SortView{SortView::Number, b->constant, nullptr, 1};
      if (int c = compareViews(va, vb))
        return c;
    }
    break;
  }
  }
  if (int c = cmp3(x.exp, y.exp))
    return c;
  return cmp3(x.coef, y.coef);
}

int compareAtoms(const SymNode* a, const SymNode* b) {
  if (a == b)
    return 0;
  return compareViews({SortView::AtomPow, 1, a, 1}, {SortView::AtomPow, 1, b, 1});
}

/// Order of terms in a sum: sympy's lex monomial order, descending, over the atoms sorted by
/// compareAtoms. Negative means `a` comes first; 0 iff a == b.
int compareMonomials(const SymNode* a, const SymNode* b) {
  if (a == b)
    return 0;
  Factor sa, sb;
  std::span<const Factor> fa = factorsOf(a, sa), fb = factorsOf(b, sb);
  for (size_t i = 0, n = std::min(fa.size(), fb.size()); i < n; ++i) {
    // The smaller atom has a positive exponent where the other monomial has none.
    if (int c = compareAtoms(fa[i].atom, fb[i].atom))
      return c;
    if (fa[i].exp != fb[i].exp)
      return fa[i].exp > fb[i].exp ? -1 : 1;
  }
  return fa.size() > fb.size() ? -1 : 1;
}

int atomPrecedence(SymKind k) {
  switch (k) {
  case SymKind::Symbol:
  case SymKind::Named:
  case SymKind::Tuple:
    return 1000;
  case SymKind::CeilDiv:
  case SymKind::Mod:
  case SymKind::Max:
  case SymKind::Min:
  case SymKind::Apply:
    return 70;
  case SymKind::OpPow:
    return 60;
  case SymKind::FloorDiv:
  case SymKind::TrueDiv:
  case SymKind::OpMul:
    return 50;
  case SymKind::OpAdd:
    return 40;
  case SymKind::Lt:
  case SymKind::Le:
  case SymKind::Gt:
  case SymKind::Ge:
  case SymKind::Eq:
  case SymKind::Ne:
    return 35;
  case SymKind::Monomial:
  case SymKind::Poly:
    break;
  }
  return 1000;
}

bool isComparison(SymKind k) {
  return k >= SymKind::Lt && k <= SymKind::Ne;
}

/// Infix atoms whose printed operands would re-associate with a neighbouring operator.
bool isInfixAtom(SymKind k) {
  return k == SymKind::TrueDiv || k == SymKind::OpAdd || k == SymKind::OpMul || isComparison(k);
}

std::string_view infixSpelling(SymKind k) {
  switch (k) {
  case SymKind::TrueDiv:
    return "/";
  case SymKind::OpAdd:
    return " + ";
  case SymKind::OpMul:
    return "*";
  case SymKind::OpPow:
    return "**";
  case SymKind::Lt:
    return " < ";
  case SymKind::Le:
    return " <= ";
  case SymKind::Gt:
    return " > ";
  case SymKind::Ge:
    return " >= ";
  case SymKind::Eq:
    return " == ";
  case SymKind::Ne:
    return " != ";
  default:
    return "";
  }
}

std::string_view functionName(const SymNode* n) {
  switch (n->kind) {
  case SymKind::CeilDiv:
    return "CeilDiv";
  case SymKind::Mod:
    return "Mod";
  case SymKind::Max:
    return "Max";
  case SymKind::Min:
    return "Min";
  default:
    return n->name;
  }
}

bool isNamedConstant(std::string_view name) {
  return name == "True" || name == "False" || name == "oo" || name == "int_oo" || name == "zoo" ||
         name == "nan";
}

} // namespace

//===----------------------------------------------------------------------===//
// The context implementation: interning and canonicalisation
//===----------------------------------------------------------------------===//

struct SymContextImpl {
  Arena arena;
  InternTable table;

  const SymNode* intern(const NodeKey& key) {
    size_t h = key.hash();
    if (const SymNode* n = table.find(key, h))
      return n;
    auto* node = new (arena.allocate(sizeof(SymNode), alignof(SymNode))) SymNode();
    node->kind = key.kind;
    measure(key, node->depth, node->weight);
    node->size = key.size;
    node->hash = h;
    node->constant = key.constant;
    if (!key.name.empty()) {
      auto* chars = static_cast<char*>(arena.allocate(key.name.size(), 1));
      std::memcpy(chars, key.name.data(), key.name.size());
      node->name = {chars, key.name.size()};
    }
    if (key.size != 0) {
      size_t bytes = size_t(key.size) * kOperandSize;
      void* ops = arena.allocate(bytes, alignof(SymExpr));
      std::memcpy(ops, key.ops, bytes);
      node->ops = ops;
    }
    table.insert(node);
    return node;
  }

  /// Height and printed weight of the node `key` describes.
  static void measure(const NodeKey& key, uint16_t& depth, uint32_t& weight) {
    unsigned below = 0;
    uint64_t leaves = 1;
    for (uint32_t i = 0; i < key.size; ++i) {
      const SymNode* child;
      if (key.kind == SymKind::Poly)
        child = static_cast<const Term*>(key.ops)[i].mono;
      else if (key.kind == SymKind::Monomial)
        child = static_cast<const Factor*>(key.ops)[i].atom;
      else
        child = nodeOf(static_cast<const SymExpr*>(key.ops)[i]);
      leaves += 1 + (child ? child->weight : 0);
      if (child)
        below = std::max<unsigned>(below, child->depth);
    }
    depth = static_cast<uint16_t>(std::min<unsigned>(below + 1, UINT16_MAX));
    weight = static_cast<uint32_t>(std::min<uint64_t>(leaves, UINT32_MAX));
  }

  SymExpr symbol(std::string_view name) {
    return exprOf(intern({SymKind::Symbol, 0, name, nullptr, 0}));
  }

  SymExpr atom(SymKind kind, std::span<const SymExpr> args, std::string_view name = {}) {
    return exprOf(intern({kind, 0, name, args.data(), static_cast<uint32_t>(args.size())}));
  }

  SymExpr atom2(SymKind kind, SymExpr a, SymExpr b) {
    SymExpr args[2] = {a, b};
    return atom(kind, args);
  }

  /// An unfolded commutative operation with its operands in canonical order.
  SymExpr opaqueCommutative(SymKind kind, SymExpr a, SymExpr b) {
    if (compareExprs(b, a) < 0)
      std::swap(a, b);
    return atom2(kind, a, b);
  }

  /// Builds the canonical expression for `constant + sum(terms)`; `terms` must already be
  /// sorted by compareMonomials with distinct monomials and non-zero coefficients.
  SymExpr makePoly(int64_t constant, std::span<const Term> terms) {
    if (terms.empty())
      return SymExpr::constant(constant);
    if (constant == 0 && terms.size() == 1 && terms[0].coef == 1 && terms[0].mono->isAtom())
      return exprOf(terms[0].mono);
    return exprOf(
        intern({SymKind::Poly, constant, {}, terms.data(), static_cast<uint32_t>(terms.size())}));
  }

  /// Builds the canonical monomial for sorted, distinct factors.
  const SymNode* makeMonomial(std::span<const Factor> factors) {
    assert(!factors.empty());
    if (factors.size() == 1 && factors[0].exp == 1)
      return factors[0].atom;
    return intern(
        {SymKind::Monomial, 0, {}, factors.data(), static_cast<uint32_t>(factors.size())});
  }

  std::optional<const SymNode*> mulMonomials(const SymNode* a, const SymNode* b) {
    Factor sa, sb;
    std::span<const Factor> fa = factorsOf(a, sa), fb = factorsOf(b, sb);
    SmallVec<Factor, 8> out;
    size_t i = 0, j = 0;
    while (i < fa.size() || j < fb.size()) {
      int c = i == fa.size() ? 1 : j == fb.size() ? -1 : compareAtoms(fa[i].atom, fb[j].atom);
      if (c < 0) {
        out.push_back(fa[i++]);
      } else if (c > 0) {
        out.push_back(fb[j++]);
      } else {
        int64_t e;
        if (__builtin_add_overflow(fa[i].exp, fb[j].exp, &e))
          return std::nullopt;
        out.push_back({fa[i].atom, e});
        ++i;
        ++j;
      }
    }
    return makeMonomial(out.span());
  }

  /// a + b (or a - b); nullopt if a coefficient overflows.
  std::optional<SymExpr> tryAdd(SymExpr a, SymExpr b, bool subtract) {
    PolyView pa(a), pb(b);
    int64_t constant;
    if (subtract ? __builtin_sub_overflow(pa.constant(), pb.constant(), &constant)
                 : __builtin_add_overflow(pa.constant(), pb.constant(), &constant))
      return std::nullopt;
    std::span<const Term> ta = pa.terms(), tb = pb.terms();
    SmallVec<Term, 8> out;
    size_t i = 0, j = 0;
    while (i < ta.size() || j < tb.size()) {
      int c = i == ta.size() ? 1 : j == tb.size() ? -1 : compareMonomials(ta[i].mono, tb[j].mono);
      if (c < 0) {
        out.push_back(ta[i++]);
      } else if (c > 0) {
        Term t = tb[j++];
        if (subtract && __builtin_sub_overflow(int64_t(0), t.coef, &t.coef))
          return std::nullopt;
        out.push_back(t);
      } else {
        int64_t s;
        if (subtract ? __builtin_sub_overflow(ta[i].coef, tb[j].coef, &s)
                     : __builtin_add_overflow(ta[i].coef, tb[j].coef, &s))
          return std::nullopt;
        if (s != 0)
          out.push_back({s, ta[i].mono});
        ++i;
        ++j;
      }
    }
    return makePoly(constant, out.span());
  }

  /// e * c; nullopt on overflow.
  std::optional<SymExpr> tryScale(SymExpr e, int64_t c) {
    if (c == 0)
      return SymExpr();
    if (c == 1)
      return e;
    PolyView p(e);
    int64_t constant;
    if (__builtin_mul_overflow(p.constant(), c, &constant))
      return std::nullopt;
    SmallVec<Term, 8> out;
    for (const Term& t : p.terms()) {
      Term s{0, t.mono};
      if (__builtin_mul_overflow(t.coef, c, &s.coef))
        return std::nullopt;
      out.push_back(s);
    }
    return makePoly(constant, out.span());
  }

  /// a * b expanded; nullopt on overflow or if the expansion would be too large.
  std::optional<SymExpr> tryMul(SymExpr a, SymExpr b) {
    if (a.isConstant())
      return tryScale(b, valueOf(a));
    if (b.isConstant())
      return tryScale(a, valueOf(b));
    PolyView pa(a), pb(b);
    if (pa.numSummands() * pb.numSummands() > kMaxProductTerms)
      return std::nullopt;
    SmallVec<Term, 16> products;
    for (const Term& x : pa.terms()) {
      for (const Term& y : pb.terms()) {
        Term t;
        if (__builtin_mul_overflow(x.coef, y.coef, &t.coef))
          return std::nullopt;
        std::optional<const SymNode*> mono = mulMonomials(x.mono, y.mono);
        if (!mono)
          return std::nullopt;
        t.mono = *mono;
        products.push_back(t);
      }
      if (pb.constant() != 0) {
        Term t{0, x.mono};
        if (__builtin_mul_overflow(x.coef, pb.constant(), &t.coef))
          return std::nullopt;
        products.push_back(t);
      }
    }
    if (pa.constant() != 0) {
      for (const Term& y : pb.terms()) {
        Term t{0, y.mono};
        if (__builtin_mul_overflow(pa.constant(), y.coef, &t.coef))
          return std::nullopt;
        products.push_back(t);
      }
    }
    int64_t constant;
    if (__builtin_mul_overflow(pa.constant(), pb.constant(), &constant))
      return std::nullopt;
    std::sort(products.begin(), products.end(),
              [](const Term& x, const Term& y) { return compareMonomials(x.mono, y.mono) < 0; });
    SmallVec<Term, 16> merged;
    for (const Term& t : products) {
      if (!merged.empty() && merged.back().mono == t.mono) {
        if (__builtin_add_overflow(merged.back().coef, t.coef, &merged.back().coef))
          return std::nullopt;
      } else {
        merged.push_back(t);
      }
    }
    SmallVec<Term, 16> out;
    uint64_t weight = 1;
    for (const Term& t : merged) {
      if (t.coef != 0) {
        out.push_back(t);
        weight += 1 + t.mono->weight;
      }
    }
    if (weight > kMaxExpandedWeight)
      return std::nullopt;
    return makePoly(constant, out.span());
  }

  SymExpr add(SymExpr a, SymExpr b) {
    if (a.isConstant() && b.isConstant()) {
      int64_t s;
      if (!__builtin_add_overflow(valueOf(a), valueOf(b), &s))
        return SymExpr::constant(s);
    } else if (std::optional<SymExpr> r = tryAdd(a, b, /*subtract=*/false)) {
      return *r;
    }
    return opaqueCommutative(SymKind::OpAdd, a, b);
  }

  SymExpr sub(SymExpr a, SymExpr b) {
    if (std::optional<SymExpr> r = tryAdd(a, b, /*subtract=*/true))
      return *r;
    // Fall back to what parsing the printed `a + (-b)` would produce.
    return add(a, neg(b));
  }

  /// The left-to-right fold of add/sub over `operands` (operand i negated if negate[i]),
  /// computed in one pass so that long sums take O(n log n) instead of O(n^2) time and space.
  SymExpr sum(std::span<const SymExpr> operands, std::span<const bool> negate) {
    assert(!operands.empty() && operands.size() == negate.size());
    if (std::optional<SymExpr> r = trySum(operands, negate))
      return *r;
    // Some partial sum overflows: replay the fold to get exactly its unfolded atoms.
    SymExpr acc = negate[0] ? neg(operands[0]) : operands[0];
    for (size_t i = 1; i < operands.size(); ++i)
      acc = negate[i] ? sub(acc, operands[i]) : add(acc, operands[i]);
    return acc;
  }

  /// sum() without overflow. Accumulating each monomial's coefficients in operand order checks
  /// the same partial sums as the pairwise fold, so both succeed or fail together.
  std::optional<SymExpr> trySum(std::span<const SymExpr> operands, std::span<const bool> negate) {
    struct Summand {
      int64_t coef;
      const SymNode* mono;
      uint32_t operand;
      bool negate;
    };
    SmallVec<Summand, 16> summands;
    int64_t constant = 0;
    for (size_t i = 0; i < operands.size(); ++i) {
      PolyView p(operands[i]);
      if (negate[i] ? __builtin_sub_overflow(constant, p.constant(), &constant)
                    : __builtin_add_overflow(constant, p.constant(), &constant))
        return std::nullopt;
      for (const Term& t : p.terms())
        summands.push_back({t.coef, t.mono, static_cast<uint32_t>(i), negate[i]});
    }
    std::sort(summands.begin(), summands.end(), [](const Summand& x, const Summand& y) {
      int c = compareMonomials(x.mono, y.mono);
      return c != 0 ? c < 0 : x.operand < y.operand;
    });
    SmallVec<Term, 16> out;
    for (size_t i = 0; i < summands.size();) {
      const SymNode* mono = summands[i].mono;
      int64_t coef = 0;
      for (; i < summands.size() && summands[i].mono == mono; ++i) {
        if (summands[i].negate ? __builtin_sub_overflow(coef, summands[i].coef, &coef)
                               : __builtin_add_overflow(coef, summands[i].coef, &coef))
          return std::nullopt;
      }
      if (coef != 0)
        out.push_back({coef, mono});
    }
    return makePoly(constant, out.span());
  }

  SymExpr mul(SymExpr a, SymExpr b) {
    if (std::optional<SymExpr> r = tryMul(a, b))
      return *r;
    return opaqueCommutative(SymKind::OpMul, a, b);
  }

  SymExpr neg(SymExpr a) { return mul(SymExpr::constant(-1), a); }

  /// Greatest common divisor of all coefficients (and the constant) of `e`, combined with `g`.
  static uint64_t contentGcd(SymExpr e, uint64_t g) {
    PolyView p(e);
    g = std::gcd(g, uabs(p.constant()));
    for (const Term& t : p.terms())
      g = std::gcd(g, uabs(t.coef));
    return g;
  }

  /// e / g for a g that divides every coefficient of e.
  SymExpr divideExact(SymExpr e, int64_t g) {
    if (g == 1)
      return e;
    PolyView p(e);
    SmallVec<Term, 8> out;
    for (const Term& t : p.terms())
      out.push_back({t.coef / g, t.mono});
    return makePoly(p.constant() / g, out.span());
  }

  /// Splits e into (sum of the terms whose coefficient c divides, divided by c; the rest).
  /// The constant counts as a term.
  std::pair<SymExpr, SymExpr> splitDivisible(SymExpr e, int64_t c) {
    PolyView p(e);
    SmallVec<Term, 8> quotient, rest;
    for (const Term& t : p.terms()) {
      if (t.coef % c == 0)
        quotient.push_back({t.coef / c, t.mono});
      else
        rest.push_back(t);
    }
    bool constantDivides = p.constant() % c == 0;
    return {makePoly(constantDivides ? p.constant() / c : 0, quotient.span()),
            makePoly(constantDivides ? 0 : p.constant(), rest.span())};
  }

  /// Divides a and b by the positive gcd of all their coefficients; false if it is 1.
  bool reduceByContent(SymExpr& a, SymExpr& b) {
    uint64_t g = contentGcd(b, contentGcd(a, 0));
    if (g <= 1 || g > static_cast<uint64_t>(kInt64Max))
      return false;
    a = divideExact(a, static_cast<int64_t>(g));
    b = divideExact(b, static_cast<int64_t>(g));
    return true;
  }

  SymExpr floorDiv(SymExpr a, SymExpr b) {
    if (!b.isConstant()) {
      if (a == SymExpr())
        return a;
      if (a == b)
        return SymExpr::constant(1);
      if (reduceByContent(a, b))
        return floorDiv(a, b);
      return atom2(SymKind::FloorDiv, a, b);
    }
    int64_t c = valueOf(b);
    if (c == 0)
      return atom2(SymKind::FloorDiv, a, b);
    if (a.isConstant()) {
      if (std::optional<int64_t> q = pyFloorDiv(valueOf(a), c))
        return SymExpr::constant(*q);
      return atom2(SymKind::FloorDiv, a, b);
    }
    if (c == 1)
      return a;
    if (c == -1)
      return neg(a);
    if (reduceByContent(a, b))
      return floorDiv(a, b);
    if (c < 0) {
      // floor(a / -c) == floor(-a / c): keep divisors positive.
      std::optional<SymExpr> na = tryScale(a, -1);
      if (c == kInt64Min || !na)
        return atom2(SymKind::FloorDiv, a, b);
      return floorDiv(*na, SymExpr::constant(-c));
    }
    // floor(floor(x / y) / c) == floor(x / (y*c)) for integer c > 0.
    if (isKind(a, SymKind::FloorDiv)) {
      SymExpr x = nodeOf(a)->args()[0], y = nodeOf(a)->args()[1];
      if (std::optional<SymExpr> yc = tryMul(y, b))
        return floorDiv(x, *yc);
    }
    // floor((c*q + r) / c) == q + floor(r / c): pull out the exactly divisible terms.
    auto [quotient, rest] = splitDivisible(a, c);
    if (quotient != SymExpr())
      return add(quotient, floorDiv(rest, b));
    return atom2(SymKind::FloorDiv, a, b);
  }

  SymExpr ceilDiv(SymExpr a, SymExpr b) {
    if (!b.isConstant()) {
      if (a == SymExpr())
        return a;
      if (a == b)
        return SymExpr::constant(1);
      if (reduceByContent(a, b))
        return ceilDiv(a, b);
      return atom2(SymKind::CeilDiv, a, b);
    }
    int64_t c = valueOf(b);
    if (c == 0)
      return atom2(SymKind::CeilDiv, a, b);
    if (a.isConstant()) {
      if (std::optional<int64_t> q = pyCeilDiv(valueOf(a), c))
        return SymExpr::constant(*q);
      return atom2(SymKind::CeilDiv, a, b);
    }
    if (c == 1)
      return a;
    if (c == -1)
      return neg(a);
    if (reduceByContent(a, b))
      return ceilDiv(a, b);
    if (c < 0) {
      std::optional<SymExpr> na = tryScale(a, -1);
      if (c == kInt64Min || !na)
        return atom2(SymKind::CeilDiv, a, b);
      return ceilDiv(*na, SymExpr::constant(-c));
    }
    auto [quotient, rest] = splitDivisible(a, c);
    if (quotient != SymExpr())
      return add(quotient, ceilDiv(rest, b));
    return atom2(SymKind::CeilDiv, a, b);
  }

  SymExpr mod(SymExpr a, SymExpr b) {
    if (!b.isConstant()) {
      if (a == SymExpr() || a == b)
        return SymExpr();
      return atom2(SymKind::Mod, a, b);
    }
    int64_t c = valueOf(b);
    if (c == 0)
      return atom2(SymKind::Mod, a, b);
    if (a.isConstant())
      return SymExpr::constant(*pyMod(valueOf(a), c));
    if (c == 1 || c == -1)
      return SymExpr();
    // (c*q + r) % c == r % c: reduce every coefficient modulo c.
    PolyView p(a);
    SmallVec<Term, 8> reduced;
    for (const Term& t : p.terms())
      if (int64_t r = *pyMod(t.coef, c))
        reduced.push_back({r, t.mono});
    SymExpr r = makePoly(*pyMod(p.constant(), c), reduced.span());
    if (r.isConstant())
      return r; // Already in Python's range for c.
    // Mod(Mod(x, c), c) == Mod(x, c).
    if (isKind(r, SymKind::Mod) && nodeOf(r)->args()[1] == b)
      return r;
    return atom2(SymKind::Mod, r, b);
  }

  SymExpr pow(SymExpr base, SymExpr exp) {
    if (base == SymExpr::constant(1))
      return base;
    if (!exp.isConstant() || valueOf(exp) < 0)
      return atom2(SymKind::OpPow, base, exp);
    int64_t n = valueOf(exp);
    if (n == 0)
      return SymExpr::constant(1); // Python: x**0 == 1, including 0**0.
    if (n == 1)
      return base;
    if (base.isConstant()) {
      if (std::optional<int64_t> v = ipow(valueOf(base), n))
        return SymExpr::constant(*v);
      return atom2(SymKind::OpPow, base, exp);
    }
    PolyView p(base);
    if (p.constant() == 0 && p.terms().size() == 1) {
      // (k * prod(a_i**e_i))**n == k**n * prod(a_i**(e_i*n)).
      std::optional<int64_t> coef = ipow(p.terms()[0].coef, n);
      if (!coef)
        return atom2(SymKind::OpPow, base, exp);
      Factor storage;
      SmallVec<Factor, 8> factors;
      for (const Factor& f : factorsOf(p.terms()[0].mono, storage)) {
        Factor g{f.atom, 0};
        if (__builtin_mul_overflow(f.exp, n, &g.exp))
          return atom2(SymKind::OpPow, base, exp);
        factors.push_back(g);
      }
      Term t{*coef, makeMonomial(factors.span())};
      return makePoly(0, {&t, 1});
    }
    if (n <= kMaxExpandExponent) {
      SymExpr result = base;
      for (int64_t i = 1; i < n; ++i) {
        std::optional<SymExpr> next = tryMul(result, base);
        if (!next)
          return atom2(SymKind::OpPow, base, exp);
        result = *next;
      }
      return result;
    }
    return atom2(SymKind::OpPow, base, exp);
  }

  /// Max/Min: flattened, constants folded, deduplicated and sorted; a single argument is itself.
  SymExpr minMax(SymKind kind, std::span<const SymExpr> args) {
    assert(!args.empty());
    bool isMax = kind == SymKind::Max;
    std::optional<int64_t> folded;
    SmallVec<SymExpr, 8> rest;
    auto addArg = [&](SymExpr e) {
      if (e.isConstant()) {
        int64_t v = valueOf(e);
        folded = !folded ? v : isMax ? std::max(*folded, v) : std::min(*folded, v);
      } else {
        rest.push_back(e);
      }
    };
    for (SymExpr a : args) {
      if (isKind(a, kind))
        for (SymExpr inner : nodeOf(a)->args())
          addArg(inner); // Nested arguments are already flat and constant-folded.
      else
        addArg(a);
    }
    std::sort(rest.begin(), rest.end(),
              [](SymExpr x, SymExpr y) { return compareExprs(x, y) < 0; });
    SmallVec<SymExpr, 8> out;
    if (folded)
      out.push_back(SymExpr::constant(*folded)); // Constants sort first.
    for (SymExpr e : rest)
      if (out.empty() || out.back() != e)
        out.push_back(e);
    if (out.size() == 1)
      return out[0];
    return atom(kind, out.span());
  }
};

namespace {

//===----------------------------------------------------------------------===//
// Printing
//===----------------------------------------------------------------------===//

void appendInt(std::string& out, int64_t v) {
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, r.ptr);
}

void appendUInt(std::string& out, uint64_t v) {
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, r.ptr);
}

/// sympy's precedence() for our expressions (Add 40, Mul 50, Pow 60, Func 70, Atom 1000).
int precedence(SymExpr e) {
  const SymNode* n = nodeOf(e);
  if (!n)
    return valueOf(e) < 0 ? 40 : 1000;
  if (n->isAtom())
    return atomPrecedence(n->kind);
  if (n->size > 1 || n->constant != 0)
    return 40;
  const Term& t = n->terms()[0];
  if (t.coef < 0)
    return 40;
  if (t.coef == 1 && t.mono->kind == SymKind::Monomial && t.mono->size == 1)
    return 60;
  return 50;
}

class Printer {
public:
  explicit Printer(std::string& out) : out_(out) {}

  void print(SymExpr e) {
    const SymNode* n = nodeOf(e);
    if (!n) {
      appendInt(out_, valueOf(e));
    } else if (n->kind == SymKind::Poly) {
      printPoly(n);
    } else {
      printAtom(n);
    }
  }

private:
  /// sympy's parenthesize(): parentheses if precedence(e) < level (or <= unless strict).
  void printParen(SymExpr e, int level, bool strict) {
    int p = precedence(e);
    if (p < level || (!strict && p == level)) {
      out_ += '(';
      print(e);
      out_ += ')';
    } else {
      print(e);
    }
  }

  void printFactor(const Factor& f, int mulPrecedence) {
    SymExpr a = exprOf(f.atom);
    if (f.exp == 1) {
      if (isInfixAtom(f.atom->kind)) {
        out_ += '(';
        print(a);
        out_ += ')';
      } else {
        printParen(a, mulPrecedence, /*strict=*/false);
      }
      return;
    }
    printParen(a, 60, /*strict=*/false);
    out_ += "**";
    appendInt(out_, f.exp);
  }

  /// Prints |coef| * mono; the sign is the caller's business (sympy's Mul printer strips it).
  void printMagnitude(int64_t coef, const SymNode* mono) {
    uint64_t magnitude = uabs(coef);
    // A negative Mul has sympy precedence Add, which changes how its factors are wrapped.
    int mulPrecedence = coef < 0 ? 40 : 50;
    Factor storage;
    std::span<const Factor> factors = factorsOf(mono, storage);
    bool first = true;
    if (magnitude != 1) {
      appendUInt(out_, magnitude);
      first = false;
    }
    for (const Factor& f : factors) {
      if (!first)
        out_ += '*';
      first = false;
      printFactor(f, mulPrecedence);
    }
  }

  void printSummand(int64_t coef, const SymNode* mono, bool first) {
    if (coef == kInt64Min) {
      // 9223372036854775808 is not an int64 literal; `-9223372036854775808` parses as one.
      out_ += first ? "-" : " + -";
    } else if (coef < 0) {
      out_ += first ? "-" : " - ";
    } else if (!first) {
      out_ += " + ";
    }
    if (coef == 1 && mono->isAtom()) {
      // A bare atom in a sum: sympy wraps lower-precedence terms and nested additions.
      if (atomPrecedence(mono->kind) < 40 || mono->kind == SymKind::OpAdd) {
        out_ += '(';
        printAtom(mono);
        out_ += ')';
      } else {
        printAtom(mono);
      }
      return;
    }
    printMagnitude(coef, mono);
  }

  void printPoly(const SymNode* n) {
    bool first = true;
    for (const Term& t : n->terms()) {
      printSummand(t.coef, t.mono, first);
      first = false;
    }
    if (n->constant == 0)
      return;
    if (n->constant == kInt64Min) {
      out_ += " + ";
      appendInt(out_, n->constant);
    } else if (n->constant < 0) {
      out_ += " - ";
      appendUInt(out_, uabs(n->constant));
    } else {
      out_ += " + ";
      appendInt(out_, n->constant);
    }
  }

  void printArgs(std::span<const SymExpr> args) {
    out_ += '(';
    for (size_t i = 0; i < args.size(); ++i) {
      if (i != 0)
        out_ += ", ";
      print(args[i]);
    }
    out_ += ')';
  }

  void printAtom(const SymNode* n) {
    switch (n->kind) {
    case SymKind::Symbol:
    case SymKind::Named:
      out_ += n->name;
      return;
    case SymKind::FloorDiv:
      // PyTorch's FloorDiv._sympystr: parenthesize both sides at Mul precedence.
      out_ += '(';
      printParen(n->args()[0], 50, /*strict=*/false);
      out_ += "//";
      printParen(n->args()[1], 50, /*strict=*/false);
      out_ += ')';
      return;
    case SymKind::CeilDiv:
    case SymKind::Mod:
    case SymKind::Max:
    case SymKind::Min:
    case SymKind::Apply:
      out_ += functionName(n);
      printArgs(n->args());
      return;
    case SymKind::Tuple:
      printArgs(n->args());
      return;
    case SymKind::TrueDiv:
      printParen(n->args()[0], 50, /*strict=*/true);
      out_ += '/';
      printParen(n->args()[1], 50, /*strict=*/false);
      return;
    case SymKind::OpAdd:
    case SymKind::OpMul:
    case SymKind::OpPow:
    case SymKind::Lt:
    case SymKind::Le:
    case SymKind::Gt:
    case SymKind::Ge:
    case SymKind::Eq:
    case SymKind::Ne: {
      int level = atomPrecedence(n->kind);
      printParen(n->args()[0], level, /*strict=*/false);
      out_ += infixSpelling(n->kind);
      printParen(n->args()[1], level, /*strict=*/false);
      return;
    }
    case SymKind::Monomial:
    case SymKind::Poly:
      break;
    }
    assert(false && "not an atom");
  }

  std::string& out_;
};

//===----------------------------------------------------------------------===//
// Evaluation
//===----------------------------------------------------------------------===//

class Evaluator {
public:
  explicit Evaluator(const std::unordered_map<std::string, int64_t>& bindings)
      : bindings_(bindings) {}

  std::optional<int64_t> eval(SymExpr e) {
    if (e.isConstant())
      return valueOf(e);
    return evalNode(nodeOf(e));
  }

private:
  using Value = std::optional<int64_t>;

  Value evalNode(const SymNode* n) {
    switch (n->kind) {
    case SymKind::Poly: {
      int64_t acc = n->constant;
      for (const Term& t : n->terms()) {
        Value m = evalNode(t.mono);
        int64_t prod;
        if (!m || __builtin_mul_overflow(t.coef, *m, &prod) ||
            __builtin_add_overflow(acc, prod, &acc))
          return std::nullopt;
      }
      return acc;
    }
    case SymKind::Monomial: {
      int64_t acc = 1;
      for (const Factor& f : n->factors()) {
        Value v = evalNode(f.atom);
        if (!v)
          return std::nullopt;
        Value p = ipow(*v, f.exp);
        if (!p || __builtin_mul_overflow(acc, *p, &acc))
          return std::nullopt;
      }
      return acc;
    }
    case SymKind::Symbol: {
      auto it = bindings_.find(std::string(n->name));
      if (it == bindings_.end())
        return std::nullopt;
      return it->second;
    }
    case SymKind::Named:
      if (n->name == "True")
        return 1;
      if (n->name == "False")
        return 0;
      return std::nullopt;
    case SymKind::Max:
    case SymKind::Min: {
      Value best;
      for (SymExpr a : n->args()) {
        Value v = eval(a);
        if (!v)
          return std::nullopt;
        best = !best ? *v : n->kind == SymKind::Max ? std::max(*best, *v) : std::min(*best, *v);
      }
      return best;
    }
    case SymKind::Apply:
      return evalApply(n);
    case SymKind::Tuple:
    case SymKind::TrueDiv:
      return std::nullopt;
    default:
      break;
    }
    // The remaining kinds are binary.
    Value a = eval(n->args()[0]);
    if (!a)
      return std::nullopt;
    Value b = eval(n->args()[1]);
    if (!b)
      return std::nullopt;
    return binary(n->kind, *a, *b);
  }

  static Value binary(SymKind kind, int64_t a, int64_t b) {
    int64_t r;
    switch (kind) {
    case SymKind::FloorDiv:
      return pyFloorDiv(a, b);
    case SymKind::CeilDiv:
      return pyCeilDiv(a, b);
    case SymKind::Mod:
      return pyMod(a, b);
    case SymKind::OpAdd:
      return __builtin_add_overflow(a, b, &r) ? Value() : Value(r);
    case SymKind::OpMul:
      return __builtin_mul_overflow(a, b, &r) ? Value() : Value(r);
    case SymKind::OpPow:
      return b < 0 ? Value() : ipow(a, b); // A negative power is not an integer.
    case SymKind::Lt:
      return a < b;
    case SymKind::Le:
      return a <= b;
    case SymKind::Gt:
      return a > b;
    case SymKind::Ge:
      return a >= b;
    case SymKind::Eq:
      return a == b;
    case SymKind::Ne:
      return a != b;
    default:
      return std::nullopt;
    }
  }

  /// The few opaque PyTorch functions with plain integer semantics.
  Value evalApply(const SymNode* n) {
    std::string_view name = n->name;
    std::span<const SymExpr> args = n->args();
    SmallVec<int64_t, 4> values;
    for (SymExpr a : args) {
      Value v = eval(a);
      if (!v)
        return std::nullopt;
      values.push_back(*v);
    }
    if (args.size() == 2 && name == "PythonMod")
      return pyMod(values[0], values[1]);
    if (args.size() == 2 && (name == "CleanDiv" || name == "IntTrueDiv"))
      return pyFloorDiv(values[0], values[1]);
    if (args.size() == 2 && name == "Eq")
      return values[0] == values[1];
    if (args.size() == 2 && name == "Ne")
      return values[0] != values[1];
    if (args.size() == 3 && name == "ModularIndexing") {
      Value q = pyFloorDiv(values[0], values[1]);
      return q ? pyMod(*q, values[2]) : std::nullopt;
    }
    if (args.size() == 1 && (name == "TruncToInt" || name == "FloorToInt" || name == "CeilToInt" ||
                             name == "RoundToInt" || name == "Identity"))
      return values[0]; // Exact on integers.
    return std::nullopt;
  }

  const std::unordered_map<std::string, int64_t>& bindings_;
};

//===----------------------------------------------------------------------===//
// Sign analysis
//===----------------------------------------------------------------------===//

bool nonNegative(SymExpr e);
bool positive(SymExpr e);

bool atomNonNegative(const SymNode* n) {
  std::span<const SymExpr> args = n->args();
  switch (n->kind) {
  case SymKind::Symbol:
    // PyTorch names sizes s<N> (backed) and u<N> (unbacked).
    return !n->name.empty() && (n->name[0] == 's' || n->name[0] == 'u');
  case SymKind::Named:
    return n->name == "True" || n->name == "False" || n->name == "oo" || n->name == "int_oo";
  case SymKind::FloorDiv:
  case SymKind::CeilDiv:
    return nonNegative(args[0]) && positive(args[1]);
  case SymKind::Mod:
    return positive(args[1]);
  case SymKind::Max:
    return std::any_of(args.begin(), args.end(), nonNegative);
  case SymKind::Min:
  case SymKind::OpAdd:
  case SymKind::OpMul:
    return std::all_of(args.begin(), args.end(), nonNegative);
  case SymKind::OpPow:
    return nonNegative(args[0]);
  case SymKind::Lt:
  case SymKind::Le:
  case SymKind::Gt:
  case SymKind::Ge:
  case SymKind::Eq:
  case SymKind::Ne:
    return true;
  default:
    return false;
  }
}

bool atomPositive(const SymNode* n) {
  std::span<const SymExpr> args = n->args();
  switch (n->kind) {
  case SymKind::Named:
    return n->name == "True" || n->name == "oo" || n->name == "int_oo";
  case SymKind::CeilDiv:
    return positive(args[0]) && positive(args[1]);
  case SymKind::Max:
    return std::any_of(args.begin(), args.end(), positive);
  case SymKind::Min:
  case SymKind::OpMul:
    return std::all_of(args.begin(), args.end(), positive);
  case SymKind::OpAdd:
    return std::all_of(args.begin(), args.end(), nonNegative) &&
           std::any_of(args.begin(), args.end(), positive);
  case SymKind::OpPow:
    return positive(args[0]);
  default:
    return false;
  }
}

bool monomialNonNegative(const SymNode* mono) {
  Factor storage;
  for (const Factor& f : factorsOf(mono, storage))
    if (f.exp % 2 != 0 && !atomNonNegative(f.atom))
      return false;
  return true;
}

bool monomialPositive(const SymNode* mono) {
  Factor storage;
  for (const Factor& f : factorsOf(mono, storage))
    if (!atomPositive(f.atom))
      return false;
  return true;
}

bool nonNegative(SymExpr e) {
  const SymNode* n = nodeOf(e);
  if (!n)
    return valueOf(e) >= 0;
  if (n->isAtom())
    return atomNonNegative(n);
  if (n->constant < 0)
    return false;
  for (const Term& t : n->terms())
    if (t.coef < 0 || !monomialNonNegative(t.mono))
      return false;
  return true;
}

bool positive(SymExpr e) {
  const SymNode* n = nodeOf(e);
  if (!n)
    return valueOf(e) > 0;
  if (n->isAtom())
    return atomPositive(n);
  if (!nonNegative(e))
    return false;
  if (n->constant > 0)
    return true;
  for (const Term& t : n->terms())
    if (monomialPositive(t.mono))
      return true;
  return false;
}

//===----------------------------------------------------------------------===//
// Parsing
//===----------------------------------------------------------------------===//

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

//===----------------------------------------------------------------------===//
// Public API
//===----------------------------------------------------------------------===//

using detail::SymAccess;
using detail::SymKind;
using detail::SymNode;

size_t SymExpr::hash() const {
  return detail::mix64(static_cast<uint64_t>(value_) ^
                       (reinterpret_cast<uintptr_t>(node_) * 0x9e3779b97f4a7c15ULL));
}

SymContext::SymContext() : impl_(std::make_unique<detail::SymContextImpl>()) {}
SymContext::~SymContext() = default;
SymContext::SymContext(SymContext&&) noexcept = default;
SymContext& SymContext::operator=(SymContext&&) noexcept = default;

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

SymExpr SymContext::symbol(std::string_view name) {
  return impl_->symbol(name);
}
SymExpr SymContext::add(SymExpr a, SymExpr b) {
  return impl_->add(a, b);
}
SymExpr SymContext::sub(SymExpr a, SymExpr b) {
  return impl_->sub(a, b);
}
SymExpr SymContext::mul(SymExpr a, SymExpr b) {
  return impl_->mul(a, b);
}
SymExpr SymContext::neg(SymExpr a) {
  return impl_->neg(a);
}

SymExpr SymContext::sum(std::span<const SymExpr> operands) {
  if (operands.empty())
    return SymExpr();
  detail::SmallVec<bool, 16> positive;
  for (size_t i = 0; i < operands.size(); ++i)
    positive.push_back(false);
  return impl_->sum(operands, positive.span());
}
SymExpr SymContext::floorDiv(SymExpr a, SymExpr b) {
  return impl_->floorDiv(a, b);
}
SymExpr SymContext::mod(SymExpr a, SymExpr b) {
  return impl_->mod(a, b);
}
SymExpr SymContext::ceilDiv(SymExpr a, SymExpr b) {
  return impl_->ceilDiv(a, b);
}
SymExpr SymContext::pow(SymExpr base, SymExpr exp) {
  return impl_->pow(base, exp);
}

SymExpr SymContext::max(SymExpr a, SymExpr b) {
  SymExpr args[2] = {a, b};
  return impl_->minMax(SymKind::Max, args);
}

SymExpr SymContext::min(SymExpr a, SymExpr b) {
  SymExpr args[2] = {a, b};
  return impl_->minMax(SymKind::Min, args);
}

std::string SymContext::print(SymExpr e) const {
  std::string out;
  print(e, out);
  return out;
}

void SymContext::print(SymExpr e, std::string& out) const {
  detail::Printer(out).print(e);
}

std::optional<int64_t>
SymContext::evaluate(SymExpr e, const std::unordered_map<std::string, int64_t>& bindings) const {
  return detail::Evaluator(bindings).eval(e);
}

void SymContext::collectSymbols(SymExpr e, std::vector<std::string>& out) const {
  if (e.isConstant())
    return;
  // Iterative walk with a visited set: shared subexpressions are visited once.
  std::unordered_set<const SymNode*> seen;
  std::vector<const SymNode*> stack{SymAccess::node(e)};
  auto push = [&](const SymNode* n) {
    if (n && seen.insert(n).second)
      stack.push_back(n);
  };
  seen.insert(stack.back());
  while (!stack.empty()) {
    const SymNode* n = stack.back();
    stack.pop_back();
    switch (n->kind) {
    case SymKind::Symbol:
      out.emplace_back(n->name);
      break;
    case SymKind::Named:
      break;
    case SymKind::Poly:
      for (const detail::Term& t : n->terms())
        push(t.mono);
      break;
    case SymKind::Monomial:
      for (const detail::Factor& f : n->factors())
        push(f.atom);
      break;
    default:
      for (SymExpr a : n->args())
        push(SymAccess::node(a));
      break;
    }
  }
}

bool SymContext::isNonNegative(SymExpr e) const {
  return detail::nonNegative(e);
}
bool SymContext::isPositive(SymExpr e) const {
  return detail::positive(e);
}

bool SymContext::isSymbol(SymExpr e) const {
  const SymNode* n = SymAccess::node(e);
  return n && n->kind == SymKind::Symbol;
}

std::optional<std::string_view> SymContext::symbolName(SymExpr e) const {
  if (!isSymbol(e))
    return std::nullopt;
  return SymAccess::node(e)->name;
}

int SymContext::compare(SymExpr a, SymExpr b) const {
  return detail::compareExprs(a, b);
}

size_t SymContext::numNodes() const {
  return impl_->table.size();
}

} // namespace declone
