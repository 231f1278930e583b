class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4][1]cpu", arg1_1: "f32[4][1]cpu", arg2_1: "f32[4][1]cpu", arg3_1: "i64[3][1]cpu"):
        clone: "f32[4][1]cpu" = torch.ops.aten.mul.Tensor(arg0_1, 2)
        resize_: "f32[6][1]cpu" = torch.ops.aten.resize_.default(clone, [6]);  clone = None
        empty_strided: "f32[2][2]cpu" = torch.ops.aten.empty_strided.default([2], [2], dtype = torch.float32, device = device(type='cpu'), pin_memory = False)
        fill_: "f32[2][2]cpu" = torch.ops.aten.fill_.Scalar(empty_strided, 1.0);  fill_ = None
        as_strided: "f32[3][1]cpu" = torch.ops.aten.as_strided.default(empty_strided, [3], [1]);  empty_strided = None
        empty_strided_1: "f32[2, 3][3, 1]cpu" = torch.ops.prims.empty_strided.default([2, 3], [3, 1], dtype = torch.float32, device = device(type='cpu'), requires_grad = False)
        empty_out: "f32[6][1]cpu" = torch.ops.aten.empty.out([6], out = arg1_1);  arg1_1 = empty_out = None
        new_empty_out: "f32[4][1]cpu" = torch.ops.aten.new_empty.out(arg0_1, [4], out = arg2_1);  arg0_1 = arg2_1 = new_empty_out = None
        resize: "i64[5][1]cpu" = torch.ops.aten.resize.default(arg3_1, [5]);  arg3_1 = None
        return (resize_, as_strided, empty_strided_1, resize)
