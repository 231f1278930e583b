// What a functionalized mutating call copies, read from its arguments and the op's schema, and
// its rewrite into the mutating call (DESIGN.md section 4b).
#include "FunctionalCall.h"

#include <algorithm>

namespace declone::detail {
namespace {

/// `'out_ptr'` as the name it quotes; empty for anything that is not a plain quoted name.
std::string_view unquoted(const Arg& arg) {
  std::string_view text = arg.text();
  if (arg.kind != ArgKind::String || text.size() < 2 || text.front() != text.back() ||
      (text.front() != '\'' && text.front() != '"') || text.find('\\') != std::string_view::npos)
    return {};
  return text.substr(1, text.size() - 2);
}

bool isList(const Arg* arg) {
  return arg && (arg->kind == ArgKind::List || arg->kind == ArgKind::Tuple);
}

bool isIntList(const Arg* arg) {
  if (!isList(arg))
    return false;
  return std::all_of(arg->children().begin(), arg->children().end(), [](const Arg& element) {
    return element.kind == ArgKind::Int || element.kind == ArgKind::Node ||
           element.kind == ArgKind::SymInt;
  });
}

bool isInt(const Arg* arg) {
  return arg &&
         (arg->kind == ArgKind::Int || arg->kind == ArgKind::Node || arg->kind == ArgKind::SymInt);
}

/// Why the view v2 rebuilds for `prefix` (`_query`, `_out_0`) is not one the pass can rebuild
/// as a graph node, or empty (PyTorch's write_view_information_to_args writes the forms).
std::string viewReplayProblem(const Node* node, const std::string& prefix, size_t bases) {
  const Arg* index = node->kwarg(prefix + "_base_index");
  if (!index)
    return "no " + prefix + "_base_index";
  if (index->kind == ArgKind::None)
    return {};
  if (index->kind != ArgKind::Int || index->integer < 0 ||
      static_cast<size_t>(index->integer) >= bases)
    return prefix + "_base_index is not an index of _all_bases";
  if (node->kwarg(prefix + "_alias"))
    return {};
  if (node->kwarg(prefix + "_storage_offset") || node->kwarg(prefix + "_size") ||
      node->kwarg(prefix + "_stride")) {
    if (!isIntList(node->kwarg(prefix + "_size")) || !isIntList(node->kwarg(prefix + "_stride")) ||
        !isInt(node->kwarg(prefix + "_storage_offset")))
      return prefix + "'s size, stride and storage offset are not all given as integers";
    return {};
  }
  if (node->kwarg(prefix + "_slice_dim") || node->kwarg(prefix + "_slice_start") ||
      node->kwarg(prefix + "_slice_end")) {
    if (!isInt(node->kwarg(prefix + "_slice_dim")) ||
        !isInt(node->kwarg(prefix + "_slice_start")) || !isInt(node->kwarg(prefix + "_slice_end")))
      return prefix + "'s slice dim, start and end are not all given as integers";
    return {};
  }
  return {};
}

void parseOpCall(FunctionalCall& call) {
  const Node* node = call.node;
  bool v2 = call.kind == FunctionalCall::Kind::V2;
  const OpSchema& schema = *call.schema;
  for (size_t i = 0; i < schema.returns.size(); ++i)
    if (schema.returns[i].isTensorLike() && !schema.returnIsFresh(i))
      call.notRewritable = "the op returns a view of an argument";
  if (v2) {
    const Arg* bases = node->kwarg("_all_bases");
    if (!isList(bases)) {
      call.notRewritable = "auto_functionalized_v2 without an _all_bases list";
      return;
    }
    const Arg* only = node->kwarg("_only_clone_these_bases");
    for (const Arg& base : bases->children()) {
      FunctionalCall::Copy copy;
      size_t j = call.copies.size();
      copy.name = "_all_bases[" + std::to_string(j) + "]";
      copy.index = static_cast<int64_t>(call.results + j);
      if (!base.isNode())
        call.notRewritable = copy.name + " is not a tensor value";
      else
        copy.value = base.node();
      if (only && only->kind != ArgKind::None)
        copy.inPlace =
            std::none_of(only->children().begin(), only->children().end(), [&](const Arg& k) {
              return k.kind == ArgKind::Int && k.integer == int64_t(j);
            });
      if (copy.value)
        call.operands.emplace_back(copy.name, copy.value);
      call.copies.push_back(std::move(copy));
    }
  }
  const Arg* onlyTensors = node->kwarg("_only_clone_these_tensors");
  for (size_t i = 0; i < schema.arguments.size(); ++i) {
    if (!schema.writesArgument(i))
      continue;
    const std::string& name = schema.arguments[i].name;
    const Arg* value = node->kwarg(name);
    if (v2) {
      if (value)
        call.viewReplay = "the call passes written argument '" + name + "' itself";
      std::string prefix = "_" + name;
      std::string problem;
      if (schema.arguments[i].type.isList()) {
        const Arg* length = node->kwarg(prefix + "_length");
        if (!length)
          problem = "no " + prefix + "_length";
        else if (length->kind == ArgKind::Int &&
                 (length->integer < 0 || length->integer > int64_t(node->kwargs().size())))
          problem = prefix + "_length is not the number of views the call describes";
        else if (length->kind == ArgKind::Int)
          for (int64_t k = 0; k < length->integer && problem.empty(); ++k)
            problem = viewReplayProblem(node, prefix + "_" + std::to_string(k), call.copies.size());
        else if (length->kind != ArgKind::None)
          problem = prefix + "_length is not an integer";
      } else {
        problem = viewReplayProblem(node, prefix, call.copies.size());
      }
      if (!problem.empty() && call.viewReplay.empty())
        call.viewReplay = problem;
      continue;
    }
    FunctionalCall::Copy copy;
    copy.name = name;
    copy.index = static_cast<int64_t>(call.results + call.copies.size());
    if (value && value->kind != ArgKind::None) {
      if (schema.arguments[i].type.isList())
        call.notRewritable = "the op writes the list argument '" + name + "'";
      else if (!value->isNode())
        call.notRewritable = "written argument '" + name + "' is not a tensor value";
      else
        copy.value = value->node();
    }
    if (onlyTensors && onlyTensors->kind != ArgKind::None)
      copy.inPlace = std::none_of(onlyTensors->children().begin(), onlyTensors->children().end(),
                                  [&](const Arg& quoted) { return unquoted(quoted) == name; });
    call.copies.push_back(std::move(copy));
  }
  for (const KwArg& kwarg : node->kwargs()) {
    if (kwarg.name == "_all_bases" || kwarg.name.starts_with("_only_clone_these_"))
      continue;
    kwarg.value.forEachNode([&](Node* value) { call.operands.emplace_back(kwarg.name, value); });
  }
}

void parseTritonCall(FunctionalCall& call) {
  const Node* node = call.node;
  for (std::string_view required :
       {"kernel_idx", "constant_args_idx", "grid", "tma_descriptor_metadata", "kwargs"})
    if (!node->kwarg(required))
      call.notRewritable = "no " + std::string(required) + " argument";
  const Arg* kwargs = node->kwarg("kwargs");
  const Arg* toClone = node->kwarg("tensors_to_clone");
  if (!kwargs || kwargs->kind != ArgKind::Dict || !isList(toClone)) {
    call.notRewritable = "kwargs is not a dict or tensors_to_clone not a list";
    return;
  }
  std::span<const Arg> entries = kwargs->children();
  // A key given twice means its last value, as in Python.
  auto valueOf = [&](std::string_view key) -> const Arg* {
    const Arg* value = nullptr;
    for (size_t i = 0; i + 1 < entries.size(); i += 2)
      if (unquoted(entries[i]) == key)
        value = &entries[i + 1];
    return value;
  };
  for (size_t i = 0; i + 1 < entries.size(); i += 2)
    for (size_t j = 0; j < i; j += 2)
      if (unquoted(entries[i]).empty() || unquoted(entries[i]) == unquoted(entries[j]))
        call.notRewritable = "kwargs has a key that is not a plain name, or one key twice";
  for (const Arg& quoted : toClone->children()) {
    FunctionalCall::Copy copy;
    copy.key = unquoted(quoted);
    if (std::any_of(call.copies.begin(), call.copies.end(),
                    [&](const FunctionalCall::Copy& other) { return other.key == copy.key; }))
      continue; // named twice: still one copy
    copy.name = std::string(copy.key);
    const Arg* value = copy.key.empty() ? nullptr : valueOf(copy.key);
    if (!value || !value->isNode())
      call.notRewritable = "tensors_to_clone names '" + copy.name + "', not a tensor of kwargs";
    else
      copy.value = value->node();
    call.copies.push_back(std::move(copy));
  }
  for (size_t i = 0; i + 1 < entries.size(); i += 2)
    entries[i + 1].forEachNode(
        [&](Node* value) { call.operands.emplace_back(std::string(unquoted(entries[i])), value); });
}

/// Sorts the call's users into the getitems of op's results and of each copy's element.
void collectUses(FunctionalCall& call) {
  for (Node* user : call.node->users()) {
    bool getitem = user->isCall() && user->target()->isOperator("getitem") &&
                   user->args().size() == 2 && user->kwargs().empty() && user->args()[0].isNode() &&
                   user->args()[0].node() == call.node && !user->args()[1].isNode();
    if (!getitem) {
      call.notRewritable = std::string(user->name()) + " uses the call other than by getitem";
      continue;
    }
    Arg index = user->args()[1];
    // A tuple index from the end, as Python takes it: the tuple holds op's results, then one
    // element per copy.
    int64_t length = static_cast<int64_t>(call.results + call.copies.size());
    if (index.kind == ArgKind::Int && index.integer < 0 && index.integer >= -length)
      index.integer += length;
    FunctionalCall::Copy* copy = nullptr;
    for (FunctionalCall::Copy& candidate : call.copies)
      if (call.kind == FunctionalCall::Kind::Triton
              ? index.kind == ArgKind::String && unquoted(index) == candidate.key
              : index.kind == ArgKind::Int && index.integer == candidate.index)
        copy = &candidate;
    if (copy) {
      if (!copy->value && user->hasUses())
        call.notRewritable = std::string(user->name()) + " uses the element of '" + copy->name +
                             "', which the call was given no tensor for";
      copy->results.push_back(user);
    } else if (call.kind != FunctionalCall::Kind::Triton && index.kind == ArgKind::Int &&
               index.integer >= 0 && static_cast<size_t>(index.integer) < call.results) {
      if (call.schema->returns.empty() && user->hasUses())
        call.notRewritable = std::string(user->name()) + " uses the op's result, and it has none";
      call.resultUses.emplace_back(index.integer, user);
    } else {
      call.notRewritable = std::string(user->name()) +
                           " takes an element the pass cannot place: " + std::string(index.text());
    }
  }
}

Arg copyArg(Graph& graph, const Arg& arg) {
  if (arg.isNode())
    return graph.nodeArg(arg.node());
  if (!arg.isSequence())
    return arg;
  Arg copy = arg;
  std::span<Arg> elements = graph.context().allocate<Arg>(arg.count);
  for (size_t i = 0; i < arg.count; ++i)
    elements[i] = copyArg(graph, arg.children()[i]);
  copy.elements = elements.data();
  return copy;
}

Arg intArg(int64_t value) {
  Arg arg;
  arg.kind = ArgKind::Int;
  arg.integer = value;
  return arg;
}

/// The view of a base that v2 gives op for `prefix`, as a node (or the base, or None).
Arg rebuildView(Graph& graph, NameSource& names, const FunctionalCall& call,
                const std::string& prefix) {
  const Node* node = call.node;
  const Arg* index = node->kwarg(prefix + "_base_index");
  if (index->kind == ArgKind::None)
    return Arg();
  Node* base = node->kwarg("_all_bases")->children()[size_t(index->integer)].node();
  Context& context = graph.context();
  auto view = [&](std::string_view target, std::string_view name,
                  std::initializer_list<const Arg*> rest) {
    std::span<Arg> args = context.allocate<Arg>(1 + rest.size());
    args[0] = graph.nodeArg(base);
    size_t i = 1;
    for (const Arg* arg : rest)
      args[i++] = copyArg(graph, *arg);
    return graph.nodeArg(graph.createCall(names.fresh(context, name),
                                          context.target(Target::Kind::Op, target), args, {},
                                          nullptr, call.node));
  };
  if (node->kwarg(prefix + "_alias"))
    return view("torch.ops.aten.alias.default", "alias", {});
  if (const Arg* offset = node->kwarg(prefix + "_storage_offset"))
    return view("torch.ops.aten.as_strided.default", "as_strided",
                {node->kwarg(prefix + "_size"), node->kwarg(prefix + "_stride"), offset});
  if (const Arg* dim = node->kwarg(prefix + "_slice_dim"))
    return view("torch.ops.aten.slice.Tensor", "slice",
                {dim, node->kwarg(prefix + "_slice_start"), node->kwarg(prefix + "_slice_end")});
  return graph.nodeArg(base);
}

/// The keyword arguments of the mutating op a v1 or v2 call stands for.
std::vector<KwArg> opArguments(Graph& graph, NameSource& names, const FunctionalCall& call) {
  std::vector<KwArg> kwargs;
  const Node* node = call.node;
  for (const SchemaArgument& argument : call.schema->arguments) {
    bool written = argument.isWrite();
    if (call.kind == FunctionalCall::Kind::V2 && written) {
      std::string prefix = "_" + argument.name;
      Arg value;
      if (argument.type.isList()) {
        const Arg* length = node->kwarg(prefix + "_length");
        if (length->kind == ArgKind::Int) {
          std::span<Arg> views = graph.context().allocate<Arg>(size_t(length->integer));
          for (int64_t k = 0; k < length->integer; ++k)
            views[size_t(k)] = rebuildView(graph, names, call, prefix + "_" + std::to_string(k));
          value.kind = ArgKind::List;
          value.count = static_cast<uint32_t>(views.size());
          value.elements = views.data();
        }
      } else {
        value = rebuildView(graph, names, call, prefix);
      }
      kwargs.push_back({graph.context().save(argument.name), value});
      continue;
    }
    if (const Arg* value = node->kwarg(argument.name))
      kwargs.push_back({graph.context().save(argument.name), copyArg(graph, *value)});
  }
  return kwargs;
}

} // namespace

std::optional<FunctionalCall> parseFunctionalCall(Node* node, const SchemaRegistry& schemas) {
  if (!node->isCall() || !node->target()->isHigherOrder())
    return std::nullopt;
  FunctionalCall call;
  call.node = node;
  std::string_view name = node->target()->opName;
  if (name == "auto_functionalized")
    call.kind = FunctionalCall::Kind::V1;
  else if (name == "auto_functionalized_v2")
    call.kind = FunctionalCall::Kind::V2;
  else if (name == "triton_kernel_wrapper_functional")
    call.kind = FunctionalCall::Kind::Triton;
  else
    return std::nullopt;
  if (call.kind == FunctionalCall::Kind::Triton) {
    call.results = 0;
    parseTritonCall(call);
  } else if (node->args().size() != 1 || node->args()[0].kind != ArgKind::OpRef) {
    call.notRewritable = "the call names no operator";
  } else {
    call.op = node->args()[0].op;
    call.schema = schemas.lookup(call.op->opNamespace, call.op->opName, call.op->overload);
    if (!call.schema) {
      call.notRewritable = "no schema for " + std::string(call.op->qualifiedName) +
                           ": which arguments it writes is unknown";
      return call;
    }
    call.results = std::max<size_t>(call.schema->returns.size(), 1);
    parseOpCall(call);
  }
  collectUses(call);
  return call;
}

NameSource::NameSource(const Graph& graph) {
  for (const Node* node : graph)
    taken_.emplace(node->name());
}

std::string_view NameSource::fresh(Context& context, std::string_view base) {
  // As FX names nodes: never a Python keyword or builtin a generated module would shadow.
  static constexpr std::string_view kReserved[] = {
      "abs",   "all", "and",   "any",    "as",    "bool", "dict",  "float", "for",
      "from",  "id",  "if",    "in",     "input", "int",  "is",    "iter",  "len",
      "list",  "map", "max",   "min",    "next",  "not",  "or",    "pow",   "range",
      "round", "set", "slice", "sorted", "str",   "sum",  "tuple", "type",  "zip"};
  std::string name(base);
  if (std::find(std::begin(kReserved), std::end(kReserved), base) != std::end(kReserved))
    name += "_1";
  for (size_t k = 1; taken_.count(name); ++k)
    name = std::string(base) + "_" + std::to_string(k);
  taken_.insert(name);
  return context.save(name);
}

std::vector<Node*> scatterChain(const FunctionalCall& call) {
  if (call.kind != FunctionalCall::Kind::V1 || !call.notRewritable.empty())
    return {};
  auto isScatterOf = [](const Node* user, const Node* source) {
    return user->isCall() && user->target()->isOp("aten", "slice_scatter") &&
           user->target()->overload == "default" && user->args().size() >= 2 &&
           user->args()[1].isNode() && user->args()[1].node() == source;
  };
  // Each copied element feeds exactly one step.
  std::vector<Node*> steps;
  for (const FunctionalCall::Copy& copy : call.copies) {
    if (!copy.value || copy.inPlace)
      continue;
    if (copy.results.size() != 1)
      return {};
    std::vector<Node*> users = copy.results[0]->users();
    if (users.size() != 1 || !isScatterOf(users[0], copy.results[0]))
      return {};
    steps.push_back(users[0]);
  }
  if (steps.empty())
    return {};
  // The steps form one chain: the first scatters into something no step made.
  auto isStep = [&](const Arg& arg) {
    return arg.isNode() && std::find(steps.begin(), steps.end(), arg.node()) != steps.end();
  };
  std::vector<Node*> chain;
  for (Node* step : steps)
    if (!isStep(step->args()[0]))
      chain.push_back(step);
  if (chain.size() != 1 || !chain[0]->args()[0].isNode())
    return {};
  while (chain.size() < steps.size()) {
    std::vector<Node*> next = chain.back()->users();
    if (next.size() != 1 || !isStep(next[0]->args()[0]) ||
        next[0]->args()[0].node() != chain.back())
      return {};
    chain.push_back(next[0]);
  }
  return chain;
}

void rewriteFunctionalCall(Graph& graph, const FunctionalCall& call, NameSource& names,
                           std::span<Node* const> chain) {
  Context& context = graph.context();
  Node* node = call.node;
  Node* mutating = nullptr;
  if (call.kind == FunctionalCall::Kind::Triton) {
    std::vector<KwArg> kwargs;
    for (const KwArg& kwarg : node->kwargs())
      if (kwarg.name != "tensors_to_clone")
        kwargs.push_back({kwarg.name, copyArg(graph, kwarg.value)});
    std::span<KwArg> owned = context.allocate<KwArg>(kwargs.size());
    std::copy(kwargs.begin(), kwargs.end(), owned.begin());
    mutating = graph.createCall(
        names.fresh(context, "triton_kernel_wrapper_mutation"),
        context.target(Target::Kind::Op, "torch.ops.higher_order.triton_kernel_wrapper_mutation"),
        {}, owned, nullptr, node);
  } else {
    std::vector<KwArg> kwargs = opArguments(graph, names, call);
    std::span<KwArg> owned = context.allocate<KwArg>(kwargs.size());
    std::copy(kwargs.begin(), kwargs.end(), owned.begin());
    // One result takes the annotation its getitem had.
    const TypeAnnotation* type = nullptr;
    if (call.schema->returns.size() == 1 && !call.resultUses.empty())
      type = &call.resultUses.front().second->type();
    mutating =
        graph.createCall(names.fresh(context, call.op->opName), call.op, {}, owned, type, node);
  }
  for (auto [index, user] : call.resultUses) {
    if (call.schema->returns.size() > 1) {
      std::span<Arg> args = context.allocate<Arg>(2);
      args[0] = graph.nodeArg(mutating);
      args[1] = intArg(index);
      graph.setArgs(user, args, {});
      continue;
    }
    if (call.schema->returns.size() == 1)
      graph.replaceAllUsesWith(user, mutating);
    graph.erase(user);
  }
  if (!chain.empty()) {
    graph.replaceAllUsesWith(chain.back(), chain.front()->args()[0].node());
    for (auto step = chain.rbegin(); step != chain.rend(); ++step)
      graph.erase(*step);
  }
  for (const FunctionalCall::Copy& copy : call.copies)
    for (Node* user : copy.results) {
      if (copy.value)
        graph.replaceAllUsesWith(user, copy.value);
      graph.erase(user);
    }
  graph.erase(node);
}

} // namespace declone::detail
