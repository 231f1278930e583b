# Rule 1 with an offset-only difference: select(x, 0, 1) has the clone's sizes and strides but
# starts 5 elements into its storage, and a clone always starts at 0. Inductor's no-op removal
# ignored this. The offset is inferred from the select (PyTorch never prints it) or read from
# the @OFFSET suffix. A symbolic start counts when it cannot be negative: s0 is a size of an
# input (a dynamic int argument could be negative, and would count from the end). A start
# that may lie past the end (3 in a dimension of s0 >= 2) is clamped to it: not inferred.
# RUN: %declone opt %s --remarks 2>&1 >/dev/null | %FileCheck %s --check-prefixes=CHECK,SAFE
# RUN: %declone opt %s --remarks --mode vllm-0.32 2>&1 >/dev/null | %FileCheck %s --check-prefixes=CHECK,VLLM
# CHECK: storage-offset.fx:18: remark: clone 'clone' kept [layout-changed]: storage offset 0 != 5
# CHECK: storage-offset.fx:19: remark: clone 'clone_1' kept [layout-changed]: storage offset 0 != 7
# CHECK: storage-offset.fx:21: remark: clone 'clone_2' kept [layout-changed]: storage offset 0 != 2*s0
# SAFE: storage-offset.fx:23: remark: clone 'clone_3' kept [layout-unknown]: storage offset of slice_2 is unknown
# vLLM's pass keeps a clone only where it sees the layouts differ.
# VLLM: storage-offset.fx:23: remark: clone 'clone_3' removed
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[3, 5][5, 1]cpu", arg1_1: "f32[5][1]cpu@7", arg2_1: "Sym(s0)", arg3_1: "f32[2*s0, 2][2, 1]cpu", arg4_1: "f32[s0][1]cpu"):
        select: "f32[5][1]cpu" = torch.ops.aten.select.int(arg0_1, 0, 1);  arg0_1 = None
        clone: "f32[5][1]cpu" = torch.ops.aten.clone.default(select);  select = None
        clone_1: "f32[5][1]cpu" = torch.ops.aten.clone.default(arg1_1);  arg1_1 = None
        slice_1: "f32[s0, 2][2, 1]cpu" = torch.ops.aten.slice.Tensor(arg3_1, 0, arg2_1, 9223372036854775807);  arg3_1 = None
        clone_2: "f32[s0, 2][2, 1]cpu" = torch.ops.aten.clone.default(slice_1);  slice_1 = None
        slice_2: "f32[s0 - 3][1]cpu" = torch.ops.aten.slice.Tensor(arg4_1, 0, 3);  arg4_1 = None
        clone_3: "f32[s0 - 3][1]cpu" = torch.ops.aten.clone.default(slice_2);  slice_2 = None
        return (clone, clone_1, clone_2, clone_3, arg2_1)
