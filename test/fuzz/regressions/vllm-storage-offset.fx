# vllm-storage-offset: found by declone_property_test, seed 21908; minimised by hand.
# As in vllm-stride.fx, but what the clone changes is the storage offset: the input starts 2
# elements into its storage and a clone always starts at 0. Without metadata on the clone vLLM
# does not compare layouts and removes it (safe: kept [layout-unknown]).
# Donated placeholders: none.
# After the vllm rewrite: output 0: storage offset 2 != 0.
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[3][1]cpu@2"):
        clone = torch.ops.aten.clone.default(arg0_1);  arg0_1 = None
        return (clone,)
