# A subgraph's inputs may be one tensor passed twice (here mul, as arg0_1 and arg2_1): its
# write-back proves nothing about reads of the other input in between (found by the adversarial
# review: before, the rewrite did not verify).
# RUN: %declone opt %s --defunctionalize --remarks --verify -o %t.fx 2>&1 | %FileCheck %s
# CHECK: copy of 'result' in 'auto_functionalized' kept [input-mutation]: arg0_1 is a graph input that is not donated; copy_ (line {{[0-9]+}}) writes arg0_1
class <lambda>(torch.nn.Module):
    def forward(self, arg0_1: "f32[4, 8][8, 1]cpu", arg1_1: "f32[8][1]cpu"):
        mul: "f32[4, 8][8, 1]cpu" = torch.ops.aten.mul.Tensor(arg0_1, 2)
        body = self.body
        invoke_subgraph = torch.ops.higher_order.invoke_subgraph(body, 'body', mul, mul, arg1_1)
        getitem: "f32[4, 8][8, 1]cpu" = invoke_subgraph[0]
        return (getitem,)

    class body(torch.nn.Module):
        def forward(self, arg0_1: "f32[4, 8][8, 1]cpu", arg2_1: "f32[4, 8][8, 1]cpu", arg1_1: "f32[8][1]cpu"):
            auto_functionalized = torch.ops.higher_order.auto_functionalized(torch.ops._C.rms_norm.default, result = arg0_1, input = arg1_1, weight = arg1_1, epsilon = 1e-06)
            getitem_1: "f32[4, 8][8, 1]cpu" = auto_functionalized[1]
            neg: "f32[4, 8][8, 1]cpu" = torch.ops.aten.neg.default(arg2_1)
            copy_: "f32[4, 8][8, 1]cpu" = torch.ops.aten.copy_.default(arg0_1, getitem_1)
            return (neg,)
