# In the vllm modes analyze shows the graph as given (vLLM decides without storages): clone_1's
# source is clone, whose storage mul reads after the write the decision names, even though
# removing clone has made arg0_1 clone_1's input by then. A clone whose input is passed by
# keyword has its own layout and storage shown, and no source.
# RUN: %declone analyze %s --mode vllm | %FileCheck %s
# CHECK: clone clone_1 (line [[#@LINE+15]])
# CHECK-NEXT:   source:         clone (line [[#@LINE+13]])
# CHECK:   source storage: #1, created by clone
# CHECK-NEXT:       read by mul (line [[#@LINE+14]]) (as clone)
# CHECK-NEXT:   decision: {{.*}}clone 'clone_1' kept [source-read-after-write]: add_ (line [[#@LINE+12]]) writes clone_1, then mul (line [[#@LINE+13]]) uses arg0_1 (vLLM 0.33.0's decision)
# RUN: %declone analyze %s | %FileCheck %s --check-prefix=SAFE
# SAFE: clone clone_2 (line [[#@LINE+12]])
# SAFE-NEXT:   source:         none (the clone has no positional input)
# SAFE-NEXT:   clone layout:   f32[4][1]cpu@0
# SAFE-NEXT:   source layout:
# SAFE-NEXT:   clone storage:  #{{[0-9]+}}, created by clone_2, returned
# SAFE:   decision: {{.*}}clone 'clone_2' kept [unknown-effects]: the clone has no positional input
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4][1]cpu"):
        clone: "f32[4][1]cpu" = torch.ops.aten.clone.default(arg0_1)
        clone_1: "f32[4][1]cpu" = torch.ops.aten.clone.default(clone)
        add_: "f32[4][1]cpu" = torch.ops.aten.add_.Tensor(clone_1, 1)
        mul: "f32[4][1]cpu" = torch.ops.aten.mul.Tensor(clone, 2)
        clone_2: "f32[4][1]cpu" = torch.ops.aten.clone.default(self = mul)
        return (add_, mul, clone_2)
