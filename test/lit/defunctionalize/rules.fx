# Each rule of DESIGN.md section 4b decides one call here; every rewrite runs as the original.
# RUN: %declone opt %s --defunctionalize --remarks --verify -o %t.fx 2>&1 | %FileCheck %s
# RUN: %FileCheck %s --check-prefix=GRAPH < %t.fx
# An intermediate nobody reads after the call is written in place.
# CHECK: rules.fx:{{[0-9]+}}: remark: copy of 'result' in 'auto_functionalized' removed: written in place: empty
# A graph input that is not donated, and not written back, keeps its copy.
# CHECK: rules.fx:{{[0-9]+}}: remark: copy of 'result' in 'auto_functionalized_1' kept [input-mutation]: arg2_1 is a graph input that is not donated
# AOTAutograd's write-back of the result makes the write in place harmless.
# CHECK: rules.fx:{{[0-9]+}}: remark: copy of 'result' in 'auto_functionalized_2' removed: written in place: arg3_1
# The op would read the tensor it writes.
# CHECK: rules.fx:{{[0-9]+}}: remark: copy of 'result' in 'auto_functionalized_3' kept [argument-overlap]: the call also passes mul as 'input', which is mul
# The old contents are read after the call.
# CHECK: rules.fx:{{[0-9]+}}: remark: copy of 'result' in 'auto_functionalized_4' kept [source-read-after-write]: sub (line {{[0-9]+}}) reads neg after the call
# One copy that must stay keeps the call, and the other copy with it.
# CHECK: rules.fx:{{[0-9]+}}: remark: copy of 'input' in 'auto_functionalized_5' kept [call-kept]: the copy of 'residual' must stay [input-mutation]
# CHECK: rules.fx:{{[0-9]+}}: remark: copy of 'residual' in 'auto_functionalized_5' kept [input-mutation]
# A copy returned would alias the graph input it was written back to.
# CHECK: rules.fx:{{[0-9]+}}: remark: copy of 'result' in 'auto_functionalized_6' kept [output-alias]: its copy is returned and would alias graph input arg4_1
# A write to the input after its write-back would reach the copy too.
# CHECK: rules.fx:{{[0-9]+}}: remark: copy of 'result' in 'auto_functionalized_7' kept [source-read-after-write]: add_ (line {{[0-9]+}}) writes arg5_1 after the write-back copy__2 (line {{[0-9]+}})
# GRAPH: rms_norm = torch.ops._C.rms_norm.default(result = empty, input = relu, weight = arg1_1, epsilon = 1e-06)
# GRAPH: auto_functionalized_1 = torch.ops.higher_order.auto_functionalized(torch.ops._C.rms_norm.default, result = arg2_1, input = empty,
# GRAPH: rms_norm_1 = torch.ops._C.rms_norm.default(result = arg3_1, input = getitem_3,
# GRAPH: add: "f32[4, 8][8, 1]cpu" = torch.ops.aten.add.Tensor(arg3_1, relu)
# GRAPH: copy_ = torch.ops.aten.copy_.default(arg3_1, arg3_1)
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4, 8][8, 1]cpu", arg1_1: "f32[8][1]cpu", arg2_1: "f32[4, 8][8, 1]cpu", arg3_1: "f32[4, 8][8, 1]cpu", arg4_1: "f32[4, 8][8, 1]cpu", arg5_1: "f32[4, 8][8, 1]cpu"):
        relu: "f32[4, 8][8, 1]cpu" = torch.ops.aten.relu.default(arg0_1)
        empty: "f32[4, 8][8, 1]cpu" = torch.ops.aten.empty.memory_format([4, 8], dtype = torch.float32, device = device(type='cpu'), pin_memory = False)
        auto_functionalized = torch.ops.higher_order.auto_functionalized(torch.ops._C.rms_norm.default, result = empty, input = relu, weight = arg1_1, epsilon = 1e-06)
        getitem_1: "f32[4, 8][8, 1]cpu" = auto_functionalized[1]
        auto_functionalized_1 = torch.ops.higher_order.auto_functionalized(torch.ops._C.rms_norm.default, result = arg2_1, input = getitem_1, weight = arg1_1, epsilon = 1e-06)
        getitem_3: "f32[4, 8][8, 1]cpu" = auto_functionalized_1[1]
        auto_functionalized_2 = torch.ops.higher_order.auto_functionalized(torch.ops._C.rms_norm.default, result = arg3_1, input = getitem_3, weight = arg1_1, epsilon = 1e-06)
        getitem_5: "f32[4, 8][8, 1]cpu" = auto_functionalized_2[1]
        add: "f32[4, 8][8, 1]cpu" = torch.ops.aten.add.Tensor(getitem_5, relu)
        mul: "f32[4, 8][8, 1]cpu" = torch.ops.aten.mul.Tensor(arg0_1, 2)
        auto_functionalized_3 = torch.ops.higher_order.auto_functionalized(torch.ops._C.rms_norm.default, result = mul, input = mul, weight = arg1_1, epsilon = 1e-06)
        getitem_7: "f32[4, 8][8, 1]cpu" = auto_functionalized_3[1]
        neg: "f32[4, 8][8, 1]cpu" = torch.ops.aten.neg.default(arg0_1)
        auto_functionalized_4 = torch.ops.higher_order.auto_functionalized(torch.ops._C.rms_norm.default, result = neg, input = add, weight = arg1_1, epsilon = 1e-06)
        getitem_9: "f32[4, 8][8, 1]cpu" = auto_functionalized_4[1]
        sub: "f32[4, 8][8, 1]cpu" = torch.ops.aten.sub.Tensor(getitem_9, neg)
        sigmoid: "f32[4, 8][8, 1]cpu" = torch.ops.aten.sigmoid.default(arg0_1)
        auto_functionalized_5 = torch.ops.higher_order.auto_functionalized(torch.ops._C.fused_add_rms_norm.default, input = sigmoid, residual = arg0_1, weight = arg1_1, epsilon = 1e-06)
        getitem_11: "f32[4, 8][8, 1]cpu" = auto_functionalized_5[1]
        getitem_12: "f32[4, 8][8, 1]cpu" = auto_functionalized_5[2]
        auto_functionalized_6 = torch.ops.higher_order.auto_functionalized(torch.ops._C.rms_norm.default, result = arg4_1, input = sub, weight = arg1_1, epsilon = 1e-06)
        getitem_14: "f32[4, 8][8, 1]cpu" = auto_functionalized_6[1]
        auto_functionalized_7 = torch.ops.higher_order.auto_functionalized(torch.ops._C.rms_norm.default, result = arg5_1, input = sub, weight = arg1_1, epsilon = 1e-06)
        getitem_16: "f32[4, 8][8, 1]cpu" = auto_functionalized_7[1]
        copy_: "f32[4, 8][8, 1]cpu" = torch.ops.aten.copy_.default(arg3_1, getitem_5)
        copy__1: "f32[4, 8][8, 1]cpu" = torch.ops.aten.copy_.default(arg4_1, getitem_14)
        copy__2: "f32[4, 8][8, 1]cpu" = torch.ops.aten.copy_.default(arg5_1, getitem_16)
        add_: "f32[4, 8][8, 1]cpu" = torch.ops.aten.add_.Tensor(arg5_1, 1)
        mul_1: "f32[4, 8][8, 1]cpu" = torch.ops.aten.mul.Tensor(getitem_16, 2)
        return (getitem_1, add, getitem_7, sub, getitem_11, getitem_12, getitem_14, mul_1)
