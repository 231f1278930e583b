class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "c64[4][1]cpu", arg1_1: "f32[4][1]cpu"):
        mul: "c64[4][1]cpu" = torch.ops.aten.mul.Tensor(arg0_1, 2)
        _conj: "c64[4][1]cpu" = torch.ops.aten._conj.default(mul)
        mul_1: "f32[4][1]cpu" = torch.ops.aten.mul.Tensor(arg1_1, 2)
        _neg_view: "f32[4][1]cpu" = torch.ops.aten._neg_view.default(mul_1)
        clone_1: "f32[4][1]cpu" = torch.ops.aten.clone.default(_neg_view)
        _conj_1: "c64[4][1]cpu" = torch.ops.aten._conj.default(mul)
        resolve_conj: "c64[4][1]cpu" = torch.ops.aten.resolve_conj.default(_conj_1)
        clone_2: "c64[4][1]cpu" = torch.ops.aten.clone.default(resolve_conj)
        return (_conj, clone_1, clone_2)
