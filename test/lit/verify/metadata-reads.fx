# Reads of metadata only, executed: the clone of mul, which only sym_size and kin read after
# add_ writes mul, can go (the rewrite verifies); the clone of mul_1 cannot, since squeeze_ then
# changes mul_1's sizes in place and sym_size would see them (output 5: 4 != 1). The verifier
# runs the sym_ queries, which libtorch 1.13 does not dispatch.
# RUN: %declone verify %s %s | %FileCheck %s --check-prefix=SAME
# SAME: equivalent (1 run)
# RUN: %declone verify %s %S/Inputs/metadata-reads-clone-dropped.fx | %FileCheck %s --check-prefix=SAFE
# SAFE: equivalent (1 run)
# RUN: %expect-exit 1 %declone verify %s %S/Inputs/metadata-reads-clone-1-dropped.fx | %FileCheck %s --check-prefix=SQUEEZE
# SQUEEZE: not equivalent to {{.*}}metadata-reads.fx: output 5: 4 != 1
# RUN: %declone opt %s --remarks --verify 2>&1 >/dev/null | %FileCheck %s --check-prefix=OPT
# OPT: remark: clone 'clone' removed
# OPT: remark: clone 'clone_1' kept [layout-unknown]
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4, 4][4, 1]cpu", arg1_1: "f32[4, 1, 4][4, 4, 1]cpu"):
        mul: "f32[4, 4][4, 1]cpu" = torch.ops.aten.mul.Tensor(arg0_1, 2)
        clone: "f32[4, 4][4, 1]cpu" = torch.ops.aten.clone.default(mul)
        add_: "f32[4, 4][4, 1]cpu" = torch.ops.aten.add_.Tensor(mul, 1)
        sym_size_int = torch.ops.aten.sym_size.int(clone, 0)
        sym_stride_int = torch.ops.aten.sym_stride.int(clone, 0)
        sym_numel_default = torch.ops.aten.sym_numel.default(clone)
        sym_storage_offset_default = torch.ops.aten.sym_storage_offset.default(clone)
        mul_1: "f32[4, 1, 4][4, 4, 1]cpu" = torch.ops.aten.mul.Tensor(arg1_1, 2)
        clone_1: "f32[4, 1, 4][4, 4, 1]cpu" = torch.ops.aten.clone.default(mul_1)
        squeeze_: "f32[4, 4][4, 1]cpu" = torch.ops.aten.squeeze_.dim(mul_1, 1)
        sym_size_int_1 = torch.ops.aten.sym_size.int(clone_1, 1)
        return (add_, sym_size_int, sym_stride_int, sym_numel_default, sym_storage_offset_default, sym_size_int_1)
