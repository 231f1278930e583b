# A written clone whose source is never used after the write is removed in both modes: the
# write can go to the source directly. Several writes to one clone are fine in the safe mode;
# vLLM asserts on them, so its mode keeps that clone and says why.
# RUN: %declone opt %s --remarks 2>&1 >/dev/null | %FileCheck %s --check-prefix=SAFE
# RUN: %declone opt %s --remarks --mode vllm 2>&1 >/dev/null | %FileCheck %s --check-prefix=VLLM
# RUN: %declone opt %s | %FileCheck %s --check-prefix=OUT
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4][1]cpu"):
        relu: "f32[4][1]cpu" = torch.ops.aten.relu.default(arg0_1)
        clone: "f32[4][1]cpu" = torch.ops.aten.clone.default(relu);  relu = None
        # SAFE: :[[@LINE-1]]: remark: clone 'clone' removed
        # VLLM: :[[@LINE-2]]: remark: clone 'clone' removed
        add_: "f32[4][1]cpu" = torch.ops.aten.add_.Tensor(clone, 1);  add_ = None
        sigmoid: "f32[4][1]cpu" = torch.ops.aten.sigmoid.default(arg0_1);  arg0_1 = None
        clone_1: "f32[4][1]cpu" = torch.ops.aten.clone.default(sigmoid);  sigmoid = None
        # SAFE: :[[@LINE-1]]: remark: clone 'clone_1' removed
        # VLLM: :[[@LINE-2]]: remark: clone 'clone_1' kept [unsupported]: vLLM asserts at most one write, but mul_ (line [[@LINE+1]]) and sub_ (line [[@LINE+2]]) write clone_1
        mul_: "f32[4][1]cpu" = torch.ops.aten.mul_.Tensor(clone_1, 2);  mul_ = None
        sub_: "f32[4][1]cpu" = torch.ops.aten.sub_.Tensor(clone_1, 1);  sub_ = None
        return (clone, clone_1)
# OUT-NOT: = torch.ops.aten.{{clone}}
# OUT: {{^}}        add_: "f32[4][1]cpu" = torch.ops.aten.add_.Tensor(relu, 1);  add_ = None
# OUT: {{^}}        return (relu, sigmoid)
