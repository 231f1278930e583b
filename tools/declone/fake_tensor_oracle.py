"""declone's FakeTensor oracle: runs one op at a time under torch's FakeTensorMode and says what
layout its results get, which is what a dump of a traced graph prints for them.

The CLI (`--fake-tensor`) runs this with `python -c` and talks to it in JSON lines on standard
input and output. It first answers {"ready": true, "torch": VERSION, "import_errors": [...]},
or {"error": WHY} when torch or its FakeTensor cannot be imported; "import_errors" says which of
the modules `--import=` names (below) could not be imported, and why. Then each request

    {"call": "torch.ops.aten.tril.default(t0, 1)",
     "tensors": [{"dtype": "float32", "device": "cpu", "sizes": [3, 4], "strides": [1, 3],
                  "offset": 0}]}

gets {"sequence": false, "results": [{"sizes": [3, 4], "strides": [4, 1], "offset": 0}]}
(a result that is not a tensor is null; "sequence" when the op returns a tuple or list), or
{"error": WHY} when the op cannot be run (with "no_such_op": true when this torch has no op of
that name, as for a custom op whose module was not imported), or {"declined": WHY} when it was
not run or stopped because of its size: arguments beyond the bounds below, more than the time
limit, or more than the memory limit. The CLI says why in a warning. A request's "id" comes
back in its reply.

Limits come as arguments after the script: `--memory-limit BYTES` (RLIMIT_DATA, set before
torch is imported) and `--time-limit SECONDS` (per call; the CLI stops a child that overruns it
much further, stuck where Python does not run). Each `--import=MODULE` (`--fake-tensor-import`)
is imported once torch is, so that the custom ops it defines (torch.library) exist: a module
name, found on PYTHONPATH or in the current directory, or the path of a .py file.

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
import signal  # noqa: E402

#: FakeTensor makes each tensor in Python, at about a millisecond apiece: an op that returns a
#: list is not run when an integer argument could ask for more than this many results (and is
#: larger than every dimension of its tensors, which a split size or an index never needs).
MAX_RESULTS = 1024
#: No real argument list is this long (a tensor has at most 64 dimensions).
MAX_LIST = 4096
#: Elements of one tensor: 2**48 is 256 T, far beyond any machine, and sizes near it make
#: FakeTensor's int64 arithmetic overflow.
MAX_NUMEL = 2 ** 48
#: Integers PyTorch uses as "no bound" (slice ends, sys.maxsize): never counted as sizes.
SENTINELS = frozenset({2 ** 63 - 1, -(2 ** 63), -(2 ** 63 - 1)})


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
        try:
            namespace = getattr(self.torch.ops, path[2])
            op = getattr(getattr(namespace, path[3]), path[4])
        except AttributeError as error:
            raise NoSuchOp(f"{error}") from None
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


class NoSuchOp(AttributeError):
    """torch.ops has no op of the call's name: one a module defines that is not imported here
    (the CLI suggests --fake-tensor-import), or a misspelling."""


class Declined(Exception):
    """The call is not run, or was stopped, because of its size: its layout stays unknown, and
    the CLI warns with the message."""


class TimeLimit(BaseException):
    """Raised by the alarm in the middle of an op. A BaseException, so that torch's own
    `except Exception` does not swallow it."""


def numel(sizes):
    count = 1
    for size in sizes:
        count *= size
    return count


def check_tensor_sizes(descriptions):
    """Raises Declined for a tensor beyond MAX_NUMEL, before any is made."""
    for description in descriptions:
        count = numel(description["sizes"])
        if count > MAX_NUMEL:
            raise Declined(f"a tensor has {count} elements, more than {MAX_NUMEL}")


def check_arguments(torch, op, args, kwargs, descriptions):
    """Raises Declined for a call whose arguments are beyond MAX_LIST or MAX_RESULTS."""
    returns_list = any(isinstance(value.type, torch.ListType) for value in op._schema.returns)
    largest = max([size for d in descriptions for size in d["sizes"]], default=0)
    pending = [*args, *kwargs.values()]
    while pending:
        value = pending.pop()
        if isinstance(value, (list, tuple)):
            if len(value) > MAX_LIST:
                raise Declined(f"a list of {len(value)} elements, more than {MAX_LIST}")
            pending.extend(value)
        elif isinstance(value, int) and not isinstance(value, bool) and \
                value not in SENTINELS and returns_list and abs(value) > max(MAX_RESULTS, largest):
            raise Declined(f"it returns a list, and its argument {value} could ask for that "
                           f"many tensors (the bound is {MAX_RESULTS}: FakeTensor makes about a "
                           "thousand a second)")


def run(torch, fake_mode_class, request):
    check_tensor_sizes(request["tensors"])
    with fake_mode_class():
        tensors = [fake_tensor(torch, t) for t in request["tensors"]]
        op, args, kwargs = CallReader(torch, tensors).read(request["call"])
        check_arguments(torch, op, args, kwargs, request["tensors"])
        result = op(*args, **kwargs)
    sequence = isinstance(result, (tuple, list))
    values = list(result) if sequence else [result]
    return {"sequence": sequence, "results": [describe(torch, v) for v in values]}


def limits(argv):
    """`--memory-limit BYTES` and `--time-limit SECONDS` from the arguments after the script."""
    found = {"--memory-limit": 0, "--time-limit": 0.0}
    for arg in argv:
        name, _, value = arg.partition("=")
        if name in found:
            found[name] = type(found[name])(value)
    return found["--memory-limit"], found["--time-limit"]


def imports(argv):
    """The modules of the `--import=MODULE` arguments, in order."""
    return [arg.partition("=")[2] for arg in argv if arg.partition("=")[0] == "--import"]


def import_module(name):
    """Imports a module by name, or a .py file by path (as a module named after the file).

    Only now, with torch and this script's own modules imported, do the current directory (for
    names) and the file's directory (for its own imports) join sys.path, and last: a dump
    folder's `ast.py` or `torch.py` is still not what anything imports."""
    import importlib
    import importlib.util
    if name.endswith(".py") or os.sep in name:
        path = os.path.abspath(name)
        stem = os.path.splitext(os.path.basename(path))[0]
        if not os.path.isfile(path):
            raise FileNotFoundError(f"no such file: {name}")
        if os.path.dirname(path) not in sys.path:
            sys.path.append(os.path.dirname(path))
        spec = importlib.util.spec_from_file_location(stem, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[stem] = module
        try:
            spec.loader.exec_module(module)
        except BaseException:
            del sys.modules[stem]
            raise
        return module
    if os.getcwd() not in sys.path:
        sys.path.append(os.getcwd())
    return importlib.import_module(name)


def import_modules(names):
    """Imports each module; what failed, as `MODULE: ERROR` lines."""
    errors = []
    for name in names:
        try:
            import_module(name)
        except BaseException as error:  # noqa: BLE001: SystemExit too; the op stays unknown
            errors.append(f"{name}: {type(error).__name__}: {error}"[:300])
    return errors


def limit_memory(limit):
    """RLIMIT_DATA (the heap and private mappings, not the libraries' code) of `limit` bytes,
    or less if the inherited limit is lower: running out is a MemoryError or a RuntimeError
    from torch's allocator, and the request's answer, not the machine's memory."""
    try:
        import resource
        soft, hard = resource.getrlimit(resource.RLIMIT_DATA)
        if hard != resource.RLIM_INFINITY:
            limit = min(limit, hard)
        if soft == resource.RLIM_INFINITY or soft > limit:
            resource.setrlimit(resource.RLIMIT_DATA, (limit, hard))
    except (ImportError, ValueError, OSError):
        pass  # no such limit here: the CLI's time limit still holds


def out_of_memory(error):
    return isinstance(error, MemoryError) or "can't allocate memory" in str(error)


#: Whether an op is running: the alarm stops only that, never the reply.
_running = False


def _alarm(signum, frame):
    if _running:
        raise TimeLimit()


def run_limited(torch, fake_mode_class, request, time_limit, memory_limit):
    """run(), stopped by SIGALRM after `time_limit` seconds (and every quarter second after, in
    case something catches the first); Declined replies for what is too large."""
    global _running
    try:
        try:
            if time_limit:
                signal.signal(signal.SIGALRM, _alarm)
                signal.setitimer(signal.ITIMER_REAL, time_limit, 0.25)
            _running = True
            return run(torch, fake_mode_class, request)
        finally:
            _running = False
            signal.setitimer(signal.ITIMER_REAL, 0)
    except TimeLimit:
        return {"declined": f"it took more than {time_limit:g} s under FakeTensor"}
    except Declined as error:
        return {"declined": f"not run: {error}"}
    except NoSuchOp as error:
        return {"error": f"{type(error).__name__}: {error}"[:300], "no_such_op": True}
    except Exception as error:  # noqa: BLE001: the op cannot be run: its layout is unknown
        if out_of_memory(error):
            return {"declined": "it needed more than the "
                                f"{memory_limit / 2 ** 30:.1f} GiB of memory it may use"}
        return {"error": f"{type(error).__name__}: {error}"[:300]}


def main():
    global _REPLIES
    memory_limit, time_limit = limits(sys.argv[1:])
    if memory_limit:
        limit_memory(memory_limit)
    # FakeTensor computes no values: threads (OpenMP's pool, each with its stack) buy nothing.
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    # Replies go to a copy of standard output; anything else written there (an op's print, a
    # kernel's printf) goes where standard error goes, so that the replies stay in step.
    _REPLIES = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    try:
        import torch
        from torch._subclasses.fake_tensor import FakeTensorMode
        torch.set_num_threads(1)
        # The first op under FakeTensorMode imports and sets up much (seconds): here, under the
        # CLI's start-up time limit, rather than in the first request, under its per-call one.
        run(torch, FakeTensorMode, {"call": "torch.ops.aten.tril.default(t0, 1)", "tensors": [
            {"dtype": "float32", "device": "cpu", "sizes": [3, 4], "strides": [1, 3],
             "offset": 0}]})
    except Exception as error:  # noqa: BLE001: any failure means no oracle
        _reply({"error": f"cannot import torch's FakeTensorMode: {error}"})
        return
    import_errors = import_modules(imports(sys.argv[1:]))
    _reply({"ready": True, "torch": torch.__version__, "import_errors": import_errors})
    for line in sys.stdin:
        request = {}
        try:
            request = json.loads(line)
            reply = run_limited(torch, FakeTensorMode, request, time_limit, memory_limit)
        except Exception as error:  # noqa: BLE001: a request that is not JSON
            reply = {"error": f"{type(error).__name__}: {error}"[:300]}
        # Each reply names its request.
        _reply(dict(reply, id=request.get("id") if isinstance(request, dict) else None))


if __name__ == "__main__":
    main()
