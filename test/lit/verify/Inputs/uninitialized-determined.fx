class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4][1]cpu", arg1_1: "f32[2][1]cpu"):
        zeros: "f32[4][1]cpu" = torch.ops.aten.zeros.default([4], dtype = torch.float32, device = device(type='cpu'), pin_memory = False)
        full: "f32[4][1]cpu" = torch.ops.aten.full.default([4], 7.0, dtype = torch.float32, device = device(type='cpu'), pin_memory = False)
        slice_1: "f32[2][1]cpu" = torch.ops.aten.slice.Tensor(full, 0, 1, 3)
        copy_: "f32[2][1]cpu" = torch.ops.aten.copy_.default(slice_1, arg1_1);  slice_1 = arg1_1 = copy_ = None
        mul: "f32[4][1]cpu" = torch.ops.aten.mul.Tensor(arg0_1, 2);  arg0_1 = None
        return (zeros, full, mul)
