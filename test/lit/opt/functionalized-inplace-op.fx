# auto_functionalized of an op that returns the argument it mutates (an in-place op such as
# `add_(Tensor(a!) self, ...) -> Tensor(a!)`) returns (result, copy) where the result is the copy
# itself: the two elements share memory. Taken as two fresh tensors, a write through the result
# went unseen by a clone of the copy; the call is unknown instead, and the clone stays.
# RUN: %declone opt %s --remarks 2>&1 >/dev/null | %FileCheck %s
# RUN: %declone opt %s --verify > /dev/null
# RUN: %expect-exit 1 %declone verify %s %S/../verify/Inputs/functionalized-inplace-clone-dropped.fx | %FileCheck %s --check-prefix=DROPPED
# DROPPED: functionalized-inplace-clone-dropped.fx: not equivalent to {{.*}}functionalized-inplace-op.fx: output 0: values differ
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4][1]cpu", arg1_1: "f32[4][1]cpu"):
        auto_functionalized = torch.ops.higher_order.auto_functionalized(torch.ops.aten.add_.Tensor, self = arg0_1, other = arg1_1);  arg0_1 = arg1_1 = None
        getitem: "f32[4][1]cpu" = auto_functionalized[0]
        getitem_1: "f32[4][1]cpu" = auto_functionalized[1];  auto_functionalized = None
        clone: "f32[4][1]cpu" = torch.ops.aten.clone.default(getitem_1);  getitem_1 = None
        # CHECK: :[[@LINE-1]]: remark: clone 'clone' kept [unknown-effects]: auto_functionalized (line [[@LINE-4]]) touches getitem_1: the op's result aliases the copy it mutates (an in-place or out= op)
        mul_: "f32[4][1]cpu" = torch.ops.aten.mul_.Tensor(getitem, 2);  getitem = None
        return (clone, mul_)
