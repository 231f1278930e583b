# A clone that nothing writes, of a value that nothing writes, is removed in both modes; its
# users read the source and the free lists are recomputed.
# RUN: %declone opt %s --remarks 2>&1 >/dev/null | %FileCheck %s --check-prefix=REMARK
# RUN: %declone opt %s --remarks --mode vllm 2>&1 >/dev/null | %FileCheck %s --check-prefix=REMARK
# RUN: %declone opt %s | %FileCheck %s --check-prefix=OUT
# REMARK: read-only-clone.fx:12: remark: clone 'clone' removed
# OUT-NOT: = torch.ops.aten.{{clone}}
# OUT: {{^}}        relu: "f32[4, 8][8, 1]cpu" = torch.ops.aten.relu.default(arg0_1);  arg0_1 = None
# OUT: {{^}}        return (relu,)
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4, 8][8, 1]cpu"):
        clone: "f32[4, 8][8, 1]cpu" = torch.ops.aten.clone.default(arg0_1);  arg0_1 = None
        relu: "f32[4, 8][8, 1]cpu" = torch.ops.aten.relu.default(clone);  clone = None
        return (relu,)
