# Chains of clones collapse in one run, several clones of one input are each decided, dead
# clones are removed, and a second run changes nothing (the pass is idempotent).
# RUN: %declone opt %s --remarks 2>&1 >/dev/null | %FileCheck %s --check-prefix=REMARK
# RUN: %declone opt %s > %t.once
# RUN: %declone opt %t.once > %t.twice
# RUN: diff %t.once %t.twice
# RUN: %declone opt %t.once --remarks 2>&1 >/dev/null | %FileCheck %s --check-prefix=SECOND
# RUN: %FileCheck %s --check-prefix=OUT < %t.once
# SECOND: remark: clone 'clone_3' kept [source-read-after-write]
# SECOND-NOT: removed
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4][1]cpu"):
        relu: "f32[4][1]cpu" = torch.ops.aten.relu.default(arg0_1);  arg0_1 = None
        clone: "f32[4][1]cpu" = torch.ops.aten.clone.default(relu)
        # REMARK: :[[@LINE-1]]: remark: clone 'clone' removed
        clone_1: "f32[4][1]cpu" = torch.ops.aten.clone.default(clone)
        # REMARK: :[[@LINE-1]]: remark: clone 'clone_1' removed
        clone_2: "f32[4][1]cpu" = torch.ops.aten.clone.default(clone_1)
        # REMARK: :[[@LINE-1]]: remark: clone 'clone_2' removed: no users
        sin: "f32[4][1]cpu" = torch.ops.aten.sin.default(clone_1)
        clone_3: "f32[4][1]cpu" = torch.ops.aten.clone.default(relu)
        # REMARK: :[[@LINE-1]]: remark: clone 'clone_3' kept [source-read-after-write]: add_ (line [[@LINE+1]]) writes clone_3, then cos (line [[@LINE+2]]) reads relu
        add_: "f32[4][1]cpu" = torch.ops.aten.add_.Tensor(clone_3, 1);  add_ = None
        cos: "f32[4][1]cpu" = torch.ops.aten.cos.default(relu);  relu = None
        return (sin, cos, clone_3)
# OUT: {{^}}        sin: "f32[4][1]cpu" = torch.ops.aten.sin.default(relu)
