# Rule 5 (clone-read-after-source-write): the source is written after the clone, and the clone
# is read after that write; without the clone it would see the new value. vLLM does not look
# at writes to the source and removes it.
# RUN: %declone opt %s --remarks 2>&1 >/dev/null | %FileCheck %s --check-prefix=SAFE
# RUN: %declone opt %s --remarks --mode vllm 2>&1 >/dev/null | %FileCheck %s --check-prefix=VLLM
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4][1]cpu"):
        relu: "f32[4][1]cpu" = torch.ops.aten.relu.default(arg0_1);  arg0_1 = None
        clone: "f32[4][1]cpu" = torch.ops.aten.clone.default(relu)
        # SAFE: :[[@LINE-1]]: remark: clone 'clone' kept [clone-read-after-source-write]: add_ (line [[@LINE+2]]) writes relu after the clone, then sin (line [[@LINE+3]]) reads clone
        # VLLM: :[[@LINE-2]]: remark: clone 'clone' removed
        add_: "f32[4][1]cpu" = torch.ops.aten.add_.Tensor(relu, 1);  add_ = None
        sin: "f32[4][1]cpu" = torch.ops.aten.sin.default(clone);  clone = None
        clone_1: "f32[4][1]cpu" = torch.ops.aten.clone.default(relu)
        # SAFE: :[[@LINE-1]]: remark: clone 'clone_1' removed
        # VLLM: :[[@LINE-2]]: remark: clone 'clone_1' removed
        cos: "f32[4][1]cpu" = torch.ops.aten.cos.default(clone_1);  clone_1 = None
        mul_: "f32[4][1]cpu" = torch.ops.aten.mul_.Tensor(relu, 2);  relu = mul_ = None
        return (sin, cos)
