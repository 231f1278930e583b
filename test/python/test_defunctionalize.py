"""declone.fx.defunctionalize: functionalized mutating calls (auto_functionalized,
auto_functionalized_v2, triton_kernel_wrapper_functional) rewritten in place on live graphs.

Every decision is checked (removed where DESIGN.md section 4b allows it, kept with the reason
code where the argument is read afterwards, is a graph input that is not donated, is passed
twice, is returned), and every rewritten graph is run against the graph as it was on the same
inputs (outputs, final inputs, aliasing, declone verify's comparison). Graphs come from make_fx
of functions that call the higher-order ops themselves (every form, fast) and from AOTAutograd
as torch.compile makes them (v1 and v2). The remarks' new fields (copy, bytes) pickle. Then
CloneEliminationPass(defunctionalize=True) inside Inductor, whose post_grad_custom_post_pass
runs before Inductor's own reinplacing and decomposition of the calls.

With torch 1.13 (no functionalized calls, no Inductor) only the remarks, a graph without such
calls and the pass's options are tested.
"""

import copy
import json
import operator
import pickle

import pytest
import torch

import declone.fx
from declone import _defunctionalize, _verify
from declone_test_support import CLONE, compare_runs, recompile, run, run_cli, trace

try:
    from torch._higher_order_ops.auto_functionalize import (auto_functionalized,
                                                            auto_functionalized_v2)
except ImportError:
    auto_functionalized = auto_functionalized_v2 = None

needs_functionalized = pytest.mark.skipif(
    auto_functionalized_v2 is None,
    reason="this torch (1.13) has no auto_functionalized: no functionalized calls to rewrite")

# --- custom ops with CPU kernels ---------------------------------------------------------------

NAMESPACE = "declone_defunc"
_LIBRARY = torch.library.Library(NAMESPACE, "DEF")


def _add_one(x):
    x.add_(1)


def _scale_into(out, x, s):
    out.copy_(x * s)
    return x.sum()


def _two_out(out, other, x):
    out.copy_(x + 1)
    other.mul_(2)
    return x.sum(), x.amax()


def _add_one_list(xs):
    for x in xs:
        x.add_(1)


_KERNELS = {
    "add_one_(Tensor(a!) x) -> ()": _add_one,
    "scale_into(Tensor(a!) out, Tensor x, float s) -> Tensor": _scale_into,
    "two_out(Tensor(a!) out, Tensor(b!) other, Tensor x) -> (Tensor, Tensor)": _two_out,
    "add_one_list_(Tensor(a!)[] xs) -> ()": _add_one_list,
    # No CPU kernel: a graph that calls it cannot be run to verify a rewrite.
    "no_kernel_(Tensor(a!) x) -> ()": None,
}


def _fake(name):
    if name == "scale_into":
        return lambda out, x, s: x.sum()
    if name == "two_out":
        return lambda out, other, x: (x.sum(), x.amax())
    return lambda *args: None


for _schema, _kernel in _KERNELS.items():
    _name = _schema.split("(")[0]
    _LIBRARY.define(_schema)
    if _kernel is not None:
        _LIBRARY.impl(_name, _kernel, "CPU")
    if hasattr(torch.library, "register_fake"):
        torch.library.register_fake(f"{NAMESPACE}::{_name}", _fake(_name), lib=_LIBRARY)

OPS = getattr(torch.ops, NAMESPACE)


def traced(fn, *shapes):
    """make_fx of ``fn`` on fake tensors of these shapes."""
    return trace(fn, *[torch.randn(shape) for shape in shapes])


def inputs_for(gm, seed=0):
    generator = torch.Generator().manual_seed(seed)
    return [torch.randn(tuple(node.meta["val"].shape), generator=generator)
            for node in gm.graph.nodes if node.op == "placeholder"]


def defunctionalized(gm, donated=(), **options):
    """``gm`` after defunctionalize (recompiled), its remarks, and the differences between its
    runs and the original's on the same inputs (``donated`` inputs may differ)."""
    before = copy.deepcopy(gm)
    remarks = declone.fx.defunctionalize(gm, donated, **options)
    recompile(gm)
    inputs = inputs_for(gm)
    return remarks, compare_runs(run(before, inputs), run(gm, inputs), donated=donated)


