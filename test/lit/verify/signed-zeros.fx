# Signed zeros, executed (issue 29, bug 5): 0 and -0 are equal within any tolerance, but signbit,
# 1/x and atan2 tell them apart, so a rewrite that turns one into the other is a difference, in
# every floating dtype and in either part of a complex number; x * -0.0 is -0 where x > 0. NaNs
# are equal whatever their sign or payload (kernels do not promise one).
# RUN: %declone verify %s %s | %FileCheck %s --check-prefix=SAME
# SAME: equivalent (1 run)
# RUN: %expect-exit 1 %declone verify %s %S/Inputs/signed-zero-f32.fx | %FileCheck %s --check-prefix=F32
# F32: not equivalent to {{.*}}signed-zeros.fx: output 0: values differ (0 != -0 at flat index 0)
# RUN: %expect-exit 1 %declone verify %s %S/Inputs/signed-zero-f64.fx | %FileCheck %s --check-prefix=F64
# F64: not equivalent to {{.*}}signed-zeros.fx: output 1: values differ (0 != -0 at flat index 0)
# RUN: %expect-exit 1 %declone verify %s %S/Inputs/signed-zero-f16.fx | %FileCheck %s --check-prefix=F16
# F16: not equivalent to {{.*}}signed-zeros.fx: output 2: values differ (0 != -0 at flat index 0)
# RUN: %expect-exit 1 %declone verify %s %S/Inputs/signed-zero-bf16.fx | %FileCheck %s --check-prefix=BF16
# BF16: not equivalent to {{.*}}signed-zeros.fx: output 3: values differ (0 != -0 at flat index 0)
# RUN: %expect-exit 1 %declone verify %s %S/Inputs/signed-zero-c64.fx | %FileCheck %s --check-prefix=C64
# C64: not equivalent to {{.*}}signed-zeros.fx: output 4: values differ (0 != -0 in the imaginary part at flat index 0)
# RUN: %expect-exit 1 %declone verify %s %S/Inputs/signed-zero-mul.fx | %FileCheck %s --check-prefix=MUL
# MUL: not equivalent to {{.*}}signed-zeros.fx: output 6: values differ (0 != -0 at flat index {{[0-3]}})
# RUN: %declone verify %s %S/Inputs/signed-zero-nan-sign.fx | %FileCheck %s --check-prefix=NAN
# NAN: equivalent (1 run)
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4][1]cpu"):
        zeros: "f32[4][1]cpu" = torch.ops.aten.zeros.default([4], dtype = torch.float32, device = device(type='cpu'), pin_memory = False)
        neg: "f32[4][1]cpu" = torch.ops.aten.neg.default(zeros);  zeros = None
        zeros_1: "f64[4][1]cpu" = torch.ops.aten.zeros.default([4], dtype = torch.float64, device = device(type='cpu'), pin_memory = False)
        neg_1: "f64[4][1]cpu" = torch.ops.aten.neg.default(zeros_1);  zeros_1 = None
        zeros_2: "f16[4][1]cpu" = torch.ops.aten.zeros.default([4], dtype = torch.float16, device = device(type='cpu'), pin_memory = False)
        neg_2: "f16[4][1]cpu" = torch.ops.aten.neg.default(zeros_2);  zeros_2 = None
        zeros_3: "bf16[4][1]cpu" = torch.ops.aten.zeros.default([4], dtype = torch.bfloat16, device = device(type='cpu'), pin_memory = False)
        neg_3: "bf16[4][1]cpu" = torch.ops.aten.neg.default(zeros_3);  zeros_3 = None
        zeros_4: "c64[4][1]cpu" = torch.ops.aten.zeros.default([4], dtype = torch.complex64, device = device(type='cpu'), pin_memory = False)
        conj_physical: "c64[4][1]cpu" = torch.ops.aten.conj_physical.default(zeros_4);  zeros_4 = None
        full: "f32[4][1]cpu" = torch.ops.aten.full.default([4], nan, dtype = torch.float32, device = device(type='cpu'), pin_memory = False)
        mul: "f32[4][1]cpu" = torch.ops.aten.mul.Tensor(arg0_1, -0.0);  arg0_1 = None
        return (neg, neg_1, neg_2, neg_3, conj_physical, full, mul)
