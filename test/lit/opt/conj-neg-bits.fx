# Conjugate and negative bits (issue 16, class 6): `_conj` of a complex tensor and `_neg_view`
# return views that kernels read conjugated or negated; a clone resolves the bit, so removing it
# changes the result (or makes view_as_real raise). Views keep the bits (view), resolve_conj
# clears them, contiguous may return its input or a copy, `conj` of a real tensor is the tensor
# itself; graph inputs and fresh results carry neither bit. vllm mode compares no bits, as vLLM
# does not. verify/conj-neg-bits.fx shows by execution what the removals break.
# RUN: %declone opt %s --remarks 2>&1 >/dev/null | %FileCheck %s
# RUN: %declone opt %s --remarks --mode vllm 2>&1 >/dev/null | %FileCheck %s --check-prefix=VLLM
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "c64[4][1]cpu", arg1_1: "f32[4][1]cpu"):
        mul: "c64[4][1]cpu" = torch.ops.aten.mul.Tensor(arg0_1, 2)
        _conj: "c64[4][1]cpu" = torch.ops.aten._conj.default(mul)
        clone: "c64[4][1]cpu" = torch.ops.aten.clone.default(_conj)
        # CHECK: :[[@LINE-1]]: remark: clone 'clone' kept [layout-changed]: conj bit false != true
        # VLLM: :[[@LINE-2]]: remark: clone 'clone' removed
        mul_1: "f32[4][1]cpu" = torch.ops.aten.mul.Tensor(arg1_1, 2)
        _neg_view: "f32[4][1]cpu" = torch.ops.aten._neg_view.default(mul_1)
        clone_1: "f32[4][1]cpu" = torch.ops.aten.clone.default(_neg_view)
        # CHECK: :[[@LINE-1]]: remark: clone 'clone_1' kept [layout-changed]: neg bit false != true
        # VLLM: :[[@LINE-2]]: remark: clone 'clone_1' removed
        mul_2: "c64[4][1]cpu" = torch.ops.aten.mul.Tensor(arg0_1, 3)
        _conj_1: "c64[4][1]cpu" = torch.ops.aten._conj.default(mul_2)
        view: "c64[2, 2][2, 1]cpu" = torch.ops.aten.view.default(_conj_1, [2, 2])
        clone_2: "c64[2, 2][2, 1]cpu" = torch.ops.aten.clone.default(view)
        # CHECK: :[[@LINE-1]]: remark: clone 'clone_2' kept [layout-changed]: conj bit false != true
        mul_3: "c64[4][1]cpu" = torch.ops.aten.mul.Tensor(arg0_1, 4)
        _conj_2: "c64[4][1]cpu" = torch.ops.aten._conj.default(mul_3)
        resolve_conj: "c64[4][1]cpu" = torch.ops.aten.resolve_conj.default(_conj_2)
        clone_3: "c64[4][1]cpu" = torch.ops.aten.clone.default(resolve_conj)
        # CHECK: :[[@LINE-1]]: remark: clone 'clone_3' removed
        mul_4: "c64[4][1]cpu" = torch.ops.aten.mul.Tensor(arg0_1, 5)
        _conj_3: "c64[4][1]cpu" = torch.ops.aten._conj.default(mul_4)
        contiguous: "c64[4][1]cpu" = torch.ops.aten.contiguous.default(_conj_3)
        clone_4: "c64[4][1]cpu" = torch.ops.aten.clone.default(contiguous)
        # CHECK: :[[@LINE-1]]: remark: clone 'clone_4' kept [layout-unknown]: the conj bit of contiguous is unknown
        mul_5: "f32[4][1]cpu" = torch.ops.aten.mul.Tensor(arg1_1, 3)
        conj: "f32[4][1]cpu" = torch.ops.aten.conj.default(mul_5)
        clone_5: "f32[4][1]cpu" = torch.ops.aten.clone.default(conj)
        # CHECK: :[[@LINE-1]]: remark: clone 'clone_5' removed
        add: "c64[4][1]cpu" = torch.ops.aten.add.Tensor(_conj, 1)
        clone_7: "c64[4][1]cpu" = torch.ops.aten.clone.default(add)
        # CHECK: :[[@LINE-1]]: remark: clone 'clone_7' removed
        return (clone, clone_1, clone_2, clone_3, clone_4, clone_5, clone_7)
