# vllm-aliasing: found by declone_property_test, seed 1060; minimised by hand.
# vLLM never checks what the graph returns: removing the clone makes the output alias the
# graph input arg0_1, which is not donated, so the caller's output and input now share memory
# (safe: kept [output-alias]).
# Donated placeholders: none.
# After the vllm rewrite: output 0: aliases input 0 != nothing.
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[2, 3][3, 1]cpu"):
        clone: "f32[2, 3][3, 1]cpu" = torch.ops.aten.clone.default(arg0_1);  arg0_1 = None
        return (clone,)
