# Issue 29, cases 1 and 2, executed: _reshape_from_tensor to the sizes a tensor has returns it
# (self.reshape), and native_dropout of a tensor with no elements returns its input, although both
# schemas declare new tensors. Dropping the clone in front of each, as the safe mode did before
# the widened audit, changes what the caller sees: the input written through the alias, or an
# output that is the input itself. The safe mode keeps both (lit opt/soundness-round3.fx) and
# its rewrite verifies.
# RUN: %declone verify %s %s | %FileCheck %s --check-prefix=SAME
# SAME: equivalent (1 run)
# RUN: %expect-exit 1 %declone verify %s %S/Inputs/reshape-from-tensor-clone-dropped.fx | %FileCheck %s --check-prefix=RESHAPE
# RESHAPE: reshape-from-tensor-clone-dropped.fx: not equivalent to {{.*}}soundness-round3.fx: input 0 (arg0_1): values differ
# RUN: %expect-exit 1 %declone verify %s %S/Inputs/native-dropout-empty-clone-dropped.fx | %FileCheck %s --check-prefix=DROPOUT
# DROPOUT: native-dropout-empty-clone-dropped.fx: not equivalent to {{.*}}soundness-round3.fx: output 1: aliases input 2 != nothing
# RUN: %declone opt %s --verify > /dev/null
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4, 4][4, 1]cpu", arg1_1: "f32[4, 4][4, 1]cpu", arg2_1: "f32[0, 4][4, 1]cpu"):
        _shape_as_tensor: "i64[2][1]cpu" = torch.ops.aten._shape_as_tensor.default(arg1_1);  arg1_1 = None
        clone: "f32[4, 4][4, 1]cpu" = torch.ops.aten.clone.default(arg0_1);  arg0_1 = None
        _reshape_from_tensor: "f32[4, 4][4, 1]cpu" = torch.ops.aten._reshape_from_tensor.default(clone, _shape_as_tensor);  clone = _shape_as_tensor = None
        add_: "f32[4, 4][4, 1]cpu" = torch.ops.aten.add_.Tensor(_reshape_from_tensor, 1);  _reshape_from_tensor = None
        clone_1: "f32[0, 4][4, 1]cpu" = torch.ops.aten.clone.default(arg2_1);  arg2_1 = None
        native_dropout = torch.ops.aten.native_dropout.default(clone_1, 0.5, True);  clone_1 = None
        getitem: "f32[0, 4][4, 1]cpu" = native_dropout[0];  native_dropout = None
        return (add_, getitem)
