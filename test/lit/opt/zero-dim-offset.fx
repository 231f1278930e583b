# A 0-dim tensor's strides are the empty list, though dumps print `f32[]`: the clone of a 0-dim
# view at offset 4 changes the storage offset, and every mode keeps it (vLLM compares the
# offsets of meta["val"], test/vllm's seed 47 with the slice's value removed).
# RUN: %declone opt %s --remarks 2>&1 >/dev/null | %FileCheck %s
# RUN: %declone opt %s --remarks --mode vllm 2>&1 >/dev/null | %FileCheck %s
# RUN: %declone opt %s --remarks --mode vllm-0.32 2>&1 >/dev/null | %FileCheck %s
class GraphModule(torch.nn.Module):
    def forward(self, x0_1: "f32[6][1]cpu"):
        slice_1 = torch.ops.aten.slice.Tensor(x0_1, 0, 3, 6);  x0_1 = None
        select: "f32[]cpu@4" = torch.ops.aten.select.int(slice_1, 0, 1);  slice_1 = None
        clone: "f32[]cpu" = torch.ops.aten.clone.default(select);  select = None
        # CHECK: :[[@LINE-1]]: remark: clone 'clone' kept [layout-changed]: storage offset 0 != 4
        mul: "f32[]cpu" = torch.ops.aten.mul.Tensor(clone, 2);  clone = None
        return (mul,)
