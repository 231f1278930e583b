# In-place metadata ops, executed (issue 16, class 3): dropping each clone the safe mode keeps
# changes the result. t_ transposed mul, so the rewrite returns strides (1, 4); as_strided_ moved
# mul_1 4 elements into its storage, and slice_1 starts there too; set_ made empty a view of
# mul_2, so add_ writes what clone_3 copied. The safe mode keeps all four and its rewrite
# verifies; vllm mode trusts the annotations and its rewrite does not.
# RUN: %declone verify %s %s | %FileCheck %s --check-prefix=SAME
# SAME: equivalent (1 run)
# RUN: %expect-exit 1 %declone verify %s %S/Inputs/inplace-t-clone-dropped.fx | %FileCheck %s --check-prefix=T
# T: not equivalent to {{.*}}inplace-metadata-ops.fx: output 0: stride (1, 4) != (4, 1)
# RUN: %expect-exit 1 %declone verify %s %S/Inputs/inplace-as-strided-clone-dropped.fx | %FileCheck %s --check-prefix=STRIDED
# STRIDED: not equivalent to {{.*}}inplace-metadata-ops.fx: output 1: storage offset 4 != 0
# RUN: %expect-exit 1 %declone verify %s %S/Inputs/inplace-view-offset-clone-dropped.fx | %FileCheck %s --check-prefix=VIEW
# VIEW: not equivalent to {{.*}}inplace-metadata-ops.fx: output 2: storage offset 4 != 0
# RUN: %expect-exit 1 %declone verify %s %S/Inputs/inplace-set-clone-dropped.fx | %FileCheck %s --check-prefix=SET
# SET: not equivalent to {{.*}}inplace-metadata-ops.fx: output 3: values differ
# RUN: %declone opt %s --remarks --verify 2>&1 >/dev/null | %FileCheck %s --check-prefix=OPT
# OPT: remark: clone 'clone' kept [layout-unknown]
# OPT: remark: clone 'clone_1' kept [layout-unknown]
# OPT: remark: clone 'clone_2' kept [layout-unknown]
# OPT: remark: clone 'clone_3' kept [clone-read-after-source-write]
# RUN: %expect-exit 1 %declone opt %s --mode vllm --verify 2>&1 >/dev/null | %FileCheck %s --check-prefix=VLLM
# VLLM: error: the rewrite does not verify: output 0: stride (1, 4) != (4, 1)
# RUN: %declone opt %S/../opt/inplace-metadata-ops.fx --verify > /dev/null
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4, 4][4, 1]cpu", arg1_1: "f32[16][1]cpu", arg2_1: "f32[4, 4][4, 1]cpu"):
        mul: "f32[4, 4][4, 1]cpu" = torch.ops.aten.mul.Tensor(arg0_1, 2)
        t_: "f32[4, 4][1, 4]cpu" = torch.ops.aten.t_.default(mul)
        clone: "f32[4, 4][4, 1]cpu" = torch.ops.aten.clone.default(mul, memory_format = torch.contiguous_format)
        mul_1: "f32[4][1]cpu" = torch.ops.aten.mul.Tensor(arg1_1, 2)
        as_strided_: "f32[4][1]cpu" = torch.ops.aten.as_strided_.default(mul_1, [4], [1], 4)
        clone_1: "f32[4][1]cpu" = torch.ops.aten.clone.default(mul_1)
        slice_1: "f32[2][1]cpu" = torch.ops.aten.slice.Tensor(mul_1, 0, 0, 2)
        clone_2: "f32[2][1]cpu" = torch.ops.aten.clone.default(slice_1)
        mul_2: "f32[4, 4][4, 1]cpu" = torch.ops.aten.mul.Tensor(arg2_1, 2)
        clone_3: "f32[4, 4][4, 1]cpu" = torch.ops.aten.clone.default(mul_2)
        empty: "f32[0][1]cpu" = torch.ops.aten.empty.memory_format([0], dtype = torch.float32, device = device(type='cpu'), pin_memory = False)
        set_: "f32[4, 4][4, 1]cpu" = torch.ops.aten.set_.source_Tensor(empty, mul_2)
        add_: "f32[4, 4][4, 1]cpu" = torch.ops.aten.add_.Tensor(set_, 1)
        return (clone, clone_1, clone_2, clone_3, add_)
