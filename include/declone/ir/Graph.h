// The graph IR: ordered nodes with use lists, and the modules and file that hold graphs.
#pragma once

#include "declone/ir/Arg.h"
#include "declone/ir/Context.h"
#include "declone/ir/Target.h"
#include "declone/ir/Types.h"

#include <cstdint>
#include <iterator>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

namespace declone {

class Graph;

/// Fields few nodes have, kept out of line so that every Node does not pay for them.
struct NodeExtras {
  /// get_attr: the path after `self.`; placeholder: the parameter's name in the signature when
  /// it is not the node's (FX's placeholder target, which Dynamo binds to the node's name in a
  /// first statement `l_x_ = L_x_`).
  std::string_view attribute;
  const Arg* defaultValue = nullptr; ///< placeholder: `x: "f32[3]" = 1.0`
  std::string_view trailingComment;  ///< `# ...` after the statement on its line
};

/// One FX node. Allocated in the Context arena, owned by its Graph, linked in program order.
/// Kept small (112 bytes): a million-node graph holds a million of them, so spans and strings
/// are stored as pointer and 32-bit length, the annotation is shared rather than copied, rare
/// fields live in NodeExtras, and a node does not point back at its graph (setters that need
/// the arena are on Graph).
class Node {
public:
  enum class Kind : uint8_t { Placeholder, Call, GetAttr, Output };

  [[nodiscard]] Kind kind() const { return kind_; }
  [[nodiscard]] bool isPlaceholder() const { return kind_ == Kind::Placeholder; }
  [[nodiscard]] bool isCall() const { return kind_ == Kind::Call; }
  [[nodiscard]] bool isOutput() const { return kind_ == Kind::Output; }
  [[nodiscard]] std::string_view name() const { return {nameData_, nameSize_}; }
  /// For calls; nullptr otherwise.
  [[nodiscard]] const Target* target() const { return target_; }
  /// For get_attr nodes: the attribute path after `self.`.
  [[nodiscard]] std::string_view attribute() const {
    return extras_ ? extras_->attribute : std::string_view();
  }
  [[nodiscard]] std::span<Arg> args() { return {args_, numArgs_}; }
  [[nodiscard]] std::span<const Arg> args() const { return {args_, numArgs_}; }
  [[nodiscard]] std::span<KwArg> kwargs() { return {kwargs_, numKwargs_}; }
  [[nodiscard]] std::span<const KwArg> kwargs() const { return {kwargs_, numKwargs_}; }
  /// The keyword argument called `name`, or nullptr.
  [[nodiscard]] const Arg* kwarg(std::string_view name) const;
  /// For placeholders: the name the signature gives the parameter. Usually the node's name;
  /// Dynamo's graphs print `def forward(self, L_x_)` and bind `l_x_ = L_x_`.
  [[nodiscard]] std::string_view parameterName() const {
    return extras_ && !extras_->attribute.empty() ? extras_->attribute : name();
  }
  /// For placeholders written `x: "f32[3]" = 1.0`; nullptr when there is no default.
  [[nodiscard]] const Arg* defaultValue() const {
    return extras_ ? extras_->defaultValue : nullptr;
  }

  /// The annotation, shared with every node spelled the same way; Kind::None when absent.
  [[nodiscard]] const TypeAnnotation& type() const { return *type_; }
  /// Gives the node `type` itself, which must live as long as the graph's Context (for a copy:
  /// `setType(context.create<TypeAnnotation>(value))`); nullptr removes the annotation.
  void setType(const TypeAnnotation* type) { type_ = type ? type : &kNoAnnotation; }

  /// 1-based line of the node in the text it was read from; 0 if created by a pass.
  [[nodiscard]] uint32_t line() const { return line_; }
  void setLine(uint32_t line) { line_ = line; }

  /// Comment and blank lines printed before the node, verbatim.
  [[nodiscard]] std::span<const std::string_view> leadingTrivia() const {
    return {trivia_, numTrivia_};
  }
  void setLeadingTrivia(std::span<const std::string_view> lines);
  /// A `# ...` comment after the node on its line (Graph::setTrailingComment sets it).
  [[nodiscard]] std::string_view trailingComment() const {
    return extras_ ? extras_->trailingComment : std::string_view();
  }

  /// Calls fn(Node*) for every node this node's arguments reference, in order (args, kwargs).
  template <class Fn> void forEachInput(Fn&& fn) const {
    for (const Arg& arg : args())
      arg.forEachNode(fn);
    for (const KwArg& kwarg : kwargs())
      kwarg.value.forEachNode(fn);
  }

