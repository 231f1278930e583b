class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4096][1]cpu", arg9_1: "f32[8192, 64][64, 1]cpu"):
        slice_1: "f32[3000][1]cpu" = torch.ops.aten.slice.Tensor(arg0_1, 0, 0, 3000)
        clone: "f32[3000][1]cpu" = torch.ops.aten.clone.default(slice_1);  slice_1 = None
        add_: "f32[4096][1]cpu" = torch.ops.aten.add_.Tensor(arg0_1, 1)
        slice_2: "f32[1096][1]cpu" = torch.ops.aten.slice.Tensor(arg0_1, 0, 3000, 4096);  arg0_1 = None
        cat: "f32[4096][1]cpu" = torch.ops.aten.cat.default([clone, slice_2]);  clone = slice_2 = None
        relu_9: "f32[8192, 64][64, 1]cpu" = torch.ops.aten.relu.default(arg9_1);  arg9_1 = None
        return (cat, relu_9)
