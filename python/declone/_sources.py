"""The user's source line behind each remark of a live graph.

A remark's own location (``<fx>:LINE``) is a line of ``declone.fx.dumps``, a text nobody sees
unless they ask for it. The node a remark names usually knows better: Dynamo (and FX tracers
with ``record_stack_traces``) leave the Python stack of the user's call in
``node.meta["stack_trace"]``. The remark leads with its innermost frame, the line FX's own
``print_readable`` and tlparse show as ``# File: model.py:28 in forward, code: ...``, so a
remark points where the user already looks.
"""

import re

from . import _declone

# traceback.format_list's frame header, as torch/fx/graph.py's _parse_stack_trace matches it.
_FRAME = re.compile(r'^File "(.+)", line (\d+), in (.+)$')


def parse_stack_trace(stack_trace):
    """``("PATH:LINE", "code")`` of the innermost frame of a ``stack_trace`` (the last frame
    header followed by a line), or None. The same frame torch.fx's ``_parse_stack_trace`` picks
    for the ``# File:`` comments of ``print_readable``, so the remark and the printed graph agree.
    Written out rather than imported: torch 1.13 has no ``_parse_stack_trace``."""
    if not stack_trace:
        return None
    lines = stack_trace.strip().split("\n")
    for index in range(len(lines) - 2, -1, -1):
        frame = _FRAME.match(lines[index].strip())
        if frame is None:
            continue
        code = lines[index + 1].strip()
        if _FRAME.match(code):  # a frame printed without its code (source not available)
            code = ""
        return f"{frame.group(1)}:{frame.group(2)}", code
    return None


def _nodes_named(graph, names):
    """The nodes of ``graph`` with these names. The remarks name clones; a graph that can list
    the nodes of one target (torch 2.x's ``find_nodes``, an index) is spared a walk over all of
    its nodes, which on a large graph costs more than the pass."""
    found = {}
    find_nodes = getattr(graph, "find_nodes", None)
    if find_nodes is not None:
        import torch
        for node in find_nodes(op="call_function", target=torch.ops.aten.clone.default):
            if node.name in names:
                found[node.name] = node
    if len(found) < len(names):
        for node in graph.nodes:
            if node.name in names:
                found.setdefault(node.name, node)
    return found


def with_sources(graph, remarks):
    """``remarks`` with ``source`` and ``code`` filled in from the stack traces of the nodes
    they name, which must still be in ``graph`` (read before the removed clones are erased).
    A remark whose node has no stack trace is returned as it is."""
    if not remarks:
        return remarks
    nodes = _nodes_named(graph, {remark.node for remark in remarks})
    out = []
    for remark in remarks:
        node = nodes.get(remark.node)
        parsed = parse_stack_trace(node.meta.get("stack_trace")) if node is not None else None
        out.append(remark if parsed is None else located(remark, *parsed))
    return out


def located(remark, source, code):
    """``remark`` with ``source`` and ``code``, every other field as it was (a copy's ``copy`` and
    ``bytes`` too). An extension built before remarks had sources cannot make one: the remark
    stays as it is."""
    fields = dict(node=remark.node, line=remark.line, decision=remark.decision,
                  reason=remark.reason, detail=remark.detail, source=source, code=code)
    if getattr(remark, "copy", ""):
        fields.update(copy=remark.copy, bytes=remark.bytes)
    try:
        return _declone.Remark(**fields)
    except TypeError:
        return remark
