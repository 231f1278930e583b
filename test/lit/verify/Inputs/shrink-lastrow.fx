class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4096, 4][4, 1]cpu", arg1_1: "f32[4095][1]cpu", arg9_1: "f32[8192, 64][64, 1]cpu"):
        clone: "f32[4096, 4][4, 1]cpu" = torch.ops.aten.clone.default(arg0_1)
        select: "f32[4][1]cpu" = torch.ops.aten.select.int(clone, 0, -1)
        add_: "f32[4][1]cpu" = torch.ops.aten.add_.Tensor(select, 1);  select = None
        select_1: "f32[4][1]cpu" = torch.ops.aten.select.int(arg0_1, 0, 4095);  arg0_1 = None
        mul: "f32[4][1]cpu" = torch.ops.aten.mul.Tensor(select_1, 2);  select_1 = None
        mul_1: "f32[4096, 4][4, 1]cpu" = torch.ops.aten.mul.Tensor(clone, 1);  clone = None
        relu: "f32[4095][1]cpu" = torch.ops.aten.relu.default(arg1_1);  arg1_1 = None
        relu_9: "f32[8192, 64][64, 1]cpu" = torch.ops.aten.relu.default(arg9_1);  arg9_1 = None
        return (mul, mul_1, relu, relu_9)
