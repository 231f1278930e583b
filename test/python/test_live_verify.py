"""eliminate_clones(..., verify=True): the graph run before and after the rewrite with torch
itself (custom ops' own CPU kernels included), and a rewrite that changes anything the caller
can observe refused, the graph left as it was. Also declone._verify.verify on hand-made rewrites.

Runs with Debian's torch 1.13 and with PyTorch 2.13 (the custom ops are defined with
torch.library.Library, which both have).
"""

import copy

import pytest
import torch

import declone.fx
from declone import _verify
from declone_test_support import (CLONE, clone_names, compare_runs, recompile, run, trace,
                                   without_clones)

TORCH_2 = int(torch.__version__.split(".")[0]) >= 2

# --- custom ops with CPU kernels -------------------------------------------------------------

_LIBRARY = torch.library.Library("declone_live_verify", "DEF")
_LIBRARY.define("contig_read(Tensor x) -> Tensor")
_LIBRARY.define("always_fails(Tensor x) -> Tensor")
_LIBRARY.define("needs_contiguous(Tensor x) -> Tensor")


def _contig_read(x):
    """Reads ``x`` as contiguous memory from its storage offset, like a CUDA kernel handed a
    pointer (vLLM's causal_conv1d_update): a strided view gives it the wrong elements."""
    flat = x.as_strided((x.numel(),), (1,), x.storage_offset())
    return (flat * 2 + 1).reshape(x.shape)


def _always_fails(x):
    raise RuntimeError("always_fails: no kernel for this machine")


def _needs_contiguous(x):
    if not x.is_contiguous():
        raise RuntimeError("needs_contiguous: x must be contiguous")
    return x * 2


def _meta(x):
    return torch.empty(x.shape, dtype=x.dtype, device=x.device)


for _name, _kernel in (("contig_read", _contig_read), ("always_fails", _always_fails),
                       ("needs_contiguous", _needs_contiguous)):
    _LIBRARY.impl(_name, _kernel, "CPU")
    _LIBRARY.impl(_name, _meta, "Meta")

OPS = torch.ops.declone_live_verify
SLICE = torch.ops.aten.slice.Tensor


def graph_state(gm):
    """Everything eliminate_clones could change: the nodes, their arguments and their meta."""
    return [(n.name, n.op, n.target, n.args, n.kwargs, dict(n.meta)) for n in gm.graph.nodes]


def inserted_without_metadata(op, shape=(4, 5)):
    """``op(h[:, :3].contiguous())`` traced with make_fx in real mode, its metadata
    TensorMetadata only (what torch 1.13's real-mode make_fx records; torch 2.13's also records
    FakeTensors, dropped here), and the slice and the clone without any, as if another pass had
    inserted them: declone cannot fill in what it cannot compute, and vLLM's layout check
    compares only where metadata is present."""
    def f(h):
        return op(h[:, :3].contiguous())

    gm = trace(f, torch.randn(*shape), tracing_mode="real")
    for node in gm.graph.nodes:
        node.meta.pop("val", None)
        if node.op == "call_function" and node.target in (SLICE, CLONE):
            node.meta.clear()
    assert any(n.meta.get("tensor_meta") is not None for n in gm.graph.nodes
               if n.op == "placeholder")
    return gm


# --- the acceptance test: the vLLM Mamba bug -------------------------------------------------

def test_vllm_0_32_mode_drops_the_mamba_clone_without_verify():
    """The wrong rewrite happens: vLLM 0.32's pass (the seed's; 0.33's would_alias_graph_io
    keeps a clone without a value) removes the clone, and the kernel reads the slice's (5, 1)
    strided memory as contiguous."""
    gm = inserted_without_metadata(OPS.contig_read.default)
    h = torch.randn(4, 5)
    before = run(gm, [h])
    remarks = declone.fx.eliminate_clones(gm.graph, mode="vllm-0.32")
    assert [(r.node, r.decision) for r in remarks] == [("clone", "removed")], remarks
    problems = compare_runs(before, run(recompile(gm), [h]))
    assert problems and problems[0].startswith("output 0: values differ"), problems


