class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[3][1]cpu"):
        _tensor_constant0 = self._tensor_constant0
        add: "f32[3][1]cpu" = torch.ops.aten.add.Tensor(arg0_1, _tensor_constant0);  arg0_1 = _tensor_constant0 = None
        return (add,)
