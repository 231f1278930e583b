"""declone.fx.CloneEliminationPass (callable, uuid) and the Remark objects."""

import copy
import operator
import os
import re
import subprocess
import sys

import pytest
import torch

import declone.fx
from declone_test_support import clone_names, clones, compare_runs, recompile, run, trace
from test_clone_elimination import (CASES, chain_then_write, clone_write_input_dead,
                                    mamba_slice)

REASONS = {"layout-changed", "layout-unknown", "unknown-effects", "input-mutation",
           "source-read-after-write", "clone-read-after-source-write", "output-alias",
           "unsupported"}
REMARK = re.compile(r"^(?P<where>.+):(?P<line>\d+): remark: clone '(?P<node>[^']+)' "
                    r"(?P<decision>removed|kept \[(?P<reason>[a-z-]+)\])(?:: (?P<detail>.+))?$")

P = declone.fx.CloneEliminationPass


# --- CloneEliminationPass -------------------------------------------------------------------

def test_pass_is_a_callable_that_rewrites_in_place():
    x = torch.randn(4, 5)
    gm = trace(chain_then_write, x)
    before = run(gm, [x])
    result = P()(gm.graph)
    assert result is None
    assert clone_names(gm) == ["clone_1"]
    assert not compare_runs(before, run(recompile(gm), [x]))


@pytest.mark.parametrize("donated,expected", [((), ["clone"]), ((0,), [])])
def test_pass_honours_donated_input_ids(donated, expected):
    gm = trace(clone_write_input_dead, torch.randn(4, 5))
    P(donated_input_ids=donated)(gm.graph)
    assert clone_names(gm) == expected


def test_donated_inputs_may_be_named():
    # By node name or target, as the CLI's --donated takes them; an unknown name is an error.
    gm = trace(clone_write_input_dead, torch.randn(4, 5))
    name = next(node.name for node in gm.graph.nodes if node.op == "placeholder")
    P(donated_input_ids=[name])(gm.graph)
    assert clone_names(gm) == []
    gm = trace(clone_write_input_dead, torch.randn(4, 5))
    with pytest.raises(ValueError, match="'nope' is not a placeholder"):
        declone.fx.eliminate_clones(gm.graph, ["nope"])
    assert clone_names(gm) == ["clone"]


MODES = ("safe", "vllm", "vllm-0.32")


# `return x.clone()`: safe keeps the clone unless x is donated; vLLM 0.33 keeps it either way
# (it would make the output alias the input); vLLM 0.32 removes it either way.
@pytest.mark.parametrize("name,mode,expected", [
    ("output_would_alias_input", "safe", ["clone"]),
    ("output_would_alias_input", "vllm", ["clone"]),
    ("output_would_alias_input", "vllm-0.32", []),
    ("output_alias_donated_input", "safe", []),
    ("output_alias_donated_input", "vllm", ["clone"]),
    ("output_alias_donated_input", "vllm-0.32", []),
])
def test_pass_honours_mode(name, mode, expected):
    case = CASES[name]
    gm = trace(case.fn, torch.randn(4, 5))
    P(case.donated, mode=mode)(gm.graph)
    assert clone_names(gm) == expected


def test_pass_and_function_agree():
    for name, case in CASES.items():
        for mode in MODES:
            a = trace(case.fn, *case.inputs())
            b = trace(case.fn, *case.inputs())
            declone.fx.eliminate_clones(a.graph, case.donated, mode)
            P(case.donated, mode)(b.graph)
            assert recompile(a).code == recompile(b).code, (name, mode)


def test_pass_is_an_inductor_custom_graph_pass_where_inductor_has_one():
    try:
        from torch._inductor.custom_graph_pass import CustomGraphPass
    except ImportError:
        pytest.skip(f"torch {torch.__version__} has no torch._inductor.custom_graph_pass")
    assert isinstance(P(), CustomGraphPass)


def test_pass_records_each_run():
    p = P()
    p(trace(chain_then_write, torch.randn(4, 5)).graph)
    p(trace(clone_write_input_dead, torch.randn(4, 5)).graph)
    assert [(r.clones, r.removed, r.kept) for r in p.runs] == [
        (2, 1, {"source-read-after-write": 1}), (1, 0, {"input-mutation": 1})]
    assert all(r.seconds >= 0 for r in p.runs)
    assert [r.node for r in p.remarks] == ["clone"]  # the last run's


