"""Layouts of live graphs whose meta["val"] changed after tracing.

make_fx before about torch 2.0 (Debian's 1.13) keeps the live FakeTensor of each node in
meta["val"], and an in-place or out= op returns its argument's tensor itself: an in-place
metadata op later in the graph (here `t_`) rewrites the sizes and strides that meta["val"]
shows for every earlier node holding that tensor. declone reads those nodes' layouts from
meta["tensor_meta"] (taken when the node was traced) instead, or leaves them unknown, so that
it neither removes a clone whose layout only looked equal to its source's nor writes wrong
strides in `dumps`.
"""

import re

import pytest
import torch

import declone.fx
from declone_test_support import clone_names, compare_runs, recompile, run, trace


def transposed_then_restrided(x):
    # s is a transposed view of x, c a row-major copy of it; then c is transposed in place.
    # Afterwards c's live FakeTensor shows s's strides (1, 4), though the clone made (4, 1).
    s = x.t()
    c = s.clone(memory_format=torch.contiguous_format)
    c.t_()
    return c


def x44():
    return [torch.randn(4, 4)]


def test_fake_trace_shows_the_final_layout_in_earlier_vals():
    # The premise of the test: the clone's meta["val"] has changed since it was traced, while
    # its tensor_meta kept the layout the clone made.
    gm = trace(transposed_then_restrided, *x44(), tracing_mode="fake")
    (clone,) = [n for n in gm.graph.nodes if n.name == "clone"]
    if "val" not in clone.meta or "tensor_meta" not in clone.meta:
        return  # this torch keeps no live tensor: nothing to go stale
    if tuple(clone.meta["val"].stride()) == tuple(clone.meta["tensor_meta"].stride):
        return  # this torch snapshots meta["val"] (torch 2.x): nothing went stale
    assert tuple(clone.meta["tensor_meta"].stride) == (4, 1)
    assert tuple(clone.meta["val"].stride()) == (1, 4)


def test_clone_kept_when_a_later_inplace_op_restrides_it():
    # Donated, so that only the layout decides: the clone's (4, 4)(4, 1) differs from its
    # source's (4, 4)(1, 4). Removing it would make t_ restride the view of x instead, and the
    # output strides would change.
    for mode in ("fake", "real"):
        inputs = x44()
        gm = trace(transposed_then_restrided, *inputs, tracing_mode=mode)
        before = run(gm, inputs)
        remarks = declone.fx.eliminate_clones(gm.graph, donated_input_ids=(0,))
        decisions = {r.node: (r.decision, r.reason) for r in remarks}
        # t_ changes the clone's layout in place, so the safe mode trusts no annotation of it
        # (layout-unknown); where the layout is still compared, it differs (layout-changed).
        assert decisions["clone"][0] == "kept", (mode, decisions)
        assert decisions["clone"][1] in ("layout-unknown", "layout-changed"), (mode, decisions)
        assert clone_names(gm) == ["clone"]
        after = run(recompile(gm), inputs)
        assert compare_runs(before, after, donated=(0,)) == []


def annotation(text, name):
    match = re.search(r"^\s*%s: \"([^\"]*)\" = " % re.escape(name), text, re.MULTILINE)
    return match.group(1) if match else None


def test_dumps_writes_the_strides_a_node_had():
    # The clone is written with the strides it made, not the ones t_ gave its tensor later;
    # the t_ node itself has the transposed strides. The clone's storage offset is not stated
    # (tensor_meta has none): the reader infers it.
    gm = trace(transposed_then_restrided, *x44(), tracing_mode="fake")
    text = declone.fx.dumps(gm)
    assert annotation(text, "clone") in ("f32[4, 4][4, 1]cpu", "f32[4, 4][4, 1]")
    assert annotation(text, "t") in ("f32[4, 4][1, 4]cpu", "f32[4, 4][1, 4]")
    t_ = [n for n in gm.graph.nodes if n.op == "call_function" and "t_" in str(n.target)]
    assert annotation(text, t_[0].name) in ("f32[4, 4][1, 4]cpu", "f32[4, 4][1, 4]")


