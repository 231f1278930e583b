// Lower bounds under the declared ranges of symbols, and the Max/Min they settle (`Max(1, s0)` is
// `s0` where s0 is at least 1).
#include "SymExprImpl.h"

#include <algorithm>
#include <unordered_map>
#include <vector>

namespace declone {
namespace detail {
namespace {

using Bound = std::optional<int64_t>;
using Declared = std::unordered_map<const SymNode*, int64_t>;

Bound lowerBound(const Declared& declared, SymExpr e);

Bound atomLowerBound(const Declared& declared, const SymNode* n) {
  std::span<const SymExpr> args = n->args();
  switch (n->kind) {
  case SymKind::Symbol: {
    auto it = declared.find(n);
    return it == declared.end() ? std::nullopt : Bound(it->second);
  }
  case SymKind::FloorDiv:
  case SymKind::CeilDiv: {
    Bound a = lowerBound(declared, args[0]);
    std::optional<int64_t> b = args[1].constantValue();
    if (!a || !b || *b <= 0) // a smaller divisor would make a larger quotient
      return std::nullopt;
    return n->kind == SymKind::FloorDiv ? pyFloorDiv(*a, *b) : pyCeilDiv(*a, *b);
  }
  case SymKind::Mod: {
    Bound b = lowerBound(declared, args[1]);
    if (b && *b > 0) // Python's a % b takes the sign of b
      return 0;
    return std::nullopt;
  }
  case SymKind::Max: {
    // At least each argument whose bound is known.
    Bound best;
    for (SymExpr a : args)
      if (Bound v = lowerBound(declared, a))
        best = best ? std::max(*best, *v) : *v;
    return best;
  }
  case SymKind::Min: {
    Bound best;
    for (SymExpr a : args) {
      Bound v = lowerBound(declared, a);
      if (!v)
        return std::nullopt;
      best = best ? std::min(*best, *v) : *v;
    }
    return best;
  }
  default:
    return std::nullopt;
  }
}

/// A monomial's bound is the product of its factors' when every factor is non-negative.
Bound monomialLowerBound(const Declared& declared, const SymNode* mono) {
  Factor storage;
  int64_t product = 1;
  for (const Factor& f : factorsOf(mono, storage)) {
    Bound v = atomLowerBound(declared, f.atom);
    if (!v || *v < 0)
      return std::nullopt;
    Bound p = ipow(*v, f.exp);
    if (!p || __builtin_mul_overflow(product, *p, &product))
      return std::nullopt;
  }
  return product;
}

/// A lower bound of `mono / divisor` when `divisor` divides `mono` (each of its factors appears
/// in `mono` with at least its exponent) and the quotient's factors are bounded below by 0.
Bound quotientLowerBound(const Declared& declared, const SymNode* mono, const SymNode* divisor) {
  Factor monoStorage, divisorStorage;
  std::span<const Factor> factors = factorsOf(mono, monoStorage);
  std::span<const Factor> divisors = factorsOf(divisor, divisorStorage);
  for (const Factor& d : divisors)
    if (std::none_of(factors.begin(), factors.end(),
                     [&](const Factor& f) { return f.atom == d.atom && f.exp >= d.exp; }))
      return std::nullopt;
  int64_t product = 1;
  for (const Factor& f : factors) {
    int64_t exp = f.exp;
    for (const Factor& d : divisors)
      if (d.atom == f.atom)
        exp -= d.exp;
    if (exp == 0)
      continue;
    Bound v = atomLowerBound(declared, f.atom);
    Bound p = v && *v >= 0 ? ipow(*v, exp) : std::nullopt;
    if (!p || __builtin_mul_overflow(product, *p, &product))
      return std::nullopt;
  }
  return product;
}

/// A polynomial's bound. A term with a negative coefficient, -c*m, needs a positive term d*m*q
/// that it divides, with d*q >= c: together they are m*(d*q - c), at least
/// bound(m)*(d*bound(q) - c). That is what orders strides such as `64*s0` and `64`.
Bound polyLowerBound(const Declared& declared, const SymNode* n) {
  std::span<const Term> terms = n->terms();
  std::vector<bool> paired(terms.size(), false);
  int64_t sum = n->constant;
  auto addProduct = [&](int64_t a, int64_t b) {
    int64_t product;
    return !__builtin_mul_overflow(a, b, &product) && !__builtin_add_overflow(sum, product, &sum);
  };
  for (size_t i = 0; i < terms.size(); ++i) {
    if (terms[i].coef > 0)
      continue;
    Bound m = monomialLowerBound(declared, terms[i].mono);
    if (!m)
      return std::nullopt;
    bool found = false;
    for (size_t j = 0; j < terms.size() && !found; ++j) {
      if (paired[j] || terms[j].coef <= 0)
        continue;
      Bound q = quotientLowerBound(declared, terms[j].mono, terms[i].mono);
      int64_t scaled, rest;
      if (!q || __builtin_mul_overflow(terms[j].coef, *q, &scaled) ||
          __builtin_add_overflow(scaled, terms[i].coef, &rest) || rest < 0)
        continue;
      if (!addProduct(*m, rest))
        return std::nullopt;
      paired[j] = found = true;
    }
    if (!found)
      return std::nullopt;
  }
  for (size_t j = 0; j < terms.size(); ++j) {
    if (paired[j] || terms[j].coef < 0)
      continue;
    Bound m = monomialLowerBound(declared, terms[j].mono);
    if (!m || !addProduct(terms[j].coef, *m))
      return std::nullopt;
  }
  return sum;
}

Bound lowerBound(const Declared& declared, SymExpr e) {
  const SymNode* n = nodeOf(e);
  if (!n)
    return valueOf(e);
  if (n->isAtom())
    return atomLowerBound(declared, n);
  if (n->kind == SymKind::Monomial)
    return monomialLowerBound(declared, n);
  return polyLowerBound(declared, n);
}

/// Whether simplifyForSizes could change `e`: it has a Max or Min where it looks.
bool hasMinMax(SymExpr e) {
  const SymNode* n = nodeOf(e);
  if (!n)
    return false;
  switch (n->kind) {
  case SymKind::Max:
  case SymKind::Min:
    return true;
  case SymKind::Poly:
    return std::any_of(n->terms().begin(), n->terms().end(),
                       [](const Term& t) { return hasMinMax(exprOf(t.mono)); });
  case SymKind::Monomial:
    return std::any_of(n->factors().begin(), n->factors().end(),
                       [](const Factor& f) { return hasMinMax(exprOf(f.atom)); });
  case SymKind::FloorDiv:
  case SymKind::CeilDiv:
  case SymKind::Mod:
    return hasMinMax(n->args()[0]) || hasMinMax(n->args()[1]);
  default:
    return false;
  }
}

} // namespace
} // namespace detail

using detail::Factor;
using detail::SymKind;
using detail::SymNode;
using detail::Term;

void SymContext::declareLowerBound(std::string_view name, int64_t bound) {
  const SymNode* n = detail::nodeOf(impl_->symbol(name));
  auto [it, added] = impl_->lowerBounds.emplace(n, bound);
  if (!added)
    it->second = std::max(it->second, bound);
}

std::optional<int64_t> SymContext::lowerBound(SymExpr e) const {
  return detail::lowerBound(impl_->lowerBounds, e);
}

SymExpr SymContext::simplifyForSizes(SymExpr e) {
  // Nearly every size has no Max or Min: it is returned without rebuilding anything.
  if (!detail::hasMinMax(e))
    return e;
  const SymNode* n = detail::nodeOf(e);
  switch (n->kind) {
  case SymKind::Poly: {
    SymExpr out = SymExpr::constant(n->constant);
    bool changed = false;
    for (const Term& t : n->terms()) {
      SymExpr mono = detail::exprOf(t.mono);
      SymExpr simplified = simplifyForSizes(mono);
      changed = changed || simplified != mono;
      out = add(out, mul(SymExpr::constant(t.coef), simplified));
    }
    return changed ? out : e;
  }
  case SymKind::Monomial: {
    SymExpr out = SymExpr::constant(1);
    bool changed = false;
    for (const Factor& f : n->factors()) {
      SymExpr atom = detail::exprOf(f.atom);
      SymExpr simplified = simplifyForSizes(atom);
      changed = changed || simplified != atom;
      out = mul(out, pow(simplified, SymExpr::constant(f.exp)));
    }
    return changed ? out : e;
  }
  case SymKind::FloorDiv:
  case SymKind::CeilDiv:
  case SymKind::Mod: {
    SymExpr a = simplifyForSizes(n->args()[0]);
    SymExpr b = simplifyForSizes(n->args()[1]);
    if (a == n->args()[0] && b == n->args()[1])
      return e;
    return n->kind == SymKind::FloorDiv  ? floorDiv(a, b)
           : n->kind == SymKind::CeilDiv ? ceilDiv(a, b)
                                         : mod(a, b);
  }
  case SymKind::Max:
  case SymKind::Min: {
    bool isMax = n->kind == SymKind::Max;
    std::vector<SymExpr> args;
    for (SymExpr a : n->args())
      args.push_back(simplifyForSizes(a));
    // A constant argument is settled when every other argument is provably on its side of it:
    // Max drops it, Min is it. Only constants are compared: symbolic arguments stay.
    for (size_t i = 0; i < args.size(); ++i) {
      std::optional<int64_t> c = args[i].constantValue();
      if (!c)
        continue;
      bool othersAtLeast = true;
      for (size_t j = 0; j < args.size(); ++j) {
        if (j == i)
          continue;
        std::optional<int64_t> bound = lowerBound(args[j]);
        othersAtLeast = othersAtLeast && bound && *bound >= *c;
      }
      if (!othersAtLeast)
        continue;
      if (!isMax)
        return args[i];
      if (args.size() > 1) {
        args.erase(args.begin() + static_cast<std::ptrdiff_t>(i));
        --i;
      }
    }
    SymExpr out = args[0];
    for (size_t i = 1; i < args.size(); ++i)
      out = isMax ? max(out, args[i]) : min(out, args[i]);
    return out;
  }
  default:
    return e;
  }
}

} // namespace declone