def test_pass_rejects_an_unknown_mode():
    with pytest.raises(ValueError, match="mode"):
        P(mode="fast")


def test_uuid_is_a_str_stable_for_equal_settings():
    u = P().uuid()
    assert isinstance(u, str) and u
    assert P().uuid() == u
    assert P(donated_input_ids=(), mode="safe").uuid() == u
    assert P((0, 2)).uuid() == P([0, 2]).uuid() == P(donated_input_ids=(0, 2)).uuid()
    assert P((1,), "vllm").uuid() == P(donated_input_ids=[1], mode="vllm").uuid()
    assert P((1,), "vllm-0.32").uuid() == P(donated_input_ids=[1], mode="vllm-0.32").uuid()
    # Running the pass does not change its identity.
    p = P((0,))
    before = p.uuid()
    p(trace(clone_write_input_dead, torch.randn(4, 5)).graph)
    assert p.uuid() == before


def test_uuid_differs_for_different_settings():
    settings = [((), "safe"), ((), "vllm"), ((0,), "safe"), ((1,), "safe"), ((0, 1), "safe"),
                ((0,), "vllm"), ((0, 1), "vllm"), ((10,), "safe"), ((), "vllm-0.32"),
                ((0,), "vllm-0.32")]
    uuids = [P(d, m).uuid() for d, m in settings]
    assert len(set(uuids)) == len(settings), dict(zip(settings, uuids))


def test_uuid_is_stable_across_processes():
    """Inductor keys its FX graph cache on it: it must not depend on hash randomisation."""
    code = ("import declone.fx as f; print(f.CloneEliminationPass((0, 3), 'vllm').uuid()); "
            "print(f.CloneEliminationPass().uuid())")
    outs = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           check=True, env={**os.environ, "PYTHONHASHSEED": str(seed)}).stdout
            for seed in (1, 2)}
    assert len(outs) == 1
    assert outs.pop().split() == [P((0, 3), "vllm").uuid(), P().uuid()]


def test_bad_mode_is_rejected_and_graph_untouched():
    gm = trace(CASES["chain"].fn, torch.randn(4, 5))
    code = gm.code
    with pytest.raises((ValueError, RuntimeError, TypeError)):
        declone.fx.eliminate_clones(gm.graph, mode="fast")
    assert recompile(gm).code == code


def test_import_reads_the_properties_when_fx_does_not_store_arguments():
    # The importer reads FX's stored `_args`/`_kwargs` directly (skipping two Python properties
    # per node) only when the first node has them; otherwise it reads `args`/`kwargs`.
    gm = trace(CASES["chain"].fn, torch.randn(4, 5))
    expected = declone.fx.dumps(gm)

    class HidingNode(torch.fx.Node):
        def __getattribute__(self, name):
            if name in ("_args", "_kwargs"):
                raise AttributeError(name)
            return super().__getattribute__(name)

        @property
        def args(self):
            return torch.fx.Node.__getattribute__(self, "_args")

        @property
        def kwargs(self):
            return torch.fx.Node.__getattribute__(self, "_kwargs")

    for node in gm.graph.nodes:
        node.__class__ = HidingNode
    assert declone.fx.dumps(gm) == expected


def test_import_reads_the_properties_when_they_are_not_the_stored_arguments():
    gm = trace(CASES["chain"].fn, torch.randn(4, 5))
    expected = declone.fx.dumps(gm)
    remarks = [str(r) for r in declone.fx.eliminate_clones(copy.deepcopy(gm).graph)]

    class CopyingNode(torch.fx.Node):
        @property
        def args(self):
            return tuple(self._args)

        @args.setter
        def args(self, value):
            torch.fx.Node.args.fset(self, value)

    for node in gm.graph.nodes:
        node.__class__ = CopyingNode
    assert declone.fx.dumps(gm) == expected
    assert [str(r) for r in declone.fx.eliminate_clones(gm.graph)] == remarks


