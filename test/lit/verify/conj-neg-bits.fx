# Conjugate and negative bits, executed (issue 16, class 6): the verifier compares is_conj() and
# is_neg() of every output. Dropping the clone of `_conj` returns a conjugate view, dropping the
# clone of `_neg_view` a negative view, though their values are equal. The safe mode keeps both
# and its rewrite verifies; vllm mode, which compares no bits, does not.
# RUN: %declone verify %s %s | %FileCheck %s --check-prefix=SAME
# SAME: equivalent (1 run)
# RUN: %expect-exit 1 %declone verify %s %S/Inputs/conj-clone-dropped.fx | %FileCheck %s --check-prefix=CONJ
# CONJ: not equivalent to {{.*}}conj-neg-bits.fx: output 0: conj bit true != false
# RUN: %expect-exit 1 %declone verify %s %S/Inputs/neg-clone-dropped.fx | %FileCheck %s --check-prefix=NEG
# NEG: not equivalent to {{.*}}conj-neg-bits.fx: output 1: neg bit true != false
# RUN: %declone opt %s --remarks --verify 2>&1 >/dev/null | %FileCheck %s --check-prefix=OPT
# OPT: remark: clone 'clone' kept [layout-changed]: conj bit false != true
# OPT: remark: clone 'clone_1' kept [layout-changed]: neg bit false != true
# OPT: remark: clone 'clone_2' removed
# RUN: %expect-exit 1 %declone opt %s --mode vllm --verify 2>&1 >/dev/null | %FileCheck %s --check-prefix=VLLM
# VLLM: error: the rewrite does not verify: output 0: conj bit true != false
# RUN: %declone opt %S/../opt/conj-neg-bits.fx --verify > /dev/null
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "c64[4][1]cpu", arg1_1: "f32[4][1]cpu"):
        mul: "c64[4][1]cpu" = torch.ops.aten.mul.Tensor(arg0_1, 2)
        _conj: "c64[4][1]cpu" = torch.ops.aten._conj.default(mul)
        clone: "c64[4][1]cpu" = torch.ops.aten.clone.default(_conj)
        mul_1: "f32[4][1]cpu" = torch.ops.aten.mul.Tensor(arg1_1, 2)
        _neg_view: "f32[4][1]cpu" = torch.ops.aten._neg_view.default(mul_1)
        clone_1: "f32[4][1]cpu" = torch.ops.aten.clone.default(_neg_view)
        _conj_1: "c64[4][1]cpu" = torch.ops.aten._conj.default(mul)
        resolve_conj: "c64[4][1]cpu" = torch.ops.aten.resolve_conj.default(_conj_1)
        clone_2: "c64[4][1]cpu" = torch.ops.aten.clone.default(resolve_conj)
        return (clone, clone_1, clone_2)
