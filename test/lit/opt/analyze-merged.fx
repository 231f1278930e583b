# analyze shows the storages as the pass decided on them: once `clone` is removed, the view
# `view` is a view of graph input arg0_1, so clone_1's source storage is that input's, and the
# write to clone_1 keeps it (input-mutation). Before analyze rendered the pass's record it showed
# storage #1 of the removed clone, which is no graph input.
# RUN: %declone analyze %s | %FileCheck %s
# CHECK: clone clone (line [[#@LINE+18]])
# CHECK:   decision: {{.*}}clone 'clone' removed
# CHECK: clone clone_1 (line [[#@LINE+18]])
# CHECK-NEXT:   source:         view (line [[#@LINE+16]])
# CHECK-NEXT:   clone layout:   f32[2, 2][2, 1]cpu@0
# CHECK-NEXT:   source layout:  f32[2, 2][2, 1]cpu@0
# CHECK-NEXT:   clone storage:  #2, created by clone_1, returned
# CHECK-NEXT:       written by mul_ (line [[#@LINE+14]]) (as clone_1)
# CHECK-NEXT:       returned (as mul_)
# CHECK-NEXT:   source storage: #0, created by arg0_1, a graph input (not donated)
# CHECK-NEXT:       read by add (line [[#@LINE+12]]) (as arg0_1)
# CHECK-NEXT:   decision: {{.*}}clone 'clone_1' kept [input-mutation]: mul_ (line [[#@LINE+10]]) writes clone_1; view is a graph input that is not donated
# The same decisions as opt's:
# RUN: %declone opt %s --remarks 2>&1 >/dev/null | %FileCheck %s --check-prefix=OPT
# OPT: clone 'clone' removed
# OPT: clone 'clone_1' kept [input-mutation]: mul_ (line [[#@LINE+6]]) writes clone_1; view is a graph input that is not donated
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4][1]cpu"):
        clone: "f32[4][1]cpu" = torch.ops.aten.clone.default(arg0_1)
        view: "f32[2, 2][2, 1]cpu" = torch.ops.aten.view.default(clone, [2, 2]);  clone = None
        clone_1: "f32[2, 2][2, 1]cpu" = torch.ops.aten.clone.default(view);  view = None
        mul_: "f32[2, 2][2, 1]cpu" = torch.ops.aten.mul_.Tensor(clone_1, 2);  clone_1 = None
        add: "f32[4][1]cpu" = torch.ops.aten.add.Tensor(arg0_1, 1);  arg0_1 = None
        return (mul_, add)
