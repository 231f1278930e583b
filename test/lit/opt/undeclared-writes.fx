# Regression (found by the Python tests): native_batch_norm updates running_mean and running_var
# in training although its schema does not mark them written (rrelu_with_noise likewise fills
# `noise`). The effect model adds these writes, so the clone of the running mean, read after
# the update, stays.
# RUN: %declone opt %s --remarks 2>&1 >/dev/null | %FileCheck %s
# RUN: %declone opt %s --verify > /dev/null
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4, 3, 2, 2][12, 4, 2, 1]cpu", arg1_1: "f32[3][1]cpu", arg2_1: "f32[3][1]cpu"):
        relu: "f32[3][1]cpu" = torch.ops.aten.relu.default(arg1_1);  arg1_1 = None
        clone: "f32[3][1]cpu" = torch.ops.aten.clone.default(relu)
        # CHECK: :[[@LINE-1]]: remark: clone 'clone' kept [clone-read-after-source-write]: native_batch_norm (line [[@LINE+1]]) writes relu after the clone, then sub (line [[@LINE+3]]) reads clone
        native_batch_norm = torch.ops.aten.native_batch_norm.default(arg0_1, None, None, relu, arg2_1, True, 0.1, 1e-05);  arg0_1 = arg2_1 = None
        getitem: "f32[4, 3, 2, 2][12, 4, 2, 1]cpu" = native_batch_norm[0];  native_batch_norm = None
        sub: "f32[3][1]cpu" = torch.ops.aten.sub.Tensor(relu, clone);  relu = clone = None
        return (getitem, sub)
