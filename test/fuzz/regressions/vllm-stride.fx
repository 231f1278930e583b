# vllm-stride: found by declone_property_test, seed 4810; minimised by hand.
# vLLM compares the layouts of clone and source only when both carry metadata (meta["val"]);
# this clone has none (a node inserted by another pass, or a dump without strides), so a clone
# that makes a padded input (strides (4, 1)) contiguous (3, 1) is removed: the Mamba
# `x[:, :3].contiguous()` bug in its smallest form (safe: kept [layout-unknown]).
# Donated placeholders: none.
# After the vllm rewrite: output 0: stride (4, 1) != (3, 1).
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[2, 3][4, 1]cpu"):
        clone = torch.ops.aten.clone.default(arg0_1);  arg0_1 = None
        return (clone,)
