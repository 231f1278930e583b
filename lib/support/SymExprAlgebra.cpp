// Canonical polynomial arithmetic: sums, products, powers, floor/ceil division, Mod, Max, Min.
#include "SymExprImpl.h"

#include <algorithm>
#include <numeric>

namespace declone::detail {
namespace {

/// Products with more (term x term) pairs than this stay unexpanded, so that adversarial input
/// like `(a + b)*(c + d)*(e + f)*...` cannot blow up exponentially.
constexpr size_t kMaxProductTerms = 4096;
/// Products whose expansion would print more than this many leaves stay unexpanded. Expansion
/// repeats atoms (`(A + 1)**2` is `A**2 + 2*A + 1`), so without this, nesting squares like
/// `((A + 1)**2 + 1)**2 ...` would grow exponentially in the length of the input.
constexpr uint64_t kMaxExpandedWeight = uint64_t(1) << 15;
/// `p**n` for a multi-term p is expanded only up to this exponent.
constexpr int64_t kMaxExpandExponent = 64;

/// Greatest common divisor of all coefficients (and the constant) of `e`, combined with `g`.
uint64_t contentGcd(SymExpr e, uint64_t g) {
  PolyView p(e);
  g = std::gcd(g, uabs(p.constant()));
  for (const Term& t : p.terms())
    g = std::gcd(g, uabs(t.coef));
  return g;
}

} // namespace

/// An unfolded commutative operation with its operands in canonical order.
SymExpr SymContextImpl::opaqueCommutative(SymKind kind, SymExpr a, SymExpr b) {
  if (compareExprs(b, a) < 0)
    std::swap(a, b);
  return atom2(kind, a, b);
}

std::optional<const SymNode*> SymContextImpl::mulMonomials(const SymNode* a, const SymNode* b) {
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
std::optional<SymExpr> SymContextImpl::tryAdd(SymExpr a, SymExpr b, bool subtract) {
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
std::optional<SymExpr> SymContextImpl::tryScale(SymExpr e, int64_t c) {
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
std::optional<SymExpr> SymContextImpl::tryMul(SymExpr a, SymExpr b) {
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

SymExpr SymContextImpl::add(SymExpr a, SymExpr b) {
  if (a.isConstant() && b.isConstant()) {
    int64_t s;
    if (!__builtin_add_overflow(valueOf(a), valueOf(b), &s))
      return SymExpr::constant(s);
  } else if (std::optional<SymExpr> r = tryAdd(a, b, /*subtract=*/false)) {
    return *r;
  }
  return opaqueCommutative(SymKind::OpAdd, a, b);
}

SymExpr SymContextImpl::sub(SymExpr a, SymExpr b) {
  if (std::optional<SymExpr> r = tryAdd(a, b, /*subtract=*/true))
    return *r;
  // Fall back to what parsing the printed `a + (-b)` would produce.
  return add(a, neg(b));
}

SymExpr SymContextImpl::sum(std::span<const SymExpr> operands, std::span<const bool> negate) {
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
std::optional<SymExpr> SymContextImpl::trySum(std::span<const SymExpr> operands,
                                              std::span<const bool> negate) {
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

SymExpr SymContextImpl::mul(SymExpr a, SymExpr b) {
  if (std::optional<SymExpr> r = tryMul(a, b))
    return *r;
  return opaqueCommutative(SymKind::OpMul, a, b);
}

/// e / g for a g that divides every coefficient of e.
SymExpr SymContextImpl::divideExact(SymExpr e, int64_t g) {
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
std::pair<SymExpr, SymExpr> SymContextImpl::splitDivisible(SymExpr e, int64_t c) {
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
bool SymContextImpl::reduceByContent(SymExpr& a, SymExpr& b) {
  uint64_t g = contentGcd(b, contentGcd(a, 0));
  if (g <= 1 || g > static_cast<uint64_t>(kInt64Max))
    return false;
  a = divideExact(a, static_cast<int64_t>(g));
  b = divideExact(b, static_cast<int64_t>(g));
  return true;
}

SymExpr SymContextImpl::floorDiv(SymExpr a, SymExpr b) {
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

SymExpr SymContextImpl::ceilDiv(SymExpr a, SymExpr b) {
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

SymExpr SymContextImpl::mod(SymExpr a, SymExpr b) {
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

SymExpr SymContextImpl::pow(SymExpr base, SymExpr exp) {
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

SymExpr SymContextImpl::minMax(SymKind kind, std::span<const SymExpr> args) {
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
  std::sort(rest.begin(), rest.end(), [](SymExpr x, SymExpr y) { return compareExprs(x, y) < 0; });
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

} // namespace declone::detail
