# A tensor annotation with an unclosed size list, and one with an unknown dtype.
# RUN: %expect-exit 2 %declone print %s 2>&1 | %FileCheck %s
# CHECK: malformed-annotation.fx:6:22: error: malformed annotation: unterminated '[' in annotation
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4][1]cpu"):
        relu: "f32[4][1" = torch.ops.aten.relu.default(arg0_1);  arg0_1 = None
        return (relu,)
