"""A Python restatement of vLLM's UnsafeCloneEliminationPass, releases 0.33.0 and 0.32.0.

Written from DESIGN.md section 4 ("vllm" mode), as the yardstick that declone's vllm mode is
compared against (decision for decision, in test/python) and timed against (clone_pass_bench.py).

For each aten.clone in program order: the direct users of the clone that write it through a
positional argument (per ``target._schema.arguments[i].is_write``; the output node and
auto_functionalized are not writes) are its writers. The clone is kept if its layout differs
from the original's (compared only when both nodes carry metadata), or if there is a writer
and either a user of the original comes after it or the original is a placeholder that is not
donated. Otherwise every use of the clone becomes a use of the original and the clone is erased.
Node positions are numbered once, before anything is removed, as vLLM does. 0.33.0 also keeps
a clone nobody writes when the clone's storage is a graph output's and the original's is a graph
input's or an output's (``would_alias_graph_io``; a node without a tensor value counts as
sharing). test/vllm holds declone's vllm modes to the real vLLM; this restatement serves the
interpreters that have no vLLM (Debian's torch 1.13) and the benchmark.

Where vLLM asserts (a writer without an OpOverload target, more positional arguments than the
schema, more than one writer), this restatement keeps the clone instead, as declone's vllm mode
does.
"""

import torch

__all__ = ["vllm_clone_elimination", "VllmDecision"]

_CLONE = torch.ops.aten.clone.default


class VllmDecision:
    __slots__ = ("node", "decision", "why")

    def __init__(self, node, decision, why=""):
        self.node, self.decision, self.why = node, decision, why

    def __repr__(self):
        return f"VllmDecision({self.node!r}, {self.decision!r}, {self.why!r})"


def _is_auto_functionalized(target):
    name = getattr(target, "__name__", "") or ""
    return name.startswith("auto_functionalized")


def _is_write(argument):
    """Argument.is_write (newer torch), or its alias annotation's (torch 1.13 has only that)."""
    is_write = getattr(argument, "is_write", None)
    if is_write is not None:
        return is_write
    alias_info = argument.alias_info
    return alias_info is not None and alias_info.is_write


def _writes(user, node):
    """True/False as vLLM's user_writes_to_node, or None where vLLM would assert."""
    if user.op == "output":
        return False
    if user.op == "call_function" and _is_auto_functionalized(user.target):
        return False
    if not isinstance(user.target, torch._ops.OpOverload):
        return None
    arguments = user.target._schema.arguments
    if len(user.args) > len(arguments):
        return None
    for i, arg in enumerate(user.args):
        if arg is node and _is_write(arguments[i]):
            return True
    return False


def _layout(node):
    """(stride, storage_offset) from node.meta, or None without metadata. torch 1.13's
    TensorMetadata has no storage offset: None stands for "not recorded"."""
    value = node.meta.get("val")
    if isinstance(value, torch.Tensor):
        return tuple(value.stride()), value.storage_offset()
    meta = node.meta.get("tensor_meta")
    if meta is not None and getattr(meta, "stride", None) is not None:
        return tuple(meta.stride), getattr(meta, "storage_offset", None)
    return None


def _layout_changes(clone, original):
    a, b = _layout(clone), _layout(original)
    if a is None or b is None:
        return False
    if a[0] != b[0]:
        return True
    return a[1] is not None and b[1] is not None and a[1] != b[1]


def _storage(node):
    """torch._inductor.fx_utils.get_node_storage, which torch 1.13 lacks."""
    value = node.meta.get("val")
    if not isinstance(value, torch.Tensor):
        return None
    storage = value.untyped_storage() if hasattr(value, "untyped_storage") else value.storage()
    return storage._cdata


def _would_alias_graph_io(clone, original):
    clone_storage, original_storage = _storage(clone), _storage(original)
    if clone_storage is None or original_storage is None:
        return True
    graph = clone.graph
    output = next(node for node in reversed(graph.nodes) if node.op == "output")
    outputs = {_storage(node) for node in output.all_input_nodes}
    inputs = {_storage(node) for node in graph.nodes if node.op == "placeholder"}
    return clone_storage in outputs and original_storage in inputs | outputs


def vllm_clone_elimination(graph, donated_input_ids=(), release="0.33"):
    """Rewrites ``graph`` (a torch.fx.Graph) in place as vLLM ``release`` ("0.33" or "0.32")
    does; returns one VllmDecision per clone."""
    donated = set(donated_input_ids)
    node_to_idx = {node: i for i, node in enumerate(graph.nodes)}
    decisions = []
    for node in list(graph.nodes):
        if node.op != "call_function" or node.target is not _CLONE:
            continue
        original = node.args[0] if node.args else None
        if not isinstance(original, torch.fx.Node):
            decisions.append(VllmDecision(node.name, "kept", "assert: input is not a node"))
            continue
        if _layout_changes(node, original):
            decisions.append(VllmDecision(node.name, "kept", "layout"))
            continue
        write_idxs, asserted = [], False
        for user in node.users:
            writes = _writes(user, node)
            if writes is None:
                asserted = True
                break
            if writes:
                write_idxs.append(node_to_idx[user])
        if asserted or len(write_idxs) > 1:
            decisions.append(VllmDecision(node.name, "kept", "assert"))
            continue
        if write_idxs:
            write_idx = write_idxs[0]
            if any(node_to_idx[user] > write_idx for user in original.users):
                decisions.append(VllmDecision(node.name, "kept", "original used after write"))
                continue
            if original.op == "placeholder" and node_to_idx[original] not in donated:
                decisions.append(VllmDecision(node.name, "kept", "non-donated input"))
                continue
        elif release != "0.32" and _would_alias_graph_io(node, original):
            decisions.append(VllmDecision(node.name, "kept", "would alias graph io"))
            continue
        node.replace_all_uses_with(original)
        graph.erase_node(node)
        decisions.append(VllmDecision(node.name, "removed"))
    return decisions
