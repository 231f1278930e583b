# Issue 16, class 2: batch_norm_update_stats writes the running statistics it is given,
# instance_norm writes them when use_input_stats is True, and rrelu_with_noise_ fills `noise` in
# training; no schema marks them written. The override table made by the effect audit (lib/
# analysis/effect-overrides.txt) says so, and the safe mode keeps the clones of the caller's
# tensors they would write, and removes the ones instance_norm only reads (use_input_stats
# False). lit verify/effect-writes.fx proves each by execution.
# RUN: %declone opt %s --remarks 2>&1 >/dev/null | %FileCheck %s
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4, 4][4, 1]cpu", arg1_1: "f32[4][1]cpu", arg2_1: "f32[4][1]cpu", arg3_1: "f32[2, 4, 3][12, 3, 1]cpu", arg4_1: "f32[4][1]cpu", arg5_1: "f32[4][1]cpu", arg6_1: "f32[4, 4][4, 1]cpu", arg7_1: "f32[4, 4][4, 1]cpu"):
        # batch_norm_update_stats always updates the running statistics it is given.
        clone: "f32[4][1]cpu" = torch.ops.aten.clone.default(arg1_1);  arg1_1 = None
        # CHECK: :[[@LINE-1]]: remark: clone 'clone' kept [input-mutation]: batch_norm_update_stats (line [[@LINE+3]]) writes clone; arg1_1 is a graph input that is not donated
        clone_1: "f32[4][1]cpu" = torch.ops.aten.clone.default(arg2_1);  arg2_1 = None
        # CHECK: :[[@LINE-1]]: remark: clone 'clone_1' kept [input-mutation]: batch_norm_update_stats (line [[@LINE+1]]) writes clone_1; arg2_1 is a graph input that is not donated
        batch_norm_update_stats = torch.ops.aten.batch_norm_update_stats.default(arg0_1, clone, clone_1, 0.1);  arg0_1 = clone = clone_1 = None
        getitem: "f32[4][1]cpu" = batch_norm_update_stats[0];  batch_norm_update_stats = None
        # instance_norm updates them only with use_input_stats: these clones are only read.
        clone_2: "f32[4][1]cpu" = torch.ops.aten.clone.default(arg4_1)
        # CHECK: :[[@LINE-1]]: remark: clone 'clone_2' removed
        clone_3: "f32[4][1]cpu" = torch.ops.aten.clone.default(arg5_1)
        # CHECK: :[[@LINE-1]]: remark: clone 'clone_3' removed
        instance_norm: "f32[2, 4, 3][12, 3, 1]cpu" = torch.ops.aten.instance_norm.default(arg3_1, None, None, clone_2, clone_3, False, 0.1, 1e-05, False);  clone_2 = clone_3 = None
        clone_4: "f32[4][1]cpu" = torch.ops.aten.clone.default(arg4_1);  arg4_1 = None
        # CHECK: :[[@LINE-1]]: remark: clone 'clone_4' kept [input-mutation]: instance_norm_1 (line [[@LINE+3]]) writes clone_4; arg4_1 is a graph input that is not donated
        clone_5: "f32[4][1]cpu" = torch.ops.aten.clone.default(arg5_1);  arg5_1 = None
        # CHECK: :[[@LINE-1]]: remark: clone 'clone_5' kept [input-mutation]: instance_norm_1 (line [[@LINE+1]]) writes clone_5; arg5_1 is a graph input that is not donated
        instance_norm_1: "f32[2, 4, 3][12, 3, 1]cpu" = torch.ops.aten.instance_norm.default(arg3_1, None, None, clone_4, clone_5, True, 0.1, 1e-05, False);  arg3_1 = clone_4 = clone_5 = None
        # rrelu_with_noise_ fills `noise` in training.
        mul: "f32[4, 4][4, 1]cpu" = torch.ops.aten.mul.Tensor(arg6_1, 1);  arg6_1 = None
        clone_6: "f32[4, 4][4, 1]cpu" = torch.ops.aten.clone.default(arg7_1);  arg7_1 = None
        # CHECK: :[[@LINE-1]]: remark: clone 'clone_6' kept [input-mutation]: rrelu_with_noise_ (line [[@LINE+1]]) writes clone_6; arg7_1 is a graph input that is not donated
        rrelu_with_noise_: "f32[4, 4][4, 1]cpu" = torch.ops.aten.rrelu_with_noise_.default(mul, clone_6, 0.125, 0.3333333333333333, True);  mul = clone_6 = None
        return (getitem, instance_norm, instance_norm_1, rrelu_with_noise_)
