class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4, 4][4, 1]cpu", arg1_1: "f32[4][1]cpu", arg2_1: "f32[4][1]cpu", arg3_1: "f32[2, 4, 3][12, 3, 1]cpu", arg4_1: "f32[4][1]cpu", arg5_1: "f32[4][1]cpu", arg6_1: "f32[4, 4][4, 1]cpu", arg7_1: "f32[4, 4][4, 1]cpu"):
        clone: "f32[4][1]cpu" = torch.ops.aten.clone.default(arg1_1);  arg1_1 = None
        clone_1: "f32[4][1]cpu" = torch.ops.aten.clone.default(arg2_1);  arg2_1 = None
        batch_norm_update_stats = torch.ops.aten.batch_norm_update_stats.default(arg0_1, clone, clone_1, 0.1);  arg0_1 = clone = clone_1 = None
        getitem: "f32[4][1]cpu" = batch_norm_update_stats[0];  batch_norm_update_stats = None
        clone_2: "f32[4][1]cpu" = torch.ops.aten.clone.default(arg4_1)
        clone_3: "f32[4][1]cpu" = torch.ops.aten.clone.default(arg5_1)
        instance_norm: "f32[2, 4, 3][12, 3, 1]cpu" = torch.ops.aten.instance_norm.default(arg3_1, None, None, clone_2, clone_3, False, 0.1, 1e-05, False);  clone_2 = clone_3 = None
        clone_4: "f32[4][1]cpu" = torch.ops.aten.clone.default(arg4_1);  arg4_1 = None
        clone_5: "f32[4][1]cpu" = torch.ops.aten.clone.default(arg5_1);  arg5_1 = None
        instance_norm_1: "f32[2, 4, 3][12, 3, 1]cpu" = torch.ops.aten.instance_norm.default(arg3_1, None, None, clone_4, clone_5, True, 0.1, 1e-05, False);  arg3_1 = clone_4 = clone_5 = None
        mul: "f32[4, 4][4, 1]cpu" = torch.ops.aten.mul.Tensor(arg6_1, 1);  arg6_1 = None
        rrelu_with_noise_: "f32[4, 4][4, 1]cpu" = torch.ops.aten.rrelu_with_noise_.default(mul, arg7_1, 0.125, 0.3333333333333333, True);  mul = arg7_1 = None
        return (getitem, instance_norm, instance_norm_1, rrelu_with_noise_)
