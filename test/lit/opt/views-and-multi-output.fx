# Offsets of view results are inferred as PyTorch computes them: split/chunk/unbind elements
# start partway into their input's storage, and a clone of such an element changes the layout
# even when sizes and strides agree. Elements of auto_functionalized are copies of the mutated
# arguments made with clone_preserve_strides: they keep their argument's storage offset.
# RUN: %declone opt %s --remarks 2>&1 >/dev/null | %FileCheck %s
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[6, 4][4, 1]cpu"):
        split = torch.ops.aten.split.Tensor(arg0_1, 2)
        getitem: "f32[2, 4][4, 1]cpu" = split[0]
        getitem_1: "f32[2, 4][4, 1]cpu" = split[1];  split = None
        clone: "f32[2, 4][4, 1]cpu" = torch.ops.aten.clone.default(getitem);  getitem = None
        # CHECK: :[[@LINE-1]]: remark: clone 'clone' removed
        clone_1: "f32[2, 4][4, 1]cpu" = torch.ops.aten.clone.default(getitem_1);  getitem_1 = None
        # CHECK: :[[@LINE-1]]: remark: clone 'clone_1' kept [layout-changed]: storage offset 0 != 8
        unbind = torch.ops.aten.unbind.int(arg0_1, 1)
        getitem_2: "f32[6][4]cpu" = unbind[3];  unbind = None
        clone_2: "f32[6][1]cpu" = torch.ops.aten.clone.default(getitem_2);  getitem_2 = None
        # CHECK: :[[@LINE-1]]: remark: clone 'clone_2' kept [layout-changed]: strides [1] != [4]
        split_with_sizes = torch.ops.aten.split_with_sizes.default(arg0_1, [1, 5]);  arg0_1 = None
        getitem_3: "f32[5, 4][4, 1]cpu" = split_with_sizes[1];  split_with_sizes = None
        clone_3: "f32[5, 4][4, 1]cpu" = torch.ops.aten.clone.default(getitem_3);  getitem_3 = None
        # CHECK: :[[@LINE-1]]: remark: clone 'clone_3' kept [layout-changed]: storage offset 0 != 4
        auto_functionalized = torch.ops.higher_order.auto_functionalized(torch.ops._C.silu_and_mul.default, out = clone_3, input = clone)
        getitem_4: "f32[5, 4][4, 1]cpu" = auto_functionalized[1];  auto_functionalized = None
        clone_4: "f32[5, 4][4, 1]cpu" = torch.ops.aten.clone.default(getitem_4);  getitem_4 = None
        # CHECK: :[[@LINE-1]]: remark: clone 'clone_4' removed
        return (clone_1, clone_2, clone_4)
