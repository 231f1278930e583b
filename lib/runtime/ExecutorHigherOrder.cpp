// The executor's higher-order ops: auto_functionalized and auto_functionalized_v2 by their
// definition (the mutated arguments cloned, views of the bases rebuilt), and the calls of nested
// subgraphs (invoke_subgraph, wrap, cond).
#include "ExecutorImpl.h"

namespace declone::runtime::detail {
namespace {

/// PyTorch's clone_preserve_strides, which auto_functionalized uses: a copy of the tensor's
/// whole storage extent, viewed with the same sizes, strides and storage offset.
at::Tensor clonePreservingStrides(const at::Tensor& tensor) {
  int64_t extent = tensor.storage_offset() + 1;
  for (int64_t i = 0; i < tensor.dim(); ++i) {
    if (tensor.size(i) == 0) // no element: an empty buffer, viewed as the tensor is
      return at::empty({0}, tensor.options())
          .as_strided(tensor.sizes(), tensor.strides(), tensor.storage_offset());
    extent += (tensor.size(i) - 1) * tensor.stride(i);
  }
  at::Tensor buffer = tensor.as_strided({extent}, {1}, 0).clone();
  return buffer.as_strided(tensor.sizes(), tensor.strides(), tensor.storage_offset());
}

} // namespace

Status Executor::runAutoFunctionalized(const Node* node, c10::IValue& result) {
  // auto_functionalized(op, **kwargs): clone what op mutates, call op on the clones, return
  // op's results followed by the mutated clones.
  if (node->args().empty() || node->args()[0].kind != ArgKind::OpRef)
    return fail(node, "auto_functionalized needs an operator as its first argument");
  const Target& target = *node->args()[0].op;
  std::optional<c10::OperatorHandle> op = findOperator(target);
  if (!op)
    return fail(node, "no kernel for " + opName(target) + " in this libtorch");
  const std::vector<c10::Argument>& parameters = op->schema().arguments();
  // Reinplacing may name the only arguments to copy; op writes the others in place.
  const Arg* only = node->kwarg("_only_clone_these_tensors");
  auto clones = [&](const std::string& name) {
    if (!only || only->kind == ArgKind::None)
      return true;
    for (const Arg& quoted : only->children())
      if (quoted.kind == ArgKind::String && decodeString(quoted.text()) == name)
        return true;
    return false;
  };
  torch::jit::Stack stack;
  std::vector<c10::IValue> mutated;
  for (const c10::Argument& parameter : parameters) {
    const Arg* value = node->kwarg(parameter.name());
    c10::IValue converted;
    if (value) {
      Result<c10::IValue> result = convert(*value, parameter.type());
      if (!result.ok())
        return result.error();
      converted = std::move(result).value();
    } else if (parameter.default_value()) {
      converted = *parameter.default_value();
    } else {
      return fail(node, "missing argument '" + parameter.name() + "' of " + opName(target));
    }
    if (parameter.alias_info() && parameter.alias_info()->isWrite() && converted.isTensor()) {
      if (clones(parameter.name()))
        converted = c10::IValue(clonePreservingStrides(converted.toTensor()));
      mutated.push_back(converted);
    } else if (parameter.alias_info() && parameter.alias_info()->isWrite() && converted.isNone()) {
      mutated.emplace_back(); // PyTorch keeps the element of a written argument passed None
    }
    stack.push_back(std::move(converted));
  }
  return callFunctionalized(node, target, *op, stack, std::move(mutated), result);
}

Status Executor::callFunctionalized(const Node* node, const Target& target,
                                    const c10::OperatorHandle& op, torch::jit::Stack& stack,
                                    std::vector<c10::IValue> mutated, c10::IValue& result) {
  if (Status called = callKernel(node, target, op, stack); !called.ok())
    return called;
  // As PyTorch's auto_functionalized(_v2): (*outs, *mutated) when the op returns several values,
  // (out, *mutated) when it returns one, and (None, *mutated) when it returns none.
  std::vector<c10::IValue> elements;
  if (stack.empty())
    elements.emplace_back();
  for (c10::IValue& value : stack)
    elements.push_back(std::move(value));
  for (c10::IValue& value : mutated)
    elements.push_back(std::move(value));
  result = c10::ivalue::Tuple::create(std::move(elements));
  return ok();
}

Result<c10::IValue> Executor::regenerateView(const std::string& prefix,
                                             std::span<const at::Tensor> bases) {
  // PyTorch's read_view_information_from_args: `_x_base_index` names the base; `_x_alias`,
  // `_x_size`/`_x_stride`/`_x_storage_offset` or `_x_slice_dim`/`_start`/`_end` say which view
  // of it op gets; with none of them op gets the base itself.
  const Node* node = current_;
  const Arg* baseIndex = node->kwarg(prefix + "_base_index");
  if (!baseIndex)
    return fail(node, "missing " + prefix + "_base_index");
  if (baseIndex->kind == ArgKind::None)
    return c10::IValue();
  Result<int64_t> index = intValue(*baseIndex);
  if (!index.ok())
    return index.error();
  if (*index < 0 || static_cast<size_t>(*index) >= bases.size())
    return fail(node, prefix + "_base_index is not an index of _all_bases");
  const at::Tensor& base = bases[static_cast<size_t>(*index)];
  if (node->kwarg(prefix + "_alias"))
    return c10::IValue(at::alias(base));
  if (const Arg* offset = node->kwarg(prefix + "_storage_offset")) {
    const Arg* size = node->kwarg(prefix + "_size");
    const Arg* stride = node->kwarg(prefix + "_stride");
    if (!size || !stride)
      return fail(node, "missing " + prefix + "_size or " + prefix + "_stride");
    Result<std::vector<int64_t>> sizes = intList(*size);
    Result<std::vector<int64_t>> strides = intList(*stride);
    Result<int64_t> storageOffset = intValue(*offset);
    if (!sizes.ok() || !strides.ok() || !storageOffset.ok())
      return fail(node, "the view of " + prefix + " is not given by integers");
    return c10::IValue(base.as_strided(*sizes, *strides, *storageOffset));
  }
  if (const Arg* dim = node->kwarg(prefix + "_slice_dim")) {
    const Arg* start = node->kwarg(prefix + "_slice_start");
    const Arg* end = node->kwarg(prefix + "_slice_end");
    if (!start || !end)
      return fail(node, "missing " + prefix + "_slice_start or " + prefix + "_slice_end");
    Result<int64_t> d = intValue(*dim);
    Result<int64_t> s = intValue(*start);
    Result<int64_t> e = intValue(*end);
    if (!d.ok() || !s.ok() || !e.ok())
      return fail(node, "the slice of " + prefix + " is not given by integers");
    return c10::IValue(base.slice(*d, *s, *e));
  }
  return c10::IValue(base);
}

Status Executor::runAutoFunctionalizedV2(const Node* node, c10::IValue& result) {
  // auto_functionalized_v2(op, _all_bases=[...], **kwargs): copy the bases (all, or those
  // `_only_clone_these_bases` names), rebuild the views op mutates from the copies, call op,
  // and return op's results followed by the bases as they are then.
  if (node->args().empty() || node->args()[0].kind != ArgKind::OpRef)
    return fail(node, "auto_functionalized_v2 needs an operator as its first argument");
  const Target& target = *node->args()[0].op;
  std::optional<c10::OperatorHandle> op = findOperator(target);
  if (!op)
    return fail(node, "no kernel for " + opName(target) + " in this libtorch");
  const Arg* allBases = node->kwarg("_all_bases");
  if (!allBases || (allBases->kind != ArgKind::List && allBases->kind != ArgKind::Tuple))
    return fail(node, "auto_functionalized_v2 needs an _all_bases list");
  const Arg* only = node->kwarg("_only_clone_these_bases");
  std::vector<at::Tensor> bases;
  for (const Arg& element : allBases->children()) {
    if (!element.isNode() || !values_[element.node()->order()].isTensor())
      return fail(node, "_all_bases holds something other than tensors");
    const at::Tensor& base = values_[element.node()->order()].toTensor();
    bool copy = !only || only->kind == ArgKind::None;
    for (const Arg& index : only ? only->children() : std::span<const Arg>())
      copy = copy ||
             (index.kind == ArgKind::Int && index.integer == static_cast<int64_t>(bases.size()));
    bases.push_back(copy ? clonePreservingStrides(base) : base);
  }
  torch::jit::Stack stack;
  for (const c10::Argument& parameter : op->schema().arguments()) {
    if (parameter.alias_info() && parameter.alias_info()->isWrite()) {
      std::string prefix = "_" + parameter.name();
      if (parameter.type()->kind() == c10::TypeKind::ListType) {
        const Arg* length = node->kwarg(prefix + "_length");
        if (!length || length->kind == ArgKind::None) {
          stack.emplace_back();
          continue;
        }
        Result<int64_t> n = intValue(*length);
        if (!n.ok())
          return n.error();
        c10::List<at::Tensor> views;
        for (int64_t i = 0; i < *n; ++i) {
          Result<c10::IValue> view = regenerateView(prefix + "_" + std::to_string(i), bases);
          if (!view.ok())
            return view.error();
          views.push_back(view->toTensor());
        }
        stack.emplace_back(std::move(views));
        continue;
      }
      Result<c10::IValue> view = regenerateView(prefix, bases);
      if (!view.ok())
        return view.error();
      stack.push_back(std::move(view).value());
      continue;
    }
    const Arg* value = node->kwarg(parameter.name());
    if (!value) {
      if (!parameter.default_value())
        return fail(node, "missing argument '" + parameter.name() + "' of " + opName(target));
      stack.push_back(*parameter.default_value());
      continue;
    }
    Result<c10::IValue> converted = convert(*value, parameter.type());
    if (!converted.ok())
      return converted.error();
    stack.push_back(std::move(converted).value());
  }
  std::vector<c10::IValue> mutated(bases.begin(), bases.end());
  return callFunctionalized(node, target, *op, stack, std::move(mutated), result);
}

const GraphModule* Executor::subgraph(const Node* getAttr) const {
  if (!module_ || getAttr->kind() != Node::Kind::GetAttr)
    return nullptr;
  for (const auto& child : module_->children)
    if (child->className == getAttr->attribute())
      return child.get();
  return nullptr;
}

Status Executor::runSubgraph(const Node* node, size_t bodyIndex, std::span<const Arg> operandArgs,
                             c10::IValue& result) {
  // The body runs on the operands themselves (its writes are the call's), and its values are
  // the call's: a tuple when it returns one, taken apart by getitem.
  std::span<const Arg> args = node->args();
  const GraphModule* body = bodyIndex < args.size() && args[bodyIndex].isNode()
                                ? subgraph(args[bodyIndex].node())
                                : nullptr;
  if (!body || !node->kwargs().empty())
    return fail(node, "the body of " + std::string(node->target()->opName) +
                          " is not a nested class of this file");
  Inputs operands;
  operands.uninitialized = inputs_.uninitialized;
  for (const Arg& operand : operandArgs) {
    if (operand.isNode()) {
      operands.values.push_back({values_[operand.node()->order()], at::Tensor()});
      continue;
    }
    Result<int64_t> value = intValue(operand);
    if (!value.ok())
      return fail(node, "only nodes and integers can be passed to a subgraph here");
    operands.values.push_back({c10::IValue(*value), at::Tensor()});
  }
  Result<std::vector<c10::IValue>> outputs = execute(*body, operands, kernels_);
  inputs_.standInsRun.merge(operands.standInsRun); // the body's calls are the call's
  if (!outputs.ok())
    return outputs.error();
  const Node* output = body->graph.output();
  bool tuple =
      output && !output->args().empty() &&
      (output->args()[0].kind == ArgKind::Tuple || output->args()[0].kind == ArgKind::List);
  if (!tuple && outputs->size() == 1)
    result = std::move((*outputs)[0]);
  else
    result = c10::ivalue::Tuple::create(std::move(*outputs));
  return ok();
}

Status Executor::runCond(const Node* node, c10::IValue& result) {
  // cond(pred, true_body, false_body, (operands...)): pred is a bool, a SymBool or a one-element
  // tensor.
  std::span<const Arg> args = node->args();
  if (args.size() != 4 || !args[3].isSequence())
    return fail(node, "cond takes a predicate, two bodies and a tuple of operands");
  bool predicate = false;
  if (args[0].isNode() && values_[args[0].node()->order()].isTensor()) {
    const at::Tensor& tensor = values_[args[0].node()->order()].toTensor();
    if (tensor.numel() != 1)
      return fail(node, "the predicate of cond is not a one-element tensor");
    predicate = tensor.item().toBool();
  } else {
    Result<int64_t> value = intValue(args[0]);
    if (!value.ok())
      return fail(node, "the predicate of cond is not a bool");
    predicate = *value != 0;
  }
  return runSubgraph(node, predicate ? 1 : 2, args[3].children(), result);
}

} // namespace declone::runtime::detail
