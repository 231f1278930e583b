"""Clone elimination on live torch.fx graphs, and the FX text format.

Only long-stable public FX APIs are used (Graph.nodes, Node.op/target/args/kwargs/meta/name,
replace_all_uses_with, erase_node, OpOverload._schema), so the same code runs with Debian's
torch 1.13 and with current PyTorch.
"""

import hashlib
import operator

import torch

from . import _declone

__all__ = ["eliminate_clones", "CloneEliminationPass", "dumps", "Remark"]

_DTYPE_ABBREVIATIONS = {
    torch.bool: "b8", torch.uint8: "u8", torch.int8: "i8", torch.int16: "i16",
    torch.int32: "i32", torch.int64: "i64", torch.float16: "f16", torch.bfloat16: "bf16",
    torch.float32: "f32", torch.float64: "f64", torch.complex64: "c64",
    torch.complex128: "c128",
}
for _name, _abbreviation in (("complex32", "c32"), ("uint16", "u16"), ("uint32", "u32"),
                             ("uint64", "u64"), ("float8_e4m3fn", "f8e4m3fn"),
                             ("float8_e5m2", "f8e5m2")):
    if hasattr(torch, _name):
        _DTYPE_ABBREVIATIONS[getattr(torch, _name)] = _abbreviation

# torch/fx/graph.py's magic_methods: these targets print as Python operators.
_BINARY = {
    operator.add: "+", operator.sub: "-", operator.mul: "*", operator.floordiv: "//",
    operator.truediv: "/", operator.mod: "%", operator.pow: "**", operator.lshift: "<<",
    operator.rshift: ">>", operator.and_: "&", operator.or_: "|", operator.xor: "^",
    operator.matmul: "@", operator.eq: "==", operator.ne: "!=", operator.lt: "<",
    operator.gt: ">", operator.le: "<=", operator.ge: ">=",
}
_UNARY = {operator.neg: "-", operator.pos: "+", operator.invert: "~"}


class Remark:
    """One clone decision. ``str()`` is the text remark of ``declone opt --remarks``."""

    __slots__ = ("node", "line", "decision", "reason", "detail")

    def __init__(self, node, line, decision, reason, detail):
        self.node, self.line, self.decision = node, line, decision
        self.reason, self.detail = reason, detail

    def __str__(self):
        text = f"<fx>:{self.line}: remark: clone '{self.node}' {self.decision}"
        if self.reason:
            text += f" [{self.reason}]"
        if self.detail:
            text += f": {self.detail}"
        return text

    __repr__ = __str__


def _meta_tensor(node):
    value = node.meta.get("val")
    if isinstance(value, torch.Tensor):
        return value, True
    meta = node.meta.get("tensor_meta")
    if meta is not None and hasattr(meta, "shape") and hasattr(meta, "dtype"):
        return meta, False
    return value, False


def _annotation(node):
    value, is_tensor = _meta_tensor(node)
    if is_tensor or (value is not None and hasattr(value, "shape") and hasattr(value, "dtype")):
        abbreviation = _DTYPE_ABBREVIATIONS.get(value.dtype)
        if abbreviation is None:
            return None
        sizes = ", ".join(str(size) for size in value.shape)
        text = f"{abbreviation}[{sizes}]"
        stride = value.stride() if callable(getattr(value, "stride", None)) else getattr(value, "stride", None)
        if stride is not None:
            text += "[" + ", ".join(str(s) for s in stride) + "]"
        if is_tensor:
            text += str(value.device)
            offset = value.storage_offset()
            if str(offset) != "0":
                text += f"@{offset}" if isinstance(offset, int) else f"@({offset})"
        return text
    if value is not None and type(value).__name__ in ("SymInt", "SymBool", "SymFloat"):
        return f"Sym({value})"
    return None


def _checked_annotation(node):
    # torch 1.13's symbolic tracing names sizes `t0.size(0)`, which is no sympy expression:
    # such an annotation is left out (unknown), not written malformed.
    text = _annotation(node)
    return None if text is not None and "." in text.split("]")[0] else text


def _target_text(target):
    if isinstance(target, torch._ops.OpOverload):
        return "torch.ops." + str(target)
    if isinstance(target, torch._ops.OpOverloadPacket):
        return "torch.ops." + str(target).replace("::", ".")
    name = getattr(target, "__name__", None)
    if type(target).__name__ in ("HigherOrderOperator", "AutoFunctionalized",
                                 "AutoFunctionalizedV2") or (
            name and name.startswith("auto_functionalized")):
        return "torch.ops.higher_order." + name
    module = getattr(target, "__module__", None) or "builtins"
    if module == "_operator":
        module = "operator"
    return f"{module}.{getattr(target, '__qualname__', name)}"


