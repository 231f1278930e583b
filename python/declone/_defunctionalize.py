"""Defunctionalization on live torch.fx graphs: the C++ pass decides, this module rewrites.

``auto_functionalized``, ``auto_functionalized_v2`` and ``triton_kernel_wrapper_functional``
stand for a mutating call inside a functional graph, every argument the call writes being an
implicit copy (DESIGN.md section 4b). The C++ pass (declone/transforms/Defunctionalization.h)
decides, on the graph imported from the live one, which calls can write in place, and rewrites
its own copy of the graph; the names of the calls it rewrote come back, and :func:`rewrite`
makes the same rewrite of each on the live graph, in program order:

- v1 ``r = auto_functionalized(op, **kw)`` becomes ``c = op(...kw without
  _only_clone_these_tensors)``, inserted before ``r``; ``getitem(r, i)`` for i < R (R = max(1,
  op's returns)) becomes ``c`` (one return), ``getitem(c, i)`` (several) or nothing (none: it
  is unused); for i >= R, the (i-R)-th written argument of op (schema order);
- v2 ``r = auto_functionalized_v2(op, _all_bases=[b0, ...], **kw)``: each written argument is
  rebuilt from its base as PyTorch's ``read_view_information_from_args`` describes it (and
  declone's executor runs it: ``aten.alias``, ``aten.as_strided`` or ``aten.slice`` of the base,
  the base itself, or None), then ``c = op(...)`` as for v1; ``getitem(r, R + j)`` becomes
  ``b_j``;
- ``triton_kernel_wrapper_functional(..., kwargs={...}, tensors_to_clone=[...])`` becomes
  ``triton_kernel_wrapper_mutation(..., kwargs={...})``; ``getitem(r, 'name')`` becomes
  ``kwargs['name']``;
- where a v1 call's copies are views of one base that functionalization writes back with a
  chain of ``slice_scatter`` (rotary embedding's q and k, slices of one matmul), and the C++
  pass found that each step writes back exactly its copy's view, the chain's last step becomes
  the base, which the op now writes in place, and the steps are erased. The C++ pass says which
  nodes it erased; the chain is read from the live graph and checked against that.

The one difference from the C++ rewrite is in spelling: the mutating call takes the op's
positional parameters positionally (the C++ graph passes every argument by keyword, as the
functionalized call did). That is how a traced graph calls an op, and what Inductor's lowering
expects: it treats a keyword argument named ``out`` as an out= call (vLLM's
FixFunctionalizationPass passes such ops' arguments positionally for the same reason).

New nodes get the ``meta`` a later pass or Inductor's lowering reads: where they come from
(stack trace, module stack) from the functionalized node; ``val``, the call's from the
functionalized node's and a rebuilt view's run under the base value's FakeTensorMode; and for
an op whose layout Inductor constrains to eager's (the functionalized node then has
``eager_input_vals``), its arguments' values as ``eager_input_vals``, as Inductor's own
decomposition of the call records them. Inductor numbers the regions between mutations
(``mutation_region_id``) so that its pattern matcher never matches across one; a rewrite adds
mutations, so the numbers are dropped, and Inductor recomputes them when it next needs them.
"""

import contextlib
import operator

import torch

try:
    from torch._higher_order_ops.auto_functionalize import (auto_functionalized,
                                                            auto_functionalized_v2)
except ImportError:  # torch 1.13: no functionalized calls to rewrite
    auto_functionalized = auto_functionalized_v2 = None
try:
    from torch._higher_order_ops.triton_kernel_wrap import (triton_kernel_wrapper_functional,
                                                            triton_kernel_wrapper_mutation)
except ImportError:
    triton_kernel_wrapper_functional = triton_kernel_wrapper_mutation = None

#: The targets the pass rewrites, as far as this torch has them.
TARGETS = tuple(target for target in (auto_functionalized, auto_functionalized_v2,
                                      triton_kernel_wrapper_functional) if target is not None)

#: Keyword arguments of the functionalized call that are not the op's.
_V1_OWN = frozenset({"_only_clone_these_tensors"})
_V2_OWN = frozenset({"_all_bases", "_only_clone_these_bases"})
_TRITON_OWN = frozenset({"tensors_to_clone"})


