"""Live verification at smaller sizes (declone/_shrink.py): a graph with static sizes whose run
would cost more than the budget (512 MiB, 5 s) runs at sizes the C++ planner chooses, checked by
running the original at them first, as `declone verify` does; full_size=True runs it as
annotated, and a graph with symbolic sizes runs at its hints as before.

The graphs are traced with FakeTensors from inputs made with torch.empty, whose pages are never
touched: nothing here allocates a model's sizes. Runs with PyTorch 2.13 and Debian's torch 1.13.
"""

import pytest
import torch

import declone.fx
from declone import _declone, _shrink, _verify
from declone_test_support import CLONE, recompile, trace, without_clones

TORCH_2 = int(torch.__version__.split(".")[0]) >= 2
aten = torch.ops.aten

_LIBRARY = torch.library.Library("declone_verify_shrink", "DEF")
_LIBRARY.define("contig_read(Tensor x) -> Tensor")


def _contig_read(x):
    """Reads ``x`` as contiguous memory from its storage offset, as vLLM's causal_conv1d_update
    does: a strided view gives it the wrong elements."""
    flat = x.as_strided((x.numel(),), (1,), x.storage_offset())
    return (flat * 2 + 1).reshape(x.shape)


_LIBRARY.impl("contig_read", _contig_read, "CPU")
_LIBRARY.impl("contig_read", lambda x: torch.empty(x.shape, dtype=x.dtype, device=x.device),
              "Meta")
CONTIG_READ = torch.ops.declone_verify_shrink.contig_read.default

TOKENS, VOCAB, HIDDEN = 32768, 151936, 64


