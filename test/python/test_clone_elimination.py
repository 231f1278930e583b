"""declone.fx.eliminate_clones on small make_fx graphs: every behaviour vLLM's
UnsafeCloneEliminationPass has (and its tests cover), the holes safe mode closes, and layouts.

Each case is traced with make_fx (fake mode: meta["val"]; real mode: meta["tensor_meta"] only),
run, rewritten in place, recompiled and run again on copies of the same inputs. Safe mode must
never change what the program computes: outputs (values, sizes, strides, storage offsets), the
final contents of every non-donated input, and which outputs alias non-donated inputs or each
other. The vllm modes ("vllm": vLLM 0.33.0's pass; "vllm-0.32": 0.32.0's, without the check that
a returned clone's removal makes outputs alias inputs or each other) must decide exactly as the
Python restatement of that release's pass (bench/python/vllm_reference.py) and, where vLLM's
rules are known to break the program, the test checks that the break is real (so the case
proves something about safe mode).
"""

import dataclasses
from typing import Callable, Dict, Optional, Sequence, Tuple, Union

import pytest
import torch

import declone.fx
from declone_test_support import (clone_names, clones, compare_runs, recompile, run, trace,
                                  vllm_clone_elimination)

REMOVED = None  # expected decision "removed"

VLLM_MODES = {"vllm": "0.33", "vllm-0.32": "0.32"}  # declone's mode -> the restatement's release


def skip_unless_values_recorded(gm, mode):
    """vLLM's pass reads meta["val"] alone, and so do declone's vllm modes; torch 1.13's
    real-mode make_fx records only tensor_meta, so vLLM would see no layout at all there (what
    test_layout_unknown_without_metadata checks)."""
    if mode in VLLM_MODES and not any(isinstance(node.meta.get("val"), torch.Tensor)
                                      for node in gm.graph.nodes if node.op == "call_function"):
        pytest.skip("this torch's real-mode trace records no meta['val'], all vLLM reads")
    # torch 2's real-mode make_fx records a copy of each value, at offset 0, which is the offset
    # vLLM reads: what its pass decides there is not the table's.
    if mode in VLLM_MODES and not declone.fx._offsets_are_true(gm.graph):
        pytest.skip("this trace's meta['val'] are copies at offset 0, the offset vLLM reads")


@dataclasses.dataclass
class Case:
    fn: Callable
    inputs: Callable[[], Sequence]
    # Per mode: clone name -> None (removed), or the reason code it is kept for (a tuple: any
    # of these codes).
    safe: Dict[str, Optional[Union[str, Tuple[str, ...]]]]
    # vLLM 0.32.0's pass (mode "vllm-0.32"), the one whose holes the table records.
    vllm: Dict[str, Optional[Union[str, Tuple[str, ...]]]]
    donated: Tuple[int, ...] = ()
    # False where vLLM 0.32.0's rules are known to change what the program computes.
    vllm_is_correct: bool = True
    tracing_modes: Tuple[str, ...] = ("fake", "real")
    # vLLM 0.33.0's pass (mode "vllm") where it decides otherwise than 0.32.0: a clone no user
    # writes stays when it is returned and its source's storage is a graph input's or another
    # output's (would_alias_graph_io), the storages being those meta["val"] shows in the fake-mode
    # trace. None: as 0.32.0 (`vllm`, `vllm_is_correct`).
    vllm_033: Optional[Dict[str, Optional[Union[str, Tuple[str, ...]]]]] = None
    # False where vLLM 0.33.0's rules are known to change what the program computes (with
    # vllm_033 only).
    vllm_033_is_correct: bool = True

    def expected(self, mode):
        """(the decisions expected in ``mode``, whether that rewrite keeps the program's
        meaning)."""
        if mode == "safe":
            return self.safe, True
        if mode == "vllm" and self.vllm_033 is not None:
            return self.vllm_033, self.vllm_033_is_correct
        return self.vllm, self.vllm_is_correct


def x45():
    return [torch.randn(4, 5)]


def xy45():
    return [torch.randn(4, 5), torch.randn(4, 5)]


# --- the functions traced -------------------------------------------------------------------

