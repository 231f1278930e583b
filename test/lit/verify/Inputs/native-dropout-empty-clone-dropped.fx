class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4, 4][4, 1]cpu", arg1_1: "f32[4, 4][4, 1]cpu", arg2_1: "f32[0, 4][4, 1]cpu"):
        _shape_as_tensor: "i64[2][1]cpu" = torch.ops.aten._shape_as_tensor.default(arg1_1);  arg1_1 = None
        clone: "f32[4, 4][4, 1]cpu" = torch.ops.aten.clone.default(arg0_1);  arg0_1 = None
        _reshape_from_tensor: "f32[4, 4][4, 1]cpu" = torch.ops.aten._reshape_from_tensor.default(clone, _shape_as_tensor);  clone = _shape_as_tensor = None
        add_: "f32[4, 4][4, 1]cpu" = torch.ops.aten.add_.Tensor(_reshape_from_tensor, 1);  _reshape_from_tensor = None
        native_dropout = torch.ops.aten.native_dropout.default(arg2_1, 0.5, True);  arg2_1 = None
        getitem: "f32[0, 4][4, 1]cpu" = native_dropout[0];  native_dropout = None
        return (add_, getitem)
