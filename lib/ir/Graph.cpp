// Node creation, use-list maintenance, replace-all-uses and erasure.
#include "declone/ir/Graph.h"

#include <algorithm>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace declone {

const TypeAnnotation Node::kNoAnnotation;

static_assert(sizeof(Node) <= 112, "Node is allocated once per FX node: keep it small");

const Arg* Node::kwarg(std::string_view name) const {
  for (const KwArg& kwarg : kwargs())
    if (kwarg.name == name)
      return &kwarg.value;
  return nullptr;
}

size_t Node::numUses() const {
  size_t count = 0;
  for (Use* use = firstUse_; use; use = use->next)
    ++count;
  return count;
}

std::vector<Node*> Node::users() const {
  std::vector<Node*> result;
  for (Use* use = firstUse_; use; use = use->next)
    result.push_back(use->user);
  if (result.size() <= 16) { // the common case: a linear scan beats a set
    auto end = result.begin();
    for (Node* user : result)
      if (std::find(result.begin(), end, user) == end)
        *end++ = user;
    result.erase(end, result.end());
    return result;
  }
  std::unordered_set<Node*> seen;
  seen.reserve(result.size());
  result.erase(std::remove_if(result.begin(), result.end(),
                              [&](Node* user) { return !seen.insert(user).second; }),
               result.end());
  return result;
}

void Node::setLeadingTrivia(std::span<const std::string_view> lines) {
  trivia_ = lines.data();
  numTrivia_ = static_cast<uint32_t>(lines.size());
}

void Node::setArgs(std::span<Arg> args, std::span<KwArg> kwargs) {
  assert(args.size() <= UINT32_MAX && kwargs.size() <= UINT32_MAX);
  args_ = args.data();
  numArgs_ = static_cast<uint32_t>(args.size());
  kwargs_ = kwargs.data();
  numKwargs_ = static_cast<uint32_t>(kwargs.size());
}

NodeExtras& Graph::extras(Node* node) {
  if (!node->extras_)
    node->extras_ = context_->create<NodeExtras>();
  return *node->extras_;
}

void Graph::setTrailingComment(Node* node, std::string_view comment) {
  if (!comment.empty() || node->extras_)
    extras(node).trailingComment = comment;
}

std::vector<Node*> Graph::placeholders() const {
  std::vector<Node*> result;
  for (Node* node : *this) {
    if (!node->isPlaceholder())
      break; // FX keeps placeholders first
    result.push_back(node);
  }
  return result;
}

void Graph::numberNodes() const {
  if (numbered_)
    return;
  uint32_t order = 0;
  for (Node* node : *this)
    node->order_ = order++;
  numbered_ = true;
}

Node* Graph::newNode(Node::Kind kind, std::string_view name, Node* before) {
  static_assert(std::is_trivially_destructible_v<Node>);
  Node* node = new (context_->allocateNode(sizeof(Node), alignof(Node))) Node();
  node->kind_ = kind;
  std::string_view saved = context_->save(name);
  assert(saved.size() <= UINT32_MAX);
  node->nameData_ = saved.data();
  node->nameSize_ = static_cast<uint32_t>(saved.size());
  if (!before)
    before = output_;
  if (before) {
    numbered_ = false;
    node->next_ = before;
    node->prev_ = before->prev_;
    (before->prev_ ? before->prev_->next_ : first_) = node;
    before->prev_ = node;
  } else {
    // Appending keeps the numbering: the new node comes after every other.
    node->order_ = last_ ? last_->order_ + 1 : 0;
    node->prev_ = last_;
    (last_ ? last_->next_ : first_) = node;
    last_ = node;
  }
  ++size_;
  return node;
}

Node* Graph::createPlaceholder(std::string_view name, const TypeAnnotation* type,
                               const Arg* defaultValue, std::string_view parameter) {
  // Placeholders stay ahead of every other node, as in FX. Readers add them first, so the
  // usual case appends; walking from the front each time would be quadratic in the number of
  // placeholders (a model's parameters).
  Node* before = nullptr;
  if (last_ && !last_->isPlaceholder()) {
    before = first_;
    while (before && before->isPlaceholder())
      before = before->next_;
  }
  Node* node = newNode(Node::Kind::Placeholder, name, before);
  node->setType(type);
  if (defaultValue)
    extras(node).defaultValue = defaultValue;
  if (!parameter.empty() && parameter != name)
    extras(node).attribute = context_->save(parameter);
  return node;
}

