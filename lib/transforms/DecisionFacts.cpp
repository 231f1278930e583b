// The text of a decision's facts (DecisionFacts): storages, accesses and layouts as analyze shows
// them.
#include "CloneEliminationImpl.h"

namespace declone::detail {

StorageFacts storageFacts(const AliasAnalysis& alias, AliasAnalysis::StorageId id) {
  StorageFacts facts;
  facts.id = id;
  if (id == AliasAnalysis::kNoStorage)
    return facts;
  const AliasAnalysis::StorageInfo& info = alias.info(id);
  facts.root = info.root;
  facts.graphInput = info.graphInput;
  facts.donated = info.donated;
  facts.attribute = info.attribute;
  facts.returned = info.returned;
  facts.unknownToucher = info.unknownToucher;
  return facts;
}

std::string storageText(const StorageFacts& storage) {
  if (storage.id == AliasAnalysis::kNoStorage)
    return "none (not a tensor)";
  std::string text =
      "#" + std::to_string(storage.id) + ", created by " + std::string(storage.root->name());
  if (storage.graphInput)
    text += storage.donated ? ", a donated graph input" : ", a graph input (not donated)";
  if (storage.attribute)
    text += ", module state";
  if (storage.returned)
    text += ", returned";
  if (storage.unknownToucher)
    text += ", touched by " + describe(storage.unknownToucher) + " which has no usable schema";
  return text;
}

std::string accessText(const AliasAnalysis::Event& event) {
  std::string text;
  switch (event.kind) {
  case AliasAnalysis::Event::Kind::Read:
    text = "read by " + describe(event.node);
    break;
  case AliasAnalysis::Event::Kind::Write:
    text = "written by " + describe(event.node);
    break;
  case AliasAnalysis::Event::Kind::Return:
    text = "returned";
    break;
  }
  return text + " (as " + std::string(event.value->name()) + ")";
}

std::string layoutText(const SymContext& sym, const LayoutAnalysis& layouts, const Node* value) {
  const Layout* layout = layouts.layout(value);
  if (!layout)
    return "unknown (no tensor annotation)";
  std::string text = formatLayout(sym, *layout);
  if (!layout->stridesInferred && layout->strides) {
    std::optional<std::vector<SymExpr>> inferred = layouts.stridesFromInputs(value);
    if (inferred && !std::equal(inferred->begin(), inferred->end(), layout->strides->begin(),
                                layout->strides->end()))
      text += " (inferred from its inputs: " + formatSymList(sym, *inferred) + ")";
  }
  return text;
}

DecisionFacts decisionFacts(const SymContext& sym, const LayoutAnalysis& layouts, const Node* clone,
                            const StorageOf& storageOf) {
  auto accessesAfter = [clone](std::vector<std::string>& out) {
    return [&out, clone](const AliasAnalysis::Event& event) {
      if (event.position > clone->order())
        out.push_back(accessText(event));
    };
  };
  DecisionFacts facts;
  facts.cloneLayout = layoutText(sym, layouts, clone);
  facts.cloneStorage = storageText(storageOf(clone, accessesAfter(facts.cloneAccesses)));
  if (clone->args().empty() || !clone->args()[0].isNode()) {
    facts.source = clone->args().empty() ? "none (the clone has no positional input)"
                                         : "none (the clone's input is not a node)";
    return facts;
  }
  const Node* source = clone->args()[0].node();
  facts.source = describe(source);
  facts.sourceLayout = layoutText(sym, layouts, source);
  facts.sourceStorage = storageText(storageOf(source, accessesAfter(facts.sourceAccesses)));
  return facts;
}

DecisionFacts unmergedFacts(const SymContext& sym, const LayoutAnalysis& layouts,
                            const AliasAnalysis& alias, const Node* clone) {
  return decisionFacts(sym, layouts, clone, [&](const Node* value, const EventVisitor& visit) {
    AliasAnalysis::StorageId id = alias.storageOf(value);
    for (const AliasAnalysis::Event& event : alias.events(id))
      visit(event);
    return storageFacts(alias, id);
  });
}

} // namespace declone::detail
