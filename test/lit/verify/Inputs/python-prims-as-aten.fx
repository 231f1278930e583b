# The ATen ops python-prims.fx's prims stand for.
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[2, 3, 9, 7][189, 63, 7, 1]cpu"):
        arange: "i64[5][1]cpu" = torch.ops.aten.arange.start_step(2, 17, 3, dtype = torch.int64, device = device(type='cpu'), pin_memory = False)
        max_pool2d_with_indices = torch.ops.aten.max_pool2d_with_indices.default(arg0_1, [3, 3], [2, 2], [1, 1], [1, 1], False)
        getitem: "f32[2, 3, 5, 4][60, 20, 4, 1]cpu" = max_pool2d_with_indices[0]
        getitem_1: "i64[2, 3, 5, 4][60, 20, 4, 1]cpu" = max_pool2d_with_indices[1];  max_pool2d_with_indices = None
        _to_copy: "f64[2, 3, 9, 7][189, 63, 7, 1]cpu" = torch.ops.aten._to_copy.default(arg0_1, dtype = torch.float64);  arg0_1 = None
        return (arange, getitem, getitem_1, _to_copy)
