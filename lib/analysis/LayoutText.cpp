// Layouts as remarks and `analyze` write them: sizes and strides, what an inferred layout rests
// on, and why strides are unknown.
#include "declone/analysis/LayoutAnalysis.h"

namespace declone {

void appendSymList(const SymContext& sym, std::span<const SymExpr> values, std::string& out) {
  out += '[';
  for (size_t i = 0; i < values.size(); ++i) {
    if (i)
      out += ", ";
    sym.print(values[i], out);
  }
  out += ']';
}

std::string formatSymList(const SymContext& sym, std::span<const SymExpr> values) {
  std::string out;
  appendSymList(sym, values, out);
  return out;
}

std::string inferenceBasis(const Layout& layout) {
  std::string out = "strides inferred";
  if (layout.assumesDenseInputs)
    out += ", assuming dense inputs";
  if (layout.stridesRun)
    out += ", ops run under FakeTensor";
  return out;
}

std::string unknownStridesReason(const Layout& layout) {
  const Node* because = layout.unknownBecause;
  std::string cause;
  auto makes = [&] {
    const Target& target = *because->target();
    std::string op = target.kind == Target::Kind::Op
                         ? std::string(target.opNamespace) + "." + std::string(target.opName) +
                               (target.overload.empty() ? "" : "." + std::string(target.overload))
                         : std::string(target.qualifiedName);
    return "no rule gives the strides " + std::string(because->name()) + " (" + op + ") makes";
  };
  switch (layout.unknownStrides) {
  case UnknownStrides::No:
    return {};
  case UnknownStrides::NotPrinted:
    if (!because)
      break;
    cause = std::string(because->name()) +
            (because->kind() == Node::Kind::GetAttr
                 ? " is module state whose annotation prints none"
                 : " is a graph input whose annotation prints none") +
            " (--assume-dense-inputs takes graph inputs as contiguous)";
    break;
  case UnknownStrides::NoRule:
    if (because && because->isCall())
      cause = makes();
    break;
  case UnknownStrides::NoRuleTryOracle:
    if (because && because->isCall())
      cause = makes() + " (--fake-tensor runs it)";
    break;
  case UnknownStrides::OracleGaveNone:
    if (because && because->isCall())
      cause = makes() + ", and FakeTensor gave none";
    break;
  case UnknownStrides::ChangedInPlace:
    if (because)
      cause = std::string(because->name()) + " changes the layout in place";
    break;
  case UnknownStrides::Other:
    break;
  }
  if (cause.empty())
    cause = "the graph does not settle them";
  if (layout.unknownThrough)
    return "they derive from the strides of " + std::string(layout.unknownThrough->name()) + ": " +
           cause;
  return cause;
}

std::string formatLayout(const SymContext& sym, const Layout& layout) {
  std::string out(abbreviation(layout.dtype));
  appendSymList(sym, layout.sizes, out);
  if (layout.strides)
    appendSymList(sym, *layout.strides, out);
  else
    out += "[?]";
  out += layout.device;
  out += '@';
  if (layout.storageOffset)
    sym.print(*layout.storageOffset, out);
  else
    out += '?';
  for (auto [bit, name] : {std::pair(layout.conj, " conj"), std::pair(layout.neg, " neg")}) {
    if (bit != ViewBit::Clear)
      out += name;
    if (bit == ViewBit::Unknown)
      out += '?';
  }
  if (layout.stridesInferred)
    out += " (" + inferenceBasis(layout) + ")";
  if (layout.changedInPlaceBy) {
    out += " changed in place by ";
    out += layout.changedInPlaceBy->name();
  }
  return out;
}

} // namespace declone
