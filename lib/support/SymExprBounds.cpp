// Lower bounds under PyTorch's size ranges, and the Max/Min they settle (`Max(1, s0)` is `s0`).
#include "SymExprImpl.h"

#include <algorithm>
#include <vector>

namespace declone {
namespace detail {
namespace {

using Bound = std::optional<int64_t>;

/// `s<digits>`: a backed size symbol; `u<digits>`: an unbacked one.
bool isSizeSymbol(std::string_view name, char prefix) {
  return name.size() > 1 && name[0] == prefix &&
         std::all_of(name.begin() + 1, name.end(), [](char c) { return c >= '0' && c <= '9'; });
}

Bound lowerBound(SymExpr e);

Bound atomLowerBound(const SymNode* n) {
  std::span<const SymExpr> args = n->args();
  switch (n->kind) {
  case SymKind::Symbol:
    // PyTorch specializes sizes 0 and 1, so a backed size symbol is at least 2; an unbacked one
    // may be 0 or 1.
    if (isSizeSymbol(n->name, 's'))
      return 2;
    if (isSizeSymbol(n->name, 'u'))
      return 0;
    return std::nullopt;
  case SymKind::FloorDiv:
  case SymKind::CeilDiv: {
    Bound a = lowerBound(args[0]);
    std::optional<int64_t> b = args[1].constantValue();
    if (!a || !b || *b <= 0) // a smaller divisor would make a larger quotient
      return std::nullopt;
    return n->kind == SymKind::FloorDiv ? pyFloorDiv(*a, *b) : pyCeilDiv(*a, *b);
  }
  case SymKind::Mod: {
    Bound b = lowerBound(args[1]);
    if (b && *b > 0) // Python's a % b takes the sign of b
      return 0;
    return std::nullopt;
  }
  case SymKind::Max: {
    // At least each argument whose bound is known.
    Bound best;
    for (SymExpr a : args)
      if (Bound v = lowerBound(a))
        best = best ? std::max(*best, *v) : *v;
    return best;
  }
  case SymKind::Min: {
    Bound best;
    for (SymExpr a : args) {
      Bound v = lowerBound(a);
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
Bound monomialLowerBound(const SymNode* mono) {
  Factor storage;
  int64_t product = 1;
  for (const Factor& f : factorsOf(mono, storage)) {
    Bound v = atomLowerBound(f.atom);
    if (!v || *v < 0)
      return std::nullopt;
    Bound p = ipow(*v, f.exp);
    if (!p || __builtin_mul_overflow(product, *p, &product))
      return std::nullopt;
  }
  return product;
}

Bound lowerBound(SymExpr e) {
  const SymNode* n = nodeOf(e);
  if (!n)
    return valueOf(e);
  if (n->isAtom())
    return atomLowerBound(n);
  if (n->kind == SymKind::Monomial)
    return monomialLowerBound(n);
  int64_t sum = n->constant;
  for (const Term& t : n->terms()) {
    // A negative coefficient would need an upper bound of its monomial.
    Bound m = t.coef > 0 ? monomialLowerBound(t.mono) : std::nullopt;
    int64_t product;
    if (!m || __builtin_mul_overflow(t.coef, *m, &product) ||
        __builtin_add_overflow(sum, product, &sum))
      return std::nullopt;
  }
  return sum;
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

std::optional<int64_t> SymContext::sizeLowerBound(SymExpr e) const {
  return detail::lowerBound(e);
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
        std::optional<int64_t> bound = sizeLowerBound(args[j]);
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
