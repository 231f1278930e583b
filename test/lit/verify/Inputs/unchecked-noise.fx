# rrelu_with_noise_ in training with a noise smaller than self (see ../unchecked-kernel.fx).
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[5, 2, 3, 2][12, 6, 2, 1]cpu", arg1_1: "f32[5, 1, 3, 1][3, 3, 1, 1]cpu"):
        neg: "f32[5, 2, 3, 2][12, 6, 2, 1]cpu" = torch.ops.aten.neg.default(arg0_1);  arg0_1 = None
        rrelu_with_noise_: "f32[5, 2, 3, 2][12, 6, 2, 1]cpu" = torch.ops.aten.rrelu_with_noise_.default(neg, arg1_1, 0.125, 0.3333333333333333, True);  neg = arg1_1 = None
        return (rrelu_with_noise_,)
