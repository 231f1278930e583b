"""The copies mutating custom ops leave in what Inductor lowers, with and without declone's
defunctionalization and vLLM's FixFunctionalizationPass (issue 33).

Each program of defunctionalize_programs.py is compiled with torch.compile (Inductor, graph
caches off) once per column, and the FINAL graph, the one Inductor lowers (after its post-grad
passes, reinplace_inplaceable_ops and decompose_auto_functionalized among them), is recorded.
Columns:

- ``inductor``: Inductor alone, auto_functionalized_v2 (torch's default);
- ``declone clones-first`` / ``declone copies-first``: declone's CloneEliminationPass with
  defunctionalize=True as ``post_grad_custom_post_pass``, in either order, v2;
- ``inductor v1``: Inductor alone in vLLM's setting (vLLM's CompilationConfig sets
  ``enable_auto_functionalized_v2=False``), the baseline of the next two;
- ``vllm fix``: vLLM 0.33's FixFunctionalizationPass as ``post_grad_custom_post_pass``, v1;
- ``declone v1``: declone's pass in its place, v1.

Copies counted in the final graph (bytes from ``meta["val"]``): ``aten.clone`` (what
decompose_auto_functionalized leaves for a copy it could not drop: ``clone_preserve_strides``),
``aten.copy``/``copy_`` except a copy of a tensor onto itself (the write-back of an input the
call already wrote in place, as reinplacing leaves it), and the functional scatters
(``slice_scatter`` ...), which copy their whole base. Every column is also run against eager on
the same inputs: every output, every input's contents afterwards, and in training every
gradient. A column that differs, or raises, is counted as wrong, never left out.

Asserted: Inductor alone is right (else the comparison means nothing); declone is always right
and never leaves more copies (count or bytes) than Inductor alone in the same setting, nor than
vLLM's pass where that pass is right; the ``blind_*`` programs do show vLLM's pass wrong. The
table goes to the terminal summary and, as JSON, to ``$DECLONE_DEFUNC_TABLE`` when set.
"""

import collections
import contextlib
import json
import os
import time
import unittest.mock

import pytest

os.environ.setdefault("VLLM_TARGET_DEVICE", "cpu")

torch = pytest.importorskip("torch")
pytest.importorskip("vllm", reason="vLLM is not installed (make venv-vllm)")

import torch._inductor.compile_fx as compile_fx  # noqa: E402
from vllm.compilation.passes.utility.fix_functionalization import (  # noqa: E402
    FixFunctionalizationPass,
)
from vllm.config import set_current_vllm_config  # noqa: E402

import declone.fx  # noqa: E402
import defunctionalize_programs as programs  # noqa: E402

def _declone_pass(order):
    def make(config):
        return declone.fx.CloneEliminationPass(defunctionalize=True, order=order)
    return make


# name -> (auto_functionalized_v2, the post_grad_custom_post_pass factory or None, declone's)
COLUMNS = {
    "inductor": (True, None, False),
    "declone clones-first": (True, _declone_pass("clones-first"), True),
    "declone copies-first": (True, _declone_pass("copies-first"), True),
    "inductor v1": (False, None, False),
    "vllm fix": (False, FixFunctionalizationPass, False),
    "declone v1": (False, _declone_pass("clones-first"), True),
}
# Each declone column and the columns it must never leave more copies than.
BASELINES = {"declone clones-first": ("inductor",), "declone copies-first": ("inductor",),
             "declone v1": ("inductor v1", "vllm fix")}

aten = torch.ops.aten
SCATTERS = (aten.slice_scatter.default, aten.select_scatter.default,
            aten.as_strided_scatter.default, aten.diagonal_scatter.default)


# --- the final graph ---------------------------------------------------------------------------


def _nbytes(node):
    value = node.meta.get("val")
    if not isinstance(value, torch.Tensor):
        raise AssertionError(f"{node.format_node()}: no tensor meta['val'] to take bytes from")
    return value.numel() * value.element_size()


def _copies_onto_itself(node):
    """copy_(dst, src) where src is dst, or views of dst (view ops only, dtype views included)
    with dst's dtype and layout: the write-back of an input the call already wrote in place
    moves nothing. Decided on the graph's structure, not on meta["val"]'s storages, which
    reinplacing leaves as they were in the functional graph."""
    dst, src = node.args[:2]
    base = src
    while (base is not dst and isinstance(base, torch.fx.Node) and base.op == "call_function"
           and isinstance(base.target, torch._ops.OpOverload) and base.target.is_view):
        base = base.args[0]
    if base is not dst:
        return False
    dst_val, src_val = dst.meta.get("val"), src.meta.get("val")
    return (isinstance(dst_val, torch.Tensor) and isinstance(src_val, torch.Tensor)
            and (dst_val.dtype, dst_val.shape, dst_val.stride(), dst_val.storage_offset())
            == (src_val.dtype, src_val.shape, src_val.stride(), src_val.storage_offset()))


