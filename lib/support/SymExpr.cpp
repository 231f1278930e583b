// SymContext and its interning: every node is made once, in the context's arena.
#include "SymExprImpl.h"

#include <algorithm>

namespace declone {
namespace detail {
namespace {

/// Height and printed weight of the node `key` describes.
void measure(const NodeKey& key, uint16_t& depth, uint32_t& weight) {
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

} // namespace

SymContextImpl::SymContextImpl() {
  table_.reset(128);
}

const SymNode* SymContextImpl::intern(const NodeKey& key) {
  size_t h = key.hash();
  auto make = [&] {
    auto* node = new (arena_.allocate(sizeof(SymNode), alignof(SymNode))) SymNode();
    node->kind = key.kind;
    measure(key, node->depth, node->weight);
    node->size = key.size;
    node->hash = h;
    node->constant = key.constant;
    if (!key.name.empty()) {
      auto* chars = static_cast<char*>(arena_.allocate(key.name.size(), 1));
      std::memcpy(chars, key.name.data(), key.name.size());
      node->name = {chars, key.name.size()};
    }
    if (key.size != 0) {
      size_t bytes = size_t(key.size) * kOperandSize;
      void* ops = arena_.allocate(bytes, alignof(SymExpr));
      std::memcpy(ops, key.ops, bytes);
      node->ops = ops;
    }
    return static_cast<const SymNode*>(node);
  };
  return *table_.insertOrFind(key, h, make).first;
}

SymExpr SymContextImpl::symbol(std::string_view name) {
  return exprOf(intern({SymKind::Symbol, 0, name, nullptr, 0}));
}

SymExpr SymContextImpl::atom(SymKind kind, std::span<const SymExpr> args, std::string_view name) {
  return exprOf(intern({kind, 0, name, args.data(), static_cast<uint32_t>(args.size())}));
}

SymExpr SymContextImpl::atom2(SymKind kind, SymExpr a, SymExpr b) {
  SymExpr args[2] = {a, b};
  return atom(kind, args);
}

SymExpr SymContextImpl::makePoly(int64_t constant, std::span<const Term> terms) {
  if (terms.empty())
    return SymExpr::constant(constant);
  if (constant == 0 && terms.size() == 1 && terms[0].coef == 1 && terms[0].mono->isAtom())
    return exprOf(terms[0].mono);
  return exprOf(
      intern({SymKind::Poly, constant, {}, terms.data(), static_cast<uint32_t>(terms.size())}));
}

const SymNode* SymContextImpl::makeMonomial(std::span<const Factor> factors) {
  assert(!factors.empty());
  if (factors.size() == 1 && factors[0].exp == 1)
    return factors[0].atom;
  return intern({SymKind::Monomial, 0, {}, factors.data(), static_cast<uint32_t>(factors.size())});
}

} // namespace detail

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

bool SymContext::isSymbol(SymExpr e) const {
  const SymNode* n = SymAccess::node(e);
  return n && n->kind == SymKind::Symbol;
}

std::optional<std::string_view> SymContext::symbolName(SymExpr e) const {
  if (!isSymbol(e))
    return std::nullopt;
  return SymAccess::node(e)->name;
}

size_t SymContext::numNodes() const {
  return impl_->numNodes();
}

} // namespace declone
