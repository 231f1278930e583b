# An annotation whose closing quote is missing, and one whose bracket is not closed.
# RUN: %expect-exit 2 %declone print %s 2>&1 | %FileCheck %s
# CHECK: unterminated-annotation.fx:6:15: error: unterminated string
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4][1]cpu"):
        relu: "f32[4][1]cpu = torch.ops.aten.relu.default(arg0_1);  arg0_1 = None
        return (relu,)