def test_verify_refuses_the_wrong_rewrite_and_leaves_the_graph_as_it_was():
    gm = inserted_without_metadata(OPS.contig_read.default)
    state, code = graph_state(gm), gm.code
    h = torch.randn(4, 5)
    before = run(gm, [h])
    remarks = declone.fx.eliminate_clones(gm.graph, mode="vllm-0.32", verify=True)
    assert len(remarks) == 1
    (remark,) = remarks
    assert (remark.node, remark.decision, remark.reason) == ("clone", "kept",
                                                             _verify.REFUSED)
    assert remark.detail.startswith("the rewrite was refused: output 0: values differ "
                                    "(largest difference "), remark.detail
    assert f"clone 'clone' kept [{_verify.REFUSED}]: the rewrite was refused" in str(remark)
    assert graph_state(gm) == state
    assert recompile(gm).code == code
    assert not compare_runs(before, run(gm, [h]))


def test_verify_accepts_the_right_rewrite():
    """The same graph with its metadata (traced with FakeTensors): safe mode keeps the layout
    change and removes the copy nobody needs; verification runs the custom op's CPU kernel on
    both and lets the rewrite through."""
    def f(h, w):
        x = OPS.contig_read.default(h[:, :3].contiguous())
        return x + w.clone()

    h, w = torch.randn(4, 5), torch.randn(4, 3)
    for mode in ("safe", "vllm", "vllm-0.32"):
        gm = trace(f, h, w)
        before = run(gm, [h, w])
        remarks = declone.fx.eliminate_clones(gm, mode=mode, verify=True)
        decisions = {r.node: (r.decision, r.reason) for r in remarks}
        assert decisions == {"clone": ("kept", "layout-changed"),
                             "clone_1": ("removed", None)}, (mode, remarks)
        assert clone_names(gm) == ["clone"]
        assert not compare_runs(before, run(recompile(gm), [h, w]))


def test_verify_of_a_hand_made_wrong_rewrite():
    """verify itself, on graphs rewritten by hand: the clone dropped before the kernel (its
    values differ) and before the output (its strides differ)."""
    def feeds_the_kernel(h):
        return OPS.contig_read.default(h[:, :3].contiguous())

    def returned(h):
        return h[:, :3].contiguous()

    h = torch.randn(4, 5)
    for fn, expected in ((feeds_the_kernel, "output 0: values differ (largest difference "),
                         (returned, "output 0: stride (5, 1) != (3, 1)")):
        gm = trace(fn, h)
        wrong = copy.deepcopy(gm)
        for node in list(wrong.graph.nodes):
            if node.target is CLONE:
                node.replace_all_uses_with(node.args[0])
                wrong.graph.erase_node(node)
        recompile(wrong)
        verdict = _verify.verify(gm, wrong)
        assert verdict.equivalent is False and not verdict
        assert verdict.difference.startswith(expected), verdict.difference
        assert verdict.error is None
        assert _verify.verify(gm, gm), "a graph is equivalent to itself"
        assert _verify.verify(wrong, wrong)


# --- what is compared ------------------------------------------------------------------------

def test_final_contents_of_inputs_are_compared_unless_donated():
    def f(x):
        y = x.clone()
        y.add_(1)
        return y

    gm = trace(f, torch.randn(3, 4))
    wrong = without_clones(gm)
    verdict = _verify.verify(gm, wrong)
    assert verdict.difference.startswith("input 0 (x_1): values differ (largest difference 1 "), \
        verdict.difference
    assert verdict.difference.endswith(" after the call")
    # Donated: its final contents are not the caller's business, nor is an output living in it.
    assert _verify.verify(gm, wrong, donated_input_ids=(0,))
    # The pass itself: safe mode keeps the clone (input-mutation), unless the input is donated.
    remarks = declone.fx.eliminate_clones(copy.deepcopy(gm), verify=True)
    assert [(r.decision, r.reason) for r in remarks] == [("kept", "input-mutation")]
    donated = copy.deepcopy(gm)
    remarks = declone.fx.eliminate_clones(donated, donated_input_ids=(0,), verify=True)
    assert [(r.decision, r.reason) for r in remarks] == [("removed", None)], remarks
    by_name = declone.fx.eliminate_clones(copy.deepcopy(gm), donated_input_ids=["x_1"],
                                          verify=True)
    assert [(r.decision, r.reason) for r in by_name] == [("removed", None)], by_name