def clone_then_read(x):
    c = x.clone()
    return c * 2


def clone_write_source_used_after(x):
    a = x * 2
    c = a.clone()
    c.add_(1)
    return c + a


def clone_write_input_used_after(x):
    c = x.clone()
    c.add_(1)
    return c + x


def clone_write_source_dead(x):
    a = x * 2
    c = a.clone()
    c.add_(1)
    return c


def clone_write_input_dead(x):
    c = x.clone()
    c.add_(1)
    return c


def chain_of_clones(x):
    a = x * 2
    return a.clone().clone().clone() + 1


def chain_of_input_clones(x):
    return x.clone().clone() * 2


def chain_then_write(x):
    a = x * 2
    c2 = a.clone().clone()
    c2.add_(1)
    return c2, a


def two_clones_read(x):
    return x.clone() * 2, x.clone() + 1


def two_clones_written(x):
    c1 = x.clone()
    c2 = x.clone()
    c1.add_(1)
    c2.mul_(2)
    return c1, c2


def no_clones(x):
    return x * 2 + 1


def dead_clone(x):
    x.clone()
    return x * 2


def mixed_inputs(x, y):
    cx = x.clone()
    cx.add_(1)
    cy = y.clone()
    cy.mul_(2)
    return cx + cy


def int_then_tensor(n, x):
    c = x.clone()
    c.add_(n)
    return c


def return_input_clone(x):
    return x.clone()


def return_clone_and_input(x):
    return x.clone(), x


def return_clone_and_source(x):
    a = x + 1
    return a.clone(), a


def mamba_slice(x):
    return x[:, :3].contiguous()


def offset_slice(x):
    return (x + 1)[1:].clone()


def transpose_contiguous(x):
    return (x + 1).t().contiguous()


def transpose_clone_preserve(x):
    return (x + 1).t().clone()


def channels_last(x):
    return (x + 1).clone(memory_format=torch.channels_last)


def size_one_stride(x):
    # (5, 1) with strides (1, 5) is contiguous, but the clone's strides are (1, 1).
    return (x + 1).t().clone(memory_format=torch.contiguous_format)


def expanded(x):
    return (x + 1).expand(3, 4, 5).clone()


def write_through_view(x):
    a = x + 1
    c = a.clone()
    c[0].add_(1)
    return c, a


def write_through_out_kwarg(x):
    a = x + 1
    c = a.clone()
    torch.add(x, 1, out=c)
    return c, a


def source_written_after_clone(x):
    a = x + 1
    c = a.clone()
    a.add_(1)
    return c, a


def input_written_after_clone(x):
    c = x.clone()
    x.add_(1)
    return c


def batch_norm_running_stats(x, running_mean, running_var):
    # How far this batch moves the running mean. torch 1.13's schema for native_batch_norm
    # (what F.batch_norm traces to) does not annotate the in-place update of running_mean and
    # running_var (`Tensor? running_mean`, no `(a!)`), yet the kernel writes them.
    old = running_mean.clone()
    y = torch.nn.functional.batch_norm(x, running_mean, running_var, training=True)
    return y, running_mean - old


def rrelu_noise_written(x, noise):
    # rrelu_with_noise writes `noise` in training mode; torch 1.13's schema says `Tensor noise`.
    old = noise.clone()
    y = torch.ops.aten.rrelu_with_noise.default(x, noise, 0.1, 0.3, True)
    return y, old * 1


# vLLM-style custom ops (its _C ops write their out argument and return nothing). declone
# knows them only through the live OpOverload._schema.
_LIB = torch.library.Library("declone_test", "DEF")
_LIB.define("scale_(Tensor(a!) x, float s) -> ()")
_LIB.define("twice(Tensor x) -> Tensor")


def _scale_(x, s):
    x.mul_(s)


_LIB.impl("scale_", _scale_, "CPU")
_LIB.impl("scale_", lambda x, s: None, "Meta")
_LIB.impl("twice", lambda x: x * 2, "CPU")
_LIB.impl("twice", lambda x: torch.empty_like(x), "Meta")


