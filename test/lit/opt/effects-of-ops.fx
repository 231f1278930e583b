# Rule 2 (unknown-effects) and the effect model: auto_functionalized only reads its tensor
# arguments; an op without a schema may do anything to what it is given, until --schemas
# declares it.
# RUN: %declone opt %s --remarks 2>&1 >/dev/null | %FileCheck %s --check-prefix=SAFE
# RUN: printf 'mylib::scale_(Tensor(a!) self, float factor) -> Tensor(a!)\n' > %t.schemas
# RUN: %declone opt %s --remarks --schemas %t.schemas 2>&1 >/dev/null | %FileCheck %s --check-prefix=DECLARED
# RUN: %declone opt %s --remarks --mode vllm 2>&1 >/dev/null | %FileCheck %s --check-prefix=VLLM
# RUN: printf 'not a schema\n' > %t.bad
# RUN: %expect-exit 2 %declone opt %s --schemas %t.bad 2>&1 | %FileCheck %s --check-prefix=BAD
# BAD: .bad:1:{{[0-9]+}}: error:
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[8][1]cpu", arg1_1: "f32[8][1]cpu"):
        relu: "f32[8][1]cpu" = torch.ops.aten.relu.default(arg0_1);  arg0_1 = None
        clone: "f32[8][1]cpu" = torch.ops.aten.clone.default(relu)
        # SAFE: :[[@LINE-1]]: remark: clone 'clone' removed
        # DECLARED: :[[@LINE-2]]: remark: clone 'clone' removed
        # VLLM: :[[@LINE-3]]: remark: clone 'clone' removed
        auto_functionalized = torch.ops.higher_order.auto_functionalized(torch.ops._C.rms_norm.default, result = relu, input = clone, weight = arg1_1, epsilon = 1e-06);  clone = None
        getitem_1: "f32[8][1]cpu" = auto_functionalized[1];  auto_functionalized = None
        clone_1: "f32[8][1]cpu" = torch.ops.aten.clone.default(relu)
        # SAFE: :[[@LINE-1]]: remark: clone 'clone_1' kept [unknown-effects]: scale_ (line [[@LINE+3]]) touches clone_1: no schema for mylib::scale_.default
        # DECLARED: :[[@LINE-2]]: remark: clone 'clone_1' kept [source-read-after-write]: scale_ (line [[@LINE+2]]) writes clone_1, then add (line [[@LINE+3]]) reads relu
        # VLLM: :[[@LINE-3]]: remark: clone 'clone_1' kept [unknown-effects]: no schema for torch.ops.mylib.scale_.default, which vLLM reads from the live op
        scale_: "f32[8][1]cpu" = torch.ops.mylib.scale_.default(clone_1, 2.0);  scale_ = None
        add: "f32[8][1]cpu" = torch.ops.aten.add.Tensor(relu, getitem_1);  relu = getitem_1 = None
        return (add, clone_1)
