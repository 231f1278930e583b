# Where eager kernels and FakeTensor (whose strides a dump prints) lay a result out differently,
# or where the rule would depend on which operand comes first for an op FakeTensor decomposes,
# the strides stay unknown and the clones behind them are kept. Each case was found by an
# adversary against the first rules: each removed a clone the program needs.
# RUN: %declone print --annotate --assume-dense-inputs %s | %FileCheck %s
# RUN: %declone opt %s --assume-dense-inputs --remarks 2>&1 >/dev/null | %FileCheck %s --check-prefix=REMARKS
# threshold_backward (ReLU's backward): TensorIterator takes self before grad; FakeTensor agrees.
# CHECK: {{^ +}}threshold_backward: "f32[5, 4]cpu" =
# REMARKS: remark: clone 'clone' kept [layout-unknown]: strides of threshold_backward are unknown
# xlogy runs as a decomposition in FakeTensor: mixed layouts are not decided.
# CHECK: {{^ +}}xlogy: "f32[5, 4]cpu" =
# Batch norm of a transposed input: eager allocates in the suggested format, FakeTensor keeps
# the input's order.
# CHECK: {{^ +}}getitem: "f32[2, 3, 7]cpu" =
# A size-1 dimension with a stride of its own: eager keeps it, FakeTensor makes it dense.
# CHECK: {{^ +}}relu: "f32[2, 1, 3]cpu" =
# CHECK: {{^ +}}empty_like: "f32[2, 1, 3]cpu" =
# CPU flash attention allocates its output like the query (torch 2.13), not in a fixed order.
# CHECK: {{^ +}}getitem_3: "f32[2, 3, 5, 8][120, 40, 8, 1]cpu" =
# CHECK: {{^ +}}getitem_4: "f32[2, 3, 5][15, 1, 3]cpu" =
# The same ops on contiguous operands are decided.
# CHECK: {{^ +}}add: "f32[5, 4][4, 1]cpu" =
def forward(self, g: "f32[5, 4]cpu", y: "f32[4, 5]cpu", b: "f32[2, 7, 3]cpu", w: "f32[3]cpu", z: "f32[6]cpu", q: "f32[2, 3, 5, 8]cpu"):
    t: "f32[5, 4]cpu" = torch.ops.aten.t.default(y)
    threshold_backward: "f32[5, 4]cpu" = torch.ops.aten.threshold_backward.default(g, t, 0.0)
    clone: "f32[5, 4]cpu" = torch.ops.aten.clone.default(threshold_backward, memory_format = torch.contiguous_format)
    view: "f32[20]cpu" = torch.ops.aten.view.default(clone, [20])
    xlogy: "f32[5, 4]cpu" = torch.ops.aten.xlogy.Tensor(g, t)
    transpose: "f32[2, 3, 7]cpu" = torch.ops.aten.transpose.int(b, 1, 2)
    native_batch_norm = torch.ops.aten.native_batch_norm.default(transpose, w, w, w, w, False, 0.1, 1e-05)
    getitem: "f32[2, 3, 7]cpu" = native_batch_norm[0]
    odd: "f32[2, 1, 3]cpu" = torch.ops.aten.as_strided.default(z, [2, 1, 3], [3, 100, 1])
    relu: "f32[2, 1, 3]cpu" = torch.ops.aten.relu.default(odd)
    empty_like: "f32[2, 1, 3]cpu" = torch.ops.aten.empty_like.default(odd)
    sdpa = torch.ops.aten._scaled_dot_product_flash_attention_for_cpu.default(q, q, q)
    getitem_3: "f32[2, 3, 5, 8]cpu" = sdpa[0]
    getitem_4: "f32[2, 3, 5]cpu" = sdpa[1]
    add: "f32[5, 4]cpu" = torch.ops.aten.add.Tensor(g, g)
    return (view, xlogy, getitem, relu, empty_like, getitem_3, getitem_4, add)
