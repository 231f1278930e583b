"""Live verification: a torch.fx graph run before and after a rewrite with torch itself.

Both graphs run with the program's own kernels (custom ops' real CPU kernels included) on the
same random inputs, made from the placeholders' metadata (``meta["val"]`` or ``tensor_meta``:
sizes, strides, storage offset, dtype, device), each run on copies of them. The comparison is
``declone verify``'s (lib/runtime/Verify.cpp), with its messages: every output's values (a NaN
equals any NaN, 0 and -0 differ), sizes, strides and storage offset, the final contents of
every input the caller keeps and of the module's attributes, and which outputs share storage
with which inputs and with each other. Memory the kernels leave uninitialized (``empty`` and
its family, what ``resize_`` adds) is filled, with zeros in one run and ones in another, so
that values taken from it are told apart and compared by metadata only.

``eliminate_clones`` is ``declone.fx.eliminate_clones(..., verify=True)``: it rewrites a copy,
runs both, and applies the rewrite to the caller's graph only when nothing observable changed.
The test suite's run-and-compare helpers (test/python/declone_test_support.py) use the
comparison and the copies made here.
"""

import contextlib
import copy
import random

import torch
import torch.utils._pytree as pytree

# Run, copy_value, differences, flatten and run_callable are this module's API too.
from ._compare import (Run, _Comparison, _dtype_name, _storage, compare_values,  # noqa: F401
                       copy_value, differences, flatten, run_callable, storage_key)

__all__ = ["Verdict", "Run", "verify", "differences", "copy_value", "flatten",
           "eliminate_clones", "REFUSED", "CANNOT_VERIFY"]

#: Reason codes of the remarks of a rewrite verify=True refused: it changed something the caller
#: can observe (`declone opt --verify`: "the rewrite does not verify"), or the graph could not
#: be run to tell.
REFUSED = "does-not-verify"
CANNOT_VERIFY = "cannot-verify"

#: The range integer inputs are drawn from (`declone verify`'s default --int-range).
INTEGER_RANGE = (0, 16)


class CannotRun(Exception):
    """The graph cannot be run: a placeholder without metadata to make its input from, a value
    that cannot be made, an op that fails on the inputs."""


class _NodeFailed(Exception):
    """An op of the graph raised. The message is kept apart from ``args``, which torch 1.13's
    Interpreter extends with the node's code."""

    def __init__(self, node, error):
        super().__init__()
        self.node = node
        first = (str(error).strip().splitlines() or [type(error).__name__])[0]
        self.message = f"{node.name} ({_target_name(node)}) raised {type(error).__name__}: {first}"

    def __str__(self):
        return self.message


class Verdict:
    """What verify() found: ``equivalent`` (None when the graphs could not be run: ``error``
    says why), the first ``difference`` (``output 0: stride (5, 1) != (3, 1)``), ``notes``
    (values compared by metadata only), the number of ``trials`` run and the ``sizes`` the runs
    used instead of the annotated ones, as (from, to) pairs ([]: as annotated; see _shrink.py).
    True when equivalent."""

    __slots__ = ("equivalent", "difference", "error", "notes", "trials", "sizes")

    def __init__(self, equivalent, difference=None, error=None, notes=(), trials=0, sizes=()):
        self.equivalent, self.difference, self.error = equivalent, difference, error
        self.notes, self.trials, self.sizes = list(notes), trials, list(sizes)

    def __bool__(self):
        return self.equivalent is True

    def __repr__(self):
        if self.error is not None:
            return f"Verdict(cannot run: {self.error})"
        return "Verdict(equivalent)" if self.equivalent else f"Verdict({self.difference})"


# --- symbols and metadata --------------------------------------------------------------------

_SYM_TYPES = tuple(getattr(torch, name) for name in ("SymInt", "SymFloat", "SymBool")
                   if hasattr(torch, name))


def _is_sym(value):
    return bool(_SYM_TYPES) and isinstance(value, _SYM_TYPES)


def _metadata(node):
    """The placeholder's example value: meta["val"], else its tensor_meta; None if neither."""
    if "val" in node.meta:
        return node.meta["val"]
    return node.meta.get("tensor_meta")


