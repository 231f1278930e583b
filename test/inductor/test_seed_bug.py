"""The seed's bug in a real compiler pipeline. A Mamba-style block feeds `x[:, :3].contiguous()`
to a custom op that mutates its state argument and reads its input as contiguous memory from
the storage offset, as causal_conv1d's kernel does. A pass that drops every clone hands the op
the slice itself (strides (5, 1)): wrong output. declone keeps that clone in both modes; it
removes the clone of the same block without the slice."""

import pytest
import torch
import torch._inductor.config as inductor_config

import declone.fx

CLONE = torch.ops.aten.clone.default


# flexible_layout: Inductor passes the op its argument as the graph has it, as vLLM's piecewise
# backend does for the ops between its compiled pieces. (Without the tag Inductor copies a view
# argument into a fresh dense buffer itself, and dropping the clone goes unnoticed.)
@torch.library.custom_op("declone_test::conv_state_update", mutates_args=("state",),
                         tags=(torch.Tag.flexible_layout,))
def conv_state_update(x: torch.Tensor, state: torch.Tensor) -> torch.Tensor:
    # The kernel's view of x: its elements, row-major from the storage offset, strides ignored.
    memory = x.as_strided(x.shape, torch.empty(x.shape).stride(), x.storage_offset())
    state.add_(memory.sum(0))
    return memory * 2 + state


@conv_state_update.register_fake
def _(x, state):
    return torch.empty(x.shape, dtype=x.dtype, device=x.device)


WEIGHT = torch.randn(5, 5, generator=torch.Generator().manual_seed(1))


def sliced_block(x, state):
    # Mamba's in_proj: a matmul whose output Inductor materialises, sliced into two parts.
    h = x @ WEIGHT
    return conv_state_update(h[:, :3].contiguous(), state) * h[:, 3:4]


def unsliced_block(x, state):
    h = x[:, :3] @ WEIGHT[:3, :3]  # a new, contiguous tensor: its clone copies it as it is
    return conv_state_update(h.clone(), state) * h


class DropEveryClone(declone.fx._PassBase):
    """The naive pass: every aten.clone goes."""

    def __call__(self, graph):
        for node in list(graph.nodes):
            if node.target is CLONE:
                node.replace_all_uses_with(node.args[0])
                graph.erase_node(node)

    def uuid(self):
        return None


def _run(block, **passes):
    torch._dynamo.reset()
    x = torch.randn(4, 5, generator=torch.Generator().manual_seed(0))
    state = torch.zeros(3)
    with inductor_config.patch(fx_graph_cache=False, **passes):
        output = torch.compile(block, backend="inductor", fullgraph=True)(x, state)
    return output, state


def _eager(block):
    x = torch.randn(4, 5, generator=torch.Generator().manual_seed(0))
    state = torch.zeros(3)
    return block(x, state), state


def test_dropping_every_clone_miscompiles_the_sliced_block():
    expected = _eager(sliced_block)
    output, state = _run(sliced_block, post_grad_custom_post_pass=DropEveryClone())
    assert not torch.allclose(output, expected[0])


@pytest.mark.parametrize("mode", ["safe", "vllm"])
@pytest.mark.parametrize("hook", ["post_grad_custom_post_pass", "post_grad_custom_pre_pass"])
def test_declone_keeps_the_clone_of_the_slice(mode, hook):
    expected = _eager(sliced_block)
    clone_pass = declone.fx.CloneEliminationPass(mode=mode)
    output, state = _run(sliced_block, **{hook: clone_pass})
    torch.testing.assert_close(output, expected[0])
    torch.testing.assert_close(state, expected[1])
    decisions = [(r.decision, r.reason) for r in clone_pass.remarks]
    assert decisions == [("kept", "layout-changed")], "\n".join(map(str, clone_pass.remarks))
    print("\n".join(map(str, clone_pass.remarks)))


@pytest.mark.parametrize("mode", ["safe", "vllm"])
def test_declone_removes_the_clone_without_the_slice(mode):
    # Installed as the joint-graph pre-pass: Inductor's remove_noop_ops, which runs right after
    # it (and again among the post-grad passes), would remove this clone first.
    expected = _eager(unsliced_block)
    clone_pass = declone.fx.CloneEliminationPass(mode=mode)
    output, state = _run(unsliced_block, joint_custom_pre_pass=clone_pass)
    torch.testing.assert_close(output, expected[0])
    torch.testing.assert_close(state, expected[1])
    assert [r.decision for r in clone_pass.remarks] == ["removed"], \
        "\n".join(map(str, clone_pass.remarks))
