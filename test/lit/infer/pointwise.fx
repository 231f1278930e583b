# Pointwise ops take TensorIterator's output layout: the inputs' strides order, broadcast
# dimensions aside; where eager TensorIterator and FakeTensor's elementwise reference disagree
# (a layout that is both contiguous and channels-last) the strides stay unknown, and so do those
# of ops FakeTensor decomposes (rsub, comparisons, where) over operands that are not all
# contiguous. Values checked against torch 2.13 (eager and FakeTensor). The CHECK lines are
# anchored at an indented line: `print` echoes this comment, which must not match.
# RUN: %declone print --annotate --assume-dense-inputs %s | %FileCheck %s
# CHECK: {{^ +}}permute: "f32[4, 2, 3][1, 12, 4]cpu" =
# CHECK: {{^ +}}add: "f32[4, 2, 3][1, 12, 4]cpu" =
# CHECK: {{^ +}}mul: "f32[4, 2, 3][1, 12, 4]cpu" =
# CHECK: {{^ +}}b2: "f32[4, 1, 1][1, 1, 1]cpu" =
# CHECK: {{^ +}}sub: "f32[4, 2, 3][1, 12, 4]cpu" =
# CHECK: {{^ +}}rsub: "f32[4, 2, 3]cpu" =
# CHECK: {{^ +}}gt: "b8[4, 2, 3]cpu" =
# CHECK: {{^ +}}where: "f32[4, 2, 3]cpu" =
# CHECK: {{^ +}}relu: "f32[4, 2, 3][1, 12, 4]cpu" =
# CHECK: {{^ +}}cl: "f32[4, 1280, 1, 1][1280, 1, 1280, 1280]cpu" =
# CHECK: {{^ +}}gelu: "f32[4, 1280, 1, 1]cpu" =
def forward(self, x: "f32[2, 3, 4]cpu", b: "f32[4]cpu", c: "f32[4, 1280, 1, 1]cpu"):
    permute: "f32[4, 2, 3]cpu" = torch.ops.aten.permute.default(x, [2, 0, 1])
    add: "f32[4, 2, 3]cpu" = torch.ops.aten.add.Tensor(permute, 1.0)
    mul: "f32[4, 2, 3]cpu" = torch.ops.aten.mul.Tensor(permute, permute)
    b2: "f32[4, 1, 1]cpu" = torch.ops.aten.view.default(b, [4, 1, 1])
    sub: "f32[4, 2, 3]cpu" = torch.ops.aten.sub.Tensor(b2, permute)
    rsub: "f32[4, 2, 3]cpu" = torch.ops.aten.rsub.Tensor(permute, b2)
    gt: "b8[4, 2, 3]cpu" = torch.ops.aten.gt.Scalar(permute, 0)
    where: "f32[4, 2, 3]cpu" = torch.ops.aten.where.self(gt, permute, 0.0)
    relu: "f32[4, 2, 3]cpu" = torch.ops.aten.relu.default(permute)
    cl: "f32[4, 1280, 1, 1]cpu" = torch.ops.aten.as_strided.default(c, [4, 1280, 1, 1], [1280, 1, 1280, 1280])
    gelu: "f32[4, 1280, 1, 1]cpu" = torch.ops.aten.gelu.default(cl)
    return (add, mul, sub, rsub, where, relu, gelu)
