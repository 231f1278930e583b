// Clone elimination driver: mode dispatch, files of several graphs, decisions and statistics.
#include "declone/transforms/CloneElimination.h"

#include "CloneEliminationImpl.h"
#include "declone/analysis/SubgraphEffects.h"

namespace declone {

std::string_view reasonCode(KeepReason reason) {
  switch (reason) {
  case KeepReason::LayoutChanged:
    return "layout-changed";
  case KeepReason::LayoutUnknown:
    return "layout-unknown";
  case KeepReason::UnknownEffects:
    return "unknown-effects";
  case KeepReason::InputMutation:
    return "input-mutation";
  case KeepReason::SourceReadAfterWrite:
    return "source-read-after-write";
  case KeepReason::CloneReadAfterSourceWrite:
    return "clone-read-after-source-write";
  case KeepReason::OutputAlias:
    return "output-alias";
  case KeepReason::Unsupported:
    return "unsupported";
  }
  return "unknown";
}

namespace {

/// Each mode's name and the vLLM release it reproduces (none for the safe mode).
struct ModeInfo {
  CloneEliminationMode mode;
  std::string_view name;
  std::string_view vllmVersion;
};
constexpr ModeInfo kModes[] = {{CloneEliminationMode::Safe, "safe", ""},
                               {CloneEliminationMode::Vllm, "vllm", "0.33.0"},
                               {CloneEliminationMode::Vllm032, "vllm-0.32", "0.32.0"}};

const ModeInfo& infoOf(CloneEliminationMode mode) {
  for (const ModeInfo& info : kModes)
    if (info.mode == mode)
      return info;
  return kModes[0];
}

} // namespace

std::string_view modeName(CloneEliminationMode mode) {
  return infoOf(mode).name;
}

std::string_view vllmVersion(CloneEliminationMode mode) {
  return infoOf(mode).vllmVersion;
}

std::optional<CloneEliminationMode> parseMode(std::string_view name) {
  for (const ModeInfo& info : kModes)
    if (name == info.name)
      return info.mode;
  if (name == "vllm-0.33")
    return CloneEliminationMode::Vllm;
  return std::nullopt;
}

CloneEliminationStats& CloneEliminationStats::operator+=(const CloneEliminationStats& other) {
  clones += other.clones;
  removed += other.removed;
  dead += other.dead;
  for (size_t i = 0; i < kNumKeepReasons; ++i)
    kept[i] += other.kept[i];
  bytesRemoved += other.bytesRemoved;
  removedSymbolic += other.removedSymbolic;
  return *this;
}

namespace detail {

std::string describe(const Node* node) {
  std::string text(node->name());
  if (node->line() != 0)
    text += " (line " + std::to_string(node->line()) + ")";
  return text;
}

namespace {

std::optional<uint64_t> staticSizeInBytes(const TypeAnnotation& type) {
  if (type.kind != TypeAnnotation::Kind::Tensor)
    return std::nullopt;
  uint64_t elements = 1;
  for (SymExpr size : type.tensor->sizes) {
    std::optional<int64_t> constant = size.constantValue();
    if (!constant || *constant < 0)
      return std::nullopt;
    elements *= static_cast<uint64_t>(*constant);
  }
  return elements * elementSize(type.tensor->dtype);
}

bool sameList(std::span<const SymExpr> a, std::span<const SymExpr> b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end());
}

/// Why the layout of `value` is not to be trusted (Layout::changedInPlaceBy).
std::string inPlaceDetail(const Node* value, const Layout& layout) {
  std::string op = describe(layout.changedInPlaceBy);
  if (layout.changedValue == value)
    return op + " changes the layout of " + std::string(value->name()) + " in place";
  return "the layout of " + std::string(value->name()) + " derives from " +
         std::string(layout.changedValue->name()) + ", whose layout " + op + " changes in place";
}

} // namespace

LayoutVerdict compareLayouts(const SymContext& sym, const Node* clone, const Layout* cloneLayout,
                             const Node* source, const Layout* sourceLayout,
                             bool comparePresentOnly, bool wantDetail) {
  // The details are built only when asked for: without remarks, formatting them would be most of
  // the work of deciding a clone.
  auto unknown = [&](auto&& detail) -> LayoutVerdict {
    if (comparePresentOnly)
      return {};
    return {KeepReason::LayoutUnknown, wantDetail ? detail() : std::string()};
  };
  // A decision that rests on inferred strides says so, and on what they rest on too.
  auto basis = [&]() -> std::string {
    Layout both;
    bool inferred = false;
    for (const Layout* layout : {cloneLayout, sourceLayout}) {
      inferred = inferred || (layout && layout->stridesInferred);
      both.assumesDenseInputs = both.assumesDenseInputs || (layout && layout->assumesDenseInputs);
      both.stridesRun = both.stridesRun || (layout && layout->stridesRun);
    }
    return inferred ? inferenceBasis(both) : std::string();
  };
  auto changed = [&](auto&& detail) -> LayoutVerdict {
    if (!wantDetail)
      return {KeepReason::LayoutChanged, std::string()};
    std::string text = detail();
    if (std::string note = basis(); !note.empty())
      text += " (" + note + ")";
    return {KeepReason::LayoutChanged, std::move(text)};
  };
  if (!cloneLayout)
    return unknown([&] { return std::string(clone->name()) + " has no tensor annotation"; });
  if (!sourceLayout)
    return unknown([&] { return std::string(source->name()) + " has no tensor annotation"; });
  // What an annotation says of a tensor that an in-place op gives a new layout is true at one
  // point of the graph at most: make_fx's dumps show the final layout at every node.
  for (const Layout* layout : {sourceLayout, cloneLayout})
    if (layout->changedInPlaceBy && !comparePresentOnly)
      return unknown(
          [&] { return inPlaceDetail(layout == cloneLayout ? clone : source, *layout); });
  if (cloneLayout->dtype != sourceLayout->dtype)
    return changed([&] {
      return "dtype " + std::string(abbreviation(cloneLayout->dtype)) +
             " != " + std::string(abbreviation(sourceLayout->dtype));
    });
  if (cloneLayout->device.empty() != sourceLayout->device.empty())
    return unknown([&] {
      return "the device of " +
             std::string(cloneLayout->device.empty() ? clone->name() : source->name()) +
             " is unknown";
    });
  if (cloneLayout->device != sourceLayout->device)
    return changed([&] {
      return "device " + std::string(cloneLayout->device) +
             " != " + std::string(sourceLayout->device);
    });
  if (!sameList(cloneLayout->sizes, sourceLayout->sizes))
    return changed([&] {
      return "sizes " + formatSymList(sym, cloneLayout->sizes) +
             " != " + formatSymList(sym, sourceLayout->sizes);
    });
  if (!cloneLayout->strides)
    return unknown([&] {
      return "strides of " + std::string(clone->name()) +
             " are unknown: " + unknownStridesReason(*cloneLayout);
    });
  if (!sourceLayout->strides)
    return unknown([&] {
      return "strides of " + std::string(source->name()) +
             " are unknown: " + unknownStridesReason(*sourceLayout);
    });
  if (!sameList(*cloneLayout->strides, *sourceLayout->strides))
    return changed([&] {
      return "strides " + formatSymList(sym, *cloneLayout->strides) +
             " != " + formatSymList(sym, *sourceLayout->strides);
    });
  if (!cloneLayout->storageOffset)
    return unknown(
        [&] { return "storage offset of " + std::string(clone->name()) + " is unknown"; });
  if (!sourceLayout->storageOffset)
    return unknown(
        [&] { return "storage offset of " + std::string(source->name()) + " is unknown"; });
  if (*cloneLayout->storageOffset != *sourceLayout->storageOffset)
    return changed([&] {
      return "storage offset " + sym.print(*cloneLayout->storageOffset) +
             " != " + sym.print(*sourceLayout->storageOffset);
    });
  // vLLM's pass does not look at the bits: vllm mode keeps that hole.
  if (comparePresentOnly)
    return {std::nullopt, wantDetail ? basis() : std::string()};
  const std::pair<ViewBit Layout::*, const char*> bits[] = {{&Layout::conj, "conj"},
                                                            {&Layout::neg, "neg"}};
  for (auto [bit, name] : bits) {
    ViewBit a = cloneLayout->*bit;
    ViewBit b = sourceLayout->*bit;
    if (a == b && a != ViewBit::Unknown)
      continue;
    if (a == ViewBit::Unknown || b == ViewBit::Unknown)
      return unknown([&, name = name, a = a] {
        return "the " + std::string(name) + " bit of " +
               std::string(a == ViewBit::Unknown ? clone->name() : source->name()) + " is unknown";
      });
    return changed([&, name = name, a = a] {
      return std::string(name) + " bit " + (a == ViewBit::Set ? "true" : "false") +
             " != " + (a == ViewBit::Set ? "false" : "true");
    });
  }
  return {std::nullopt, wantDetail ? basis() : std::string()};
}

std::string CloneRewriter::withSource(std::string detail) const {
  if (reproduces_.empty())
    return detail;
  if (detail.empty())
    return reproduces_ + "'s decision";
  return detail + " (" + reproduces_ + "'s decision)";
}

void CloneRewriter::keep(const Node* clone, KeepReason reason, std::string detail) {
  if (collectRemarks_) {
    Remark remark;
    remark.node = std::string(clone->name());
    remark.line = clone->line();
    remark.decision = Remark::Decision::Kept;
    remark.reason = std::string(reasonCode(reason));
    remark.detail = withSource(std::move(detail));
    result_.remarks.push_back(std::move(remark));
  }
  ++result_.stats.clones;
  ++result_.stats.kept[static_cast<size_t>(reason)];
}

void CloneRewriter::remove(Node* clone, Node* source, std::string detail) {
  if (collectRemarks_) {
    Remark remark;
    remark.node = std::string(clone->name());
    remark.line = clone->line();
    remark.decision = Remark::Decision::Removed;
    remark.detail = withSource(std::move(detail));
    result_.remarks.push_back(std::move(remark));
  }
  ++result_.stats.clones;
  ++result_.stats.removed;
  if (!clone->hasUses())
    ++result_.stats.dead;
  // The bytes one execution no longer copies, when the size is static.
  if (std::optional<uint64_t> bytes = staticSizeInBytes(clone->type()))
    result_.stats.bytesRemoved += *bytes;
  else
    ++result_.stats.removedSymbolic;
  graph_.replaceAllUsesWith(clone, source);
  graph_.erase(clone);
  result_.changed = true;
}

} // namespace detail

