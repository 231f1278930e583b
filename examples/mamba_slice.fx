class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4, 5][5, 1]cpu", arg1_1: "f32[4, 3][3, 1]cpu", arg2_1: "f32[4, 4, 3][12, 3, 1]cpu"):
        # File: mamba_mixer.py:212 in forward, code: x = hidden[:, :3].contiguous()
        slice_1: "f32[4, 3][5, 1]cpu" = torch.ops.aten.slice.Tensor(arg0_1, 1, 0, 3);  arg0_1 = None
        clone: "f32[4, 3][3, 1]cpu" = torch.ops.aten.clone.default(slice_1, memory_format = torch.contiguous_format);  slice_1 = None
        
        # File: mamba_mixer.py:215 in forward, code: torch.ops._C.causal_conv1d_update(x, w)
        auto_functionalized = torch.ops.higher_order.auto_functionalized(torch.ops._C.causal_conv1d_update.default, x = clone, conv_state = arg2_1, weight = arg1_1, bias_ = None, silu_activation = True, cache_seqlens_ = None, conv_state_indices = None, pad_slot_id = -1);  clone = arg2_1 = None
        getitem_1: "f32[4, 3][3, 1]cpu" = auto_functionalized[1];  auto_functionalized = None
        
        # File: mamba_mixer.py:218 in forward, code: y = arg1_1.clone(); z = y * 2
        clone_1: "f32[4, 3][3, 1]cpu" = torch.ops.aten.clone.default(arg1_1);  arg1_1 = None
        mul: "f32[4, 3][3, 1]cpu" = torch.ops.aten.mul.Tensor(clone_1, 2);  clone_1 = None
        add: "f32[4, 3][3, 1]cpu" = torch.ops.aten.add.Tensor(getitem_1, mul);  getitem_1 = mul = None
        return (add,)