def decisions(remarks):
    return [(r.node, r.copy, r.decision, r.reason) for r in remarks]


def targets(gm):
    return [node.target for node in gm.graph.nodes if node.op == "call_function"]


# --- auto_functionalized (v1) from make_fx -----------------------------------------------------


@needs_functionalized
def test_intermediate_written_in_place():
    def f(a):
        b = a * 2
        return auto_functionalized(OPS.add_one_.default, x=b)[1] + 1

    gm = traced(f, (4, 3))
    remarks, differences = defunctionalized(gm)
    assert decisions(remarks) == [("auto_functionalized", "x", "removed", None)]
    assert remarks[0].bytes == 4 * 3 * 4
    assert differences == []
    assert auto_functionalized not in targets(gm) and OPS.add_one_.default in targets(gm)
    # The element the call returned is now the tensor it wrote.
    call = next(n for n in gm.graph.nodes if n.target is OPS.add_one_.default)
    assert call.args == (call.prev,) and call.prev.target is torch.ops.aten.mul.Tensor
    assert declone.fx.defunctionalize(gm) == []  # idempotent: nothing left to rewrite


@needs_functionalized
@pytest.mark.parametrize("case,reason", [
    ("read-after", "source-read-after-write"),
    ("returned", "source-read-after-write"),
    ("graph-input", "input-mutation"),
    ("overlap", "argument-overlap"),
])
def test_copies_kept(case, reason):
    def read_after(a):
        b = a * 2
        return auto_functionalized(OPS.add_one_.default, x=b)[1] + b

    def returned(a):
        b = a * 2
        return auto_functionalized(OPS.add_one_.default, x=b)[1], b

    def graph_input(a):
        return auto_functionalized(OPS.add_one_.default, x=a)[1] * 2

    def overlap(a):
        b = a * 2
        return auto_functionalized(OPS.scale_into.default, out=b, x=b, s=3.0)[1]

    fn = {"read-after": read_after, "returned": returned, "graph-input": graph_input,
          "overlap": overlap}[case]
    gm = traced(fn, (4, 3))
    before = [(n.name, n.target, n.args, n.kwargs) for n in gm.graph.nodes]
    remarks, differences = defunctionalized(gm)
    [remark] = remarks
    assert (remark.decision, remark.reason) == ("kept", reason), remark
    assert remark.detail and remark.copy in ("x", "out")
    assert [(n.name, n.target, n.args, n.kwargs) for n in gm.graph.nodes] == before
    assert differences == []


@needs_functionalized
def test_donated_input_written_in_place():
    """A donated input may be written: the copy goes, and only the donated input differs."""
    def f(a, w):
        return auto_functionalized(OPS.add_one_.default, x=a)[1] * w

    gm = traced(f, (4, 3), (4, 3))
    remarks, differences = defunctionalized(gm, donated=[0])
    assert decisions(remarks) == [("auto_functionalized", "x", "removed", None)]
    assert differences == []
    # By name too, as eliminate_clones takes them.
    gm = traced(f, (4, 3), (4, 3))
    assert decisions(declone.fx.defunctionalize(gm, ["a_1"])) == decisions(remarks)


@needs_functionalized
def test_op_results_and_several_written_arguments():
    """The op's own results: one becomes the call itself, several its getitems."""
    def one(a):
        b = a * 2
        r = auto_functionalized(OPS.scale_into.default, out=b, x=a, s=3.0)
        return r[0] + 1, r[1]

    def several(a):
        b, c = a * 2, a * 3
        r = auto_functionalized(OPS.two_out.default, out=b, other=c, x=a)
        return r[0], r[1], r[2] + r[3]

    gm = traced(one, (4, 3))
    remarks, differences = defunctionalized(gm)
    assert decisions(remarks) == [("auto_functionalized", "out", "removed", None)]
    assert differences == []
    call = next(n for n in gm.graph.nodes if n.target is OPS.scale_into.default)
    assert call.meta["val"].shape == () and [u.target for u in call.users] == [
        torch.ops.aten.add.Tensor]

    gm = traced(several, (4, 3))
    remarks, differences = defunctionalized(gm)
    assert decisions(remarks) == [("auto_functionalized", "out", "removed", None),
                                  ("auto_functionalized", "other", "removed", None)]
    assert differences == []
    call = next(n for n in gm.graph.nodes if n.target is OPS.two_out.default)
    assert sorted(u.args[1] for u in call.users if u.target is operator.getitem) == [0, 1]


