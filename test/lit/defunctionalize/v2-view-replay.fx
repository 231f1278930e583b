# A v2 call whose view replay the pass cannot rebuild keeps its copies (this one could not run:
# its slice has no end), and so does one whose op declone has no schema for.
# RUN: %declone opt %s --schemas %S/Inputs/dtest.schemas --defunctionalize --remarks -o %t.fx 2>&1 | %FileCheck %s
# CHECK: remark: copy of '_all_bases[0]' in 'auto_functionalized_v2' kept [view-replay]: _x's slice dim, start and end are not all given as integers
# CHECK: remark: copy of '_all_bases[0]' in 'auto_functionalized_v2_1' kept [view-replay]: _x_base_index is not an index of _all_bases
# CHECK: remark: copy of '*' in 'auto_functionalized_v2_2' kept [not-rewritable]: no schema for torch.ops.dtest.unknown_.default: which arguments it writes is unknown
# CHECK: remark: copy of '_all_bases[0]' in 'auto_functionalized_v2_3' kept [view-replay]: the call passes written argument 'x' itself
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4, 5][5, 1]cpu", arg1_1: "f32[4, 5][5, 1]cpu"):
        mul: "f32[4, 5][5, 1]cpu" = torch.ops.aten.mul.Tensor(arg0_1, 1)
        auto_functionalized_v2 = torch.ops.higher_order.auto_functionalized_v2(torch.ops.dtest.scale_.default, y = arg1_1, _x_base_index = 0, _x_slice_dim = 1, _x_slice_start = 0, _all_bases = [mul])
        getitem_1: "f32[4, 5][5, 1]cpu" = auto_functionalized_v2[1]
        auto_functionalized_v2_1 = torch.ops.higher_order.auto_functionalized_v2(torch.ops.dtest.scale_.default, y = arg1_1, _x_base_index = 1, _all_bases = [getitem_1])
        getitem_2: "f32[4, 5][5, 1]cpu" = auto_functionalized_v2_1[1]
        auto_functionalized_v2_2 = torch.ops.higher_order.auto_functionalized_v2(torch.ops.dtest.unknown_.default, y = arg1_1, _x_base_index = 0, _all_bases = [getitem_2])
        getitem_3: "f32[4, 5][5, 1]cpu" = auto_functionalized_v2_2[1]
        auto_functionalized_v2_3 = torch.ops.higher_order.auto_functionalized_v2(torch.ops.dtest.scale_.default, x = getitem_3, y = arg1_1, _x_base_index = 0, _all_bases = [getitem_3])
        getitem_4: "f32[4, 5][5, 1]cpu" = auto_functionalized_v2_3[1]
        return (getitem_4,)