def custom_write_source_used(x):
    a = x * 2
    c = a.clone()
    torch.ops.declone_test.scale_(c, 3.0)
    return c, a


def custom_write_source_dead(x):
    a = x * 2
    c = a.clone()
    torch.ops.declone_test.scale_(c, 3.0)
    return c


def custom_write_input(x):
    c = x.clone()
    torch.ops.declone_test.scale_(c, 3.0)
    return c


def custom_read(x):
    a = x * 2
    c = a.clone()
    return torch.ops.declone_test.twice(c), a


def bn_inputs():
    return [torch.randn(4, 3, 2, 2), torch.randn(3), torch.rand(3) + 0.5]


# A correct pass keeps these clones because the op writes the source after the clone; treating
# the op as one without a usable schema is just as correct.
WRITTEN_BY_UNANNOTATED_OP = ("clone-read-after-source-write", "unknown-effects")

CASES = {
    # vLLM: a clone that is only read goes (even of a non-donated input).
    "clone_then_read": Case(clone_then_read, x45, {"clone": REMOVED}, {"clone": REMOVED}),
    # vLLM: written clone whose original is used after the write stays.
    "write_source_used_after": Case(
        clone_write_source_used_after, x45,
        {"clone": "source-read-after-write"}, {"clone": "source-read-after-write"}),
    "write_donated_input_used_after": Case(
        clone_write_input_used_after, x45,
        {"clone": "source-read-after-write"}, {"clone": "source-read-after-write"},
        donated=(0,)),
    # Not donated: safe names the input first (rule 3), vLLM its use-after-write check.
    "write_input_used_after": Case(
        clone_write_input_used_after, x45,
        {"clone": "input-mutation"}, {"clone": "source-read-after-write"}),
    # vLLM: written clone whose original is dead afterwards goes.
    "write_source_dead": Case(clone_write_source_dead, x45, {"clone": REMOVED},
                              {"clone": REMOVED}),
    # vLLM: the clone of a non-donated input that is written stays; donated, it goes.
    "write_input_not_donated": Case(clone_write_input_dead, x45, {"clone": "input-mutation"},
                                    {"clone": "input-mutation"}),
    "write_input_donated": Case(clone_write_input_dead, x45, {"clone": REMOVED},
                                {"clone": REMOVED}, donated=(0,)),
    # Chains.
    "chain": Case(chain_of_clones, x45, {"clone": REMOVED, "clone_1": REMOVED, "clone_2": REMOVED},
                  {"clone": REMOVED, "clone_1": REMOVED, "clone_2": REMOVED}),
    "chain_of_input": Case(chain_of_input_clones, x45, {"clone": REMOVED, "clone_1": REMOVED},
                           {"clone": REMOVED, "clone_1": REMOVED}),
    "chain_then_write": Case(chain_then_write, x45,
                             {"clone": REMOVED, "clone_1": "source-read-after-write"},
                             {"clone": REMOVED, "clone_1": "source-read-after-write"}),
    # Several clones of one input.
    "two_clones_read": Case(two_clones_read, x45, {"clone": REMOVED, "clone_1": REMOVED},
                            {"clone": REMOVED, "clone_1": REMOVED}),
    "two_clones_written": Case(two_clones_written, x45,
                               {"clone": "input-mutation", "clone_1": "input-mutation"},
                               {"clone": "input-mutation", "clone_1": "input-mutation"}),
    # Donated: once clone is gone add_ writes x (returned at the end) before clone_1's write.
    # vLLM numbered the nodes before the rewrite and only looks for users of x after
    # clone_1's own write: it drops clone_1 and mul_ sees x + 1. 0.33 too: its output check is
    # for clones nobody writes.
    "two_clones_written_donated": Case(
        two_clones_written, x45,
        {"clone": REMOVED, "clone_1": "source-read-after-write"},
        {"clone": REMOVED, "clone_1": REMOVED}, donated=(0,), vllm_is_correct=False),
    # No clones, dead clones.
    "no_clones": Case(no_clones, x45, {}, {}),
    "dead_clone": Case(dead_clone, x45, {"clone": REMOVED}, {"clone": REMOVED}),
    # Donated, non-donated and mixed inputs.
    "mixed_none_donated": Case(mixed_inputs, xy45,
                               {"clone": "input-mutation", "clone_1": "input-mutation"},
                               {"clone": "input-mutation", "clone_1": "input-mutation"}),
    "mixed_first_donated": Case(mixed_inputs, xy45,
                                {"clone": REMOVED, "clone_1": "input-mutation"},
                                {"clone": REMOVED, "clone_1": "input-mutation"}, donated=(0,)),
    "mixed_second_donated": Case(mixed_inputs, xy45,
                                 {"clone": "input-mutation", "clone_1": REMOVED},
                                 {"clone": "input-mutation", "clone_1": REMOVED}, donated=(1,)),
    "mixed_both_donated": Case(mixed_inputs, xy45, {"clone": REMOVED, "clone_1": REMOVED},
                               {"clone": REMOVED, "clone_1": REMOVED}, donated=(0, 1)),
    # Every placeholder counts, the int one included: x is placeholder 1.
    "int_placeholder_counts": Case(int_then_tensor, lambda: [3, torch.randn(4, 5)],
                                   {"clone": REMOVED}, {"clone": REMOVED}, donated=(1,)),
    "int_placeholder_not_x": Case(int_then_tensor, lambda: [3, torch.randn(4, 5)],
                                  {"clone": "input-mutation"}, {"clone": "input-mutation"},
                                  donated=(0,)),
    # Outputs that would alias inputs or each other: vLLM 0.32 removes, safe and vLLM 0.33 keep
    # (the clone is returned and its source is an input or another output). Donated, safe
    # removes it (the caller gave x up); 0.33's check does not look at donation.
    "output_would_alias_input": Case(return_input_clone, x45, {"clone": "output-alias"},
                                     {"clone": REMOVED}, vllm_is_correct=False,
                                     vllm_033={"clone": "output-alias"}),
    "output_alias_donated_input": Case(return_input_clone, x45, {"clone": REMOVED},
                                       {"clone": REMOVED}, donated=(0,),
                                       vllm_033={"clone": "output-alias"}),
    "outputs_would_alias_input": Case(return_clone_and_input, x45, {"clone": "output-alias"},
                                      {"clone": REMOVED}, vllm_is_correct=False,
                                      vllm_033={"clone": "output-alias"}),
    "outputs_would_alias_each_other": Case(return_clone_and_source, x45,
                                           {"clone": "output-alias"}, {"clone": REMOVED},
                                           vllm_is_correct=False,
                                           vllm_033={"clone": "output-alias"}),
    # Layouts.
    "mamba_slice": Case(mamba_slice, x45, {"clone": "layout-changed"},
                        {"clone": "layout-changed"}),
    "storage_offset": Case(offset_slice, x45, {"clone": "layout-changed"},
                           {"clone": "layout-changed"}),
    "transpose_contiguous": Case(transpose_contiguous, x45, {"clone": "layout-changed"},
                                 {"clone": "layout-changed"}),
    "transpose_preserve_format": Case(transpose_clone_preserve, x45, {"clone": REMOVED},
                                      {"clone": REMOVED}),
    "channels_last": Case(channels_last, lambda: [torch.randn(2, 3, 4, 5)],
                          {"clone": "layout-changed"}, {"clone": "layout-changed"}),
    "stride_of_size_one_dim": Case(size_one_stride, lambda: [torch.randn(1, 5)],
                                   {"clone": "layout-changed"}, {"clone": "layout-changed"}),
    "expand_overlapping": Case(expanded, x45, {"clone": "layout-changed"},
                               {"clone": "layout-changed"}),
    # Holes in vLLM's rules that safe mode closes. vLLM sees no write to these clones (through a
    # view, an out= keyword, or of the source/input instead); 0.33 keeps them anyway, as each is
    # returned beside its source (`add`, or add_'s result, which is add's storage, or an out=
    # result, which is the clone's) or is the copy of an input.
    "write_through_view": Case(write_through_view, x45, {"clone": "source-read-after-write"},
                               {"clone": REMOVED}, vllm_is_correct=False,
                               vllm_033={"clone": "output-alias"}),
    "write_through_out_kwarg": Case(write_through_out_kwarg, x45,
                                    {"clone": "source-read-after-write"}, {"clone": REMOVED},
                                    vllm_is_correct=False, vllm_033={"clone": "output-alias"}),
    "source_written_after_clone": Case(source_written_after_clone, x45,
                                       {"clone": "clone-read-after-source-write"},
                                       {"clone": REMOVED}, vllm_is_correct=False,
                                       vllm_033={"clone": "output-alias"}),
    "input_written_after_clone": Case(input_written_after_clone, x45,
                                      {"clone": "clone-read-after-source-write"},
                                      {"clone": REMOVED}, vllm_is_correct=False,
                                      vllm_033={"clone": "output-alias"}),
    # Custom ops, known only by their live schema.
    "custom_op_write_source_used": Case(custom_write_source_used, x45,
                                        {"clone": "source-read-after-write"},
                                        {"clone": "source-read-after-write"}),
    "custom_op_write_source_dead": Case(custom_write_source_dead, x45, {"clone": REMOVED},
                                        {"clone": REMOVED}),
    "custom_op_write_input": Case(custom_write_input, x45, {"clone": "input-mutation"},
                                  {"clone": "input-mutation"}),
    "custom_op_write_donated_input": Case(custom_write_input, x45, {"clone": REMOVED},
                                          {"clone": REMOVED}, donated=(0,)),
    "custom_op_read": Case(custom_read, x45, {"clone": REMOVED}, {"clone": REMOVED}),
    # Ops whose schema hides a write (PyTorch's own schema bugs, still in torch 1.13). Neither
    # clone is returned: vLLM 0.33 removes them as 0.32 does.
    "batch_norm_running_stats": Case(batch_norm_running_stats, bn_inputs,
                                     {"clone": WRITTEN_BY_UNANNOTATED_OP}, {"clone": REMOVED},
                                     vllm_is_correct=False),
    "rrelu_noise_written": Case(rrelu_noise_written,
                                lambda: [torch.randn(4, 5), torch.ones(4, 5)],
                                {"clone": WRITTEN_BY_UNANNOTATED_OP}, {"clone": REMOVED},
                                vllm_is_correct=False),
}