  [[nodiscard]] bool hasUses() const { return firstUse_ != nullptr; }
  /// Number of argument slots that reference this node (a user may count more than once).
  [[nodiscard]] size_t numUses() const;
  /// Distinct users, each once, in the order of their first use in this node's use list.
  [[nodiscard]] std::vector<Node*> users() const;
  template <class Fn> void forEachUse(Fn&& fn) const {
    for (Use* use = firstUse_; use;) {
      Use* next = use->next; // fn may relink `use`
      fn(*use);
      use = next;
    }
  }

  /// Position in program order: strictly increasing along the graph, below
  /// Graph::orderBound(). Valid after Graph::numberNodes() until a node is inserted anywhere but
  /// at the end; erasing leaves gaps but keeps it valid.
  [[nodiscard]] uint32_t order() const { return order_; }

  [[nodiscard]] Node* prev() const { return prev_; }
  [[nodiscard]] Node* next() const { return next_; }

private:
  friend class Graph;
  Node() = default;
  void setArgs(std::span<Arg> args, std::span<KwArg> kwargs);

  Kind kind_ = Kind::Call;
  uint32_t line_ = 0;
  mutable uint32_t order_ = 0;
  uint32_t nameSize_ = 0;
  uint32_t numArgs_ = 0;
  uint32_t numKwargs_ = 0;
  uint32_t numTrivia_ = 0;
  const char* nameData_ = nullptr;
  const Target* target_ = nullptr;
  Arg* args_ = nullptr;
  KwArg* kwargs_ = nullptr;
  const TypeAnnotation* type_ = &kNoAnnotation;
  const std::string_view* trivia_ = nullptr;
  NodeExtras* extras_ = nullptr;
  Use* firstUse_ = nullptr;
  Node* prev_ = nullptr;
  Node* next_ = nullptr;

  static const TypeAnnotation kNoAnnotation;
};

/// How a graph was written, so that the writer prints it back the same way.
struct GraphFormat {
  std::string_view defIndent;                  ///< indentation of `def forward`
  std::string_view bodyIndent = "    ";        ///< indentation of the statements
  std::span<const std::string_view> defTrivia; ///< lines between the class line and `def`
  bool multiLineSignature = false;             ///< one parameter per line (expanded_def)
  /// Pytree calling convention: `def forward(self, primals, tangents):` followed by an
  /// annotation stub line and `a, b, = fx_pytree.tree_flatten_spec(SPEC)`.
  bool pytreeInputs = false;
  std::string_view pytreeParameters;            ///< "primals, tangents"
  std::string_view pytreeInSpec;                ///< "[primals, tangents], self._in_spec"
  std::span<const std::string_view> stubTrivia; ///< lines before the (first) stub line
  /// `a: "T"  # comment`, one stub per line (PyTorch 2.8 on), not `a: "T"; b: "T"; `.
  bool stubPerLine = false;
  std::span<const std::string_view> flattenTrivia; ///< lines before the flatten line
  bool pytreeOutputs = false;     ///< `return pytree.tree_unflatten(VALUE, OUTSPEC)`
  std::string_view pytreeOutSpec; ///< "self._out_spec"
  bool multiLineReturn = false;   ///< `return (` / one value per line / `)`
  /// Whether a node nothing uses frees itself (`x = f();  x = None`). PyTorch does since 2.3;
  /// the reader clears this for dumps from older versions so they print back unchanged.
  bool freeUnusedNodes = true;
  std::span<const std::string_view> returnComments; ///< per element of a multi-line return
};

/// An FX graph: placeholders, calls and get_attrs in program order, then one output node.
class Graph {
public:
  explicit Graph(Context& context) : context_(&context) {}
  Graph(const Graph&) = delete;
  Graph& operator=(const Graph&) = delete;

  [[nodiscard]] Context& context() const { return *context_; }
  GraphFormat& format() { return format_; }
  const GraphFormat& format() const { return format_; }

  class iterator {
  public:
    using iterator_category = std::bidirectional_iterator_tag;
    using value_type = Node*;
    using difference_type = std::ptrdiff_t;
    using pointer = Node**;
    using reference = Node*;
    iterator() = default;
    explicit iterator(Node* node, const Graph* graph) : node_(node), graph_(graph) {}
    Node* operator*() const { return node_; }
    iterator& operator++() {
      node_ = node_->next();
      return *this;
    }
    iterator operator++(int) {
      iterator old = *this;
      ++*this;
      return old;
    }
    iterator& operator--() {
      node_ = node_ ? node_->prev() : graph_->last_;
      return *this;
    }
    bool operator==(const iterator& other) const { return node_ == other.node_; }

