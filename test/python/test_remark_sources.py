"""Remarks of live graphs lead with the user's source line: the innermost frame of the clone
node's ``meta["stack_trace"]`` (the frame FX's ``# File:`` comments show), for kept and
removed clones, with and without ``verify=True``, and inside torch.compile where Dynamo
records the stack traces (torch 2.x).
"""

import copy
import importlib.util
import json
import pickle

import pytest
import torch

import declone.fx
from declone import _sources
from declone_test_support import clone_names, trace

TORCH_2 = int(torch.__version__.split(".")[0]) >= 2
needs_dynamo = pytest.mark.skipif(
    not TORCH_2, reason="torch 1.13 has no torch.compile/Dynamo to record stack traces")

# Dynamo's stack traces as torch 2.13 records them (Python 3.11: with caret lines), the model's
# forward calling a helper: the helper's line is the innermost frame.
NESTED = ('  File "/srv/model.py", line 40, in forward\n'
          '    h = self.mix(x)\n'
          '        ^^^^^^^^^^^\n'
          '  File "/srv/layers.py", line 12, in mix\n'
          '    return x[:, :3].contiguous()\n'
          '           ^^^^^^^^^^^^^^^^^^^^^\n')


@pytest.mark.parametrize("stack_trace,expected", [
    (NESTED, ("/srv/layers.py:12", "return x[:, :3].contiguous()")),
    ('  File "/srv/model.py", line 7, in f\n    w = y.clone()\n',
     ("/srv/model.py:7", "w = y.clone()")),
    # The last header has no line after it: FX takes the frame before, and so does declone.
    ('  File "/srv/model.py", line 7, in f\n    w = y.clone()\n  File "<string>", line 2, in g',
     ("/srv/model.py:7", "w = y.clone()")),
    # A frame printed without its code (no source file): the source, and no code.
    ('  File "<string>", line 2, in g\n  File "/srv/m.py", line 3, in h\n    z = y.clone()\n',
     ("/srv/m.py:3", "z = y.clone()")),
    ("", None),
    (None, None),
    ("no frames here\nat all\n", None),
])
def test_the_innermost_frame_is_the_one_fx_shows(stack_trace, expected):
    assert _sources.parse_stack_trace(stack_trace) == expected
    parse = getattr(getattr(torch.fx, "graph", None), "_parse_stack_trace", None)
    if parse is not None and stack_trace is not None:  # torch 2.x: the same frame as FX's
        parsed = parse(stack_trace)
        fx = None if parsed is None else (f"{parsed.file}:{parsed.lineno}", parsed.code)
        assert fx == expected


def mamba_and_copy(hidden, w):
    x = hidden[:, :3].contiguous()   # a layout change: kept
    y = w.clone()                    # a copy nobody needs: removed
    return x * 2 + y


def traced_with_stack_traces():
    gm = trace(mamba_and_copy, torch.randn(4, 5), torch.randn(4, 3))
    lines = {"clone": ('  File "/srv/model.py", line 28, in forward\n'
                       '    x = hidden[:, :3].contiguous()\n'),
             "clone_1": '  File "/srv/model.py", line 29, in forward\n    y = w.clone()\n'}
    for node in gm.graph.nodes:
        if node.name in lines:
            node.meta["stack_trace"] = lines[node.name]
    assert sorted(lines) == clone_names(gm)
    return gm


def test_kept_and_removed_remarks_lead_with_the_source():
    remarks = declone.fx.eliminate_clones(traced_with_stack_traces().graph)
    kept, removed = remarks
    assert (kept.node, kept.decision, kept.source, kept.code) == (
        "clone", "kept", "/srv/model.py:28", "x = hidden[:, :3].contiguous()")
    # The removed clone is no longer in the graph; its source was read before it went.
    assert (removed.node, removed.decision, removed.source, removed.code) == (
        "clone_1", "removed", "/srv/model.py:29", "y = w.clone()")
    assert str(kept).startswith("/srv/model.py:28: remark: clone 'clone' kept [layout-changed]")
    assert str(kept).endswith(f"(x = hidden[:, :3].contiguous(); graph: <fx>:{kept.line})")
    assert json.loads(removed.json())["source"] == "/srv/model.py:29"


def test_a_node_without_stack_trace_keeps_the_graph_location():
    gm = trace(mamba_and_copy, torch.randn(4, 5), torch.randn(4, 3))
    remarks = declone.fx.eliminate_clones(gm.graph)
    assert [(r.source, r.code) for r in remarks] == [("", ""), ("", "")]
    assert all(str(r).startswith(f"<fx>:{r.line}: remark:") for r in remarks)
    assert json.loads(remarks[0].json())["source"] is None


