# View ops by exact rules (print --annotate writes what they infer); values checked against
# torch 2.13 by executing the same views.
# RUN: %declone print --annotate --assume-dense-inputs %s | %FileCheck %s
# CHECK: {{^ +}}permute: "f32[4, 2, 3][1, 12, 4]cpu"
# CHECK: {{^ +}}transpose: "f32[2, 4, 3][12, 1, 4]cpu"
# CHECK: {{^ +}}select_z: "f32[4, 5][5, 1]cpu"
# CHECK: {{^ +}}t: "f32[5, 4][1, 5]cpu"
# CHECK: {{^ +}}expand: "f32[7, 2, 3, 4][0, 12, 4, 1]cpu"
# CHECK: {{^ +}}unsqueeze: "f32[2, 3, 1, 4][12, 4, 4, 1]cpu"
# CHECK: {{^ +}}squeeze: "f32[4, 5][5, 1]cpu"
# CHECK: {{^ +}}select: "f32[2, 4][12, 1]cpu@8"
# CHECK: {{^ +}}slice_1: "f32[2, 3, 2][12, 4, 2]cpu@1"
# CHECK: {{^ +}}view: "f32[4, 6][1, 4]cpu"
# CHECK: {{^ +}}reshape: "f32[2, 12][12, 1]cpu"
# CHECK: {{^ +}}view_1: "f32[3, 2][2, 1]cpu"
# CHECK: {{^ +}}as_strided: "f32[2, 2][1, 2]cpu@1"
# CHECK: {{^ +}}getitem: "f32[2, 2, 3][12, 1, 4]cpu@2"
# CHECK: {{^ +}}getitem_1: "f32[4, 3][1, 4]cpu"
def forward(self, x: "f32[2, 3, 4]cpu", y: "f32[6]cpu", z: "f32[4, 1, 5]cpu"):
    permute: "f32[4, 2, 3]cpu" = torch.ops.aten.permute.default(x, [2, 0, 1])
    transpose: "f32[2, 4, 3]cpu" = torch.ops.aten.transpose.int(x, 1, 2)
    select_z: "f32[4, 5]cpu" = torch.ops.aten.select.int(z, 1, 0)
    t: "f32[5, 4]cpu" = torch.ops.aten.t.default(select_z)
    expand: "f32[7, 2, 3, 4]cpu" = torch.ops.aten.expand.default(x, [7, -1, -1, -1])
    unsqueeze: "f32[2, 3, 1, 4]cpu" = torch.ops.aten.unsqueeze.default(x, 2)
    squeeze: "f32[4, 5]cpu" = torch.ops.aten.squeeze.dim(z, 1)
    select: "f32[2, 4]cpu" = torch.ops.aten.select.int(x, 1, 2)
    slice_1: "f32[2, 3, 2]cpu" = torch.ops.aten.slice.Tensor(x, 2, 1, 4, 2)
    view: "f32[4, 6]cpu" = torch.ops.aten.view.default(permute, [4, 6])
    reshape: "f32[2, 12]cpu" = torch.ops.aten.reshape.default(permute, [2, 12])
    view_1: "f32[3, 2]cpu" = torch.ops.aten.view.default(y, [3, 2])
    as_strided: "f32[2, 2]cpu" = torch.ops.aten.as_strided.default(y, [2, 2], [1, 2], 1)
    split = torch.ops.aten.split.Tensor(transpose, 2, 1)
    getitem: "f32[2, 2, 3]cpu" = split[1]
    unbind = torch.ops.aten.unbind.int(permute, 1)
    getitem_1: "f32[4, 3]cpu" = unbind[0]
    return (permute, transpose, t, expand, unsqueeze, squeeze, select, slice_1, view, reshape, view_1, as_strided, getitem, getitem_1)