def _is_fake(value):
    try:
        from torch._subclasses.fake_tensor import FakeTensor
    except ImportError:
        return False
    return isinstance(value, FakeTensor)


def _is_tensor_metadata(value):
    return (not isinstance(value, torch.Tensor) and hasattr(value, "shape")
            and hasattr(value, "dtype") and hasattr(value, "stride"))


def _sym_values_of(value):
    """The Sym values a placeholder's metadata holds (sizes, strides, offset, or itself)."""
    if _is_sym(value):
        return [value]
    if isinstance(value, torch.Tensor):
        out = list(value.shape)
        if value.layout == torch.strided:
            out += list(value.stride()) + [value.storage_offset()]
        return [v for v in out if _is_sym(v)]
    if _is_tensor_metadata(value):
        return [v for v in list(value.shape) + list(value.stride) if _is_sym(v)]
    return []


class _Symbols:
    """Values for the size symbols of the placeholders' metadata: their hints (the sizes the
    graph was traced with), else small random ones (2 to 8: PyTorch specializes 0 and 1) within
    the symbol's range, the same symbol the same value everywhere."""

    def __init__(self, placeholders, seed):
        self.values = {}  # sympy symbol -> int
        rng = random.Random(seed * 0x9E3779B97F4A7C15 + 1)
        for node in placeholders:
            for value in _sym_values_of(_metadata(node)):
                shape_env = getattr(value.node, "shape_env", None)
                # The hints: backed_var_to_val since torch 2.11 or so, var_to_val before.
                hints = getattr(shape_env, "backed_var_to_val", None)
                if hints is None:
                    hints = getattr(shape_env, "var_to_val", None) or {}
                ranges = getattr(shape_env, "var_to_range", None) or {}
                for symbol in sorted(value.node.expr.free_symbols, key=str):
                    if symbol in self.values:
                        continue
                    hint = hints.get(symbol)
                    if hint is not None:
                        try:
                            self.values[symbol] = int(hint)
                            continue
                        except (TypeError, ValueError):
                            pass
                    low, high = 2, 8
                    bounds = ranges.get(symbol)
                    try:
                        low = max(low, int(bounds.lower))
                    except (AttributeError, TypeError, ValueError, OverflowError):
                        pass
                    try:
                        high = max(low, min(high, int(bounds.upper)))
                    except (AttributeError, TypeError, ValueError, OverflowError):
                        high = max(low, high)
                    self.values[symbol] = rng.randint(low, high)

    def evaluate(self, value, where):
        """``value`` (an int, a SymInt, SymFloat or SymBool) as a Python number."""
        if not _is_sym(value):
            return value
        import sympy
        expr = value.node.expr
        result = sympy.sympify(expr).xreplace({s: sympy.Integer(self.values[s])
                                               for s in expr.free_symbols if s in self.values})
        if result.free_symbols:
            raise CannotRun(f"cannot evaluate {expr} in the metadata of {where}")
        if isinstance(value, getattr(torch, "SymBool", ())):
            return bool(result)
        if isinstance(value, getattr(torch, "SymFloat", ())):
            return float(result)
        return int(result)

    def describe(self):
        values = sorted(self.values.items(), key=lambda item: str(item[0]))
        return ", ".join(f"{symbol}={value}" for symbol, value in values)


def _available(device):
    """The device a value of ``device`` is made on: itself where it can run, else the CPU."""
    device = torch.device(device)
    if device.type == "cpu":
        return device
    module = getattr(torch, device.type, None)
    try:
        if device.type != "meta" and module is not None and module.is_available():
            return device
    except Exception:  # noqa: BLE001: a backend that cannot say is not available
        pass
    return torch.device("cpu")


# --- inputs ----------------------------------------------------------------------------------

def _op_name(target):
    """``("aten", "embedding", "default")`` for an OpOverload, overload None for a packet or a
    torch function or Tensor method (by name); None otherwise."""
    schema = getattr(target, "_schema", None)
    if isinstance(target, torch._ops.OpOverload) and schema is not None:
        namespace, _, name = schema.name.partition("::")
        return namespace, name, schema.overload_name or "default"
    if isinstance(target, torch._ops.OpOverloadPacket):
        namespace, _, name = target._qualified_op_name.partition("::")
        return namespace, name, None
    if isinstance(target, str):
        return "aten", target, None
    name = getattr(target, "__name__", None)
    if name and (getattr(torch, name, None) is target
                 or getattr(torch.Tensor, name, None) is target):
        return "aten", name, None
    return None


