# cond(pred, true_graph, false_graph, (operands...)) runs one of two bodies on the operands:
# it writes what either body writes, and an output is fresh (or an operand's view) only when
# both bodies say so. Both bodies only read clone's copy: it goes. One body writes its operand:
# clone_1 is kept, its source is a graph input. One body returns its operand and the other a
# fresh tensor: the result may be a view of mul, which is returned too (clone_2 kept).
# `opt --verify` runs the bodies (the predicate, a sum of absolute values, is true).
# RUN: %declone opt %s --remarks 2>&1 >/dev/null | %FileCheck %s
# RUN: %declone opt %s --verify > /dev/null
# Dropping clone_1 lets the taken body write graph input arg1_1:
# RUN: %expect-exit 1 %declone verify %s %S/../verify/Inputs/cond-write-clone-dropped.fx | %FileCheck %s --check-prefix=DROPPED
# DROPPED: cond-write-clone-dropped.fx: not equivalent to {{.*}}cond-effects.fx: input 1 (arg1_1): values differ {{.*}} after the call
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[8][1]cpu", arg1_1: "f32[8][1]cpu"):
        abs_1: "f32[8][1]cpu" = torch.ops.aten.abs.default(arg0_1)
        sum_1: "f32[][]cpu" = torch.ops.aten.sum.default(abs_1);  abs_1 = None
        ge: "b8[][]cpu" = torch.ops.aten.ge.Scalar(sum_1, 0);  sum_1 = None
        clone: "f32[8][1]cpu" = torch.ops.aten.clone.default(arg0_1)
        # CHECK: :[[@LINE-1]]: remark: clone 'clone' removed
        true_graph_0 = self.true_graph_0
        false_graph_0 = self.false_graph_0
        cond = torch.ops.higher_order.cond(ge, true_graph_0, false_graph_0, (clone,));  true_graph_0 = false_graph_0 = clone = None
        getitem: "f32[8][1]cpu" = cond[0];  cond = None
        clone_1: "f32[8][1]cpu" = torch.ops.aten.clone.default(arg1_1);  arg1_1 = None
        # CHECK: :[[@LINE-1]]: remark: clone 'clone_1' kept [input-mutation]: cond_1 (line [[@LINE+3]]) writes clone_1; arg1_1 is a graph input that is not donated
        true_graph_1 = self.true_graph_1
        false_graph_1 = self.false_graph_1
        cond_1 = torch.ops.higher_order.cond(ge, true_graph_1, false_graph_1, (clone_1,));  true_graph_1 = false_graph_1 = clone_1 = None
        getitem_1: "f32[8][1]cpu" = cond_1[0];  cond_1 = None
        mul: "f32[8][1]cpu" = torch.ops.aten.mul.Tensor(arg0_1, 3);  arg0_1 = None
        clone_2: "f32[8][1]cpu" = torch.ops.aten.clone.default(mul)
        # CHECK: :[[@LINE-1]]: remark: clone 'clone_2' kept [output-alias]
        true_graph_2 = self.true_graph_2
        false_graph_2 = self.false_graph_2
        cond_2 = torch.ops.higher_order.cond(ge, true_graph_2, false_graph_2, (clone_2,));  ge = true_graph_2 = false_graph_2 = clone_2 = None
        getitem_2: "f32[8][1]cpu" = cond_2[0];  cond_2 = None
        return (getitem, getitem_1, getitem_2, mul)

    class true_graph_0(torch.nn.Module):
        def forward(self, arg0_1: "f32[8][1]cpu"):
            cos: "f32[8][1]cpu" = torch.ops.aten.cos.default(arg0_1);  arg0_1 = None
            return (cos,)

    class false_graph_0(torch.nn.Module):
        def forward(self, arg0_1: "f32[8][1]cpu"):
            sin: "f32[8][1]cpu" = torch.ops.aten.sin.default(arg0_1);  arg0_1 = None
            return (sin,)

    class true_graph_1(torch.nn.Module):
        def forward(self, arg0_1: "f32[8][1]cpu"):
            add_: "f32[8][1]cpu" = torch.ops.aten.add_.Tensor(arg0_1, 1);  arg0_1 = None
            return (add_,)

    class false_graph_1(torch.nn.Module):
        def forward(self, arg0_1: "f32[8][1]cpu"):
            sin: "f32[8][1]cpu" = torch.ops.aten.sin.default(arg0_1);  arg0_1 = None
            return (sin,)

    class true_graph_2(torch.nn.Module):
        def forward(self, arg0_1: "f32[8][1]cpu"):
            view: "f32[8][1]cpu" = torch.ops.aten.view.default(arg0_1, [8]);  arg0_1 = None
            return (view,)

    class false_graph_2(torch.nn.Module):
        def forward(self, arg0_1: "f32[8][1]cpu"):
            sin: "f32[8][1]cpu" = torch.ops.aten.sin.default(arg0_1);  arg0_1 = None
            return (sin,)
