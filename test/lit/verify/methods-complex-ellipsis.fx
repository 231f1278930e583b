# Method calls, op packets, complex literals and an Ellipsis index, executed: `clone.view(20)`
# (varargs sizes) is a view whose `add_` writes the clone, and `mul[(Ellipsis, 0)]`, a view of
# the clone's source, is returned: dropping `clone` changes output 1. clone_1's only writer is
# the packet `torch.ops.aten.add_` with a complex scalar, and its source is dead by then: the
# safe mode removes it, and the rewrite verifies.
# RUN: %declone verify %s %s --trials 2 | %FileCheck %s --check-prefix=SAME
# SAME: equivalent (2 runs)
# RUN: %expect-exit 1 %declone verify %s %S/Inputs/methods-complex-ellipsis-clone-dropped.fx | %FileCheck %s --check-prefix=DROPPED
# DROPPED: methods-complex-ellipsis-clone-dropped.fx: not equivalent to {{.*}}methods-complex-ellipsis.fx: output 1: values differ
# RUN: %declone opt %s --remarks --verify 2>&1 >/dev/null | %FileCheck %s --check-prefix=OPT
# OPT: remark: clone 'clone' kept [source-read-after-write]: add_ (line {{[0-9]+}}) writes view, then getitem is returned
# OPT: remark: clone 'clone_1' removed
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4, 5][5, 1]cpu", arg1_1: "c64[4, 5][5, 1]cpu"):
        mul: "f32[4, 5][5, 1]cpu" = torch.ops.aten.mul.Tensor(arg0_1, 2);  arg0_1 = None
        clone: "f32[4, 5][5, 1]cpu" = torch.ops.aten.clone.default(mul)
        view: "f32[20][1]cpu" = clone.view(20)
        add_: "f32[20][1]cpu" = view.add_(1);  view = add_ = None
        getitem: "f32[4][5]cpu" = mul[(Ellipsis, 0)];  mul = None
        mul_1: "c64[4, 5][5, 1]cpu" = torch.ops.aten.mul.Tensor(arg1_1, (1+2j));  arg1_1 = None
        clone_1: "c64[4, 5][5, 1]cpu" = torch.ops.aten.clone.default(mul_1);  mul_1 = None
        add__1: "c64[4, 5][5, 1]cpu" = torch.ops.aten.add_(clone_1, (0.5-1j));  clone_1 = None
        sum_1: "c64[][]cpu" = add__1.sum()
        return (clone, getitem, add__1, sum_1)