def _target_name(node):
    if node.op in ("call_function", "call_method"):
        target = node.target
        if isinstance(target, (torch._ops.OpOverload, torch._ops.OpOverloadPacket)):
            return str(target)
        return getattr(target, "__name__", str(target))
    return f"{node.op} {node.target}"


_INDEX_BY_DIM = frozenset({
    "gather", "index_select", "scatter", "scatter_", "scatter_add", "scatter_add_",
    "scatter_reduce", "scatter_reduce_", "index_add", "index_add_", "index_copy", "index_copy_",
    "index_fill", "index_fill_"})
_INDEX_LISTS = frozenset({"index", "_unsafe_index", "index_put", "index_put_", "_index_put_impl_",
                          "_unsafe_index_put"})


def _index_bounds(graph, symbols, changes=()):
    """For the placeholders whose integer values end up as indices (embedding's into the
    weight's rows, gather's and friends' into self's dimension ``dim``, index's and index_put's
    i-th into self's dimension i), through any op on the way, the smallest extent they index:
    values beyond it would make the graph fail, not test it (verify's indexBounds). Extents are
    read from the metadata, at the sizes ``changes`` gives."""
    bounds = {}

    def extent(tensor, dim):
        if not isinstance(tensor, torch.fx.Node) or not isinstance(dim, int):
            return None
        meta = _metadata(tensor)
        if not (isinstance(meta, torch.Tensor) or _is_tensor_metadata(meta)):
            return None
        shape = list(meta.shape)
        if dim < 0:
            dim += len(shape)
        if not 0 <= dim < len(shape):
            return None
        try:
            size = int(symbols.evaluate(shape[dim], tensor.name))
        except CannotRun:
            return None
        if changes:
            from ._declone import changed_size
            size = changed_size(size, changes)
        return size

    def bound(index, limit):
        if not isinstance(index, torch.fx.Node) or limit is None or limit <= 0:
            return
        stack, seen = [index], {index}
        while stack:
            node = stack.pop()
            if node.op == "placeholder":
                bounds[node] = min(bounds.get(node, limit), limit)
                continue
            for value in node.all_input_nodes:
                if value not in seen:
                    seen.add(value)
                    stack.append(value)

    for node in graph.nodes:
        name = _op_name(node.target) if node.op == "call_function" else None
        if not name or name[0] != "aten":
            continue
        op, args = name[1], node.args
        if op == "embedding" and len(args) >= 2:
            bound(args[1], extent(args[0], 0))
        elif op == "embedding_dense_backward" and len(args) >= 3 and isinstance(args[2], int):
            bound(args[1], args[2])
        elif op in _INDEX_BY_DIM and len(args) >= 3 and isinstance(args[1], int):
            bound(args[2], extent(args[0], args[1]))
        elif op in _INDEX_LISTS and len(args) >= 2 and isinstance(args[1], (list, tuple)):
            for dim, index in enumerate(args[1]):
                bound(index, extent(args[0], dim))
    return bounds


def _integer_range(dtype, bound):
    low, high = INTEGER_RANGE
    if bound is not None:
        low, high = max(low, 0), min(high, bound)
        if low >= high:
            low, high = 0, bound
    info = torch.iinfo(dtype)
    low, high = max(low, info.min), min(high, info.max + 1)
    return low, high


