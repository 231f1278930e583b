# A graph input written by two calls in a row and written back from the second's result: the
# first call is freed only once the second is rewritten, in a second round (the property test
# found the pass not idempotent before rounds).
# RUN: %declone opt %s --defunctionalize --remarks --verify -o %t.fx 2>&1 | %FileCheck %s
# RUN: %declone opt %t.fx --defunctionalize --remarks 2>&1 >/dev/null | %FileCheck %s --check-prefix=AGAIN --allow-empty
# CHECK: copy of 'result' in 'auto_functionalized' removed: written in place: arg0_1
# CHECK: copy of 'result' in 'auto_functionalized_1' removed: written in place: getitem_1
# AGAIN-NOT: remark
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4, 8][8, 1]cpu", arg1_1: "f32[8][1]cpu", arg2_1: "f32[4, 8][8, 1]cpu"):
        auto_functionalized = torch.ops.higher_order.auto_functionalized(torch.ops._C.rms_norm.default, result = arg0_1, input = arg2_1, weight = arg1_1, epsilon = 1e-06)
        getitem_1: "f32[4, 8][8, 1]cpu" = auto_functionalized[1]
        auto_functionalized_1 = torch.ops.higher_order.auto_functionalized(torch.ops._C.rms_norm.default, result = getitem_1, input = arg2_1, weight = arg1_1, epsilon = 1e-06)
        getitem_3: "f32[4, 8][8, 1]cpu" = auto_functionalized_1[1]
        copy_: "f32[4, 8][8, 1]cpu" = torch.ops.aten.copy_.default(arg0_1, getitem_3)
        return ()
