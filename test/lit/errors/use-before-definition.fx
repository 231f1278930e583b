# A node used before the line that defines it: the message names that line.
# RUN: %expect-exit 2 %declone print %s 2>&1 | %FileCheck %s
# CHECK: use-before-definition.fx:6:57: error: 'relu' is used before it is defined (line 7)
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4][1]cpu"):
        mul: "f32[4][1]cpu" = torch.ops.aten.mul.Tensor(relu, arg0_1)
        relu: "f32[4][1]cpu" = torch.ops.aten.relu.default(arg0_1);  arg0_1 = None
        return (mul,)