def _make_tensor(where, meta, symbols, generator, bound, changes=()):
    if isinstance(meta, torch.Tensor):
        if meta.layout != torch.strided:
            raise CannotRun(f"{where} is a {meta.layout} tensor: no input is made for it")
        if meta.is_quantized:
            raise CannotRun(f"{where} is quantized: no input is made for it")
        sizes, strides = list(meta.shape), list(meta.stride())
        offset, device = meta.storage_offset(), meta.device
    else:  # TensorMetadata: no storage offset, no device
        if getattr(meta, "is_quantized", False):
            raise CannotRun(f"{where} is quantized: no input is made for it")
        sizes, strides, offset, device = list(meta.shape), list(meta.stride), 0, "cpu"
    dtype = meta.dtype
    sizes = [symbols.evaluate(v, where) for v in sizes]
    strides = [symbols.evaluate(v, where) for v in strides]
    offset = symbols.evaluate(offset, where)
    if changes:
        from ._shrink import changed_layout
        sizes, strides, offset = changed_layout(where, sizes, strides, offset, changes)
    if any(size == 0 for size in sizes):
        extent = offset
    else:
        extent = offset + 1 + sum((size - 1) * stride for size, stride in zip(sizes, strides))
    try:
        if dtype.is_complex:
            base = torch.view_as_complex(torch.randn(extent, 2, generator=generator,
                                                     dtype=torch.float64)).to(dtype)
        elif dtype.is_floating_point:
            base = torch.randn(extent, generator=generator, dtype=torch.float64).to(dtype)
        elif dtype == torch.bool:
            base = torch.randint(0, 2, (extent,), generator=generator).to(torch.bool)
        else:
            low, high = _integer_range(dtype, bound)
            base = torch.randint(low, high, (extent,), generator=generator,
                                 dtype=torch.int64).to(dtype)
        base = base.to(_available(device))
        return base.as_strided(sizes, strides, offset)
    except (RuntimeError, TypeError, ValueError) as error:
        first = (str(error).strip().splitlines() or [""])[0]
        raise CannotRun(f"cannot make the input of {where} ({_dtype_name(dtype)}, sizes "
                        f"{tuple(sizes)}): {first}") from None


class Inputs:
    """The inputs of a trial: one value per placeholder, the module's attributes by target,
    and the symbols' values."""

    def __init__(self, values, attributes, symbols):
        self.values, self.attributes, self.symbols = values, attributes, symbols


def make_inputs(program, seed, bounds_from=(), changes=()):
    """Random inputs for ``program``'s placeholders that honour their metadata (at the sizes
    ``changes``, (from, to) pairs, gives); integer inputs that index (in this graph or those of
    ``bounds_from``) stay within what they index."""
    placeholders = program.placeholders
    symbols = _Symbols(placeholders, seed)
    bounds = {}
    for graph in (program.graph, *bounds_from):
        for node, limit in _index_bounds(graph, symbols, changes).items():
            bounds[node.name] = min(bounds.get(node.name, limit), limit)
    generator = torch.Generator().manual_seed(seed)
    values = []
    for node in placeholders:
        meta = _metadata(node)
        if meta is None:
            raise CannotRun(f"placeholder '{node.name}' has no metadata (meta['val'] or "
                            "tensor_meta) to make its input from")
        if isinstance(meta, torch.Tensor) or _is_tensor_metadata(meta):
            values.append(_make_tensor(f"placeholder '{node.name}'", meta, symbols, generator,
                                       bounds.get(node.name), changes))
        elif _is_sym(meta):
            values.append(symbols.evaluate(meta, f"placeholder '{node.name}'"))
        elif isinstance(meta, (bool, int, float, complex, str, torch.dtype, torch.device,
                               torch.memory_format, torch.layout, type(None))):
            values.append(meta)  # the example value
        else:
            raise CannotRun(f"placeholder '{node.name}' holds a {type(meta).__name__}: no "
                            "input is made for it")
    return Inputs(values, program.attribute_values(symbols, generator, changes), symbols)


# --- running ---------------------------------------------------------------------------------