CloneEliminationResult eliminateClones(Graph& graph, const CloneEliminationOptions& options) {
  const SchemaRegistry& schemas = options.schemas ? *options.schemas : SchemaRegistry::builtin();
  return options.mode == CloneEliminationMode::Safe
             ? detail::runSafe(graph, options, schemas, nullptr)
             : detail::runVllm(graph, options, schemas);
}

CloneEliminationResult eliminateClones(GraphModule& module,
                                       const CloneEliminationOptions& options) {
  const SchemaRegistry& schemas = options.schemas ? *options.schemas : SchemaRegistry::builtin();
  // The safe mode reads the effects of calls of nested subgraphs from their bodies, summarised
  // before the bodies are rewritten below (vLLM's pass has no such model).
  CloneEliminationResult total;
  if (options.mode == CloneEliminationMode::Safe && !module.children.empty()) {
    SubgraphTable subgraphs(module, schemas);
    total = detail::runSafe(module.graph, options, schemas, &subgraphs);
  } else {
    total = eliminateClones(module.graph, options);
  }
  if (!options.includeSubgraphs)
    return total;
  CloneEliminationOptions nested = options;
  nested.donated.clear(); // a subgraph's inputs belong to its caller
  for (auto& child : module.children) {
    CloneEliminationResult result = eliminateClones(*child, nested);
    total.changed = total.changed || result.changed;
    total.stats += result.stats;
    std::move(result.remarks.begin(), result.remarks.end(), std::back_inserter(total.remarks));
    std::move(result.facts.begin(), result.facts.end(), std::back_inserter(total.facts));
  }
  return total;
}

} // namespace declone