def permuted_then_copied(x, w):
    p = x.permute(1, 0)
    a = p.clone(memory_format=torch.contiguous_format)  # changes the layout: kept
    m = torch.mm(a, w)
    b = m.clone()  # a copy of a fresh contiguous result: removed
    return b.relu(), a


def test_metadata_without_strides_gets_the_inferred_layouts():
    """Where a node's metadata states sizes but no strides (a TensorMetadata whose stride is
    None, as passes that build metadata by hand leave it), the pass infers them with the rules
    `declone print --annotate` uses, and its remarks say so."""
    gm = trace(permuted_then_copied, torch.randn(3, 4), torch.randn(3, 5))
    for node in gm.graph.nodes:
        if node.op != "call_function":
            continue
        node.meta.pop("val", None)
        meta = node.meta.get("tensor_meta")
        if meta is not None:
            node.meta["tensor_meta"] = meta._replace(stride=None)
    text = declone.fx.dumps(gm)
    assert 'permute: "f32[4, 3]" =' in text, text  # the importer wrote no strides
    remarks = {r.node: r for r in declone.fx.eliminate_clones(gm.graph)}
    assert remarks["clone"].decision == "kept"
    assert remarks["clone"].reason == "layout-changed"
    assert remarks["clone"].detail == "strides [3, 1] != [1, 4] (strides inferred)"
    assert remarks["clone_1"].decision == "removed"
    assert remarks["clone_1"].detail == "strides inferred"


def _transposed_graph(x):
    """(graph, its output node, the transposed value it returns) of x.t() traced with
    FakeTensors: a graph for nodes to be inserted into without metadata, as a pass would."""
    graph = trace(lambda x: x.t(), x).graph
    output = next(node for node in graph.nodes if node.op == "output")
    result = output.args[0]
    return graph, output, result[0] if isinstance(result, (tuple, list)) else result


def _tril_then_copied(x):
    return torch.ops.aten.tril.default(x.t()).clone()


def test_nodes_another_pass_inserted_without_metadata_get_fake_values():
    """A node inserted by another pass without meta["val"] (here tril and a clone of it, an op
    the analysis has no layout rule for) is run under its inputs' FakeTensor mode, as
    FakeTensorProp would: the clone is decided as in the graph traced with them, not kept as
    layout-unknown. An in-place op is not run: it would change its input's value."""
    x = torch.randn(3, 4)
    traced = trace(_tril_then_copied, x)
    expected = {(r.decision, r.reason) for r in declone.fx.eliminate_clones(traced.graph)}

    graph, output, transposed = _transposed_graph(x)
    with graph.inserting_before(output):
        tril = graph.call_function(torch.ops.aten.tril.default, (transposed,))
        clone = graph.call_function(torch.ops.aten.clone.default, (tril,))
        relu_ = graph.call_function(torch.ops.aten.relu_.default, (transposed,))
    output.args = ((clone, relu_),)
    strides_before = transposed.meta["val"].stride()
    remarks = declone.fx.eliminate_clones(graph)
    assert {(r.decision, r.reason) for r in remarks} == expected
    assert all(r.reason != "layout-unknown" for r in remarks)
    assert tuple(tril.meta["val"].stride()) == tuple(
        n for n in traced.graph.nodes if n.name == "tril")[0].meta["val"].stride()
    assert "val" not in relu_.meta, "an in-place op is not run"
    assert transposed.meta["val"].stride() == strides_before


