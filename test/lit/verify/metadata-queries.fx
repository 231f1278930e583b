# The metadata queries (sym_size, with PyTorch 1.13's spelling without an overload and with
# .int, sym_stride.int, sym_numel.default, sym_storage_offset.default) and Python's arithmetic
# on their results run as PyTorch computes them. They read the layout: with the clone dropped,
# the same queries see the slice's strides and offset, so as_strided takes another window
# (its strides come from sym_stride).
# RUN: %declone verify %s %s --trials 2 | %FileCheck %s --check-prefix=SAME
# SAME: equivalent (2 runs)
# RUN: %expect-exit 1 %declone verify %s %S/Inputs/metadata-queries-clone-dropped.fx | %FileCheck %s --check-prefix=DROPPED
# DROPPED: metadata-queries-clone-dropped.fx: not equivalent to {{.*}}metadata-queries.fx: output 0: stride (6, 1) != (5, 1)
# The safe mode keeps the clone (its layout differs), and its rewrite verifies.
# RUN: %declone opt %s --remarks --verify 2>&1 >/dev/null | %FileCheck %s --check-prefix=OPT
# OPT: remark: clone 'clone' kept [layout-changed]: strides [5, 1] != [6, 1]
# Arithmetic the verifier does not know is exit 2 naming the node.
# RUN: %expect-exit 2 %declone verify %S/Inputs/metadata-queries-unknown-function.fx %S/Inputs/metadata-queries-unknown-function.fx 2>&1 | %FileCheck %s --check-prefix=UNKNOWN
# UNKNOWN: metadata-queries-unknown-function.fx:4: error: cannot execute lshift: operator.lshift of these operands does not run here
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4, 6][6, 1]cpu"):
        slice_1: "f32[4, 5][6, 1]cpu@1" = torch.ops.aten.slice.Tensor(arg0_1, 1, 1, 9223372036854775807)
        clone: "f32[4, 5][5, 1]cpu" = torch.ops.aten.clone.default(slice_1, memory_format = torch.contiguous_format);  slice_1 = None
        sym_size = torch.ops.aten.sym_size(clone, 0)
        sym_size_1 = torch.ops.aten.sym_size.int(clone, -1)
        sym_stride = torch.ops.aten.sym_stride.int(clone, 0)
        sym_numel = torch.ops.aten.sym_numel.default(clone)
        sym_storage_offset = torch.ops.aten.sym_storage_offset.default(clone);  clone = None
        mul = sym_size * sym_stride;  sym_size = None
        floordiv = sym_numel // sym_size_1;  sym_numel = None
        as_strided: "f32[4, 5][5, 1]cpu" = torch.ops.aten.as_strided.default(arg0_1, [floordiv, sym_size_1], [sym_stride, 1], sym_storage_offset);  arg0_1 = floordiv = sym_size_1 = sym_stride = sym_storage_offset = None
        return (as_strided, mul)