def _matches(got, expected):
    """expected: None (removed), a reason code, or a tuple of acceptable reason codes."""
    if got.keys() != expected.keys():
        return False
    return all(got[k] == v or (isinstance(v, tuple) and got[k] in v)
               for k, v in expected.items())


def _params():
    """safe and vllm-0.32 on both traces; vllm (0.33) on the fake one only. The table's 0.33
    decisions are read off the storages meta["val"] shows in a fake-mode trace; a real-mode
    trace shows vLLM others (torch 1.13 records no meta["val"], which 0.33 takes as sharing a
    graph input's or output's storage; torch 2.x a FakeTensor with a storage of its own per
    node), so there 0.33 does not decide as the table says. The rule for nodes without a
    value is held to by test_vllm_033_takes_a_node_without_a_tensor_value_as_sharing."""
    for name, case in CASES.items():
        for tracing_mode in case.tracing_modes:
            for mode in ("safe", "vllm-0.32", "vllm"):
                if mode == "vllm" and tracing_mode != "fake":
                    continue
                yield pytest.param(name, tracing_mode, mode, id=f"{name}-{tracing_mode}-{mode}")


def check_case(case, gm, inputs, mode, check_reference):
    expected, correct = case.expected(mode)
    assert sorted(clone_names(gm)) == sorted(expected), "the traced graph is not the one expected"
    before = run(gm, inputs)
    order = clone_names(gm)

    remarks = declone.fx.eliminate_clones(gm.graph, donated_input_ids=case.donated, mode=mode)

    # One remark per clone, in program order, with the decision and reason expected.
    assert [r.node for r in remarks] == order
    got = {r.node: (None if r.decision == "removed" else r.reason) for r in remarks}
    assert _matches(got, expected), "\n".join(str(r) for r in remarks)
    for r in remarks:
        assert r.decision in ("removed", "kept")
        assert (r.reason is None) == (r.decision == "removed"), str(r)
        assert isinstance(r.detail, str)
    # The graph says the same: kept clones are still there, removed ones are gone.
    kept = {name for name, reason in expected.items() if reason is not None}
    assert set(clone_names(gm)) == kept
    assert len(clones(gm)) == len(kept)

    recompile(gm)
    after = run(gm, inputs)
    problems = compare_runs(before, after, donated=case.donated)
    if correct:
        assert not problems, "\n".join(problems)
    elif check_reference:
        # Where vLLM's rule is wrong, the program really changes: this case tests something.
        assert problems, "vLLM's decision was expected to change the program"
    return remarks


