# _unsafe_view returns a view of its argument at the argument's offset, although its schema
# declares a new tensor (the override table says it may alias). Its result's storage offset is
# known only when the argument's is 0, where a view and a new tensor agree: the clone of the
# first _unsafe_view goes, the clone of the one over slice_1 (at offset 8) stays, or the output
# would start 8 elements into its storage. lit verify/unsafe-view-offset.fx runs both.
# RUN: %declone opt %s --remarks 2>&1 >/dev/null | %FileCheck %s
def forward(self, arg0_1: "f32[16][1]cpu"):
    mul: "f32[16][1]cpu" = torch.ops.aten.mul.Tensor(arg0_1, 2);  arg0_1 = None
    _unsafe_view: "f32[4, 4][4, 1]cpu" = torch.ops.aten._unsafe_view.default(mul, [4, 4])
    clone: "f32[4, 4][4, 1]cpu" = torch.ops.aten.clone.default(_unsafe_view);  _unsafe_view = None
    # CHECK: :[[@LINE-1]]: remark: clone 'clone' removed
    slice_1: "f32[8][1]cpu" = torch.ops.aten.slice.Tensor(mul, 0, 8);  mul = None
    _unsafe_view_1: "f32[2, 4][4, 1]cpu" = torch.ops.aten._unsafe_view.default(slice_1, [2, 4]);  slice_1 = None
    clone_1: "f32[2, 4][4, 1]cpu" = torch.ops.aten.clone.default(_unsafe_view_1);  _unsafe_view_1 = None
    # CHECK: :[[@LINE-1]]: remark: clone 'clone_1' kept [layout-unknown]: storage offset of _unsafe_view_1 is unknown
    return (clone, clone_1)
