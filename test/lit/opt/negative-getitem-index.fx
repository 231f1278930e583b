# Python's negative getitem indices count from the end: max.dim's tuple has two values, so
# max_1[-2] is max_1[0]; a negative index into a list of fresh tensors (unbind_copy,
# auto_functionalized's copies) may be any element; the split ops' views start where the
# element counted from the end does. A write through one index reaches the element the other
# names, so the safe mode keeps each clone below; a layout that starts partway into its input
# differs from its clone's.
# RUN: %declone opt %s --remarks 2>&1 >/dev/null | %FileCheck %s --implicit-check-not=removed
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4, 5][5, 1]cpu", arg1_1: "f32[6, 4][4, 1]cpu"):
        max_1 = torch.ops.aten.max.dim(arg0_1, 1)
        getitem: "f32[4][1]cpu" = max_1[0]
        getitem_1: "i64[4][1]cpu" = max_1[1]
        getitem_2: "f32[4][1]cpu" = max_1[-2];  max_1 = None
        clone: "f32[4][1]cpu" = torch.ops.aten.clone.default(getitem);  getitem = None
        # A write through max_1[-2] reaches the clone's source max_1[0].
        # CHECK: :[[@LINE-2]]: remark: clone 'clone' kept [clone-read-after-source-write]: add_ (line [[@LINE+1]]) writes getitem_2 after the clone, then clone is returned
        add_: "f32[4][1]cpu" = torch.ops.aten.add_.Tensor(getitem_2, 1);  getitem_2 = None
        max_2 = torch.ops.aten.max.dim(arg0_1, 0);  arg0_1 = None
        getitem_3: "f32[5][1]cpu" = max_2[-2]
        clone_1: "f32[5][1]cpu" = torch.ops.aten.clone.default(getitem_3);  getitem_3 = None
        # The other way round: the clone's source is max_2[-2], written through max_2[0].
        # CHECK: :[[@LINE-2]]: remark: clone 'clone_1' kept [clone-read-after-source-write]: mul_ (line [[@LINE+2]]) writes getitem_4 after the clone, then clone_1 is returned
        getitem_4: "f32[5][1]cpu" = max_2[0];  max_2 = None
        mul_: "f32[5][1]cpu" = torch.ops.aten.mul_.Tensor(getitem_4, 2);  getitem_4 = None
        unbind_copy = torch.ops.aten.unbind_copy.int(arg1_1)
        getitem_5: "f32[4][1]cpu" = unbind_copy[-1]
        clone_2: "f32[4][1]cpu" = torch.ops.aten.clone.default(getitem_5);  getitem_5 = None
        # unbind_copy[-1] of a list whose length the analysis does not know: it may be [5].
        # CHECK: :[[@LINE-2]]: remark: clone 'clone_2' kept [clone-read-after-source-write]: sub_ (line [[@LINE+2]]) writes getitem_6 after the clone, then clone_2 is returned
        getitem_6: "f32[4][1]cpu" = unbind_copy[5];  unbind_copy = None
        sub_: "f32[4][1]cpu" = torch.ops.aten.sub_.Tensor(getitem_6, 1);  getitem_6 = None
        mul: "f32[6, 4][4, 1]cpu" = torch.ops.aten.mul.Tensor(arg1_1, 2)
        split_with_sizes = torch.ops.aten.split_with_sizes.default(mul, [1, 5])
        getitem_7: "f32[5, 4][4, 1]cpu" = split_with_sizes[-1];  split_with_sizes = None
        clone_3: "f32[5, 4][4, 1]cpu" = torch.ops.aten.clone.default(getitem_7);  getitem_7 = None
        # split_with_sizes(mul, [1, 5])[-1] starts one row (4 elements) into mul.
        # CHECK: :[[@LINE-2]]: remark: clone 'clone_3' kept [layout-changed]: storage offset 0 != 4
        split = torch.ops.aten.split.Tensor(mul, 4)
        getitem_8: "f32[2, 4][4, 1]cpu" = split[-1];  split = None
        clone_4: "f32[2, 4][4, 1]cpu" = torch.ops.aten.clone.default(getitem_8);  getitem_8 = None
        # split(mul, 4) makes pieces of 4 and 2 rows: [-1] starts 4 rows in.
        # CHECK: :[[@LINE-2]]: remark: clone 'clone_4' kept [layout-changed]: storage offset 0 != 16
        chunk = torch.ops.aten.chunk.default(mul, 4)
        getitem_9: "f32[2, 4][4, 1]cpu" = chunk[-1];  chunk = None
        clone_5: "f32[2, 4][4, 1]cpu" = torch.ops.aten.clone.default(getitem_9);  getitem_9 = None
        # chunk(mul, 4) of 6 rows makes only three pieces of 2: [-1] is [2], 4 rows in.
        # CHECK: :[[@LINE-2]]: remark: clone 'clone_5' kept [layout-changed]: storage offset 0 != 16
        unbind = torch.ops.aten.unbind.int(mul)
        getitem_10: "f32[4][1]cpu" = unbind[-1];  unbind = None
        clone_6: "f32[4][1]cpu" = torch.ops.aten.clone.default(getitem_10);  getitem_10 = None
        # unbind(mul)[-1] is row 5.
        # CHECK: :[[@LINE-2]]: remark: clone 'clone_6' kept [layout-changed]: storage offset 0 != 20
        mul_1: "f32[6, 4][4, 1]cpu" = torch.ops.aten.mul.Tensor(arg1_1, 3);  arg1_1 = None
        auto_functionalized = torch.ops.higher_order.auto_functionalized(torch.ops._C.silu_and_mul.default, out = mul_1, input = mul);  mul_1 = mul = None
        getitem_11: "f32[6, 4][4, 1]cpu" = auto_functionalized[1]
        getitem_12: "f32[6, 4][4, 1]cpu" = auto_functionalized[-1];  auto_functionalized = None
        clone_7: "f32[6, 4][4, 1]cpu" = torch.ops.aten.clone.default(getitem_12);  getitem_12 = None
        # auto_functionalized[-1] may be [1], which add__1 writes.
        # CHECK: :[[@LINE-2]]: remark: clone 'clone_7' kept [clone-read-after-source-write]: add__1 (line [[@LINE+1]]) writes getitem_11 after the clone, then clone_7 is returned
        add__1: "f32[6, 4][4, 1]cpu" = torch.ops.aten.add_.Tensor(getitem_11, 1);  getitem_11 = None
        return (clone, add_, getitem_1, clone_1, clone_2, clone_3, clone_4, clone_5, clone_6, clone_7)