@pytest.mark.parametrize("name,tracing_mode,mode", list(_params()))
def test_case(name, tracing_mode, mode):
    case = CASES[name]
    torch.manual_seed(0)
    inputs = case.inputs()
    gm = trace(case.fn, *inputs, tracing_mode=tracing_mode)
    skip_unless_values_recorded(gm, mode)
    check_case(case, gm, inputs, mode, check_reference=(tracing_mode == "fake"))


@pytest.mark.parametrize("name", [n for n, c in CASES.items() if "fake" in c.tracing_modes])
@pytest.mark.parametrize("mode", list(VLLM_MODES))
def test_vllm_mode_matches_reference(name, mode):
    """Each vllm mode decides clone for clone as the Python restatement of its release's pass."""
    case = CASES[name]
    torch.manual_seed(0)
    inputs = case.inputs()
    ours = trace(case.fn, *inputs)
    theirs = trace(case.fn, *inputs)
    remarks = declone.fx.eliminate_clones(ours.graph, case.donated, mode=mode)
    reference = vllm_clone_elimination(theirs.graph, case.donated, release=VLLM_MODES[mode])
    assert [(r.node, r.decision) for r in remarks] == [(d.node, d.decision) for d in reference]
    recompile(ours), recompile(theirs)
    assert ours.code == theirs.code