def test_list_too_long_for_the_ir_is_rejected_and_graph_untouched():
    # An IR argument counts its elements in 24 bits; a longer list must not wrap around.
    graph = torch.fx.Graph()
    x = graph.placeholder("x")
    copy = graph.call_function(torch.ops.aten.clone.default, (x,))
    view = graph.call_function(torch.ops.aten.view.default, (copy, [0]))
    graph.output((copy,))
    # Set directly: FX copies an argument list element by element (20 s for this one under
    # torch 2.13), and printing it takes as long; the list holds no nodes to track.
    sizes = [0] * (2**24)
    view._args = (copy, sizes)
    before = [(node.op, node.name, node.target, len(node.users)) for node in graph.nodes]
    with pytest.raises(ValueError, match="more than 16777215 elements"):
        declone.fx.eliminate_clones(graph)
    assert [(node.op, node.name, node.target, len(node.users)) for node in graph.nodes] == before
    assert view.args[1] is sizes and len(sizes) == 2**24


# --- remarks --------------------------------------------------------------------------------

def test_remark_text_for_the_seed_case():
    gm = trace(mamba_slice, torch.randn(4, 5))
    (remark,) = declone.fx.eliminate_clones(gm.graph)
    text = str(remark)
    assert "clone 'clone' kept [layout-changed]: strides [3, 1] != [5, 1]" in text
    m = REMARK.match(text)
    assert m, text
    assert m["node"] == remark.node == "clone"
    assert m["reason"] == remark.reason == "layout-changed"
    assert m["detail"] == remark.detail == "strides [3, 1] != [5, 1]"


def test_removed_remark_text():
    gm = trace(CASES["chain"].fn, torch.randn(4, 5))
    remarks = declone.fx.eliminate_clones(gm.graph)
    for r in remarks:
        m = REMARK.match(str(r))
        assert m and m["decision"] == "removed" and m["reason"] is None, str(r)
        assert str(r).split(": remark: ")[1].startswith(f"clone '{r.node}' removed")


# A vllm mode's detail names the release it reproduces (a removed clone's says only that).
RELEASE = {"vllm": "vLLM 0.33.0's decision", "vllm-0.32": "vLLM 0.32.0's decision"}


@pytest.mark.parametrize("mode", MODES)
def test_every_remark_is_well_formed(mode):
    seen = set()
    for name, case in CASES.items():
        gm = trace(case.fn, *case.inputs())
        names = clone_names(gm)
        remarks = declone.fx.eliminate_clones(gm.graph, case.donated, mode)
        assert [r.node for r in remarks] == names, name
        for r in remarks:
            assert isinstance(r.node, str) and isinstance(r.detail, str), (name, r)
            assert r.decision in ("removed", "kept"), (name, r)
            m = REMARK.match(str(r))
            assert m, (name, str(r))
            assert m["node"] == r.node
            if r.decision == "kept":
                assert r.reason in REASONS, (name, str(r))
                assert m["reason"] == r.reason
                assert r.detail, f"{name}: a kept clone should say why: {r}"
            else:
                assert r.reason is None
            assert (m["detail"] or "") == r.detail
            if mode in RELEASE:
                assert r.detail == RELEASE[mode] or r.detail.endswith(f" ({RELEASE[mode]})"), \
                    (name, str(r))
            else:
                assert "vLLM 0." not in r.detail, (name, str(r))
            seen.add(r.reason)
    if mode == "safe":
        # The cases exercise every reason code make_fx graphs can produce.
        assert seen >= REASONS - {"layout-unknown", "unknown-effects", "unsupported"}
    # vLLM 0.32 has no output check; 0.33's keeps clones for it.
    assert ("output-alias" in seen) == (mode != "vllm-0.32")
    assert "unsupported" not in seen or mode in RELEASE


def test_remarks_name_live_nodes_only_when_kept():
    gm = trace(CASES["mixed_first_donated"].fn, *CASES["mixed_first_donated"].inputs())
    remarks = declone.fx.eliminate_clones(gm.graph, (0,))
    live = {n.name for n in gm.graph.nodes}
    for r in remarks:
        assert (r.node in live) == (r.decision == "kept")
    assert len(clones(gm)) == 1


