"""declone's FakeTensor oracle: runs one op at a time under torch's FakeTensorMode and says what
layout its results get, which is what a dump of a traced graph prints for them.

The CLI (`--fake-tensor`) runs this with `python -c` and talks to it in JSON lines on standard
input and output. It first answers {"ready": true, "torch": VERSION}, or {"error": WHY} when
torch or its FakeTensor cannot be imported. Then each request

    {"call": "torch.ops.aten.tril.default(t0, 1)",
     "tensors": [{"dtype": "float32", "device": "cpu", "sizes": [3, 4], "strides": [1, 3],
                  "offset": 0}]}

gets {"sequence": false, "results": [{"sizes": [3, 4], "strides": [4, 1], "offset": 0}]}
(a result that is not a tensor is null; "sequence" when the op returns a tuple or list), or
{"error": WHY} when the op cannot be run. A request's "id" comes back in its reply.

The call is the dump's own text, so it is not evaluated as Python: only an op of torch.ops
applied to literals, the tensors t0, t1, ..., lists and tuples of them, torch's dtypes, memory
formats and layouts, and device(...) is accepted.
"""

import sys

# `python -c` puts the current directory first on sys.path: a dump folder's `ast.py` or
# `torch.py` must not be what is imported.
sys.path[:] = [path for path in sys.path if path not in ("", ".")]

import ast  # noqa: E402
import json  # noqa: E402
import math  # noqa: E402
import os  # noqa: E402


_REPLIES = sys.stdout


def _reply(message):
    _REPLIES.write(json.dumps(message) + "\n")
    _REPLIES.flush()


class CallReader:
    """Rebuilds a call from its text without evaluating any of it as Python."""

    def __init__(self, torch, tensors):
        self.torch = torch
        self.tensors = tensors

    def read(self, text):
        call = ast.parse(text, mode="eval").body
        if not isinstance(call, ast.Call):
            raise ValueError("not a call")
        op = self.operator(call.func)
        args = [self.value(arg) for arg in call.args]
        kwargs = {keyword.arg: self.value(keyword.value) for keyword in call.keywords
                  if keyword.arg is not None}
        if len(kwargs) != len(call.keywords):
            raise ValueError("** arguments")
        return op, args, kwargs

    def operator(self, node):
        path = self.dotted(node)
        if len(path) != 5 or path[:2] != ["torch", "ops"] or \
                any(part.startswith("__") for part in path):
            raise ValueError("not an operator overload of torch.ops")
        namespace = getattr(self.torch.ops, path[2])
        op = getattr(getattr(namespace, path[3]), path[4])
        if not isinstance(op, self.torch._ops.OpOverload):
            raise ValueError("not an operator overload")
        return op

    @staticmethod
    def dotted(node):
        parts = []
        while isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        if not isinstance(node, ast.Name):
            raise ValueError("not a dotted name")
        parts.append(node.id)
        return parts[::-1]

    def value(self, node):
        torch = self.torch
        if isinstance(node, ast.Constant):
            if isinstance(node.value, (bool, int, float, complex, str)) or node.value is None:
                return node.value
            raise ValueError("unsupported constant")
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            operand = self.value(node.operand)
            if isinstance(operand, bool) or not isinstance(operand, (int, float, complex)):
                raise ValueError("sign of a non-number")
            return -operand if isinstance(node.op, ast.USub) else operand
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub)):
            # complex literals: (1+2j)
            left, right = self.value(node.left), self.value(node.right)
            if not all(isinstance(v, (int, float, complex)) and not isinstance(v, bool)
                       for v in (left, right)) or not isinstance(right, complex):
                raise ValueError("arithmetic in an argument")
            return left + right if isinstance(node.op, ast.Add) else left - right
        if isinstance(node, ast.List):
            return [self.value(element) for element in node.elts]
        if isinstance(node, ast.Tuple):
            return tuple(self.value(element) for element in node.elts)
        if isinstance(node, ast.Name):
            if node.id in ("inf", "nan"):
                return math.inf if node.id == "inf" else math.nan
            if node.id.startswith("t") and node.id[1:].isdigit():
                return self.tensors[int(node.id[1:])]
            raise ValueError(f"unknown name {node.id}")
        if isinstance(node, ast.Attribute):
            path = self.dotted(node)
            if len(path) == 2 and path[0] == "torch":
                value = getattr(torch, path[1], None)
                if isinstance(value, (torch.dtype, torch.memory_format, torch.layout)):
                    return value
            raise ValueError("unsupported attribute " + ".".join(path))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                node.func.id == "device":
            args = [self.value(arg) for arg in node.args]
            kwargs = {k.arg: self.value(k.value) for k in node.keywords}
            if not all(isinstance(v, (str, int)) for v in [*args, *kwargs.values()]):
                raise ValueError("unsupported device")
            return torch.device(*args, **kwargs)
        raise ValueError("unsupported argument " + type(node).__name__)


def fake_tensor(torch, description):
    """A fake tensor of the given dtype, device, sizes, strides and storage offset, viewing a
    storage just large enough."""
    sizes, strides = description["sizes"], description["strides"]
    offset = description["offset"]
    if len(sizes) != len(strides) or any(s < 0 for s in [*sizes, *strides, offset]):
        raise ValueError("bad layout")
    extent = offset
    if all(size > 0 for size in sizes):
        extent += 1 + sum((size - 1) * stride for size, stride in zip(sizes, strides))
    dtype = getattr(torch, description["dtype"])
    if not isinstance(dtype, torch.dtype):
        raise ValueError("bad dtype")
    storage = torch.empty(extent, dtype=dtype, device=torch.device(description["device"]))
    return storage.as_strided(sizes, strides, offset)


def describe(torch, value):
    if not isinstance(value, torch.Tensor):
        return None
    return {"sizes": list(value.shape), "strides": list(value.stride()),
            "offset": value.storage_offset()}


def run(torch, fake_mode_class, request):
    with fake_mode_class():
        tensors = [fake_tensor(torch, t) for t in request["tensors"]]
        op, args, kwargs = CallReader(torch, tensors).read(request["call"])
        result = op(*args, **kwargs)
    sequence = isinstance(result, (tuple, list))
    values = list(result) if sequence else [result]
    return {"sequence": sequence, "results": [describe(torch, v) for v in values]}


def main():
    global _REPLIES
    # Replies go to a copy of standard output; anything else written there (an op's print, a
    # kernel's printf) goes where standard error goes, so that the replies stay in step.
    _REPLIES = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    try:
        import torch
        from torch._subclasses.fake_tensor import FakeTensorMode
    except Exception as error:  # noqa: BLE001: any failure means no oracle
        _reply({"error": f"cannot import torch's FakeTensorMode: {error}"})
        return
    _reply({"ready": True, "torch": torch.__version__})
    for line in sys.stdin:
        request = {}
        try:
            request = json.loads(line)
            reply = run(torch, FakeTensorMode, request)
        except Exception as error:  # noqa: BLE001: the op cannot be run: its layout is unknown
            reply = {"error": f"{type(error).__name__}: {error}"[:300]}
        # Each reply names its request.
        _reply(dict(reply, id=request.get("id") if isinstance(request, dict) else None))


if __name__ == "__main__":
    main()
