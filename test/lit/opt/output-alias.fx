# Rule 6 (output-alias): removing the clone must not make an output alias a graph input that is
# not donated, or another output. A donated input may be returned.
# RUN: %declone opt %s --remarks 2>&1 >/dev/null | %FileCheck %s --check-prefix=SAFE
# RUN: %declone opt %s --remarks --donated arg0_1 2>&1 >/dev/null | %FileCheck %s --check-prefix=DONATED
# RUN: %declone opt %s --remarks --mode vllm-0.32 2>&1 >/dev/null | %FileCheck %s --check-prefix=VLLM
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4][1]cpu"):
        clone: "f32[4][1]cpu" = torch.ops.aten.clone.default(arg0_1)
        # SAFE: :[[@LINE-1]]: remark: clone 'clone' kept [output-alias]: clone is returned and would alias graph input arg0_1
        # DONATED: :[[@LINE-2]]: remark: clone 'clone' removed
        # VLLM: :[[@LINE-3]]: remark: clone 'clone' removed
        relu: "f32[4][1]cpu" = torch.ops.aten.relu.default(arg0_1);  arg0_1 = None
        clone_1: "f32[4][1]cpu" = torch.ops.aten.clone.default(relu)
        # SAFE: :[[@LINE-1]]: remark: clone 'clone_1' kept [output-alias]: clone_1 and relu are both returned and would share storage
        # DONATED: :[[@LINE-2]]: remark: clone 'clone_1' kept [output-alias]
        # VLLM: :[[@LINE-3]]: remark: clone 'clone_1' removed
        return (clone, clone_1, relu)
