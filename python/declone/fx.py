"""Clone elimination and defunctionalization on live torch.fx graphs, and the FX text format.

The C++ extension reads the live graph directly (no text in between) through long-stable public
FX APIs only (Graph.nodes, Node.op/name/target/args/kwargs/meta, replace_all_uses_with,
erase_node, OpOverload._schema), so the same code runs with Debian's torch 1.13 and with current
PyTorch. The torch objects it recognises are handed to it here; it does not import torch.
"""

import collections
import contextlib
import copyreg
import hashlib
import time

import torch

from . import _compare, _declone, _defunctionalize, _logging, _sources
from ._schemas import schemas_of

try:  # Inductor's interface for custom passes (PyTorch 2.6 and later): its FX graph cache
    # accepts a pass that has one, keyed by uuid().
    from torch._inductor.custom_graph_pass import CustomGraphPass as _PassBase
except ImportError:  # torch 1.13: no Inductor
    _PassBase = object

__all__ = ["eliminate_clones", "defunctionalize", "CloneEliminationPass", "PassRun", "CacheHit",
           "dumps", "Remark", "schemas_of", "ORDERS"]

#: One decision about a clone, or about a copy a functionalized call implies: ``node``, ``line``,
#: ``decision`` ("removed" or "kept"), ``reason`` (a reason code or None), ``detail``, ``source``
#: and ``code`` (the user's ``FILE:LINE`` and its code, from the node's stack trace; '' when it
#: has none), and for a copy ``copy`` (the argument copied, ``_all_bases[i]`` for
#: auto_functionalized_v2; '' for a clone) and ``bytes`` (what the copy moves, None when its size
#: is symbolic); ``str()`` is the text remark of ``declone opt --remarks``, led by the source
#: when there is one.
Remark = _declone.Remark
CacheHit = _logging.CacheHit


def _remark_from_fields(node, line, decision, reason, detail, source="", code="", copy="",
                        bytes=None):
    return Remark(node=node, line=line, decision=decision, reason=reason, detail=detail,
                  source=source, code=code, copy=copy, bytes=bytes)


# Remarks travel where Inductor's config goes: it deep-copies its config (a pass and the
# remarks it holds) at every torch.compile, and pickles it for a compile in a subprocess.
copyreg.pickle(Remark, lambda remark: (_remark_from_fields, (
    remark.node, remark.line, remark.decision, remark.reason, remark.detail, remark.source,
    remark.code, remark.copy, remark.bytes)))

# Registered when declone.fx is imported, so that torch._logging.set_logs(declone_remarks=True)
# knows the name (TORCH_LOGS in the environment: see _logging.py).
_logging.channel()

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

# Values of declone::MemoryFormat.
_MEMORY_FORMATS = {torch.contiguous_format: 0, torch.preserve_format: 1,
                   torch.channels_last: 2, torch.channels_last_3d: 3}

_LAYOUTS = {layout: str(layout) for layout in (
    getattr(torch, name) for name in ("strided", "sparse_coo", "sparse_csr", "sparse_csc",
                                      "sparse_bsr", "sparse_bsc", "_mkldnn")
    if hasattr(torch, name))}


def _target_text(target):
    """How FX's code generation spells a call_function target (asked once per target)."""
    if isinstance(target, torch._ops.OpOverload):
        return "torch.ops." + str(target)
    if isinstance(target, torch._ops.OpOverloadPacket):
        return "torch.ops." + str(target).replace("::", ".")
    name = getattr(target, "__name__", None)
    higher_order = getattr(torch._ops, "HigherOrderOperator", None)
    if (higher_order is not None and isinstance(target, higher_order)) or type(
            target).__name__ in ("HigherOrderOperator", "AutoFunctionalized",
                                 "AutoFunctionalizedV2") or (
            name and name.startswith("auto_functionalized")):
        return "torch.ops.higher_order." + name
    module = getattr(target, "__module__", None) or "builtins"
    if module == "_operator":
        module = "operator"
    return f"{module}.{getattr(target, '__qualname__', name)}"


