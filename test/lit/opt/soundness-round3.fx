# Issue 29, cases 1-3: op facts at the edges the first audit never probed. Each clone is kept.
# - _reshape_from_tensor is `self.reshape(shape)`: to the sizes it has, the result is self (or a
#   view of it), although the schema declares a new tensor (the audit's "sizes as a tensor"
#   probes found it; lib/analysis/effect-overrides.txt).
# - native_dropout of a tensor with no elements returns the input itself (the audit's "empty
#   tensors" probes).
# - set_.source_Storage given a tensor where its schema takes a Storage: the kernel's effects on
#   that argument are unknown, never a plain read.
# verify/soundness-round3.fx proves the first two by execution.
# RUN: %declone opt %s --remarks 2>&1 >/dev/null | %FileCheck %s
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4, 4][4, 1]cpu", arg1_1: "f32[4, 4][4, 1]cpu", arg2_1: "f32[0, 4][4, 1]cpu", arg3_1: "f32[4][1]cpu", arg4_1: "f32[6][1]cpu"):
        # A write to the reshaped clone would reach the graph input.
        _shape_as_tensor: "i64[2][1]cpu" = torch.ops.aten._shape_as_tensor.default(arg1_1);  arg1_1 = None
        clone: "f32[4, 4][4, 1]cpu" = torch.ops.aten.clone.default(arg0_1);  arg0_1 = None
        # CHECK: :[[@LINE-1]]: remark: clone 'clone' kept [input-mutation]: add_ (line [[@LINE+2]]) writes _reshape_from_tensor; arg0_1 is a graph input that is not donated
        _reshape_from_tensor: "f32[4, 4][4, 1]cpu" = torch.ops.aten._reshape_from_tensor.default(clone, _shape_as_tensor);  clone = _shape_as_tensor = None
        add_: "f32[4, 4][4, 1]cpu" = torch.ops.aten.add_.Tensor(_reshape_from_tensor, 1);  _reshape_from_tensor = None
        # Without the clone the output would be the graph input itself.
        clone_1: "f32[0, 4][4, 1]cpu" = torch.ops.aten.clone.default(arg2_1);  arg2_1 = None
        # CHECK: :[[@LINE-1]]: remark: clone 'clone_1' kept [output-alias]: clone_1 is returned and would alias graph input arg2_1
        native_dropout = torch.ops.aten.native_dropout.default(clone_1, 0.5, True);  clone_1 = None
        getitem: "f32[0, 4][4, 1]cpu" = native_dropout[0];  native_dropout = None
        # set_ makes arg3_1 share the clone's memory; add_ then writes it.
        clone_2: "f32[6][1]cpu" = torch.ops.aten.clone.default(arg4_1);  arg4_1 = None
        # CHECK: :[[@LINE-1]]: remark: clone 'clone_2' kept [unknown-effects]: set_ (line [[@LINE+1]]) touches clone_2: a tensor is passed as 'source', a Storage of aten::set_.source_Storage
        set_: "f32[6][1]cpu" = torch.ops.aten.set_.source_Storage(arg3_1, clone_2);  clone_2 = None
        add__1: "f32[6][1]cpu" = torch.ops.aten.add_.Tensor(set_, 1);  set_ = None
        return (add_, getitem, add__1)