def count_copies(graph):
    """{kind: [count, bytes]} over the copies the graph makes (see the module docstring)."""
    kinds = {}
    for node in graph.nodes:
        if node.op != "call_function":
            continue
        if node.target is aten.clone.default:
            kind = "clone"
        elif node.target in (aten.copy.default, aten.copy_.default):
            if _copies_onto_itself(node):
                continue
            kind = "copy"
        elif node.target in SCATTERS:
            kind = node.target.__name__.split(".")[0]
        else:
            continue
        count = kinds.setdefault(kind, [0, 0])
        count[0] += 1
        count[1] += _nbytes(node)
    return kinds


@contextlib.contextmanager
def final_graphs():
    """Records each graph Inductor lowers, once its post-grad passes are done: a list of
    (copies by kind, the graph as text), one per compiled graph (forward, then backward)."""
    recorded, original = [], compile_fx._recursive_post_grad_passes
    depth = 0

    def record(gm, is_inference=False):
        nonlocal depth
        depth += 1  # it recurses into subgraphs: the outermost call has the whole graph
        try:
            original(gm, is_inference)
        finally:
            depth -= 1
        if depth == 0:
            recorded.append((count_copies(gm.graph), gm.print_readable(
                print_output=False, include_stride=True)))

    with unittest.mock.patch.object(compile_fx, "_recursive_post_grad_passes", record):
        yield recorded


# --- running against eager ---------------------------------------------------------------------


def _fresh(tensors):
    return [t.detach().clone().requires_grad_(t.requires_grad) for t in tensors]


def _flat(outputs):
    return list(outputs) if isinstance(outputs, (tuple, list)) else [outputs]


def _execute(program, function, inputs):
    """Runs ``function`` on ``inputs`` (then backward, in training): the values to compare."""
    outputs = _flat(function(*inputs))
    if program.grad_inputs:
        sum(out.float().sum() for out in outputs).backward()
    return {"output": [out.detach() for out in outputs],
            "input": [t.detach() for t in inputs],
            "grad": [inputs[i].grad for i in program.grad_inputs]}


def differences(expected, actual):
    found = []
    for kind in ("output", "input", "grad"):
        for index, (want, got) in enumerate(zip(expected[kind], actual[kind], strict=True)):
            if got is None or want.shape != got.shape or want.dtype != got.dtype:
                found.append(f"{kind} {index}: {None if got is None else (got.dtype, got.shape)}"
                             f" != {(want.dtype, want.shape)}")
            elif not torch.allclose(want.float(), got.float(), rtol=1e-4, atol=1e-5):
                worst = (want.float() - got.float()).abs().max().item()
                found.append(f"{kind} {index}: differs by up to {worst:.3g}")
    return found


# No graph is taken from a cache: a graph Inductor (or AOTAutograd) finds in one is not
# compiled, and no pass runs on it. The C++ kernel cache stays on (force_disable_caches would
# turn it off too): it is keyed by the kernel's source, so it cannot hide what a pass did, and
# compiling each kernel once instead of once per column is most of this test's time. The
# kernels go to a cache folder of the test's own (the ``fresh_kernel_cache`` fixture).
NO_GRAPH_CACHES = dict(fx_graph_cache=False, fx_graph_remote_cache=False)


# --- one column ---------------------------------------------------------------------------------


def measure(program, column, config):
    """Compiles and runs ``program`` as ``column`` says; returns the column's record."""
    v2, make_pass, _ = COLUMNS[column]
    custom_pass = make_pass(config) if make_pass else None
    torch._dynamo.reset()
    start = time.perf_counter()
    record = {"copies": None, "bytes": None, "kinds": {}, "matches": False, "differences": [],
              "error": None}
    inputs = program.inputs(seed=1)
    expected = _execute(program, program.forward, _fresh(inputs))
    patches = dict(enable_auto_functionalized_v2=v2, post_grad_custom_post_pass=custom_pass,
                   **NO_GRAPH_CACHES)
    # vLLM's passes run inside its config context, as its backend runs them.
    vllm_context = set_current_vllm_config(config) if column == "vllm fix" else \
        contextlib.nullcontext()
    with torch._inductor.config.patch(patches), torch._functorch.config.patch(
            enable_autograd_cache=False, enable_remote_autograd_cache=False), \
            torch._dynamo.config.patch(automatic_dynamic_local_pgo=False,
                                       automatic_dynamic_remote_pgo=False), \
            final_graphs() as graphs, vllm_context:
        try:
            actual = _execute(program, torch.compile(program.forward, fullgraph=True),
                              _fresh(inputs))
            record["differences"] = differences(expected, actual)
        except Exception as error:  # a wrong rewrite may make a kernel or Inductor fail
            record["error"] = f"{type(error).__name__}: {str(error).splitlines()[0][:300]}"
    record["matches"] = record["error"] is None and not record["differences"]
    if record["error"] is None:  # each graph compiled, none taken from a cache
        assert len(graphs) == (2 if program.grad_inputs else 1), f"{len(graphs)} graphs"
    for kinds, _ in graphs:
        for kind, (count, nbytes) in kinds.items():
            total = record["kinds"].setdefault(kind, [0, 0])
            total[0] += count
            total[1] += nbytes
    if graphs:
        record["copies"] = sum(count for count, _ in record["kinds"].values())
        record["bytes"] = sum(nbytes for _, nbytes in record["kinds"].values())
    record["graphs"] = [text for _, text in graphs]
    record["remarks"] = [
        {"copy": r.copy, "decision": r.decision, "reason": r.reason, "bytes": r.bytes,
         "node": r.node}
        for run in getattr(custom_pass, "runs", ()) for r in run.remarks if getattr(r, "copy", "")]
    record["seconds"] = round(time.perf_counter() - start, 2)
    return record