_IMPORTER = _declone.FxImporter(_declone.TorchTypes(
    node=torch.fx.Node,
    tensor=torch.Tensor,
    ops=(torch._ops.OpOverload, torch._ops.OpOverloadPacket),
    syms=tuple(getattr(torch, name) for name in ("SymInt", "SymBool", "SymFloat")
               if hasattr(torch, name)),
    device=torch.device,
    dtypes=_DTYPE_ABBREVIATIONS,
    memory_formats=_MEMORY_FORMATS,
    layouts=_LAYOUTS,
    target_text=_target_text))


# Reading a tensor's sizes, strides and offset checks for __torch_function__ overrides first,
# which costs more than the read; metadata reads need no overrides (FakeTensor has none).
_NO_TORCH_FUNCTION = getattr(torch._C, "DisableTorchFunction", contextlib.nullcontext)


#: _is_view per op: reading a schema's returns and arguments builds Python objects each time,
#: and _offsets_are_true asks of every node up to the graph's first view (2 ms of a 1,245-node
#: torchvision training graph when asked per node).
_VIEW_OPS = {}


def _is_view(target):
    """The op returns a view of its first argument, by its schema (`Tensor(a) -> Tensor(a)`)."""
    if not isinstance(target, torch._ops.OpOverload):
        return False
    known = _VIEW_OPS.get(target)
    if known is None:
        known = _VIEW_OPS[target] = _schema_is_view(target._schema)
    return known


def _schema_is_view(schema):
    if len(schema.returns) != 1 or not schema.arguments:
        return False
    result, first = schema.returns[0].alias_info, schema.arguments[0].alias_info
    return (result is not None and first is not None and not result.is_write
            and not first.is_write)


def _offsets_are_true(graph):
    """Whether the storage offsets of the tensors in meta["val"] are those of the values. make_fx
    in real mode (torch 2.x) records a copy of each value, with a storage of its own at offset 0:
    a view's val then shares no storage with its base's, and its offset (0) is not the view's.
    The first view decides for the graph: the vals are all made the one way (and a graph whose
    views have none, TensorMetadata only, shows no offsets to distrust)."""
    for node in graph.nodes:
        if node.op != "call_function" or not node.args or not _is_view(node.target):
            continue
        base = node.args[0]
        val = node.meta.get("val")
        base_val = base.meta.get("val") if isinstance(base, torch.fx.Node) else None
        if not isinstance(val, torch.Tensor) or not isinstance(base_val, torch.Tensor):
            return True
        return _compare.storage_key(val) == _compare.storage_key(base_val)
    return True


def _fake_mode_of(values):
    """The FakeTensorMode of the FakeTensors among ``values``, or None (no FakeTensor, or a
    PyTorch without FakeTensors)."""
    try:
        from torch._subclasses.fake_tensor import FakeTensor
    except ImportError:
        return None
    for value in values:
        if isinstance(value, FakeTensor):
            return value.fake_mode
    return None


def _current_val(node):
    """Whether ``meta["val"]`` still shows the value as traced: torch 1.13's make_fx keeps the
    live FakeTensor there, which an in-place metadata op (``t_``) later changes; the
    TensorMetadata taken at trace time tells."""
    val = node.meta.get("val")
    if val is None:
        return False
    meta = node.meta.get("tensor_meta")
    if not isinstance(val, torch.Tensor) or meta is None or not hasattr(meta, "stride"):
        return True
    return tuple(val.shape) == tuple(meta.shape) and tuple(val.stride()) == tuple(meta.stride)


#: In-place ops that change their tensor's sizes or strides: after one, the meta["val"] that
#: make_fx recorded for that tensor no longer shows it. The op model's list, by schema name.
_METADATA_CHANGERS = frozenset(_declone.in_place_layout_ops())


def _changes_metadata(node):
    """Whether the op may change a tensor's sizes or strides in place: a metadata-changing
    in-place op, or an out= op (which resizes its out tensor)."""
    schema = getattr(node.target, "_schema", None)
    if node.op != "call_function" or schema is None:
        return False
    if schema.name in _METADATA_CHANGERS:
        return True
    return any(argument.kwarg_only and argument.alias_info is not None
               and argument.alias_info.is_write for argument in schema.arguments)


