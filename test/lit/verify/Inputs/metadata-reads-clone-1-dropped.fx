class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4, 4][4, 1]cpu", arg1_1: "f32[4, 1, 4][4, 4, 1]cpu"):
        mul: "f32[4, 4][4, 1]cpu" = torch.ops.aten.mul.Tensor(arg0_1, 2)
        clone: "f32[4, 4][4, 1]cpu" = torch.ops.aten.clone.default(mul)
        add_: "f32[4, 4][4, 1]cpu" = torch.ops.aten.add_.Tensor(mul, 1)
        sym_size_int = torch.ops.aten.sym_size.int(clone, 0)
        sym_stride_int = torch.ops.aten.sym_stride.int(clone, 0)
        sym_numel_default = torch.ops.aten.sym_numel.default(clone)
        sym_storage_offset_default = torch.ops.aten.sym_storage_offset.default(clone)
        mul_1: "f32[4, 1, 4][4, 4, 1]cpu" = torch.ops.aten.mul.Tensor(arg1_1, 2)
        squeeze_: "f32[4, 4][4, 1]cpu" = torch.ops.aten.squeeze_.dim(mul_1, 1)
        sym_size_int_1 = torch.ops.aten.sym_size.int(mul_1, 1)
        return (add_, sym_size_int, sym_stride_int, sym_numel_default, sym_storage_offset_default, sym_size_int_1)