# The ops whose kernels return memory they did not write, and which part of it (verify's
# kUninitializedOps): the whole storage, the result's elements (out= variants, then what their
# resize adds), what a resize adds to the written argument's storage, or to a copy of the
# argument.
_STORAGE, _ELEMENTS, _GROWN, _GROWN_COPY = "storage", "elements", "grown", "grown-copy"
_UNINITIALIZED_OPS = {
    ("aten", "empty", "memory_format"): _STORAGE, ("aten", "empty", "out"): _GROWN,
    ("aten", "empty_like", "default"): _STORAGE, ("aten", "empty_like", "out"): _ELEMENTS,
    ("aten", "new_empty", "default"): _STORAGE, ("aten", "new_empty", "out"): _ELEMENTS,
    ("aten", "empty_strided", "default"): _STORAGE, ("aten", "empty_strided", "out"): _ELEMENTS,
    ("aten", "new_empty_strided", "default"): _STORAGE,
    ("aten", "new_empty_strided", "out"): _ELEMENTS,
    ("aten", "empty_permuted", "default"): _STORAGE, ("aten", "empty_permuted", "out"): _ELEMENTS,
    ("prims", "empty", "default"): _STORAGE, ("prims", "empty_strided", "default"): _STORAGE,
    ("prims", "empty_permuted", "default"): _STORAGE,
    ("aten", "resize_", "default"): _GROWN, ("aten", "resize_as_", "default"): _GROWN,
    ("aten", "_resize_output_", "default"): _GROWN,
    ("aten", "resize", "default"): _GROWN_COPY, ("aten", "resize_as", "default"): _GROWN_COPY,
    ("aten", "_resize_output", "default"): _GROWN_COPY,
}


def _uninitialized_part(target):
    name = _op_name(target)
    if name is None:
        return None
    if name[2] is not None:
        return _UNINITIALIZED_OPS.get(name)
    for (namespace, op, _), part in _UNINITIALIZED_OPS.items():
        if (namespace, op) == name[:2]:
            return part
    return None


def _one(dtype):
    if dtype.is_complex:
        return complex(1, 1)
    return True if dtype == torch.bool else 1


