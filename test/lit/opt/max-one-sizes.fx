# PyTorch prints a contiguous stride of a dimension of size s as `Max(1, s)` in some places and
# `s` in others. For backed size symbols (s0, s27: PyTorch specializes sizes 0 and 1, so they
# are at least 2) the two are one value and the clones go, with the sizes and strides written
# either way. An unbacked symbol (u0) may be 0, where Max(1, u0) is 1 and u0 is 0: kept.
# RUN: %declone opt %s --remarks 2>&1 >/dev/null | %FileCheck %s
# RUN: %declone opt %s --verify > /dev/null
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "Sym(s0)", arg1_1: "f32[4, s0][s0, 1]cpu", arg2_1: "Sym(s27)", arg3_1: "f32[s27, 576][576, 1]cpu", arg4_1: "Sym(u0)", arg5_1: "f32[4, u0][u0, 1]cpu"):
        clone: "f32[4, s0][Max(1, s0), 1]cpu" = torch.ops.aten.clone.default(arg1_1, memory_format = torch.contiguous_format)
        # CHECK: :[[@LINE-1]]: remark: clone 'clone' removed
        slice_1: "f32[4, s0 - 1][s0, 1]cpu" = torch.ops.aten.slice.Tensor(arg1_1, 1, 1, 9223372036854775807);  arg1_1 = None
        clone_1: "f32[4, s0 - 1][Max(1, s0 - 1), 1]cpu" = torch.ops.aten.clone.default(slice_1, memory_format = torch.contiguous_format);  slice_1 = None
        # CHECK: :[[@LINE-1]]: remark: clone 'clone_1' kept [layout-changed]: strides [s0 - 1, 1] != [s0, 1]
        floordiv: "Sym((s27//2))" = arg2_1 // 2;  arg2_1 = None
        slice_2: "f32[(s27//2), 576][576, 1]cpu" = torch.ops.aten.slice.Tensor(arg3_1, 0, 0, floordiv);  arg3_1 = floordiv = None
        view: "f32[Max(1, (s27//2)), 576][576, 1]cpu" = torch.ops.aten.view.default(slice_2, [-1, 576]);  slice_2 = None
        clone_2: "f32[(s27//2), 576][576, 1]cpu" = torch.ops.aten.clone.default(view, memory_format = torch.contiguous_format);  view = None
        # CHECK: :[[@LINE-1]]: remark: clone 'clone_2' removed
        clone_3: "f32[4, u0][Max(1, u0), 1]cpu" = torch.ops.aten.clone.default(arg5_1, memory_format = torch.contiguous_format);  arg5_1 = None
        # CHECK: :[[@LINE-1]]: remark: clone 'clone_3' kept [layout-changed]: strides [Max(1, u0), 1] != [u0, 1]
        mul: "f32[4, s0][s0, 1]cpu" = torch.ops.aten.mul.Tensor(clone, 2);  clone = None
        mul_1: "f32[(s27//2), 576][576, 1]cpu" = torch.ops.aten.mul.Tensor(clone_2, 2);  clone_2 = None
        return (mul, clone_1, mul_1, clone_3, arg0_1, arg4_1)