@needs_functionalized
def test_negative_getitem_index():
    """getitem(r, -1) is the last element, as Python takes it: here the copy of x."""
    gm = traced(_simple, (4, 3))
    [element] = [n for n in gm.graph.nodes if n.target is operator.getitem and n.args[1] == 1]
    element.args = (element.args[0], -1)
    recompile(gm)
    remarks, differences = defunctionalized(gm)
    assert decisions(remarks) == [("auto_functionalized", "x", "removed", None)]
    assert differences == []


@needs_functionalized
def test_scatter_back_with_a_symbolic_token_count():
    """Rotary embedding's pattern (q and k, column slices of one matmul, written and scattered
    back), traced with a symbolic number of rows, as vLLM compiles: the op writes the matmul in
    place and the scatters become it."""
    def f(x, w):
        qkv = x @ w
        q, k, _ = torch.ops.aten.split_with_sizes.default(qkv, [4, 4, 4], -1)
        r = auto_functionalized(OPS.two_out.default, out=q, other=k, x=x[:, :4])
        qkv = torch.ops.aten.slice_scatter.default(qkv, r[2], 1, 0, 4)
        qkv = torch.ops.aten.slice_scatter.default(qkv, r[3], 1, 4, 8)
        return qkv * 2

    gm = trace(f, torch.randn(5, 12), torch.randn(12, 12), tracing_mode="symbolic")
    assert any(isinstance(n.meta.get("val"), torch.Tensor) and
               not isinstance(n.meta["val"].shape[0], int) for n in gm.graph.nodes)
    before = copy.deepcopy(gm)
    remarks = declone.fx.defunctionalize(gm)
    assert [(r.copy, r.decision) for r in remarks] == [("out", "removed"), ("other", "removed")]
    assert all(r.bytes is None for r in remarks)  # the sizes are symbolic
    recompile(gm)
    assert torch.ops.aten.slice_scatter.default not in targets(gm)
    inputs = [torch.randn(7, 12), torch.randn(12, 12)]
    assert compare_runs(run(before, inputs), run(gm, inputs)) == []


@needs_functionalized
def test_written_list_is_not_rewritable_in_v1():
    def f(a):
        b, c = a * 2, a * 3
        r = auto_functionalized(OPS.add_one_list_.default, xs=[b, c])
        return r[1]

    gm = traced(f, (4, 3))
    remarks, differences = defunctionalized(gm)
    assert {(r.decision, r.reason) for r in remarks} == {("kept", "not-rewritable")}
    assert differences == [] and auto_functionalized in targets(gm)


@needs_functionalized
def test_one_blocking_copy_keeps_the_call():
    """Each copy has its remark: the one that must stay, and the other kept with the call."""
    def f(a):
        b, c = a * 2, a * 3
        r = auto_functionalized(OPS.two_out.default, out=b, other=c, x=a)
        return r[2] + r[3] + c

    gm = traced(f, (4, 3))
    remarks, differences = defunctionalized(gm)
    assert decisions(remarks) == [("auto_functionalized", "out", "kept", "call-kept"),
                                  ("auto_functionalized", "other", "kept",
                                   "source-read-after-write")]
    assert differences == []


# --- auto_functionalized_v2 from make_fx: the views rebuilt from the bases ---------------------


@needs_functionalized
@pytest.mark.parametrize("view", ["base", "slice", "as_strided", "alias"])
def test_v2_view_replay(view):
    forms = {
        "base": {},
        "slice": dict(_x_slice_dim=0, _x_slice_start=1, _x_slice_end=3),
        "as_strided": dict(_x_size=(3, 2), _x_stride=(1, 3), _x_storage_offset=1),
        "alias": dict(_x_alias=True),
    }

    def f(a):
        b = a * 2
        r = auto_functionalized_v2(OPS.add_one_.default, _x_base_index=0, _all_bases=[b],
                                   **forms[view])
        return r[1] * 3

    gm = traced(f, (4, 3))
    remarks, differences = defunctionalized(gm)
    assert decisions(remarks) == [("auto_functionalized_v2", "_all_bases[0]", "removed", None)]
    assert differences == []
    [call] = [n for n in gm.graph.nodes if n.target is OPS.add_one_.default]
    written = call.args[0]
    expected = {"base": torch.ops.aten.mul.Tensor, "slice": torch.ops.aten.slice.Tensor,
                "as_strided": torch.ops.aten.as_strided.default,
                "alias": torch.ops.aten.alias.default}[view]
    assert written.target is expected
    if view != "base":  # the rebuilt view has the value FakeTensor gives it
        assert tuple(written.meta["val"].shape) == {"slice": (2, 3), "as_strided": (3, 2),
                                                    "alias": (4, 3)}[view]