def has_functionalized_calls(graph):
    """Whether ``graph`` has a node the pass may rewrite (cheap where FX indexes targets)."""
    if not TARGETS:
        return False
    find_nodes = getattr(graph, "find_nodes", None)
    if find_nodes is not None:
        return any(find_nodes(op="call_function", target=target) for target in TARGETS)
    return any(node.op == "call_function" and node.target in TARGETS for node in graph.nodes)


def plan(rewritten, erased):
    """The rewrites the C++ pass made, as ``[(call name, [scatter step names])]`` in program
    order: ``rewritten`` are the live nodes of the calls it rewrote, ``erased`` the names of the
    other nodes it erased (the scatter-back steps, each its call's). Read before any rewrite."""
    erased = set(erased)
    steps_of = []
    for node in rewritten:
        steps = [step for element in node.users for step in element.users
                 if step.name in erased and step.op == "call_function"
                 and step.target is torch.ops.aten.slice_scatter.default]
        erased.difference_update(step.name for step in steps)
        erased.difference_update(element.name for element in node.users)  # its getitems
        steps_of.append((node.name, [step.name for step in _chain(node, steps)]))
    if erased:
        raise AssertionError("declone's rewrite erased nodes that are no call's scatter-back: "
                             + ", ".join(sorted(erased)))
    return steps_of


def _chain(node, steps):
    """``steps`` in the order they scatter: the first into the base, each into the one before."""
    chain = [step for step in steps if step.args[0] not in steps]
    if steps and len(chain) != 1:
        raise AssertionError(f"the scatter-back of {node.name} is no chain")
    while len(chain) < len(steps):
        following = [step for step in chain[-1].users if step in steps]
        if len(following) != 1 or following[0].args[0] is not chain[-1]:
            raise AssertionError(f"the scatter-back of {node.name} is no chain")
        chain.append(following[0])
    return chain


def apply(graph, rewrites):
    """Makes the rewrites of ``plan`` (by node name) on ``graph``, in order."""
    nodes = {node.name: node for node in graph.nodes}
    for name, steps in rewrites:
        rewrite(graph, nodes[name], [nodes[step] for step in steps])
    if rewrites:
        forget_mutation_regions(graph)


def rewrite(graph, node, chain=()):
    """Replaces the functionalized call ``node`` of ``graph`` by the mutating call it stands for,
    and the scatter-back ``chain`` of its copies by their base (the module docstring has the
    rules). The C++ pass rewrote it, so it has the form the rules take; anything else is an
    error in the replay, raised as such."""
    if chain and node.target is not auto_functionalized:
        raise AssertionError(f"declone rewrote {node.name} with a scatter-back, not a v1 call")
    if node.target is auto_functionalized:
        _rewrite_auto_functionalized(graph, node, v2=False, chain=chain)
    elif node.target is auto_functionalized_v2:
        _rewrite_auto_functionalized(graph, node, v2=True)
    elif node.target is triton_kernel_wrapper_functional:
        _rewrite_triton(graph, node)
    else:
        raise AssertionError(f"declone rewrote {node.name}, which is no functionalized call "
                             f"({node.target})")


def _getitem_users(node):
    users = []
    for user in list(node.users):
        if user.op != "call_function" or user.target is not operator.getitem:
            raise AssertionError(f"declone rewrote {node.name}, which {user.name} uses other "
                                 "than through getitem")
        users.append(user)
    return users


def _written(schema):
    return [argument for argument in schema.arguments
            if argument.alias_info is not None and argument.alias_info.is_write]


def _is_list(argument):
    """A Tensor[] or Tensor?[] parameter (PyTorch's is_tensorlist_like_type)."""
    kind = argument.type
    if isinstance(kind, torch.OptionalType):
        kind = kind.getElementType()
    return isinstance(kind, torch.ListType)


def _call_arguments(schema, values):
    """``values`` (parameter name -> value) as the args and kwargs of a call: the positional
    parameters positionally while each has a value, the rest by keyword."""
    args, kwargs, positional = [], {}, True
    for argument in schema.arguments:
        if argument.name not in values:
            positional = False  # a later positional one must then go by name
            continue
        if positional and not argument.kwarg_only:
            args.append(values[argument.name])
        else:
            kwargs[argument.name] = values[argument.name]
    return tuple(args), kwargs