def _has_one_result(target):
    """Whether ``target`` is an op whose schema returns one value."""
    schema = getattr(target, "_schema", None)
    return schema is not None and len(schema.returns) == 1


def _fill_missing_vals(graph):
    """Gives a node that another pass inserted without ``meta["val"]`` the value FakeTensor
    computes for it, as FakeTensorProp would: the op run under the fake mode of its inputs'
    values, which is what a dump of the graph prints. Only ops that write nothing and have one
    result are run, and not at all in a graph with an op that changes a tensor's layout in place
    (the recorded values of that tensor are stale after it). The value of an op with several
    results is a tuple, which the importer never reads: torch 1.13's make_fx leaves every
    native_batch_norm and convolution_backward without one, and running them under FakeTensor
    took half a second of a torchvision training graph. Guards the op would add to the
    ShapeEnv are suppressed and unbacked symbols it makes are not bound: filling a value must
    not change what the compiled graph is specialized on. An op that fails under FakeTensor is
    left without a value. What stays without one is inferred by the analysis's rules, or
    unknown."""
    missing = [node for node in graph.nodes if node.op == "call_function"
               and "val" not in node.meta and "tensor_meta" not in node.meta
               and _has_one_result(node.target)]
    if not missing or any(_changes_metadata(node) for node in graph.nodes):
        return
    for node in missing:
        if getattr(node.target._schema, "is_mutable", True):
            continue
        inputs = node.all_input_nodes
        if not inputs or not all(_current_val(arg) for arg in inputs):
            continue
        value = _defunctionalize.fake_value(node.target, node.args, node.kwargs)
        if value is not None:  # else unsupported under FakeTensor: the rules decide
            node.meta["val"] = value


def _symbol_ranges(graph):
    """The smallest value of each symbol of the graph's ShapeEnv, by name, or None for a graph
    without one (static shapes; torch 1.13). These are exact where the names alone are not: a
    dynamic int argument is also named ``s<N>`` and may be 0, 1 or negative, and a trace with
    backed_size_oblivious does not specialize its sizes 0 and 1. A symbol whose range is
    unbounded below is left out."""
    mode = _fake_mode_of(node.meta.get("val") for node in graph.nodes)
    shape_env = getattr(mode, "shape_env", None)
    var_to_range = getattr(shape_env, "var_to_range", None)
    if var_to_range is None:
        return None
    ranges = {}
    for symbol, value_range in var_to_range.items():
        try:
            ranges[str(symbol)] = int(value_range.lower)
        except (TypeError, ValueError, OverflowError, AttributeError):
            continue  # -oo
    return ranges


def _import(graph, for_clone_elimination, mode=""):
    """The whole of ``graph`` in declone's IR; ``for_clone_elimination`` reads only the tensor
    annotations the pass in ``mode`` consults ('' as safe mode does)."""
    with _NO_TORCH_FUNCTION():
        return _IMPORTER.import_graph(graph, for_clone_elimination=for_clone_elimination,
                                      mode=mode, trust_offsets=_offsets_are_true(graph),
                                      symbol_ranges=_symbol_ranges(graph))


def _graph_of(graph_or_module):
    if isinstance(graph_or_module, torch.fx.GraphModule):
        return graph_or_module.graph
    return graph_or_module


def dumps(graph_module):
    """The graph as FX text (print_readable's dialect with strides, devices and @OFFSET),
    readable by ``declone print``, ``opt`` and ``verify``."""
    return _import(_graph_of(graph_module), False).text()


def _donated_indices(graph, donated):
    """``donated`` as placeholder indices: an index as given, a name (a placeholder's node name
    or target, as the CLI's --donated takes them) looked up."""
    if not any(isinstance(d, str) for d in donated):
        return list(donated)
    index = {}
    placeholders = (node for node in graph.nodes if node.op == "placeholder")
    for position, node in enumerate(placeholders):
        for name in (node.name, str(node.target)):
            index.setdefault(name, position)
    missing = [d for d in donated if isinstance(d, str) and d not in index]
    if missing:
        raise ValueError(f"donated input {missing[0]!r} is not a placeholder of the graph")
    return [index[d] if isinstance(d, str) else d for d in donated]


