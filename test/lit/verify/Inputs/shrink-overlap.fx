class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4096][1]cpu", arg9_1: "f32[8192, 64][64, 1]cpu"):
        clone: "f32[4096][1]cpu" = torch.ops.aten.clone.default(arg0_1)
        narrow: "f32[3000][1]cpu" = torch.ops.aten.narrow.default(clone, 0, 0, 3000)
        add_: "f32[3000][1]cpu" = torch.ops.aten.add_.Tensor(narrow, 1);  narrow = None
        slice_1: "f32[2000][1]cpu" = torch.ops.aten.slice.Tensor(arg0_1, 0, -2000);  arg0_1 = None
        mul: "f32[2000][1]cpu" = torch.ops.aten.mul.Tensor(slice_1, 2);  slice_1 = None
        mul_1: "f32[4096][1]cpu" = torch.ops.aten.mul.Tensor(clone, 1);  clone = None
        relu_9: "f32[8192, 64][64, 1]cpu" = torch.ops.aten.relu.default(arg9_1);  arg9_1 = None
        return (mul, mul_1, relu_9)