@needs_functionalized
def test_v2_written_list_and_read_after():
    def rewritable(a):
        b, c = a * 2, a * 3
        r = auto_functionalized_v2(OPS.add_one_list_.default, _xs_length=2, _xs_0_base_index=0,
                                   _xs_1_base_index=1, _xs_1_slice_dim=0, _xs_1_slice_start=1,
                                   _xs_1_slice_end=3, _all_bases=[b, c])
        return r[1] + r[2]

    def read_after(a):
        b = a * 2
        r = auto_functionalized_v2(OPS.add_one_.default, _x_base_index=0, _all_bases=[b])
        return r[1] + b

    gm = traced(rewritable, (4, 3))
    remarks, differences = defunctionalized(gm)
    assert [(r.copy, r.decision) for r in remarks] == [("_all_bases[0]", "removed"),
                                                       ("_all_bases[1]", "removed")]
    assert differences == []
    [call] = [n for n in gm.graph.nodes if n.target is OPS.add_one_list_.default]
    assert [x.target for x in call.args[0]] == [torch.ops.aten.mul.Tensor,
                                                torch.ops.aten.slice.Tensor]

    gm = traced(read_after, (4, 3))
    remarks, differences = defunctionalized(gm)
    assert decisions(remarks) == [("auto_functionalized_v2", "_all_bases[0]", "kept",
                                   "source-read-after-write")]
    assert differences == []


# --- graphs as torch.compile makes them (AOTAutograd) ------------------------------------------


def _aot_graph(fn, inputs, v2):
    """The forward graph AOTAutograd gives Inductor for ``fn``: functionalized, with the
    write-back copy_ of each mutated input (keep_inference_input_mutations, as Inductor)."""
    from torch._functorch.aot_autograd import aot_module_simplified
    import torch._inductor.config as inductor_config

    graphs = []

    def keep(gm, example_inputs):
        graphs.append(gm)
        return gm

    def backend(gm, example_inputs):
        return aot_module_simplified(gm, example_inputs, fw_compiler=keep,
                                     keep_inference_input_mutations=True)

    torch._dynamo.reset()
    with inductor_config.patch(enable_auto_functionalized_v2=v2):
        torch.compile(fn, backend=backend, fullgraph=True)(*[x.clone() for x in inputs])
    torch._dynamo.reset()
    return graphs[0]


def _user_function(a):
    """A write to an intermediate, to a slice of one (v1: scattered back), and to the input
    (written back by copy_)."""
    b = a * 2
    OPS.add_one_.default(b)
    c = a.sin()
    OPS.add_one_.default(c[1:])
    OPS.add_one_.default(a)
    return b + 1, c * 2


@needs_functionalized
@pytest.mark.parametrize("v2", [False, True], ids=["v1", "v2"])
def test_aot_graphs(v2):
    gm = _aot_graph(_user_function, [torch.randn(4, 3)], v2)
    calls = [n.name for n in gm.graph.nodes
             if n.target in (auto_functionalized, auto_functionalized_v2)]
    assert len(calls) == 3
    remarks, differences = defunctionalized(gm)
    assert [(r.node, r.decision) for r in remarks] == [(name, "removed") for name in calls]
    assert differences == []
    assert not [n for n in gm.graph.nodes
                if n.target in (auto_functionalized, auto_functionalized_v2,
                                torch.ops.aten.slice_scatter.default)]
    # The mutated input is written in place, then written back onto itself.
    [write_back] = [n for n in gm.graph.nodes if n.target is torch.ops.aten.copy_.default]
    assert write_back.args[0] is write_back.args[1]
    # The user's function, eagerly, on the same input, and the rewritten graph agree.
    x = torch.randn(4, 3)
    expected_input, actual_input = x.clone(), x.clone()
    expected = _user_function(expected_input)
    actual = gm(actual_input)
    assert all(torch.allclose(e, a) for e, a in zip(expected, actual))
    assert torch.equal(expected_input, actual_input)


