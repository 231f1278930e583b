"""Live verification at smaller sizes: ``declone verify``'s shrinking (lib/runtime/Shrink.cpp)
for torch.fx graphs whose placeholders have static sizes.

A run at a model's sizes (32768 tokens, a vocabulary of 151936) needs tens of gigabytes; the
same graph at 16 tokens shows the same layouts and the same aliasing, which is what a clone's
removal can change. The C++ planner (declone::SizeShrinker, through the _declone extension)
chooses the sizes and says which arguments of which calls hold them; Python never decides what
is a size. This module applies a plan to copies of both graphs, makes the inputs at its sizes,
and checks it by running the original once at them: every value must have its metadata's sizes
at the new sizes, and strides and an offset of the same kind. A size that a mismatch, or an op
that fails, involves keeps its value and the plan is made again (32 times at most); when no
plan checks out, the graphs run as annotated, and a note says why.
"""

import collections
import operator

import torch

from . import _declone, _verify

#: What a run may cost before shrinking stops (declone::ShrinkBudget, `declone verify`'s
#: --budget, --time-budget and --shrink-floor): estimated bytes and seconds, and the smallest
#: size a plan gives (only sizes above it shrink).
Budget = collections.namedtuple("Budget", ("bytes", "seconds", "floor"),
                                defaults=(512 << 20, 5.0, 16))

#: Plans tried before the graphs run as annotated (lib/runtime/Shrink.cpp's bound).
ATTEMPTS = 32

_CALLS = ("call_function", "call_method", "call_module")


class Shrunk:
    """The programs to run instead of the ones given (None: those), the ``changes`` ((from, to)
    pairs) they run at, and ``notes`` (why nothing shrank although the graphs do not fit)."""

    __slots__ = ("original", "rewrite", "changes", "notes")

    def __init__(self):
        self.original = self.rewrite = None
        self.changes, self.notes = [], []


def describe(changes):
    """``32768 -> 16, 151936 -> 32``, as the CLI names the sizes a run used."""
    return _declone.describe_size_changes(changes)


# --- layouts at the new sizes ----------------------------------------------------------------

def _static_layout(meta):
    """(sizes, strides, offset) of a tensor's metadata when they are integers (offset None for
    TensorMetadata, which has none); None for anything else."""
    if isinstance(meta, torch.Tensor):
        if meta.layout != torch.strided:
            return None
        sizes, strides, offset = list(meta.shape), list(meta.stride()), meta.storage_offset()
    elif _verify._is_tensor_metadata(meta):
        sizes, strides, offset = list(meta.shape), list(meta.stride), None
    else:
        return None
    if any(_verify._is_sym(v) for v in sizes + strides + [offset]):
        return None
    return [int(v) for v in sizes], [int(v) for v in strides], offset


def _changed_layout(sizes, strides, offset, changes):
    """The layout at the changed sizes, as lib/runtime/Shrink.cpp's changedAnnotation maps an
    annotation (the offset like a size); None when the strides cannot follow."""
    new_sizes = [_declone.changed_size(s, changes) for s in sizes]
    new_offset = _declone.changed_size(offset, changes)
    unchanged = [_declone.changed_size(s, changes) for s in strides] == list(strides)
    if new_sizes == list(sizes) and new_offset == offset and unchanged:
        return list(sizes), list(strides), offset  # untouched, whatever its kind of layout
    new_strides = _declone.changed_strides(sizes, strides, new_sizes, changes)
    return None if new_strides is None else (new_sizes, new_strides, new_offset)


def changed_layout(where, sizes, strides, offset, changes):
    """(sizes, strides, offset) of the input of ``where`` at the changed sizes; CannotRun when
    its strides cannot follow (the plan's check refuses such plans first)."""
    layout = _changed_layout(sizes, strides, offset, changes)
    if layout is None:
        raise _verify.CannotRun(f"the layout of {where} cannot take the sizes "
                                f"{describe(changes)}")
    return layout


def changed_value(where, value, changes):
    """A module attribute at the changed sizes: its leading elements, in the same kind of
    layout (gaps zeroed)."""
    if value.layout != torch.strided:
        return value
    sizes, strides, offset = list(value.shape), list(value.stride()), value.storage_offset()
    new_sizes, new_strides, new_offset = changed_layout(where, sizes, strides, offset, changes)
    if (new_sizes, new_strides, new_offset) == (sizes, strides, offset):
        return value
    extent = new_offset
    if all(size > 0 for size in new_sizes):
        extent += 1 + sum((size - 1) * stride for size, stride in zip(new_sizes, new_strides))
    out = torch.zeros(extent, dtype=value.dtype, device=value.device)
    out = out.as_strided(new_sizes, new_strides, new_offset)
    out.copy_(value[tuple(slice(0, size) for size in new_sizes)])
    return out


