# Rule 2's code `unknown-effects` covers several cases, and each detail says which: an input
# that is not a node, or passed by keyword; a source that is not a tensor (its schema returns a
# Scalar); a clone that may share its source's storage (an unknown keyword makes the clone
# itself an op without a usable schema); an op without a schema touching the storage. In vllm
# mode the first two are vLLM's assertions (`unsupported`).
# RUN: %declone opt %s --remarks 2>&1 >/dev/null | %FileCheck %s
# RUN: %declone opt %s --mode vllm-0.32 --remarks 2>&1 >/dev/null | %FileCheck %s --check-prefix=VLLM
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4, 5][5, 1]cpu"):
        mul: "f32[4, 5][5, 1]cpu" = torch.ops.aten.mul.Tensor(arg0_1, 2)
        clone = torch.ops.aten.clone.default(1.0)
        # CHECK: :[[@LINE-1]]: remark: clone 'clone' kept [unknown-effects]: the clone's input is not a node
        # VLLM: :[[@LINE-2]]: remark: clone 'clone' kept [unsupported]: vLLM asserts that the clone's input is a node, and it is not one
        clone_1: "f32[4, 5][5, 1]cpu" = torch.ops.aten.clone.default(self = mul)
        # CHECK: :[[@LINE-1]]: remark: clone 'clone_1' kept [unknown-effects]: the clone has no positional input
        # VLLM: :[[@LINE-2]]: remark: clone 'clone_1' kept [unsupported]: vLLM takes the clone's input from its positional arguments, and it has none
        _local_scalar_dense: "f32[][]cpu@0" = torch.ops.aten._local_scalar_dense.default(mul)
        clone_2: "f32[][]cpu" = torch.ops.aten.clone.default(_local_scalar_dense);  _local_scalar_dense = None
        # CHECK: :[[@LINE-1]]: remark: clone 'clone_2' kept [unknown-effects]: cannot tell the storages of clone_2 and _local_scalar_dense apart: _local_scalar_dense is not a tensor
        # VLLM: :[[@LINE-2]]: remark: clone 'clone_2' removed
        clone_3: "f32[4, 5][5, 1]cpu" = torch.ops.aten.clone.default(mul, frobnicate = True);  mul = None
        # CHECK: :[[@LINE-1]]: remark: clone 'clone_3' kept [unknown-effects]: cannot tell the storages of clone_3 and mul apart: they may be the same
        # VLLM: :[[@LINE-2]]: remark: clone 'clone_3' removed
        mul_1: "f32[4, 5][5, 1]cpu" = torch.ops.aten.mul.Tensor(arg0_1, 3);  arg0_1 = None
        clone_4: "f32[4, 5][5, 1]cpu" = torch.ops.aten.clone.default(mul_1);  mul_1 = None
        # CHECK: :[[@LINE-1]]: remark: clone 'clone_4' kept [unknown-effects]: frob (line [[@LINE+2]]) touches clone_4: no schema for mylib::frob.default
        # VLLM: :[[@LINE-2]]: remark: clone 'clone_4' kept [unknown-effects]: no schema for torch.ops.mylib.frob.default, which vLLM reads from the live op
        frob: "f32[4, 5][5, 1]cpu" = torch.ops.mylib.frob.default(clone_4);  clone_4 = None
        return (clone, clone_1, clone_2, clone_3, frob)