# --- triton_kernel_wrapper_functional (no kernel runs: the rewrite's form) ---------------------


@needs_functionalized
def test_triton_rewrite(cli, tmp_path):
    functional = _defunctionalize.triton_kernel_wrapper_functional
    mutation = _defunctionalize.triton_kernel_wrapper_mutation
    graph = torch.fx.Graph()
    a = graph.placeholder("a")
    b = graph.call_function(torch.ops.aten.mul.Tensor, (a, 2))
    kernel_args = dict(kernel_idx=0, constant_args_idx=0, grid=[(1, 1, 1)],
                       tma_descriptor_metadata={}, kwargs={"in_ptr": a, "out_ptr": b})
    call = graph.call_function(functional, (), dict(kernel_args, tensors_to_clone=["out_ptr"]))
    element = graph.call_function(operator.getitem, (call, "out_ptr"))
    graph.output(graph.call_function(torch.ops.aten.add.Tensor, (element, 1)))
    # The importer reads the dict of kernel arguments, the grid's tuples and the string index
    # as they are: the CLI decides on the dump as the live pass decides.
    dump = tmp_path / "graph.py"
    dump.write_text(declone.fx.dumps(graph))
    result = run_cli(cli, "opt", dump, "--defunctionalize", "--remarks=json")
    assert result.returncode == 0, result.stderr
    assert "triton_kernel_wrapper_mutation(kernel_idx = 0" in result.stdout
    [cli_remark] = [json.loads(line) for line in result.stderr.splitlines()]
    remarks = declone.fx.defunctionalize(graph)
    assert [(cli_remark["node"], cli_remark["copy"], cli_remark["decision"])] == \
        [(r.node, r.copy, r.decision) for r in remarks]
    assert decisions(remarks) == [(call.name, "out_ptr", "removed", None)]
    graph.lint()
    [rewritten] = [n for n in graph.nodes if n.target is mutation]
    assert rewritten.kwargs == kernel_args
    assert functional not in [n.target for n in graph.nodes]
    assert [n.args[0] for n in graph.nodes if n.target is torch.ops.aten.add.Tensor] == [b]


# --- the importer: the CLI decides on dumps() as the live pass decides -------------------------


@needs_functionalized
@pytest.mark.parametrize("v2", [False, True], ids=["v1", "v2"])
def test_cli_decides_on_the_dump_as_the_live_pass(v2, cli, tmp_path):
    gm = _aot_graph(_user_function, [torch.randn(4, 3)], v2)
    dump = tmp_path / "graph.py"
    dump.write_text(declone.fx.dumps(gm))
    schemas = tmp_path / "ops.schemas"
    schemas.write_text(declone.fx.schemas_of(OPS.add_one_.default))
    result = run_cli(cli, "opt", dump, "--schemas", schemas, "--defunctionalize=copies-first",
                     "--remarks=json", "-o", tmp_path / "out.py")
    assert result.returncode == 0, result.stderr
    cli_remarks = [json.loads(line) for line in result.stderr.splitlines()
                   if line.startswith("{")]
    live = declone.fx.defunctionalize(gm)
    assert [(r["node"], r["copy"], r["decision"], r["reason"], r["bytes"]) for r in cli_remarks] \
        == [(r.node, r.copy, r.decision, r.reason, r.bytes) for r in live]


# --- verify=True -------------------------------------------------------------------------------


def _simple(a):
    b = a * 2
    return auto_functionalized(OPS.add_one_.default, x=b)[1] + 1


@needs_functionalized
def test_verify_accepts_a_right_rewrite():
    gm = traced(_simple, (4, 3))
    remarks, differences = defunctionalized(gm, verify=True, seed=3)
    assert decisions(remarks) == [("auto_functionalized", "x", "removed", None)]
    assert differences == [] and auto_functionalized not in targets(gm)


