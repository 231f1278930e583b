# Symbolic layouts compare as canonical expressions: provably equal strides (written two ways)
# allow removal; strides that differ for some values of the symbols keep the clone.
# RUN: %declone opt %s --remarks 2>&1 >/dev/null | %FileCheck %s
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "Sym(s0)", arg1_1: "Sym(s1)", arg2_1: "f32[s0, s1, 8][8*s1, 8, 1]cpu"):
        clone: "f32[s0, s1, 8][s1*8, 8, 1]cpu" = torch.ops.aten.clone.default(arg2_1)
        # CHECK: :[[@LINE-1]]: remark: clone 'clone' removed
        permute: "f32[s1, s0, 8][8, 8*s1, 1]cpu" = torch.ops.aten.permute.default(clone, [1, 0, 2])
        clone_1: "f32[s1, s0, 8][8*s0, 8, 1]cpu" = torch.ops.aten.clone.default(permute, memory_format = torch.contiguous_format);  permute = None
        # CHECK: :[[@LINE-1]]: remark: clone 'clone_1' kept [layout-changed]: strides [8*s0, 8, 1] != [8, 8*s1, 1]
        clone_2: "f32[s0, s1, 8]cpu" = torch.ops.aten.clone.default(clone, memory_format = torch.contiguous_format)
        # CHECK: :[[@LINE-1]]: remark: clone 'clone_2' removed
        add: "f32[s0, s1, 8][8*s1, 8, 1]cpu" = torch.ops.aten.add.Tensor(clone, clone_2);  clone = clone_2 = None
        return (add, clone_1, arg0_1, arg1_1)
