# The batch-norm family writes its running statistics, undeclared by the schema, only in
# training: with a literal `training` False (positional or keyword) they are only read, so the
# clones of the inputs they come from can go; in training the clones stay, or the caller's
# running statistics would change. `opt --verify` proves the rewrite by execution.
# RUN: %declone opt %s --remarks 2>&1 >/dev/null | %FileCheck %s
# RUN: %declone opt %s --verify > /dev/null
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[2, 3][3, 1]cpu", arg1_1: "f32[3][1]cpu", arg2_1: "f32[3][1]cpu", arg3_1: "f32[3][1]cpu", arg4_1: "f32[3][1]cpu"):
        clone: "f32[3][1]cpu" = torch.ops.aten.clone.default(arg1_1);  arg1_1 = None
        # CHECK: :[[@LINE-1]]: remark: clone 'clone' removed
        clone_1: "f32[3][1]cpu" = torch.ops.aten.clone.default(arg2_1);  arg2_1 = None
        # CHECK: :[[@LINE-1]]: remark: clone 'clone_1' removed
        native_batch_norm = torch.ops.aten.native_batch_norm.default(arg0_1, None, None, clone, clone_1, False, 0.1, 1e-05);  clone = clone_1 = None
        getitem: "f32[2, 3][3, 1]cpu" = native_batch_norm[0];  native_batch_norm = None
        clone_2: "f32[3][1]cpu" = torch.ops.aten.clone.default(arg3_1)
        # CHECK: :[[@LINE-1]]: remark: clone 'clone_2' removed
        clone_3: "f32[3][1]cpu" = torch.ops.aten.clone.default(arg4_1)
        # CHECK: :[[@LINE-1]]: remark: clone 'clone_3' removed
        native_batch_norm_1 = torch.ops.aten.native_batch_norm.default(arg0_1, None, None, clone_2, clone_3, training = False, momentum = 0.1, eps = 1e-05);  clone_2 = clone_3 = None
        getitem_1: "f32[2, 3][3, 1]cpu" = native_batch_norm_1[0];  native_batch_norm_1 = None
        clone_4: "f32[3][1]cpu" = torch.ops.aten.clone.default(arg3_1);  arg3_1 = None
        # CHECK: :[[@LINE-1]]: remark: clone 'clone_4' kept [input-mutation]: native_batch_norm_2 (line [[@LINE+3]]) writes clone_4; arg3_1 is a graph input that is not donated
        clone_5: "f32[3][1]cpu" = torch.ops.aten.clone.default(arg4_1);  arg4_1 = None
        # CHECK: :[[@LINE-1]]: remark: clone 'clone_5' kept [input-mutation]: native_batch_norm_2 (line [[@LINE+1]]) writes clone_5; arg4_1 is a graph input that is not donated
        native_batch_norm_2 = torch.ops.aten.native_batch_norm.default(arg0_1, None, None, clone_4, clone_5, True, 0.1, 1e-05);  arg0_1 = clone_4 = clone_5 = None
        getitem_2: "f32[2, 3][3, 1]cpu" = native_batch_norm_2[0];  native_batch_norm_2 = None
        return (getitem, getitem_1, getitem_2)