def eliminate_clones(graph, donated_input_ids=(), mode="safe", verify=False, seed=0):
    """Removes redundant aten.clone nodes from a live torch.fx.Graph (or GraphModule) in place
    and returns one Remark per clone, in program order. ``donated_input_ids`` counts every
    placeholder; a name (the placeholder's node name or target) may stand for its index. A
    remark's line is its node's line in ``dumps`` of the graph before; its ``source`` is the
    user's line the clone comes from (``node.meta["stack_trace"]``, as Dynamo records it), when
    the node has one. ``mode`` is "safe" (every
    rule of DESIGN.md section 4), "vllm" (vLLM 0.33.0's UnsafeCloneEliminationPass, decision for
    decision, reading meta["val"] as vLLM does) or "vllm-0.32" (vLLM 0.32.0's).

    ``verify=True`` runs the graph before and after the rewrite with torch (the program's own
    kernels) on random inputs made from the placeholders' metadata (``seed`` chooses them) and
    rewrites the graph only when nothing observable changes; otherwise it stays as it was and
    the clones the rewrite removed are kept, with the reason code ``does-not-verify`` (the
    first difference) or ``cannot-verify`` (why the graph could not be run).

    With torch 2.x the remarks are also logged (TORCH_LOGS=declone_remarks) and written into
    TORCH_TRACE as a ``declone_remarks`` artifact (docs/USAGE.md)."""
    start = time.perf_counter()
    if verify:
        from . import _verify
        remarks = _verify.eliminate_clones(graph, donated_input_ids, mode, seed,
                                           _eliminate_clones)
    else:
        remarks = _eliminate_clones(graph, donated_input_ids, mode)
    _logging.report(remarks, mode, bool(verify), donated_input_ids,
                    time.perf_counter() - start)
    return remarks


def _eliminate_clones(graph, donated_input_ids, mode):
    """eliminate_clones without verification or logging."""
    graph = _graph_of(graph)
    donated_input_ids = _donated_indices(graph, donated_input_ids)
    if not _declone.vllm_version(mode):  # vLLM's pass reads meta["val"] as it finds it
        _fill_missing_vals(graph)
    imported = _import(graph, True, mode)
    if not imported.clones:
        return []
    remarks, removed = imported.eliminate_clones(list(donated_input_ids), mode)
    # Before the removed clones leave the graph: their stack traces go with them.
    remarks = _sources.with_sources(graph, remarks)
    # Each decision was made on the graph as rewritten so far: replaying them in program order
    # gives the graph the C++ pass produced.
    for node in removed:
        node.replace_all_uses_with(node.args[0])
        graph.erase_node(node)
    return remarks


def defunctionalize(graph, donated_input_ids=(), verify=False, seed=0):
    """Rewrites the functionalized calls of a live torch.fx.Graph (or GraphModule) in place into
    the mutating calls they stand for (``auto_functionalized`` and ``auto_functionalized_v2`` into
    the op they wrap, ``triton_kernel_wrapper_functional`` into
    ``triton_kernel_wrapper_mutation``) where DESIGN.md section 4b proves that none of the copies
    the call implies is needed, and returns one Remark per copy, in program order: ``removed``
    when the copy is gone, else ``kept`` with a reason code (input-mutation,
    source-read-after-write, output-alias, argument-overlap, view-replay, unknown-effects,
    not-rewritable, call-kept). A remark's ``copy`` names the argument copied
    (``_all_bases[i]`` for v2) and ``bytes`` what the copy moves.

    ``donated_input_ids`` as in eliminate_clones: a donated placeholder may be written in place.
    ``verify=True`` (and ``seed``) as in eliminate_clones: the graph is run before and after with
    torch, and a rewrite that changes anything observable is not made (the copies it would have
    avoided are kept, ``does-not-verify`` or ``cannot-verify``). Remarks are logged as
    eliminate_clones logs them. With torch 1.13, which has no functionalized calls, nothing is
    done."""
    start = time.perf_counter()
    if verify:
        remarks = _defunctionalize.verified(graph, donated_input_ids, seed, _defunctionalize_graph)
    else:
        remarks = _defunctionalize_graph(graph, donated_input_ids)[0]
    _logging.report(remarks, "defunctionalize", bool(verify), donated_input_ids,
                    time.perf_counter() - start, noun="copies")
    return remarks


