# vllm-input-mutation: found by declone_property_test, seed 2384; minimised by hand.
# vLLM finds writes to the clone only among positional arguments. mul.out writes the clone
# through the keyword `out = clone`, so vLLM removes the clone and mul.out writes the caller's
# arg0_1, which is not donated (safe: kept [input-mutation]).
# Donated placeholders: none.
# After the vllm rewrite: input 0 (arg0_1): values differ ... after the call.
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4][1]cpu"):
        clone: "f32[4][1]cpu" = torch.ops.aten.clone.default(arg0_1)
        mul: "f32[4][1]cpu" = torch.ops.aten.mul.out(arg0_1, 2, out = clone);  arg0_1 = clone = None
        return (mul,)
