// Printing in sympy's str() spelling as PyTorch shows it.
#include "SymExprImpl.h"

#include <charconv>
#include <string>

namespace declone {
namespace detail {
namespace {

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

} // namespace
} // namespace detail

std::string SymContext::print(SymExpr e) const {
  std::string out;
  print(e, out);
  return out;
}

void SymContext::print(SymExpr e, std::string& out) const {
  detail::Printer(out).print(e);
}

} // namespace declone
