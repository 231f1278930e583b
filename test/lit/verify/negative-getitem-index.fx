# Negative getitem indices, executed: the verifier runs max_1[-2], unbind_copy[-1] and
# split_with_sizes[-1] as Python does (from the end), and dropping each clone whose source is
# that element, as the analyses once did, changes the result: a write through max_1[-2] or
# unbind_copy[5] reaches the clone's source, and split_with_sizes[-1] starts 4 elements into
# mul. The safe mode keeps all three, and its rewrite verifies.
# RUN: %declone verify %s %s --trials 2 | %FileCheck %s --check-prefix=SAME
# SAME: equivalent (2 runs)
# RUN: %expect-exit 1 %declone verify %s %S/Inputs/negative-tuple-index-clone-dropped.fx | %FileCheck %s --check-prefix=TUPLE
# TUPLE: negative-tuple-index-clone-dropped.fx: not equivalent to {{.*}}negative-getitem-index.fx: output 0: values differ
# RUN: %expect-exit 1 %declone verify %s %S/Inputs/negative-list-index-clone-dropped.fx | %FileCheck %s --check-prefix=LIST
# LIST: negative-list-index-clone-dropped.fx: not equivalent to {{.*}}negative-getitem-index.fx: output 2: values differ
# RUN: %expect-exit 1 %declone verify %s %S/Inputs/negative-split-index-clone-dropped.fx | %FileCheck %s --check-prefix=SPLIT
# SPLIT: negative-split-index-clone-dropped.fx: not equivalent to {{.*}}negative-getitem-index.fx: output 4: storage offset 4 != 0
# RUN: %declone opt %s --remarks --verify 2>&1 >/dev/null | %FileCheck %s --check-prefix=OPT
# OPT: remark: clone 'clone' kept [clone-read-after-source-write]
# OPT: remark: clone 'clone_1' kept [clone-read-after-source-write]
# OPT: remark: clone 'clone_2' kept [layout-changed]: storage offset 0 != 4
# RUN: %declone opt %S/../opt/negative-getitem-index.fx --verify > /dev/null
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4, 5][5, 1]cpu", arg1_1: "f32[6, 4][4, 1]cpu"):
        max_1 = torch.ops.aten.max.dim(arg0_1, 1);  arg0_1 = None
        getitem: "f32[4][1]cpu" = max_1[0]
        getitem_1: "f32[4][1]cpu" = max_1[-2];  max_1 = None
        clone: "f32[4][1]cpu" = torch.ops.aten.clone.default(getitem);  getitem = None
        add_: "f32[4][1]cpu" = torch.ops.aten.add_.Tensor(getitem_1, 1);  getitem_1 = None
        unbind_copy = torch.ops.aten.unbind_copy.int(arg1_1)
        getitem_2: "f32[4][1]cpu" = unbind_copy[-1]
        clone_1: "f32[4][1]cpu" = torch.ops.aten.clone.default(getitem_2);  getitem_2 = None
        getitem_3: "f32[4][1]cpu" = unbind_copy[5];  unbind_copy = None
        sub_: "f32[4][1]cpu" = torch.ops.aten.sub_.Tensor(getitem_3, 1);  getitem_3 = None
        mul: "f32[6, 4][4, 1]cpu" = torch.ops.aten.mul.Tensor(arg1_1, 2);  arg1_1 = None
        split_with_sizes = torch.ops.aten.split_with_sizes.default(mul, [1, 5]);  mul = None
        getitem_4: "f32[5, 4][4, 1]cpu" = split_with_sizes[-1];  split_with_sizes = None
        clone_2: "f32[5, 4][4, 1]cpu" = torch.ops.aten.clone.default(getitem_4);  getitem_4 = None
        return (clone, add_, clone_1, sub_, clone_2)
