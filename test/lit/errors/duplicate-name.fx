# Two nodes with one name.
# RUN: %expect-exit 2 %declone print %s 2>&1 | %FileCheck %s
# CHECK: duplicate-name.fx:7:9: error: redefinition of 'relu'
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4][1]cpu"):
        relu: "f32[4][1]cpu" = torch.ops.aten.relu.default(arg0_1)
        relu: "f32[4][1]cpu" = torch.ops.aten.relu.default(arg0_1);  arg0_1 = None
        return (relu,)