@pytest.mark.parametrize("name", ["chain", "chain_then_write", "two_clones_written_donated",
                                  "mixed_first_donated", "write_through_view",
                                  "outputs_would_alias_each_other"])
@pytest.mark.parametrize("mode", ["safe", "vllm", "vllm-0.32"])
def test_idempotent(name, mode):
    case = CASES[name]
    inputs = case.inputs()
    gm = trace(case.fn, *inputs)
    first = declone.fx.eliminate_clones(gm.graph, case.donated, mode=mode)
    code = recompile(gm).code
    second = declone.fx.eliminate_clones(gm.graph, case.donated, mode=mode)
    assert all(r.decision == "kept" for r in second), [str(r) for r in second]
    assert {r.node: r.reason for r in second} == {
        r.node: r.reason for r in first if r.decision == "kept"}
    assert recompile(gm).code == code


def test_no_clones_leaves_graph_alone():
    gm = trace(no_clones, torch.randn(4, 5))
    code = gm.code
    assert declone.fx.eliminate_clones(gm.graph) == []
    assert recompile(gm).code == code


def test_graph_module_and_graph_alike():
    """The contract takes a Graph; the rewrite is visible through the owning GraphModule."""
    gm = trace(chain_of_clones, torch.randn(4, 5))
    remarks = declone.fx.eliminate_clones(gm.graph)
    assert [r.decision for r in remarks] == ["removed"] * 3
    assert clones(gm) == []


# --- the seed's case: vLLM dropped this clone -----------------------------------------------

# The vllm modes' details name the release whose decision they reproduce.
DECIDED_BY = {"safe": "", "vllm": " (vLLM 0.33.0's decision)",
              "vllm-0.32": " (vLLM 0.32.0's decision)"}