def test_aliasing_is_compared():
    def returns_a_copy(x):
        return x.clone()

    def returns_twice(x):
        a = x + 1
        return a, a.clone()

    x = torch.randn(3)
    for fn, expected in ((returns_a_copy, "output 0: aliases input 0 != nothing"),
                         (returns_twice, "output 0: aliases output 1 != nothing")):
        gm = trace(fn, x)
        verdict = _verify.verify(gm, without_clones(gm))
        assert verdict.difference == expected, verdict


def test_module_attributes_are_copies_and_their_final_contents_are_compared():
    """get_attr state (a buffer the graph writes) is the caller's, like an input: each run
    writes a copy, and the module's own buffer is untouched."""
    graph = torch.fx.Graph()
    x = graph.placeholder("x")
    x.meta["val"] = torch.empty(3)
    buf = graph.get_attr("buf")
    copied = graph.call_function(CLONE, (buf,))
    written = graph.call_function(torch.ops.aten.add_.Tensor, (copied, x))
    graph.output(written)
    root = torch.nn.Module()
    root.register_buffer("buf", torch.arange(3.0))
    gm = torch.fx.GraphModule(root, graph)
    wrong = without_clones(gm)
    verdict = _verify.verify(gm, wrong)
    assert verdict.difference.startswith("attribute self.buf: values differ"), verdict
    assert torch.equal(gm.buf, torch.arange(3.0)) and torch.equal(wrong.buf, torch.arange(3.0))
    remarks = declone.fx.eliminate_clones(gm, mode="vllm-0.32", verify=True)
    assert [(r.decision, r.reason) for r in remarks] == [("kept", _verify.REFUSED)], remarks
    assert clone_names(gm) == [copied.name]


def test_signed_zeros_differ_and_nans_are_equal():
    compare = _verify.compare_values
    assert compare("output 0", torch.tensor([-0.0]), torch.tensor([0.0])) == \
        "output 0: values differ (-0 != 0 at flat index 0)"
    assert compare("output 0", torch.tensor([1.0, float("nan")]),
                   torch.tensor([1.0, -float("nan")])) is None
    assert compare("output 0", torch.tensor([1.0, float("nan")]),
                   torch.tensor([1.0, 2.0])).startswith("output 0: values differ")
    negative_imaginary = torch.complex(torch.tensor([1.0]), torch.tensor([-0.0]))
    assert compare("output 0", negative_imaginary, torch.tensor([1 + 0j])) == \
        "output 0: values differ (-0 != 0 in the imaginary part at flat index 0)"
    assert compare("output 1", 3, 4) == "output 1: 3 != 4"


# --- uninitialized memory --------------------------------------------------------------------

def test_uninitialized_outputs_do_not_fail_a_right_rewrite():
    def f(x):
        e = torch.empty_like(x)
        part = torch.empty(4)
        part[:2] = x[0, :2]
        return e, part, x.clone() + 1

    x = torch.randn(3, 4)
    gm = trace(f, x)
    verdict = _verify.verify(gm, gm)
    assert verdict, verdict
    assert any(note.startswith("output 0 compared by metadata only: its values come from "
                               "uninitialized memory") for note in verdict.notes), verdict.notes
    assert any(note.startswith("output 1: values compared at 2 of 4 elements")
               for note in verdict.notes), verdict.notes
    remarks = declone.fx.eliminate_clones(gm, verify=True)
    assert [(r.decision, r.reason) for r in remarks] == [("removed", None)], remarks


def test_values_taken_from_uninitialized_memory_where_the_original_had_none_differ():
    gm = trace(lambda x: torch.zeros_like(x), torch.randn(3))
    wrong = trace(lambda x: torch.empty_like(x), torch.randn(3))
    verdict = _verify.verify(gm, wrong)
    assert verdict.difference.startswith(
        "output 0: 3 of 3 elements come from uninitialized memory (empty_like"), verdict
    assert _verify.verify(wrong, gm), "computing what the original left to chance is fine"


# --- inputs ----------------------------------------------------------------------------------