  private:
    Node* node_ = nullptr;
    const Graph* graph_ = nullptr;
  };
  [[nodiscard]] iterator begin() const { return iterator(first_, this); }
  [[nodiscard]] iterator end() const { return iterator(nullptr, this); }
  [[nodiscard]] size_t size() const { return size_; }
  [[nodiscard]] bool empty() const { return size_ == 0; }
  [[nodiscard]] Node* front() const { return first_; }
  [[nodiscard]] Node* back() const { return last_; }
  /// The output node, or nullptr while the graph is being built.
  [[nodiscard]] Node* output() const { return output_; }
  [[nodiscard]] std::vector<Node*> placeholders() const;
  /// Makes Node::order() valid, renumbering only if an insertion broke it. Graphs built by
  /// appending (as the reader does) are numbered as they grow.
  void numberNodes() const;
  /// One more than the largest Node::order(): the size for vectors indexed by order.
  [[nodiscard]] uint32_t orderBound() const { return last_ ? last_->order() + 1 : 0; }

  // Construction. Argument spans must come from this graph's Context (Context::allocate); the
  // graph takes them over and links the Uses they hold. New nodes go before the output node
  // (or at the end while there is none) unless `before` is given. `type` is shared, not copied:
  // it must live as long as the Context (arena storage, Context::create, or the reader's
  // interned annotations); nullptr means no annotation.
  /// `parameter` is the name in the signature when it is not `name` (Node::parameterName).
  Node* createPlaceholder(std::string_view name, const TypeAnnotation* type,
                          const Arg* defaultValue = nullptr, std::string_view parameter = {});
  Node* createCall(std::string_view name, const Target* target, std::span<Arg> args,
                   std::span<KwArg> kwargs, const TypeAnnotation* type, Node* before = nullptr);
  Node* createGetAttr(std::string_view name, std::string_view attribute, const TypeAnnotation* type,
                      Node* before = nullptr);
  /// The graph's single output; `value` is the returned structure.
  Node* createOutput(Arg value);

  /// A node-reference argument for `node`, to be placed in an argument span.
  Arg nodeArg(Node* node);

  /// Sets the `# ...` comment printed after `node` on its line.
  void setTrailingComment(Node* node, std::string_view comment);

  /// Replaces every use of `from` by `to`.
  void replaceAllUsesWith(Node* from, Node* to);
  /// Replaces the arguments of `node`, relinking uses.
  void setArgs(Node* node, std::span<Arg> args, std::span<KwArg> kwargs);
  /// Removes a node that has no uses. Its leading comment block passes to the next node when that
  /// node has none of its own: a block describes the run of nodes that follows it.
  void erase(Node* node);

private:
  Node* newNode(Node::Kind kind, std::string_view name, Node* before);
  NodeExtras& extras(Node* node);
  void linkUses(Node* user);
  void unlinkUses(Node* user);
  static void addUse(Use& use, Node* value);
  static void removeUse(Use& use);

  Context* context_;
  GraphFormat format_;
  Node* first_ = nullptr;
  Node* last_ = nullptr;
  Node* output_ = nullptr;
  size_t size_ = 0;
  mutable bool numbered_ = true; ///< every node's order_ is valid
};

/// A `class NAME(torch.nn.Module):` block (or a bare `def forward`) with nested submodules.
struct GraphModule {
  explicit GraphModule(Context& context) : graph(context) {}
  std::span<const std::string_view> leadingTrivia; ///< lines before the class or def line
  std::string_view className;  ///< empty for a bare `def forward`; may be `<lambda>`
  std::string_view classBases; ///< "torch.nn.Module"
  std::string_view classIndent;
  Graph graph;
  std::vector<std::unique_ptr<GraphModule>> children;
};

/// The module's graph and its submodules' (nested bodies), each before its children.
[[nodiscard]] std::vector<const Graph*> graphsOf(const GraphModule& module);

/// A whole dump: leading imports and comments, one or more graph modules, trailing lines.
struct GraphFile {
  GraphFile() : context(std::make_unique<Context>()) {}
  std::unique_ptr<Context> context;
  std::vector<std::unique_ptr<GraphModule>> modules;
  std::span<const std::string_view> trailingTrivia;
  /// False when the text did not end with a newline; the writer then omits the last one.
  bool finalNewline = true;
};

/// Declares in the file's SymContext (SymContext::declareLowerBound) what PyTorch guarantees of
/// its symbols: one that is a size, stride or storage offset of a tensor is at least 0, and a
/// backed size `s<N>` of a graph's own inputs at least 2, since dynamo and make_fx specialize
/// input sizes 0 and 1 (not so a nested body's inputs, nor a backward graph's, whose values may
/// be sized by a dynamic int). Other symbols, such as dynamic int arguments (which dynamo also
/// names `s<N>`), stay unbounded. Graphs of several traces may share symbol names, so a symbol
/// gets the smallest of the bounds the modules showing it give. The text does not show a trace
/// made with backed_size_oblivious (torch.onnx.export), whose input sizes may be 0 or 1; the
/// Python importer declares the ShapeEnv's own ranges instead of these.
void declareSizeRanges(const GraphFile& file);

} // namespace declone