@pytest.mark.parametrize("mode", ["safe", "vllm", "vllm-0.32"])
@pytest.mark.parametrize("tracing_mode", ["fake", "real"])
def test_mamba_slice_keeps_its_layout(mode, tracing_mode):
    x = torch.randn(4, 5)
    gm = trace(mamba_slice, x, tracing_mode=tracing_mode)
    skip_unless_values_recorded(gm, mode)
    assert gm(x).stride() == (3, 1)
    remarks = declone.fx.eliminate_clones(gm.graph, mode=mode)
    assert len(remarks) == 1
    (remark,) = remarks
    assert (remark.node, remark.decision, remark.reason) == ("clone", "kept", "layout-changed")
    detail = "strides [3, 1] != [5, 1]" + DECIDED_BY[mode]
    assert remark.detail == detail
    assert f"clone 'clone' kept [layout-changed]: {detail}" in str(remark)
    out = recompile(gm)(x)
    assert out.stride() == (3, 1)
    assert out.storage_offset() == 0
    torch.testing.assert_close(out, x[:, :3], rtol=0, atol=0)


# --- graphs make_fx does not produce --------------------------------------------------------

def _opaque_add_one_(t):
    """A Python function: no schema, so nothing is known about what it does."""
    t.add_(1)
    return t


def test_unknown_effects_keep_the_clone():
    x = torch.randn(4, 5)

    def f(x):
        a = x + 1
        c = a.clone()
        return c * 2, a

    gm = trace(f, x)
    clone = clones(gm)[0]
    with gm.graph.inserting_after(clone):
        opaque = gm.graph.call_function(_opaque_add_one_, (clone,))
    opaque.meta = dict(clone.meta)
    recompile(gm)
    before = run(gm, [x])
    # vLLM asserts that every user of the clone has an OpOverload target.
    for mode, reason in (("safe", "unknown-effects"), ("vllm", "unsupported"),
                         ("vllm-0.32", "unsupported")):
        remarks = declone.fx.eliminate_clones(gm.graph, mode=mode)
        assert [(r.node, r.decision, r.reason) for r in remarks] == [
            ("clone", "kept", reason)], [str(r) for r in remarks]
    assert not compare_runs(before, run(recompile(gm), [x]))


def test_several_writes_to_one_clone():
    """make_fx chains in-place ops (mul_ writes add_'s result); rewire mul_ to write the clone
    directly: two direct writers, where vLLM asserts. Safe removes it (several writes are fine),
    vllm mode keeps it instead of crashing."""
    x = torch.randn(4, 5)

    def f(x):
        a = x * 3
        c = a.clone()
        c.add_(1)
        c.mul_(2)
        return c

    for mode, expected in (("safe", ("removed", None)), ("vllm", ("kept", "unsupported")),
                           ("vllm-0.32", ("kept", "unsupported"))):
        gm = trace(f, x)
        clone = clones(gm)[0]
        mul = next(n for n in gm.graph.nodes if n.target is torch.ops.aten.mul_.Tensor)
        mul.replace_input_with(mul.args[0], clone)
        recompile(gm)
        before = run(gm, [x])
        (remark,) = declone.fx.eliminate_clones(gm.graph, mode=mode)
        assert (remark.decision, remark.reason) == expected, str(remark)
        assert not compare_runs(before, run(recompile(gm), [x]))


def test_layout_unknown_without_metadata():
    """No meta at all: safe mode cannot compare layouts and keeps the clone; vLLM compares
    layouts only when both nodes carry metadata, so vllm-0.32 removes it. vLLM 0.33's output
    check takes a node without a tensor value as sharing storage with a graph input or output:
    the clone nobody writes stays, though it is not returned."""
    x = torch.randn(4, 5)

    def f(x):
        a = x + 1
        return a.clone() * 2

    for mode, expected in (("safe", ("kept", "layout-unknown")),
                           ("vllm-0.32", ("removed", None)),
                           ("vllm", ("kept", "output-alias"))):
        gm = trace(f, x, tracing_mode="real")
        for node in gm.graph.nodes:
            node.meta.clear()
        before = run(gm, [x])
        (remark,) = declone.fx.eliminate_clones(gm.graph, mode=mode)
        assert (remark.decision, remark.reason) == expected, str(remark)
        assert not compare_runs(before, run(recompile(gm), [x]))


