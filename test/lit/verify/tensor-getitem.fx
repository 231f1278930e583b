# Python indexing of a tensor, as FX prints it (x[(slice(None, None, None), slice(None, 3,
# None))] for x[:, :3], x[-1], x[None], x[1::2, 0]), executed as Python does: the views have the
# strides and offsets the annotations say, and dropping a clone of one is caught, as a stride
# (x[:, :3] is not contiguous) or a storage offset (x[-1] starts 15 elements in).
# RUN: %declone verify %s %s --trials 2 | %FileCheck %s --check-prefix=SAME
# SAME: equivalent (2 runs)
# RUN: %expect-exit 1 %declone verify %s %S/Inputs/tensor-getitem-slice-clone-dropped.fx | %FileCheck %s --check-prefix=SLICE
# SLICE: tensor-getitem-slice-clone-dropped.fx: not equivalent to {{.*}}tensor-getitem.fx: output 0: stride (5, 1) != (3, 1)
# RUN: %expect-exit 1 %declone verify %s %S/Inputs/tensor-getitem-index-clone-dropped.fx | %FileCheck %s --check-prefix=INDEX
# INDEX: tensor-getitem-index-clone-dropped.fx: not equivalent to {{.*}}tensor-getitem.fx: output 1: storage offset 15 != 0
# The safe mode keeps the three clones, and its rewrite verifies.
# RUN: %declone opt %s --remarks --verify 2>&1 >/dev/null | %FileCheck %s --check-prefix=OPT
# OPT: remark: clone 'clone' kept [layout-changed]: strides [3, 1] != [5, 1]
# OPT: remark: clone 'clone_1' kept [layout-changed]: storage offset 0 != 15
# OPT: remark: clone 'clone_2' kept [layout-changed]: strides [1] != [10]
# An index the verifier cannot build is exit 2 naming the node, not a verdict.
# RUN: %expect-exit 2 %declone verify %S/Inputs/tensor-getitem-bad-index.fx %S/Inputs/tensor-getitem-bad-index.fx 2>&1 | %FileCheck %s --check-prefix=BAD
# BAD: tensor-getitem-bad-index.fx:3: error: cannot execute getitem: cannot index a tensor with 'torch.float32'
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4, 5][5, 1]cpu"):
        getitem: "f32[4, 3][5, 1]cpu" = arg0_1[(slice(None, None, None), slice(None, 3, None))]
        clone: "f32[4, 3][3, 1]cpu" = torch.ops.aten.clone.default(getitem, memory_format = torch.contiguous_format);  getitem = None
        getitem_1: "f32[5][1]cpu@15" = arg0_1[-1]
        clone_1: "f32[5][1]cpu" = torch.ops.aten.clone.default(getitem_1);  getitem_1 = None
        getitem_2: "f32[1, 4, 5][20, 5, 1]cpu" = arg0_1[None]
        mul_: "f32[1, 4, 5][20, 5, 1]cpu" = torch.ops.aten.mul_.Tensor(getitem_2, 2);  getitem_2 = None
        getitem_3: "f32[2][10]cpu@5" = arg0_1[(slice(1, None, 2), 0)];  arg0_1 = None
        clone_2: "f32[2][1]cpu" = torch.ops.aten.clone.default(getitem_3);  getitem_3 = None
        return (clone, clone_1, mul_, clone_2)
