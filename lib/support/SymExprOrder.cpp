// The order of canonical terms and arguments, approximating sympy's default_sort_key.
#include "SymExprImpl.h"

#include <algorithm>

namespace declone {
namespace detail {
namespace {

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

} // namespace

int compareExprs(SymExpr a, SymExpr b) {
  if (a == b)
    return 0;
  return compareViews(exprView(a), exprView(b));
}

int compareAtoms(const SymNode* a, const SymNode* b) {
  if (a == b)
    return 0;
  return compareViews({SortView::AtomPow, 1, a, 1}, {SortView::AtomPow, 1, b, 1});
}

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

} // namespace detail

int SymContext::compare(SymExpr a, SymExpr b) const {
  return detail::compareExprs(a, b);
}

} // namespace declone
