# _unsafe_view over a slice at offset 8 returns a view at offset 8, not the new tensor at offset
# 0 its schema declares: dropping the clone of its result, as the safe mode did when it trusted
# the schema, returns a tensor 8 elements into its storage. The safe mode keeps that clone (lit
# opt/unsafe-view-offset.fx) and its rewrite verifies.
# RUN: %expect-exit 1 %declone verify %s %S/Inputs/unsafe-view-offset-clones-dropped.fx | %FileCheck %s
# CHECK: unsafe-view-offset-clones-dropped.fx: not equivalent to {{.*}}unsafe-view-offset.fx: output 1: storage offset 8 != 0
# RUN: %declone opt %s --verify > /dev/null
def forward(self, arg0_1: "f32[16][1]cpu"):
    mul: "f32[16][1]cpu" = torch.ops.aten.mul.Tensor(arg0_1, 2);  arg0_1 = None
    _unsafe_view: "f32[4, 4][4, 1]cpu" = torch.ops.aten._unsafe_view.default(mul, [4, 4])
    clone: "f32[4, 4][4, 1]cpu" = torch.ops.aten.clone.default(_unsafe_view);  _unsafe_view = None
    slice_1: "f32[8][1]cpu" = torch.ops.aten.slice.Tensor(mul, 0, 8);  mul = None
    _unsafe_view_1: "f32[2, 4][4, 1]cpu" = torch.ops.aten._unsafe_view.default(slice_1, [2, 4]);  slice_1 = None
    clone_1: "f32[2, 4][4, 1]cpu" = torch.ops.aten.clone.default(_unsafe_view_1);  _unsafe_view_1 = None
    return (clone, clone_1)
