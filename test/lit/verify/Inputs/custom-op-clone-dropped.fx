class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4, 5][5, 1]cpu", arg1_1: "f32[4, 3][3, 1]cpu", arg2_1: "f32[4, 4, 3][12, 3, 1]cpu"):
        slice_1: "f32[4, 3][5, 1]cpu" = torch.ops.aten.slice.Tensor(arg0_1, 1, 0, 3);  arg0_1 = None
        auto_functionalized = torch.ops.higher_order.auto_functionalized(torch.ops._C.causal_conv1d_update.default, x = slice_1, conv_state = arg2_1, weight = arg1_1, bias_ = None, silu_activation = True, cache_seqlens_ = None, conv_state_indices = None, pad_slot_id = -1);  slice_1 = arg2_1 = arg1_1 = None
        getitem_1: "f32[4, 3][3, 1]cpu" = auto_functionalized[1];  auto_functionalized = None
        mul: "f32[4, 3][3, 1]cpu" = torch.ops.aten.mul.Tensor(getitem_1, 2);  getitem_1 = None
        return (mul,)