# --- the table ----------------------------------------------------------------------------------

_ROWS = []


def _cell(record):
    if record is None:
        return "not run"
    amount = "-" if record["copies"] is None else f"{record['copies']}/{record['bytes']}B"
    return f"{amount} {'yes' if record['matches'] else 'NO'}"


def _decisions(record):
    if record is None:
        return "not run"
    removed = [r for r in record["remarks"] if r["decision"] == "removed"]
    kept = collections.Counter(r["reason"] for r in record["remarks"] if r["decision"] == "kept")
    return (f"{len(removed)}/{sum(r['bytes'] or 0 for r in removed)}B"
            + "".join(f" {reason}:{count}" for reason, count in sorted(kept.items())))


@pytest.fixture(scope="module")
def table(report):
    yield _ROWS
    width = max(len(c) for c in COLUMNS) + 1
    lines = ["copies left in the final graph (count/bytes) and whether the result matches eager",
             f"{'program':<18}" + "".join(f"{c:<{width}}" for c in COLUMNS)]
    for row in _ROWS:
        lines.append(f"{row['program']:<18}"
                     + "".join(f"{_cell(row['columns'].get(c)):<{width}}" for c in COLUMNS))
    lines += ["", "declone's own decisions on the implied copies (before Inductor's "
              "reinplacing, which may still remove a kept one): removed count/bytes; kept by "
              "reason"]
    declone_columns = [c for c in COLUMNS if COLUMNS[c][2]]
    lines.append(f"{'program':<18}" + "".join(f"{c:<44}" for c in declone_columns))
    for row in _ROWS:
        lines.append(f"{row['program']:<18}" + "".join(
            f"{_decisions(row['columns'].get(c)):<44}" for c in declone_columns))
    report["defunctionalization suite (issue 33)"] = lines
    path = os.environ.get("DECLONE_DEFUNC_TABLE")
    if path:
        with open(path, "w") as out:
            json.dump({"columns": list(COLUMNS), "rows": _ROWS,
                       "torch": torch.__version__}, out, indent=1)


@pytest.fixture(scope="module")
def fresh_kernel_cache(tmp_path_factory):
    """Inductor's caches in a folder of this module's own, in-memory caches cleared."""
    from torch._inductor.utils import fresh_cache

    with fresh_cache(dir=str(tmp_path_factory.mktemp("inductor"))):
        yield


@pytest.fixture(scope="module")
def c_ops():
    library = programs.define_c_ops()
    yield
    if library is not None:
        library._destroy()


@pytest.mark.parametrize("program", programs.PROGRAMS, ids=[p.name for p in programs.PROGRAMS])
def test_defunctionalize_suite(program, vllm_config, c_ops, fresh_kernel_cache, table):
    row = {"program": program.name, "doc": program.doc, "columns": {}}
    table.append(row)
    for column in COLUMNS:
        row["columns"][column] = measure(program, column, vllm_config)
    columns = row["columns"]

    def show(column):
        record = columns[column]
        return (f"{column}: {_cell(record)} {record['kinds']} {record['error'] or ''}"
                f"{record['differences']}\n" + "\n".join(record["graphs"]))

    for column in ("inductor", "inductor v1"):
        assert columns[column]["matches"], "Inductor alone differs from eager\n" + show(column)
    if program.blind:
        assert not columns["vllm fix"]["matches"], (
            f"{program.name} is meant to show FixFunctionalizationPass's blind rewrite wrong\n"
            + show("vllm fix"))
    for column, baselines in BASELINES.items():
        record = columns[column]
        assert record["matches"], f"declone differs from eager\n{show(column)}"
        for baseline in baselines:
            if not columns[baseline]["matches"]:
                continue
            base = columns[baseline]
            assert (record["copies"] <= base["copies"] and record["bytes"] <= base["bytes"]), (
                f"declone leaves more copies than {baseline}\n{show(column)}\n{show(baseline)}")
