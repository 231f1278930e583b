# functionalized-multi-return.fx with the clone of element 2 removed, as the analyses once did.
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4][1]cpu", arg1_1: "f32[2][1]cpu", arg3_1: "f32[1][1]cpu", arg4_1: "i32[1][1]cpu"):
        ones: "i64[1][1]cpu" = torch.ops.aten.ones.default([1], dtype = torch.int64, device = device(type='cpu'), pin_memory = False)
        slice_1: "f32[1][1]cpu@1" = torch.ops.aten.slice.Tensor(arg1_1, 0, 1, 2)
        add: "f32[1][1]cpu" = torch.ops.aten.add.Tensor(slice_1, 1)
        auto_functionalized = torch.ops.higher_order.auto_functionalized(torch.ops.aten._fused_moving_avg_obs_fq_helper.default, self = arg0_1, observer_on = ones, fake_quant_on = ones, running_min = slice_1, running_max = add, scale = arg3_1, zero_point = arg4_1, averaging_const = 0.01, quant_min = 0, quant_max = 255, ch_axis = 0);  ones = slice_1 = add = None
        getitem: "f32[1][1]cpu@1" = auto_functionalized[2]
        getitem_1: "f32[1][1]cpu" = auto_functionalized[3]
        clone_1: "f32[1][1]cpu" = torch.ops.aten.clone.default(getitem_1);  getitem_1 = None
        getitem_2: "f32[1][1]cpu" = auto_functionalized[-4];  auto_functionalized = None
        clone_2: "f32[1][1]cpu" = torch.ops.aten.clone.default(getitem_2);  getitem_2 = None
        return (getitem, clone_1, clone_2)
