# --fake-tensor: the ops no rule covers (tril, xlogy, which FakeTensor decomposes, the unfold
# view) are run under PyTorch 2.13's FakeTensorMode, and the remarks say so. A dump of
# make_fx(tracing_mode="fake") with its strides stripped: the CHECK lines are the strides it
# printed, and the decisions are the full dump's. Without the flag they stay unknown.
# REQUIRES: fake-tensor
# RUN: %declone print --annotate --assume-dense-inputs --fake-tensor %s | %FileCheck %s
# RUN: %declone opt %s --assume-dense-inputs --fake-tensor --remarks 2>&1 >/dev/null | %FileCheck %s --check-prefix=FAKE
# RUN: %declone opt %s --assume-dense-inputs --remarks 2>&1 >/dev/null | %FileCheck %s --check-prefix=RULES
# CHECK: {{^ +}}tril: "f32[3, 4][4, 1]cpu" =
# CHECK: {{^ +}}xlogy: "f32[3, 4][1, 3]cpu" =
# CHECK: {{^ +}}unfold: "f32[3, 5, 6, 2][36, 6, 1, 6]cpu" =
# CHECK: {{^ +}}getitem_1: "i64[1, 3, 3, 3][27, 9, 3, 1]cpu" =
# FAKE: fake-tensor.fx:[[@LINE+11]]: remark: clone 'clone' removed: strides inferred, assuming dense inputs, ops run under FakeTensor{{$}}
# FAKE: fake-tensor.fx:[[@LINE+12]]: remark: clone 'clone_1' removed: strides inferred, assuming dense inputs, ops run under FakeTensor{{$}}
# FAKE: fake-tensor.fx:[[@LINE+13]]: remark: clone 'clone_2' kept [layout-changed]: strides [60, 12, 2, 1] != [36, 6, 1, 6] (strides inferred, assuming dense inputs, ops run under FakeTensor)
# The indices of max_pool2d_with_indices have a rule (pooling): no op is run for them.
# FAKE: fake-tensor.fx:[[@LINE+16]]: remark: clone 'clone_3' removed: strides inferred, assuming dense inputs{{$}}
# RULES: remark: clone 'clone' kept [layout-unknown]: strides of tril are unknown
# RULES: remark: clone 'clone_2' kept [layout-unknown]: strides of unfold are unknown
class GraphModule(torch.nn.Module):
    def forward(self, x_1: "f32[4, 3]cpu", y_1: "f32[3, 6, 6]cpu"):
        t: "f32[3, 4]cpu" = torch.ops.aten.t.default(x_1);  x_1 = None
        tril: "f32[3, 4]cpu" = torch.ops.aten.tril.default(t, 1)
        clone: "f32[3, 4]cpu" = torch.ops.aten.clone.default(tril, memory_format = torch.contiguous_format);  tril = None
        xlogy: "f32[3, 4]cpu" = torch.ops.aten.xlogy.Tensor(t, t);  t = None
        clone_1: "f32[3, 4]cpu" = torch.ops.aten.clone.default(xlogy);  xlogy = None
        unfold: "f32[3, 5, 6, 2]cpu" = torch.ops.aten.unfold.default(y_1, 1, 2, 1)
        clone_2: "f32[3, 5, 6, 2]cpu" = torch.ops.aten.clone.default(unfold, memory_format = torch.contiguous_format);  unfold = None
        unsqueeze: "f32[1, 3, 6, 6]cpu" = torch.ops.aten.unsqueeze.default(y_1, 0);  y_1 = None
        max_pool2d_with_indices = torch.ops.aten.max_pool2d_with_indices.default(unsqueeze, [2, 2]);  unsqueeze = None
        getitem: "f32[1, 3, 3, 3]cpu" = max_pool2d_with_indices[0];  getitem = None
        getitem_1: "i64[1, 3, 3, 3]cpu" = max_pool2d_with_indices[1];  max_pool2d_with_indices = None
        clone_3: "i64[1, 3, 3, 3]cpu" = torch.ops.aten.clone.default(getitem_1);  getitem_1 = None
        mul: "f32[3, 4]cpu" = torch.ops.aten.mul.Tensor(clone, 2);  clone = None
        mul_1: "f32[3, 4]cpu" = torch.ops.aten.mul.Tensor(clone_1, 2);  clone_1 = None
        mul_2: "f32[3, 5, 6, 2]cpu" = torch.ops.aten.mul.Tensor(clone_2, 2);  clone_2 = None
        return (mul, mul_1, mul_2, clone_3)

