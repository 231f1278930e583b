class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4][1]cpu", arg1_1: "f32[2][1]cpu"):
        empty: "f32[4][1]cpu" = torch.ops.aten.empty.memory_format([4], dtype = torch.float32, device = device(type='cpu'), pin_memory = False)
        clone: "f32[4][1]cpu" = torch.ops.aten.clone.default(empty);  empty = None
        empty_1: "f32[4][1]cpu" = torch.ops.aten.empty.memory_format([4], dtype = torch.float32, device = device(type='cpu'), pin_memory = False)
        neg: "f32[2][1]cpu" = torch.ops.aten.neg.default(arg1_1);  arg1_1 = None
        slice_1: "f32[2][1]cpu" = torch.ops.aten.slice.Tensor(empty_1, 0, 1, 3)
        copy_: "f32[2][1]cpu" = torch.ops.aten.copy_.default(slice_1, neg);  slice_1 = neg = copy_ = None
        empty_like: "f32[4][1]cpu" = torch.ops.aten.empty_like.default(arg0_1, pin_memory = False)
        mul: "f32[4][1]cpu" = torch.ops.aten.mul.Tensor(arg0_1, 2);  arg0_1 = None
        copy__1: "f32[4][1]cpu" = torch.ops.aten.copy_.default(empty_like, mul);  mul = copy__1 = None
        return (clone, empty_1, empty_like)
