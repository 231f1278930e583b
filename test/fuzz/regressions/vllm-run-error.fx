# vllm-run-error: found by declone_property_test, seed 14600; minimised by hand.
# The `out =` write of vllm-input-mutation.fx again, with a second consequence: once the clone
# is gone, add.out reads t (arg0_1 transposed) while writing arg0_1 itself. The original graph
# runs; the rewritten one is rejected by PyTorch ("some elements of the input tensor and the
# written-to tensor refer to a single memory location"), and a compiled kernel would read
# half-overwritten input instead (safe: kept [input-mutation]).
# Donated placeholders: none.
# After the vllm rewrite: cannot run: aten::add.out: partial overlap of input and output.
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[2, 2][2, 1]cpu"):
        t: "f32[2, 2][1, 2]cpu" = torch.ops.aten.t.default(arg0_1)
        clone: "f32[2, 2][2, 1]cpu" = torch.ops.aten.clone.default(arg0_1);  arg0_1 = None
        add: "f32[2, 2][2, 1]cpu" = torch.ops.aten.add.out(t, 1, out = clone);  t = clone = None
        return (add,)
