# Rule 3 (input-mutation): a write to the clone of a graph input that is not donated would
# change what the caller sees. With --donated (by index, Sym placeholders counted, or by name)
# the write may go to the input.
# RUN: %declone opt %s --remarks 2>&1 >/dev/null | %FileCheck %s --check-prefix=NONE
# RUN: %declone opt %s --remarks --mode vllm 2>&1 >/dev/null | %FileCheck %s --check-prefix=NONE
# RUN: %declone opt %s --remarks --donated 1 2>&1 >/dev/null | %FileCheck %s --check-prefix=FIRST
# RUN: %declone opt %s --remarks --donated arg1_1 --mode vllm 2>&1 >/dev/null | %FileCheck %s --check-prefix=FIRST
# RUN: %declone opt %s --remarks --donated 1,arg2_1 2>&1 >/dev/null | %FileCheck %s --check-prefix=BOTH
# RUN: %expect-exit 2 %declone opt %s --donated 7 2>&1 | %FileCheck %s --check-prefix=RANGE
# RUN: %expect-exit 2 %declone opt %s --donated bogus 2>&1 | %FileCheck %s --check-prefix=NAME
# RANGE: declone opt: error: --donated: index 7 is out of range (the graph has 3 placeholders)
# NAME: declone opt: error: --donated: 'bogus' is not a placeholder of the graph
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "Sym(s0)", arg1_1: "f32[s0][1]cpu", arg2_1: "f32[s0][1]cpu"):
        clone: "f32[s0][1]cpu" = torch.ops.aten.clone.default(arg1_1);  arg1_1 = None
        # NONE: :[[@LINE-1]]: remark: clone 'clone' kept [input-mutation]: add_ (line [[@LINE+7]]) writes clone; arg1_1 is a graph input that is not donated
        # FIRST: :[[@LINE-2]]: remark: clone 'clone' removed
        # BOTH: :[[@LINE-3]]: remark: clone 'clone' removed
        clone_1: "f32[s0][1]cpu" = torch.ops.aten.clone.default(arg2_1);  arg2_1 = None
        # NONE: :[[@LINE-1]]: remark: clone 'clone_1' kept [input-mutation]
        # FIRST: :[[@LINE-2]]: remark: clone 'clone_1' kept [input-mutation]
        # BOTH: :[[@LINE-3]]: remark: clone 'clone_1' removed
        add_: "f32[s0][1]cpu" = torch.ops.aten.add_.Tensor(clone, 1);  add_ = None
        mul_: "f32[s0][1]cpu" = torch.ops.aten.mul_.Tensor(clone_1, 2);  mul_ = None
        add: "f32[s0][1]cpu" = torch.ops.aten.add.Tensor(clone, clone_1);  clone = clone_1 = None
        return (add, arg0_1)