def _fill_storage_from(tensor, first_byte, fill):
    """Fills the elements of ``tensor``'s storage from byte ``first_byte`` on."""
    size = tensor.element_size()
    count = _storage(tensor).nbytes() // size
    begin = -(-first_byte // size)
    if begin >= count:
        return
    view = torch.empty(0, dtype=tensor.dtype, device=tensor.device)
    view.set_(_storage(tensor), begin, (count - begin,), (1,))
    view.fill_(0 if fill == 0 else _one(tensor.dtype))


class _Pending:
    """What an op leaves uninitialized, known before it runs."""

    def __init__(self, part, args, kwargs, target):
        self.part, self.storage, self.initialized = part, None, 0
        tensors = [a for a in flatten((args, kwargs)) if isinstance(a, torch.Tensor)]
        if part == _GROWN_COPY:
            if tensors:
                self.initialized = tensors[0].numel() * tensors[0].element_size()
            return
        written = tensors[:1]
        schema = getattr(target, "_schema", None)
        if schema is not None:
            by_name = dict(zip((a.name for a in schema.arguments), args))
            by_name.update(kwargs)
            written = [by_name.get(a.name) for a in schema.arguments
                       if a.alias_info is not None and a.alias_info.is_write]
            written = [t for t in written if isinstance(t, torch.Tensor)]
        for tensor in written:
            key = storage_key(tensor)
            if key is not None:
                self.storage, self.initialized = key, _storage(tensor).nbytes()
                break

    def fill(self, result, fill):
        for tensor in flatten(result):
            if storage_key(tensor) is None:
                continue
            if self.part == _STORAGE:
                _fill_storage_from(tensor, 0, fill)
            elif self.part == _GROWN_COPY:
                _fill_storage_from(tensor, self.initialized, fill)
            else:
                if self.part == _ELEMENTS:
                    tensor.fill_(0 if fill == 0 else _one(tensor.dtype))
                if storage_key(tensor) == self.storage:
                    _fill_storage_from(tensor, self.initialized, fill)


def _map_devices(value):
    def convert(item):
        if isinstance(item, torch.device):
            return _available(item)
        return item
    return torch.fx.node.map_aggregate(value, convert)


@contextlib.contextmanager
def _real_tensors():
    """No FakeTensorMode or tracing mode of the caller's (an Inductor pass runs inside one)
    applies to the runs."""
    with contextlib.ExitStack() as stack:
        try:
            from torch._subclasses.fake_tensor import unset_fake_temporarily
            stack.enter_context(unset_fake_temporarily())
        except ImportError:
            pass
        try:
            from torch.fx.experimental.proxy_tensor import disable_proxy_modes_tracing
            stack.enter_context(disable_proxy_modes_tracing())
        except ImportError:
            pass
        yield


def _holder(graph):
    """What torch.fx.Interpreter runs (torch 1.13 asserts a GraphModule): one that holds the graph
    without owning it (the setter would make it the graph's owner, and generate code)."""
    holder = torch.fx.GraphModule.__new__(torch.fx.GraphModule)
    torch.nn.Module.__init__(holder)
    holder._graph = graph
    return holder


class _Runner(torch.fx.Interpreter):
    """Runs a graph node by node: devices that are not available mapped to the CPU, the module's
    attributes read from the run's copies, uninitialized memory filled with ``fill`` (0 or 1,
    or None to leave it), a failing op reported by node, and ``observe(node, value)`` called
    after each node."""

    def __init__(self, program, attributes, fill, observe=None):
        super().__init__(_holder(program.graph))
        self.extra_traceback = False
        self.submodules = dict(program.root.named_modules()) if program.root is not None else {}
        self.program, self.attributes, self.fill = program, attributes, fill
        self.observe = observe

    def run_node(self, n):
        try:
            value = super().run_node(n)
        except _NodeFailed:
            raise
        except Exception as error:  # noqa: BLE001: any failure of the program's own code
            raise _NodeFailed(n, error) from error
        if self.observe is not None:
            self.observe(n, value)
        return value

    def fetch_attr(self, target):
        if target in self.attributes:
            return self.attributes[target]
        return self.program.fetch(target)

    def _call(self, call, target, args, kwargs):
        args, kwargs = _map_devices(args), _map_devices(kwargs)
        if isinstance(kwargs.get("device"), str):
            kwargs = dict(kwargs, device=_available(kwargs["device"]))
        part = _uninitialized_part(target) if self.fill is not None else None
        pending = _Pending(part, args, kwargs, target) if part else None
        result = call(target, args, kwargs)
        if pending is not None:
            with torch.no_grad():
                pending.fill(result, self.fill)
        return result

    def call_function(self, target, args, kwargs):
        return self._call(super().call_function, target, args, kwargs)

    def call_method(self, target, args, kwargs):
        return self._call(super().call_method, target, args, kwargs)


class Program:
    """A graph to run, with the module its get_attr nodes read from (``root``)."""

    def __init__(self, graph_or_module, root=None):
        if isinstance(graph_or_module, torch.fx.GraphModule):
            self.graph, self.root = graph_or_module.graph, root or graph_or_module
        else:
            self.graph = graph_or_module
            self.root = root if root is not None else graph_or_module.owning_module
        self.placeholders = [n for n in self.graph.nodes if n.op == "placeholder"]
        self.allocations = [n for n in self.graph.nodes
                            if n.op in ("call_function", "call_method")
                            and _uninitialized_part(n.target)]

    def attribute_targets(self):
        return [n.target for n in self.graph.nodes if n.op == "get_attr"]

    def fetch(self, target):
        if self.root is None:
            raise CannotRun(f"get_attr {target}: the graph has no module to read it from")
        value = self.root
        for atom in target.split("."):
            if not hasattr(value, atom):
                raise CannotRun(f"get_attr {target}: the module has no attribute {atom!r}")
            value = getattr(value, atom)
        return value

    def attribute_values(self, symbols, generator, changes=()):
        """The tensors the graph reads from its module, by target (the rest is not copied): their
        values, or random ones for FakeTensors (a module traced without real state); at the
        sizes ``changes`` gives, their leading elements."""
        values = {}
        for target in self.attribute_targets():
            value = self.fetch(target)
            if _is_fake(value):
                values[target] = _make_tensor(f"get_attr {target}", value, symbols, generator,
                                              None, changes)
            elif isinstance(value, torch.Tensor):
                values[target] = value.detach()
                if changes:
                    from ._shrink import changed_value
                    values[target] = changed_value(f"get_attr {target}", values[target], changes)
        return values

    def run(self, inputs, seed, fill=None, observe=None):
        """Runs on copies of ``inputs`` (attributes included) with the random generator seeded;
        raises _NodeFailed when an op fails. ``observe(node, value)`` sees each node's value."""
        values = [copy_value(v) for v in inputs.values]
        attributes = {}
        for target, value in inputs.attributes.items():
            attributes[target] = copy_value(value).to(_available(value.device))
        runner = _Runner(self, attributes, fill, observe)
        with _real_tensors(), torch.random.fork_rng(devices=[]):
            # Random ops (dropout) draw the same numbers in both graphs: removing a clone does
            # not change the order in which they run.
            torch.manual_seed(seed)
            with torch.no_grad():
                result = runner.run(*values, enable_io_processing=False)
        return Run(values, flatten(result), attributes)


def _describe_allocations(nodes):
    names = [n.name for n in nodes[:3]]
    return ", ".join(names) + (" and others" if len(nodes) > 3 else "")


def verify(before, after, donated_input_ids=(), seed=0, trials=1, root=None, full_size=False,
           budget=None):
    """Runs ``before`` and ``after`` (torch.fx Graphs or GraphModules; ``root`` is the module
    their get_attr nodes read, by default the GraphModule or the graph's owning module) on the
    same random inputs, ``trials`` times from ``seed``, and compares them as ``declone verify``
    does. Returns a Verdict: equivalent, not (the first difference), or None with the reason
    the graphs could not be run (no metadata for a placeholder, an op of the original that
    fails). An op that fails in the rewrite only is a difference. Graphs with static sizes whose
    run would cost more than ``budget`` (a _shrink.Budget: 512 MiB, 5 s, floor 16 by default)
    run at smaller sizes, as ``declone verify`` does (Verdict.sizes names them); ``full_size``
    runs them as annotated."""
    # Inside an Inductor pass a FakeTensorMode may be active: the inputs, the runs and the
    # comparison all need real tensors.
    with _real_tensors():
        return _verify(before, after, set(donated_input_ids), seed, trials, root, full_size,
                       budget)


def _verify(before, after, donated, seed, trials, root, full_size, budget):
    from . import _shrink
    shrunk = _shrink.Shrunk()
    try:
        original, rewrite = Program(before, root), Program(after, root)
        if len(original.placeholders) != len(rewrite.placeholders):
            raise CannotRun(f"the graphs take different inputs: {len(original.placeholders)} "
                            f"and {len(rewrite.placeholders)} placeholders")
        if not full_size:
            shrunk = _shrink.shrink(original, rewrite, seed, budget or _shrink.Budget())
            original, rewrite = shrunk.original or original, shrunk.rewrite or rewrite
        changes = shrunk.changes
        two_fills = bool(original.allocations or rewrite.allocations)
        compare = _Comparison(before_sources=_describe_allocations(original.allocations),
                              after_sources=_describe_allocations(rewrite.allocations))

        def verdict(equivalent, difference=None, trials=0):
            if difference is not None and changes:  # found at these sizes, as the CLI says
                difference += f" (ran with {_shrink.describe(changes)})"
            return Verdict(equivalent, difference, notes=shrunk.notes + compare.notes,
                           trials=trials, sizes=changes)

        names = [f"input {i} ({n.name})" for i, n in enumerate(original.placeholders)]
        for trial in range(max(1, trials)):
            trial_seed = seed + trial
            inputs = make_inputs(original, trial_seed, bounds_from=(rewrite.graph,),
                                 changes=changes)
            generator = torch.Generator().manual_seed(trial_seed + 1)
            attributes = rewrite.attribute_values(inputs.symbols, generator, changes)
            for target, value in attributes.items():
                inputs.attributes.setdefault(target, value)
            suffix = inputs.symbols.describe()
            suffix = f" (with {suffix})" if suffix else ""
            runs = []
            for fill in ((0, 1) if two_fills else (None,)):
                try:
                    first = original.run(inputs, trial_seed, fill)
                except _NodeFailed as error:
                    raise CannotRun(f"the graph fails on random inputs: {error}") from None
                try:
                    second = rewrite.run(inputs, trial_seed, fill)
                except _NodeFailed as error:
                    return verdict(False, f"the rewrite fails where the original runs: {error}"
                                   + suffix, trials=trial + 1)
                runs.append((first, second))
            (first, second), ones = runs[0], runs[1] if two_fills else (None, None)
            found = differences(first, second, donated, before_ones=ones[0],
                                after_ones=ones[1], input_names=names, comparison=compare)
            if found:
                return verdict(False, found[0] + suffix, trials=trial + 1)
        return verdict(True, trials=max(1, trials))
    except CannotRun as error:
        return Verdict(None, error=str(error), notes=shrunk.notes, sizes=shrunk.changes)
    except Exception as error:  # noqa: BLE001: torch failing to compare is no verdict either
        first = (str(error).strip().splitlines() or [type(error).__name__])[0]
        return Verdict(None, error=f"cannot compare the graphs' values: {first}",
                       notes=shrunk.notes, sizes=shrunk.changes)


# --- clone elimination, verified -------------------------------------------------------------

class _Remark:
    """A remark made here, with the attributes and text of declone._declone.Remark (used where
    the extension cannot make one)."""

    __slots__ = ("node", "line", "decision", "reason", "detail")

    def __init__(self, node, line, decision, reason, detail):
        self.node, self.line, self.decision = node, line, decision
        self.reason, self.detail = reason, detail

    def __str__(self):
        out = "<fx>" + (f":{self.line}" if self.line else "")
        out += f": remark: clone '{self.node}' {self.decision}"
        if self.reason:
            out += f" [{self.reason}]"
        return out + (f": {self.detail}" if self.detail else "")

    __repr__ = __str__

    def json(self):
        import json
        return json.dumps({"node": self.node, "line": self.line, "decision": self.decision,
                           "reason": self.reason, "detail": self.detail})


def _kept(remark, reason, detail):
    """``remark`` (a removal) turned into the clone kept for ``reason``."""
    from . import _declone
    fields = dict(node=remark.node, line=remark.line, decision="kept", reason=reason,
                  detail=detail)
    # The user's source line stays with the decision (remarks without one: an older extension).
    if getattr(remark, "source", ""):
        fields.update(source=remark.source, code=remark.code)
    try:
        return _declone.Remark(**fields)
    except TypeError:  # an extension without a Remark constructor
        for key in ("source", "code"):
            fields.pop(key, None)
        return _Remark(**fields)


def _copy_graph(graph):
    """A copy of ``graph``: the same node names, meta dicts of their own (shallow copies)."""
    copied = torch.fx.Graph(tracer_cls=getattr(graph, "_tracer_cls", None))
    value_map = {}
    result = copied.graph_copy(graph, value_map)
    output = next((n for n in reversed(graph.nodes) if n.op == "output"), None)
    if output is not None:
        node = copied.output(result, type_expr=output.type)
        node.meta = copy.copy(output.meta)
    return copied


def eliminate_clones(graph_or_module, donated_input_ids, mode, seed, eliminate):
    """``eliminate`` (declone.fx.eliminate_clones without verification) applied to a copy of the
    graph; the copy run against the graph, and the rewrite made on the graph only when nothing
    observable changed. Otherwise the graph stays as it was and every clone the rewrite removed
    is kept, its remark saying why (REFUSED: the first difference; CANNOT_VERIFY: why the graph
    could not be run)."""
    if isinstance(graph_or_module, torch.fx.GraphModule):
        graph, root = graph_or_module.graph, graph_or_module
    else:
        graph, root = graph_or_module, graph_or_module.owning_module
    rewritten = _copy_graph(graph)
    remarks = eliminate(rewritten, donated_input_ids, mode)
    removed = [r.node for r in remarks if r.decision == "removed"]
    if not removed:
        return remarks
    donated = _placeholder_indices(graph, donated_input_ids)
    verdict = verify(graph, rewritten, donated, seed=seed, root=root)
    if verdict.equivalent:
        nodes = {node.name: node for node in graph.nodes}
        for name in removed:  # in program order, as the pass decided them
            node = nodes[name]
            node.replace_all_uses_with(node.args[0])
            graph.erase_node(node)
        return remarks
    if verdict.error is not None:
        reason, detail = CANNOT_VERIFY, f"verification could not run: {verdict.error}"
    else:
        reason, detail = REFUSED, f"the rewrite was refused: {verdict.difference}"
    return [_kept(r, reason, detail) if r.decision == "removed" else r for r in remarks]


def _placeholder_indices(graph, donated):
    """Donated placeholders as indices (a name looked up as declone.fx does)."""
    from . import fx
    return fx._donated_indices(graph, list(donated))