def _defunctionalize_graph(graph, donated_input_ids):
    """defunctionalize without verification or logging: the remarks, and the rewrites made
    (``_defunctionalize.plan``)."""
    graph = _graph_of(graph)
    if not _defunctionalize.has_functionalized_calls(graph):
        return [], []
    donated_input_ids = _donated_indices(graph, donated_input_ids)
    _fill_missing_vals(graph)
    # Every annotation: the bytes of each copy are those of the arguments it copies.
    imported = _import(graph, False)
    remarks, rewritten, erased = imported.defunctionalize(list(donated_input_ids))
    # Before the rewritten calls leave the graph: their stack traces go with them.
    remarks = _sources.with_sources(graph, remarks)
    rewrites = _defunctionalize.plan(rewritten, erased)
    # Each call was rewritten on the graph as rewritten so far; replaying the rewrites in
    # program order gives the graph the C++ pass produced.
    _defunctionalize.apply(graph, rewrites)
    return remarks, rewrites


#: What one call of a CloneEliminationPass did to one graph: its clones, how many it removed,
#: the kept ones per reason code, the seconds the call took, and its remarks (the clones' and,
#: with defunctionalize=True, the copies', in the order the passes ran); with defunctionalize,
#: the copies the functionalized calls imply, how many were avoided, and the kept ones per
#: reason code (``copies_kept``).
PassRun = collections.namedtuple("PassRun", "clones removed kept seconds remarks copies avoided "
                                            "copies_kept", defaults=(0, 0, None))

#: The orders in which CloneEliminationPass(defunctionalize=True) runs the two passes:
#: "clones-first" is vLLM's PostGradPassManager's (clone elimination, then the functionalized
#: calls), "copies-first" the other way round.
ORDERS = ("copies-first", "clones-first")


