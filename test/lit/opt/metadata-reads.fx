# Reads of metadata only (issue 16's missed removal): sym_size, sym_stride, sym_numel and
# sym_storage_offset read a tensor's sizes, strides and offset, not its data. Rule 1 proved the
# clone's layout equal to its source's, and a write of data changes no layout, so after add_
# writes mul the clone can still go. When an in-place op may change the source's metadata
# (squeeze_), the read would see the changed tensor without the clone: the safe mode trusts no
# layout of such a tensor and keeps the clone. verify/metadata-reads.fx executes both.
# RUN: %declone opt %s --remarks 2>&1 >/dev/null | %FileCheck %s
# RUN: %declone opt %s --verify > /dev/null
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4, 4][4, 1]cpu", arg1_1: "f32[4, 1, 4][4, 4, 1]cpu"):
        mul: "f32[4, 4][4, 1]cpu" = torch.ops.aten.mul.Tensor(arg0_1, 2)
        clone: "f32[4, 4][4, 1]cpu" = torch.ops.aten.clone.default(mul)
        # CHECK: :[[@LINE-1]]: remark: clone 'clone' removed
        add_: "f32[4, 4][4, 1]cpu" = torch.ops.aten.add_.Tensor(mul, 1)
        sym_size_int = torch.ops.aten.sym_size.int(clone, 0)
        sym_stride_int = torch.ops.aten.sym_stride.int(clone, 0)
        sym_numel_default = torch.ops.aten.sym_numel.default(clone)
        sym_storage_offset_default = torch.ops.aten.sym_storage_offset.default(clone)
        mul_1: "f32[4, 1, 4][4, 4, 1]cpu" = torch.ops.aten.mul.Tensor(arg1_1, 2)
        clone_1: "f32[4, 1, 4][4, 4, 1]cpu" = torch.ops.aten.clone.default(mul_1)
        # CHECK: :[[@LINE-1]]: remark: clone 'clone_1' kept [layout-unknown]: squeeze_ (line [[@LINE+1]]) changes the layout of mul_1 in place
        squeeze_: "f32[4, 4][4, 1]cpu" = torch.ops.aten.squeeze_.dim(mul_1, 1)
        sym_size_int_1 = torch.ops.aten.sym_size.int(clone_1, 1)
        return (add_, sym_size_int, sym_stride_int, sym_numel_default, sym_storage_offset_default, sym_size_int_1)
