# Inputs a reviewer found crashing or misleading the first rules: never a crash, and strides only
# where PyTorch's own rules give them (values checked against torch 2.13).
# RUN: %declone print --annotate --assume-dense-inputs %s | %FileCheck %s
# RUN: %declone opt %s --assume-dense-inputs --remarks 2>&1 >/dev/null | %FileCheck %s --check-prefix=REMARKS
def forward(self, x: "f32[2, 3, 4]cpu", s: "f32[]cpu", a: "f32[4, 3]cpu", e: "f32[5]cpu", big: "f32[4294967296, 4294967296, 4]cpu", z: "f32[0, 3, 2, 2]cpu"):
    # contiguous(channels_last) of a 3-D tensor: PyTorch refuses it; no strides, no crash.
    # CHECK: {{^ +}}cl: "f32[2, 3, 4, 5]cpu" =
    cl: "f32[2, 3, 4, 5]cpu" = torch.ops.aten.contiguous.default(x, memory_format = torch.channels_last)
    # A 0-dim tensor has no dimension to transpose, slice or unbind here; whatever the op, a
    # 0-dim result's strides are the empty list (which a dump prints as `f32[]`).
    # CHECK: {{^ +}}t0: "f32[][]cpu" =
    t0: "f32[]cpu" = torch.ops.aten.transpose.int(s, 0, 0)
    # CHECK: {{^ +}}s0: "f32[][]cpu" =
    s0: "f32[]cpu" = torch.ops.aten.slice.Tensor(s)
    # An annotation whose rank disagrees with the op: the inferred strides are dropped.
    # CHECK: {{^ +}}p: "f32[4]cpu" =
    p: "f32[4]cpu" = torch.ops.aten.permute.default(a, [1, 0])
    # max.other is pointwise (maximum), not a reduction: not contiguous for transposed inputs.
    # CHECK: {{^ +}}at: "f32[3, 4][1, 3]cpu" =
    at: "f32[3, 4]cpu" = torch.ops.aten.permute.default(a, [1, 0])
    # CHECK: {{^ +}}m: "f32[3, 4]cpu" =
    m: "f32[3, 4]cpu" = torch.ops.aten.max.other(at, at)
    clone: "f32[3, 4]cpu" = torch.ops.aten.clone.default(m, memory_format = torch.contiguous_format)
    # REMARKS: remark: clone 'clone' kept [layout-unknown]: strides of m are unknown
    # squeeze.dim removes the dimension it names, not the first of size 1.
    # CHECK: {{^ +}}y: "f32[1, 1][5, 1]cpu" =
    y: "f32[1, 1]cpu" = torch.ops.aten.as_strided.default(e, [1, 1], [5, 1])
    # CHECK: {{^ +}}q: "f32[1][5]cpu" =
    q: "f32[1]cpu" = torch.ops.aten.squeeze.dim(y, 1)
    # CHECK: {{^ +}}q2: "f32[][]cpu" =
    q2: "f32[]cpu" = torch.ops.aten.squeeze.dims(y, [0, 1])
    # expand to a new leading dimension of size 1: the stride a contiguous one would have.
    # CHECK: {{^ +}}ex: "f32[1, 5][5, 1]cpu" =
    ex: "f32[1, 5]cpu" = torch.ops.aten.expand.default(e, [1, 5])
    # CHECK: {{^ +}}ex2: "f32[2, 5][0, 1]cpu" =
    ex2: "f32[2, 5]cpu" = torch.ops.aten.expand.default(e, [2, -1])
    # Sizes whose products overflow 64 bits: no strides, no undefined behaviour.
    # CHECK: {{^ +}}v: "f32[4294967296, 17179869184]cpu" =
    v: "f32[4294967296, 17179869184]cpu" = torch.ops.aten.view.default(big, [4294967296, 17179869184])
    # A tensor without elements is row-major contiguous whatever its strides, not channels-last.
    # CHECK: {{^ +}}zc: "f32[0, 3, 2, 2][12, 1, 6, 3]cpu" =
    zc: "f32[0, 3, 2, 2]cpu" = torch.ops.aten.contiguous.default(z, memory_format = torch.channels_last)
    return (cl, t0, s0, p, clone, q, q2, ex, ex2, v, zc)