Node* Graph::createCall(std::string_view name, const Target* target, std::span<Arg> args,
                        std::span<KwArg> kwargs, const TypeAnnotation* type, Node* before) {
  assert(target && "a call needs a target");
  Node* node = newNode(Node::Kind::Call, name, before);
  node->target_ = target;
  node->setType(type);
  node->setArgs(args, kwargs);
  linkUses(node);
  return node;
}

Node* Graph::createGetAttr(std::string_view name, std::string_view attribute,
                           const TypeAnnotation* type, Node* before) {
  Node* node = newNode(Node::Kind::GetAttr, name, before);
  extras(node).attribute = context_->save(attribute);
  node->setType(type);
  return node;
}

Node* Graph::createOutput(Arg value) {
  assert(!output_ && "a graph has one output");
  Node* node = newNode(Node::Kind::Output, "output", nullptr);
  std::span<Arg> args = context_->allocate<Arg>(1);
  args[0] = value;
  node->setArgs(args, {});
  linkUses(node);
  output_ = node;
  return node;
}

Arg Graph::nodeArg(Node* node) {
  assert(node);
  Arg arg;
  arg.kind = ArgKind::Node;
  arg.use = context_->create<Use>();
  arg.use->value = node;
  return arg;
}

void Graph::addUse(Use& use, Node* value) {
  use.value = value;
  use.prev = nullptr;
  use.next = value->firstUse_;
  if (use.next)
    use.next->prev = &use;
  value->firstUse_ = &use;
}

void Graph::removeUse(Use& use) {
  (use.prev ? use.prev->next : use.value->firstUse_) = use.next;
  if (use.next)
    use.next->prev = use.prev;
  use.prev = use.next = nullptr;
}

void Graph::linkUses(Node* user) {
  auto link = [&](Use& use) {
    assert(use.value && "argument refers to no node");
    use.user = user;
    addUse(use, use.value);
  };
  for (Arg& arg : user->args())
    arg.forEachUse(link);
  for (KwArg& kwarg : user->kwargs())
    kwarg.value.forEachUse(link);
}

void Graph::unlinkUses(Node* user) {
  for (Arg& arg : user->args())
    arg.forEachUse(removeUse);
  for (KwArg& kwarg : user->kwargs())
    kwarg.value.forEachUse(removeUse);
}

void Graph::replaceAllUsesWith(Node* from, Node* to) {
  if (from == to)
    return;
  while (Use* use = from->firstUse_) {
    removeUse(*use);
    addUse(*use, to);
  }
}

void Graph::setArgs(Node* node, std::span<Arg> args, std::span<KwArg> kwargs) {
  unlinkUses(node);
  node->setArgs(args, kwargs);
  linkUses(node);
}

void Graph::erase(Node* node) {
  assert(!node->hasUses() && "erasing a node that is still used");
  unlinkUses(node);
  if (node->numTrivia_ != 0 && node->next_ && node->next_->numTrivia_ == 0)
    node->next_->setLeadingTrivia(node->leadingTrivia());
  (node->prev_ ? node->prev_->next_ : first_) = node->next_;
  (node->next_ ? node->next_->prev_ : last_) = node->prev_;
  if (node == output_)
    output_ = nullptr;
  node->prev_ = node->next_ = nullptr;
  --size_;
}

namespace {

/// `s<digits>`: the name PyTorch's ShapeEnv gives a backed symbol.
bool isBackedSymbol(std::string_view name) {
  return name.size() > 1 && name[0] == 's' &&
         std::all_of(name.begin() + 1, name.end(), [](char c) { return c >= '0' && c <= '9'; });
}

/// The lower bound of each symbol a module shows, by name: nullopt for one it shows no bound
/// of. Within a module (one trace) a bound found anywhere holds everywhere.
using Bounds = std::unordered_map<std::string, std::optional<int64_t>>;

class ModuleBounds {
public:
  explicit ModuleBounds(const SymContext& sym) : sym_(sym) {}

