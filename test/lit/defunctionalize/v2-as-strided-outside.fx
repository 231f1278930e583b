# as_strided's offset counts from the storage's start, and the copy v2 makes is of the base's
# extent: a view the replay describes may reach elements that are not the base's (here the odd
# elements of arg0_1, under its even ones). The copy hid those writes; in place they would
# reach the caller's input. The view must lie within a dense base (found by the adversarial
# review: before, the rewrite did not verify).
# RUN: %declone opt %s --schemas %S/Inputs/dtest.schemas --defunctionalize --remarks --verify -o %t.fx 2>&1 | %FileCheck %s
# CHECK: copy of '_all_bases[0]' in 'auto_functionalized_v2' kept [view-replay]: _x's as_strided view is not provably within its base slice_1
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[8][1]cpu", arg1_1: "f32[4][1]cpu"):
        slice_1: "f32[4][2]cpu" = torch.ops.aten.slice.Tensor(arg0_1, 0, 0, 8, 2)
        auto_functionalized_v2 = torch.ops.higher_order.auto_functionalized_v2(torch.ops.dtest.inc_.default, _x_base_index = 0, _x_size = [3], _x_stride = [2], _x_storage_offset = 1, _all_bases = [slice_1])
        getitem_1: "f32[4][2]cpu" = auto_functionalized_v2[1]
        copy_: "f32[4][2]cpu" = torch.ops.aten.copy_.default(slice_1, getitem_1)
        return (arg1_1,)