# --- the check of a plan ---------------------------------------------------------------------

class _Mismatch(Exception):
    def __init__(self, node):
        super().__init__(node.name)
        self.node = node


class _GiveUp(Exception):
    """No plan will do: the note says why."""


def _stride_class(sizes, strides):
    """Which dimensions step fastest, which do not step, and whether the layout is contiguous:
    what a kernel's path and a clone's necessity depend on, whatever the sizes (StrideClass)."""
    contiguous, expected, order, broadcast = True, 1, [], []
    for i in reversed(range(len(sizes))):
        if sizes[i] == 1:
            continue
        contiguous = contiguous and strides[i] == expected
        expected *= sizes[i]
        (broadcast if strides[i] == 0 else order).append(i)
    order.sort(key=lambda i: strides[i])
    return contiguous, order, broadcast


def _custom_op(node):
    """Whether the node's values come from an op outside aten and prims (directly, as an
    element of its results, or through auto_functionalized): its fake kernel's metadata, not
    libtorch's rules, says what it returns, and may disagree whatever the sizes."""
    if node.op != "call_function":
        return False
    target, args = node.target, node.args
    if target is operator.getitem:
        return bool(args) and isinstance(args[0], torch.fx.Node) and _custom_op(args[0])
    if args and isinstance(args[0], torch._ops.OpOverload) and not isinstance(
            target, (torch._ops.OpOverload, torch._ops.OpOverloadPacket)):
        target = args[0]  # a higher-order op's wrapped op
    name = _verify._op_name(target)
    return name is not None and name[0] not in ("aten", "prims")


def _involved(imported, changes, node):
    """The changed sizes at ``node`` (SizeShrinker::sizesAt), the most dominant first: what a
    mismatch there may be blamed on."""
    changed = {change[0] for change in changes}
    try:
        return [size for size in imported.sizes_at(node.name) if size in changed]
    except KeyError:  # a node the import did not see
        return []


class _Check:
    """lib/runtime/Shrink.cpp's firstMismatch, node by node as the original runs at the changed
    sizes: the first call whose value's sizes are not its metadata's at those sizes, or whose
    strides or offset are of another kind. Values of custom ops, values at which no size changed
    (their metadata and this torch disagree whatever the sizes) and what derives from them are
    not compared."""

    def __init__(self, imported, changes):
        self.imported, self.changes = imported, changes
        self.unfaithful = set()

    def matches(self, layout, value):
        sizes, strides, offset = layout
        expected = [_declone.changed_size(s, self.changes) for s in sizes]
        if list(value.shape) != expected:
            return False
        if _stride_class(sizes, strides) != _stride_class(list(value.shape),
                                                          list(value.stride())):
            return False
        return offset is None or (offset == 0) == (value.storage_offset() == 0)

    def __call__(self, node, value):
        if node.op not in _CALLS:
            return
        if any(n in self.unfaithful for n in node.all_input_nodes):
            self.unfaithful.add(node)
            return
        layout = _static_layout(_verify._metadata(node))
        if (layout is None or not isinstance(value, torch.Tensor)
                or value.layout != torch.strided or self.matches(layout, value)):
            return
        if _custom_op(node) or not _involved(self.imported, self.changes, node):
            self.unfaithful.add(node)
            return
        raise _Mismatch(node)


def _unfollowable(program, changes):
    """The first input (placeholder or module attribute) whose strides cannot take the changed
    sizes, or None."""
    for node in program.graph.nodes:
        if node.op == "placeholder":
            layout = _static_layout(_verify._metadata(node))
        elif node.op == "get_attr":
            try:
                value = program.fetch(node.target)
            except _verify.CannotRun:
                continue
            layout = _static_layout(value) if isinstance(value, torch.Tensor) else None
        else:
            continue
        if layout is not None and _changed_layout(*layout[:2], layout[2] or 0, changes) is None:
            return node
    return None


def _blamed(program, imported, changes, seed):
    """The node at which the run of ``program`` (the original at the changed sizes) is not as
    its metadata says, or None when every node is; _GiveUp when it fails where no changed size
    is involved."""
    node = _unfollowable(program, changes)
    if node is not None:
        return node
    try:
        inputs = _verify.make_inputs(program, seed, changes=changes)
    except _verify.CannotRun as error:
        raise _GiveUp(f"sizes not shrunk: {error}") from None
    check = _Check(imported, changes)
    try:
        program.run(inputs, seed, fill=0 if program.allocations else None, observe=check)
    except _Mismatch as mismatch:
        return mismatch.node
    except _verify._NodeFailed as error:
        if _involved(imported, changes, error.node):
            return error.node
        raise _GiveUp(f"sizes not shrunk: the graph does not run at smaller sizes ({error})") \
            from None
    return None


