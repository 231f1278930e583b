class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[3, 4][4, 1]cpu"):
        empty: "f32[20][1]cpu" = torch.ops.aten.empty.memory_format([20], dtype = torch.float32, device = device(type='cpu'), pin_memory = False)
        slice_1: "f32[12][1]cpu" = torch.ops.aten.slice.Tensor(empty, 0, 4, 16)
        view: "f32[3, 4][4, 1]cpu" = torch.ops.aten.view.default(slice_1, [3, 4])
        clone_out: "f32[3, 4][4, 1]cpu" = torch.ops.aten.clone.out(arg0_1, out = view)
        return (clone_out,)
