# out= results, executed (issue 16, class 4): clone.out writes into and returns its out tensor,
# which starts 4 elements into empty; dropping the clone of it returns that offset. The safe
# mode keeps the clone (it knows the offset) and its rewrite verifies.
# RUN: %declone verify %s %s | %FileCheck %s --check-prefix=SAME
# SAME: equivalent (1 run)
# RUN: %expect-exit 1 %declone verify %s %S/Inputs/clone-out-clone-dropped.fx | %FileCheck %s --check-prefix=DROPPED
# DROPPED: not equivalent to {{.*}}out-overloads.fx: output 0: storage offset 4 != 0
# RUN: %declone opt %s --remarks --verify 2>&1 >/dev/null | %FileCheck %s --check-prefix=OPT
# OPT: remark: clone 'clone' kept [layout-changed]: storage offset 0 != 4
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[3, 4][4, 1]cpu"):
        empty: "f32[20][1]cpu" = torch.ops.aten.empty.memory_format([20], dtype = torch.float32, device = device(type='cpu'), pin_memory = False)
        slice_1: "f32[12][1]cpu" = torch.ops.aten.slice.Tensor(empty, 0, 4, 16)
        view: "f32[3, 4][4, 1]cpu" = torch.ops.aten.view.default(slice_1, [3, 4])
        clone_out: "f32[3, 4][4, 1]cpu" = torch.ops.aten.clone.out(arg0_1, out = view)
        clone: "f32[3, 4][4, 1]cpu" = torch.ops.aten.clone.default(clone_out)
        return (clone,)
