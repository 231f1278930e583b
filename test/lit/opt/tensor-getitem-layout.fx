# Python indexing of a tensor (FX prints `x[1:, ::2]` as a getitem with slice objects) is a
# view whose strides and storage offset follow PyTorch's applySlicing, as aten.slice, select and
# unsqueeze do; the clones of such views are decided instead of layout-unknown. Indexing with a
# tensor is a copy the layout analysis does not model: its clone stays layout-unknown.
# RUN: %declone opt %s --remarks 2>&1 >/dev/null | %FileCheck %s
# RUN: %declone opt %s --verify > /dev/null
# Dropping clone_1, as a layout-unknown verdict that guessed offset 0 would, moves the output:
# RUN: %expect-exit 1 %declone verify %s %S/../verify/Inputs/tensor-getitem-offset-clone-dropped.fx | %FileCheck %s --check-prefix=DROPPED
# DROPPED: tensor-getitem-offset-clone-dropped.fx: not equivalent to {{.*}}tensor-getitem-layout.fx: output 1: storage offset 5 != 0
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4, 5][5, 1]cpu"):
        getitem: "f32[2, 5][5, 1]cpu" = arg0_1[slice(None, 2, None)]
        clone: "f32[2, 5][5, 1]cpu" = torch.ops.aten.clone.default(getitem);  getitem = None
        # CHECK: :[[@LINE-1]]: remark: clone 'clone' removed
        getitem_1: "f32[3, 5][5, 1]cpu" = arg0_1[slice(1, None, None)]
        clone_1: "f32[3, 5][5, 1]cpu" = torch.ops.aten.clone.default(getitem_1);  getitem_1 = None
        # CHECK: :[[@LINE-1]]: remark: clone 'clone_1' kept [layout-changed]: storage offset 0 != 5
        getitem_2: "f32[5]cpu" = arg0_1[0]
        clone_2: "f32[5][1]cpu" = torch.ops.aten.clone.default(getitem_2);  getitem_2 = None
        # CHECK: :[[@LINE-1]]: remark: clone 'clone_2' removed
        getitem_3: "f32[5][1]cpu" = arg0_1[-1]
        clone_3: "f32[5][1]cpu" = torch.ops.aten.clone.default(getitem_3);  getitem_3 = None
        # CHECK: :[[@LINE-1]]: remark: clone 'clone_3' kept [layout-changed]: storage offset 0 != 15
        getitem_4: "f32[4, 1, 3]cpu" = arg0_1[(slice(None, None, None), None, slice(None, None, 2))]
        clone_4: "f32[4, 1, 3][3, 3, 1]cpu" = torch.ops.aten.clone.default(getitem_4, memory_format = torch.contiguous_format);  getitem_4 = None
        # CHECK: :[[@LINE-1]]: remark: clone 'clone_4' kept [layout-changed]: strides [3, 3, 1] != [5, 5, 2]
        getitem_5: "f32[2, 1, 5]cpu" = arg0_1[(slice(None, 2, None), None)]
        clone_5: "f32[2, 1, 5][5, 5, 1]cpu" = torch.ops.aten.clone.default(getitem_5);  getitem_5 = None
        # CHECK: :[[@LINE-1]]: remark: clone 'clone_5' removed
        arange: "i64[2][1]cpu" = torch.ops.aten.arange.default(2, dtype = torch.int64, device = device(type='cpu'), pin_memory = False)
        getitem_6: "f32[2, 5]cpu" = arg0_1[arange];  arange = None
        clone_6: "f32[2, 5][5, 1]cpu" = torch.ops.aten.clone.default(getitem_6);  getitem_6 = None
        # CHECK: :[[@LINE-1]]: remark: clone 'clone_6' kept [layout-unknown]: strides of getitem_6 are unknown
        add: "f32[2, 5][5, 1]cpu" = torch.ops.aten.add.Tensor(clone, clone_6);  clone = clone_6 = None
        mul: "f32[5][1]cpu" = torch.ops.aten.mul.Tensor(clone_2, 2);  clone_2 = None
        mul_1: "f32[2, 1, 5][5, 5, 1]cpu" = torch.ops.aten.mul.Tensor(clone_5, 2);  clone_5 = None
        return (add, clone_1, mul, clone_3, clone_4, mul_1)