@needs_functionalized
def test_verify_refuses_a_wrong_rewrite(monkeypatch):
    """A replay that loses the op's write (a stand-in for a wrong rewrite) is caught: the graph
    stays as it was and the copy is kept, the remark saying what differed."""
    rewrite = _defunctionalize.rewrite

    def loses_the_write(graph, node, chain=()):
        rewrite(graph, node, chain)
        for call in [n for n in graph.nodes if n.target is OPS.add_one_.default]:
            graph.erase_node(call)

    monkeypatch.setattr(_defunctionalize, "rewrite", loses_the_write)
    gm = traced(_simple, (4, 3))
    before = [(n.name, n.target) for n in gm.graph.nodes]
    [remark] = declone.fx.defunctionalize(gm, verify=True)
    assert (remark.decision, remark.reason, remark.copy) == ("kept", _verify.REFUSED, "x")
    assert remark.detail.startswith("the rewrite was refused: output 0")
    assert remark.bytes == 48
    assert [(n.name, n.target) for n in gm.graph.nodes] == before


@needs_functionalized
def test_verify_cannot_run_an_op_without_kernel():
    def f(a):
        b = a * 2
        return auto_functionalized(OPS.no_kernel_.default, x=b)[1] + 1

    gm = traced(f, (4, 3))
    [remark] = declone.fx.defunctionalize(gm, verify=True)
    assert (remark.decision, remark.reason) == ("kept", _verify.CANNOT_VERIFY)
    assert auto_functionalized in targets(gm)
    # Unverified, the same call is rewritten.
    assert decisions(declone.fx.defunctionalize(gm)) == [
        ("auto_functionalized", "x", "removed", None)]


# --- remarks ------------------------------------------------------------------------------------


def test_remark_fields_pickle():
    remark = declone.fx.Remark(node="auto_functionalized", line=5, decision="kept",
                               reason="input-mutation", detail="a is a graph input",
                               source="model.py:3", code="op(a)", copy="x", bytes=48)
    assert (remark.copy, remark.bytes) == ("x", 48)
    assert "copy of 'x' in 'auto_functionalized' kept [input-mutation]" in str(remark)
    assert json.loads(remark.json())["copy"] == "x" and json.loads(remark.json())["bytes"] == 48
    for again in (pickle.loads(pickle.dumps(remark)), copy.deepcopy(remark)):
        assert (again.node, again.line, again.decision, again.reason, again.detail, again.source,
                again.code, again.copy, again.bytes) == (
            remark.node, remark.line, remark.decision, remark.reason, remark.detail,
            remark.source, remark.code, remark.copy, remark.bytes)
    symbolic = declone.fx.Remark(node="n", decision="removed", copy="_all_bases[0]")
    assert pickle.loads(pickle.dumps(symbolic)).bytes is None
    clone = declone.fx.Remark(node="clone", decision="removed")
    assert (clone.copy, clone.bytes) == ("", None) and "clone 'clone' removed" in str(clone)
    remark.bytes = 64
    remark.copy = "out"
    assert (remark.copy, remark.bytes) == ("out", 64)


def test_graph_without_functionalized_calls():
    """Nothing to rewrite (any torch; torch 1.13 has no such calls at all)."""
    gm = trace(lambda a: (a * 2).clone() + 1, torch.randn(4, 3))
    before = [(n.name, n.target, n.args) for n in gm.graph.nodes]
    assert declone.fx.defunctionalize(gm) == []
    assert declone.fx.defunctionalize(gm, verify=True) == []
    assert [(n.name, n.target, n.args) for n in gm.graph.nodes] == before


# --- CloneEliminationPass(defunctionalize=True) ------------------------------------------------


def test_pass_options_and_uuid():
    base = declone.fx.CloneEliminationPass()
    orders = [declone.fx.CloneEliminationPass(defunctionalize=True, order=order)
              for order in declone.fx.ORDERS]
    assert base.defunctionalize is False and base.order == "copies-first"
    uuids = {base.uuid()} | {p.uuid() for p in orders}
    assert len(uuids) == 3
    # The order matters only when the pass defunctionalizes.
    assert declone.fx.CloneEliminationPass(order="clones-first").uuid() == base.uuid()
    with pytest.raises(ValueError, match="order"):
        declone.fx.CloneEliminationPass(defunctionalize=True, order="sideways")


