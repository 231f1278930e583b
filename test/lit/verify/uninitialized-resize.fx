# Memory that kernels leave uninitialized besides empty's (issue 29, bug 4): what resize_ and
# resize add past the old elements, the gap empty_strided leaves between its elements (read
# through as_strided), prims.empty_strided (declone's kernel), what empty.out adds to its out
# argument and all that new_empty.out copies into its. Each such output or input is compared by
# metadata and at the determined elements only, and the note names the allocation it comes from.
# RUN: %declone verify %s %s | %FileCheck %s --check-prefix=SAME
# SAME: note: output 0: values compared at 4 of 6 elements; the others come from uninitialized memory (resize_)
# SAME-NEXT: note: output 1: values compared at 2 of 3 elements; the others come from uninitialized memory (empty_strided)
# SAME-NEXT: note: output 2 compared by metadata only: its values come from uninitialized memory (empty_strided_1)
# SAME-NEXT: note: output 3: values compared at 3 of 5 elements; the others come from uninitialized memory (resize)
# SAME-NEXT: note: input 1 (arg1_1): values compared at 4 of 6 elements; the others come from uninitialized memory (empty_out)
# SAME-NEXT: note: input 2 (arg2_1) compared by metadata only: its values come from uninitialized memory (new_empty_out)
# SAME-NEXT: equivalent (1 run)
# RUN: %expect-exit 1 %declone verify %s %S/Inputs/uninitialized-resize-wrong.fx | %FileCheck %s --check-prefix=WRONG
# WRONG: not equivalent to {{.*}}uninitialized-resize.fx: output 0: values differ (largest difference {{.*}} at flat index {{[0-3]}})
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4][1]cpu", arg1_1: "f32[4][1]cpu", arg2_1: "f32[4][1]cpu", arg3_1: "i64[3][1]cpu"):
        clone: "f32[4][1]cpu" = torch.ops.aten.clone.default(arg0_1)
        resize_: "f32[6][1]cpu" = torch.ops.aten.resize_.default(clone, [6]);  clone = None
        empty_strided: "f32[2][2]cpu" = torch.ops.aten.empty_strided.default([2], [2], dtype = torch.float32, device = device(type='cpu'), pin_memory = False)
        fill_: "f32[2][2]cpu" = torch.ops.aten.fill_.Scalar(empty_strided, 1.0);  fill_ = None
        as_strided: "f32[3][1]cpu" = torch.ops.aten.as_strided.default(empty_strided, [3], [1]);  empty_strided = None
        empty_strided_1: "f32[2, 3][3, 1]cpu" = torch.ops.prims.empty_strided.default([2, 3], [3, 1], dtype = torch.float32, device = device(type='cpu'), requires_grad = False)
        empty_out: "f32[6][1]cpu" = torch.ops.aten.empty.out([6], out = arg1_1);  arg1_1 = empty_out = None
        new_empty_out: "f32[4][1]cpu" = torch.ops.aten.new_empty.out(arg0_1, [4], out = arg2_1);  arg0_1 = arg2_1 = new_empty_out = None
        resize: "i64[5][1]cpu" = torch.ops.aten.resize.default(arg3_1, [5]);  arg3_1 = None
        return (resize_, as_strided, empty_strided_1, resize)
