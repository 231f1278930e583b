# vllm-values: found by declone_property_test, seed 98; minimised by hand.
# vLLM's pass only looks at writes to the clone. Here nothing writes the clone; the source
# (arg0_1) is written after the clone by mul_, and the clone, returned, must keep the old
# values. vLLM removes it, so the graph returns the updated arg0_1 (safe: kept
# [clone-read-after-source-write]).
# Donated placeholders: none.
# After the vllm rewrite: output 0: values differ.
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[3, 3][3, 1]cpu"):
        clone: "f32[3, 3][3, 1]cpu" = torch.ops.aten.clone.default(arg0_1)
        mul_: "f32[3, 3][3, 1]cpu" = torch.ops.aten.mul_.Tensor(arg0_1, 0.5);  arg0_1 = None
        return (clone,)
