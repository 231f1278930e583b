# get-attr-constants.fx with the returned clone of the parameter dropped.
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[3][1]cpu"):
        _tensor_constant0: "f32[3][1]cpu" = self._tensor_constant0
        _param_constant0: "f32[2, 3][3, 1]cpu" = self._param_constant0
        clone: "f32[3][1]cpu" = torch.ops.aten.clone.default(_tensor_constant0);  _tensor_constant0 = None
        add_: "f32[3][1]cpu" = torch.ops.aten.add_.Tensor(clone, arg0_1);  clone = arg0_1 = None
        mul: "f32[2, 3][3, 1]cpu" = torch.ops.aten.mul.Tensor(add_, _param_constant0);  add_ = None
        return (mul, _param_constant0)
