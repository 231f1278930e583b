# Ops that allocate their result: reductions, the matmul family, softmax and layer_norm give
# contiguous results; cat below four dimensions is contiguous; convolution of contiguous input
# and weight is contiguous; factories follow memory_format (contiguous by default), *_like and
# _to_copy preserve their input's layout (dense strides in its order when it is not dense).
# Values checked against torch 2.13.
# RUN: %declone print --annotate --assume-dense-inputs %s | %FileCheck %s
# CHECK: {{^ +}}permute: "f32[4, 2, 3][1, 12, 4]cpu" =
# CHECK: {{^ +}}transpose: "f32[4, 3, 2][1, 4, 12]cpu" =
# CHECK: {{^ +}}sum_1: "f32[4, 2][2, 1]cpu" =
# CHECK: {{^ +}}mean: "f32[4, 1, 3][3, 3, 1]cpu" =
# CHECK: {{^ +}}bmm: "f32[4, 2, 2][4, 2, 1]cpu" =
# CHECK: {{^ +}}softmax: "f32[4, 2, 3][6, 3, 1]cpu" =
# CHECK: {{^ +}}getitem: "f32[4, 2, 3][6, 3, 1]cpu" =
# CHECK: {{^ +}}getitem_1: "f32[4, 2, 1][2, 1, 1]cpu" =
# CHECK: {{^ +}}cat: "f32[8, 2, 3][6, 3, 1]cpu" =
# CHECK: {{^ +}}convolution: "f32[2, 8, 6, 6][288, 36, 6, 1]cpu" =
# CHECK: {{^ +}}empty: "f32[2, 3, 8, 8][192, 1, 24, 3]cpu" =
# CHECK: {{^ +}}zeros: "f32[5, 6][6, 1]cpu" =
# CHECK: {{^ +}}empty_like: "f32[4, 2, 3][1, 12, 4]cpu" =
# CHECK: {{^ +}}slice_1: "f32[4, 2, 2][1, 12, 4]cpu" =
# CHECK: {{^ +}}to_copy: "f16[4, 2, 2][1, 8, 4]cpu" =
def forward(self, x: "f32[2, 3, 4]cpu", w: "f32[8, 3, 3, 3]cpu", img: "f32[2, 3, 8, 8]cpu", n: "f32[4]cpu"):
    permute: "f32[4, 2, 3]cpu" = torch.ops.aten.permute.default(x, [2, 0, 1])
    transpose: "f32[4, 3, 2]cpu" = torch.ops.aten.transpose.int(permute, 1, 2)
    sum_1: "f32[4, 2]cpu" = torch.ops.aten.sum.dim_IntList(permute, [2])
    mean: "f32[4, 1, 3]cpu" = torch.ops.aten.mean.dim(permute, [1], True)
    bmm: "f32[4, 2, 2]cpu" = torch.ops.aten.bmm.default(permute, transpose)
    softmax: "f32[4, 2, 3]cpu" = torch.ops.aten._softmax.default(permute, -1, False)
    layer_norm = torch.ops.aten.native_layer_norm.default(permute, [3], None, None, 1e-05)
    getitem: "f32[4, 2, 3]cpu" = layer_norm[0]
    getitem_1: "f32[4, 2, 1]cpu" = layer_norm[1]
    cat: "f32[8, 2, 3]cpu" = torch.ops.aten.cat.default([permute, permute])
    convolution: "f32[2, 8, 6, 6]cpu" = torch.ops.aten.convolution.default(img, w, None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)
    empty: "f32[2, 3, 8, 8]cpu" = torch.ops.aten.empty.memory_format([2, 3, 8, 8], dtype = torch.float32, memory_format = torch.channels_last)
    zeros: "f32[5, 6]cpu" = torch.ops.aten.zeros.default([5, 6], dtype = torch.float32)
    empty_like: "f32[4, 2, 3]cpu" = torch.ops.aten.empty_like.default(permute)
    slice_1: "f32[4, 2, 2]cpu" = torch.ops.aten.slice.Tensor(permute, 2, 0, 2)
    to_copy: "f16[4, 2, 2]cpu" = torch.ops.aten._to_copy.default(slice_1, dtype = torch.float16)
    return (sum_1, mean, bmm, softmax, getitem, getitem_1, cat, convolution, empty, zeros, empty_like, to_copy)