class CloneEliminationPass(_PassBase):
    """Clone elimination as an Inductor custom graph pass: a callable on a torch.fx.Graph that
    is a ``torch._inductor.custom_graph_pass.CustomGraphPass`` where that class exists. Install
    it as ``torch._inductor.config.post_grad_custom_post_pass`` (after Inductor's own passes,
    remove_noop_ops among them), or as ``joint_custom_pre_pass`` to decide before Inductor
    removes any clone (docs/USAGE.md has the hooks in the order Inductor runs them).
    Inductor calls it once per graph it compiles (a training step: the forward and the backward
    graph): ``remarks`` are the last call's, ``runs`` one PassRun per call.

    A graph Inductor takes from a cache is not compiled again, so no pass runs on it: with the
    FX graph cache or AOTAutograd's cache on (they are by default, on disk and across processes),
    a second compile of the same model leaves ``runs`` without a new entry. Such a compile
    appends a CacheHit to ``cache_hits`` instead (torch 2.x with Dynamo's compile callbacks) and
    says so on the ``declone_remarks`` log. To make the pass run on every graph, turn the caches
    off: ``torch._inductor.config.force_disable_caches = True`` or
    ``TORCHINDUCTOR_FORCE_DISABLE_CACHES=1``. (Calling a compiled function again compiles
    nothing: Dynamo reuses its code, and neither list grows.)

    ``donated_input_ids`` are placeholders the caller gives up, by index (every placeholder
    counts) or name; a clone of one may go even if the graph writes it. Inside Inductor none is donated unless you
    say so: the parameters, buffers and user inputs of a forward graph are the caller's, and the
    saved activations AOTAutograd may free early in a backward graph are not marked in it.

    ``verify=True`` (and ``seed``) as in eliminate_clones: each graph is run before and after,
    and a rewrite that changes anything observable is not made.

    ``defunctionalize=True`` runs defunctionalization (see ``defunctionalize``) in the same call,
    in the ``order`` given (ORDERS): "copies-first" rewrites the functionalized calls first, so
    that clone elimination sees the writes they make; "clones-first" is vLLM's order. As
    ``post_grad_custom_post_pass`` the pass runs before Inductor's own reinplacing
    (reinplace_inplaceable_ops) and its decomposition of the functionalized calls into copies
    (decompose_auto_functionalized), so the calls are still there to rewrite; Inductor then
    decomposes those declone keeps, reinplacing what it can."""

    def __init__(self, donated_input_ids=(), mode="safe", verify=False, seed=0,
                 defunctionalize=False, order="copies-first"):
        _declone.vllm_version(mode)  # ValueError for a mode that is none
        if order not in ORDERS:
            raise ValueError(f"order must be one of {ORDERS}, not {order!r}")
        self.donated_input_ids = tuple(donated_input_ids)
        self.mode = mode
        self.verify, self.seed = bool(verify), seed
        self.defunctionalize, self.order = bool(defunctionalize), order
        self.remarks = []
        self.runs = []
        self.cache_hits = []

    def __call__(self, graph):
        start = time.perf_counter()
        clone_remarks, copy_remarks = [], []

        def clones():
            clone_remarks.extend(eliminate_clones(graph, self.donated_input_ids, self.mode,
                                                  verify=self.verify, seed=self.seed))

        def copies():
            copy_remarks.extend(defunctionalize(graph, self.donated_input_ids,
                                                verify=self.verify, seed=self.seed))

        steps = [clones]
        if self.defunctionalize:
            steps = [clones, copies] if self.order == "clones-first" else [copies, clones]
        for step in steps:
            step()
        self.remarks = (clone_remarks + copy_remarks if steps[0] is clones
                        else copy_remarks + clone_remarks)
        seconds = time.perf_counter() - start
        kept = collections.Counter(r.reason for r in clone_remarks if r.decision == "kept")
        removed = sum(r.decision == "removed" for r in clone_remarks)
        copies_kept = collections.Counter(r.reason for r in copy_remarks if r.decision == "kept")
        avoided = sum(r.decision == "removed" for r in copy_remarks)
        self.runs.append(PassRun(len(clone_remarks), removed, dict(kept), seconds,
                                 tuple(self.remarks), len(copy_remarks), avoided,
                                 dict(copies_kept) if self.defunctionalize else None))

    def __deepcopy__(self, memo):
        """The pass itself: torch.compile deep-copies Inductor's config (get_compiler_config),
        and a copy would split the record of runs between objects the caller does not hold."""
        return self

    def uuid(self):
        """Changes when the decisions could: with the mode, the donated inputs, verification,
        defunctionalization and its order, and the code (the package's and the extension)."""
        # Inductor asks while computing a cache key: a hit is told apart when the compile ends.
        _logging.cache_key_computed(self)
        verified = f"/verify/{self.seed}" if self.verify else ""
        # Without it, the key is what it was before the option existed.
        copies = f"/defunctionalize/{self.order}" if self.defunctionalize else ""
        return hashlib.sha256(f"{_code_hash()}/{self.mode}/{self.donated_input_ids}{verified}"
                              f"{copies}".encode()).hexdigest()


_CODE_HASH = None


def _code_hash():
    global _CODE_HASH
    if _CODE_HASH is None:
        digest = hashlib.sha256()
        # verify=True decides by _verify.py, _shrink.py and _compare.py too;
        # _defunctionalize.py rewrites.
        here = __file__[:-len("fx.py")]
        for path in (__file__, here + "_verify.py", here + "_shrink.py", here + "_compare.py",
                     here + "_defunctionalize.py", _declone.__file__):
            with open(path, "rb") as source:
                digest.update(source.read())
        _CODE_HASH = digest.hexdigest()
    return _CODE_HASH
