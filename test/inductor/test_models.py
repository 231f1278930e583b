"""Real model code compiled by torch.compile(backend="inductor") with declone's safe mode and,
in inference, its vllm mode as post_grad_custom_post_pass. Each must match eager: outputs in
inference; outputs, gradients and updated buffers in a training step."""

import copy
import time

import pytest
import torch
import torch._inductor.config as inductor_config

import declone.fx
import declone_test_support as support
from models import MODELS

cli = support.cli  # the session fixture

CLONE = torch.ops.aten.clone.default
# float32 on the CPU; Inductor fuses and reorders reductions, which a training step's
# gradients (batch norm over a batch of two) amplify: tolerances scale with the value.
TOLERANCE = dict(rtol=1e-2, atol=1e-3)


def _clones(graph):
    return [node.name for node in graph.nodes if node.target is CLONE]


class Observer(declone.fx._PassBase):
    """Records the clones of each graph it sees (and, where asked, the clones declone's safe
    mode would remove there, decided on a copy). Inductor's own clone removal (remove_noop_ops
    among the joint-graph and again among the post-grad passes) is what lies between an
    observer installed as joint_custom_pre_pass and one installed as
    post_grad_custom_post_pass."""

    def __init__(self, decide=False):
        self.decide = decide
        self.graphs = []
        self.texts = []  # each graph as declone reads it, for `declone opt --verify`

    def __call__(self, graph):
        clones = _clones(graph)
        removed = []
        if self.decide and clones:
            copied = torch.fx.Graph()
            copied.output(copied.graph_copy(graph, {}))
            removed = [r.node for r in declone.fx.eliminate_clones(copied)
                       if r.decision == "removed"]
        self.graphs.append((clones, removed))
        self.texts.append(declone.fx.dumps(graph))

    def uuid(self):
        return None  # never cached: it must see every graph


def _step(model, inputs, phase, loss, forward=None):
    """One step of `model` (called as `forward`, e.g. its compiled form): its output, and in a
    training step the gradients and buffers it leaves."""
    forward = model if forward is None else forward
    if phase == "inference":
        model.eval()
        with torch.no_grad():
            return {"output": loss(forward(*inputs)).detach()}
    model.train()
    output = loss(forward(*inputs))
    output.float().sum().backward()
    state = {"output": output.detach()}
    # A parameter the loss does not reach has no gradient in eager, zeros from a compiled step.
    state.update({f"grad {n}": torch.zeros_like(p) if p.grad is None else p.grad
                  for n, p in model.named_parameters() if p.requires_grad})
    state.update({f"buffer {n}": b for n, b in model.named_buffers()})
    return state


def _compiled_step(model, inputs, phase, loss, pre, post):
    torch._dynamo.reset()
    with inductor_config.patch(joint_custom_pre_pass=pre, post_grad_custom_post_pass=post,
                               fx_graph_cache=False):
        compiled = torch.compile(model, backend="inductor")
        start = time.perf_counter()
        state = _step(model, inputs, phase, loss, compiled)
        return state, time.perf_counter() - start


def _verify(cli, texts, folder):
    """`declone opt --verify` on each graph: libtorch (the venv's, 2.13) runs it before and after
    declone's safe rewrite. A rewrite found wrong fails the test; a graph that cannot run here
    is reported with libtorch's reason."""
    outcomes = []
    for index, text in enumerate(texts):
        path = folder / f"graph{index}.fx"
        path.write_text(text)
        done = support.run_cli(cli, "opt", path, "--verify", "-o", folder / f"graph{index}.opt.fx")
        assert done.returncode != 1, f"declone's rewrite of {path} is not equivalent:\n" \
                                     f"{done.stderr[-3000:]}"
        outcomes.append("verified" if done.returncode == 0 else
                        "cannot run: " + done.stderr.strip().splitlines()[-1][-300:])
    return outcomes


def _assert_matches(state, reference, what):
    assert state.keys() == reference.keys(), what
    for key, expected in reference.items():
        scale = max(1.0, expected.abs().max().item()) if expected.is_floating_point() else 1.0
        torch.testing.assert_close(state[key], expected, rtol=TOLERANCE["rtol"],
                                   atol=TOLERANCE["atol"] * scale,
                                   msg=lambda m, key=key: f"{what}, {key}: {m}")


@pytest.mark.parametrize("phase", ["inference", "training"])
@pytest.mark.parametrize("name", sorted(MODELS))
def test_model_compiles_to_what_eager_computes(name, phase, report, cli, tmp_path):
    """Two compiles in inference, one in a training step (Inductor's baseline would cost one
    more; each mode is checked against eager instead). The safe one carries an observer at the joint-graph pre-pass, before Inductor's
    own clone removal: the clones there, less those declone then sees as post-grad post pass,
    are the ones Inductor removed."""
    model = MODELS[name]
    torch.manual_seed(0)
    base = model.make()
    inputs = model.inputs()
    reference = _step(copy.deepcopy(base), inputs, phase, model.loss)

    figures = {"vllm_removed": "-", "vllm_clones": "-", "vllm_kept": {}}
    # vLLM's pass runs on inference graphs: vllm mode is compiled in inference only.
    for mode in ("safe", "vllm") if phase == "inference" else ("safe",):
        clone_pass = declone.fx.CloneEliminationPass(mode=mode)
        observer = Observer(decide=True) if mode == "safe" else None
        state, seconds = _compiled_step(copy.deepcopy(base), inputs, phase, model.loss,
                                        observer, clone_pass)
        _assert_matches(state, reference, f"{name} {phase}, declone {mode}")
        assert clone_pass.runs, "Inductor did not call the pass"
        figures[f"{mode}_removed"] = sum(run.removed for run in clone_pass.runs)
        figures[f"{mode}_clones"] = sum(run.clones for run in clone_pass.runs)
        kept = {}
        for run in clone_pass.runs:
            for reason, count in run.kept.items():
                kept[reason] = kept.get(reason, 0) + count
        figures[f"{mode}_kept"] = kept
        if mode == "safe":
            figures["pass_ms"] = 1000 * sum(run.seconds for run in clone_pass.runs)
            figures["compile_s"] = seconds
            figures["pass_share"] = sum(run.seconds for run in clone_pass.runs) / seconds
            # The joint graph (one, in training too) against what declone saw after Inductor's
            # passes (forward and backward: partitioning keeps node names).
            seen = {name for clones, _ in observer.graphs for name in clones}
            left = {r.node for run in clone_pass.runs for r in run.remarks}
            declone_removes = {name for _, removed in observer.graphs for name in removed}
            inductor_removes = seen - left
            figures["verify"] = _verify(cli, observer.texts, tmp_path)
            figures.update(clones=len(seen), inductor_removed=len(inductor_removes),
                           joint_safe_removed=len(declone_removes),
                           inductor_only=sorted(inductor_removes - declone_removes),
                           declone_only=sorted(declone_removes - inductor_removes))
    report[f"{name}-{phase}"] = figures
