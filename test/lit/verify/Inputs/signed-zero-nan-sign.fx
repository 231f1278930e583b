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
        neg_4: "f32[4][1]cpu" = torch.ops.aten.neg.default(full);  full = None
        mul: "f32[4][1]cpu" = torch.ops.aten.mul.Tensor(arg0_1, -0.0);  arg0_1 = None
        return (neg, neg_1, neg_2, neg_3, conj_physical, neg_4, mul)
