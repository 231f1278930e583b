# metadata-queries.fx with the clone dropped: the queries read the slice.
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4, 6][6, 1]cpu"):
        slice_1: "f32[4, 5][6, 1]cpu@1" = torch.ops.aten.slice.Tensor(arg0_1, 1, 1, 9223372036854775807)
        sym_size = torch.ops.aten.sym_size(slice_1, 0)
        sym_size_1 = torch.ops.aten.sym_size.int(slice_1, -1)
        sym_stride = torch.ops.aten.sym_stride.int(slice_1, 0)
        sym_numel = torch.ops.aten.sym_numel.default(slice_1)
        sym_storage_offset = torch.ops.aten.sym_storage_offset.default(slice_1);  slice_1 = None
        mul = sym_size * sym_stride;  sym_size = None
        floordiv = sym_numel // sym_size_1;  sym_numel = None
        as_strided: "f32[4, 5][5, 1]cpu" = torch.ops.aten.as_strided.default(arg0_1, [floordiv, sym_size_1], [sym_stride, 1], sym_storage_offset);  arg0_1 = floordiv = sym_size_1 = sym_stride = sym_storage_offset = None
        return (as_strided, mul)
