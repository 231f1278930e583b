# A graph without clones is written back unchanged, with no remarks.
# RUN: %declone opt %s --remarks 2>%t.remarks | diff %s -
# RUN: not grep . %t.remarks
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4][1]cpu"):
        relu: "f32[4][1]cpu" = torch.ops.aten.relu.default(arg0_1);  arg0_1 = None
        return (relu,)
