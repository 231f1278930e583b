// In-place layout changes and the conjugate and negative bits, for LayoutAnalysis.
#include "LayoutMetadata.h"

#include <algorithm>
#include <vector>

namespace declone::detail {
namespace {

bool isComplex(DType dtype) {
  return dtype == DType::Complex32 || dtype == DType::Complex64 || dtype == DType::Complex128;
}

/// The element a getitem takes apart of a multi-output node, and how it relates to the node's
/// arguments; nullopt for any other node.
struct Element {
  const Node* container;
  OutputAlias relation;
};
std::optional<Element> elementOf(const EffectAnalysis& effects, const Node* node) {
  if (!node->isCall() || !node->target()->isOperator("getitem") || node->args().size() != 2 ||
      !node->args()[0].isNode() || node->args()[1].kind != ArgKind::Int)
    return std::nullopt;
  const Node* container = node->args()[0].node();
  if (!effects.hasOutputs(container))
    return std::nullopt;
  // Every element of a list relates alike, whatever its position.
  return Element{
      container,
      effects.output(container,
                     effects.elementIndex(container, node->args()[1].integer).value_or(0))};
}

bool writes(const EffectAnalysis& effects, const Node* node, const Node* value) {
  std::span<const NodeEffects::Access> accesses = effects.accesses(node);
  return std::any_of(accesses.begin(), accesses.end(), [&](const NodeEffects::Access& access) {
    return access.value() == value && access.write();
  });
}

bool sameSizes(const Node* a, const Node* b) {
  const TypeAnnotation& x = a->type();
  const TypeAnnotation& y = b->type();
  if (x.kind != TypeAnnotation::Kind::Tensor || y.kind != TypeAnnotation::Kind::Tensor)
    return false;
  return std::equal(x.tensor->sizes.begin(), x.tensor->sizes.end(), y.tensor->sizes.begin(),
                    y.tensor->sizes.end());
}

/// Whether an out= call may have resized its out argument `value`: some value the call returns
/// as that tensor has other (or unknown) sizes, or none is returned to compare with.
bool mayResize(const EffectAnalysis& effects, const LayoutChange& change) {
  bool compared = false;
  if (sameTensorAs(effects, change.op) == change.value) {
    if (!sameSizes(change.value, change.op))
      return true;
    compared = true;
  }
  bool resized = false;
  if (effects.hasOutputs(change.op))
    change.op->forEachUse([&](const Use& use) {
      if (sameTensorAs(effects, use.user) != change.value)
        return;
      compared = true;
      resized = resized || !sameSizes(change.value, use.user);
    });
  return resized || !compared;
}

ViewBit toggled(ViewBit bit) {
  switch (bit) {
  case ViewBit::Clear:
    return ViewBit::Set;
  case ViewBit::Set:
    return ViewBit::Clear;
  case ViewBit::Unknown:
    break;
  }
  return ViewBit::Unknown;
}

/// a XOR b.
ViewBit differs(ViewBit a, ViewBit b) {
  if (a == ViewBit::Unknown || b == ViewBit::Unknown)
    return ViewBit::Unknown;
  return a == b ? ViewBit::Clear : ViewBit::Set;
}

/// What resolving the other bit leaves of `bit`: resolve_conj and resolve_neg return their
/// input when its bit is clear, and otherwise a copy that has neither bit.
ViewBit afterResolving(ViewBit resolved, ViewBit bit) {
  if (resolved == ViewBit::Clear || bit == ViewBit::Clear)
    return bit;
  if (resolved == ViewBit::Set)
    return ViewBit::Clear;
  return ViewBit::Unknown;
}

/// The op's name, as the schema has it for aten and prims ops, or a method's name.
std::string_view bitOpName(const EffectAnalysis& effects, const Node* node) {
  if (!node->isCall())
    return {};
  if (const OpSchema* schema = effects.schema(node))
    return schema->opNamespace == "aten" || schema->opNamespace == "prims"
               ? std::string_view(schema->name)
               : std::string_view();
  return node->target()->kind == Target::Kind::Method ? node->target()->qualifiedName
                                                      : std::string_view();
}

} // namespace

const Node* sameTensorAs(const EffectAnalysis& effects, const Node* node) {
  if (!node->isCall())
    return nullptr;
  const Node* producer = node;
  OutputAlias relation = effects.result(node);
  if (std::optional<Element> element = elementOf(effects, node)) {
    producer = element->container;
    relation = element->relation;
  }
  if (relation.kind != OutputAlias::Kind::Aliases || !relation.input ||
      !writes(effects, producer, relation.input))
    return nullptr;
  return relation.input;
}

InPlaceLayoutChanges::InPlaceLayoutChanges(const EffectAnalysis& effects) {
  std::vector<const Node*> work;
  for (const LayoutChange& change : effects.layoutChanges()) {
    if (change.onlyWhenResized && !mayResize(effects, change))
      continue;
    // The tensor is every node that names it: in-place and out= results of it, and what it is
    // itself the in-place result of. The op's own value too, whatever its schema returns.
    work.assign({change.value, change.op});
    while (!work.empty()) {
      const Node* member = work.back();
      work.pop_back();
      // A node already taken belongs to a tensor whose nodes were all taken then.
      if (!byOrder_.try_emplace(member->order(), change).second)
        continue;
      if (const Node* same = sameTensorAs(effects, member))
        work.push_back(same);
      member->forEachUse([&](const Use& use) {
        const Node* user = use.user;
        if (sameTensorAs(effects, user) == member)
          work.push_back(user);
        if (effects.hasOutputs(user) && writes(effects, user, member))
          user->forEachUse([&](const Use& element) {
            if (sameTensorAs(effects, element.user) == member)
              work.push_back(element.user);
          });
      });
    }
  }
}

ViewBits nonAliasViewBits(OutputAlias::Kind kind, DType dtype) {
  if (kind != OutputAlias::Kind::Unknown)
    return {};
  // Only complex tensors have a conjugate bit (`_conj` of a real tensor is an error).
  return {isComplex(dtype) ? ViewBit::Unknown : ViewBit::Clear, ViewBit::Unknown};
}

ViewBits aliasViewBits(const EffectAnalysis& effects, const Node* node, const Node* input,
                       const Layout& inputLayout, bool alwaysView) {
  ViewBits in{inputLayout.conj, inputLayout.neg};
  // An in-place or out= result is its argument: no kernel sets a bit in place (set_ keeps
  // self's, whatever the source's).
  if (sameTensorAs(effects, node) == input)
    return in;
  // Views of a split, chunk or unbind keep the bits, as every view does.
  if (elementOf(effects, node))
    return in;
  std::string_view name = bitOpName(effects, node);
  bool complex = isComplex(inputLayout.dtype);
  // The ops that set or clear a bit (PyTorch's Conjugate and Negative dispatch keys): those
  // that conjugate toggle the conjugate bit of a complex tensor and return a real one as it is.
  if (name == "_conj" || name == "conj" || name == "mH" || name == "adjoint" || name == "matrix_H")
    return {complex ? toggled(in.conj) : in.conj, in.neg};
  if (name == "_neg_view")
    return {in.conj, toggled(in.neg)};
  if (name == "resolve_conj")
    return {ViewBit::Clear, afterResolving(in.conj, in.neg)};
  if (name == "resolve_neg")
    return {afterResolving(in.neg, in.conj), ViewBit::Clear};
  // The imaginary part of a conjugate view is negated; of a negative view too; of both, not.
  if (name == "imag")
    return {ViewBit::Clear, differs(in.conj, in.neg)};
  if (name == "real" || name == "view_as_real" || name == "view_as_complex")
    return {ViewBit::Clear, in.neg};
  if (alwaysView)
    return in;
  // contiguous, reshape, to and kin return their input or a copy: a copy resolves the bits.
  auto copyOrView = [](ViewBit bit) {
    return bit == ViewBit::Clear ? ViewBit::Clear : ViewBit::Unknown;
  };
  return {copyOrView(in.conj), copyOrView(in.neg)};
}

} // namespace declone::detail
