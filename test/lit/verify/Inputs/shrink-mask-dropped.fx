class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4096][1]cpu", arg9_1: "f32[8192, 64][64, 1]cpu"):
        add_: "f32[4096][1]cpu" = torch.ops.aten.add_.Tensor(arg0_1, 1)
        arange: "i64[4096][1]cpu" = torch.ops.aten.arange.default(4096, device = device(type='cpu'), pin_memory = False)
        ge: "b8[4096][1]cpu" = torch.ops.aten.ge.Scalar(arange, 3000);  arange = None
        where: "f32[4096][1]cpu" = torch.ops.aten.where.ScalarOther(ge, arg0_1, 0.0);  arg0_1 = ge = None
        relu_9: "f32[8192, 64][64, 1]cpu" = torch.ops.aten.relu.default(arg9_1);  arg9_1 = None
        return (where, relu_9)
