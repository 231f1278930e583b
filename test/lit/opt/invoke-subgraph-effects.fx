# A call of a nested subgraph (invoke_subgraph, wrap) has the effects its body has on its
# operands: what the body writes of its placeholders, and which of its outputs are fresh or
# alias an input. A body that only reads lets the clone it reads go; a body that writes its
# input makes the clone passed to it written (kept: its source is a graph input); a body that
# returns its input makes the call's result alias the operand (kept: the result is returned).
# `opt --verify` runs the bodies.
# RUN: %declone opt %s --remarks 2>&1 >/dev/null | %FileCheck %s
# RUN: %declone opt %s --verify > /dev/null
# analyze shows the decisions opt makes, from the same summaries of the bodies:
# RUN: %declone analyze %s | %FileCheck %s --check-prefix=ANALYZE
# ANALYZE: decision: {{.*}}clone 'clone' removed
# ANALYZE: decision: {{.*}}clone 'clone_1' kept [input-mutation]
# ANALYZE: decision: {{.*}}clone 'clone_2' kept [output-alias]
# Dropping clone_1 lets the body write graph input arg1_1:
# RUN: %expect-exit 1 %declone verify %s %S/../verify/Inputs/subgraph-write-clone-dropped.fx | %FileCheck %s --check-prefix=DROPPED
# DROPPED: subgraph-write-clone-dropped.fx: not equivalent to {{.*}}invoke-subgraph-effects.fx: input 1 (arg1_1): values differ {{.*}} after the call
class <lambda>(torch.nn.Module):
    def forward(self, arg0_1: "f32[8][1]cpu", arg1_1: "f32[8][1]cpu"):
        clone: "f32[8][1]cpu" = torch.ops.aten.clone.default(arg0_1)
        # CHECK: :[[@LINE-1]]: remark: clone 'clone' removed
        reads = self.reads
        invoke_subgraph = torch.ops.higher_order.invoke_subgraph(reads, 'reads', clone);  reads = clone = None
        getitem: "f32[8][1]cpu" = invoke_subgraph[0];  invoke_subgraph = None
        clone_1: "f32[8][1]cpu" = torch.ops.aten.clone.default(arg1_1);  arg1_1 = None
        # CHECK: :[[@LINE-1]]: remark: clone 'clone_1' kept [input-mutation]: invoke_subgraph_1 (line [[@LINE+2]]) writes clone_1; arg1_1 is a graph input that is not donated
        writes = self.writes
        invoke_subgraph_1 = torch.ops.higher_order.invoke_subgraph(writes, 'writes', clone_1);  writes = clone_1 = None
        getitem_1: "f32[8][1]cpu" = invoke_subgraph_1[0];  invoke_subgraph_1 = None
        clone_2: "f32[8][1]cpu" = torch.ops.aten.clone.default(arg0_1);  arg0_1 = None
        # CHECK: :[[@LINE-1]]: remark: clone 'clone_2' kept [output-alias]: clone_2 is returned and would alias graph input arg0_1
        returns_view = self.returns_view
        wrap = torch.ops.higher_order.wrap(returns_view, clone_2);  returns_view = clone_2 = None
        getitem_2: "f32[8][1]cpu" = wrap[0];  wrap = None
        return (getitem, getitem_1, getitem_2)

    class reads(torch.nn.Module):
        def forward(self, arg0_1: "f32[8][1]cpu"):
            mul: "f32[8][1]cpu" = torch.ops.aten.mul.Tensor(arg0_1, 2);  arg0_1 = None
            return (mul,)

    class writes(torch.nn.Module):
        def forward(self, arg0_1: "f32[8][1]cpu"):
            add_: "f32[8][1]cpu" = torch.ops.aten.add_.Tensor(arg0_1, 1);  arg0_1 = None
            return (add_,)

    class returns_view(torch.nn.Module):
        def forward(self, arg0_1: "f32[8][1]cpu"):
            view: "f32[8][1]cpu" = torch.ops.aten.view.default(arg0_1, [8]);  arg0_1 = None
            return (view,)

