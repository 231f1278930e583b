# Rule 1 (layout-unknown): without strides the layouts cannot be proved equal, so the safe mode
# keeps the clone; vLLM compares layouts only when the metadata is there, and removes it.
# RUN: %declone opt %s --remarks 2>&1 >/dev/null | %FileCheck %s --check-prefix=SAFE
# RUN: %declone opt %s --remarks --mode vllm-0.32 2>&1 >/dev/null | %FileCheck %s --check-prefix=VLLM
def forward(self, arg0_1: "f32[4, 8]"):
    clone: "f32[4, 8]" = torch.ops.aten.clone.default(arg0_1);  arg0_1 = None
    # SAFE: :[[@LINE-1]]: remark: clone 'clone' kept [layout-unknown]: strides of clone are unknown
    # VLLM: :[[@LINE-2]]: remark: clone 'clone' removed
    relu: "f32[4, 8]" = torch.ops.aten.relu.default(clone);  clone = None
    clone_1 = torch.ops.aten.clone.default(relu);  relu = None
    # SAFE: :[[@LINE-1]]: remark: clone 'clone_1' kept [layout-unknown]: clone_1 has no tensor annotation
    # VLLM: :[[@LINE-2]]: remark: clone 'clone_1' removed
    return (clone_1,)