# --- the importer ---------------------------------------------------------------------------

def _decisions(imported, mode):
    remarks, removed = imported.eliminate_clones([], mode)
    return [(r.node, r.line, r.decision, r.reason, r.detail) for r in remarks], \
        [n.name for n in removed]


def _whole(graph, mode):
    """Every node of ``graph`` imported as ``mode`` reads it: the vllm modes read meta["val"]
    alone, as vLLM does (a node with only tensor_meta, or whose val another node shares, is not
    what the text import makes of it); vllm (0.33)'s output check reads the annotations of
    the graph's inputs and outputs too."""
    if mode == "safe":
        return declone.fx._import(graph, False)
    return declone.fx._IMPORTER.import_graph(graph, for_clone_elimination=True, mode="vllm")


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("tracing_mode", ["fake", "real"])
@pytest.mark.parametrize("name", sorted(CASES))
def test_partial_import_decides_as_a_full_one(name, tracing_mode, mode):
    """eliminate_clones reads only the tensor annotations the pass consults; every decision,
    line and detail must equal those made with every annotation read."""
    case = CASES[name]
    if tracing_mode not in case.tracing_modes:
        pytest.skip(f"{name} is not traced in {tracing_mode} mode")
    gm = trace(case.fn, *case.inputs(), tracing_mode=tracing_mode)
    expected = _decisions(_whole(gm.graph, mode), mode)
    if mode == "safe":
        partial = declone.fx._import(gm.graph, True)
        assert _decisions(partial, mode) == expected
    # And with the annotations as eliminate_clones reads them in that mode.
    assert _decisions(declone.fx._import(gm.graph, True, mode), mode) == expected


def test_import_reads_the_whole_graph():
    """A clone far from the rest of a graph: eliminate_clones' import is still every node, with
    the names and lines `dumps` gives them, in every mode."""
    def f(x, y):
        unrelated = ((y * 2).sin() + 1).relu()
        c = x.clone()
        return c + 1, unrelated
    gm = trace(f, torch.randn(4), torch.randn(4))
    names = [n.name for n in gm.graph.nodes if n.op not in ("placeholder", "output")]
    for mode in MODES:
        imported = declone.fx._import(gm.graph, True, mode)
        text = imported.text()
        defined = {line.split()[0].rstrip(":") for line in text.strip().splitlines()[2:-1]}
        assert defined == set(names), (mode, text)
        assert imported.clones == 1
        assert _decisions(imported, mode) == _decisions(_whole(gm.graph, mode), mode)


def test_import_counts_negative_getitem_indices_from_the_end():
    """`max_1[-2]` is `max_1[0]`, the clone's source, as Python counts: the write through it
    keeps the clone in safe mode, as with every annotation read."""
    def f(x):
        values, indices = torch.max(x * 2, 0)
        return values.clone(), indices * 2
    gm = trace(f, torch.randn(4, 4))
    graph = gm.graph
    max_node = next(n for n in graph.nodes if n.target is torch.ops.aten.max.dim)
    clone = next(n for n in graph.nodes if n.target is torch.ops.aten.clone.default)
    output = next(n for n in graph.nodes if n.op == "output")
    with graph.inserting_after(clone):
        element = graph.call_function(operator.getitem, (max_node, -2))
    with graph.inserting_after(element):
        write = graph.call_function(torch.ops.aten.add_.Tensor, (element, 1))
    element.meta["val"] = write.meta["val"] = clone.args[0].meta["val"]
    output.args = ((*output.args[0], write),)
    graph.lint()
    for mode in MODES:
        imported = declone.fx._import(graph, True, mode)
        assert _decisions(imported, mode) == _decisions(_whole(graph, mode), mode)
    assert _decisions(declone.fx._import(graph, True), "safe")[0][0][2] == "kept"


def test_remarks_are_the_core_remark_type():
    gm = trace(mamba_slice, torch.randn(4, 5))
    (remark,) = declone.fx.eliminate_clones(gm.graph)
    assert isinstance(remark, declone.fx.Remark)
    assert remark.json().startswith('{"node": "clone"')
    assert '"reason": "layout-changed"' in remark.json()
