# Regression (found by fuzz.opt): a getitem whose container is not a node (`False[1]`) or that
# has no arguments at all made the alias and layout analyses read a node that is not there. Such
# a getitem is an op of unknown effects; the clones around it are still decided, in both modes,
# and analyze and --dot draw the graph.
# RUN: %declone opt %s --remarks 2>&1 >/dev/null | %FileCheck %s
# RUN: %declone opt %s --mode vllm --remarks 2>&1 >/dev/null | %FileCheck %s --check-prefix=VLLM
# RUN: %declone analyze %s --dot %t.dot | %FileCheck %s --check-prefix=ANALYZE
# RUN: %FileCheck %s --check-prefix=DOT < %t.dot
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[2, 8][8, 1]cpu"):
        getitem: "f32[8][1]cpu" = False[1]
        getitem_1 = operator.getitem()
        clone: "f32[2, 8][8, 1]cpu" = torch.ops.aten.clone.default(arg0_1)
        # CHECK: :[[@LINE-1]]: remark: clone 'clone' removed
        # VLLM: :[[@LINE-2]]: remark: clone 'clone' removed
        mul: "f32[2, 8][8, 1]cpu" = torch.ops.aten.mul.Tensor(clone, 2);  clone = None
        return (mul, getitem, getitem_1)
# ANALYZE: clone clone (line
# ANALYZE: decision: {{.*}} removed
# DOT: digraph