# --- plans -----------------------------------------------------------------------------------

def _import(graph):
    from . import fx
    return fx._import(graph, False)


def _shrinkable(program):
    """Whether every placeholder's metadata is static: a tensor's sizes, strides and offset are
    integers, or it is a plain value. Symbolic sizes run at their hints, as before."""
    for node in program.placeholders:
        meta = _verify._metadata(node)
        if meta is None or _verify._is_sym(meta):
            return False
        if isinstance(meta, torch.Tensor) or _verify._is_tensor_metadata(meta):
            if _static_layout(meta) is None:
                return False
    return True


def _pinned(program):
    """Integer placeholders' values: the planner does not see them, so no size may take or
    leave their values."""
    pinned = set()
    for node in program.placeholders:
        meta = _verify._metadata(node)
        if isinstance(meta, int) and not isinstance(meta, bool) and abs(meta) >= 2:
            pinned.add(abs(meta))
    return pinned


def _replaced(arg, element, value):
    if element is None:
        return value
    items = list(arg)
    items[element] = value
    return tuple(items) if isinstance(arg, tuple) else items


def _edited_copy(program, edits):
    """A copy of ``program``'s graph with the planner's edits ((node name, position, keyword,
    element, value)) made to its nodes' arguments."""
    graph = _verify._copy_graph(program.graph)
    nodes = {node.name: node for node in graph.nodes}
    for name, position, keyword, element, value in edits:
        node = nodes[name]
        if keyword is None:
            args = list(node.args)
            args[position] = _replaced(args[position], element, value)
            node.args = tuple(args)
        else:
            kwargs = dict(node.kwargs)
            kwargs[keyword] = _replaced(kwargs[keyword], element, value)
            node.kwargs = kwargs
    return _verify.Program(graph, program.root)


def _first_line(error):
    return (str(error).strip().splitlines() or [type(error).__name__])[0]


def shrink(original, rewrite, seed, budget=Budget()):
    """Smaller sizes for running ``original`` and ``rewrite`` (Programs), when the original's
    placeholders have static sizes and a run would cost more than ``budget``: a Shrunk with
    edited copies of both and the changes, or without them (run as annotated), with a note when
    the graphs do not fit but nothing could shrink."""
    out = Shrunk()
    if not _shrinkable(original):
        return out
    try:
        imported = _import(original.graph)
    except Exception as error:  # noqa: BLE001: a graph the planner cannot read runs as it is
        out.notes.append(f"sizes not shrunk: the graph cannot be planned ({_first_line(error)})")
        return out
    pinned = _pinned(original)
    given = set(pinned)
    for _ in range(ATTEMPTS):
        changes = [tuple(change) for change in imported.shrink_plan(*budget, pinned)]
        if not changes:
            if pinned != given:
                kept = ", ".join(str(size) for size in sorted(pinned - given))
                out.notes.append("sizes not shrunk: no plan kept the graph as annotated "
                                 f"(sizes kept: {kept})")
            return out
        program = _edited_copy(original, imported.size_edits(changes))
        try:
            blamed = _blamed(program, imported, changes, seed)
        except _GiveUp as give_up:
            out.notes.append(str(give_up))
            return out
        if blamed is None:
            try:
                edits = _import(rewrite.graph).size_edits(changes)
            except Exception as error:  # noqa: BLE001: as above
                out.notes.append("sizes not shrunk: the rewrite cannot be planned "
                                 f"({_first_line(error)})")
                return out
            rewritten = _edited_copy(rewrite, edits)
            unfollowable = _unfollowable(rewritten, changes)
            if unfollowable is not None:  # an attribute only the rewrite reads
                out.notes.append(f"sizes not shrunk: the rewrite's input {unfollowable.name} "
                                 "cannot take them")
                return out
            out.original, out.rewrite, out.changes = program, rewritten, changes
            return out
        # Keep the least dominant of the changed sizes the mismatch involves, and plan again.
        kept = _involved(imported, changes, blamed)
        if not kept:
            out.notes.append(f"sizes not shrunk: {blamed.name} is not as annotated at smaller "
                             "sizes")
            return out
        pinned.add(kept[-1])
    out.notes.append(f"sizes not shrunk: none of {ATTEMPTS} plans kept the graph as annotated")
    return out
