def forward(self, arg0_1: "f32[16][1]cpu"):
    mul: "f32[16][1]cpu" = torch.ops.aten.mul.Tensor(arg0_1, 2);  arg0_1 = None
    _unsafe_view: "f32[4, 4][4, 1]cpu" = torch.ops.aten._unsafe_view.default(mul, [4, 4])
    slice_1: "f32[8][1]cpu" = torch.ops.aten.slice.Tensor(mul, 0, 8);  mul = None
    _unsafe_view_1: "f32[2, 4][4, 1]cpu" = torch.ops.aten._unsafe_view.default(slice_1, [2, 4]);  slice_1 = None
    return (_unsafe_view, _unsafe_view_1)