def _arg(value):
    if isinstance(value, torch.fx.Node):
        return value.name
    if isinstance(value, (list, tuple)):
        items = ", ".join(_arg(item) for item in value)
        if isinstance(value, list):
            return f"[{items}]"
        return f"({items},)" if len(value) == 1 else f"({items})"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_arg(k)}: {_arg(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (torch._ops.OpOverload, torch._ops.OpOverloadPacket)):
        return _target_text(value)
    if isinstance(value, torch.device):
        return repr(value)
    if isinstance(value, (torch.dtype, torch.memory_format, torch.layout)):
        return str(value)
    if isinstance(value, float):
        return repr(value)
    return repr(value)


def _call(node):
    args = [_arg(a) for a in node.args]
    kwargs = [f"{k} = {_arg(v)}" for k, v in node.kwargs.items()]
    if node.op == "call_function":
        if node.target is operator.getitem and len(node.args) == 2 and not node.kwargs:
            return f"{args[0]}[{args[1]}]"
        if node.target in _BINARY and len(node.args) == 2 and not node.kwargs:
            return f"{args[0]} {_BINARY[node.target]} {args[1]}"
        if node.target in _UNARY and len(node.args) == 1 and not node.kwargs:
            return f"{_UNARY[node.target]}{args[0]}"
        return f"{_target_text(node.target)}({', '.join(args + kwargs)})"
    if node.op == "call_method":
        return f"{args[0]}.{node.target}({', '.join(args[1:] + kwargs)})"
    if node.op == "call_module":
        return f"self.{node.target}({', '.join(args + kwargs)})"
    if node.op == "get_attr":
        return f"self.{node.target}"
    raise ValueError(f"cannot write node {node.name} ({node.op})")


def _graph_of(graph_or_module):
    return graph_or_module.graph if isinstance(graph_or_module, torch.fx.GraphModule) else graph_or_module


def dumps(graph_module):
    """The graph as FX text (print_readable's dialect with strides, devices and @OFFSET),
    readable by ``declone print``, ``opt`` and ``verify``."""
    # The C++ writer recomputes PyTorch's free lists, so the text is canonical.
    return _declone.print_text(_raw_text(_graph_of(graph_module)))


def _raw_text(graph):
    parameters, body = [], []
    for node in graph.nodes:
        annotation = _checked_annotation(node)
        typed = f': "{annotation}"' if annotation else ""
        if node.op == "placeholder":
            parameters.append(f"{node.name}{typed}")
        elif node.op == "output":
            body.append(f"        return {_arg(node.args[0])}")
        else:
            body.append(f"        {node.name}{typed} = {_call(node)}")
    header = ["class GraphModule(torch.nn.Module):",
              f"    def forward(self{''.join(', ' + p for p in parameters)}):"]
    return "\n".join(header + body) + "\n"


def _schemas(graph):
    seen, schemas = set(), []
    for node in graph.nodes:
        for target in (node.target, *(a for a in node.args if node.op == "call_function")):
            if isinstance(target, torch._ops.OpOverload) and target not in seen:
                seen.add(target)
                schemas.append(str(target._schema))
    return schemas


def eliminate_clones(graph, donated_input_ids=(), mode="safe"):
    """Removes redundant aten.clone nodes from a live torch.fx.Graph (or GraphModule) in place
    and returns one Remark per clone. ``donated_input_ids`` counts every placeholder."""
    graph = _graph_of(graph)
    nodes = {node.name: node for node in graph.nodes}
    decisions = _declone.eliminate_clones(_raw_text(graph), list(donated_input_ids), mode,
                                          _schemas(graph))
    remarks = []
    for name, line, decision, reason, detail in decisions:
        if decision == "removed":
            # Decisions come in program order, each made on the graph as rewritten so far:
            # replaying them in order gives the same graph.
            node = nodes[name]
            node.replace_all_uses_with(node.args[0])
            graph.erase_node(node)
        remarks.append(Remark(name, line, decision, reason, detail))
    return remarks


class CloneEliminationPass:
    """A callable on a graph, usable as torch._inductor.config.post_grad_custom_post_pass."""

    def __init__(self, donated_input_ids=(), mode="safe"):
        self.donated_input_ids = tuple(donated_input_ids)
        self.mode = mode
        self.remarks = []

    def __call__(self, graph):
        self.remarks = eliminate_clones(graph, self.donated_input_ids, self.mode)

    def uuid(self):
        key = f"declone-clone-elimination/1/{self.mode}/{self.donated_input_ids}"
        return hashlib.sha256(key.encode()).hexdigest()