def test_integer_and_bool_inputs_get_valid_values():
    def f(tokens, weight, mask):
        rows = torch.nn.functional.embedding(tokens, weight)
        return torch.where(mask, rows, rows.clone() * 2)

    tokens = torch.tensor([[0, 2], [1, 1]])
    gm = trace(f, tokens, torch.randn(3, 4), torch.ones(2, 2, 4, dtype=torch.bool))
    program = _verify.Program(gm)
    for seed in range(5):
        inputs = _verify.make_inputs(program, seed)
        assert inputs.values[0].dtype == torch.int64
        assert 0 <= int(inputs.values[0].min()) and int(inputs.values[0].max()) < 3
        assert inputs.values[2].dtype == torch.bool
    remarks = declone.fx.eliminate_clones(gm, verify=True)
    assert [(r.decision, r.reason) for r in remarks] == [("removed", None)], remarks


def test_inputs_honour_strides_offsets_and_dtypes():
    def f(a, b):
        return a.clone() + b.to(a.dtype)

    base = torch.randn(6, 8, dtype=torch.float64)
    a = base[1:, 2:5]  # (5, 3) with strides (8, 1) at offset 10
    b = torch.randint(0, 5, (5, 3), dtype=torch.int32).t().contiguous().t()
    gm = trace(f, a, b)
    values = _verify.make_inputs(_verify.Program(gm), 0).values
    assert (values[0].shape, values[0].stride(), values[0].storage_offset(), values[0].dtype) \
        == ((5, 3), (8, 1), 10, torch.float64)
    assert (values[1].stride(), values[1].dtype) == ((1, 5), torch.int32)


@pytest.mark.skipif(not TORCH_2, reason="torch 1.13's make_fx cannot trace symbolic sizes "
                    "(slicing a tensor with symbolic sizes fails)")
def test_symbolic_sizes_take_their_hints_consistently():
    def f(x, y):
        return x.clone() + y[:, None]

    gm = trace(f, torch.randn(5, 3), torch.randn(5), tracing_mode="symbolic")
    values = _verify.make_inputs(_verify.Program(gm), 0).values
    assert values[0].shape == (5, 3) and values[1].shape == (5,)
    remarks = declone.fx.eliminate_clones(gm, verify=True)
    assert [(r.decision, r.reason) for r in remarks] == [("removed", None)], remarks


def test_devices_that_are_not_available_run_on_the_cpu():
    """Metadata on the meta device (and a CUDA device argument where CUDA is missing) run on
    the CPU."""
    graph = torch.fx.Graph()
    x = graph.placeholder("x")
    x.meta["val"] = torch.empty(4, 5, device="meta")
    n = graph.placeholder("n")
    n.meta["val"] = 3
    ones = graph.call_function(torch.ops.aten.ones.default, ([4, 5],),
                               {"device": torch.device("cuda")})
    total = graph.call_function(torch.ops.aten.add.Tensor, (x, ones))
    scaled = graph.call_function(torch.ops.aten.mul.Tensor, (total, n))
    copied = graph.call_function(CLONE, (scaled,))
    graph.output(graph.call_function(torch.ops.aten.relu.default, (copied,)))
    gm = torch.fx.GraphModule(torch.nn.Module(), graph)
    verdict = _verify.verify(gm, without_clones(gm))
    assert verdict, verdict
    values = _verify.make_inputs(_verify.Program(gm), 0).values
    assert values[0].device.type == "cpu" and values[1] == 3


def test_seeded_and_reproducible():
    gm = inserted_without_metadata(OPS.contig_read.default)
    details = [declone.fx.eliminate_clones(copy.deepcopy(gm), mode="vllm-0.32", verify=True,
                                           seed=seed)[0].detail for seed in (7, 7, 8)]
    assert details[0] == details[1]
    program = _verify.Program(gm)
    assert torch.equal(_verify.make_inputs(program, 7).values[0],
                       _verify.make_inputs(program, 7).values[0])
    assert not torch.equal(_verify.make_inputs(program, 7).values[0],
                           _verify.make_inputs(program, 8).values[0])
    # The caller's random numbers are not disturbed.
    torch.manual_seed(123)
    expected = torch.rand(3)
    torch.manual_seed(123)
    declone.fx.eliminate_clones(copy.deepcopy(gm), mode="vllm-0.32", verify=True)
    assert torch.equal(torch.rand(3), expected)


