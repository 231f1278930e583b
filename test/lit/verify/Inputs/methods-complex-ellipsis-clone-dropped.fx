class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4, 5][5, 1]cpu", arg1_1: "c64[4, 5][5, 1]cpu"):
        mul: "f32[4, 5][5, 1]cpu" = torch.ops.aten.mul.Tensor(arg0_1, 2);  arg0_1 = None
        view: "f32[20][1]cpu" = mul.view(20)
        add_: "f32[20][1]cpu" = view.add_(1);  view = add_ = None
        getitem: "f32[4][5]cpu" = mul[(Ellipsis, 0)]
        mul_1: "c64[4, 5][5, 1]cpu" = torch.ops.aten.mul.Tensor(arg1_1, (1+2j));  arg1_1 = None
        clone_1: "c64[4, 5][5, 1]cpu" = torch.ops.aten.clone.default(mul_1);  mul_1 = None
        add__1: "c64[4, 5][5, 1]cpu" = torch.ops.aten.add_(clone_1, (0.5-1j));  clone_1 = None
        sum_1: "c64[][]cpu" = add__1.sum()
        return (mul, getitem, add__1, sum_1)