@pytest.mark.parametrize("mode", list(VLLM_MODES))
def test_vllm_033_takes_a_node_without_a_tensor_value_as_sharing(mode):
    """vLLM 0.33's would_alias_graph_io reads storages from meta["val"] alone
    (torch._inductor.fx_utils.get_node_storage), and a node without one counts as sharing
    storage with a graph input or output: every clone no user writes stays, returned or not.
    A graph whose nodes carry meta["tensor_meta"] but no meta["val"] (torch 1.13's real-mode
    trace; here a fake-mode trace with the values dropped, on any torch) keeps this one in 0.33;
    0.32 compares the layouts tensor_meta records (equal) and removes it. As the restatement."""
    x = torch.randn(4, 5)

    def f(x):
        a = x + 1
        return a.clone() * 2

    expected = {"vllm": ("kept", "output-alias"), "vllm-0.32": ("removed", None)}[mode]
    ours, theirs = trace(f, x), trace(f, x)
    for gm in (ours, theirs):
        for node in gm.graph.nodes:
            node.meta.pop("val", None)
    assert all("tensor_meta" in n.meta for n in ours.graph.nodes if n.op == "call_function")
    before = run(ours, [x])
    (remark,) = declone.fx.eliminate_clones(ours.graph, mode=mode)
    reference = vllm_clone_elimination(theirs.graph, release=VLLM_MODES[mode])
    assert [(d.node, d.decision) for d in reference] == [("clone", expected[0])], reference
    assert (remark.decision, remark.reason) == expected, str(remark)
    assert recompile(ours).code == recompile(theirs).code
    assert not compare_runs(before, run(ours, [x]))


def test_symbolic_tracing():
    """make_fx(tracing_mode="symbolic"). In torch 1.13 sizes are SymIntNodes that print as
    `t0.size(0)`, which is no sympy expression: the annotations are left out, so the safe mode
    cannot prove the layouts equal and keeps the clone. Later torch gives sympy sizes (`s0`), and
    the safe mode removes it. The vllm modes remove it either way (add_ writes it: 0.33's output
    check is not asked). Neither fails."""
    x = torch.randn(4, 5)
    sympy_sizes = hasattr(torch, "SymInt") and not torch.__version__.startswith("1.")
    safe = "removed" if sympy_sizes else "kept"
    for mode, expected in (("safe", ("clone", safe)), ("vllm", ("clone", "removed")),
                           ("vllm-0.32", ("clone", "removed"))):
        gm = trace(clone_write_source_dead, x, tracing_mode="symbolic")
        before = run(gm, [x])
        remarks = declone.fx.eliminate_clones(gm.graph, mode=mode)
        assert [(r.node, r.decision) for r in remarks] == [expected]
        assert not compare_runs(before, run(recompile(gm), [x]))


# --- module state (get_attr) ----------------------------------------------------------------

STATE = torch.ones(4, 5)


def module_state_written(x):
    c = STATE.clone()
    c.add_(x)
    return c


def module_state_returned(x):
    return STATE.clone(), x * 2


@pytest.mark.parametrize("fn,safe_reason", [(module_state_written, "input-mutation"),
                                            (module_state_returned, "output-alias")])
def test_module_state_is_observed_by_the_caller(fn, safe_reason):
    """A tensor constant (get_attr) persists across calls, like a non-donated input. make_fx's
    real mode captures it as _tensor_constant0 without meta: give it tensor_meta as ShapeProp
    would, so that layouts are known and the decision rests on effects."""
    from torch.fx.passes.shape_prop import _extract_tensor_metadata

    x = torch.randn(4, 5)
    gm = trace(fn, x, tracing_mode="real")
    for node in gm.graph.nodes:
        if node.op == "get_attr":
            node.meta["tensor_meta"] = _extract_tensor_metadata(getattr(gm, node.target))
    first, second = run(gm, [x]), run(gm, [x])
    (remark,) = declone.fx.eliminate_clones(gm.graph)
    assert (remark.decision, remark.reason) == ("kept", safe_reason), str(remark)
    recompile(gm)
    assert not compare_runs(first, run(gm, [x]))
    assert not compare_runs(second, run(gm, [x]))
    assert torch.equal(gm._tensor_constant0, torch.ones(4, 5))
