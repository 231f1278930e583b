# get-attr-constants.fx with the clone that add_ writes dropped.
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[3][1]cpu"):
        _tensor_constant0: "f32[3][1]cpu" = self._tensor_constant0
        _param_constant0: "f32[2, 3][3, 1]cpu" = self._param_constant0
        add_: "f32[3][1]cpu" = torch.ops.aten.add_.Tensor(_tensor_constant0, arg0_1);  _tensor_constant0 = arg0_1 = None
        mul: "f32[2, 3][3, 1]cpu" = torch.ops.aten.mul.Tensor(add_, _param_constant0);  add_ = None
        clone_1: "f32[2, 3][3, 1]cpu" = torch.ops.aten.clone.default(_param_constant0);  _param_constant0 = None
        return (mul, clone_1)