def test_random_ops_draw_the_same_numbers_in_both_runs():
    def f(x):
        return torch.nn.functional.dropout(x.clone(), 0.5, training=True) * 2

    gm = trace(f, torch.randn(64))
    assert _verify.verify(gm, gm)
    remarks = declone.fx.eliminate_clones(gm, verify=True)
    assert [(r.decision, r.reason) for r in remarks] == [("removed", None)], remarks


# --- when the graph cannot be run ------------------------------------------------------------

def test_no_metadata_for_a_placeholder_keeps_every_clone():
    gm = trace(lambda x: x.clone() + 1, torch.randn(3), tracing_mode="real")
    for node in gm.graph.nodes:
        node.meta.clear()
    state = graph_state(gm)
    remarks = declone.fx.eliminate_clones(gm, mode="vllm-0.32", verify=True)
    assert [(r.decision, r.reason) for r in remarks] == [("kept", _verify.CANNOT_VERIFY)]
    assert remarks[0].detail == ("verification could not run: placeholder 'x_1' has no metadata "
                                 "(meta['val'] or tensor_meta) to make its input from")
    assert graph_state(gm) == state


def test_an_op_that_fails_keeps_every_clone():
    def f(x, y):
        return OPS.always_fails.default(x.clone()), y.clone() + 1

    gm = trace(f, torch.randn(3), torch.randn(3))
    # A clone without metadata gets a FakeTensor value computed for the decision, in the copy
    # only: the graph's own meta stays as it was.
    next(n for n in gm.graph.nodes if n.name == "clone").meta.clear()
    state = graph_state(gm)
    remarks = declone.fx.eliminate_clones(gm, verify=True)
    assert [(r.node, r.decision, r.reason) for r in remarks] == [
        ("clone", "kept", _verify.CANNOT_VERIFY), ("clone_1", "kept", _verify.CANNOT_VERIFY)]
    assert remarks[0].detail.startswith(
        "verification could not run: the graph fails on random inputs: always_fails "
        "(declone_live_verify.always_fails.default) raised RuntimeError: always_fails: no "
        "kernel for this machine"), remarks[0].detail
    assert graph_state(gm) == state


def test_an_op_that_fails_in_the_rewrite_only_is_a_difference():
    gm = inserted_without_metadata(OPS.needs_contiguous.default)
    remarks = declone.fx.eliminate_clones(gm, mode="vllm-0.32", verify=True)
    assert [(r.decision, r.reason) for r in remarks] == [("kept", _verify.REFUSED)]
    assert remarks[0].detail == (
        "the rewrite was refused: the rewrite fails where the original runs: needs_contiguous "
        "(declone_live_verify.needs_contiguous.default) raised RuntimeError: needs_contiguous: "
        "x must be contiguous"), remarks[0].detail


# --- the pass --------------------------------------------------------------------------------

def test_the_pass_takes_verify():
    gm = inserted_without_metadata(OPS.contig_read.default)
    clone_pass = declone.fx.CloneEliminationPass(verify=True)
    assert clone_pass.uuid() != declone.fx.CloneEliminationPass().uuid()
    assert clone_pass.uuid() != declone.fx.CloneEliminationPass(verify=True, seed=1).uuid()
    clone_pass(gm.graph)
    assert [(r.decision, r.reason) for r in clone_pass.remarks] == [("kept", "layout-unknown")]
    assert clone_pass.runs[-1].removed == 0


@pytest.mark.skipif(not TORCH_2, reason="torch 1.13 has no Inductor")
def test_inside_inductor():
    """As Inductor's first joint-graph pass (before its own remove_noop_ops takes the copy
    nobody needs): Inductor's FakeTensorMode is active there, the inputs, runs and comparison
    use real tensors."""
    import torch._inductor.config as inductor_config

    def f(h, w):
        x = OPS.contig_read.default(h[:, :3].contiguous())
        return x + (w + 1).clone()

    clone_pass = declone.fx.CloneEliminationPass(verify=True)
    h, w = torch.randn(4, 5), torch.randn(4, 3)
    torch._dynamo.reset()
    with inductor_config.patch(joint_custom_pre_pass=clone_pass, fx_graph_cache=False):
        out = torch.compile(f, backend="inductor")(h, w)
    torch.testing.assert_close(out, f(h, w))
    assert [(r.decision, r.reason) for r in clone_pass.remarks] == [
        ("kept", "layout-changed"), ("removed", None)], clone_pass.remarks