def logits_graph():
    """An LM head at a model's sizes: embedding, a linear (mm with the transposed weight) and
    a view; its logits alone would take 19 GiB."""
    def f(tokens, embedding, weight):
        hidden = aten.embedding.default(embedding, tokens)
        logits = aten.mm.default(hidden, aten.t.default(weight))
        return aten.view.default(logits, [2, TOKENS // 2, VOCAB])

    return trace(f, torch.zeros(TOKENS, dtype=torch.long), torch.empty(VOCAB, HIDDEN),
                 torch.empty(VOCAB, HIDDEN))


def test_a_graph_over_the_budget_runs_at_smaller_sizes():
    gm = logits_graph()
    verdict = _verify.verify(gm, gm)
    assert verdict.equivalent is True, verdict
    assert verdict.sizes and (VOCAB, verdict.sizes[0][1]) in verdict.sizes, verdict.sizes
    assert all(16 <= to < size for size, to in verdict.sizes), verdict.sizes
    # The estimate the planner made: over the budget as annotated, within it as run.
    imported = declone.fx._import(gm.graph, False)
    budget = _shrink.Budget()
    assert imported.run_cost()[0] > 16 * budget.bytes
    assert imported.run_cost(verdict.sizes)[0] <= budget.bytes
    assert imported.run_cost(verdict.sizes)[1] <= budget.seconds
    assert not verdict.notes


def test_eliminate_clones_verifies_at_smaller_sizes():
    """verify=True's callers shrink too: a clone nobody needs, removed after a run at small
    sizes of a graph that could not run at its own."""
    def f(tokens, embedding, weight):
        hidden = CLONE(aten.embedding.default(embedding, tokens))
        return aten.mm.default(hidden, aten.t.default(weight))

    gm = trace(f, torch.zeros(TOKENS, dtype=torch.long), torch.empty(VOCAB, HIDDEN),
               torch.empty(VOCAB, HIDDEN))
    remarks = declone.fx.eliminate_clones(gm, verify=True)
    assert [(r.node, r.decision) for r in remarks] == [("clone", "removed")], remarks
    assert not any(n.target is CLONE for n in gm.graph.nodes)


def mamba_graph():
    """vLLM's Mamba layer: ``x[:, :3].contiguous()`` handed to a kernel that reads its input as
    contiguous memory, at 32768 tokens of 8192 channels (1 GiB)."""
    def f(h):
        return CONTIG_READ(h[:, :3].contiguous())

    return trace(f, torch.empty(TOKENS, 8192))


def test_a_dropped_layout_clone_is_found_at_smaller_sizes():
    gm = mamba_graph()
    verdict = _verify.verify(gm, without_clones(gm))
    assert verdict.equivalent is False, verdict
    assert verdict.sizes, "the graph does not fit the budget"
    assert verdict.difference.startswith("output 0: values differ"), verdict.difference
    assert verdict.difference.endswith(f" (ran with {_shrink.describe(verdict.sizes)})")
    assert _verify.verify(gm, gm), "the graph is equivalent to itself at the same sizes"


def test_eliminate_clones_refuses_the_wrong_rewrite_at_smaller_sizes():
    """vLLM 0.32's pass removes the clone where the slice and the clone have no metadata (as if
    another pass had inserted them); the run at smaller sizes refuses it."""
    gm = mamba_graph()
    for node in gm.graph.nodes:
        if node.op == "call_function" and node.target in (aten.slice.Tensor, CLONE):
            node.meta.clear()
    remarks = declone.fx.eliminate_clones(gm, mode="vllm-0.32", verify=True)
    assert [(r.node, r.decision, r.reason) for r in remarks] == [
        ("clone", "kept", _verify.REFUSED)], remarks
    assert "values differ" in remarks[0].detail and "(ran with " in remarks[0].detail, \
        remarks[0].detail
    assert any(n.target is CLONE for n in gm.graph.nodes)


def test_a_dropped_clone_before_a_view_is_found_at_smaller_sizes():
    """``x.permute(1, 0, 2).contiguous().view(heads, -1)``: without the copy the view cannot
    be taken. The view's size (32768 * 128) shrinks with the token dimension."""
    def f(x):
        permuted = aten.permute.default(x, [1, 0, 2])
        copied = CLONE(permuted, memory_format=torch.contiguous_format)
        return aten.view.default(copied, [32, TOKENS * 128])

    gm = trace(f, torch.empty(TOKENS, 32, 128))
    verdict = _verify.verify(gm, without_clones(gm))
    assert verdict.equivalent is False, verdict
    assert verdict.sizes and (TOKENS, verdict.sizes[-1][1]) in verdict.sizes, verdict.sizes
    assert (TOKENS * 128, dict(verdict.sizes)[TOKENS] * 128) in verdict.sizes, verdict.sizes
    assert verdict.difference.startswith("the rewrite fails where the original runs: view "), \
        verdict.difference
    assert verdict.difference.endswith(f" (ran with {_shrink.describe(verdict.sizes)})")


def test_full_size_runs_as_annotated():
    """With a budget of 4 KiB a graph of 3 MiB shrinks, rows and columns; full_size=True runs
    it as annotated, and the difference names the annotated strides."""
    def f(h):
        return h[:, :3].contiguous()

    gm = trace(f, torch.randn(1024, 768))
    wrong = without_clones(gm)
    small = _shrink.Budget(bytes=4 << 10)
    shrunk = _verify.verify(gm, wrong, budget=small)
    assert shrunk.equivalent is False and shrunk.sizes, shrunk
    (_, width), = [c for c in shrunk.sizes if c[0] == 768]
    assert shrunk.difference == (f"output 0: stride ({width}, 1) != (3, 1) "
                                 f"(ran with {_shrink.describe(shrunk.sizes)})")
    full = _verify.verify(gm, wrong, budget=small, full_size=True)
    assert full.equivalent is False and full.sizes == [], full
    assert full.difference == "output 0: stride (768, 1) != (3, 1)"
    assert _verify.verify(gm, gm, budget=small, full_size=True).sizes == []


@pytest.mark.skipif(not TORCH_2, reason="torch 1.13's make_fx cannot trace symbolic sizes "
                    "(no ShapeEnv hints)")
def test_symbolic_sizes_are_not_shrunk():
    def f(x):
        return aten.mul.Tensor(x, 2)

    small = _shrink.Budget(bytes=64 << 10)
    static = trace(f, torch.randn(1024, 768))
    assert _verify.verify(static, static, budget=small).sizes, "a static graph shrinks"
    symbolic = trace(f, torch.randn(1024, 768), tracing_mode="symbolic")
    assert any(isinstance(s, torch.SymInt) for n in symbolic.graph.nodes if n.op == "placeholder"
               for s in n.meta["val"].shape)
    verdict = _verify.verify(symbolic, symbolic, budget=small)
    assert verdict.equivalent is True and verdict.sizes == [] and not verdict.notes, verdict


def test_a_plan_the_original_refuses_is_made_again():
    """split(x, 1024) of 4096 rows at 32 rows and chunks of 48 has one chunk, not four: the
    run at the first plan fails at the second chunk, the least dominant size there keeps its
    value, and the next plan, which leaves the rows too (a chunk must stay shorter), holds."""
    def f(x):
        return aten.mul.Tensor(aten.split.Tensor(x, 1024)[1], 2)

    gm = trace(f, torch.empty(4096, 8192))
    small = _shrink.Budget(bytes=64 << 10)
    first = declone.fx._import(gm.graph, False).shrink_plan(*small)
    assert {size for size, _ in first} == {8192, 4096, 1024}, first
    verdict = _verify.verify(gm, gm, budget=small)
    assert verdict.equivalent is True, verdict
    assert [size for size, _ in verdict.sizes] == [8192], verdict.sizes


def weights():
    """Distinct values (arange: randn takes a second here at this size)."""
    return torch.arange(VOCAB * HIDDEN, dtype=torch.float32).view(VOCAB, HIDDEN) / VOCAB


def test_module_attributes_take_their_leading_elements():
    """The LM head's weights as the module's own parameters (get_attr): at the smaller sizes
    each is the leading block of its values, in the same kind of layout."""
    gm = logits_graph()
    graph = gm.graph
    placeholders = [n for n in graph.nodes if n.op == "placeholder"]
    for node in placeholders[1:]:
        gm.register_buffer(node.name, weights())
        with graph.inserting_after(placeholders[-1]):
            attribute = graph.get_attr(node.name)
        attribute.meta = dict(node.meta)
        node.replace_all_uses_with(attribute)
        graph.erase_node(node)
    recompile(gm)
    verdict = _verify.verify(gm, gm)
    assert verdict.equivalent is True and verdict.sizes, verdict

    weight = weights().t()
    changes = [(VOCAB, 32)]
    shrunk = _shrink.changed_value("get_attr w", weight, changes)
    assert shrunk.shape == (HIDDEN, 32) and shrunk.stride() == (1, HIDDEN)
    assert torch.equal(shrunk, weight[:, :32])


def test_a_graph_that_fits_runs_as_annotated():
    def f(x):
        return x[:, :3].contiguous()

    gm = trace(f, torch.randn(64, 48))
    verdict = _verify.verify(gm, without_clones(gm))
    assert verdict.sizes == [] and verdict.difference == "output 0: stride (48, 1) != (3, 1)"


# --- the planner, as the extension exposes it -------------------------------------------------

def test_the_planner_names_the_arguments_to_edit():
    gm = logits_graph()
    imported = declone.fx._import(gm.graph, False)
    assert [size for size, _ in imported.dominant_sizes(2)] == [VOCAB, TOKENS]
    changes = [(VOCAB, 32), (TOKENS // 2, 24)]
    assert imported.size_edits(changes) == [("view", 1, None, 1, 24), ("view", 1, None, 2, 32)]
    assert imported.sizes_at("mm") == [VOCAB, TOKENS, HIDDEN]
    with pytest.raises(KeyError):
        imported.sizes_at("no_such_node")
    assert imported.shrink_plan(1 << 50, 1e9, 16) == [], "it fits: nothing to shrink"
    assert imported.shrink_plan(1 << 20, 5.0, 16, pinned={VOCAB, TOKENS, HIDDEN}) == []
    assert _declone.describe_size_changes(changes) == "151936 -> 32, 16384 -> 24"


def test_layouts_follow_the_sizes():
    changes = [(8192, 64), (32768, 16)]
    assert _declone.changed_size(32768, changes) == 16
    assert _declone.changed_size(-8192, changes) == -64
    assert _declone.changed_size(3, changes) == 3
    # A dense layout stays dense in the same order; a slice of a wider row keeps its gap.
    assert _declone.changed_strides([32768, 8192], [1, 32768], [16, 64], changes) == [1, 16]
    assert _declone.changed_strides([32768, 3], [8192, 1], [16, 3], changes) == [64, 1]
    # Overlapping rows cannot follow.
    assert _declone.changed_strides([32768, 8192], [4, 1], [16, 64], changes) is None