def test_no_fake_values_are_filled_in_after_a_layout_changing_inplace_op():
    """After t_ the recorded value of its tensor is stale (make_fx's snapshot shows it before
    the op): a node inserted after it is not given a value computed from that snapshot."""
    graph, output, transposed = _transposed_graph(torch.randn(3, 4))
    with graph.inserting_before(output):
        relu = graph.call_function(torch.ops.aten.relu.default, (transposed,))
        t_ = graph.call_function(torch.ops.aten.t_.default, (relu,))
        clone = graph.call_function(torch.ops.aten.clone.default, (relu,))
    output.args = ((clone, t_),)
    remarks = declone.fx.eliminate_clones(graph)
    assert "val" not in clone.meta and "val" not in relu.meta
    assert [r.decision for r in remarks] == ["kept"]


def test_ops_with_several_results_are_not_run_for_a_value():
    """The value of an op with several results is a tuple, which the importer never reads: one
    without meta["val"] (torch 1.13's make_fx leaves native_batch_norm so) is not run under
    FakeTensor, and the clone of its element is decided as with the value."""
    def f(x):
        values, indices = torch.max(x * 2, 0)
        return values.clone(), indices
    traced = trace(f, torch.randn(4, 4), tracing_mode="fake")
    expected = [(r.decision, r.reason) for r in declone.fx.eliminate_clones(traced.graph)]
    gm = trace(f, torch.randn(4, 4), tracing_mode="fake")
    (max_node,) = [n for n in gm.graph.nodes if n.target is torch.ops.aten.max.dim]
    max_node.meta.pop("val", None)
    max_node.meta.pop("tensor_meta", None)
    assert [(r.decision, r.reason) for r in declone.fx.eliminate_clones(gm.graph)] == expected
    assert "val" not in max_node.meta


def _aot_forward_graph(fn, *inputs, **patches):
    """The forward graph torch.compile(dynamic=True) gives ``fn`` through AOTAutograd, traced
    with the ShapeEnv settings ``patches`` (torch.fx.experimental._config)."""
    config = pytest.importorskip("torch.fx.experimental._config")
    if not hasattr(torch, "compile") or any(not hasattr(config, name) for name in patches):
        pytest.skip("this torch has no torch.compile or not these ShapeEnv settings")
    from torch._dynamo.backends.common import aot_autograd

    graphs = []

    def capture(gm, _inputs):
        graphs.append(gm)
        return gm

    with config.patch(**patches):
        torch._dynamo.reset()
        compiled = torch.compile(fn, backend=aot_autograd(fw_compiler=capture), dynamic=True)
        with torch.no_grad():
            compiled(*inputs)
    return graphs[0].graph


def _view_copied(x):
    return x.view(4, -1).clone() * 2


def _row_copied(x, k):
    return x.select(0, k).clone()


def test_symbol_ranges_are_the_shape_envs():
    """A live graph's symbols get the ranges of its ShapeEnv, not the ones a dump's names
    suggest: sizes are at least 2 where PyTorch specializes 0 and 1, and at least 0 where a
    trace with backed_size_oblivious (torch.onnx.export) does not. A dynamic int argument,
    named s<N> like a size, is at least 0 here only because select's guard settled its sign,
    which a dump does not show (declone leaves such a symbol unbounded in text)."""
    x = torch.randn(6, 4)
    for oblivious, smallest in ((False, 2), (True, 0)):
        graph = _aot_forward_graph(_view_copied, x, backed_size_oblivious=oblivious)
        ranges = declone.fx._symbol_ranges(graph)
        (value,) = [n.meta["val"] for n in graph.nodes
                    if n.op == "placeholder" and isinstance(n.meta["val"], torch.Tensor)]
        assert all(ranges[str(size)] == smallest for size in value.shape), (oblivious, ranges)
        remarks = declone.fx.eliminate_clones(graph)
        assert [r.decision for r in remarks] == ["removed"], remarks
    graph = _aot_forward_graph(_row_copied, x, 2)
    (select,) = [n for n in graph.nodes if n.target == torch.ops.aten.select.int]
    assert declone.fx._symbol_ranges(graph)[str(select.args[2].meta["val"])] == 0