def _rewrite_auto_functionalized(graph, node, v2, chain=()):
    op = node.args[0]
    schema = op._schema
    returns = len(schema.returns)
    slots = max(1, returns)
    written = _written(schema)
    users = _getitem_users(node)
    own = _V2_OWN if v2 else _V1_OWN
    values = {name: value for name, value in node.kwargs.items() if name not in own}
    with graph.inserting_before(node):
        if v2:
            bases = list(node.kwargs["_all_bases"])
            for argument in written:
                values[argument.name] = _rebuilt_view(graph, node, values, bases, argument)
            copies = bases
        else:
            copies = [node.kwargs.get(argument.name) for argument in written]
        # The view information is the call's own: what is left is the op's arguments.
        names = {argument.name for argument in schema.arguments}
        values = {name: value for name, value in values.items() if name in names}
        args, kwargs = _call_arguments(schema, values)
        call = graph.call_function(op, args, kwargs)
    call.meta = _meta_without_value(node)
    value = node.meta.get("val")
    if isinstance(value, (tuple, list)) and returns:
        call.meta["val"] = value[0] if returns == 1 else tuple(value[:returns])
    _record_eager_input_values(call, node)
    if chain:  # the op writes the base in place: it is what the scatters made
        chain[-1].replace_all_uses_with(chain[0].args[0])
        for step in reversed(chain):
            graph.erase_node(step)
    for user in users:
        index = user.args[1]
        if index < 0:  # from the end, as Python takes it: op's results, then the copies
            index += slots + len(copies)
        if index >= slots:
            copied = copies[index - slots]
            if copied is not None:  # else an argument passed as None: nothing uses its element
                user.replace_all_uses_with(copied)
        elif returns == 1:
            user.replace_all_uses_with(call)
        elif returns > 1:
            user.args = (call, index)
            continue
        elif user.users:
            raise AssertionError(f"declone rewrote {node.name}, whose op returns nothing, but "
                                 f"{user.name} uses its result")
        graph.erase_node(user)
    graph.erase_node(node)


def _rebuilt_view(graph, node, values, bases, argument):
    """The value op gets for the written ``argument`` of an auto_functionalized_v2 call, built
    from the bases as its view information says; the information is taken out of ``values``."""
    prefix = f"_{argument.name}"
    if not _is_list(argument):
        return _single_view(graph, node, values, bases, prefix)
    length = values.pop(f"{prefix}_length")
    if length is None:
        return None
    return [_single_view(graph, node, values, bases, f"{prefix}_{i}") for i in range(length)]


def _single_view(graph, node, values, bases, prefix):
    index = values.pop(f"{prefix}_base_index")
    if index is None:
        return None
    base = bases[index]
    aten = torch.ops.aten
    if f"{prefix}_alias" in values:
        values.pop(f"{prefix}_alias")
        return _view(graph, node, aten.alias.default, (base,))
    if f"{prefix}_storage_offset" in values:
        size, stride, offset = (values.pop(f"{prefix}_{field}")
                                for field in ("size", "stride", "storage_offset"))
        return _view(graph, node, aten.as_strided.default, (base, size, stride, offset))
    if f"{prefix}_slice_dim" in values:
        dim, start, end = (values.pop(f"{prefix}_slice_{field}")
                           for field in ("dim", "start", "end"))
        return _view(graph, node, aten.slice.Tensor, (base, dim, start, end))
    return base


def _view(graph, node, target, args):
    view = graph.call_function(target, args)
    view.meta = _meta_without_value(node)
    value = fake_value(target, args, {})
    if value is not None:
        view.meta["val"] = value
    return view


#: Meta a node made from a functionalized call does not inherit: what describes the call's own
#: value and arguments, or Inductor's bookkeeping about it.
_NOT_INHERITED = frozenset({"val", "tensor_meta", "eager_input_vals", "unbacked_bindings",
                            "only_clone_these_tensors", "mutation_region_id", "original_aten"})


def _meta_without_value(node):
    """What a node made from ``node`` inherits of its meta: where it comes from (stack trace,
    module stack, ...), not its value."""
    return {key: value for key, value in node.meta.items() if key not in _NOT_INHERITED}


def _record_eager_input_values(call, node):
    """Where Inductor keeps the call's argument values to give a stride-sensitive op the strides
    eager gives it (``eager_input_vals``), the new call gets its own arguments' values."""
    if "eager_input_vals" not in node.meta:
        return

    def value(arg):
        return arg.meta.get("val") if isinstance(arg, torch.fx.Node) else None

    call.meta["eager_input_vals"] = torch.fx.node.map_aggregate((call.args, call.kwargs), value)


