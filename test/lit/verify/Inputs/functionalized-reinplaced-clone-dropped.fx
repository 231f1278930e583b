class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4, 8][8, 1]cpu", arg1_1: "f32[2, 8][8, 1]cpu@8", arg2_1: "f32[8][1]cpu", arg3_1: "f32[2, 8][8, 1]cpu"):
        auto_functionalized_v2 = torch.ops.higher_order.auto_functionalized_v2(torch.ops._C.fused_add_rms_norm.default, weight = arg2_1, epsilon = 1e-06, _input_base_index = 0, _input_size = (2, 8), _input_stride = (8, 1), _input_storage_offset = 16, _residual_base_index = 1, _all_bases = [arg0_1, arg1_1]);  arg1_1 = None
        getitem: "f32[4, 8][8, 1]cpu" = auto_functionalized_v2[1]
        getitem_1: "f32[2, 8][8, 1]cpu" = auto_functionalized_v2[-1];  auto_functionalized_v2 = None
        clone: "f32[4, 8][8, 1]cpu" = torch.ops.aten.clone.default(getitem, memory_format = torch.contiguous_format);  getitem = None
        clone_1: "f32[2, 8][8, 1]cpu" = torch.ops.aten.clone.default(getitem_1, memory_format = torch.contiguous_format);  getitem_1 = None
        arange: "i64[2][1]cpu" = torch.ops.aten.arange.default(2, dtype = torch.int64, device = device(type='cpu'), pin_memory = False)
        index: "f32[2, 8][8, 1]cpu" = arg0_1[arange];  arg0_1 = arange = None
        auto_functionalized_v2_1 = torch.ops.higher_order.auto_functionalized_v2(torch.ops._C.rms_norm.default, input = arg3_1, weight = arg2_1, epsilon = 1e-06, _result_base_index = 0, _all_bases = [index]);  index = None
        getitem_2: "f32[2, 8][8, 1]cpu" = auto_functionalized_v2_1[1];  auto_functionalized_v2_1 = None
        clone_2: "f32[2, 8][8, 1]cpu" = torch.ops.aten.clone.default(getitem_2);  getitem_2 = None
        auto_functionalized_v2_2 = torch.ops.higher_order.auto_functionalized_v2(torch.ops._C.rms_norm.default, input = arg3_1, weight = arg2_1, epsilon = 1e-06, _result_base_index = 0, _all_bases = [arg3_1], _only_clone_these_bases = [])
        getitem_3: "f32[2, 8][8, 1]cpu" = auto_functionalized_v2_2[1];  auto_functionalized_v2_2 = None
        clone_4: "f32[2, 8][8, 1]cpu" = torch.ops.aten.clone.default(arg3_1)
        auto_functionalized = torch.ops.higher_order.auto_functionalized(torch.ops._C.fused_add_rms_norm.default, input = arg3_1, residual = clone_4, weight = arg2_1, epsilon = 1e-06, _only_clone_these_tensors = ['input']);  arg3_1 = clone_4 = arg2_1 = None
        getitem_4: "f32[2, 8][8, 1]cpu" = auto_functionalized[2];  auto_functionalized = None
        add: "f32[4, 8][8, 1]cpu" = torch.ops.aten.add.Tensor(clone, 1);  clone = None
        return (add, clone_1, clone_2, getitem_3, getitem_4)
