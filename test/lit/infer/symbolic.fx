# Symbolic sizes (a dump of torch.compile with dynamic batch and sequence, torch 2.13, whose
# printed strides are the CHECK lines): a comparison PyTorch makes while tracing is decided
# only when every value of the symbols gives one answer (backed sizes are at least 2). The
# split pieces view as heads (192*s95 against 64*s95 is never equal), pointwise ops, casts,
# empty_like and 4-D cat of the transposed heads order 1 < 16 < 64 < 64*s95, and the
# channels-last product keeps its format. view_w stays unknown: s7 against 64 depends on s7.
# RUN: %declone print --annotate %s | %FileCheck %s
# CHECK: {{^ +}}getitem: "f32[s30, s95, 64][192*s95, 192, 1]cpu" =
# CHECK: {{^ +}}getitem_1: "f32[s30, s95, 64][192*s95, 192, 1]cpu@64" =
# CHECK: {{^ +}}view: "f32[s30, s95, 4, 16][192*s95, 192, 16, 1]cpu" =
# CHECK: {{^ +}}transpose: "f32[s30, 4, s95, 16][192*s95, 16, 192, 1]cpu" =
# CHECK: {{^ +}}relu: "f32[s30, 4, s95, 16][64*s95, 16, 64, 1]cpu" =
# CHECK: {{^ +}}_to_copy: "f64[s30, 4, s95, 16][64*s95, 16, 64, 1]cpu" =
# CHECK: {{^ +}}convert_element_type: "f64[s30, 4, s95, 16][64*s95, 16, 64, 1]cpu" =
# CHECK: {{^ +}}cat: "f32[s30, 4, s95, 32][128*s95, 32*s95, 32, 1]cpu" =
# CHECK: {{^ +}}empty_like: "f32[s30, 4, s95, 16][64*s95, 16, 64, 1]cpu" =
# CHECK: {{^ +}}unsqueeze: "f32[s30, s95, 1, 64][192*s95, 192, 64, 1]cpu@64" =
# CHECK: {{^ +}}squeeze: "f32[s30, s95, 64][192*s95, 192, 1]cpu@64" =
# CHECK: {{^ +}}mul_37: "f32[s45, 8, 5, 6][240, 1, 48, 8]cpu" =
# CHECK: {{^ +}}view_w: "f32[s30, s95, 4, 16]cpu" =
def forward(self, arg0_1: "Sym(s30)", arg1_1: "Sym(s95)", arg2_1: "f32[s30, s95, 192][192*s95, 192, 1]cpu", arg3_1: "Sym(s45)", arg4_1: "f32[s45, 8, 5, 6][240, 1, 48, 8]cpu", arg5_1: "f32[8, 5, 6][30, 6, 1]cpu", w: "f32[s30, s95, 64][s7*s95, s7, 1]cpu"):
    split = torch.ops.aten.split.Tensor(arg2_1, 64, -1)
    getitem: "f32[s30, s95, 64]cpu" = split[0]
    getitem_1: "f32[s30, s95, 64]cpu" = split[1]
    view: "f32[s30, s95, 4, 16]cpu" = torch.ops.aten.view.default(getitem, [arg0_1, arg1_1, 4, 16])
    transpose: "f32[s30, 4, s95, 16]cpu" = torch.ops.aten.transpose.int(view, 1, 2)
    relu: "f32[s30, 4, s95, 16]cpu" = torch.ops.aten.relu.default(transpose)
    _to_copy: "f64[s30, 4, s95, 16]cpu" = torch.ops.aten._to_copy.default(transpose, dtype = torch.float64)
    convert_element_type: "f64[s30, 4, s95, 16]cpu" = torch.ops.prims.convert_element_type.default(transpose, torch.float64)
    cat: "f32[s30, 4, s95, 32]cpu" = torch.ops.aten.cat.default([transpose, transpose], -1)
    empty_like: "f32[s30, 4, s95, 16]cpu" = torch.ops.aten.empty_like.default(transpose, pin_memory = False)
    unsqueeze: "f32[s30, s95, 1, 64]cpu" = torch.ops.aten.unsqueeze.default(getitem_1, 2)
    squeeze: "f32[s30, s95, 64]cpu" = torch.ops.aten.squeeze.dim(unsqueeze, 2)
    mul_37: "f32[s45, 8, 5, 6]cpu" = torch.ops.aten.mul.Tensor(arg4_1, arg5_1)
    view_w: "f32[s30, s95, 4, 16]cpu" = torch.ops.aten.view.default(w, [arg0_1, arg1_1, 4, 16])
    return (view_w, relu, _to_copy, convert_element_type, cat, empty_like, squeeze, mul_37)
