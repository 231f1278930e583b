# The Mamba case: dropping the clone of x[:, :3].contiguous() hands the caller strides (5, 1)
# where the original returned (3, 1). verify names the difference and exits 1; the identical
# pair exits 0.
# RUN: %expect-exit 1 %declone verify %s %S/Inputs/mamba-clone-dropped.fx | %FileCheck %s
# CHECK: mamba-clone-dropped.fx: not equivalent to {{.*}}mamba-layout.fx: output 0: stride (5, 1) != (3, 1)
# RUN: %declone verify %s %s --trials 3 | %FileCheck %s --check-prefix=SAME
# SAME: equivalent (3 runs)
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4, 5][5, 1]cpu"):
        slice_1: "f32[4, 3][5, 1]cpu" = torch.ops.aten.slice.Tensor(arg0_1, 1, 0, 3);  arg0_1 = None
        clone: "f32[4, 3][3, 1]cpu" = torch.ops.aten.clone.default(slice_1, memory_format = torch.contiguous_format);  slice_1 = None
        return (clone,)
