# A reference to a name nothing defines is reported where it is used, with exit status 2.
# RUN: %expect-exit 2 %declone print %s 2>&1 | %FileCheck %s
# CHECK: undefined-name.fx:7:57: error: use of undefined name 'weight'
# CHECK-NOT: Traceback
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4][1]cpu"):
        mul: "f32[4][1]cpu" = torch.ops.aten.mul.Tensor(weight, arg0_1);  arg0_1 = None
        return (mul,)
