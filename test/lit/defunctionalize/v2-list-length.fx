# A written list's length bounds how many views the pass rebuilds: a negative one crashed it and a
# huge one would hang it (found by the adversarial review).
# RUN: %declone opt %s --schemas %S/Inputs/dtest.schemas --defunctionalize --remarks -o %t.fx 2>&1 | %FileCheck %s
# CHECK: copy of '_all_bases[0]' in 'auto_functionalized_v2' kept [view-replay]: _xs_length is not the number of views the call describes
# CHECK: copy of '_all_bases[0]' in 'auto_functionalized_v2_1' kept [view-replay]: _xs_length is not the number of views the call describes
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4, 5][5, 1]cpu", arg1_1: "f32[4, 5][5, 1]cpu"):
        mul: "f32[4, 5][5, 1]cpu" = torch.ops.aten.mul.Tensor(arg0_1, 1)
        auto_functionalized_v2 = torch.ops.higher_order.auto_functionalized_v2(torch.ops.dtest.lst_.default, y = arg1_1, _xs_length = -1, _all_bases = [mul])
        getitem_1: "f32[4, 5][5, 1]cpu" = auto_functionalized_v2[1]
        auto_functionalized_v2_1 = torch.ops.higher_order.auto_functionalized_v2(torch.ops.dtest.lst_.default, y = arg1_1, _xs_length = 1000000000000, _all_bases = [getitem_1])
        getitem_2: "f32[4, 5][5, 1]cpu" = auto_functionalized_v2_1[1]
        return (getitem_2,)