def test_the_pass_records_remarks_with_sources():
    clone_pass = declone.fx.CloneEliminationPass()
    clone_pass(traced_with_stack_traces().graph)
    assert [r.source for r in clone_pass.runs[-1].remarks] == ["/srv/model.py:28",
                                                               "/srv/model.py:29"]


def test_verify_keeps_the_sources_of_accepted_rewrites():
    remarks = declone.fx.eliminate_clones(traced_with_stack_traces().graph, verify=True)
    assert [(r.decision, r.source) for r in remarks] == [("kept", "/srv/model.py:28"),
                                                         ("removed", "/srv/model.py:29")]


def test_verify_keeps_the_source_of_a_refused_rewrite():
    # vLLM 0.32's pass drops the Mamba clone in front of a kernel that reads contiguous memory;
    # verify=True refuses the rewrite, and the remark that says so still names the user's line.
    from test_live_verify import OPS, inserted_without_metadata
    from declone import _verify
    gm = inserted_without_metadata(OPS.contig_read.default)
    (node,) = [n for n in gm.graph.nodes if n.name == "clone"]
    node.meta["stack_trace"] = '  File "/srv/mamba.py", line 9, in f\n    x = h[:, :3].contiguous()\n'
    (remark,) = declone.fx.eliminate_clones(gm.graph, mode="vllm-0.32", verify=True)
    assert (remark.decision, remark.reason) == ("kept", _verify.REFUSED)
    assert (remark.source, remark.code) == ("/srv/mamba.py:9", "x = h[:, :3].contiguous()")
    assert str(remark).startswith("/srv/mamba.py:9: remark: clone 'clone' kept [does-not-verify]")


def test_remarks_survive_pickle_and_deepcopy():
    # torch.compile deep-copies Inductor's config, the installed pass and its remarks with it,
    # and a compile in a subprocess pickles it.
    remarks = declone.fx.eliminate_clones(traced_with_stack_traces().graph)
    for copied in (pickle.loads(pickle.dumps(remarks)), copy.deepcopy(remarks)):
        assert [r.json() for r in copied] == [r.json() for r in remarks]
        assert [str(r) for r in copied] == [str(r) for r in remarks]
    clone_pass = declone.fx.CloneEliminationPass()
    clone_pass(traced_with_stack_traces().graph)
    assert copy.deepcopy(clone_pass) is clone_pass


# --- inside torch.compile (torch 2.x) --------------------------------------------------------

MODEL = '''\
import torch


def f(x):
    y = x * 2
    q = y[:, :3].contiguous()
    w = y.clone()
    return q.relu() + 1, w
'''


def _model(tmp_path):
    path = tmp_path / "model_file.py"
    path.write_text(MODEL)
    spec = importlib.util.spec_from_file_location("model_file", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    lines = MODEL.splitlines()
    line_of = {marker: str(path) + ":" + str(1 + next(i for i, text in enumerate(lines)
                                                      if marker in text))
               for marker in (".contiguous()", ".clone()")}
    return module.f, line_of


@needs_dynamo
@pytest.mark.parametrize("hook,expected", [
    # Before Inductor's own remove_noop_ops: both clones, the removed one's source too.
    ("joint_custom_pre_pass", [("kept", ".contiguous()"), ("removed", ".clone()")]),
    # After Inductor's passes: the layout change is what is left.
    ("post_grad_custom_post_pass", [("kept", ".contiguous()")]),
])
def test_torch_compile_remarks_point_at_the_model_file(tmp_path, hook, expected):
    import torch._inductor.config as inductor_config
    f, line_of = _model(tmp_path)
    clone_pass = declone.fx.CloneEliminationPass()
    torch._dynamo.reset()
    with inductor_config.patch({hook: clone_pass, "force_disable_caches": True}):
        torch.compile(f, backend="inductor")(torch.randn(4, 5))
    remarks = clone_pass.remarks
    assert [(r.decision, r.source) for r in remarks] == [
        (decision, line_of[marker]) for decision, marker in expected], remarks
    assert remarks[0].source.endswith("model_file.py:6")
    assert remarks[0].code == "q = y[:, :3].contiguous()"
    for remark in remarks:
        assert str(remark).startswith(remark.source + ": remark: clone ")
