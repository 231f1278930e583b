# vllm mode keeps every clone where vLLM's pass would fail an assertion, with the code
# `unsupported` and the assertion in the detail; an op it has no schema for here is
# `unknown-effects` (vLLM reads the schema from the live op). The safe mode decides the same
# clones by its own rules.
# RUN: %declone opt %s --mode vllm --remarks 2>&1 >/dev/null | %FileCheck %s --check-prefix=VLLM
# RUN: %declone opt %s --remarks 2>&1 >/dev/null | %FileCheck %s --check-prefix=SAFE
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4][1]cpu"):
        mul: "f32[4][1]cpu" = torch.ops.aten.mul.Tensor(arg0_1, 2);  arg0_1 = None
        clone = torch.ops.aten.clone.default(1.0)
        # The clone's input is a constant.
        # VLLM: :[[@LINE-2]]: remark: clone 'clone' kept [unsupported]: vLLM asserts that the clone's input is a node, and it is not one
        # SAFE: :[[@LINE-3]]: remark: clone 'clone' kept [unknown-effects]: the clone's input is not a node
        clone_1: "f32[4][1]cpu" = torch.ops.aten.clone.default(self = mul)
        # The clone's input is a keyword argument: vLLM reads node.args[0].
        # VLLM: :[[@LINE-2]]: remark: clone 'clone_1' kept [unsupported]: vLLM takes the clone's input from its positional arguments, and it has none
        # SAFE: :[[@LINE-3]]: remark: clone 'clone_1' kept [unknown-effects]: the clone has no positional input
        clone_2: "f32[4][1]cpu" = torch.ops.aten.clone.default(mul)
        # A user whose target is not an OpOverload (getitem of a tensor is a view: safe removes it).
        # VLLM: :[[@LINE-2]]: remark: clone 'clone_2' kept [unsupported]: vLLM asserts that getitem (line [[@LINE+2]]) has an OpOverload target, not operator.getitem
        # SAFE: :[[@LINE-3]]: remark: clone 'clone_2' removed
        getitem: "f32[][]cpu" = clone_2[0];  clone_2 = None
        clone_3: "f32[4][1]cpu" = torch.ops.aten.clone.default(mul)
        # A user with more positional arguments than its schema declares.
        # VLLM: :[[@LINE-2]]: remark: clone 'clone_3' kept [unsupported]: vLLM asserts that add_ (line [[@LINE+2]]) has no more positional arguments than its schema, but it has 4 for 3
        # SAFE: :[[@LINE-3]]: remark: clone 'clone_3' kept [unknown-effects]: add_ (line [[@LINE+1]]) touches clone_3: more arguments than the schema of aten::add_.Tensor declares
        add_: "f32[4][1]cpu" = torch.ops.aten.add_.Tensor(clone_3, 1, 1, 2);  clone_3 = None
        clone_4: "f32[4][1]cpu" = torch.ops.aten.clone.default(mul)
        # Two writes to the clone.
        # VLLM: :[[@LINE-2]]: remark: clone 'clone_4' kept [unsupported]: vLLM asserts at most one write, but add__1 (line [[@LINE+2]]) and mul_ (line [[@LINE+3]]) write clone_4
        # SAFE: :[[@LINE-3]]: remark: clone 'clone_4' kept [source-read-after-write]
        add__1: "f32[4][1]cpu" = torch.ops.aten.add_.Tensor(clone_4, 1)
        mul_: "f32[4][1]cpu" = torch.ops.aten.mul_.Tensor(clone_4, 2);  clone_4 = None
        clone_5: "f32[4][1]cpu" = torch.ops.aten.clone.default(mul);  mul = None
        # An op without a schema here is not an assertion of vLLM's.
        # VLLM: :[[@LINE-2]]: remark: clone 'clone_5' kept [unknown-effects]: no schema for torch.ops.mylib.frob.default, which vLLM reads from the live op
        # SAFE: :[[@LINE-3]]: remark: clone 'clone_5' kept [unknown-effects]: frob (line [[@LINE+1]]) touches clone_5: no schema for mylib::frob.default
        frob: "f32[4][1]cpu" = torch.ops.mylib.frob.default(clone_5);  clone_5 = None
        return (clone, clone_1, getitem, add_, mul_, frob)
