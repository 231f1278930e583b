// Evaluation under symbol bindings and symbol collection: walks over expressions.
#include "SymExprImpl.h"

#include <algorithm>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace declone {
namespace detail {
namespace {

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

} // namespace
} // namespace detail

using detail::SymAccess;
using detail::SymKind;
using detail::SymNode;

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

} // namespace declone
