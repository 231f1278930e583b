"""declone.fx.eliminate_clones on torchvision models traced at aten level (make_fx, fake mode,
parameters and buffers as placeholders), in eval (forward) and train (forward + backward, batch
norm updating its running stats in place).

Each graph runs before and after the rewrite on copies of the same inputs: in safe mode, outputs
and every input's final contents (the running stats) must be identical; vllm mode (vLLM 0.33.0's
pass) must decide exactly as the Python restatement of vLLM's pass, as must vllm-0.32 (0.32.0's),
and whether the vllm mode's rewrite changed the results is recorded. Clones seen and removed per
model are printed at the end of the session and written to $DECLONE_MODEL_REPORT if set.
"""

import collections

import pytest

import declone.fx
from declone_test_support import (MODELS, PHASES, clone_names, compare_runs, recompile, run,
                                  traced_model, vllm_clone_elimination)


def _row(report, name, phase, gm):
    key = f"{name}/{phase}"
    row = report.setdefault(key, {"model": name, "phase": phase})
    row["nodes"] = len(gm.graph.nodes)
    row["clones"] = len(clone_names(gm))
    return row


@pytest.mark.parametrize("mode", ["safe", "vllm"])
@pytest.mark.parametrize("phase", PHASES)
@pytest.mark.parametrize("name", MODELS)
def test_model_rewrite_preserves_semantics(name, phase, mode, model_report):
    gm, inputs = traced_model(name, phase)
    row = _row(model_report, name, phase, gm)
    before = run(gm, inputs)
    seen = clone_names(gm)

    remarks = declone.fx.eliminate_clones(gm.graph, mode=mode)

    assert [r.node for r in remarks] == seen
    removed = [r.node for r in remarks if r.decision == "removed"]
    kept = collections.Counter(r.reason for r in remarks if r.decision == "kept")
    assert sorted(clone_names(gm)) == sorted(r.node for r in remarks if r.decision == "kept")
    row[f"removed_{mode}"] = len(removed)
    row[f"kept_reasons_{mode}"] = dict(kept)
    print(f"{name}/{phase} [{mode}]: {len(seen)} clones, {len(removed)} removed, kept {dict(kept)}")

    after = run(recompile(gm), inputs)
    problems = compare_runs(before, after)
    if mode == "vllm":
        # vLLM's rules are unsafe by design (its decisions are checked against the reference
        # below); record whether they broke this model instead of failing. efficientnet_b0's
        # training graph is broken: silu_ overwrites the activation input that the backward's
        # clone kept, and silu_backward then reads the output instead.
        row["vllm_semantics"] = "same" if not problems else f"differs ({problems[0]})"
        print(f"  vllm mode: {row['vllm_semantics']}")
        return
    assert not problems, "\n".join(problems[:20])


@pytest.mark.parametrize("mode,release", [("vllm", "0.33"), ("vllm-0.32", "0.32")])
@pytest.mark.parametrize("phase", PHASES)
@pytest.mark.parametrize("name", MODELS)
def test_model_vllm_mode_matches_reference(name, phase, mode, release):
    ours, _ = traced_model(name, phase)
    theirs, _ = traced_model(name, phase)
    remarks = declone.fx.eliminate_clones(ours.graph, mode=mode)
    reference = vllm_clone_elimination(theirs.graph, release=release)
    assert [(r.node, r.decision) for r in remarks] == [(d.node, d.decision) for d in reference]
    assert recompile(ours).code == recompile(theirs).code


@pytest.mark.parametrize("name", MODELS)
def test_model_dead_clones_removed(name):
    """Clones nobody uses (in the eval graphs, the copies autograd would have saved) go."""
    gm, _ = traced_model(name, "eval")
    dead = {n.name for n in gm.graph.nodes
            if n.op == "call_function" and n.name in clone_names(gm) and not n.users}
    remarks = declone.fx.eliminate_clones(gm.graph)
    removed = {r.node for r in remarks if r.decision == "removed"}
    assert dead <= removed


@pytest.mark.parametrize("phase", PHASES)
@pytest.mark.parametrize("name", MODELS)
def test_model_partial_import_decides_as_a_full_one(name, phase):
    """eliminate_clones reads only the tensor annotations the pass consults: on real models it
    must decide exactly as with every annotation read (the graph is not rewritten here)."""
    gm, _ = traced_model(name, phase)
    for mode in ("safe", "vllm", "vllm-0.32"):
        full = declone.fx._import(gm.graph, False).eliminate_clones([], mode)[0]
        expected = [(r.node, r.line, r.decision, r.reason, r.detail) for r in full]
        partial = declone.fx._import(gm.graph, True).eliminate_clones([], mode)[0]
        assert [(r.node, r.line, r.decision, r.reason, r.detail) for r in partial] == expected
        # The annotations as eliminate_clones reads them in that mode (meta["val"] alone in the
        # vllm modes).
        decided = declone.fx._import(gm.graph, True, mode).eliminate_clones([], mode)[0]
        assert [(r.node, r.line, r.decision, r.reason, r.detail) for r in decided] == expected