  /// `inputsSpecialized`: the graph's inputs are the trace's (not a nested body's, nor a
  /// backward graph's, whose saved values and tangents may be sized by a dynamic int).
  void add(const Graph& graph, bool inputsSpecialized) {
    for (const Node* node : graph) {
      const TypeAnnotation& type = node->type();
      if (type.kind == TypeAnnotation::Kind::Sym)
        occurs(type.sym);
      // The reader shares one TensorType among equal annotations: each is looked at once
      // (an input's, whose sizes may be specialized, every time).
      if (type.kind != TypeAnnotation::Kind::Tensor ||
          (!node->isPlaceholder() && !seenTypes_.insert(type.tensor).second))
        continue;
      const TensorType& tensor = *type.tensor;
      for (SymExpr size : tensor.sizes) {
        std::optional<std::string_view> name = sym_.symbolName(size);
        bool specialized =
            inputsSpecialized && node->isPlaceholder() && name && isBackedSymbol(*name);
        bound(size, specialized ? 2 : 0);
      }
      if (tensor.strides)
        for (SymExpr stride : *tensor.strides)
          bound(stride, 0);
      if (tensor.storageOffset)
        bound(*tensor.storageOffset, 0);
    }
  }

  Bounds bounds;

private:
  void occurs(SymExpr value) {
    // Annotations share their expressions: each is taken apart once.
    if (value.isConstant() || !seen_.insert(value).second)
      return;
    names_.clear();
    sym_.collectSymbols(value, names_);
    for (std::string& name : names_)
      bounds.try_emplace(std::move(name));
  }
  /// A bare symbol that is a size, stride or offset is at least `lower`.
  void bound(SymExpr value, int64_t lower) {
    occurs(value);
    if (std::optional<std::string_view> name = sym_.symbolName(value)) {
      std::optional<int64_t>& known = bounds[std::string(*name)];
      known = known ? std::max(*known, lower) : lower;
    }
  }

  const SymContext& sym_;
  std::unordered_set<SymExpr> seen_;
  std::unordered_set<const TensorType*> seenTypes_;
  std::vector<std::string> names_;
};

void addModule(ModuleBounds& bounds, const GraphModule& module, bool inputsSpecialized) {
  bounds.add(module.graph, inputsSpecialized);
  // A nested body's inputs are the caller's values, which need not be inputs of the trace.
  for (const std::unique_ptr<GraphModule>& child : module.children)
    addModule(bounds, *child, false);
}

bool isBackwardGraph(const Graph& graph) {
  std::vector<Node*> inputs = graph.placeholders();
  return std::any_of(inputs.begin(), inputs.end(),
                     [](const Node* input) { return input->name().starts_with("tangents_"); });
}

} // namespace

void declareSizeRanges(const GraphFile& file) {
  SymContext& sym = file.context->sym();
  if (sym.numNodes() == 0)
    return; // no symbolic expression at all: static sizes
  // Graphs of several traces in one file may give one name to different symbols (each trace
  // numbers its own): a symbol is only as bounded as in the module that bounds it least.
  Bounds combined;
  for (const std::unique_ptr<GraphModule>& module : file.modules) {
    ModuleBounds bounds(sym);
    addModule(bounds, *module, !isBackwardGraph(module->graph));
    for (auto& [name, lower] : bounds.bounds) {
      auto [it, added] = combined.try_emplace(name, lower);
      if (!added)
        it->second =
            it->second && lower ? std::optional(std::min(*it->second, *lower)) : std::nullopt;
    }
  }
  for (const auto& [name, lower] : combined)
    if (lower)
      sym.declareLowerBound(name, *lower);
}

std::vector<const Graph*> graphsOf(const GraphModule& module) {
  std::vector<const Graph*> out{&module.graph};
  for (const auto& child : module.children) {
    std::vector<const Graph*> nested = graphsOf(*child);
    out.insert(out.end(), nested.begin(), nested.end());
  }
  return out;
}

} // namespace declone