def test_pass_runs_clone_elimination_alone_by_default():
    gm = trace(lambda a: (a * 2).clone() + 1, torch.randn(4, 3))
    clone_pass = declone.fx.CloneEliminationPass(defunctionalize=True)
    clone_pass(gm.graph)
    [run_] = clone_pass.runs
    assert (run_.clones, run_.removed, run_.copies, run_.avoided, run_.copies_kept) == \
        (1, 1, 0, 0, {})
    assert CLONE not in targets(gm)


@needs_functionalized
@pytest.mark.parametrize("order", ["copies-first", "clones-first"])
def test_pass_runs_both_in_order(order):
    """A clone feeding the call, and a write nothing needs the old contents of: both go, in
    either order; the remarks come in the order the passes ran."""
    def f(a):
        c = (a * 2).clone()
        return auto_functionalized(OPS.add_one_.default, x=c)[1] + 1

    gm = traced(f, (4, 3))
    before = copy.deepcopy(gm)
    clone_pass = declone.fx.CloneEliminationPass(defunctionalize=True, order=order)
    clone_pass(gm.graph)
    recompile(gm)
    [run_] = clone_pass.runs
    assert (run_.clones, run_.removed, run_.copies, run_.avoided) == (1, 1, 1, 1)
    kinds = ["copy" if r.copy else "clone" for r in clone_pass.remarks]
    assert kinds == (["copy", "clone"] if order == "copies-first" else ["clone", "copy"])
    assert [t for t in targets(gm) if t in (CLONE, auto_functionalized)] == []
    inputs = inputs_for(gm)
    assert compare_runs(run(before, inputs), run(gm, inputs)) == []


# --- inside Inductor ---------------------------------------------------------------------------


def _model(a, w):
    h = a @ w
    c = h.clone()  # functionalized into the call's own copy of h, which h.sin() needs
    OPS.add_one_.default(c)
    d = h.sin()
    OPS.add_one_.default(d[1:])  # v1: a copy of the slice, scattered back into d
    return c * 2, d


@needs_functionalized
@pytest.mark.parametrize("v2", [False, True], ids=["v1", "v2"])
def test_inductor(v2, monkeypatch):
    """As post_grad_custom_post_pass the pass sees the functionalized calls (Inductor reinplaces
    and decomposes them after it) and rewrites the one whose copy nothing needs: the graph
    Inductor lowers has no more clones with the pass than without, fewer with v1 (vLLM's
    setting), where Inductor's reinplacing does not see through the scatter-back of a written
    slice, and computes what eager computes."""
    inductor = pytest.importorskip("torch._inductor.graph")
    import torch._inductor.config as inductor_config

    lowered = []
    init = inductor.GraphLowering.__init__

    def capture(self, gm, *args, **kwargs):  # the graph after every post-grad pass
        lowered.append([n.target for n in gm.graph.nodes if n.op == "call_function"])
        return init(self, gm, *args, **kwargs)

    monkeypatch.setattr(inductor.GraphLowering, "__init__", capture)
    inputs = [torch.randn(4, 3), torch.randn(3, 3)]
    expected = _model(*[x.clone() for x in inputs])

    def compile_with(post_pass):
        torch._dynamo.reset()
        with inductor_config.patch(post_grad_custom_post_pass=post_pass,
                                   enable_auto_functionalized_v2=v2, force_disable_caches=True):
            result = torch.compile(_model, fullgraph=True)(*[x.clone() for x in inputs])
        torch._dynamo.reset()
        return result, lowered.pop()

    _, without = compile_with(None)
    clone_pass = declone.fx.CloneEliminationPass(defunctionalize=True)
    result, with_pass = compile_with(clone_pass)
    if v2:
        assert with_pass.count(CLONE) <= without.count(CLONE), (without, with_pass)
    else:
        assert with_pass.count(CLONE) < without.count(CLONE), (without, with_pass)
    assert auto_functionalized not in with_pass and auto_functionalized_v2 not in with_pass
    [run_] = clone_pass.runs
    assert (run_.copies, run_.avoided, run_.copies_kept) == \
        (2, 1, {"source-read-after-write": 1})
    assert all(torch.allclose(e, r, atol=1e-6) for e, r in zip(expected, result))
