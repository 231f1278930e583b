# Issue 16, class 1: these kernels return their argument (or a view of it) although their schemas
# declare a new tensor; the override table made by the effect audit (lib/analysis/
# effect-overrides.txt) says so, and the safe mode keeps the clones in front of them: a write to
# the result would reach the graph input, or the output would be the input itself. A result that
# is an element of a list argument (einsum, broadcast_tensors) may alias any argument. vLLM's
# pass trusts the schemas and removes them all. lit verify/effect-aliasing.fx proves each by
# execution.
# RUN: %declone opt %s --remarks 2>&1 >/dev/null | %FileCheck %s
# RUN: %declone opt %s --mode vllm-0.32 --remarks 2>&1 >/dev/null | %FileCheck %s --check-prefix=VLLM
# VLLM-COUNT-6: remark: clone '{{clone(_[0-9])?}}' removed
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4, 4][4, 1]cpu", arg1_1: "f32[4, 4][4, 1]cpu", arg2_1: "f32[4, 4][4, 1]cpu", arg3_1: "f32[4, 4][4, 1]cpu", arg4_1: "f32[4, 4][4, 1]cpu", arg5_1: "f32[4, 4][4, 1]cpu"):
        # _unsafe_view returns a view of its argument: add_ writes the clone.
        clone: "f32[4, 4][4, 1]cpu" = torch.ops.aten.clone.default(arg0_1);  arg0_1 = None
        # CHECK: :[[@LINE-1]]: remark: clone 'clone' kept [input-mutation]: add_ (line [[@LINE+2]]) writes _unsafe_view; arg0_1 is a graph input that is not donated
        _unsafe_view: "f32[16][1]cpu" = torch.ops.aten._unsafe_view.default(clone, [16]);  clone = None
        add_: "f32[16][1]cpu" = torch.ops.aten.add_.Tensor(_unsafe_view, 1);  _unsafe_view = None
        # unsafe_split's pieces are views of its argument: mul_ writes the clone.
        clone_1: "f32[4, 4][4, 1]cpu" = torch.ops.aten.clone.default(arg1_1);  arg1_1 = None
        # CHECK: :[[@LINE-1]]: remark: clone 'clone_1' kept [input-mutation]: mul_ (line [[@LINE+3]]) writes getitem; arg1_1 is a graph input that is not donated
        unsafe_split = torch.ops.aten.unsafe_split.Tensor(clone_1, 2);  clone_1 = None
        getitem: "f32[2, 4][4, 1]cpu" = unsafe_split[0];  unsafe_split = None
        mul_: "f32[2, 4][4, 1]cpu" = torch.ops.aten.mul_.Tensor(getitem, 2);  getitem = None
        # dropout with train=False returns its argument: without the clone the output would be
        # the graph input itself.
        clone_2: "f32[4, 4][4, 1]cpu" = torch.ops.aten.clone.default(arg2_1);  arg2_1 = None
        # CHECK: :[[@LINE-1]]: remark: clone 'clone_2' kept [output-alias]: clone_2 is returned and would alias graph input arg2_1
        dropout: "f32[4, 4][4, 1]cpu" = torch.ops.aten.dropout.default(clone_2, 0.5, False);  clone_2 = None
        # type_as to the dtype it has returns self: sub_ writes the clone.
        clone_3: "f32[4, 4][4, 1]cpu" = torch.ops.aten.clone.default(arg3_1);  arg3_1 = None
        # CHECK: :[[@LINE-1]]: remark: clone 'clone_3' kept [input-mutation]: sub_ (line [[@LINE+2]]) writes type_as; arg3_1 is a graph input that is not donated
        type_as: "f32[4, 4][4, 1]cpu" = torch.ops.aten.type_as.default(clone_3, arg5_1);  clone_3 = None
        sub_: "f32[4, 4][4, 1]cpu" = torch.ops.aten.sub_.Tensor(type_as, 1);  type_as = None
        # einsum of one operand, and broadcast_tensors of one tensor, return (views of) their
        # operand, which is in a list: the result may alias any argument.
        clone_4: "f32[4, 4][4, 1]cpu" = torch.ops.aten.clone.default(arg4_1);  arg4_1 = None
        # CHECK: :[[@LINE-1]]: remark: clone 'clone_4' kept [output-alias]: clone_4 is returned and would alias graph input arg4_1
        einsum: "f32[4, 4][4, 1]cpu" = torch.ops.aten.einsum.default('ij', [clone_4]);  clone_4 = None
        clone_5: "f32[4, 4][4, 1]cpu" = torch.ops.aten.clone.default(arg5_1);  arg5_1 = None
        # CHECK: :[[@LINE-1]]: remark: clone 'clone_5' kept [output-alias]: clone_5 is returned and would alias graph input arg5_1
        broadcast_tensors = torch.ops.aten.broadcast_tensors.default([clone_5]);  clone_5 = None
        getitem_1: "f32[4, 4][4, 1]cpu" = broadcast_tensors[0];  broadcast_tensors = None
        return (add_, mul_, dropout, sub_, einsum, getitem_1)
