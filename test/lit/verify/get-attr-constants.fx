# get_attr constants run: the verifier makes each attribute's tensor from its annotation, the
# same tensor for the same attribute in both graphs, and compares the attributes' final
# contents and which outputs alias them, as for inputs that are not donated (module state the
# caller keeps). Dropping the clone that add_ writes mutates self._tensor_constant0; dropping
# the returned clone of self._param_constant0 returns the parameter itself.
# RUN: %declone verify %s %s --trials 2 | %FileCheck %s --check-prefix=SAME
# SAME: equivalent (2 runs)
# RUN: %expect-exit 1 %declone verify %s %S/Inputs/get-attr-written-clone-dropped.fx | %FileCheck %s --check-prefix=WRITTEN
# WRITTEN: get-attr-written-clone-dropped.fx: not equivalent to {{.*}}get-attr-constants.fx: attribute self._tensor_constant0: values differ {{.*}} after the call
# RUN: %expect-exit 1 %declone verify %s %S/Inputs/get-attr-returned-clone-dropped.fx | %FileCheck %s --check-prefix=RETURNED
# RETURNED: get-attr-returned-clone-dropped.fx: not equivalent to {{.*}}get-attr-constants.fx: output 1: aliases attribute self._param_constant0 != nothing
# The safe mode keeps both clones, and its rewrite verifies.
# RUN: %declone opt %s --remarks --verify 2>&1 >/dev/null | %FileCheck %s --check-prefix=OPT
# OPT: remark: clone 'clone' kept [input-mutation]
# OPT: remark: clone 'clone_1' kept [output-alias]
# An attribute without a tensor annotation has no value to make: exit 2 naming the node.
# RUN: %expect-exit 2 %declone verify %S/Inputs/get-attr-unannotated.fx %S/Inputs/get-attr-unannotated.fx 2>&1 | %FileCheck %s --check-prefix=UNANNOTATED
# UNANNOTATED: get-attr-unannotated.fx:3: error: get_attr _tensor_constant0 (self._tensor_constant0) needs a tensor annotation to make its value
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[3][1]cpu"):
        _tensor_constant0: "f32[3][1]cpu" = self._tensor_constant0
        _param_constant0: "f32[2, 3][3, 1]cpu" = self._param_constant0
        clone: "f32[3][1]cpu" = torch.ops.aten.clone.default(_tensor_constant0);  _tensor_constant0 = None
        add_: "f32[3][1]cpu" = torch.ops.aten.add_.Tensor(clone, arg0_1);  clone = arg0_1 = None
        mul: "f32[2, 3][3, 1]cpu" = torch.ops.aten.mul.Tensor(add_, _param_constant0);  add_ = None
        clone_1: "f32[2, 3][3, 1]cpu" = torch.ops.aten.clone.default(_param_constant0);  _param_constant0 = None
        return (mul, clone_1)