def forget_mutation_regions(graph):
    """Drops Inductor's mutation region numbers, which a rewrite makes stale; Inductor's pattern
    matcher numbers the graph again when it finds the first node without one."""
    nodes = iter(graph.nodes)
    first = next(nodes, None)
    if first is None or "mutation_region_id" not in first.meta:
        return
    for node in graph.nodes:
        node.meta.pop("mutation_region_id", None)


def _rewrite_triton(graph, node):
    users = _getitem_users(node)
    kwargs = {name: value for name, value in node.kwargs.items() if name not in _TRITON_OWN}
    with graph.inserting_before(node):
        call = graph.call_function(triton_kernel_wrapper_mutation, (), kwargs)
    call.meta = _meta_without_value(node)
    call.meta["val"] = None
    _record_eager_input_values(call, node)
    tensors = node.kwargs["kwargs"]
    for user in users:
        user.replace_all_uses_with(tensors[user.args[1]])
        graph.erase_node(user)
    graph.erase_node(node)


def fake_value(target, args, kwargs):
    """``target`` run on the ``meta["val"]`` of its node arguments under their FakeTensorMode,
    as FakeTensorProp would; None where an argument has no FakeTensor value, or the op fails
    under FakeTensor. Guards the op would add to the ShapeEnv are suppressed and unbacked
    symbols it makes are not bound: filling in a value must not change what the compiled graph
    is specialized on."""
    from .fx import _fake_mode_of
    inputs = _nodes_in((args, kwargs))
    if not inputs or any("val" not in arg.meta for arg in inputs):
        return None
    mode = _fake_mode_of(arg.meta["val"] for arg in inputs)
    if mode is None:
        return None
    args, kwargs = torch.fx.node.map_arg((args, kwargs), lambda arg: arg.meta["val"])
    with contextlib.ExitStack() as stack:
        stack.enter_context(mode)
        shape_env = getattr(mode, "shape_env", None)
        for name in ("suppress_guards", "ignore_fresh_unbacked_symbols"):
            manager = getattr(shape_env, name, None)
            if manager is not None:
                stack.enter_context(manager())
        try:
            return target(*args, **kwargs)
        except Exception:  # noqa: BLE001: unsupported under FakeTensor: no value
            return None


def _nodes_in(value):
    nodes = []
    torch.fx.node.map_arg(value, nodes.append)
    return nodes


# --- verified ----------------------------------------------------------------------------------

def verified(graph_or_module, donated_input_ids, seed, decide):
    """``decide(graph, donated_input_ids) -> (remarks, rewrites)`` (the pass without
    verification; the rewrites as :func:`plan` gives them) applied to a copy of the graph, the
    copy run against the graph with
    torch (declone._verify), and the rewrite replayed on the graph only when nothing observable
    changed. Otherwise the graph stays as it was and each copy the rewrite avoided is kept, its
    remark saying why (does-not-verify: the first difference; cannot-verify: why the graph
    could not be run), as eliminate_clones(verify=True) does for clones."""
    from . import _verify
    if isinstance(graph_or_module, torch.fx.GraphModule):
        graph, root = graph_or_module.graph, graph_or_module
    else:
        graph, root = graph_or_module, graph_or_module.owning_module
    rewritten = _verify._copy_graph(graph)
    remarks, rewrites = decide(rewritten, donated_input_ids)
    if not rewrites:
        return remarks
    donated = _verify._placeholder_indices(graph, donated_input_ids)
    verdict = _verify.verify(graph, rewritten, donated, seed=seed, root=root)
    if verdict.equivalent:
        apply(graph, rewrites)  # the copy has the same node names
        return remarks
    if verdict.error is not None:
        reason, detail = _verify.CANNOT_VERIFY, f"verification could not run: {verdict.error}"
    else:
        reason, detail = _verify.REFUSED, f"the rewrite was refused: {verdict.difference}"
    return [_kept(remark, reason, detail) if remark.decision == "removed" else remark
            for remark in remarks]


def _kept(remark, reason, detail):
    """``remark`` (a copy avoided) turned into the copy kept for ``reason``, every other field
    (source, copy, bytes) as it was."""
    from . import _declone
    return _declone.Remark(node=remark.node, line=remark.line, decision="kept", reason=reason,
                           detail=detail, source=remark.source, code=remark.code,
                           copy=remark.copy, bytes=remark.bytes)
