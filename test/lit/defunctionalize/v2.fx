# auto_functionalized_v2 copies bases; the op writes the views its view replay describes. The
# rewrite rebuilds each view (slice, as_strided, alias, or the base itself) and calls the op.
# RUN: %declone opt %s --schemas %S/Inputs/dtest.schemas --defunctionalize --remarks --verify -o %t.fx 2>&1 | %FileCheck %s
# RUN: %FileCheck %s --check-prefix=GRAPH < %t.fx
# Rewriting twice changes nothing more.
# RUN: %declone opt %t.fx --schemas %S/Inputs/dtest.schemas --defunctionalize --remarks 2>&1 >/dev/null | %FileCheck %s --check-prefix=AGAIN --allow-empty
# AGAIN-NOT: removed
# CHECK: remark: copy of '_all_bases[0]' in 'auto_functionalized_v2' removed: written in place: mul
# CHECK: remark: copy of '_all_bases[0]' in 'auto_functionalized_v2_1' removed: written in place: getitem_1
# CHECK: remark: copy of '_all_bases[0]' in 'auto_functionalized_v2_2' removed: written in place: getitem_3
# CHECK: remark: copy of '_all_bases[0]' in 'auto_functionalized_v2_4' removed: written in place: getitem_5
# CHECK: remark: copy of '_all_bases[1]' in 'auto_functionalized_v2_4' removed: written in place: arg2_1
# GRAPH: slice_1 = torch.ops.aten.slice.Tensor(mul, 1, 0, 3)
# GRAPH-NEXT: scale_ = torch.ops.dtest.scale_.default(x = slice_1, y = slice_3)
# GRAPH: as_strided = torch.ops.aten.as_strided.default(mul, [4, 2], [5, 1], 3)
# GRAPH-NEXT: scale__1 = torch.ops.dtest.scale_.default(x = as_strided, y = slice_4)
# GRAPH: alias = torch.ops.aten.alias.default(mul)
# GRAPH-NEXT: scale__2 = torch.ops.dtest.scale_.default(x = alias, y = arg1_1)
# GRAPH: scale_pair_ = torch.ops.dtest.scale_pair_.default(x = getitem_5, z = arg2_1, y = arg1_1)
# GRAPH: mul_1: "f32[4, 5][5, 1]cpu" = torch.ops.aten.mul.Tensor(scale_pair_, 2)
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4, 5][5, 1]cpu", arg1_1: "f32[4, 5][5, 1]cpu", arg2_1: "f32[4, 5][5, 1]cpu"):
        mul: "f32[4, 5][5, 1]cpu" = torch.ops.aten.mul.Tensor(arg0_1, 1)
        slice_3: "f32[4, 3][5, 1]cpu" = torch.ops.aten.slice.Tensor(arg1_1, 1, 0, 3)
        auto_functionalized_v2 = torch.ops.higher_order.auto_functionalized_v2(torch.ops.dtest.scale_.default, y = slice_3, _x_base_index = 0, _x_slice_dim = 1, _x_slice_start = 0, _x_slice_end = 3, _all_bases = [mul])
        getitem_1: "f32[4, 5][5, 1]cpu" = auto_functionalized_v2[1]
        slice_4: "f32[4, 2][5, 1]cpu@3" = torch.ops.aten.slice.Tensor(arg1_1, 1, 3, 5)
        auto_functionalized_v2_1 = torch.ops.higher_order.auto_functionalized_v2(torch.ops.dtest.scale_.default, y = slice_4, _x_base_index = 0, _x_size = [4, 2], _x_stride = [5, 1], _x_storage_offset = 3, _all_bases = [getitem_1])
        getitem_3: "f32[4, 5][5, 1]cpu" = auto_functionalized_v2_1[1]
        auto_functionalized_v2_2 = torch.ops.higher_order.auto_functionalized_v2(torch.ops.dtest.scale_.default, y = arg1_1, _x_base_index = 0, _x_alias = True, _all_bases = [getitem_3])
        getitem_5: "f32[4, 5][5, 1]cpu" = auto_functionalized_v2_2[1]
        auto_functionalized_v2_4 = torch.ops.higher_order.auto_functionalized_v2(torch.ops.dtest.scale_pair_.default, y = arg1_1, _x_base_index = 0, _z_base_index = 1, _all_bases = [getitem_5, arg2_1])
        getitem_8: "f32[4, 5][5, 1]cpu" = auto_functionalized_v2_4[0]
        getitem_9: "f32[4, 5][5, 1]cpu" = auto_functionalized_v2_4[1]
        getitem_10: "f32[4, 5][5, 1]cpu" = auto_functionalized_v2_4[2]
        copy_: "f32[4, 5][5, 1]cpu" = torch.ops.aten.copy_.default(arg2_1, getitem_10)
        mul_1: "f32[4, 5][5, 1]cpu" = torch.ops.aten.mul.Tensor(getitem_8, 2)
        return (getitem_9, mul_1)
